"""The list of sessions by pages on a big ledger against a one-session ledger, in one run
(docs/performance.md).

    python benchmarks/session_pages.py                 # 200,000 deals, 3 rounds
    python benchmarks/session_pages.py --deals 1000000 --json out.json

Builds two ledgers: a big one from a big-two-scorer sheet of DEALS deals
(benchmarks/make_sheet.py, through ``bigtwo import``: the bulk path), and one with a
single session of one deal (the floor).  Serves each with ``bigtwo serve`` on a free
loopback port and measures, each round on both ledgers in turn:

1. the ``sessions`` op as the phone asks it (``GET /api/sessions`` with the viewer's
   token, the newest page): its answer's size (limit 64 KiB) and the median time of
   REQUESTS requests one after another, big against one session (limit 1.5x); the same
   op called in this process (``ledger.engine.dispatch.call``) is shown beside it;
2. the Tables tab in Chromium (Playwright, /usr/bin/chromium, a phone's viewport): from
   opening the viewer's link at ``#/tables`` in a fresh browser context until its list
   is drawn, big against one session (limit 1.5x), the median of LOADS loads.

The table gives each ratio's median over the rounds, which decides "met", and its range.
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
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "scripts"))

from headless_chromium import PATH as CHROMIUM  # noqa: E402
from headless_chromium import SWITCHES  # noqa: E402
from make_sheet import write as write_sheet  # noqa: E402
from web_load import serve, viewer_token  # noqa: E402

PY = sys.executable
LIMITS = {"answer_kib": 64.0, "op": 1.5, "tab": 1.5}


def big_ledger(tmp: Path, deals: int) -> Path:
    sheet, db = tmp / "sheet.txt", tmp / "big.db"
    with sheet.open("w") as f:
        write_sheet(deals, f)
    subprocess.run([PY, "-m", "ledger", "--db", str(db), "import", str(sheet)], check=True,
                   capture_output=True)
    return db


def one_session(tmp: Path) -> Path:
    db = tmp / "one.db"
    for words in (["session", "start", "--players", "陳大文,李小明,Cat,Dan"], ["deal", "0", "3", "11", "8"]):
        subprocess.run([PY, "-m", "ledger", "--db", str(db), *words], check=True, capture_output=True)
    return db


def op_times(base: str, requests: int) -> tuple[float, int]:
    """The median seconds of ``GET /api/sessions`` (after 20 to warm up) and its size."""
    import httpx

    headers = {"authorization": f"Bearer {viewer_token()}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
        for _ in range(20):
            client.get("/api/sessions").raise_for_status()
        times = []
        for _ in range(requests):
            start = time.perf_counter()
            answer = client.get("/api/sessions")
            times.append(time.perf_counter() - start)
            answer.raise_for_status()
    return statistics.median(times), len(answer.content)


def in_process(db: Path, requests: int) -> float:
    from ledger.engine import dispatch
    from ledger.storage.store import open_ledger

    with open_ledger(db) as ledger:
        for _ in range(20):
            dispatch.call(ledger, "sessions", {})
        times = []
        for _ in range(requests):
            start = time.perf_counter()
            dispatch.call(ledger, "sessions", {})
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def tab_times(browser: Any, base: str, loads: int) -> float:
    """The median seconds from opening ``#/tables`` until its list is drawn."""
    times = []
    for i in range(loads + 1):  # the first load fills the browser's cache of the app: not counted
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        page = context.new_page()
        start = time.perf_counter()
        page.goto(f"{base}/?t={viewer_token()}#/tables")
        page.wait_for_selector("html[data-route='shown'] ul.tables li", timeout=60_000)
        if i:
            times.append(time.perf_counter() - start)
        context.close()
    return statistics.median(times)


def one_round(dbs: dict[str, Path], browser: Any, requests: int, loads: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, db in dbs.items():
        proc, base = serve(db)
        try:
            out[f"{name}_op"], out[f"{name}_bytes"] = op_times(base, requests)
            out[f"{name}_tab"] = tab_times(browser, base, loads)
        finally:
            proc.terminate()
            proc.wait(10)
        out[f"{name}_in_process"] = in_process(db, requests)
    out["op_ratio"] = out["big_op"] / out["one_op"]
    out["tab_ratio"] = out["big_tab"] / out["one_tab"]
    out["in_process_ratio"] = out["big_in_process"] / out["one_in_process"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=200, help="op requests a round (default 200)")
    parser.add_argument("--loads", type=int, default=5, help="Tables tab loads a round (default 5)")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"no Chromium at {CHROMIUM} (apt-get install chromium, or BIGTWO_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    rounds = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        built = time.perf_counter()
        dbs = {"one": one_session(tmp), "big": big_ledger(tmp, args.deals)}
        built = time.perf_counter() - built
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=SWITCHES)
            try:
                for _ in range(args.rounds):
                    rounds.append(one_round(dbs, browser, args.requests, args.loads))
            finally:
                browser.close()
        sessions = sqlite3.connect(dbs["big"]).execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    keys = ("one_op", "big_op", "op_ratio", "one_tab", "big_tab", "tab_ratio", "one_in_process",
            "big_in_process", "in_process_ratio", "big_bytes")
    results = {
        "deals": args.deals, "sessions": sessions, "build_seconds": built,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                   f"SQLite {sqlite3.sqlite_version}",
        "load_average": os.getloadavg()[0], "rounds": rounds,
        **{f"{k}_median": statistics.median(r[k] for r in rounds) for k in keys},
    }

    def spread(key: str) -> str:
        values = [r[key] for r in rounds]
        return f"{min(values):.2f}–{max(values):.2f} x" if len(values) > 1 else "–"

    m = results
    kib = m["big_bytes_median"] / 1024
    print(f"{m['machine']}, load average {m['load_average']:.1f}, {args.rounds} rounds, "
          f"{args.deals:,} deals in {sessions:,} sessions")
    print("| target | big ledger | one session | ratio (median) | ratio (range) | limit | met |")
    print("|---|---|---|---|---|---|---|")
    print(f"| `GET /api/sessions` answer | {kib:.1f} KiB | | | | {LIMITS['answer_kib']:.0f} KiB | "
          f"{'yes' if kib <= LIMITS['answer_kib'] else 'no'} |")
    for name, key, limit in (("`GET /api/sessions` (hub)", "op", LIMITS["op"]),
                             ("Tables tab shown (Chromium)", "tab", LIMITS["tab"]),
                             ("`sessions` op in process (shown, no limit)", "in_process", None)):
        ratio = m[f"{key}_ratio_median"]
        print(f"| {name} | {m[f'big_{key}_median'] * 1000:.1f} ms | {m[f'one_{key}_median'] * 1000:.1f} ms "
              f"| {ratio:.2f} x | {spread(f'{key}_ratio')} | "
              + (f"{limit:.1f} x | {'yes' if ratio <= limit else 'no'} |" if limit else "– | – |"))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
