"""Totals: standings and settlement sums over the trigger-kept caches (``ledger.totals``).

``session_totals`` and ``session_flows`` are kept by triggers on ``points`` in the
same transaction (migration m002), so a standing is one read, not a sum over every
deal.  Settling many sessions at once sums per currency and stake, so a decade of
sessions costs a few grouped scans instead of a loop per session.  One query per
fact: ``settle`` of one session and ``settle --all`` / ``stats`` read the same
:meth:`Totals.pair_differences` and :meth:`Totals.winner_flows`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ledger.storage.rows import (
    DealNet,
    MoneyGroup,
    PairDifference,
    PlayerTotal,
    SessionTotal,
    WinnerFlow,
    typed,
)

if TYPE_CHECKING:
    from ledger.storage.store import Ledger


def _scoped(column: str, session_ids: Sequence[int] | None) -> tuple[str, list[str]]:
    if session_ids is None:
        return "", []
    return f"AND {column} IN (SELECT value FROM json_each(?))", [json.dumps(list(session_ids))]


# A session whose seats changed during the evening (a seat entry): not every player
# played every deal, so a pair is counted over the deals both played.
SEATS_CHANGED = """EXISTS (SELECT 1 FROM entries a WHERE a.session_id = s.id AND a.seq IS NULL
    AND a.kind = 'seat')"""
# Who played each deal that counts and their points in it (a deal's entries summed:
# a void or an amend cancels the version before it), for the sessions of {sessions}.
PLAYED = """SELECT e.session_id, e.deal_no, q.player_id, SUM(q.penalty) AS penalty,
    SUM(q.net) AS net FROM entries e JOIN points q ON q.entry_id = e.id
    WHERE e.session_id IN ({sessions}) AND e.seq IS NOT NULL
    GROUP BY e.session_id, e.deal_no, q.player_id HAVING SUM(q.deals) > 0"""


class Totals:
    """Sums per session, player and stake of one open ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn

    def names(self) -> str:
        """The players' names shown now (renames and merges: ``ledger.players``)."""
        return self.ledger.players.source()

    def by_session(self, session_ids: Sequence[int] | None = None) -> list[SessionTotal]:
        """Each player's sums per session (all sessions when ``None``)."""
        sql = f"""SELECT q.session_id, p.name, q.deals, q.wins, q.fried, q.penalty, q.net
                 FROM session_totals q JOIN {self.names()} p ON p.id = q.player_id"""
        if session_ids is None:
            return list(typed(SessionTotal, self.conn.execute(sql)))
        if len(session_ids) == 1:
            return list(typed(SessionTotal, self.conn.execute(sql + " WHERE q.session_id = ?",
                                                              list(session_ids))))
        wanted = set(session_ids)
        return [r for r in typed(SessionTotal, self.conn.execute(sql)) if r.session_id in wanted]

    def by_player(self) -> list[PlayerTotal]:
        """Each player's sums over every session, summed in SQL."""
        return list(typed(PlayerTotal, self.conn.execute(
            f"""SELECT p.name, SUM(q.deals), SUM(q.wins), SUM(q.fried), SUM(q.penalty), SUM(q.net)
               FROM session_totals q JOIN {self.names()} p ON p.id = q.player_id
               GROUP BY p.canon_id""")))

    def currencies(self) -> list[str]:
        """The currency of every session (``PTS`` for points only), each once."""
        return [r[0] or "PTS" for r in self.conn.execute("SELECT DISTINCT currency FROM sessions")]

    def money(self) -> list[MoneyGroup]:
        """Each player's net points summed per stake, team sessions apart."""
        return [MoneyGroup(stake, bool(teams), name, net) for stake, teams, name, net in self.conn.execute(
            f"""SELECT s.stake, s.teams, p.name, SUM(q.net)
               FROM session_totals q JOIN sessions s ON s.id = q.session_id
               JOIN {self.names()} p ON p.id = q.player_id
               GROUP BY s.stake, s.teams, p.canon_id""")]

    def pair_differences(self, session_ids: Sequence[int] | None = None) -> list[PairDifference]:
        """Pairwise non-team sessions (all when ``None``): each pair's difference of penalty
        totals, summed per currency and stake.  A session whose rules name no settlement
        settles pairwise, as ``settle`` does."""
        scope, params = _scoped("s.id", session_ids)
        # The settlement kind lives in each session's frozen rules: extract it once per
        # session (MATERIALIZED) rather than once per joined row.
        pairwise = f"""SELECT id, currency, stake FROM sessions s WHERE s.teams = 0
                    AND COALESCE(json_extract(s.rules, '$.settlement'), 'pairwise') = 'pairwise'
                    {scope}"""
        rows = self.conn.execute(
            f"""WITH k AS MATERIALIZED ({pairwise} AND NOT {SEATS_CHANGED})
                SELECT k.currency, k.stake, a.player_id, b.player_id, SUM(a.penalty - b.penalty)
                FROM k JOIN session_totals a ON a.session_id = k.id
                JOIN session_totals b ON b.session_id = k.id AND b.player_id > a.player_id
                GROUP BY k.currency, k.stake, a.player_id, b.player_id""",
            params,
        ).fetchall()
        # Where the seats changed, each pair over the deals both played only.
        rows += self.conn.execute(
            f"""WITH k AS MATERIALIZED ({pairwise} AND {SEATS_CHANGED}),
                d AS MATERIALIZED ({PLAYED.format(sessions="SELECT id FROM k")})
                SELECT k.currency, k.stake, a.player_id, b.player_id, SUM(a.penalty - b.penalty)
                FROM k JOIN d a ON a.session_id = k.id
                JOIN d b ON b.session_id = k.id AND b.deal_no = a.deal_no AND b.player_id > a.player_id
                GROUP BY k.currency, k.stake, a.player_id, b.player_id""",
            params,
        ).fetchall()
        names = dict(self.conn.execute(f"SELECT id, name FROM {self.names()}").fetchall())
        return [PairDifference(c, s, names[a], names[b], d) for c, s, a, b, d in rows]

    def deals_played(self, session_id: int) -> list[tuple[int, str, int, int]]:
        """(deal number, player, penalty, net) of each player in each deal that counts, in
        deal order then seat order: who played which deal (settlement pair by pair)."""
        return [(int(d), str(n), int(p), int(t)) for d, n, p, t in self.conn.execute(
            f"""SELECT d.deal_no, p.name, d.penalty, d.net FROM ({PLAYED.format(sessions="?")}) d
                JOIN {self.names()} p ON p.id = d.player_id
                LEFT JOIN seats t ON t.session_id = d.session_id AND t.player_id = d.player_id
                ORDER BY d.deal_no, t.seat IS NULL, t.seat, p.name""", [session_id])]

    def seats_changed(self, session_id: int) -> bool:
        found = self.conn.execute(f"SELECT {SEATS_CHANGED} FROM sessions s WHERE s.id = ?",
                                  [session_id]).fetchone()
        return found is not None and found[0] == 1

    def winner_flows(self, session_ids: Sequence[int] | None = None) -> list[WinnerFlow]:
        """Pay-the-winner non-team sessions (all when ``None``): each player's net with each
        winner, summed per currency and stake."""
        scope, params = _scoped("f.session_id", session_ids)
        names = self.names()
        return list(typed(WinnerFlow, self.conn.execute(
            f"""SELECT s.currency, s.stake, p.name, y.name, SUM(f.net) FROM session_flows f
                JOIN sessions s ON s.id = f.session_id
                JOIN {names} p ON p.id = f.player_id JOIN {names} y ON y.id = f.payee_id
                WHERE s.teams = 0 {scope}
                GROUP BY s.currency, s.stake, p.canon_id, y.canon_id""",
            params,
        )))

    def deal_nets(self, session_id: int, bucket: int) -> list[DealNet]:
        """Each player's net over a session's live deals, ``bucket`` deals at a time."""
        from ledger.storage.derived import LIVE_UPTO  # the caches' module: not on the deal path

        return list(typed(DealNet, self.conn.execute(
            f"""SELECT MAX(e.deal_no), p.name, SUM(q.net)
                FROM entries e JOIN points q ON q.entry_id = e.id
                JOIN {self.names()} p ON p.id = q.player_id
                WHERE e.session_id = :sid AND {LIVE_UPTO}
                GROUP BY (e.deal_no - 1) / :bucket, q.player_id ORDER BY 1""",
            {"sid": session_id, "bucket": bucket, "upto": self.ledger.derived.last_entry_id()},
        )))
