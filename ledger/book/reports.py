"""Standings and settlement as plain data (rendering is elsewhere).

Standings are sums of the stored derived points; settlement turns each
session's net points into money at that session's stake, then adds money (never
points) across sessions.
"""

from collections.abc import Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from ledger.core.errors import InputError, NotFound
from ledger.core.i18n import N_, _
from ledger.core.scoring import teams_of
from ledger.core.settlement import (
    Payment,
    format_amount,
    net_flows,
    payment_plan,
    quantum,
    round_amount,
    round_nets,
    round_to_coin,
)
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

NO_SESSIONS = N_("the ledger has no sessions yet")
START_ONE = N_("start one with bigtwo session start")


class PlayerLine(NamedTuple):
    name: str
    deals: int = 0
    wins: int = 0
    fried: int = 0
    penalty: int = 0
    net: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "deals": self.deals, "wins": self.wins,
                "fried": self.fried, "penalty": self.penalty, "net": self.net}


class Standings(NamedTuple):
    scope: str
    sessions: list[SessionRow]
    players: list[PlayerLine]
    teams: list[PlayerLine]
    session_ids: list[int]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scope": self.scope,
            "sessions": self.session_ids,
            "players": [p.to_dict() for p in self.players],
        }
        if self.teams:
            out["teams"] = [t.to_dict() for t in self.teams]
        return out


def team_name(members: Sequence[str]) -> str:
    return "+".join(members)


def _sorted(lines: list[PlayerLine]) -> list[PlayerLine]:
    return sorted(lines, key=lambda p: (-p.net, p.name))


def standings(ledger: Ledger, sessions: list[SessionRow]) -> Standings:
    sums: dict[str, list[int]] = {}  # deals, wins, fried, penalty, net
    for s in sessions:  # seat order first, so ties read in seat order within a session
        for name in s.seats:
            sums.setdefault(name, [0, 0, 0, 0, 0])
    for _sid, name, *counts in ledger.totals.by_session([s.id for s in sessions]):
        total = sums.setdefault(name, [0, 0, 0, 0, 0])
        for i, count in enumerate(counts):
            total[i] += count
    lines = {name: PlayerLine(name, *total) for name, total in sums.items()}
    teams: list[PlayerLine] = []
    if len(sessions) == 1 and sessions[0].teams:
        for members in teams_of(sessions[0].seats):
            first = lines[members[0]]
            teams.append(
                PlayerLine(
                    team_name(members), first.deals, first.wins,
                    sum(lines[m].fried for m in members),
                    sum(lines[m].penalty for m in members), first.net,
                )
            )
    scope = f"session {sessions[0].id}" if len(sessions) == 1 else "all sessions"
    return Standings(scope, sessions, _sorted(list(lines.values())), _sorted(teams),
                     [s.id for s in sessions])


def standings_all(ledger: Ledger) -> Standings:
    """Standings over every session, summed in SQL (fast on a decade of play)."""
    ids = ledger.journal.session_ids()
    if not ids:
        raise NotFound(_(NO_SESSIONS), advice=_(START_ONE))
    lines = [PlayerLine(*row) for row in ledger.totals.by_player()]
    return Standings("all sessions", [], _sorted(lines), [], ids)


# --- settlement ---------------------------------------------------------------

# Settlements where each loser pays the winner (flows kept per payee).  A ranked
# session's stake is stored per point, so its money is net x stake like the others.
WINNER_PAID = ("pay-the-winner", "ranked")


