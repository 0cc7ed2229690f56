"""Paper check: assert a paper score sheet's running penalty totals against the ledger.

Like a balance assertion in plain-text accounting: for each player the sheet's
total, the ledger's and the difference.  When the sheet is given deal by deal
(``Ann=0,3,3,14``: the running total after each deal), the check also finds the
first deal from which the two disagree, which is where to look on paper.

The values given stand for the live deals (voided ones are not on paper) that end
at deal N (``--after N``, default the last deal): one value is the total after deal
N; k values are the running totals after each of the k live deals up to deal N.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ledger.core.deal_line import match_player
from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import _
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger


class SheetDisagrees(LedgerError):
    """The paper sheet and the ledger disagree (exit code 1, like a failed assertion)."""

    status = 409


@dataclass(frozen=True)
class PlayerCheck:
    name: str
    sheet: int
    ledger: int
    first_differs: int | None = None  # deal number
    sheet_added: int | None = None  # what each side adds in that deal, when known
    ledger_added: int | None = None

    @property
    def difference(self) -> int:
        return self.sheet - self.ledger

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "sheet": self.sheet, "ledger": self.ledger,
                "difference": self.difference, "first_differs": self.first_differs,
                "sheet_added": self.sheet_added, "ledger_added": self.ledger_added}


@dataclass(frozen=True)
class CheckResult:
    session: SessionRow
    after: int
    deals: tuple[int, ...]  # the deal numbers the sheet's values stand for
    players: tuple[PlayerCheck, ...]
    first_differs: int | None
    facts: dict[str, Any] | None  # the ledger's facts of that deal

    @property
    def ok(self) -> bool:
        return self.first_differs is None and all(p.difference == 0 for p in self.players)

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session.id, "after": self.after, "deals": list(self.deals),
                "ok": self.ok, "first_differs": self.first_differs, "facts": self.facts,
                "players": [p.to_dict() for p in self.players]}


def parse_claims(claims: Sequence[str], seats: Sequence[str]) -> dict[str, list[int]]:
    """``NAME=TOTAL`` or ``NAME=T1,T2,...`` per player (names as in ``bigtwo deal``).

    >>> parse_claims(["ann=81", "Ben=40"], ["Ann", "Ben", "Cat"])
    {'Ann': [81], 'Ben': [40]}
    >>> parse_claims(["ann=0,12,81", "Ben=0,3,40"], ["Ann", "Ben", "Cat"])
    {'Ann': [0, 12, 81], 'Ben': [0, 3, 40]}
    """
    if not claims:
        raise InputError(_("give the sheet's totals: NAME=TOTAL for each player, e.g. {example}")
                         .format(example=" ".join(f"{n}=0" for n in seats)))
    out: dict[str, list[int]] = {}
    for claim in claims:
        name, sep, values = claim.partition("=")
        if not sep or not name.strip():
            raise InputError(_("{claim!r}: write NAME=TOTAL (or NAME=T1,T2,... deal by deal)")
                             .format(claim=claim))
        player = match_player(name, seats, claim)
        if player in out:
            raise InputError(_("{player} is given twice").format(player=player))
        numbers = []
        for text in values.split(","):
            text = text.strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 12:
                raise InputError(_("{claim!r}: {text!r} is not a penalty total (a whole number 0 "
                                   "or more)").format(claim=claim, text=text))
            numbers.append(int(text))
        out[player] = numbers
    lengths = {len(v) for v in out.values()}
    if len(lengths) > 1:
        counts = ", ".join(f"{n} {len(v)}" for n, v in out.items())
        raise InputError(_("every player needs as many totals as the others; given: {counts}")
                         .format(counts=counts))
    return out


def check(ledger: Ledger, session: SessionRow, claims: Sequence[str], after: int | None = None
          ) -> CheckResult:
    sheet = parse_claims(claims, session.seats)
    live = ledger.journal.live_deals(session.id)
    last = ledger.journal.next_deal_no(session.id) - 1
    if not live:
        raise InputError(_("session {id} has no deals to check against").format(id=session.id))
    if after is None:
        after = live[-1].deal_no
    elif not 1 <= after <= last:
        raise InputError(_("--after {after}: session {id} has deals 1 to {last}").format(
            after=after, id=session.id, last=last))
    upto = [e for e in live if e.deal_no <= after]
    if not upto:
        raise InputError(_("--after {after}: every deal up to {after} is void").format(after=after))
    k = len(next(iter(sheet.values())))
    if k > len(upto):
        raise InputError(_(
            "the sheet gives {given} totals per player but the ledger has {deals} deals up to "
            "deal {after} (voided deals do not count)").format(given=k, deals=len(upto), after=after))

    # Running totals from the stored points: exactly what the standings add up.
    running: list[dict[str, int]] = []
    totals = dict.fromkeys(session.seats, 0)
    for e in upto:
        for p in ledger.journal.deal_points(session.id, e.deal_no):
            totals[p.player] += p.penalty
        running.append(dict(totals))
    start = len(upto) - k
    covered = upto[start:]
    results = []
    first_index: int | None = None
    for name, values in sheet.items():
        mine = [running[start + i][name] for i in range(k)]
        bad = next((i for i in range(k) if values[i] != mine[i]), None)
        added: tuple[int | None, int | None] = (None, None)
        if bad is not None and k > 1:
            before = running[start + bad - 1][name] if start + bad > 0 else 0
            if bad > 0 or start == 0:
                sheet_before = values[bad - 1] if bad > 0 else 0
                added = (values[bad] - sheet_before, mine[bad] - before)
            first_index = bad if first_index is None else min(first_index, bad)
        results.append(PlayerCheck(
            name, values[-1], mine[-1], covered[bad].deal_no if bad is not None and k > 1 else None,
            *added,
        ))
    first = covered[first_index] if first_index is not None else None
    return CheckResult(session, after, tuple(e.deal_no for e in covered), tuple(results),
                       None if first is None else first.deal_no, None if first is None else first.facts)
