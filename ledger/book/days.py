"""Days as the options give them: ``--since`` / ``--until`` read as calendar dates,
and a range whose start is after its end refused.  Shared by the scope of a report
(:mod:`ledger.book.scope`) and the named seasons (:mod:`ledger.book.seasons`).
"""

from __future__ import annotations

import re
from datetime import date

from ledger.core.errors import InputError
from ledger.core.i18n import _


def parse_day(text: str | None, option: str) -> date | None:
    """``--since`` / ``--until``: a calendar date, YYYY-MM-DD.

    >>> parse_day("2024-05-03", "--since")
    datetime.date(2024, 5, 3)
    """
    if text is None:
        return None
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
            raise ValueError
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(_("bad date {text!r} for {option}: use YYYY-MM-DD, e.g. 2024-05-03").format(
            text=text, option=option)) from None


def checked_range(first: date | None, last: date | None, since_option: str = "--since",
                  until_option: str = "--until") -> None:
    """Refuse a range whose start is after its end (one ``error:`` line)."""
    if first and last and first > last:
        raise InputError(_("{since_option} {first} is after {until_option} {last}; nothing is "
                           "between them").format(first=first, last=last, since_option=since_option,
                                                  until_option=until_option))
