"""Peak memory of `bigtwo import` of a big JSON export (docs/reliability.md).

Writes an export of ENTRIES entries (default 1,000,000: sessions of 40-80 deals, a
few voids and amends, like a club's decade) and imports it into a new ledger under
/usr/bin/time -v.  The import reads the file a session at a time, so its peak memory
should not grow with the file; the target is under 300 MB for 1M entries.  The floor
is the peak of importing a 1,000-entry export in the same run.

    python benchmarks/import_memory.py                 # 1M entries (several minutes)
    python benchmarks/import_memory.py --entries 100000
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ledger.core.rules import load_preset  # noqa: E402

CLUB = ["陳大文", "李小明", "Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def write_export(path: Path, entries: int, seed: int = 7) -> int:
    """A valid export of about ``entries`` entries; returns the number written."""
    rng = random.Random(seed)
    rules = load_preset("classic").to_dict()
    written = 0
    with path.open("w", encoding="utf-8") as out:
        out.write('{"format": "bigtwo-ledger", "version": 1, "sessions": [')
        first = True
        while written < entries:
            seats = rng.sample(CLUB, 4)
            head = {"uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "name": "",
                    "rules": rules, "stake": "0.5", "currency": "HKD", "teams": False,
                    "started_at": "2024-01-01T20:00:00+00:00", "ended_at": None,
                    "players": seats}
            items: list[str] = []
            deal, voided = 0, set()
            for _ in range(min(entries - written, rng.randrange(40, 81))):
                kind, number = "deal", deal + 1
                if deal and rng.random() < 0.02:
                    kind, number = rng.choice(("void", "amend")), rng.randrange(1, deal + 1)
                    if kind == "void" and number in voided:
                        kind = "amend"  # a void deal is not voided again; amend brings it back
                deal = max(deal, number)
                if kind == "void":
                    voided.add(number)
                else:
                    voided.discard(number)
                cards = [0] + [rng.randrange(1, 14) for _ in range(3)]
                rng.shuffle(cards)
                facts = None if kind == "void" else {"cards": dict(zip(seats, cards, strict=True))}
                items.append(json.dumps({"uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                                         "seq": len(items) + 1, "kind": kind, "deal": number,
                                         "facts": facts}, ensure_ascii=False))
            text = json.dumps(head, ensure_ascii=False)[:-1] + ', "entries": [\n'
            out.write(("\n" if first else ",\n") + text + ",\n".join(items) + "\n]}")
            first = False
            written += len(items)
        out.write("\n]}\n")
    return written


def measure_import(export: Path, folder: Path) -> tuple[float, float]:
    """(seconds, peak MiB) of importing ``export`` into a new ledger."""
    db = folder / f"{export.stem}.db"
    start = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "ledger", "--db", str(db),
                          "import", str(export)], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if run.returncode:
        raise SystemExit(f"import failed:\n{run.stderr[-2000:]}")
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    assert peak, run.stderr
    return wall, int(peak.group(1)) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bigtwo-import-memory-") as tmp:
        folder = Path(tmp)
        small, big = folder / "small.json", folder / "big.json"
        write_export(small, 1000)
        n = write_export(big, args.entries)
        size = big.stat().st_size / 1e6
        floor_s, floor_mib = measure_import(small, folder)
        wall, mib = measure_import(big, folder)
        print(f"export: {n:,} entries, {size:.0f} MB")
        print(f"import 1,000 entries (floor): {floor_s:.1f} s, peak {floor_mib:.0f} MiB")
        print(f"import {n:,} entries: {wall:.1f} s, peak {mib:.0f} MiB "
              f"({mib / floor_mib:.2f}x the floor; target < 300 MB)")
        if mib * 1.048576 >= 300:
            raise SystemExit("over the 300 MB target")


if __name__ == "__main__":
    main()
