"""Derived caches for history and statistics (``ledger.derived``).

Reads and writes for ledger/book/stats.py, ledger/book/digest.py and
ledger/book/ratings.py.  Each cache is marked with the last entry id it has taken
in (``derived_marks``).  A deal's current version is its latest entry up to
``upto`` (a snapshot entry id, so every query of one refresh sees the same ledger);
its own points are the rows with deals = 1 (an amend also holds the reversal of the
version it replaces).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from ledger.storage.cache_rows import (
    DealStatsRow,
    LiveDealPoints,
    Mark,
    RatingDeal,
    SessionChange,
    StoredRating,
)
from ledger.storage.rows import typed

if TYPE_CHECKING:
    from ledger.storage.store import Ledger

LIVE_UPTO = (
    "e.id <= :upto AND e.kind != 'void' AND q.deals = 1 AND NOT EXISTS ("
    "SELECT 1 FROM entries x WHERE x.session_id = e.session_id "
    "AND x.deal_no = e.deal_no AND x.id > e.id AND x.id <= :upto)"
)

_DEAL_STATS_COLS = (
    "session_id, player_id, deals, assists, worst_net, worst_deal, win_lead, win_tail, "
    "win_max, loss_lead, loss_tail, loss_max, cards_hist, penalty_hist"
)


class Derived:
    """The statistics caches of one open ledger and the reads that fill them."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn

    def last_entry_id(self) -> int:
        """The id of the latest deal entry (the caches follow deals; a session's own
        actions change no statistic)."""
        return int(self.conn.execute(
            "SELECT COALESCE(MAX(id), 0) FROM entries WHERE seq IS NOT NULL").fetchone()[0])

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version``: it changes whenever another connection (this
        process's or another's) commits a change to the file — a cheap change signal."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def mark(self, name: str) -> Mark | None:
        """How far the derived cache ``name`` has taken in the entries (None: never built)."""
        row = self.conn.execute(
            "SELECT last_entry_id, version FROM derived_marks WHERE name = ?", [name]
        ).fetchone()
        return None if row is None else Mark(*row)

    def set_mark(self, name: str, last_entry_id: int, version: str) -> None:
        self.conn.execute(
            "INSERT INTO derived_marks (name, last_entry_id, version) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET last_entry_id = excluded.last_entry_id, "
            "version = excluded.version",
            [name, last_entry_id, version],
        )

    def sessions_changed(self, after: int, upto: int) -> list[SessionChange]:
        """Each session with entries in (after, upto], and how many are voids or amends."""
        return list(typed(SessionChange, self.conn.execute(
            "SELECT session_id, SUM(kind IN ('void', 'amend')) FROM entries WHERE id > ? AND id <= ? "
            "GROUP BY session_id",
            [after, upto],
        )))

    def corrections_reach_back(self, after: int, upto: int) -> bool:
        """Whether a void or amend in (after, upto] corrects a deal recorded at or before ``after``."""
        row = self.conn.execute(
            """SELECT 1 FROM entries n WHERE n.id > :after AND n.id <= :upto AND n.kind IN ('void', 'amend')
                 AND EXISTS (SELECT 1 FROM entries o WHERE o.session_id = n.session_id
                             AND o.deal_no = n.deal_no AND o.id <= :after) LIMIT 1""",
            {"after": after, "upto": upto},
        ).fetchone()
        return row is not None

    def live_deal_points(
        self, session_ids: Sequence[int] | None, after: int, upto: int
    ) -> Iterator[LiveDealPoints]:
        """Each player's own points in the current version of every deal recorded in
        (after, upto], by session and deal."""
        where = "" if session_ids is None else "e.session_id IN (SELECT value FROM json_each(:ids)) AND"
        return typed(LiveDealPoints, self.conn.execute(
            f"""SELECT e.session_id, e.deal_no, q.player_id, q.wins, q.cards, q.penalty, q.net,
                       CASE WHEN instr(e.facts, '"assist"') THEN json_extract(e.facts, '$.assist') END
                FROM entries e JOIN points q ON q.entry_id = e.id
                WHERE {where} e.id > :after AND {LIVE_UPTO}
                ORDER BY e.session_id, e.deal_no""",
            {"ids": json.dumps(list(session_ids or [])), "after": after, "upto": upto},
        ))

    def deal_stats(
        self, session_ids: Sequence[int] | None = None, hists: bool = True
    ) -> list[DealStatsRow]:
        """The cached per-session deal statistics (see ledger/book/digest.py); the two
        distribution columns are read (JSON text) only when ``hists``, else None."""
        cols = _DEAL_STATS_COLS if hists else _DEAL_STATS_COLS.rsplit(",", 2)[0] + ", NULL, NULL"
        where = "" if session_ids is None else "WHERE session_id IN (SELECT value FROM json_each(?))"
        return list(typed(DealStatsRow, self.conn.execute(
            f"SELECT {cols} FROM deal_stats {where}",
            [] if session_ids is None else [json.dumps(list(session_ids))],
        )))

    def save_deal_stats(
        self, session_ids: Sequence[int] | None, rows: Iterable[DealStatsRow]
    ) -> None:
        """Replace the cached rows of ``session_ids`` (all when None) (inside ``ledger.writing()``)."""
        if session_ids is None:
            self.conn.execute("DELETE FROM deal_stats")
        else:
            self.conn.execute(
                "DELETE FROM deal_stats WHERE session_id IN (SELECT value FROM json_each(?))",
                [json.dumps(list(session_ids))],
            )
        marks = ", ".join("?" * len(_DEAL_STATS_COLS.split(",")))
        self.conn.executemany(
            f"INSERT INTO deal_stats ({_DEAL_STATS_COLS}) VALUES ({marks})", rows
        )

    def rating_deals(self, after: int, upto: int) -> Iterator[RatingDeal]:
        """Each player's result in the current version of every deal recorded in
        (after, upto], in the order they were recorded."""
        return typed(RatingDeal, self.conn.execute(
            f"""SELECT e.id, q.player_id, q.wins, q.cards,
                       CASE WHEN instr(e.facts, '"order"') THEN json_extract(e.facts, '$.order') END
                FROM entries e JOIN points q ON q.entry_id = e.id
                WHERE e.id > :after AND {LIVE_UPTO}
                ORDER BY e.id""",
            {"after": after, "upto": upto},
        ))

    def ratings(self) -> list[StoredRating]:
        """The cached skill ratings."""
        return list(typed(StoredRating, self.conn.execute(
            "SELECT player_id, mu, sigma, deals FROM ratings")))

    def save_ratings(self, rows: Iterable[StoredRating]) -> None:
        """Replace every cached rating (inside ``ledger.writing()``)."""
        self.conn.execute("DELETE FROM ratings")
        self.conn.executemany(
            "INSERT INTO ratings (player_id, mu, sigma, deals) VALUES (?, ?, ?, ?)", rows
        )
