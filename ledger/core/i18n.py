"""The interface's language: English (the default), Traditional Chinese as played
in Hong Kong (``zh_Hant``) or Simplified Chinese (``zh_Hans``).

Chosen by ``--lang`` (see :func:`choose`), else ``BIGTWO_LANG``, else the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``zh_TW``, ``zh_HK``, ``zh_MO`` and
``zh_Hant`` mean Traditional; ``zh_CN``, ``zh_SG``, ``zh_Hans`` and plain ``zh``
mean Simplified; anything else English.  Messages are looked up with gettext in the
catalogs compiled into ``ledger/locale`` (``scripts/i18n.py``); English costs one
environment lookup and no file.  JSON output never goes through here: its keys
and values are English in every language.

A server answering people in different languages at once (``bigtwo serve``) sets the
language per request with :func:`using` (a context variable: each request's task and
the worker threads it starts see their own), and :func:`translator` gives the gettext
functions of one language without touching the process's choice.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from ledger.core.errors import InputError

if TYPE_CHECKING:
    import gettext

DOMAIN = "bigtwo"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = {"en": "English", "zh_Hant": "繁體中文 (香港)", "zh_Hans": "简体中文"}
_chosen: str | None = None
_catalogs: dict[str, gettext.NullTranslations] = {}
_here: ContextVar[str | None] = ContextVar("bigtwo_language", default=None)


def normalize(tag: str) -> str | None:
    """The interface language a locale or language tag asks for, or None if it names
    none we know (so the next source is asked).

    >>> [normalize(t) for t in ("zh_HK.UTF-8", "zh-Hant-TW", "zh_CN", "zh", "en_US", "C", "fr_FR")]
    ['zh_Hant', 'zh_Hant', 'zh_Hans', 'zh_Hans', 'en', 'en', None]
    """
    text = tag.strip().split(".")[0].split("@")[0].replace("-", "_")
    low = text.lower()
    if not low:
        return None
    if low in ("c", "posix") or low == "en" or low.startswith("en_"):
        return "en"
    if low == "zh" or low.startswith("zh_"):
        parts = set(low.split("_")[1:])
        if "hans" in parts:  # the script decides over the region (zh-Hans-HK)
            return "zh_Hans"
        if parts & {"hant", "tw", "hk", "mo"}:
            return "zh_Hant"
        return "zh_Hans"
    return None


def choose(lang: str | None) -> None:
    """Use ``lang`` (``--lang``) for this run; None goes back to the environment."""
    global _chosen
    if lang is None:
        _chosen = None
        return
    found = normalize(lang)
    if found is None:
        raise InputError(f"unknown language {lang!r}; choose en, zh_Hant (繁體) or zh_Hans (简体)")
    _chosen = found


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Messages in ``lang`` (a key of :data:`LANGUAGES`) inside the block, for this
    context only (a request of the web server): other requests keep theirs."""
    token = _here.set(lang)
    try:
        yield
    finally:
        _here.reset(token)


def language() -> str:
    here = _here.get()
    if here is not None:
        return here
    if _chosen is not None:
        return _chosen
    env = os.environ
    own = env.get("BIGTWO_LANG")
    if own:
        return normalize(own) or "en"
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:  # the first one set decides, as in the C library
            return normalize(value) or "en"
    return "en"


def catalog(lang: str) -> gettext.NullTranslations:
    """The gettext catalog of ``lang`` (loaded once)."""
    found = _catalogs.get(lang)
    if found is None:
        import gettext

        found = _catalogs[lang] = gettext.translation(
            DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)
    return found


def translator(lang: str) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """``(gettext, ngettext)`` of ``lang``, whatever the current language is."""
    if lang == "en":
        return (lambda message: message), (lambda one, many, n: one if n == 1 else many)
    found = catalog(lang)
    return found.gettext, found.ngettext


def _(message: str) -> str:
    """``message`` in the interface's language."""
    lang = language()
    if lang == "en":
        return message
    return catalog(lang).gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is translated later (by :func:`_`)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    lang = language()
    if lang == "en":
        return singular if n == 1 else plural
    return catalog(lang).ngettext(singular, plural, n)
