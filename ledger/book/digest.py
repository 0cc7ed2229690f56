"""Per-session digests of the deals: what standings' sums cannot tell.

For each session and player: assists given, the worst single deal, the runs of
deals won and not won (for streaks), and how often each card count and penalty
came up.  Digests merge: two sessions' digests in time order give the digest of
both, so a player's streaks and distributions over ten years are a fold over a
few thousand small rows instead of a pass over every deal.

They are kept in the ``deal_stats`` table, a cache marked with the last entry
it has taken in.  A session that only gained deals since is extended; a session
with a new void or amend is digested again from its deals.

>>> a, b = Runs(), Runs()
>>> for won in (True, True, False):
...     a.add(won)
>>> for won in (False, True, True, True):
...     b.add(won)
>>> both = a.merge(b)
>>> (both.win_max, both.loss_max, both.current)
(3, 2, 3)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter

from ledger.core.errors import StoreError
from ledger.storage.cache_rows import DealStatsRow, LiveDealPoints, Mark
from ledger.storage.store import Ledger

CACHE = "deal_stats"
VERSION = "1"
CHUNK = 500  # sessions per query: each is read in deal order straight from the index


@dataclass
class Runs:
    """Runs of deals won and not won in one player's sequence of deals."""

    n: int = 0
    win_lead: int = 0
    win_tail: int = 0
    win_max: int = 0
    loss_lead: int = 0
    loss_tail: int = 0
    loss_max: int = 0

    def add(self, won: bool) -> None:
        if won:
            self.win_lead += self.win_lead == self.n
            self.win_tail += 1
            self.win_max = max(self.win_max, self.win_tail)
            self.loss_tail = 0
        else:
            self.loss_lead += self.loss_lead == self.n
            self.loss_tail += 1
            self.loss_max = max(self.loss_max, self.loss_tail)
            self.win_tail = 0
        self.n += 1

    def merge(self, later: Runs) -> Runs:
        """These deals followed by ``later``'s."""
        return Runs(*merge_runs(self.as_tuple(), later.as_tuple()))

    def as_tuple(self) -> RunsTuple:
        return (self.n, self.win_lead, self.win_tail, self.win_max, self.loss_lead,
                self.loss_tail, self.loss_max)

    @property
    def current(self) -> int:
        """The streak the sequence ends on: +k after k wins, -k after k deals without one."""
        return self.win_tail if self.win_tail else -self.loss_tail


RunsTuple = tuple[int, int, int, int, int, int, int]  # Runs' fields in order
NO_RUNS: RunsTuple = (0, 0, 0, 0, 0, 0, 0)


def merge_runs(a: RunsTuple, b: RunsTuple) -> RunsTuple:
    """:meth:`Runs.merge` on plain tuples (the fold over thousands of sessions)."""
    n, wl, wt, wm, ll, lt, lm = a
    bn, bwl, bwt, bwm, bll, blt, blm = b
    return (
        n + bn,
        wl + bwl if wl == n else wl,
        bwt + wt if bwt == bn else bwt,
        max(wm, bwm, wt + bwl),
        ll + bll if ll == n else ll,
        blt + lt if blt == bn else blt,
        max(lm, blm, lt + bll),
    )


@dataclass
class Digest:
    """One player's deals in one session (or, merged, in several)."""

    deals: int = 0
    assists: int = 0
    worst_net: int | None = None  # lowest net points of a single deal
    worst_deal: int | None = None  # its deal number (within its session)
    runs: Runs = field(default_factory=Runs)
    cards: Counter[int] = field(default_factory=Counter)
    penalty: Counter[int] = field(default_factory=Counter)

    def add(self, deal_no: int, won: bool, cards: int, penalty: int, net: int,
            assisted: bool) -> None:
        self.deals += 1
        self.assists += assisted
        if self.worst_net is None or net < self.worst_net:
            self.worst_net, self.worst_deal = net, deal_no
        self.runs.add(won)
        self.cards[cards] += 1
        self.penalty[penalty] += 1

    def extend(self, later: Digest) -> Digest:
        """This session's digest with deals added after it (same session)."""
        worst = self.worst_net is None or (
            later.worst_net is not None and later.worst_net < self.worst_net
        )
        return Digest(
            self.deals + later.deals, self.assists + later.assists,
            later.worst_net if worst else self.worst_net,
            later.worst_deal if worst else self.worst_deal,
            self.runs.merge(later.runs), self.cards + later.cards, self.penalty + later.penalty,
        )

    def to_row(self, session_id: int, player_id: int, hists: bool = True) -> DealStatsRow:
        """This digest as a ``deal_stats`` row; without the distributions unless ``hists``."""
        r = self.runs
        return DealStatsRow(
            session_id, player_id, self.deals, self.assists, self.worst_net, self.worst_deal,
            r.win_lead, r.win_tail, r.win_max, r.loss_lead, r.loss_tail, r.loss_max,
            _hist_text(self.cards) if hists else None, _hist_text(self.penalty) if hists else None)

    @classmethod
    def from_row(cls, row: DealStatsRow) -> Digest:
        """A digest from its stored row (read with the distributions)."""
        runs = Runs(row.deals, row.win_lead, row.win_tail, row.win_max, row.loss_lead,
                    row.loss_tail, row.loss_max)
        return cls(row.deals, row.assists, row.worst_net, row.worst_deal, runs,
                   _hist(row.cards_hist or "{}"), _hist(row.penalty_hist or "{}"))


