"""The rows of the statistics and rating caches (``ledger.derived``): read by ``stats``,
``plot``, the ratings and the web page's live feed, never by ``bigtwo deal`` (kept out
of :mod:`ledger.storage.rows`, which every command loads).  Named tuples with evaluated
annotations, as there.
"""

from typing import NamedTuple

# --- derived caches (ledger.derived) ---


class Mark(NamedTuple):
    """How far a derived cache has taken in the entries, and by which code version."""

    last_entry_id: int
    version: str


class SessionChange(NamedTuple):
    """A session with new entries, and how many of them are voids or amends."""

    session_id: int
    corrections: int


class LiveDealPoints(NamedTuple):
    """One player's own points in the current version of one deal."""

    session_id: int
    deal_no: int
    player_id: int
    wins: int
    cards: int
    penalty: int
    net: int
    assist: str | None


class DealStatsRow(NamedTuple):
    """The cached deal statistics of one player in one session (``deal_stats``)."""

    session_id: int
    player_id: int
    deals: int
    assists: int
    worst_net: int | None
    worst_deal: int | None
    win_lead: int
    win_tail: int
    win_max: int
    loss_lead: int
    loss_tail: int
    loss_max: int
    cards_hist: str | None  # JSON; None when read without the distributions
    penalty_hist: str | None


class RatingDeal(NamedTuple):
    """One player's result in the current version of one deal, for the ratings."""

    entry_id: int
    player_id: int
    wins: int
    cards: int
    order: str | None  # the finishing order as JSON, when the deal has one


class StoredRating(NamedTuple):
    """A player's cached skill rating."""

    player_id: int
    mu: float
    sigma: float
    deals: int
