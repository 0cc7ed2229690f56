"""An export imports as fast as a sheet, and the peer's own job, each against its floor in
one run (docs/performance.md, issue 35).

    python benchmarks/bulk_import.py                          # 200,000 deals, 3 rounds
    python benchmarks/bulk_import.py --deals 20000            # a quick look
    python benchmarks/bulk_import.py --deals 1000000          # a decade of a club
    python benchmarks/bulk_import.py --scorer PATH            # and the peer's 2013 sheet

Writes one big-two-scorer sheet of DEALS deals (benchmarks/make_sheet.py), imports it
into a ledger and exports that as JSON, and cuts the export in two (its first half of
sessions).  Then, ROUNDS times in turn, each in a fresh child process (CPU = user + sys
and wall time from os.wait4):

1. the floor: `bigtwo import SHEET` into a new ledger;
2. `bigtwo import EXPORT` into a new ledger: CPU against the floor's (limit 1.5x);
3. `bigtwo import EXPORT` into a ledger that holds its first half (imported before,
   untimed): CPU per new deal against the fresh import's per deal (limit 1x: merging is
   no slower per new deal);
4. with --scorer PATH (a checkout of big-two-scorer; read, never copied here): its own
   2013 sheet (`2013/big-two-2013.txt`, 1,104 deals) imported and its standings printed
   in one command, `bigtwo import SHEET --standings`, against `python big2.py SHEET`
   (CPU, limit 4x).

The ledger package's bytecode is compiled first (benchmarks/precompile.py), as it is
once installed.  The table gives each ratio's median over the rounds, which decides
"met", its range, and the machine's load average.  A benchmark, not a test: exits 0.
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
LIMITS = {"export_vs_sheet": 1.5, "merge_per_new_deal": 1.0, "peer_job": 4.0}


def measured(cmd: list[str], cwd: Path | None = None) -> dict[str, float]:
    """Run ``cmd`` and reap it with ``os.wait4``: its wall time and CPU seconds."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, cwd=cwd,
                                 env={**os.environ, "BIGTWO_LANG": "en", "TZ": "UTC"})
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status):
            err.seek(0)
            raise SystemExit(f"failed: {' '.join(cmd)}\n{err.read().decode('utf-8', 'replace')}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime}


def bigtwo(db: Path, *args: str) -> list[str]:
    return [PY, "-m", "ledger", "--db", str(db), *args]


def fresh(path: Path) -> Path:
    for leftover in path.parent.glob(path.name + "*"):
        leftover.unlink()
    return path


def half_export(export: Path, half: Path) -> tuple[int, int]:
    """The export's first half of sessions as an export of its own: (deals in it, in all)."""
    data = json.loads(export.read_text("utf-8"))
    sessions = data["sessions"]
    kept = sessions[:len(sessions) // 2]
    half.write_text(json.dumps({**data, "sessions": kept}), "utf-8")

    def deals(part: list[dict[str, object]]) -> int:
        return sum(1 for s in part for e in s["entries"] if e["kind"] == "deal")  # type: ignore[attr-defined]

    return deals(kept), deals(sessions)


def one_round(tmp: Path, sheet: Path, export: Path, half: Path, deals: int, kept: int,
              peer: tuple[Path, Path] | None) -> dict[str, float]:
    out: dict[str, float] = {}
    floor = measured(bigtwo(fresh(tmp / "sheet.db"), "import", str(sheet)))
    got = measured(bigtwo(fresh(tmp / "json.db"), "import", str(export)))
    merged_db = fresh(tmp / "merge.db")
    measured(bigtwo(merged_db, "import", str(half)))
    merge = measured(bigtwo(merged_db, "import", str(export)))
    out.update(sheet_cpu=floor["cpu"], sheet_wall=floor["wall"], json_cpu=got["cpu"],
               json_wall=got["wall"], export_vs_sheet=got["cpu"] / floor["cpu"],
               merge_cpu=merge["cpu"],
               merge_per_new_deal=(merge["cpu"] / (deals - kept)) / (got["cpu"] / deals))
    if peer is not None:
        big2, peer_sheet = peer
        one = measured(bigtwo(fresh(tmp / "peer.db"), "import", str(peer_sheet), "--standings"))
        theirs = measured([PY, str(big2), str(peer_sheet)], cwd=tmp)
        out.update(peer_cpu=one["cpu"], scorer_cpu=theirs["cpu"],
                   peer_job=one["cpu"] / theirs["cpu"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scorer", type=Path,
                        help="a checkout of big-two-scorer (the folder holding big2.py and 2013/)")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args()
    peer = None
    if args.scorer is not None:
        peer = (args.scorer / "big2.py", args.scorer / "2013" / "big-two-2013.txt")
        if not all(p.is_file() for p in peer):
            raise SystemExit(f"no big2.py and 2013/big-two-2013.txt in {args.scorer}")
    compile_ledger()
    rounds = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        sheet, export, half = tmp / "club.txt", tmp / "club.json", tmp / "half.json"
        with sheet.open("w") as f:
            write_sheet(args.deals, f)
        source = fresh(tmp / "source.db")
        subprocess.run(bigtwo(source, "import", str(sheet)), check=True, capture_output=True)
        subprocess.run(bigtwo(source, "export", "--all", "--out", str(export)), check=True,
                       capture_output=True)
        kept, deals = half_export(export, half)
        for _ in range(args.rounds):
            rounds.append(one_round(tmp, sheet, export, half, deals, kept, peer))
    keys = [k for k in rounds[0]]
    results = {
        "deals": args.deals,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                   f"SQLite {sqlite3.sqlite_version}",
        "load_average": os.getloadavg(),
        "rounds": rounds,
        **{f"{k}_median": statistics.median(r[k] for r in rounds) for k in keys},
    }

    def spread(key: str) -> str:
        values = [r[key] for r in rounds]
        return f"{min(values):.2f}–{max(values):.2f} x"

    rows = [(f"import of a JSON export of {args.deals:,} deals (CPU) vs the sheet's import",
             "json_cpu", "sheet_cpu", "export_vs_sheet"),
            ("merge into a ledger holding its first half: CPU per new deal vs a new ledger's",
             "merge_cpu", "json_cpu", "merge_per_new_deal")]
    if peer is not None:
        rows.append(("the peer's 2013 sheet imported + standings, one command (CPU) vs big2.py",
                     "peer_cpu", "scorer_cpu", "peer_job"))
    load = results["load_average"]
    print(f"{results['machine']}, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}, "
          f"{args.rounds} rounds")
    print("| target | measured | floor | ratio (median) | ratio (range) | limit | met |")
    print("|---|---|---|---|---|---|---|")
    for name, got, base, ratio in rows:
        median = results[f"{ratio}_median"]
        print(f"| {name} | {results[f'{got}_median']:.2f} s | {results[f'{base}_median']:.2f} s | "
              f"{median:.2f} x | {spread(ratio)} | {LIMITS[ratio]:g} x | "
              f"{'yes' if median <= LIMITS[ratio] else 'no'} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