Key = tuple[int, int]  # (session_id, player_id)


def _hist_text(counts: Counter[int]) -> str:
    return json.dumps({str(k): v for k, v in sorted(counts.items()) if v})


def _hist(text: str) -> Counter[int]:
    return Counter({int(k): v for k, v in json.loads(text).items()})


def digest_rows(rows: Iterable[LiveDealPoints], player_ids: dict[str, int]) -> dict[Key, Digest]:
    """Digest ``ledger.derived.live_deal_points`` rows (in session and deal order)."""
    out: dict[Key, Digest] = {}
    for (sid, deal_no), deal in groupby(rows, key=attrgetter("session_id", "deal_no")):
        for _s, _d, pid, wins, cards, penalty, net, assist in deal:
            key = (sid, pid)
            digest = out.get(key)
            if digest is None:
                digest = out[key] = Digest()
            digest.add(deal_no, wins > 0, cards, penalty, net,
                       assist is not None and player_ids.get(assist) == pid)
    return out


def session_rows(
    ledger: Ledger, session_ids: Sequence[int] | None, hists: bool = False
) -> list[DealStatsRow]:
    """Up-to-date digests of ``session_ids`` (all sessions when None) as ``deal_stats``
    rows.

    Brings the cache up to date first; if it cannot be saved (a read-only or busy
    ledger) the fresh digests are used all the same.  The two distributions are
    read only when ``hists`` is asked for.
    """
    fresh, redone = _refresh(ledger)
    wanted = None if session_ids is None else set(session_ids)
    out: list[DealStatsRow] = []
    if redone is not None:
        stored = ledger.derived.deal_stats(session_ids, hists)
        out = [r for r in stored if r.session_id not in redone] if redone else stored
    out.extend(d.to_row(*k, hists=hists) for k, d in fresh.items() if wanted is None or k[0] in wanted)
    return out


def distributions(
    ledger: Ledger, session_ids: Sequence[int] | None
) -> dict[int, tuple[Counter[int], Counter[int]]]:
    """Per player id: how many deals ended with each card count, and with each penalty.

    Added up on the stored text keys and converted once at the end: a decade of
    sessions is a few million small additions.
    """
    sums: dict[int, tuple[dict[str, int], dict[str, int]]] = {}
    loads = json.loads
    for row in session_rows(ledger, session_ids, True):
        cards, penalty = sums.setdefault(row.player_id, ({}, {}))
        for total, text in ((cards, row.cards_hist), (penalty, row.penalty_hist)):
            for k, v in loads(text or "{}").items():
                total[k] = total.get(k, 0) + v
    return {pid: (Counter({int(k): v for k, v in c.items()}), Counter({int(k): v for k, v in p.items()}))
            for pid, (c, p) in sums.items()}


def _refresh(ledger: Ledger) -> tuple[dict[Key, Digest], set[int] | None]:
    """Digests of the sessions that changed, and which sessions those are (None: all)."""
    mark = ledger.derived.mark(CACHE)
    upto = ledger.derived.last_entry_id()
    if mark == (upto, VERSION):
        return {}, set()
    names = ledger.journal.player_ids()
    if mark is None or mark.version != VERSION:
        fresh = _digest_sessions(ledger, ledger.journal.session_ids(), upto, names)
        _save(ledger, mark, upto, None, fresh)
        return fresh, None
    after = mark.last_entry_id
    changed = ledger.derived.sessions_changed(after, upto)
    redo = sorted(c.session_id for c in changed if c.corrections)
    extend = sorted(c.session_id for c in changed if not c.corrections)
    fresh = _digest_sessions(ledger, redo, upto, names)
    if extend:
        old = {(r.session_id, r.player_id): Digest.from_row(r) for r in ledger.derived.deal_stats(extend)}
        for key, later in digest_rows(ledger.derived.live_deal_points(extend, after, upto), names).items():
            fresh[key] = old[key].extend(later) if key in old else later
        fresh.update((k, v) for k, v in old.items() if k not in fresh)
    _save(ledger, mark, upto, redo + extend, fresh)
    return fresh, set(redo + extend)


def _digest_sessions(
    ledger: Ledger, session_ids: list[int], upto: int, names: dict[str, int]
) -> dict[Key, Digest]:
    """Digest these sessions from their deals, a chunk of sessions at a time."""
    out: dict[Key, Digest] = {}
    for i in range(0, len(session_ids), CHUNK):
        chunk = session_ids[i:i + CHUNK]
        out.update(digest_rows(ledger.derived.live_deal_points(chunk, 0, upto), names))
    return out


def _save(ledger: Ledger, mark: Mark | None, upto: int,
          session_ids: list[int] | None, fresh: dict[Key, Digest]) -> None:
    try:
        with ledger.writing():
            if ledger.derived.mark(CACHE) != mark:
                return  # another command brought the cache up to date meanwhile
            ledger.derived.save_deal_stats(session_ids, (d.to_row(*k) for k, d in fresh.items()))
            ledger.derived.set_mark(CACHE, upto, VERSION)
    except StoreError:
        pass  # a cache: the numbers shown are fresh either way
