"""Draw the example charts of docs/plots.md into docs/img/, from sample data.

    .venv/bin/python scripts/make_doc_plots.py            # writes docs/img/*.png
    .venv/bin/python scripts/make_doc_plots.py --keep DB  # and keeps the ledger at DB

The ledger is built fresh every time, the same way: the evening of
sample_sessions/evening.toml, then a season of weekly sessions dealt by a seeded
random generator.  Rerun it after changing a chart and the pictures follow.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
from datetime import date, timedelta
from pathlib import Path

from ledger.book import actions as book
from ledger.book.scope import select
from ledger.core import i18n
from ledger.core.rules import load_preset
from ledger.formats import samples
from ledger.present import plots
from ledger.storage.store import Ledger, open_ledger

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
CLUB = ["Ann", "Ben", "Cat", "Dan", "陳大文", "李小明"]  # Chinese names: the charts draw them
SKILL = {"Ann": 1.5, "Ben": 1.0, "Cat": 1.25, "Dan": 0.8, "陳大文": 1.1, "李小明": 0.9}
CHARTS = {  # file -> (kind, session: True = the evening, False = every session)
    "net": ("net", True),
    "timeline": ("timeline", False),
    "sessions": ("sessions", False),
    "distribution": ("distribution", False),
    "rates": ("rates", False),
    "rating": ("rating", False),
}


def start(ledger: Ledger, seats: list[str], day: date, name: str, stake: str) -> int:
    with ledger.writing():
        sid = ledger.journal.add_session(
            seats=seats, name=name, rules=load_preset("classic").to_dict(), stake=stake,
            currency="USD", teams=False, started_at=f"{day.isoformat()}T19:30:00.000000+00:00",
        )
        ledger.journal.set_setting(book.CURRENT_KEY, str(sid))
    return sid


def deal_line(rng: random.Random, seats: list[str]) -> str:
    winner = rng.choices(seats, weights=[SKILL[n] for n in seats])[0]
    cards = {n: 0 if n == winner else min(13, max(1, round(rng.gauss(6.5 / SKILL[n], 3))))
             for n in seats}
    line = " ".join(f"{n}={c}" for n, c in cards.items())
    if rng.random() < 0.04:
        line += f" --assist {rng.choice([n for n in seats if n != winner])}"
    return line


def build(ledger: Ledger) -> int:
    """The evening (its session id is returned), then twenty weekly sessions."""
    evening = samples.read_sample(samples.samples_dir() / "evening.toml")[0]
    sid = start(ledger, evening["players"], date(2024, 1, 5), evening["name"], evening["stake"])
    for line in evening["deals"]:
        samples.apply_line(ledger, ledger.journal.session(sid), line)
    rng = random.Random(2024)
    day = date(2024, 1, 12)
    for week in range(20):
        seats = rng.sample(CLUB, 4)
        other = start(ledger, seats, day, f"week {week + 2}", "0.25")
        session = ledger.journal.session(other)
        for _ in range(rng.randrange(25, 41)):
            samples.apply_line(ledger, session, deal_line(rng, seats))
        day += timedelta(days=7)
    return sid


def card_of_the_evening(ledger: Ledger) -> None:
    """docs/img/settle-card.png: a settlement card with Chinese names, in coins of 5."""
    from decimal import Decimal

    from ledger.book import reports
    from ledger.present import share

    with ledger.writing():
        sid = ledger.journal.add_session(
            seats=["陳大文", "李小明", "Ann", "Ben"], name="", rules=load_preset("classic").to_dict(),
            stake="0.5", currency="HKD", teams=False, started_at="2024-01-06T11:30:00.000000+00:00",
        )
    session = ledger.journal.session(sid)
    for line in ("0 3 11 8", "5 0 2 13", "9 1 0 4"):
        samples.apply_line(ledger, session, line)
    st = reports.settle(ledger, [ledger.journal.session(sid)]).rounded(Decimal(5))
    print(share.card(st, IMG / "settle-card.png").relative_to(ROOT))
    for lang in ("zh_Hant", "zh_Hans"):  # docs/i18n.md: the same card in Chinese
        i18n.choose(lang)
        print(share.card(st, IMG / f"settle-card-{lang}.png").relative_to(ROOT))
    i18n.choose(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="also keep the ledger at this path")
    args = parser.parse_args()
    os.environ["TZ"] = "UTC"  # the pictures do not depend on where they are drawn
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bigtwo-docs-") as folder:
        db = Path(folder) / "docs.db"
        with open_ledger(db) as ledger:
            evening = build(ledger)
            for file, (kind, one) in CHARTS.items():
                scope = select(ledger, evening if one else None, not one)
                out = plots.plot(ledger, scope, kind, IMG / f"{file}.png")
                print(out.relative_to(ROOT))
        with open_ledger(Path(folder) / "card.db") as ledger:
            card_of_the_evening(ledger)
        with open_ledger(db) as ledger:  # docs/i18n.md: a season chart in Traditional Chinese
            i18n.choose("zh_Hant")
            out = plots.plot(ledger, select(ledger, None, True), "timeline",
                             IMG / "timeline-zh_Hant.png")
            i18n.choose(None)
            print(out.relative_to(ROOT))
        if args.keep:
            shutil.copy(db, args.keep)


if __name__ == "__main__":
    main()
