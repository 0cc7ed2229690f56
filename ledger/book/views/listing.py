"""A list of sessions by pages, :class:`SessionPage`: the table picker's (the ``sessions``
op) and, through :func:`page_keys`, ``bigtwo history``'s (see :mod:`ledger.book.views`).

Newest first, by start then id.  A page ends with a cursor, ``next``: the start and id of
its last session, written as an opaque word, which the next page begins after (a keyset,
never an offset: a session started meanwhile moves no page, it comes before the first).
"""

import base64
import binascii
import unicodedata
from datetime import datetime
from typing import Any, NamedTuple

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.storage.rows import SessionListRow
from ledger.storage.store import Ledger

PAGE = 50  # sessions a page shows unless asked for fewer or more
MOST = 200  # the most a page shows
Key = tuple[str, int]  # a session's place in the list: (started_at, id)


def write_cursor(key: Key) -> str:
    """The cursor after the session of ``key``."""
    return base64.urlsafe_b64encode(f"{key[0]} {key[1]}".encode()).decode().rstrip("=")


def read_cursor(cursor: str) -> Key:
    """The session a cursor of :func:`write_cursor` names; a crafted one is refused."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        started, _space, number = raw.rpartition(" ")
        datetime.fromisoformat(started)
        if not number.isdigit() or len(number) > 18:
            raise ValueError(number)
        key = (started, int(number))
        if write_cursor(key) != cursor:  # one spelling of each: no padding, no stray characters
            raise ValueError(cursor)
    except (ValueError, UnicodeError, binascii.Error):
        raise InputError(_('"{cursor}" is not a cursor of this list: give the "next" that the '
                           'page before ended with (or none, for the newest sessions)').format(
                               cursor=cursor[:40])) from None
    return key


def page_size(limit: int | None) -> int:
    """``limit`` checked: 1 to :data:`MOST` sessions (None: :data:`PAGE`)."""
    if limit is None:
        return PAGE
    if not 1 <= limit <= MOST:
        raise InputError(_("a page shows 1 to {most} sessions, not {limit}").format(
            most=MOST, limit=limit))
    return limit


def search_text(q: str | None) -> str | None:
    """The search as compared: NFC, trimmed; None for nothing to search."""
    text = unicodedata.normalize("NFC", q).strip() if q else ""
    return text or None


def page_keys(keys: list[Key], before: str | None, limit: int | None) -> tuple[list[int], str | None]:
    """The ids of one page of ``keys`` (any order), newest first, and the cursor after it
    (None: the last page) — the same pages :func:`session_page` answers, for a list
    chosen in Python (a range of dates, a season)."""
    size = page_size(limit)
    after = read_cursor(before) if before is not None else None
    ordered = sorted((k for k in keys if after is None or k < after), reverse=True)
    shown = ordered[:size]
    return [k[1] for k in shown], write_cursor(shown[-1]) if len(ordered) > size else None


class SessionPage(NamedTuple):
    """One page of the sessions, newest first: each as ``session list --json`` gives it
    (the rule set's name, never the rules: the ``session`` op has them) with ``open``; how
    many sessions the list holds (``total``, those the search finds); and the cursor of
    the next page (``next``; None: this is the last)."""

    sessions: list[SessionListRow]
    total: int
    next: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"sessions": [{**s.to_dict(), "open": s.ended_at is None} for s in self.sessions],
                "total": self.total, "next": self.next}


def session_page(ledger: Ledger, q: str | None = None, before: str | None = None,
                 limit: int | None = None, player: str | None = None) -> SessionPage:
    """The page of sessions after the cursor ``before`` (None: the newest), at most
    ``limit`` of them (:data:`PAGE`), those whose name, number or a player's name holds
    ``q``, and that ``player`` sat in (the ledger's spelling of the name)."""
    size = page_size(limit)
    after = read_cursor(before) if before is not None else None
    rows, total = ledger.journal.session_page(after, size + 1, search_text(q), player)
    shown = rows[:size]
    more = len(rows) > size
    return SessionPage(shown, total, write_cursor((shown[-1].started_at, shown[-1].id)) if more
                       else None)
