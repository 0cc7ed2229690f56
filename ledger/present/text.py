"""Text for people: tables and short summaries built from report data.

tabulate is imported inside :func:`table`, so commands that print no table
never pay for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ledger.book.clock import local_minute, local_second, zone_label
from ledger.book.reports import Settlement, Standings
from ledger.core.deal_line import facts_text
from ledger.core.i18n import N_, _, ngettext
from ledger.core.settlement import format_amount
from ledger.core.text import json_safe, shown
from ledger.present.fit import (
    fit_columns,
    hidden_note,
    ljust,
    rjust,
    screen_width,
    table_width,
    width,
    wrap,
)
from ledger.storage.rows import SessionRow

if TYPE_CHECKING:
    from ledger.book.views import AfterDeal, Log, PlayerPoints, SettleView


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], align_right: bool = True,
          folded: bool = False) -> str:
    """A text table; every cell goes through :func:`shown` (stored text never reaches
    the terminal raw).  ``folded``: the cells were escaped and folded onto lines by
    :func:`ledger.present.fit.fit_columns` (``cut=False``); each line is escaped again."""
    from tabulate import tabulate

    rows = [[("\n".join(map(shown, c.split("\n"))) if folded else shown(c))
             if isinstance(c, str) else c for c in r] for r in rows]
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True,
                    colalign=None if not align_right else
                    ("left",) + ("right",) * (len(headers) - 1))


def quick_table(rows: Sequence[Sequence[Any]], headers: Sequence[str]) -> str:
    """The same layout as :func:`table` (tabulate's "simple"), first column left and
    the rest right-aligned, without importing tabulate: used on the deal path.
    Widths are display widths, so 陳大文 and 🐉 line up like Ann."""
    cells = [[str(h) for h in headers]] + [[shown(str(c)) for c in r] for r in rows]
    widths = [max(width(r[i]) for r in cells) for i in range(len(headers))]

    def line(r: Sequence[str]) -> str:
        parts = [ljust(r[0], widths[0])] + [rjust(c, w) for c, w in zip(r[1:], widths[1:], strict=True)]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(r) for r in cells[1:])])


def signed(value: int | Any) -> str:
    text = format_amount(value) if not isinstance(value, int) else str(value)
    return text if text.startswith("-") or value == 0 else f"+{text}"


def dumps(data: Any) -> str:
    """JSON for people and programs: UTF-8 text as it is, except what :func:`shown`
    would escape, which is written as a JSON escape (the same string to a reader)."""
    return json_safe(json.dumps(data, indent=2, ensure_ascii=False))


def session_title(s: SessionRow) -> str:
    name = f' "{shown(s.name)}"' if s.name else ""
    mode = _(", teams") if s.teams else ""
    ended = _(", ended {when}").format(when=local_minute(s.ended_at)) if s.ended_at else ""
    per_unit = _points_per_unit(s)
    unit = _(" ({n} points a unit)").format(n=per_unit) if per_unit != 1 else ""
    return shown(ngettext(
        "session {id}{name}: {players} — rules {rules}{mode}, "
        "stake {stake} {currency} per point{unit}, {deals} deal{ended}",
        "session {id}{name}: {players} — rules {rules}{mode}, "
        "stake {stake} {currency} per point{unit}, {deals} deals{ended}", s.deals,
    ).format(id=s.id, name=name, players=", ".join(s.seats), rules=s.rules_name, mode=mode,
             stake=s.stake, currency=s.currency or "PTS", unit=unit, deals=s.deals, ended=ended))


def _points_per_unit(s: SessionRow) -> int:
    """Points in one unit of the stake (2 in a ranked session: a point is half a unit)."""
    if s.rules.get("settlement") != "ranked":
        return 1
    from ledger.core.rules import rules_from_dict

    return rules_from_dict(s.rules).points_per_unit


def standings_text(st: Standings, columns: int | None = None, money: Settlement | None = None) -> str:
    """The standings table; on a narrow screen (``columns``, default the terminal's)
    short headings with a key, and long names shortened with …  With ``money`` (the
    same sessions' settlement) a column of each player's net money."""
    limit = screen_width() if columns is None else columns
    head = [_("player"), _("deals"), _("wins"), _("fried"), _("penalty"), _("net")]
    rows = [[p.name, p.deals, p.wins, p.fried, p.penalty, signed(p.net)] for p in st.players]
    if money is not None:
        head.append(money.currency or "PTS")
        for row, p in zip(rows, st.players, strict=True):
            row.append(signed(money.nets.get(p.name, 0)))
    out = _fitted_standings(rows, head, limit)
    if st.teams:
        rows = [[t.name, t.deals, t.wins, t.fried, t.penalty, signed(t.net)] for t in st.teams]
        out = _fitted_standings(rows, [_("team"), *head[1:6]], limit) + "\n\n" + out + "\n" + wrap(
            _("(each member carries the team's net points; money is split in half)"), limit)
    return out


def _short_headings() -> list[tuple[str, str]]:
    """(short, long) headings of the narrow standings, in the interface language."""
    return [(_("d"), _("deals")), (_("w"), _("wins")), (_("f"), _("fried")), (_("pen"), _("penalty"))]


def _fitted_standings(rows: list[list[Any]], head: list[str], limit: int) -> str:
    text_rows = [[str(c) for c in r] for r in rows]
    if table_width(text_rows, head, 0) <= limit:
        return quick_table(text_rows, head)
    pairs = _short_headings()
    short = [head[0], *(s for s, _long in pairs), head[5]]
    body, top, _hidden = fit_columns(text_rows, short, limit, shrink=[0], header_pad=0)
    key = _(", ").join(f"{s} {long}" for s, long in pairs)
    return quick_table(body, top) + "\n\n" + wrap(f"({key})", limit)


DEAL_HEADS = {  # deal_text's first words, by the verb its callers pass
    "deal": N_("deal {number}: {scores}"), "amended deal": N_("amended deal {number}: {scores}"),
    "void": N_("void {number}: {scores}"), "undo": N_("undo {number}: {scores}"),
    "now deal": N_("now deal {number}: {scores}"),
}


def deal_text(deal_no: int, points: Sequence[PlayerPoints], verb: str = "deal") -> str:
    """``deal 1: Ann* 0 (+33), Ben 3 (+21), Cat 11 → 22 fried (-55), Dan 8 (+1)``: each
    player's cards left, then (when the rules make it differ) the penalty they count for."""
    parts = []
    for p in points:
        mark = "*" if p.win else ""
        count = str(p.cards) if p.cards == p.penalty else f"{p.cards} → {p.penalty}"
        fried = _(" fried") if p.fried else ""
        parts.append(f"{p.name}{mark} {count}{fried} ({signed(p.net)})")
    head = DEAL_HEADS.get(verb)
    if head is None:
        return shown(f"{verb} {deal_no}: " + ", ".join(parts))
    return shown(_(head).format(number=deal_no, scores=", ".join(parts)))


def undo_text(undone: Any, after: AfterDeal | None = None, said: bool = False) -> str:
    """What an undo (:class:`ledger.book.actions.Undone`) took back, with its facts; given
    ``after`` (the :class:`~ledger.book.views.AfterDeal` of the entry the undo wrote),
    then the deal as it stands now, the standings and who deals next, as after any deal.
    The first line in English (the web page's JSON), or with ``said`` in the interface's
    language."""
    line = _undone_line(undone, _ if said else _english)
    if after is None:
        return line
    return line + "\n" + after_deal_text(after, "now deal", head=after.points is not None)


def _english(message: str) -> str:
    return message


def _undone_line(undone: Any, t: Callable[[str], str]) -> str:
    s = undone.session
    if undone.action == "session start":
        seats = ", ".join(s.seats)
        now = (t(N_("no current session now")) if undone.current is None
               else t(N_("current again: session {id}")).format(id=undone.current.id))
        return shown(t(N_("undone: the start of session {id} ({seats} — rules {rules}, no deals); "
                          "{now}")).format(id=s.id, seats=seats, rules=s.rules_name, now=now))
    if undone.action == "session end":
        ended = local_minute(s.ended_at) if s.ended_at else "?"
        return t(N_("undone: the end of session {id} (ended {ended}); it is open again")).format(
            id=s.id, ended=ended)
    if undone.action == "session reopen":
        return t(N_("undone: the reopening of session {id}; it is ended again")).format(id=s.id)
    if undone.action.startswith("seat "):
        return shown(t(N_("undone: {action} (session {id})")).format(action=undone.action, id=s.id))
    n = undone.deal_no
    what = t({"deal": N_("deal {number}"), "amend": N_("the amendment of deal {number}"),
              "void": N_("the void of deal {number}")}[undone.action]).format(number=n)
    facts = f" ({facts_text(undone.facts, s.seats)})" if undone.facts else ""
    if undone.restored is None:
        after = t(N_("deal {number} does not count now")).format(number=n)
    elif undone.action == "void":
        after = t(N_("deal {number} counts again: {facts}")).format(
            number=n, facts=facts_text(undone.restored, s.seats))
    else:
        after = t(N_("deal {number} is back to {facts}")).format(
            number=n, facts=facts_text(undone.restored, s.seats))
    return shown(t(N_("undone: {what}{facts} — {after}")).format(what=what, facts=facts, after=after))


def after_deal_text(view: AfterDeal, verb: str = "deal", head: bool = True) -> str:
    """What is printed after a deal is recorded, amended, voided or undone (``bigtwo deal``
    and the ``table`` loop alike): the deal's points (or the void), the running
    standings and who deals and leads next."""
    if view.points is not None:
        first = deal_text(view.deal_no, view.points, verb)
    else:
        first = _("deal {number} voided").format(number=view.deal_no)
    lines = (first, standings_text(view.standings), view.turn.describe())
    return "\n".join(lines if head else lines[1:])


def payments_text(view: SettleView, columns: int | None = None) -> str:
    """The money first (``session end``): the fewest payments, each with its amount in
    the settlement's coins and, once the ledger holds payments, what of it is paid and
    outstanding.  Fits ``columns`` (default the terminal's)."""
    limit = screen_width() if columns is None else columns
    st = view.settlement
    cur = st.currency
    if not st.payments:
        plan = _("(all square)")
    else:
        if st.paid is not None:
            rows = [[p.payer, p.payee, format_amount(p.amount), format_amount(p.paid),
                     format_amount(p.outstanding)] for p in view.progress]
            headers = [_("pays"), _("to"), cur, _("paid"), _("outstanding")]
        else:
            rows = [[p.payer, p.payee, format_amount(p.amount)] for p in st.payments]
            headers = [_("pays"), _("to"), cur]
        body, top, _hidden = fit_columns(rows, headers, limit, shrink=(0, 1), cut=False)
        plan = table(body, top, folded=True)
    return _("fewest payments ({count}):").format(count=len(st.payments)) + "\n" + plan


def settlement_text(view: SettleView, columns: int | None = None, plan: bool = True) -> str:
    """Nets, pair by pair and the fewest payments, with each session's working.  Fits
    ``columns`` (default the terminal's): prose wraps, long names are shortened.
    ``plan=False``: without the fewest payments, shown above it (:func:`payments_text`)."""
    limit = screen_width() if columns is None else columns

    def tbl(rows: list[list[Any]], headers: list[str], shrink: Sequence[int] = (0,)) -> str:
        body, top, _hidden = fit_columns(rows, headers, limit, shrink=shrink, cut=False)
        return table(body, top, folded=True)

    st = view.settlement
    cur = st.currency
    blocks = []
    if not view.working:
        blocks.append(wrap(
            ngettext("all {count} session: money added up session by session at each one's stake",
                     "all {count} sessions: money added up session by session at each one's stake",
                     st.session_count).format(count=st.session_count),
            limit))
    for w in view.working:
        stake = format_amount(w.working.stake)
        sid = w.session.id
        if w.method in ("pay-the-winner", "ranked"):
            rows = [[r.name, r.s, signed(r.net_points)] for r in w.rows]
            if w.method == "ranked":
                head = _("session {id} (ranked, stake {stake}): losers pay the winner by rank "
                         "of cards left").format(id=sid, stake=stake)
                if w.points_per_unit != 1:
                    head += _(" (a point is 1/{n} unit)").format(n=w.points_per_unit)
            else:
                head = _("session {id} (pay the winner, stake {stake}): "
                         "each loser pays the winner their penalty").format(id=sid, stake=stake)
            blocks.append(wrap(head, limit) + "\n"
                          + tbl(rows, [_("player"), _("penalty s"), _("net points")]))
        elif w.working.tables:
            blocks.append(wrap(_("session {id} (pairwise, stake {stake}): the seats changed, so "
                                 "each line-up is worked over the deals it played (each pair "
                                 "counts over the deals both played; a sit-out scores nothing)")
                               .format(id=sid, stake=stake), limit))
            for t in w.tables:
                n = t.working.n
                out = t.working.sitting_out
                head = ngettext("deal {deals}: Σs = {sum}, net = Σs − {n}·s",
                                "deals {deals}: Σs = {sum}, net = Σs − {n}·s",
                                len(t.working.deals)).format(
                    deals=deal_ranges(t.working.deals), sum=t.working.sum_s, n=n)
                if out:
                    head += "; " + _("sitting out: {names}").format(names=", ".join(out))
                blocks.append(wrap(head, limit) + "\n" + tbl(
                    [[r.name, r.s, r.n_s, signed(r.net_points)] for r in t.rows],
                    [_("player"), "s", f"{n}·s", _("net points")]))
            blocks.append(wrap(_("session {id}: net points, every line-up added up").format(id=sid),
                               limit) + "\n" + tbl([[r.name, r.s, signed(r.net_points)] for r in w.rows],
                                                    [_("player"), _("penalty s"), _("net points")]))
        else:
            n = w.working.n
            rows = [[r.name, r.s, r.n_s, signed(r.net_points)] for r in w.rows]
            label = _("teams, ") if w.method == "teams" else ""
            blocks.append(wrap(
                _("session {id} ({label}pairwise, stake {stake}): "
                  "Σs = {sum}, net = Σs − {n}·s").format(id=sid, label=label, stake=stake,
                                                         sum=w.working.sum_s, n=n), limit) + "\n"
                + tbl(rows, [_("player") if w.method != "teams" else _("team"), "s",
                             f"{n}·s", _("net points")])
            )
    if st.coin is not None and st.exact_nets is not None:
        extra = st.remainder()
        nets = wrap(_("rounded to coins of {coin} {currency} (largest remainder: "
                      "the nets still add up to 0):").format(coin=format_amount(st.coin), currency=cur),
                    limit) + "\n" + tbl(
            [[k, signed(v), signed(st.exact_nets[k]), signed(extra[k])] for k, v in st.nets.items()],
            [_("player"), _("net {currency}").format(currency=cur), _("exact"), _("rounding")])
        pair_title = _("pair by pair (exact):")
    else:
        nets = tbl([[k, signed(v)] for k, v in st.nets.items()],
                   [_("player"), _("net {currency}").format(currency=cur)])
        pair_title = _("pair by pair:")
    pair = tbl([[p.payer, p.payee, format_amount(p.amount)] for p in st.pairwise],
               [_("pays"), _("to"), cur], shrink=(0, 1)) if st.pairwise else _("(nobody owes anybody)")
    fewest = [payments_text(view, limit)] if plan else []
    paid = []
    if st.paid is not None:
        exact = st.exact_nets if st.exact_nets is not None else st.nets
        left = st.outstanding()
        paid.append(_("paid so far (bigtwo payments) and still outstanding, exactly:") + "\n" + tbl(
            [[k, signed(exact.get(k, 0)), signed(st.paid.get(k, 0)), signed(v)] for k, v in left.items()],
            [_("player"), _("net {currency}").format(currency=cur), _("paid"), _("outstanding")]))
        rest = st.still_to_pay()
        paid.append(_("still to pay ({count}):").format(count=len(rest)) + "\n" + (
            tbl([[p.payer, p.payee, format_amount(p.amount)] for p in rest],
                [_("pays"), _("to"), cur], shrink=(0, 1)) if rest else _("(all square)")))
    return "\n\n".join(
        [*blocks, nets, pair_title + "\n" + pair, *fewest, *paid]
    )


def fitted_table(rows: Sequence[Sequence[Any]], headers: Sequence[str], limit: int | None,
                 drop: Sequence[int] = (), shrink: Sequence[int] = (), align_right: bool = True) -> str:
    """:func:`table` made to fit ``limit`` columns (None: every column, full text):
    the columns in ``drop`` go first, then the text in ``shrink`` is shortened with …;
    a line under the table names what was left out."""
    body, top, hidden = fit_columns(rows, headers, limit, drop, shrink, cut=False)
    note = "\n\n" + wrap(hidden_note(hidden), limit or 80) if hidden else ""
    return table(body, top, align_right=align_right, folded=True) + note


ENTRY_KINDS = {"deal": N_("deal"), "amend": N_("amend"), "void": N_("void")}


def log_text(view: Log, limit: int | None = None) -> str:
    """Every entry with its facts (players in seat order), replaced ones marked, and
    which entries an undo wrote; ``no entries yet`` for a session without any."""
    if not view.lines:
        return _("no entries yet")
    rows = []
    seats = view.session.seats
    for line in view.lines:
        e = line.entry
        status = _(LOG_STATUS[line.status]) if line.status else ""
        if line.undoes is not None:
            status = (status + ", " if status else "") + _("undoes #{seq}").format(seq=line.undoes)
        facts = "" if e.facts is None else facts_text(e.facts, seats)
        kind = _(ENTRY_KINDS.get(e.kind, e.kind))
        rows.append([e.seq, e.deal_no, kind, facts, status, local_second(e.created_at)])
    return fitted_table(rows, ["#", _("deal"), _("entry"), _("facts"), _("status"),
                               _("at ({zone})").format(zone=zone_label())], limit,
                        drop=[5], shrink=[3], align_right=False)


LOG_STATUS = {"voided": N_("voided"), "amended": N_("amended"),
              "superseded": N_("superseded: a later correction stands")}


def deal_ranges(numbers: Sequence[int]) -> str:
    """``1–3, 5, 7–8``: deal numbers as runs."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def lineup_text(session_id: int, lineup: Any) -> str:
    """Who is seated (:class:`ledger.core.lineup.Lineup`), who sits out, who plays next."""
    lines = [_("session {id}: seated {seated}").format(id=session_id, seated=", ".join(lineup.order))]
    if lineup.out:
        lines.append(_("sitting out: {names}").format(names=", ".join(lineup.sitting_out)))
    lines.append(_("next deal: {names}").format(names=", ".join(lineup.playing)))
    return "\n".join(shown(line) for line in lines)


def seat_change_text(change: Any, turn: Any) -> str:
    """What ``bigtwo seat …`` did (:class:`ledger.book.seats.SeatChange`) and the line-up now."""
    return "\n".join((shown(change.text), lineup_text(change.session.id, change.after),
                      turn.describe()))
