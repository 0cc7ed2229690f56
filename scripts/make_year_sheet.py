"""Write sample_sessions/year.txt: a year of club play in the big-two-scorer format.

    python scripts/make_year_sheet.py > sample_sessions/year.txt

Deterministic (fixed seed), so the file and the tests built on it never drift.  A
club of eight plays most Friday evenings of 2025: four at the table, sometimes a
change of players halfway (a new line of names), now and then a higher fry
threshold for an evening, an assist or a missed last-card call (`t`) about one
game in thirty, and comments the way people write them on paper.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from typing import TextIO

CLUB = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
# Cards left by a loser, weighted the way real games end: mostly a few cards.
COUNTS = list(range(1, 14))
WEIGHTS = [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]


def game(rng: random.Random) -> str:
    winner = rng.randrange(4)
    cells = [
        "0" if i == winner else str(rng.choices(COUNTS, WEIGHTS)[0]) for i in range(4)
    ]
    if rng.random() < 1 / 30:
        cells[rng.randrange(4)] += "t"  # on a loser an assist, on the winner a missed call
    line = " ".join(cells)
    if rng.random() < 0.02:
        line += "  # " + rng.choice(["what a hand", "dragon? no", "Gus dealt", "disputed, kept"])
    return line


def write(out: TextIO, seed: int = 2025) -> int:
    """Write the sheet; returns the number of games."""
    rng = random.Random(seed)
    out.write("# Friday club, 2025 (big-two-scorer format; see docs/import-export.md)\n")
    day = dt.date(2025, 1, 3)
    threshold = 10
    games = 0
    while day.year == 2025:
        if rng.random() < 0.8:  # most Fridays
            out.write(f"\n{day.isoformat()}\n")
            wanted = rng.choice([10, 10, 10, 10, 11, 12])
            if wanted != threshold:
                threshold = wanted
                note = "the usual again" if threshold == 10 else "house rule for tonight"
                out.write(f"F={threshold}  # {note}\n")
            halves = 2 if rng.random() < 0.25 else 1
            for _ in range(halves):
                out.write(" ".join(rng.sample(CLUB, 4)) + "\n")
                for _ in range(rng.randrange(4, 12)):
                    out.write(game(rng) + "\n")
                    games += 1
        day += dt.timedelta(days=7)
    return games


if __name__ == "__main__":
    count = write(sys.stdout)
    print(f"{count} games", file=sys.stderr)
