"""`bigtwo deal` against the floor app, as interleaved pairs of whole processes.

    python benchmarks/deal_ratio.py              # 15 pairs
    python benchmarks/deal_ratio.py --pairs 31 --json

Each pair runs the floor (benchmarks/floor_app.py: a minimal Typer app doing one
SQLite insert) and then `bigtwo deal` on a fresh ledger with a session already
started, each in its own process, and takes the ratio of their wall times.  The
median of the ratios is compared with the 1.2 target.  The ledger package's
bytecode is compiled first (benchmarks/precompile.py), as it is once installed.  A
benchmark, not a test: it always exits 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from precompile import compile_ledger  # noqa: E402

PY = sys.executable
TARGET = 1.2


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    if r.returncode:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr.decode()}")
    return wall


def pair(tmp: Path, i: int) -> tuple[float, float]:
    db = tmp / f"ledger-{i}.db"
    floor_db = tmp / f"floor-{i}.db"
    subprocess.run([PY, "-m", "ledger", "--db", str(db), "session", "start",
                    "--players", "Ann,Ben,Cat,Dan"], check=True, capture_output=True)
    floor = timed([PY, str(HERE / "floor_app.py"), "--db", str(floor_db), "Ann=0", "Ben=3"])
    deal = timed([PY, "-m", "ledger", "--db", str(db), "deal",
                  "Ann=0", "Ben=3", "Cat=11", "Dan=8"])
    return floor, deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    rows = []
    compile_ledger()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        pair(tmp, -1)  # warm the file cache; not counted
        for i in range(args.pairs):
            floor, deal = pair(tmp, i)
            rows.append({"floor": floor, "deal": deal, "ratio": deal / floor})
            if not args.json:
                print(f"pair {i + 1:>2}: floor {floor:.3f} s  deal {deal:.3f} s  "
                      f"ratio {deal / floor:.2f}", flush=True)
    ratios = [r["ratio"] for r in rows]
    med = statistics.median(ratios)
    summary = {
        "pairs": rows, "median_ratio": med, "min_ratio": min(ratios), "max_ratio": max(ratios),
        "median_floor": statistics.median(r["floor"] for r in rows),
        "median_deal": statistics.median(r["deal"] for r in rows),
        "target": TARGET, "met": med <= TARGET,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"median ratio {med:.2f} (spread {min(ratios):.2f}-{max(ratios):.2f}) "
              f"against target <= {TARGET}: {'met' if summary['met'] else 'NOT met'}")


if __name__ == "__main__":
    main()
