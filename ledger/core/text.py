"""Clean text: every name the ledger stores, and every stored text it shows.

Names come from the keyboard, files, backups and (soon) a phone page.  Before one
is stored it goes through :func:`clean_name` (players, rules, currencies) or
:func:`clean_session_name`:

- it is put in Unicode NFC form, so ``é`` typed as one character and ``e`` + a
  combining accent are the same text;
- control and format characters (Unicode categories Cc and Cf: ESC, NUL, the
  zero-width space, bidi overrides), line and paragraph separators and lone
  surrogates are refused: they could rewrite the terminal or make two names
  that print alike.  The one exception is the zero-width joiner between two
  emoji (👩‍👩‍👧 is one picture);
- it has a length limit (:data:`MAX_NAME`, :data:`MAX_SESSION_NAME`).

Two player names are the same player when their :func:`name_key` (NFC, then
case-folded) is the same: ``Ann`` and ``ANN``, ``Dvořák`` typed either way.

Text that was stored before these rules (an old ledger, another program's file)
can still hold such characters; :func:`shown` is how it reaches a terminal,
with each one written as a visible escape (``\\x1b``, ``\\u202e``).

>>> clean_name("  Ann ")
'Ann'
>>> name_key("ANN") == name_key("ann")
True
>>> name_key("e\\u0301") == name_key("\\u00e9")
True
>>> shown("evil\\x1b]0;title\\x07")
'evil\\\\x1b]0;title\\\\x07'
"""

from __future__ import annotations

import unicodedata

from ledger.core.errors import InputError
from ledger.core.i18n import N_, _

MAX_NAME = 200
"""Longest player, rule or currency name, in characters."""
MAX_SESSION_NAME = 1_000
"""Longest session name, in characters."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
ZWJ = "\u200d"


def _bad_char(ch: str) -> bool:
    return unicodedata.category(ch) in _REFUSED_CATEGORIES


def _emoji_joiner(text: str, i: int) -> bool:
    """Is ``text[i]`` a zero-width joiner inside an emoji sequence (👩‍👩‍👧)?  The one
    format character allowed: it joins two pictographs (So), the first perhaps with a
    skin tone (Sk) or emoji style selector (U+FE0F) after it."""
    return (0 < i < len(text) - 1
            and unicodedata.category(text[i + 1]) == "So"
            and (unicodedata.category(text[i - 1]) in ("So", "Sk") or text[i - 1] == "\ufe0f"))


def _refused(text: str) -> list[int]:
    """Where ``text`` holds a refused character."""
    if text.isprintable():  # the common case, checked in C
        return []
    return [i for i, ch in enumerate(text)
            if _bad_char(ch) and not (ch == ZWJ and _emoji_joiner(text, i))]


def _describe(ch: str) -> str:
    code = f"U+{ord(ch):04X}"
    kind = {"Cc": N_("a control character"), "Cf": N_("a format character"),
            "Cs": N_("a lone surrogate (half of a character)"), "Zl": N_("a line separator"),
            "Zp": N_("a paragraph separator")}[unicodedata.category(ch)]
    name = unicodedata.name(ch, "")
    return f"{_(kind)} ({code}{' ' + name if name else ''})"


def problem(text: str) -> str | None:
    """Why ``text`` may not be stored (its first refused character), or None."""
    bad = _refused(text)
    if bad:
        return _("contains {what}; control and format characters "
                 "(invisible, or commands to a terminal) are not allowed").format(
            what=_describe(text[bad[0]]))
    return None


def clean_text(text: object, what: str, limit: int = MAX_NAME) -> str:
    """``text`` trimmed and in NFC form, or :class:`InputError` saying why it is refused.

    ``what`` names the text in the message ("player name", "session name"), marked with
    ``N_`` where it is written and translated here.
    May be empty; the caller decides whether that is allowed.
    """
    if not isinstance(text, str):  # (``what`` translated only for a message made)
        raise InputError(_("{what} must be text, not {text!r}").format(what=_(what), text=text))
    if len(text) > 4 * limit:  # too long whatever NFC makes of it: refused before scanning
        raise InputError(_too_long(_(what), text, limit))
    bad = problem(text)
    if bad:
        raise InputError(f"{_(what)} {_cut(text)!r} {bad}")
    clean = unicodedata.normalize("NFC", text).strip()
    if len(clean) > limit:
        raise InputError(_too_long(_(what), clean, limit))
    return clean


def _too_long(what: str, text: str, limit: int) -> str:
    return _("{what} {text!r}... is longer than {limit} characters ({length})").format(
        what=what, text=_cut(text), limit=limit, length=len(text))


def clean_name(text: object, what: str = N_("player name")) -> str:
    """A player, rule or currency name: :func:`clean_text` up to :data:`MAX_NAME`, not empty."""
    clean = clean_text(text, what, MAX_NAME)
    if not clean:
        raise InputError(_("{what} is empty").format(what=_(what)))
    return clean


def clean_session_name(text: object) -> str:
    """A session name (may be empty): :func:`clean_text` up to :data:`MAX_SESSION_NAME`."""
    return clean_text(text, N_("session name"), MAX_SESSION_NAME)


def name_key(name: str) -> str:
    """The identity of a name: NFC, case-folded (and NFC again, since folding can
    decompose).  Equal keys mean the same player."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def accentless_key(name: str) -> str:
    """:func:`name_key` without accents (combining marks removed after decomposing):
    what ``jose`` typed for ``José`` matches.  Not an identity: ``José`` and ``Jose`` are
    two players; this only finds the one seated player a bare spelling can mean.

    >>> accentless_key("José") == accentless_key("JOSE")
    True
    """
    decomposed = unicodedata.normalize("NFD", name_key(name))
    return unicodedata.normalize("NFC", "".join(
        ch for ch in decomposed if unicodedata.category(ch) != "Mn"))


def same_name(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` name the same player?"""
    return name_key(a) == name_key(b)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(text: str) -> str:
    """``text`` safe for a terminal: every character :func:`problem` refuses written
    as a visible escape (``\\x1b``, ``\\u202e``), the rest as it is."""
    bad = _refused(text)
    if not bad:
        return text
    out = list(text)
    for i in bad:
        out[i] = _escape(text[i])
    return "".join(out)


def json_safe(text: str) -> str:
    """JSON text with every character :func:`shown` escapes written as ``\\uXXXX``.

    Such characters can only be inside JSON strings, where the escape means the same."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if shown(line) != line:
            lines[i] = "".join(_json_escape(ch) if shown(ch) != ch else ch for ch in line)
    return "\n".join(lines)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _cut(text: str, n: int = 20) -> str:
    return text if len(text) <= n else text[:n]