class Working(NamedTuple):
    """The hand-checkable arithmetic of one session's settlement."""

    session: SessionRow
    method: str  # "pairwise", "pay-the-winner", "ranked" or "teams"
    totals: dict[str, int]  # penalty totals s (per team in teams mode)
    net_points: dict[str, int]
    stake: Decimal
    # Where the seats changed: one working per line-up, each over the deals it played
    # (pairwise: each pair counts over the deals both played); ``deals`` those deals.
    tables: tuple["Working", ...] = ()
    deals: tuple[int, ...] = ()

    @property
    def sitting_out(self) -> list[str]:
        """The session's players who played none of this line-up's deals."""
        return [n for n in self.session.seats if n not in self.totals]

    @property
    def sum_s(self) -> int:
        return sum(self.totals.values())

    @property
    def n(self) -> int:
        return len(self.totals)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "session": self.session.id, "method": self.method, "stake": str(self.stake),
            "totals": self.totals, "net_points": self.net_points,
        }
        if self.method not in WINNER_PAID and not self.tables:
            out["sum_s"] = self.sum_s
            out["n"] = self.n
        if self.deals:
            out["deals"] = list(self.deals)
            out["players"] = list(self.totals)
            out["sitting_out"] = self.sitting_out
        return out


class Settlement(NamedTuple):
    currency: str
    nets: dict[str, Decimal]
    pairwise: list[Payment]
    payments: list[Payment]
    working: list[Working]  # each session's arithmetic (left out over WORKING_LIMIT sessions)
    session_count: int = 1
    coin: Decimal | None = None  # settle --round: nets and payments in whole coins
    exact_nets: dict[str, Decimal] | None = None  # the nets before rounding to the coin
    paid: dict[str, Decimal] | None = None  # payments recorded (ledger.book.owed): + paid out

    def outstanding(self) -> dict[str, Decimal]:
        """The exact nets after the payments recorded: + still owed money, - still owes."""
        exact = self.exact_nets if self.exact_nets is not None else self.nets
        paid = self.paid or {}
        out = {k: v + paid.get(k, Decimal(0)) for k, v in exact.items()}
        out.update({k: v for k, v in paid.items() if k not in out})
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def still_to_pay(self) -> list[Payment]:
        """The fewest payments that clear what is outstanding (exact amounts)."""
        return payment_plan({k: v for k, v in self.outstanding().items() if v})

    def rounded(self, coin: Decimal) -> "Settlement":
        """The same settlement paid in whole coins: nets by largest remainder (still
        summing to zero), the fewest payments planned over the rounded nets.  Pair by
        pair stays exact: it is what each pair owes, the working behind the nets."""
        nets = round_to_coin(self.nets, coin)
        q = quantum(self.currency)
        if q is not None and q.as_tuple().exponent < coin.as_tuple().exponent:  # type: ignore[operator]
            nets = {k: v.quantize(q) for k, v in nets.items()}  # 30 HKD shown 30.00, as elsewhere
        ordered = dict(sorted(nets.items(), key=lambda kv: (-kv[1], kv[0])))
        return self._replace(nets=ordered, payments=payment_plan(ordered), coin=coin,
                       exact_nets=dict(self.nets))

    def remainder(self) -> dict[str, Decimal]:
        """What rounding to the coin added to (+) or took from (-) each net."""
        if self.exact_nets is None:
            return {}
        return {k: v - self.exact_nets[k] for k, v in self.nets.items()}

    def to_dict(self) -> dict[str, Any]:
        data = {
            "currency": self.currency,
            "nets": {k: format_amount(v) for k, v in self.nets.items()},
            "pairwise": [p.to_dict() for p in self.pairwise],
            "payments": [p.to_dict() for p in self.payments],
            "working": [w.to_dict() for w in self.working],
        }
        if self.coin is not None and self.exact_nets is not None:
            data["round"] = format_amount(self.coin)
            data["exact_nets"] = {k: format_amount(v) for k, v in self.exact_nets.items()}
            data["rounding"] = {k: format_amount(v) for k, v in self.remainder().items()}
        if self.paid is not None:
            data["paid"] = {k: format_amount(v) for k, v in sorted(self.paid.items())}
            data["outstanding"] = {k: format_amount(v) for k, v in self.outstanding().items()}
            data["still_to_pay"] = [p.to_dict() for p in self.still_to_pay()]
        return data


