"""The range of times the ledger stores: every stored time must be showable in every
time zone.

Python's ``datetime`` ends at year 1 and year 9999, and a time near either end cannot
be moved to a zone that would cross it: ``9999-12-31T23:59:59+00:00`` in Hong Kong
(UTC+8) is ``OverflowError``, and so is year 1 in Los Angeles.  A crafted export or
score sheet with such a date would break every report for good (the ledger is
append-only).  So a time read from a file (import, restore, a sheet's dates) or the
page is refused unless it is from 1970-01-01 to 8999-12-31 (UTC): the Unix epoch, before
which no electronic scorekeeper kept a Big Two evening, to a year far beyond any
evening and days clear of ``datetime``'s end in every zone (offsets are within ±26 h).
See docs/reliability.md.

>>> check_time("2024-05-03T12:00:00+00:00", "at")
'2024-05-03T12:00:00+00:00'
>>> in_range(datetime.fromisoformat("9999-12-31T23:59:59+00:00"))
False
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from ledger.core.errors import InputError
from ledger.core.i18n import _

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
"""The first moment the ledger stores."""
LATEST = datetime(9000, 1, 1, tzinfo=UTC)
"""The first moment past the range (8999-12-31T23:59:59.999999 is the last kept)."""


def in_range(when: datetime) -> bool:
    """Is ``when`` (naive: UTC) inside the range the ledger keeps?"""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        return EARLIEST <= when < LATEST
    except OverflowError:  # an offset that takes it past datetime's own ends
        return False


def _outside(text: str, what: str) -> InputError:
    return InputError(_("{what}: {text} is outside the dates the ledger keeps ({first} to "
                        "{last}, UTC)").format(what=what, text=text, first=EARLIEST.date(),
                                               last=date(LATEST.year - 1, 12, 31)))


def check_time(stamp: str, what: str) -> str:
    """``stamp`` (ISO 8601) when it is in the range, else :class:`InputError` naming
    ``what`` and the range.  A stamp that is not ISO 8601 raises ``ValueError``."""
    if not in_range(datetime.fromisoformat(stamp)):
        raise _outside(stamp, what)
    return stamp


def check_day(day: date, what: str) -> date:
    """A calendar date (a score sheet's) inside the range, else :class:`InputError`."""
    if not EARLIEST.date() <= day < LATEST.date():
        raise _outside(day.isoformat(), what)
    return day


def just_after(stamp: str) -> str:
    """The stored time one microsecond after ``stamp`` (in its zone): the time of an
    entry that comes right after another (``ValueError`` for a damaged time).

    >>> just_after("2026-12-02T05:39:45.398716+00:00")
    '2026-12-02T05:39:45.398717+00:00'
    """
    return (datetime.fromisoformat(stamp) + timedelta(microseconds=1)).isoformat(
        timespec="microseconds")
