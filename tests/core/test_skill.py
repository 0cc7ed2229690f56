"""ledger.core.skill against openskill's PlackettLuce: the same ratings to the last bit."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from ledger.core.skill import Table, rate_deal


def _deals(n: int, seed: int) -> list[tuple[list[list[int]], list[int]]]:
    """Random deals of 3 to 6 players: one-player teams with tied and untied ranks, and
    two-player teams (teams mode)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        players = rng.sample(range(12), rng.choice((4, 4, 4, 3, 5, 6)))
        if rng.random() < 0.2:
            half = len(players) // 2
            out.append(([players[:half], players[half:]], rng.choice(([0, 1], [1, 0]))))
        else:
            out.append(([[p] for p in players],
                        [rng.choice((0, 1, 3, 3, 5, 8, 13)) for _ in players]))
    return out


def test_rate_deal_is_openskill_to_the_bit() -> None:
    model = PlackettLuce()
    theirs: dict[int, tuple[object, int]] = {}
    ours: Table = {}
    for teams, ranks in _deals(3000, 2026):
        now = [[theirs[p][0] if p in theirs else model.rating() for p in team] for team in teams]
        for team, rated in zip(teams, model.rate(now, ranks=ranks), strict=True):
            for p, r in zip(team, rated, strict=True):
                theirs[p] = (r, theirs[p][1] + 1 if p in theirs else 1)
        rate_deal(ours, teams, ranks)
    assert ours == {p: (r.mu, r.sigma, n) for p, (r, n) in theirs.items()}  # type: ignore[attr-defined]