def _session_money(
    ledger: Ledger, s: SessionRow, per_player: dict[str, PlayerLine]
) -> tuple[dict[str, Decimal], list[tuple[str, str, Decimal]], Working]:
    stake = Decimal(s.stake)
    settlement_kind = s.rules.get("settlement", "pairwise")
    if s.teams:
        teams = teams_of(s.seats)
        totals = {team_name(t): sum(per_player[m].penalty for m in t) for t in teams}
        team_net = {team_name(t): per_player[t[0]].net for t in teams}
        exact = {m: Decimal(team_net[team_name(t)]) * stake / 2 for t in teams for m in t}
        (a, ta), (b, tb) = totals.items()
        team_flows = [(a, b, Decimal(ta - tb) * stake)] if ta != tb else []
        return exact, team_flows, Working(s, "teams", totals, team_net, stake)
    nets = {n: per_player[n].net for n in s.seats}
    exact = {n: Decimal(v) * stake for n, v in nets.items()}
    totals = {n: per_player[n].penalty for n in s.seats}
    flows: list[tuple[str, str, Decimal]] = []
    if settlement_kind in WINNER_PAID:  # ranked: each loser pays the winner their share
        for f in ledger.totals.winner_flows([s.id]):
            if f.net < 0:
                flows.append((f.player, f.winner, Decimal(-f.net) * stake))
            elif f.net > 0:
                flows.append((f.winner, f.player, Decimal(f.net) * stake))
        return exact, flows, Working(s, settlement_kind, totals, nets, stake)
    tables: tuple[Working, ...] = ()
    if ledger.totals.seats_changed(s.id):
        tables = line_ups(s, ledger.totals.deals_played(s.id), stake)
    for table in tables or (Working(s, "pairwise", totals, nets, stake),):
        seats = list(table.totals)
        for i, a in enumerate(seats):
            for b in seats[i + 1:]:
                if table.totals[a] != table.totals[b]:
                    flows.append((a, b, Decimal(table.totals[a] - table.totals[b]) * stake))
    return exact, flows, Working(s, "pairwise", totals, nets, stake, tables)


def line_ups(s: SessionRow, played: Sequence[tuple[int, str, int, int]], stake: Decimal
             ) -> tuple[Working, ...]:
    """A session whose seats changed, worked out line-up by line-up: the deals each set
    of players played together, with their penalty totals ``s`` and net points (Σs − n·s
    over those deals).  Each pair plays only in the line-ups holding both, so a pair's
    amount is the difference of their penalties over the deals both played."""
    deals: dict[int, dict[str, tuple[int, int]]] = {}
    for deal_no, name, penalty, net in played:
        deals.setdefault(deal_no, {})[name] = (penalty, net)
    groups: dict[tuple[str, ...], list[int]] = {}
    for deal_no, points in deals.items():
        groups.setdefault(tuple(points), []).append(deal_no)
    tables = []
    for players, numbers in groups.items():
        totals = {n: sum(deals[d][n][0] for d in numbers) for n in players}
        net_points = {n: sum(deals[d][n][1] for d in numbers) for n in players}
        tables.append(Working(s, "pairwise", totals, net_points, stake, (), tuple(numbers)))
    return tuple(tables)


def _per_session(
    ledger: Ledger, sessions: list[SessionRow], currency: str
) -> tuple[dict[str, Decimal], list[tuple[str, str, Decimal]], list[Working]]:
    """Money session by session: each session's nets rounded at its own stake."""
    per_session: dict[int, dict[str, PlayerLine]] = {s.id: {} for s in sessions}
    for s in sessions:
        for name in s.seats:
            per_session[s.id][name] = PlayerLine(name)
    for sid, name, deals, wins, fried, penalty, net in ledger.totals.by_session([s.id for s in sessions]):
        per_session[sid][name] = PlayerLine(name, deals, wins, fried, penalty, net)
    nets: dict[str, Decimal] = {}
    flows: list[tuple[str, str, Decimal]] = []
    working = []
    for s in sessions:
        exact, session_flows, work = _session_money(ledger, s, per_session[s.id])
        for name, amount in round_nets(exact, currency).items():
            nets[name] = nets.get(name, Decimal(0)) + amount
        flows.extend(session_flows)
        working.append(work)
    return nets, flows, working


