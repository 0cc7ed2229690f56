"""Import speed against floors measured in the same run (docs/performance.md).

    python benchmarks/import_ratio.py --scorer PATH            # 200,000 deals
    python benchmarks/import_ratio.py --scorer PATH --deals 20000 --json

PATH is a checkout of big-two-scorer (fetch it; it is never copied into this
repository).  The run writes one big-two-scorer sheet of DEALS deals
(benchmarks/make_sheet.py, with no `t` on a winner, which big-two-scorer refuses) and
measures, each in a fresh child process (wall time, CPU = user + sys and peak memory
from os.wait4):

1. the floor: plain sqlite3 inserting as many entries (each with a unique uuid, built
   before the clock starts) and points rows (four a deal) into two tables with no
   other index and no trigger, in one transaction, WAL and synchronous = FULL as the
   ledger;
2. `bigtwo import SHEET` into a new ledger, against that floor (limit 3x), and its
   peak memory (limit 300 MiB);
3. `bigtwo import SHEET --standings` into a new ledger — the import and the standings
   of what it added, one command, as big-two-scorer prints its table — against
   `python big2.py SHEET` of that checkout (CPU, limit 4x).

The four are measured in turn ROUNDS times (default 3): each round's ratios pair
runs made a few seconds apart, so a slow spell of the machine (its disk's syncs, a
neighbour's load) falls on both sides of a ratio more often than on one.  The table
gives each ratio's median over the rounds, which decides "met", and its range.

A benchmark, not a test: it prints the table and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_sheet import write as write_sheet  # noqa: E402
from precompile import compile_ledger  # noqa: E402

PY = sys.executable
LIMITS = {"import": 3.0, "one_command": 4.0, "peak_mib": 300.0}

FLOOR = r'''
import sqlite3, sys, time, uuid
path, deals = sys.argv[1], int(sys.argv[2])
facts = '{"cards": {"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8}}'
stamp = "2024-03-01T12:00:00.000000+00:00"
entries = [(i, str(uuid.uuid4()), 1 + i // 60, 1 + i % 60, "deal", 1 + i % 60, facts, stamp)
           for i in range(1, deals + 1)]
points = [(i, 1 + i // 60, p, 1, 0, 0, 3, 3, 3, None) for i in range(1, deals + 1) for p in range(4)]
conn = sqlite3.connect(path, isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA synchronous = FULL")
conn.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL, session_id INTEGER "
             "NOT NULL, seq INTEGER, kind TEXT NOT NULL, deal_no INTEGER, facts TEXT, "
             "created_at TEXT NOT NULL) STRICT")
conn.execute("CREATE TABLE points (entry_id INTEGER NOT NULL, session_id INTEGER NOT NULL, "
             "player_id INTEGER NOT NULL, deals INTEGER NOT NULL, wins INTEGER NOT NULL, "
             "fried INTEGER NOT NULL, cards INTEGER NOT NULL, penalty INTEGER NOT NULL, "
             "net INTEGER NOT NULL, payee_id INTEGER) STRICT")
start = time.perf_counter()
conn.execute("BEGIN")
conn.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)", entries)
conn.executemany("INSERT INTO points VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", points)
conn.execute("COMMIT")
print(time.perf_counter() - start)
'''


def measured(cmd: list[str], cwd: Path | None = None) -> dict[str, float]:
    """Run ``cmd``, reaped by ``os.wait4`` so its own usage is read: wall time, CPU
    seconds (user + sys), peak memory (MiB) and standard output."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=cwd,
                                 env={**os.environ, "BIGTWO_LANG": "en", "TZ": "UTC"})
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, problem = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    if child.returncode:
        raise SystemExit(f"failed ({child.returncode}): {' '.join(cmd)}\n{problem}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "peak_mib": usage.ru_maxrss / 1024, "stdout": text}  # type: ignore[dict-item]


def one_round(tmp: Path, sheet: Path, deals: int, big2: Path) -> dict[str, float]:
    """The floor, the import, the one command and big2.py, each once, into new files."""
    for name in ("floor.db", "a.db", "b.db"):
        for leftover in tmp.glob(name + "*"):
            leftover.unlink()
    floor_run = measured([PY, "-c", FLOOR, str(tmp / "floor.db"), str(deals)])
    floor = float(str(floor_run["stdout"]).strip())
    imported = measured([PY, "-m", "ledger", "--db", str(tmp / "a.db"), "import", str(sheet)])
    one = measured([PY, "-m", "ledger", "--db", str(tmp / "b.db"), "import", str(sheet),
                    "--standings"])
    scorer = measured([PY, str(big2), str(sheet)], cwd=tmp)
    return {
        "floor_seconds": floor,
        "import_seconds": imported["wall"], "import_cpu": imported["cpu"],
        "import_ratio": imported["wall"] / floor, "import_peak_mib": imported["peak_mib"],
        "one_command_cpu": one["cpu"], "one_command_peak_mib": one["peak_mib"],
        "scorer_cpu": scorer["cpu"], "one_command_ratio": one["cpu"] / scorer["cpu"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scorer", type=Path, required=True,
                        help="a checkout of big-two-scorer (the folder holding big2.py)")
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3,
                        help="how many times the four are measured, in turn (default 3)")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args()
    big2 = args.scorer / "big2.py"
    if not big2.is_file():
        raise SystemExit(f"no big2.py in {args.scorer}: give a checkout of big-two-scorer")
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    compile_ledger()
    rounds = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        sheet = tmp / "sheet.txt"
        with sheet.open("w") as f:
            write_sheet(args.deals, f, winner_takes=False)
        for _ in range(args.rounds):
            rounds.append(one_round(tmp, sheet, args.deals, big2))
    results = {
        "deals": args.deals,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                   f"SQLite {sqlite3.sqlite_version}",
        "load_average": os.getloadavg()[0],
        "rounds": rounds,
        **{f"{key}_median": statistics.median(r[key] for r in rounds)
           for key in ("floor_seconds", "import_seconds", "import_ratio", "one_command_cpu",
                       "scorer_cpu", "one_command_ratio")},
        "peak_mib": max(max(r["import_peak_mib"], r["one_command_peak_mib"]) for r in rounds),
    }

    def spread(key: str, unit: str = " x") -> str:
        values = [r[key] for r in rounds]
        return f"{min(values):.2f}–{max(values):.2f}{unit}" if len(values) > 1 else "–"

    rows = [
        (f"import {args.deals:,} deals vs plain sqlite3", "import_seconds", "floor_seconds",
         "import_ratio", LIMITS["import"]),
        ("import + standings, one command (CPU) vs big2.py", "one_command_cpu", "scorer_cpu",
         "one_command_ratio", LIMITS["one_command"]),
    ]
    print(f"{results['machine']}, load average {results['load_average']:.1f}, "
          f"{args.rounds} round{'s' if args.rounds > 1 else ''}")
    print("| target | measured | floor | ratio (median) | ratio (range) | limit | met |")
    print("|---|---|---|---|---|---|---|")
    for name, got, base, ratio, limit in rows:
        median = results[f"{ratio}_median"]
        print(f"| {name} | {results[f'{got}_median']:.2f} s | {results[f'{base}_median']:.2f} s | "
              f"{median:.2f} x | {spread(ratio)} | {limit:.0f} x | "
              f"{'yes' if median <= limit else 'no'} |")
    peak = results["peak_mib"]
    print(f"| peak memory of the import | {peak:.0f} MiB | | | | {LIMITS['peak_mib']:.0f} MiB | "
          f"{'yes' if peak <= LIMITS['peak_mib'] else 'no'} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
