"""Text kept in English that can still be shown in the interface's language.

A :class:`Phrase` is a ``str``: its English text, what ``--json`` output keeps (the
same in every language).  It remembers its message and values, so what is shown to a
person goes through :func:`local` and comes out translated.  Used where one piece of
text reaches both: an import's conflicts, the self-check's findings.

>>> p = Phrase("stake: ledger {ledger}, file {file}", ledger="1", file="0.5")
>>> p, local(p), local("plain text")
('stake: ledger 1, file 0.5', 'stake: ledger 1, file 0.5', 'plain text')
>>> import json; json.dumps({"what": p})
'{"what": "stake: ledger 1, file 0.5"}'
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ledger.core.i18n import N_, _, language


class Phrase(str):
    """English text that can be translated later: ``message`` (marked with ``N_``)
    formatted with ``values`` (which may be phrases themselves)."""

    message: str
    values: dict[str, Any]

    def __new__(cls, message: str, **values: Any) -> Phrase:
        self = super().__new__(cls, message.format(**values))
        self.message = message
        self.values = values
        return self

    def __reduce__(self) -> Any:  # a copy keeps the message and values
        return (_phrase, (self.message, self.values))


def _phrase(message: str, values: dict[str, Any]) -> Phrase:
    return Phrase(message, **values)


def local(text: str) -> str:
    """``text`` in the interface's language (a plain ``str`` is shown as it is)."""
    if not isinstance(text, Phrase):
        return text
    if isinstance(text, Said):
        return text.shown

    values = {k: local(v) if isinstance(v, str) else v for k, v in text.values.items()}
    return _(text.message).format(**values)


_OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EROFS: N_("the disk is read-only"),
    errno.EEXIST: N_("it already exists"),
    errno.ENAMETOOLONG: N_("the name is too long"),
}


def os_reason(exc: OSError) -> str:
    """Why the operating system refused: its own words in English, a few words of the
    interface's language otherwise (the system's words for anything uncommon)."""
    known = _OS_REASONS.get(exc.errno) if exc.errno is not None else None
    if known is not None and language() != "en":
        return _(known)
    return str(exc.strerror or exc)


class Said(Phrase):
    """Text already said in both languages: ``english`` (what ``--json`` keeps) and
    ``shown`` (what :func:`local` gives), e.g. an error caught from the core."""

    shown: str

    def __new__(cls, english: str, shown: str) -> Said:
        self = str.__new__(cls, english)
        self.message, self.values, self.shown = english, {}, shown
        return self

    def __reduce__(self) -> Any:
        return (Said, (str(self), self.shown))


@contextmanager
def in_english() -> Iterator[None]:
    """Messages made inside are English, whatever the interface's language."""
    from ledger.core import i18n

    saved = i18n._chosen
    i18n._chosen = "en"
    try:
        yield
    finally:
        i18n._chosen = saved


def said(action: Callable[[], object]) -> Said | None:
    """The error ``action`` raises, in English and in the interface's language (it is
    run again for the second when the language is not English); None if it raises none."""
    try:
        with in_english():
            action()
    except Exception as exc:
        english = str(exc)
    else:
        return None
    if language() == "en":
        return Said(english, english)
    try:
        action()
    except Exception as exc:
        return Said(english, str(exc))
    return Said(english, english)
