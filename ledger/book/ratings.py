"""Skill ratings from every deal's finishing order (Plackett-Luce, as openskill rates).

A deal ranks its players: the winner first, then by cards left, fewest first;
equal counts tie (an immediate win: the winner first, the rest tie).  Places
mode uses the recorded order; a teams deal ranks the winning pair above the
other.  Deals are taken in the order they were recorded.

Ratings are a cache (table ``ratings``) marked with the last entry taken in:
newer deals update it; a void or amend of a deal already taken in rebuilds it
from the first deal, since a rating depends on the order of everything before.

>>> _ranks([RatingDeal(9, 1, 0, 3, None), RatingDeal(9, 2, 1, 0, None),
...         RatingDeal(9, 3, 0, 3, None), RatingDeal(9, 4, 0, 8, None)], {})
([[1], [2], [3], [4]], [3, 0, 3, 8])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from ledger.core.errors import StoreError
from ledger.core.skill import Table, rate_deal
from ledger.storage.cache_rows import RatingDeal, StoredRating
from ledger.storage.store import Ledger

CACHE = "ratings"
NOTICE_AT = 50_000  # deals: tell the user a one-time catch-up is running


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    deals: int

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: a skill the player very likely has at least (openskill's ordinal)."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, Any]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "conservative": round(self.conservative, 3), "deals": self.deals}


def ranked(rated: Iterable[tuple[str, Rating]]) -> list[tuple[str, Rating]]:
    """Best first by the conservative rating mu - 3 sigma, then by name: the order of the
    rating table of ``bigtwo stats`` and of ``bigtwo plot --kind rating``."""
    return sorted(rated, key=lambda nr: (-nr[1].conservative, nr[0]))


def version() -> str:
    """The rating code's tag in the cache's mark: a change of it rates every deal anew."""
    return "PlackettLuce 2 (ledger.core.skill: openskill 6.2's arithmetic)"


def _ranks(rows: Sequence[RatingDeal], ids: dict[str, int]) -> tuple[list[list[int]], list[int]]:
    """Teams of player ids and their ranks (lower is better) for one deal's rows."""
    order = rows[0].order
    if order is not None:  # places mode: the recorded finishing order
        place = {ids.get(name): i for i, name in enumerate(json.loads(order))}
        return [[r.player_id] for r in rows], [place.get(r.player_id, len(place)) for r in rows]
    winners = [r.player_id for r in rows if r.wins > 0]
    if len(winners) > 1:  # teams: both partners of the winning team are marked
        return [winners, [r.player_id for r in rows if r.wins <= 0]], [0, 1]
    return [[r.player_id] for r in rows], [0 if r.wins > 0 else r.cards for r in rows]


def rate(deals: Iterable[RatingDeal], start: dict[int, Rating], ids: dict[str, int]) -> dict[int, Rating]:
    """Fold ``ledger.derived.rating_deals`` rows into the ratings ``start``
    (:func:`ledger.core.skill.rate_deal`: openskill's arithmetic, without its overhead)."""
    table: Table = {pid: (r.mu, r.sigma, r.deals) for pid, r in start.items()}
    for _entry, rows in groupby(deals, key=itemgetter(0)):  # a deal's rows, by entry
        deal = list(rows)
        if len(deal) > 1:
            teams, ranks = _ranks(deal, ids)
            if len(teams) >= 2:
                rate_deal(table, teams, ranks)
    return {pid: Rating(mu, sigma, n) for pid, (mu, sigma, n) in table.items()}


def tag_of(ledger: Ledger) -> str:
    """The version the cache's mark must carry: the code's, and the players' renames and
    merges (a rename or merge rates anew)."""
    return f"{version()} players {ledger.players.mark()}"


def current(ledger: Ledger, notice: Callable[[str], None] | None = None) -> dict[int, Rating]:
    """Every player's rating from every deal in the ledger, by player id.

    ``notice`` hears about a long catch-up (a big ledger's first rating).
    """
    mark = ledger.derived.mark(CACHE)
    upto = ledger.derived.last_entry_id()
    tag = tag_of(ledger)
    stored = {r.player_id: Rating(r.mu, r.sigma, r.deals) for r in ledger.derived.ratings()}
    if mark == (upto, tag):
        return stored
    after = 0
    if (mark is not None and mark.version == tag
            and not ledger.derived.corrections_reach_back(mark.last_entry_id, upto)):
        after = mark.last_entry_id
    else:
        stored = {}
    if notice is not None and upto - after > NOTICE_AT:
        from ledger.core.i18n import _

        why = (_("a void or amend changed a rated deal, so every deal is rated again")
               if after == 0 and mark is not None else _("this happens once"))
        notice(_("rating {count} entries; {why}").format(count=f"{upto - after:,}", why=why))

    canon = ledger.players.canon_ids()  # a merged player is rated as the one it joined
    typed = {name: canon[pid] for name, pid in ledger.journal.player_ids().items()}
    deals = ledger.derived.rating_deals(after, upto)
    if any(pid != to for pid, to in canon.items()):
        deals = (d._replace(player_id=canon[d.player_id]) for d in deals)
    ratings = rate(deals, stored, typed)
    try:
        with ledger.writing():
            if ledger.derived.mark(CACHE) == mark:  # else another command saved it meanwhile
                ledger.derived.save_ratings(
                    StoredRating(pid, r.mu, r.sigma, r.deals) for pid, r in ratings.items())
                ledger.derived.set_mark(CACHE, upto, tag)
    except StoreError:
        pass  # a cache: the ratings shown are fresh either way
    return ratings
