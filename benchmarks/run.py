"""Whole-process benchmarks for the performance targets (docs/performance.md).

    python benchmarks/run.py                      # full run: up to 1,000,000 deals
    python benchmarks/run.py --sizes 1000,10000   # a quick run

Every command is timed as a separate process (what a user waits for), several
times, and the median is reported next to its floor: a minimal Typer app doing
one SQLite insert (benchmarks/floor_app.py) in the same interpreter.
Results go to stdout as a Markdown table and, with --json, to a file.
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

PY = sys.executable
BIGTWO = [PY, "-m", "ledger"]
FLOOR = [PY, str(HERE / "floor_app.py")]

# The wrapper runs one command and prints its wall time and peak memory (KiB).
MEASURE = """
import resource, subprocess, sys, time
t = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.perf_counter() - t
if r.returncode:
    sys.stderr.write(r.stderr.decode()); sys.exit(r.returncode)
print(wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    out = subprocess.run([PY, "-c", MEASURE, *cmd], capture_output=True, text=True, env=env)
    if out.returncode:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    wall, rss = out.stdout.split()
    return float(wall), int(rss)


def median_time(cmd: list[str], repeat: int) -> float:
    return statistics.median(run(cmd)[0] for _ in range(repeat))


def side_by_side(cmds: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """Interleave the commands so machine noise hits them alike."""
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(repeat):
        for name, cmd in cmds.items():
            times[name].append(run(cmd)[0])
    return {k: statistics.median(v) for k, v in times.items()}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    python = platform.python_version()
    return f"{cpu}, {os.cpu_count()} cores, Python {python}, SQLite {sqlite3.sqlite_version}"


def startup(tmp: Path, repeat: int) -> list[dict]:
    db = tmp / "startup.db"
    subprocess.run([*BIGTWO, "--db", str(db), "session", "start", "--players", "Ann,Ben,Cat,Dan"],
                   check=True, capture_output=True)
    floor_db = tmp / "floor.db"
    t = side_by_side(
        {
            "floor insert": [*FLOOR, "--db", str(floor_db), "Ann=0", "Ben=3", "Cat=11", "Dan=8"],
            "bigtwo deal": [*BIGTWO, "--db", str(db), "deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"],
            "floor --help": [*FLOOR, "--help"],
            "bigtwo --help": [*BIGTWO, "--help"],
        },
        repeat,
    )
    return [
        {"target": "bigtwo deal", "seconds": t["bigtwo deal"], "floor": t["floor insert"],
         "limit": "1.3 x floor", "met": t["bigtwo deal"] <= 1.3 * t["floor insert"]},
        {"target": "bigtwo --help", "seconds": t["bigtwo --help"], "floor": t["floor --help"],
         "limit": "1.3 x floor", "met": t["bigtwo --help"] <= 1.3 * t["floor --help"]},
    ]


def build(tmp: Path, deals: int) -> tuple[Path, float, int]:
    sheet = tmp / f"sheet-{deals}.txt"
    with sheet.open("w") as fh:
        write_sheet(deals, fh)
    db = tmp / f"ledger-{deals}.db"
    wall, rss = run([*BIGTWO, "--db", str(db), "import", str(sheet)])
    sheet.unlink()
    return db, wall, rss


def db_bytes(db: Path) -> int:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db.stat().st_size


def queries(db: Path, tmp: Path, repeat: int) -> dict[str, float]:
    plot = tmp / "plot.png"
    cmds = {
        "standings --all": [*BIGTWO, "--db", str(db), "standings", "--all"],
        "settle --all": [*BIGTWO, "--db", str(db), "settle", "--all"],
        "stats --all": [*BIGTWO, "--db", str(db), "stats", "--all"],
        "plot --all": [*BIGTWO, "--db", str(db), "plot", "--all", "--out", str(plot)],
    }
    # One untimed run of each warms the OS file cache (and any derived caches).
    for cmd in cmds.values():
        run(cmd)
    return side_by_side(cmds, repeat)


LIMITS = {"standings --all": 1.0, "settle --all": 1.0, "stats --all": 3.0, "plot --all": 4.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--import-deals", type=int, default=200_000)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results: dict = {"machine": machine(), "date": time.strftime("%Y-%m-%d")}
    with tempfile.TemporaryDirectory(prefix="bigtwo-bench-") as folder:
        tmp = Path(folder)
        results["startup"] = startup(tmp, args.repeat)
        _, wall, rss = build(tmp, args.import_deals)
        results["import"] = {"deals": args.import_deals, "seconds": wall, "peak_mib": rss / 1024,
                             "met": wall < 20 and rss / 1024 < 300}
        results["scale"] = []
        floor = median_time([*FLOOR, "--help"], args.repeat)
        results["floor"] = floor
        for n in sizes:
            db, build_s, _ = build(tmp, n)
            row = {"deals": n, "build_seconds": build_s,
                   "bytes_per_deal": db_bytes(db) / n, **queries(db, tmp, args.repeat)}
            results["scale"].append(row)
            db.unlink()
            print(f"{n:>9} deals: " + ", ".join(
                f"{k} {v:.3f}s" for k, v in row.items() if k in LIMITS), file=sys.stderr)
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


def report(r: dict) -> str:
    out = [f"Machine: {r['machine']} ({r['date']})", "",
           "| target | measured | floor | limit | met |", "|---|---|---|---|---|"]
    for s in r["startup"]:
        out.append(f"| `{s['target']}` | {s['seconds']:.3f} s | {s['floor']:.3f} s "
                   f"({s['seconds'] / s['floor']:.2f} x) | {s['limit']} | {'yes' if s['met'] else 'NO'} |")
    imp = r["import"]
    out.append(f"| import {imp['deals']:,} deals | {imp['seconds']:.1f} s, peak {imp['peak_mib']:.0f} MiB "
               f"| | < 20 s, < 300 MiB | {'yes' if imp['met'] else 'NO'} |")
    big = r["scale"][-1]
    for name, limit in LIMITS.items():
        out.append(f"| `{name}` at {big['deals']:,} deals | {big[name]:.3f} s | {r['floor']:.3f} s "
                   f"| < {limit:g} s | {'yes' if big[name] < limit else 'NO'} |")
    out.append(f"| database size at {big['deals']:,} deals | {big['bytes_per_deal']:.0f} bytes/deal | | | |")
    out += ["", "| deals | build (import) | bytes/deal | " + " | ".join(LIMITS) + " |",
            "|---|---|---|" + "---|" * len(LIMITS)]
    for row in r["scale"]:
        out.append(f"| {row['deals']:,} | {row['build_seconds']:.1f} s | {row['bytes_per_deal']:.0f} | "
                   + " | ".join(f"{row[k]:.3f} s" for k in LIMITS) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
