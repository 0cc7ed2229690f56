"""Local time: the ledger stores UTC; people read and type dates in their own time
zone, ``TZ`` (an IANA name such as Asia/Hong_Kong), else the system's.

An evening that starts at 8 pm in Los Angeles is dated that evening, not the next
UTC day; ``--since``/``--until`` compare against these local dates.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, tzinfo
from functools import lru_cache


@lru_cache(maxsize=8)
def _zone(tz: str | None) -> tzinfo:
    if tz:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            return ZoneInfo(tz.lstrip(":"))
        except (ZoneInfoNotFoundError, ValueError, OSError):
            return UTC  # an unknown TZ: as the C library does, read it as UTC
    local = datetime.now().astimezone().tzinfo
    return local if local is not None else UTC


def zone() -> tzinfo:
    """The user's time zone: ``TZ`` if set, else the system's."""
    return _zone(os.environ.get("TZ"))


def zone_label() -> str:
    """A short name for the zone, for column headings: ``HKT``, ``UTC``, ``PST``."""
    return datetime.now(zone()).tzname() or "local"


def local(stamp: str) -> datetime:
    """A stored timestamp (ISO 8601, UTC) in the user's zone.

    A time that the zone would move past the ends of ``datetime`` (year 9999 in Hong
    Kong, year 1 in Los Angeles: stored before the range of ledger.core.times was
    kept) is shown as stored, in UTC, rather than breaking the report.

    >>> os.environ["TZ"] = "Asia/Hong_Kong"
    >>> local("9999-12-31T23:59:59+00:00").isoformat()
    '9999-12-31T23:59:59+00:00'
    >>> del os.environ["TZ"]
    """
    when = datetime.fromisoformat(stamp)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        return when.astimezone(zone())
    except OverflowError:
        return when.astimezone(UTC)


def local_day(stamp: str) -> str:
    """``2024-05-03``: the local date of a stored timestamp.

    >>> os.environ["TZ"] = "America/Los_Angeles"
    >>> local_day("2024-05-04T03:00:00+00:00")  # 8 pm on the 3rd in Los Angeles
    '2024-05-03'
    >>> del os.environ["TZ"]
    """
    return local(stamp).date().isoformat()


def local_minute(stamp: str) -> str:
    return local(stamp).strftime("%Y-%m-%d %H:%M")


def local_second(stamp: str) -> str:
    return local(stamp).strftime("%Y-%m-%d %H:%M:%S")
