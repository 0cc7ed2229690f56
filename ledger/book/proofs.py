"""Which sessions the plain doctor proves clean from SQL digests, and which it replays.

A session is proven clean when SQLite's aggregates (``ledger/storage/digests.py``) say
that its stored points are what its entries' facts derive to, that its cached totals
and flows are its points' sums, and that it holds nothing a replay would question:

- it has a rule set that loads, two to eight seated players with distinct names, and
  only ``deal`` entries, one per deal number;
- every deal's facts read seat by seat (cards, and an assist): each distinct key is
  derived once here (from one deal that has it, as ``book.record_deal`` scores it)
  and must score one row per seat, one deal each, no payee, nets summing to zero;
- its points rows are as many as the derivations give, and their sums weighted by
  player and by entry and player equal the derivations' (a digest);
- no flow moved, and the cached totals' sum weighted by player equals the points'.

Every other session is replayed in Python (``doctor.check_session``), as before, so
every finding is the replay's own.  What the digest does not prove: that a points row
changed on purpose so that every sum stays the same is right; ``doctor --full``,
``restore`` and a backup's import replay every session and derive every deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ledger.book.derivations import Derivations, facts_of
from ledger.core.scoring import Deal, score_deal
from ledger.storage.digests import SLOTS, WEIGHTS, Digests, Expected, SessionContext, Unreadable, plain
from ledger.storage.raw_rows import RawSession, SessionRows
from ledger.storage.store import Ledger


class Proof(NamedTuple):
    """A session as the digests left it: proven (``rows`` None) or its rows to replay."""

    session_id: int
    session: RawSession | None
    rows: SessionRows | None
    entries: int
    points: int


def proofs(ledger: Ledger, derivations: Derivations, cached: bool) -> Iterator[Proof] | None:
    """Every session in id order, proven or with its rows; None when this file's schema
    cannot be read by the digests (the caller streams every session instead)."""
    digests = Digests(ledger.conn)
    try:
        contexts: dict[tuple[str, bool, int], int] = {}

        def eligible() -> Iterator[SessionContext]:
            for s, player_ids in digests.sessions():
                if not 2 <= len(s.seats) <= SLOTS or len(set(s.seats)) != len(s.seats) or not all(
                        plain(n) for n in s.seats):
                    continue
                try:
                    derivations.rules(s.rules)
                except Exception:  # the replay names it
                    continue
                rc = contexts.setdefault((s.rules, s.teams, len(s.seats)), len(contexts))
                yield SessionContext(s.id, rc, s.seats, player_ids)

        digests.key_deals(eligible())
        rules_of = {rc: key for key, rc in contexts.items()}
        digests.expect(lambda k: _expected(derivations, rules_of[k.context], k.seats, k.context,
                                           k.key, k.facts))
        tallies = digests.compare(cached)
    except Unreadable:  # an older or damaged schema: the replay reads it
        digests.close()
        return None

    def each() -> Iterator[Proof]:
        try:
            for t in tallies:
                if t.proven and t.exists:
                    yield Proof(t.session_id, None, None, t.entries, t.points)
                else:
                    session = digests.session_of(t.session_id) if t.exists else None
                    yield Proof(t.session_id, session, digests.session(t.session_id, session, cached),
                                t.entries, t.points)
        finally:
            digests.close()

    return each()


def _expected(derivations: Derivations, context: tuple[str, bool, int], seats: tuple[str, ...],
              rc: int, key: str, facts: str) -> Expected | None:
    """A key's derivation as the digests compare it, or None when it does not prove its
    deals (it does not score, or scores otherwise than one plain row per seat)."""
    rules_json, teams, _n = context
    try:  # what derivations.derive gives (points_rows of the score), read seat by seat
        score = score_deal(derivations.rules(rules_json), seats, Deal.from_dict(facts_of(facts)),
                           teams)
    except Exception:  # the replay names it
        return None
    derivations.derived += 1
    net_of = score.net
    if len(net_of) != len(seats):  # a row for a name not seated, or a seat without one
        return None
    w_deals, w_wins, w_fried, w_cards, w_penalty, w_net = WEIGHTS
    wins, fried, cards, penalty, payee = score.wins, score.fried, score.cards, score.penalty, score.payee
    by_seat = []
    net = 0
    for player in seats:
        if player not in net_of or payee[player] is not None:
            return None
        points = net_of[player]
        by_seat.append(w_deals + w_wins * int(wins[player]) + w_fried * int(fried[player])
                       + w_cards * cards[player] + w_penalty * penalty[player] + w_net * points)
        net += points
    if net != 0 or 0 in by_seat or sum(by_seat) == 0:
        return None
    return Expected(rc, key, len(seats), tuple(by_seat))
