"""The page's language, per request: ``?lang=`` (remembered in a cookie), else the
cookie, else the browser's ``Accept-Language``, else the server's language (``bigtwo
--lang``, ``BIGTWO_LANG``, the locale).

The words the page's scripts show are here too (:data:`WORDS`), marked for the
catalogs and handed to the page as one JSON dictionary in its own language.
"""

from __future__ import annotations

from typing import Any

from ledger.core.i18n import LANGUAGES, N_, normalize

COOKIE = "bigtwo_lang"
COOKIE_AGE = 365 * 24 * 3600
# <html lang>: the script, and the region whose usage the catalog follows.
HTML_LANG = {"en": "en", "zh_Hant": "zh-Hant-HK", "zh_Hans": "zh-Hans-CN"}
# The switcher's labels, each in its own language.
NATIVE = {"en": "English", "zh_Hant": "繁體", "zh_Hans": "简体"}


def known(value: str | None) -> str | None:
    """``value`` if it names one of the page's languages exactly (``?lang=``, cookie)."""
    if value is None:
        return None
    value = value.strip()
    return value if value in LANGUAGES else None


def from_accept(header: str | None) -> str | None:
    """The first language of ``Accept-Language`` we speak, by q-value (ties: the order
    given); None if it names none (``*`` and q=0 are skipped).

    >>> from_accept("fr-FR, zh-HK;q=0.8, zh-CN;q=0.9")
    'zh_Hans'
    >>> from_accept("en-US,en;q=0.9,zh-TW;q=0.8")
    'en'
    >>> print(from_accept("fr, de;q=0.5, zh;q=0"))
    None
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:40]):
        tag, *params = (p.strip() for p in part.split(";"))
        if not tag or tag == "*":
            continue
        q = 1.0
        for param in params:
            key, _eq, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            ranked.append((-q, i, tag))
    for _q, _i, tag in sorted(ranked):
        found = normalize(tag)
        if found is not None:
            return found
    return None


def negotiate(query: str | None, cookie: str | None, accept: str | None, default: str) -> str:
    """The language of one request (``query`` already checked with :func:`known`)."""
    return known(query) or known(cookie) or from_accept(accept) or default


def bad_language(value: str) -> str:
    from ledger.core.i18n import _

    return _("unknown language {value!r}; choose en, zh_Hant (繁體) or zh_Hans (简体)").format(
        value=value[:40])


# Every word the page's scripts show; {n}-style placeholders are filled in by the page.
WORDS = {
    "unreadable": N_("the server's answer could not be read"),
    "http": N_("the server answered HTTP {status}"),
    "cards": N_("cards"),
    "penalty": N_("penalty"),
    "points": N_("points"),
    "fried": N_("(fried)"),
    "tap_order": N_("Tap every player in finishing order."),
    "tap_winner": N_("Tap the winner and the cards left."),
    "record": N_("Record deal"),
    "deal": N_("Deal {n}"),
    "fix": N_("Fix deal {n}"),
    "save": N_("Save deal {n}"),
    "recorded": N_("Recorded deal {n}."),
    "saved": N_("Saved deal {n}."),
    "voided": N_("Voided deal {n}."),
    "end_ask": N_("End this session? No more deals can be added (fixes still can)."),
    "void_ask": N_("Void deal {n}? It stays in the log, marked void."),
    "undone_deal": N_("Undone: deal {n} ({line}); it does not count now."),
    "undone_amend": N_("Undone: the fix of deal {n} ({line}); the deal is back to {back}."),
    "undone_void": N_("Undone: voiding deal {n}; it counts again ({back})."),
    "undone_end": N_("Undone: the end of session {session}; it is open again."),
    "live": N_("live"),
    "updated": N_("live · updated {time}"),
    "stopped": N_("stopped: {reason}"),
    "stopped_reload": N_("stopped: reload the page"),
    "reconnecting": N_("reconnecting…"),
    "copied": N_("Copied"),
}


def words() -> dict[str, Any]:
    """:data:`WORDS` in the current language (of this request)."""
    from ledger.core.i18n import _

    return {key: _(text) for key, text in WORDS.items()}
