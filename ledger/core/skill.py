"""Plackett-Luce skill updates (Weng and Lin's algorithm 4), the arithmetic of
openskill's ``PlackettLuce().rate`` with its default parameters, step for step in the
same order, so the numbers are the same to the last bit; without its per-call copies,
checks and uuids it rates a deal in a few microseconds instead of ~100, so the first
report after a large import (ledger/book/ratings.py rates every deal once) waits less.

tests/core/test_skill.py compares the two on random deals, ties and teams included.

>>> table = {}
>>> rate_deal(table, [[1], [2], [3], [4]], [0, 3, 3, 8])
>>> [round(table[p][0], 3) for p in (1, 2, 3, 4)]
[27.795, 24.689, 24.689, 22.826]
"""

from __future__ import annotations

import math

MU = 25.0
SIGMA = 25.0 / 3.0
BETA_SQUARED = (25.0 / 6.0) ** 2
KAPPA = 0.0001
TAU_SQUARED = (25.0 / 300.0) * (25.0 / 300.0)

# player id -> (mu, sigma, deals rated)
Table = dict[int, tuple[float, float, int]]


def rate_deal(table: Table, teams: list[list[int]], ranks: list[int]) -> None:
    """Update ``table`` with one deal: ``teams`` of player ids and their ranks (lower is
    better, equal ties).  A player not in the table starts at (MU, SIGMA)."""
    if all(len(team) == 1 for team in teams):
        rate_singles(table, [team[0] for team in teams], ranks)
        return
    order = sorted(range(len(teams)), key=ranks.__getitem__)  # stable, as openskill's
    rank = [ranks[i] for i in order]
    players: list[list[tuple[int, float, float]]] = []  # (id, mu, sigma with tau)
    mus: list[float] = []
    sss: list[float] = []
    collective = 0.0
    for i in order:
        team = []
        for pid in teams[i]:
            mu, sigma, _n = table.get(pid, (MU, SIGMA, 0))
            team.append((pid, mu, math.sqrt(sigma * sigma + TAU_SQUARED)))
        if len(team) > 1:  # summed best ordinal first, as openskill does
            team.sort(key=lambda p: p[1] - 3.0 * p[2], reverse=True)
        mu_sum = ss = 0.0
        for _pid, mu, sigma in team:
            mu_sum += mu
            ss += sigma ** 2
        players.append(team)
        mus.append(mu_sum)
        sss.append(ss)
        collective += ss + BETA_SQUARED
    c = math.sqrt(collective)
    k = len(order)
    exps = [math.exp(mu / c) for mu in mus]
    sum_q = [0.0] * k
    for i in range(k):
        for q in range(k):
            if rank[i] >= rank[q]:
                sum_q[q] += exps[i]
    a = [rank.count(r) for r in rank]
    for i in range(k):
        omega = delta = 0.0
        e = exps[i]
        for q in range(k):
            x = e / sum_q[q]
            if rank[q] <= rank[i]:
                delta += x * (1 - x) / a[q]
                if q == i:
                    omega += (1 - x) / a[q]
                else:
                    omega -= x / a[q]
        ss = sss[i]
        omega *= ss / c
        delta *= ss / c ** 2
        delta *= math.sqrt(ss) / c
        for pid, mu, sigma in players[i]:
            share = sigma ** 2 / ss
            mu += share * omega
            sigma *= math.sqrt(max(1 - share * delta, KAPPA))
            table[pid] = (mu, sigma, table[pid][2] + 1 if pid in table else 1)


def rate_singles(table: Table, pids: list[int], ranks: list[int]) -> None:
    """:func:`rate_deal` for a deal of one-player teams (most deals), the same arithmetic
    with less bookkeeping."""
    k = len(pids)
    order = sorted(range(k), key=ranks.__getitem__)
    rank = [ranks[i] for i in order]
    get = table.get
    ids = [pids[i] for i in order]
    mus = []
    sigmas = []
    sss = []
    counts = []
    collective = 0.0
    for pid in ids:
        mu, sigma, n = get(pid, (MU, SIGMA, 0))
        sigma = math.sqrt(sigma * sigma + TAU_SQUARED)
        ss = 0.0 + sigma ** 2
        mus.append(mu)
        sigmas.append(sigma)
        sss.append(ss)
        counts.append(n)
        collective += ss + BETA_SQUARED
    c = math.sqrt(collective)
    c2 = c ** 2
    exp = math.exp
    exps = [exp((0.0 + mu) / c) for mu in mus]
    # Ranks sorted: a rank's group is a run; a q of rank <= rank[i] is one up to the end
    # of i's run, and sum_q[q] sums exps from the start of q's run on, left to right.
    start = [0] * k
    end = [k] * k
    for i in range(1, k):
        start[i] = start[i - 1] if rank[i] == rank[i - 1] else i
    for i in range(k - 2, -1, -1):
        end[i] = end[i + 1] if rank[i] == rank[i + 1] else i + 1
    sums = {}
    for g in set(start):
        total = 0.0
        for e in exps[g:]:
            total += e
        sums[g] = total
    sum_q = [sums[g] for g in start]
    a = [end[q] - start[q] for q in range(k)]
    for i in range(k):
        omega = delta = 0.0
        e = exps[i]
        for q in range(end[i]):
            x = e / sum_q[q]
            aq = a[q]
            delta += x * (1 - x) / aq
            if q == i:
                omega += (1 - x) / aq
            else:
                omega -= x / aq
        ss = sss[i]
        omega *= ss / c
        delta *= ss / c2
        delta *= math.sqrt(ss) / c
        sigma = sigmas[i]
        share = sigma ** 2 / ss
        table[ids[i]] = (mus[i] + share * omega,
                         sigma * math.sqrt(max(1 - share * delta, KAPPA)), counts[i] + 1)
