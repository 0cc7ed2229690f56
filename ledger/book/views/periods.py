"""The sessions' history (:class:`History`) (see :mod:`ledger.book.views`); the league
table of ``standings --by month|year`` is :mod:`ledger.book.league`."""

from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.book.scope import Scope
    from ledger.book.stats import HistoryRow
    from ledger.storage.rows import SessionRow


class HistoryLine(NamedTuple):
    """One session of the history, with its players' money best first."""

    row: "HistoryRow"
    money: list[tuple[str, Decimal]]

    def to_dict(self) -> dict[str, Any]:
        return self.row.to_dict()


class History(NamedTuple):
    """Sessions, oldest first (a page: newest first): date, name, players, rules, deals, money per player."""

    lines: list[HistoryLine]

    def to_dict(self) -> list[dict[str, Any]]:  # a JSON array, as ``history --json`` has been
        return [line.to_dict() for line in self.lines]


def history(ledger: Ledger, scope: "Scope", q: str | None = None) -> History:
    """Every session of ``scope`` (those ``q`` finds: :func:`matches`), in its order."""
    from ledger.book.stats import history as rows
    from ledger.book.views.listing import search_text

    q = search_text(q)
    if q is not None:
        from ledger.book.scope import Scope

        scope = Scope([s for s in scope.sessions if matches(s, q)], everything=False,
                      since=scope.since, until=scope.until, season=scope.season)
    return History([HistoryLine(r, sorted(r.money.items(), key=lambda kv: (-kv[1], kv[0])))
                    for r in rows(ledger, scope)])


class HistoryPage(NamedTuple):
    """One page of the history, newest first (``bigtwo history`` without ``--all``): the
    sessions' lines, how many sessions the list holds, the cursor of the next page (None:
    the last), as :class:`ledger.book.views.listing.SessionPage` pages the table picker."""

    history: History
    total: int
    next: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"sessions": self.history.to_dict(), "total": self.total, "next": self.next}


def matches(session: "SessionRow", q: str | None) -> bool:
    """Whether ``q`` is in the session's name or a player's name, or is its number (as
    the ``sessions`` op searches; case as ``casefold`` sees it)."""
    if q is None:
        return True
    text = q.casefold()
    return q == str(session.id) or any(text in n.casefold() for n in (session.name, *session.seats))


def history_page(ledger: Ledger, scope: "Scope | None", q: str | None = None,
                 before: str | None = None, limit: int | None = None,
                 player: str | None = None) -> HistoryPage:
    """The page after ``before`` of the sessions of ``scope`` (a range of dates, a season:
    chosen in Python) or, with no scope, of every session (read a page at a time: the
    ``sessions`` op's query), those ``q`` finds and ``player`` sat in (the ledger's
    spelling; a scope is narrowed by it already)."""
    from ledger.book.scope import Scope
    from ledger.book.views.listing import page_keys, search_text, session_page

    q = search_text(q)
    if scope is None:
        page = session_page(ledger, q, before, limit, player)
        ids, total, after = [s.id for s in page.sessions], page.total, page.next
    else:
        found = [s for s in scope.sessions if matches(s, q)]
        ids, after = page_keys([(s.started_at, s.id) for s in found], before, limit)
        total = len(found)
    if not ids:
        return HistoryPage(History([]), total, None)
    shown = ledger.journal.sessions_of(ids)
    return HistoryPage(history(ledger, Scope(shown, everything=False)), total, after)
