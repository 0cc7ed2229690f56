"""Two (or four) scorekeepers at once: every deal is kept, none fails with "locked".

Write transactions take the lock up front (BEGIN IMMEDIATE) and a busy timeout
waits for it, so terminals queue instead of failing.  Corrections are checked
under the lock too, so two terminals cannot both void the same deal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from ledger.book.doctor import check_ledger
from ledger.storage.store import open_ledger

pytestmark = pytest.mark.slow

TERMINALS = 4
DEALS_EACH = 15


def bigtwo(db: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), *args],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "COLUMNS": "200"})
    return result, time.monotonic() - start


def facts_of(db: Path) -> list[dict]:
    result, _ = bigtwo(db, "log", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def assert_sound(db: Path) -> None:
    with open_ledger(db) as ledger:
        report = check_ledger(ledger)
    assert report.ok, report.problems()[:5]


def test_four_terminals_recording_fifteen_deals_each_keep_all_sixty(tmp_path):
    db = tmp_path / "ledger.db"
    assert bigtwo(db, "session", "start", "--players", "Ann,Ben,Cat,Dan")[0].returncode == 0
    failures: list[str] = []
    slowest: list[float] = []
    gate = threading.Barrier(TERMINALS)

    def terminal(t: int) -> None:
        gate.wait()
        for i in range(DEALS_EACH):
            # Terminal t, deal i: Ann wins; Ben holds t+1 cards, Cat and Dan spell i, so
            # every deal says which terminal recorded it.
            result, took = bigtwo(db, "deal", "Ann=0", f"Ben={t + 1}", f"Cat={i % 13 + 1}",
                                  f"Dan={i // 13 + 1}")
            slowest.append(took)
            if result.returncode != 0 or "locked" in result.stderr or "busy" in result.stderr:
                failures.append(f"terminal {t} deal {i}: {result.returncode} {result.stderr}")

    threads = [threading.Thread(target=terminal, args=(t,)) for t in range(TERMINALS)]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    assert failures == []
    log = facts_of(db)
    assert len(log) == TERMINALS * DEALS_EACH
    assert sorted(e["deal"] for e in log) == list(range(1, TERMINALS * DEALS_EACH + 1))
    cards = [e["facts"]["cards"] for e in log]
    recorded = sorted((c["Ben"] - 1, (c["Dan"] - 1) * 13 + c["Cat"] - 1) for c in cards)
    assert recorded == [(t, i) for t in range(TERMINALS) for i in range(DEALS_EACH)]
    assert_sound(db)
    print(f"\nFIGURES concurrency: {TERMINALS} terminals x {DEALS_EACH} deals = {len(log)} kept "
          f"of {TERMINALS * DEALS_EACH}; 0 locked; {elapsed:.1f} s in all, slowest command "
          f"{max(slowest):.2f} s")


HAMMER = textwrap.dedent("""
    import sys
    from ledger.book import actions as book
    from ledger.core.scoring import Deal
    from ledger.storage.store import open_ledger
    path, who, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open_ledger(path) as ledger:
        s = ledger.journal.session(1)
        print("ready", flush=True)
        sys.stdin.readline()
        for i in range(n):
            book.record_deal(ledger, s, Deal(cards={"Ann": 0, "Ben": who + 1, "Cat": i % 13 + 1,
                                                    "Dan": 13}))
            if i % 10 == 9:
                book.undo(ledger, s)
""")


def test_eight_writers_in_a_tight_loop_with_undos(tmp_path):
    """No start-up between deals: the lock is contended all the time."""
    db = tmp_path / "ledger.db"
    assert bigtwo(db, "session", "start", "--players", "Ann,Ben,Cat,Dan")[0].returncode == 0
    writers = [subprocess.Popen([sys.executable, "-c", HAMMER, str(db), str(w), "60"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for w in range(8)]
    for w in writers:
        assert w.stdout.readline().strip() == "ready"
    for w in writers:  # all start together
        w.stdin.write("go\n")
        w.stdin.flush()
    for w in writers:
        _, err = w.communicate(timeout=300)
        assert w.returncode == 0, err
    log = facts_of(db)
    assert sum(e["kind"] == "deal" for e in log) == 8 * 60
    assert sum(e["kind"] == "void" for e in log) == 8 * 6
    assert len({e["deal"] for e in log}) == 8 * 60
    assert_sound(db)


def test_two_terminals_voiding_the_same_deal(tmp_path):
    """Exactly one void is written; the others are told it is already void."""
    db = tmp_path / "ledger.db"
    assert bigtwo(db, "session", "start", "--players", "Ann,Ben,Cat,Dan")[0].returncode == 0
    for _ in range(3):
        assert bigtwo(db, "deal", "0", "3", "11", "8")[0].returncode == 0
    for target in ("2", "3"):
        gate = threading.Barrier(6)
        results: list[subprocess.CompletedProcess[str]] = []

        def void(target: str = target, gate: threading.Barrier = gate,
                 results: list[subprocess.CompletedProcess[str]] = results) -> None:
            gate.wait()
            results.append(bigtwo(db, "void", target)[0])

        threads = [threading.Thread(target=void) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(r.returncode for r in results) == [0, 2, 2, 2, 2, 2]
        assert all("already void" in r.stderr for r in results if r.returncode)
    assert [e["kind"] for e in facts_of(db)] == ["deal"] * 3 + ["void"] * 2
    assert_sound(db)


def test_an_import_and_two_terminals_at_once(tmp_path):
    from helpers import write_sheet

    db = tmp_path / "ledger.db"
    sheet = tmp_path / "club.txt"
    write_sheet(sheet, 3000)
    assert bigtwo(db, "session", "start", "--players", "Ann,Ben,Cat,Dan")[0].returncode == 0
    outcomes: list[subprocess.CompletedProcess[str]] = []

    def importer() -> None:
        outcomes.append(bigtwo(db, "import", str(sheet))[0])

    def terminal(t: int) -> None:
        for i in range(8):
            outcomes.append(bigtwo(db, "deal", "--session", "1", "Ann=0", f"Ben={t + 1}",
                                   f"Cat={i + 1}", "Dan=13")[0])

    threads = [threading.Thread(target=importer)] + [
        threading.Thread(target=terminal, args=(t,)) for t in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [o.stderr for o in outcomes if o.returncode] == []
    with open_ledger(db) as ledger:
        assert ledger.inspection.counts()["entries"] == 3000 + 16
        assert len(ledger.journal.entries(1)) == 16
    assert_sound(db)
