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
from ledger.core.words import plural
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
    return shown(
        f"session {s.id}{name}: {', '.join(s.seats)} — rules {s.rules_name}{mode}, "
        f"stake {s.stake} {s.currency or 'PTS'} per point, {plural(s.deals, 'deal')}{ended}"
    )


def standings_text(st: Standings, money: Settlement | None = None) -> str:
    """The standings table; with ``money`` (the same sessions' settlement) a column of
    each player's net money."""
    head = ["player", "deals", "wins", "fried", "penalty", "net"]
    rows = [[p.name, p.deals, p.wins, p.fried, p.penalty, signed(p.net)] for p in st.players]
    if money is not None:
        head.append(money.currency or "PTS")
        for row, p in zip(rows, st.players, strict=True):
            row.append(signed(money.nets.get(p.name, 0)))
    out = quick_table(rows, head)
    if st.teams:
        rows = [[t.name, t.deals, t.wins, t.fried, t.penalty, signed(t.net)] for t in st.teams]
        out = quick_table(rows, ["team", *head[1:6]]) + "\n\n" + out + (
            "\n(each member carries the team's net points; money is split in half)"
        )
    return out


def deal_text(deal_no: int, score: DealScore, seats: Sequence[str], verb: str = "deal") -> str:
    """``deal 1: Ann* 0 (+33), Ben 3 (+21), Cat 11 → 22 fried (-55), Dan 8 (+1)``: each
    player's cards left, then (when the rules make it differ) the penalty they count for."""
    parts = []
    for name in seats:
        mark = "*" if score.wins[name] else ""
        cards, penalty = score.cards[name], score.penalty[name]
        count = str(cards) if cards == penalty else f"{cards} → {penalty}"
        fried = " fried" if score.fried[name] else ""
        parts.append(f"{name}{mark} {count}{fried} ({signed(score.net[name])})")
    return shown(f"{verb} {deal_no}: " + ", ".join(parts))


def undo_text(undone: Any) -> str:
    """What an undo (:class:`ledger.book.actions.Undone`) took back, with its facts."""
    s = undone.session
    if undone.action == "session start":
        seats = ", ".join(s.seats)
        now = ("no current session now" if undone.current is None
               else f"current again: session {undone.current.id}")
        return shown(f"undone: the start of session {s.id} ({seats} — rules {s.rules_name}, "
                     f"no deals); {now}")
    if undone.action == "session end":
        ended = local_time(s.ended_at) if s.ended_at else "?"
        return f"undone: the end of session {s.id} (ended {ended}); it is open again"
    n = undone.deal_no
    what = {"deal": f"deal {n}", "amend": f"the amendment of deal {n}",
            "void": f"the void of deal {n}"}[undone.action]
    facts = f" ({facts_text(undone.facts, s.seats)})" if undone.facts else ""
    if undone.restored is None:
        after = f"deal {n} does not count now"
    elif undone.action == "void":
        after = f"deal {n} counts again: {facts_text(undone.restored, s.seats)}"
    else:
        after = f"deal {n} is back to {facts_text(undone.restored, s.seats)}"
    return shown(f"undone: {what}{facts} — {after}")


def local_time(stamp: str) -> str:
    """A stored UTC timestamp as local time, ``2026-11-29 21:11``."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def settlement_text(st: Settlement) -> str:
    cur = st.currency
    blocks = []
    if not st.working:
        blocks.append(
            f"all {plural(st.session_count, 'session')}: "
            "money added up session by session at each one's stake"
        )
    for w in st.working:
        stake = format_amount(w.stake)
        if w.method == "pay-the-winner":
            rows = [[n, w.totals[n], signed(w.net_points[n])] for n in w.totals]
            blocks.append(
                f"session {w.session.id} (pay the winner, stake {stake}): "
                "each loser pays the winner their penalty\n"
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


def log_text(entries: Sequence[EntryRow], live: set[int], seats: Sequence[str] = (),
             undos: dict[int, int] | None = None) -> str:
    """Every entry with its facts (players in ``seats`` order), replaced ones marked;
    ``undos`` maps the entries an undo wrote to the seq of the entry they undid."""
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
        if undos and e.id in undos:
            status = (status + ", " if status else "") + f"undoes #{undos[e.id]}"
        facts = "" if e.facts is None else facts_text(e.facts, seats)
        rows.append([e.seq, e.deal_no, e.kind, facts, status, e.created_at[:19].replace("T", " ")])
    return table(rows, ["#", "deal", "entry", "facts", "status", "at (UTC)"], align_right=False)


