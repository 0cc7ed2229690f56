"""Text for people from ledger.book.stats data: the stats report and the history list."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ledger.book import ratings
from ledger.book.clock import local_day
from ledger.book.money import money_text
from ledger.book.stats import Loss, PlayerStats, SessionResult, Stats
from ledger.book.views import History
from ledger.core.i18n import _, ngettext
from ledger.core.settlement import format_amount
from ledger.present.fit import wrap
from ledger.present.text import fitted_table, signed, table

MATRIX_MAX = 12  # players: a head-to-head grid up to this many, a list beyond


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate * 100:.1f}%"


def _streak(n: int) -> str:
    if n == 0:
        return "-"
    return _("won {n}").format(n=n) if n > 0 else _("{n} without a win").format(n=-n)


def _amount(amount: Decimal, currency: str) -> str:
    return f"{signed(amount)} {currency}"


def _session(r: SessionResult | None) -> str:
    if r is None:
        return "-"
    return _("{money} (session {session}, {date})").format(
        money=_amount(r.money, r.currency), session=r.session, date=r.date)


def _loss(r: Loss | None) -> str:
    if r is None:
        return "-"
    return _("{net} pts, {money} (session {session} deal {deal})").format(
        net=r.net, money=_amount(r.money, r.currency), session=r.session, deal=r.deal)


def _totals(players: Sequence[PlayerStats], limit: int | None) -> str:
    rows = [
        [p.name, p.sessions, p.deals, p.wins, _pct(p.win_rate),
         "-" if p.avg_penalty is None else f"{p.avg_penalty:.2f}", p.fried, _pct(p.fry_rate),
         p.assists, signed(p.net), money_text(p.money)]
        for p in players
    ]
    return fitted_table(rows, [_("player"), _("sessions"), _("deals"), _("wins"), _("win %"),
                               _("avg penalty"), _("fried"), _("fry %"), _("assists"), _("net pts"),
                               _("money")], limit,
                        drop=[8, 7, 5, 1, 4], shrink=[0])


def _records(players: Sequence[PlayerStats], sessions: int, limit: int | None) -> str:
    """Streaks and records; best and worst session only when there are several."""
    head = [_("player"), _("most wins in a row"), _("most deals without a win"), _("now"),
            _("biggest single loss")]
    rows = [[p.name, p.runs.win_max, p.runs.loss_max, _streak(p.runs.current),
             _loss(p.biggest_loss)] for p in players]
    if sessions > 1:
        head += [_("best session"), _("worst session")]
        for row, p in zip(rows, players, strict=True):
            row += [_session(p.best), _session(p.worst)]
    return fitted_table(rows, head, limit, drop=[6, 5, 4], shrink=[3, 0], align_right=False)


def _ratings(players: Sequence[PlayerStats], limit: int | None) -> str:
    rated = ratings.ranked((p.name, p.rating) for p in players if p.rating)
    if not rated:
        return _("skill rating: no deals yet")
    rows = [[name, f"{r.mu:.1f}", f"± {r.sigma:.1f}", f"{r.conservative:.1f}", r.deals]
            for name, r in rated]
    return (
        wrap(_("skill rating (openskill Plackett-Luce over every deal in the ledger; "
               "mu ± sigma, and mu - 3 sigma, a skill the player very likely has):"), limit or 10**6)
        + "\n" + fitted_table(rows, [_("player"), "mu", "sigma", "mu - 3 sigma", _("rated deals")], limit,
                              drop=[4], shrink=[0])
    )


def _head_to_head(st: Stats) -> str:
    pairs = st.head_to_head
    if not pairs:
        return _("head to head: nobody won or lost money against anybody")
    names = [p.name for p in st.players]
    one = len(st.scope.currencies) == 1 and len(names) <= MATRIX_MAX and len(names) > 1
    if one:
        cur = st.scope.currencies[0]
        rows = []
        for a in names:
            cells = [a]
            for b in names:
                amount = pairs.get((a, b), {}).get(cur)
                cells.append("" if a == b else signed(amount) if amount else "0")
            rows.append(cells)
        return (_("head to head: {currency} the row player won from the column player").format(
                    currency=cur) + "\n"
                + table(rows, ["", *names]))
    rows = [[a, b, money_text(m)] for (a, b), m in sorted(pairs.items())]
    return _("head to head: money the player won from the opponent") + "\n" + table(
        rows, [_("player"), _("opponent"), _("won")], align_right=False)


def stats_text(st: Stats, limit: int | None = None) -> str:
    """The stats report; ``limit`` columns wide at most (None: every column)."""
    cur = ", ".join(st.scope.currencies)
    head = wrap(ngettext("{scope}: {deals} deal, money in {currency}",
                         "{scope}: {deals} deals, money in {currency}", st.deals).format(
        scope=st.scope.describe(), deals=st.deals, currency=cur), limit or 10**6)
    blocks = [head, _totals(st.players, limit), _records(st.players, len(st.scope.sessions), limit),
              _ratings(st.players, limit),
              _head_to_head(st)]
    if len(st.players) > 1 or st.regulars:
        regulars = ", ".join(st.regulars) or _("nobody")
        blocks.append(wrap(ngettext("regular players (in at least a quarter of the {deals} deal): {names}",
                                    "regular players (in at least a quarter of the {deals} deals): {names}",
                                    st.deals).format(deals=st.deals, names=regulars),
                           limit or 10**6))
    return "\n\n".join(blocks)


def history_text(view: History, limit: int | None = None) -> str:
    out = []
    for line in view.lines:
        s = line.row.session
        cur = s.currency or "PTS"
        money = ", ".join(f"{n} {signed(v) if v else format_amount(v)}" for n, v in line.money)
        out.append([s.id, local_day(s.started_at), s.name, ", ".join(s.seats),
                    s.rules_name + (_(" teams") if s.teams else ""), line.row.deals,
                    f"{money} {cur}"])
    return fitted_table(out, [_("id"), _("date"), _("name"), _("players"), _("rules"), _("deals"),
                              _("money")], limit,
                        drop=[4, 2], shrink=[6, 3], align_right=False)
