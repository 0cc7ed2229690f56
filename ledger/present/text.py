"""Text for people: tables and short summaries built from report data.

tabulate is imported inside :func:`table`, so commands that print no table
never pay for it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ledger.book.reports import Settlement, Standings
from ledger.core.deal_line import facts_text
from ledger.core.scoring import DealScore
from ledger.core.settlement import format_amount
from ledger.core.text import json_safe, shown
from ledger.storage.rows import EntryRow, SessionRow


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], align_right: bool = True) -> str:
    """A text table; every cell goes through :func:`shown` (stored text never reaches
    the terminal raw)."""
    from tabulate import tabulate

    rows = [[shown(c) if isinstance(c, str) else c for c in r] for r in rows]
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True,
                    colalign=None if not align_right else
                    ("left",) + ("right",) * (len(headers) - 1))


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal: 陳 takes two, a combining accent none.
    ASCII (the usual case at the table) is measured without importing wcwidth."""
    if text.isascii():
        return len(text)
    from wcwidth import wcswidth, wcwidth

    total = wcswidth(text)
    # wcswidth gives -1 for a string with a non-printable character; count the rest.
    return total if total >= 0 else sum(max(wcwidth(c), 0) for c in text)


def ljust(text: str, columns: int) -> str:
    return text + " " * (columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * (columns - width(text)) + text


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
    return text if text.startswith("-") or text == "0" else f"+{text}"


def dumps(data: Any) -> str:
    """JSON for people and programs: UTF-8 text as it is, except what :func:`shown`
    would escape, which is written as a JSON escape (the same string to a reader)."""
    return json_safe(json.dumps(data, indent=2, ensure_ascii=False))


def session_title(s: SessionRow) -> str:
    name = f" '{shown(s.name)}'" if s.name else ""
    mode = ", teams" if s.teams else ""
    ended = f", ended {s.ended_at[:16].replace('T', ' ')}" if s.ended_at else ""
    per_unit = _points_per_unit(s)
    unit = f" ({per_unit} points a unit)" if per_unit != 1 else ""
    return shown(
        f"session {s.id}{name}: {', '.join(s.seats)} — rules {s.rules_name}{mode}, "
        f"stake {s.stake} {s.currency or 'PTS'} per point{unit}, {s.deals} deals{ended}"
    )


def _points_per_unit(s: SessionRow) -> int:
    """Points in one unit of the stake (2 in a ranked session: a point is half a unit)."""
    if s.rules.get("settlement") != "ranked":
        return 1
    from ledger.core.rules import rules_from_dict

    return rules_from_dict(s.rules).points_per_unit


def standings_text(st: Standings) -> str:
    head = ["player", "deals", "wins", "fried", "penalty", "net"]
    rows = [[p.name, p.deals, p.wins, p.fried, p.penalty, signed(p.net)] for p in st.players]
    out = quick_table(rows, head)
    if st.teams:
        rows = [[t.name, t.deals, t.wins, t.fried, t.penalty, signed(t.net)] for t in st.teams]
        out = quick_table(rows, ["team", *head[1:]]) + "\n\n" + out + (
            "\n(each member carries the team's net points; money is split in half)"
        )
    return out


def deal_text(deal_no: int, score: DealScore, seats: Sequence[str], verb: str = "deal") -> str:
    parts = []
    for name in seats:
        mark = "*" if score.wins[name] else ""
        fried = " fried" if score.fried[name] else ""
        parts.append(f"{name}{mark} {score.penalty[name]}{fried} ({signed(score.net[name])})")
    return shown(f"{verb} {deal_no}: " + ", ".join(parts))


def settlement_text(st: Settlement) -> str:
    cur = st.currency
    blocks = []
    if not st.working:
        blocks.append(
            f"all {st.session_count} sessions: money added up session by session at each one's stake"
        )
    for w in st.working:
        stake = format_amount(w.stake)
        if w.method in ("pay-the-winner", "ranked"):
            rows = [[n, w.totals[n], signed(w.net_points[n])] for n in w.totals]
            per_unit = _points_per_unit(w.session)
            how = "each loser pays the winner their penalty"
            if w.method == "ranked":
                how = "losers pay the winner by rank of cards left" + (
                    f" (a point is 1/{per_unit} unit)" if per_unit != 1 else "")
            label = "ranked" if w.method == "ranked" else "pay the winner"
            blocks.append(
                f"session {w.session.id} ({label}, stake {stake}): {how}\n"
                + table(rows, ["player", "penalty s", "net points"])
            )
        else:
            n = w.n
            rows = [[k, v, n * v, signed(w.sum_s - n * v)] for k, v in w.totals.items()]
            label = "teams, " if w.method == "teams" else ""
            blocks.append(
                f"session {w.session.id} ({label}pairwise, stake {stake}): "
                f"Σs = {w.sum_s}, net = Σs − {n}·s\n"
                + table(rows, ["player" if w.method != "teams" else "team", "s",
                               f"{n}·s", "net points"])
            )
    nets = table([[k, signed(v)] for k, v in st.nets.items()], ["player", f"net {cur}"])
    pair = table([[p.payer, p.payee, format_amount(p.amount)] for p in st.pairwise],
                 ["pays", "to", cur]) if st.pairwise else "(nobody owes anybody)"
    plan = table([[p.payer, p.payee, format_amount(p.amount)] for p in st.payments],
                 ["pays", "to", cur]) if st.payments else "(all square)"
    count = len(st.payments)
    return "\n\n".join(
        [*blocks, nets, "pair by pair:\n" + pair,
         f"fewest payments ({count}):\n" + plan]
    )


def log_text(entries: Sequence[EntryRow], live: set[int]) -> str:
    rows = []
    next_kind: dict[int, str] = {}  # what came next for each entry's deal, going backwards
    later: dict[int, str] = {}
    for e in reversed(entries):
        if e.deal_no in later:
            next_kind[e.id] = later[e.deal_no]
        later[e.deal_no] = e.kind
    for e in entries:
        status = ""
        if e.kind != "void" and e.id not in live:
            status = "voided" if next_kind.get(e.id) == "void" else "amended"
        facts = "" if e.facts is None else facts_text(e.facts)
        rows.append([e.seq, e.deal_no, e.kind, facts, status, e.created_at[:19].replace("T", " ")])
    return table(rows, ["#", "deal", "entry", "facts", "", "at (UTC)"], align_right=False)


