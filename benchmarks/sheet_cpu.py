"""CPU time of importing a year's score sheet and printing `standings --all`.

    python benchmarks/sheet_cpu.py               # 1,104 deals, median of 5 runs
    python benchmarks/sheet_cpu.py --repeat 9 --json

Writes a big-two-scorer sheet of 1,104 deals (benchmarks/make_sheet.py, the size of
that program's 2013 sheet), then runs `python -m ledger import SHEET` and
`python -m ledger standings --all` on a fresh ledger as child processes and reads
each one's CPU time (user + sys) with resource.getrusage(RUSAGE_CHILDREN).  The
total is compared with the 0.5 s target.  The ledger package's bytecode is compiled
first (benchmarks/precompile.py), as it is once installed.  A benchmark, not a test:
exits 0.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_sheet import write as write_sheet  # noqa: E402
from precompile import compile_ledger  # noqa: E402

PY = sys.executable
TARGET = 0.5


def cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def child_cpu(cmd: list[str]) -> float:
    before = cpu()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr.decode()}")
    return cpu() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1104)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    runs = []
    compile_ledger()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        sheet = tmp / "sheet.txt"
        with sheet.open("w") as fh:
            write_sheet(args.deals, fh)
        for i in range(args.repeat + 1):
            db = tmp / f"ledger-{i}.db"
            imp = child_cpu([PY, "-m", "ledger", "--db", str(db), "import", str(sheet)])
            std = child_cpu([PY, "-m", "ledger", "--db", str(db), "standings", "--all"])
            if i == 0:
                continue  # warm-up (file cache, .pyc), not counted
            runs.append({"import": imp, "standings": std, "total": imp + std})
            if not args.json:
                print(f"run {i}: import {imp:.3f} s  standings --all {std:.3f} s  "
                      f"total {imp + std:.3f} s CPU", flush=True)
    med = {k: statistics.median(r[k] for r in runs) for k in ("import", "standings", "total")}
    summary = {"deals": args.deals, "runs": runs, "median": med, "target": TARGET,
               "met": med["total"] < TARGET}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"median: import {med['import']:.3f} s + standings --all {med['standings']:.3f} s "
              f"= {med['total']:.3f} s CPU against target < {TARGET} s: "
              f"{'met' if summary['met'] else 'NOT met'}")


if __name__ == "__main__":
    main()
