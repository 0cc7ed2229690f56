"""Write a big-two-scorer score sheet of N deals (deterministic), streaming.

    python benchmarks/make_sheet.py 200000 > /tmp/sheet.txt

A club of 12 regulars; four of them sit at a table for 40-80 games, often
several tables a day, so a million deals is 16,667 sessions over about 18
years.  One game in 40 has a `t`; one session in 10 changes the fry threshold.
"""

from __future__ import annotations

import datetime as dt
import random
import sys

CLUB = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lee"]


def games(rng: random.Random, winner_takes: bool = True) -> str:
    winner = rng.randrange(4)
    counts = [0 if i == winner else rng.choice(range(1, 14)) for i in range(4)]
    cells = [str(c) for c in counts]
    if rng.random() < 0.025:
        i = rng.randrange(4)
        if winner_takes or i != winner:  # big-two-scorer itself refuses a `t` on the winner
            cells[i] += "t"
    return " ".join(cells)


def write(n: int, out=sys.stdout, seed: int = 2026, winner_takes: bool = True) -> None:
    rng = random.Random(seed)
    day = dt.date(2016, 1, 1)
    written = 0
    while written < n:
        out.write(f"{day.isoformat()}\n")
        if rng.random() < 0.1:
            out.write(f"F={rng.choice((10, 11, 12))}\n")
        out.write(" ".join(rng.sample(CLUB, 4)) + "\n")
        evening = min(n - written, rng.randrange(40, 81))
        out.write("\n".join(games(rng, winner_takes) for _ in range(evening)) + "\n")
        written += evening
        day += dt.timedelta(days=rng.choice((0, 0, 0, 1, 1)))


if __name__ == "__main__":
    write(int(sys.argv[1]))