def settle(ledger: Ledger, sessions: list[SessionRow]) -> Settlement:
    currencies = sorted({s.currency or "PTS" for s in sessions})
    if len(currencies) > 1:
        raise InputError(_("these sessions use different currencies ({currencies}); settle "
                           "each with --session ID").format(currencies=", ".join(currencies)))
    currency = currencies[0]
    nets, flows, working = _per_session(ledger, sessions, currency)
    pairwise = [
        Payment(p.payer, p.payee, round_amount(p.amount, currency)) for p in net_flows(flows)
    ]
    ordered = dict(sorted(nets.items(), key=lambda kv: (-kv[1], kv[0])))
    return Settlement(currency, ordered, pairwise, payment_plan(ordered), working, len(sessions))


WORKING_LIMIT = 20  # settle --all shows each session's working up to this many sessions


def settle_all(ledger: Ledger, working_limit: int = WORKING_LIMIT) -> Settlement:
    """Settle every session: the same money as :func:`settle` over all of them, faster.

    Sessions whose money is exact at their stake (no rounding to the currency)
    are summed per stake in SQL: adding net points then multiplying by the stake
    gives the same money as doing it session by session.  Teams sessions and
    stakes finer than the currency's minor unit go session by session, as in
    :func:`settle`.
    """
    currencies = sorted(set(ledger.totals.currencies()))
    if not currencies:
        raise NotFound(_(NO_SESSIONS), advice=_(START_ONE))
    if len(currencies) > 1:
        raise InputError(_("these sessions use different currencies ({currencies}); settle "
                           "each with --session ID").format(currencies=", ".join(currencies)))
    count = len(ledger.journal.session_ids())
    if count <= working_limit:
        return settle(ledger, ledger.journal.sessions())
    currency = currencies[0]
    q = quantum(currency)

    def exact(stake: str) -> bool:
        return q is None or Decimal(stake) == Decimal(stake).quantize(q)

    nets: dict[str, Decimal] = {}
    slow_stakes: set[str] = set()
    for m in ledger.totals.money():
        if m.teams:
            continue  # teams sessions: session by session below
        if not exact(m.stake):
            slow_stakes.add(m.stake)
            continue
        nets[m.player] = nets.get(m.player, Decimal(0)) + Decimal(m.net) * Decimal(m.stake)
    # One currency (checked above), so the sums per currency and stake are per stake.
    flows: list[tuple[str, str, Decimal]] = []
    for d in ledger.totals.pair_differences():
        if exact(d.stake) and d.difference:
            flows.append((d.a, d.b, Decimal(d.difference) * Decimal(d.stake)))
    for f in ledger.totals.winner_flows():
        if exact(f.stake) and f.net:
            flows.append((f.player, f.winner, Decimal(-f.net) * Decimal(f.stake)))
    slow = ledger.journal.sessions_where_stake_in(sorted(slow_stakes), teams=False) if slow_stakes else []
    slow += ledger.journal.sessions_where_stake_in([], teams=True)
    if slow:
        slow_nets, slow_flows, _working = _per_session(ledger, slow, currency)
        for name, amount in slow_nets.items():
            nets[name] = nets.get(name, Decimal(0)) + amount
        flows.extend(slow_flows)
    pairwise = [
        Payment(p.payer, p.payee, round_amount(p.amount, currency)) for p in net_flows(flows)
    ]
    ordered = dict(sorted(nets.items(), key=lambda kv: (-kv[1], kv[0])))
    return Settlement(currency, ordered, pairwise, payment_plan(ordered), [], count)
