"""`bigtwo doctor` against a floor measured in the same run (docs/performance.md).

    python benchmarks/doctor_ratio.py                        # 200,000 deals (and 40,000)
    python benchmarks/doctor_ratio.py --deals 1000000        # 1M deals (and 200,000)
    python benchmarks/doctor_ratio.py --deals 20000 --json out.json
    python benchmarks/doctor_ratio.py --ledgers DIR          # keep the built ledgers in DIR

Two ledgers are made by importing big-two-scorer sheets (benchmarks/make_sheet.py): one
of DEALS deals and one of a fifth of them (made once; with ``--ledgers`` kept and used
again by the next run).  Then, each in a fresh child process (CPU = user + sys and peak
memory from os.wait4), ROUNDS times in turn:

1. the floor: plain sqlite3 reading every entry (its session, kind, deal number and
   facts) and every points row of the big ledger, summing the points per player;
2. `bigtwo doctor` on the big ledger: CPU against the floor (limit 3x) and peak memory
   (limit 300 MiB);
3. `bigtwo doctor` on the small ledger: the big one's peak memory against it (limit
   1.2x: the doctor holds one session at a time, so its memory should not grow with
   the ledger).

`bigtwo doctor --full` (every deal derived on its own) is measured once on the big
ledger, for the record.  The table gives each ratio's median over the rounds, which
decides "met", and its range.  A benchmark, not a test: it prints the table and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
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
LIMITS = {"doctor": 3.0, "peak_mib": 300.0, "peak_growth": 1.2}

FLOOR = r'''
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
entries = 0
for _session, _kind, _deal, _facts in conn.execute("SELECT session_id, kind, deal_no, facts FROM entries"):
    entries += 1
per_player = {}
for player, deals, wins, fried, cards, penalty, net in conn.execute(
        "SELECT player_id, deals, wins, fried, cards, penalty, net FROM points"):
    acc = per_player.get(player)
    if acc is None:
        per_player[player] = [deals, wins, fried, cards, penalty, net]
    else:
        acc[0] += deals; acc[1] += wins; acc[2] += fried
        acc[3] += cards; acc[4] += penalty; acc[5] += net
print(entries, len(per_player))
'''


def measured(cmd: list[str]) -> dict[str, float]:
    """Run ``cmd``, reaped by ``os.wait4`` so its own usage is read: wall time, CPU
    seconds (user + sys) and peak memory (MiB)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                 env={**os.environ, "BIGTWO_LANG": "en", "TZ": "UTC"})
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"failed: {' '.join(cmd)}\n{text[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024}


def ledger_of(folder: Path, deals: int) -> Path:
    """A ledger of ``deals`` deals imported from a sheet (kept in ``folder``)."""
    path = folder / f"ledger-{deals}.db"
    if path.exists():
        return path
    sheet = folder / f"sheet-{deals}.txt"
    with sheet.open("w") as f:
        write_sheet(deals, f)
    building = folder / f"building-{deals}.db"
    for leftover in folder.glob(building.name + "*"):
        leftover.unlink()
    print(f"importing {deals:,} deals ...", flush=True)
    measured([PY, "-m", "ledger", "--db", str(building), "import", str(sheet)])
    measured([PY, "-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("
              "'PRAGMA wal_checkpoint(TRUNCATE)')", str(building)])
    building.rename(path)
    sheet.unlink()
    return path


def one_round(big: Path, small: Path) -> dict[str, float]:
    floor = measured([PY, "-c", FLOOR, str(big)])
    doctor = measured([PY, "-m", "ledger", "--db", str(big), "doctor"])
    little = measured([PY, "-m", "ledger", "--db", str(small), "doctor"])
    return {
        "floor_cpu": floor["cpu"], "doctor_cpu": doctor["cpu"], "doctor_wall": doctor["wall"],
        "doctor_ratio": doctor["cpu"] / floor["cpu"], "doctor_peak_mib": doctor["peak_mib"],
        "small_peak_mib": little["peak_mib"], "small_cpu": little["cpu"],
        "peak_growth": doctor["peak_mib"] / little["peak_mib"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3,
                        help="how many times the three are measured, in turn (default 3)")
    parser.add_argument("--ledgers", type=Path, help="keep the built ledgers in this folder")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args()
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    compile_ledger()
    folder = args.ledgers or Path(tempfile.mkdtemp(prefix="bigtwo-doctor-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        small, big = ledger_of(folder, args.deals // 5), ledger_of(folder, args.deals)
        rounds = [one_round(big, small) for _ in range(args.rounds)]
        full = measured([PY, "-m", "ledger", "--db", str(big), "doctor", "--full"])
    finally:
        if args.ledgers is None:
            shutil.rmtree(folder, ignore_errors=True)
    keys = ("floor_cpu", "doctor_cpu", "doctor_ratio", "doctor_peak_mib", "small_peak_mib",
            "peak_growth", "small_cpu")
    results = {
        "deals": args.deals, "small_deals": args.deals // 5,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                   f"SQLite {sqlite3.sqlite_version}",
        "load_average": os.getloadavg()[0],
        "rounds": rounds,
        **{f"{key}_median": statistics.median(r[key] for r in rounds) for key in keys},
        "full_cpu": full["cpu"], "full_peak_mib": full["peak_mib"],
    }

    def spread(key: str) -> str:
        values = [r[key] for r in rounds]
        return f"{min(values):.2f}–{max(values):.2f} x" if len(values) > 1 else "–"

    m = {key: results[f"{key}_median"] for key in keys}
    print(f"{results['machine']}, load average {results['load_average']:.1f}, "
          f"{args.rounds} round{'s' if args.rounds > 1 else ''}")
    print("| target | measured | floor | ratio (median) | ratio (range) | limit | met |")
    print("|---|---|---|---|---|---|---|")
    print(f"| doctor, {args.deals:,} deals (CPU) vs plain sqlite3 | {m['doctor_cpu']:.2f} s | "
          f"{m['floor_cpu']:.2f} s | {m['doctor_ratio']:.2f} x | {spread('doctor_ratio')} | "
          f"{LIMITS['doctor']:.0f} x | {'yes' if m['doctor_ratio'] <= LIMITS['doctor'] else 'no'} |")
    print(f"| peak memory, {args.deals:,} deals | {m['doctor_peak_mib']:.0f} MiB | | | | "
          f"{LIMITS['peak_mib']:.0f} MiB | {'yes' if m['doctor_peak_mib'] <= LIMITS['peak_mib'] else 'no'} |")
    print(f"| peak memory, {args.deals:,} vs {args.deals // 5:,} deals | {m['doctor_peak_mib']:.0f} MiB | "
          f"{m['small_peak_mib']:.0f} MiB | {m['peak_growth']:.2f} x | {spread('peak_growth')} | "
          f"{LIMITS['peak_growth']} x | {'yes' if m['peak_growth'] <= LIMITS['peak_growth'] else 'no'} |")
    print(f"| doctor --full, {args.deals:,} deals (CPU, once) | {results['full_cpu']:.2f} s | "
          f"{m['floor_cpu']:.2f} s | {results['full_cpu'] / m['floor_cpu']:.2f} x | | | |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
