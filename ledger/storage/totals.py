"""Totals: standings and settlement sums over the trigger-kept caches (``ledger.totals``).

``session_totals`` and ``session_flows`` are kept by triggers on ``points`` in the
same transaction (migration m002), so a standing is one read, not a sum over every
deal.  Settling every session at once sums per (stake, currency, kind), so a decade
of sessions costs a few grouped scans instead of a loop per session.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ledger.storage.derived import LIVE_UPTO

if TYPE_CHECKING:
    from ledger.storage.store import Ledger

# The settlement kind lives in each session's frozen rules; extract it once per
# session (MATERIALIZED) rather than once per joined row.
_KINDS = (
    "WITH k AS MATERIALIZED (SELECT id, stake, teams, "
    "json_extract(rules, '$.settlement') AS kind FROM sessions) "
)


def _scoped(column: str, session_ids: Sequence[int] | None) -> tuple[str, list[str]]:
    if session_ids is None:
        return "", []
    return f"AND {column} IN (SELECT value FROM json_each(?))", [json.dumps(list(session_ids))]


class Totals:
    """Sums per session, player and stake group of one open ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn

    def by_session(self, session_ids: Sequence[int] | None = None) -> list[tuple[Any, ...]]:
        """(session_id, player, deals, wins, fried, penalty, net) per session and player.

        Read from the trigger-kept ``session_totals`` (all sessions when ``None``).
        """
        sql = """SELECT q.session_id, p.name, q.deals, q.wins, q.fried, q.penalty, q.net
                 FROM session_totals q JOIN players p ON p.id = q.player_id"""
        if session_ids is None:
            return self.conn.execute(sql).fetchall()
        if len(session_ids) == 1:
            return self.conn.execute(sql + " WHERE q.session_id = ?", list(session_ids)).fetchall()
        wanted = set(session_ids)
        return [r for r in self.conn.execute(sql).fetchall() if r[0] in wanted]

    def by_player(self) -> list[tuple[Any, ...]]:
        """(player, deals, wins, fried, penalty, net) over every session, summed in SQL."""
        return self.conn.execute(
            """SELECT p.name, SUM(q.deals), SUM(q.wins), SUM(q.fried), SUM(q.penalty), SUM(q.net)
               FROM session_totals q JOIN players p ON p.id = q.player_id
               GROUP BY q.player_id"""
        ).fetchall()

    def currencies(self) -> list[str]:
        return [r[0] or "PTS" for r in self.conn.execute("SELECT DISTINCT currency FROM sessions")]

    def money(self) -> list[tuple[Any, ...]]:
        """(stake, teams, kind, player, net points) summed per stake group and player."""
        return self.conn.execute(
            _KINDS
            + """SELECT k.stake, k.teams, k.kind, p.name, SUM(q.net)
                FROM session_totals q JOIN k ON k.id = q.session_id
                JOIN players p ON p.id = q.player_id
                GROUP BY k.stake, k.teams, k.kind, q.player_id"""
        ).fetchall()

    def pair_penalty_groups(self) -> list[tuple[Any, ...]]:
        """Pairwise non-team sessions: (stake, a, b, sum of a's minus b's penalty totals)."""
        return self.conn.execute(
            _KINDS
            + """SELECT k.stake, pa.name, pb.name, SUM(a.penalty - b.penalty)
                FROM k JOIN session_totals a ON a.session_id = k.id
                JOIN session_totals b ON b.session_id = a.session_id AND b.player_id > a.player_id
                JOIN players pa ON pa.id = a.player_id JOIN players pb ON pb.id = b.player_id
                WHERE k.teams = 0 AND k.kind = 'pairwise'
                GROUP BY k.stake, a.player_id, b.player_id"""
        ).fetchall()

    def flow_groups(self) -> list[tuple[Any, ...]]:
        """Pay-the-winner non-team sessions: (stake, player, winner, net) per stake group."""
        return self.conn.execute(
            """SELECT s.stake, p.name, y.name, SUM(f.net)
               FROM session_flows f JOIN sessions s ON s.id = f.session_id
               JOIN players p ON p.id = f.player_id JOIN players y ON y.id = f.payee_id
               WHERE s.teams = 0 GROUP BY s.stake, f.player_id, f.payee_id"""
        ).fetchall()

    def payee_flows(self, session_id: int) -> list[tuple[str, str, int]]:
        """Pay-the-winner flows: (player, winner, net of player with that winner)."""
        return self.conn.execute(
            """SELECT p.name, y.name, q.net FROM session_flows q
               JOIN players p ON p.id = q.player_id JOIN players y ON y.id = q.payee_id
               WHERE q.session_id = ?""",
            [session_id],
        ).fetchall()

    def pair_differences(self, session_ids: Sequence[int] | None) -> list[tuple[Any, ...]]:
        """Pairwise non-team sessions: (currency, stake, a, b, a's penalty totals minus b's),
        summed per currency and stake."""
        scope, params = _scoped("s.id", session_ids)
        rows = self.conn.execute(
            f"""WITH k AS MATERIALIZED (
                    SELECT id, currency, stake FROM sessions s WHERE s.teams = 0
                    AND COALESCE(json_extract(s.rules, '$.settlement'), 'pairwise') = 'pairwise'
                    {scope})
                SELECT k.currency, k.stake, a.player_id, b.player_id, SUM(a.penalty - b.penalty)
                FROM k JOIN session_totals a ON a.session_id = k.id
                JOIN session_totals b ON b.session_id = k.id AND b.player_id > a.player_id
                GROUP BY k.currency, k.stake, a.player_id, b.player_id""",
            params,
        ).fetchall()
        names = dict(self.conn.execute("SELECT id, name FROM players").fetchall())
        return [(c, s, names[a], names[b], d) for c, s, a, b, d in rows]

    def winner_flows(self, session_ids: Sequence[int] | None) -> list[tuple[Any, ...]]:
        """Pay-the-winner non-team sessions: (currency, stake, player, winner, net),
        summed per currency and stake."""
        scope, params = _scoped("f.session_id", session_ids)
        return self.conn.execute(
            f"""SELECT s.currency, s.stake, p.name, y.name, SUM(f.net) FROM session_flows f
                JOIN sessions s ON s.id = f.session_id
                JOIN players p ON p.id = f.player_id JOIN players y ON y.id = f.payee_id
                WHERE s.teams = 0 {scope}
                GROUP BY s.currency, s.stake, f.player_id, f.payee_id""",
            params,
        ).fetchall()

    def deal_nets(self, session_id: int, bucket: int) -> list[tuple[int, str, int]]:
        """(last deal number, player, net) of a session's live deals, ``bucket`` deals at a time."""
        return self.conn.execute(
            f"""SELECT MAX(e.deal_no), p.name, SUM(q.net)
                FROM entries e JOIN points q ON q.entry_id = e.id
                JOIN players p ON p.id = q.player_id
                WHERE e.session_id = :sid AND {LIVE_UPTO}
                GROUP BY (e.deal_no - 1) / :bucket, q.player_id ORDER BY 1""",
            {"sid": session_id, "bucket": bucket, "upto": self.ledger.derived.last_entry_id()},
        ).fetchall()
