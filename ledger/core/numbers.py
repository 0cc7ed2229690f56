"""A whole number as a person types it: the one reader of counts, deal numbers and
session numbers, wherever they come from (the command line, ``table``, sample files,
the page's query values).

Allowed: the ASCII digits ``0``–``9`` and the full-width digits ``０``–``９`` that a
Chinese or Japanese keyboard types (U+FF10–U+FF19), nothing else.  ``str.isdigit()``
is not this test: it is true of ``²``, ``①`` and ``৩`` (Bengali three), and ``int()``
of the first two raises; Python's ``int()`` also reads Arabic-Indic, Devanagari …
digits, which nobody at a Big Two table types.

>>> whole_number("１２")
12
>>> is_whole_number("²"), is_whole_number("-3"), is_whole_number("0012")
(False, False, True)
>>> digits("٣") is None
True
"""

from __future__ import annotations

from ledger.core.errors import InputError
from ledger.core.i18n import _

MAX_DIGITS = 18
"""More digits than any count, deal or session number can have (and under SQLite's
64-bit integers); longer text is refused before ``int()`` sees it."""

_FULL_WIDTH = {chr(0xFF10 + d): str(d) for d in range(10)}


def digits(text: str) -> str | None:
    """``text`` (spaces around it ignored) in ASCII digits when it is a whole number as
    typed (ASCII or full-width digits only), else None."""
    stripped = text.strip()
    if not stripped:
        return None
    if stripped.isascii():
        return stripped if stripped.isdigit() else None
    out = []
    for ch in stripped:
        if "0" <= ch <= "9":
            out.append(ch)
        elif ch in _FULL_WIDTH:
            out.append(_FULL_WIDTH[ch])
        else:
            return None
    return "".join(out)


def is_whole_number(text: str) -> bool:
    """Is ``text`` a whole number of 0 or more as typed (ASCII or full-width digits)?"""
    return digits(text) is not None


def whole_number(text: str, what: str = "", most: int | None = None,
                 max_digits: int = MAX_DIGITS) -> int:
    """``text`` read as a whole number of 0 or more, or :class:`InputError` naming
    ``what`` (already translated) and what is allowed.

    More than ``max_digits`` digits, or more than ``most``, is refused too."""
    found = digits(text)
    label = f"{what}: " if what else ""
    if found is None:
        raise InputError(_("{label}{text} is not a whole number (write it with the digits 0-9)")
                         .format(label=label, text=repr(text[:40])))
    if len(found) > max_digits:
        raise InputError(_("{label}{start}... has {count} digits; at most {most} are allowed")
                         .format(label=label, start=found[:12], count=len(found), most=max_digits))
    if most is not None and int(found) > most:
        raise InputError(_("{label}{text} is more than {most}").format(
            label=label, text=found, most=most))
    return int(found)
