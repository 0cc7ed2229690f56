"""Crash tests: SIGKILL ``python -m ledger`` at random moments, then check the ledger.

After every kill: SQLite's ``integrity_check`` is ok, no deal is half-written (the
self-check replays every entry: each deal has all its players' points and its nets
sum to zero), and the ledger still takes the next command.  After the import kills,
running the import again completes it, with every deal exactly once.

The moments are random but seeded (``BIGTWO_CRASH_SEED`` to vary them); figures are
printed with ``-s`` (see docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import write_sheet

from ledger.book.doctor import check_ledger
from ledger.storage.store import open_ledger

pytestmark = pytest.mark.slow

KILLS = 12
SEED = int(os.environ.get("BIGTWO_CRASH_SEED", "2026"))
FOUR = ["--players", "Ann,Ben,Cat,Dan"]


def command(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "ledger", "--db", str(db), *args]


def run(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(db, *args), capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})


def assert_intact(db: Path, full: bool = True) -> tuple[int, int]:
    """integrity_check ok, no half-written deal, and (``full``) the whole self-check clean.

    Returns (entries, live deals)."""
    conn = sqlite3.connect(db)  # recovers the WAL a killed writer left, as any opener does
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        half = conn.execute(
            """SELECT e.id FROM entries e
               JOIN (SELECT session_id, COUNT(*) AS n FROM seats GROUP BY session_id) t
                 ON t.session_id = e.session_id
               LEFT JOIN points q ON q.entry_id = e.id
               WHERE e.kind IN ('deal', 'amend', 'void')  -- start, end, reopen, undo hold no points
               GROUP BY e.id
               HAVING COUNT(q.id) = 0 OR SUM(q.net) != 0
                   OR (e.kind != 'amend' AND COUNT(q.id) != MAX(t.n))"""
        ).fetchall()
        assert half == [], f"half-written entries: {half[:5]}"
        counts = conn.execute(
            "SELECT COUNT(*) FILTER (WHERE kind IN ('deal', 'amend', 'void')), "
            "COUNT(*) FILTER (WHERE kind = 'deal') FROM entries").fetchone()  # deal entries
    finally:
        conn.close()
    if not full:
        return counts
    with open_ledger(db) as ledger:
        report = check_ledger(ledger)
    assert report.ok, report.problems()[:5]
    return report.entries, report.live_deals


class Watch:
    """Collects a child's output in the background; ``seen(text)`` waits for a marker."""

    def __init__(self, proc: subprocess.Popen[str], stream_name: str) -> None:
        self.text = ""
        self.event = threading.Event()
        self.marker = ""
        stream = getattr(proc, stream_name)
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        for chunk in iter(lambda: stream.read(1), ""):
            self.text += chunk
            if self.marker and self.marker in self.text:
                self.event.set()
        self.event.set()

    def seen(self, marker: str, timeout: float) -> bool:
        self.marker = marker
        if marker in self.text:
            return True
        self.event.wait(timeout)
        return marker in self.text


def kill(proc: subprocess.Popen[str]) -> bool:
    """SIGKILL the child; True when it was still running (a real kill)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    return proc.returncode == -signal.SIGKILL


# --- single deals ------------------------------------------------------------------------


def test_kills_during_single_deal_commands(tmp_path):
    rng = random.Random(SEED)
    db = tmp_path / "ledger.db"
    assert run(db, "session", "start", *FOUR).returncode == 0
    times = []
    for _ in range(3):  # how long one `bigtwo deal` takes here, start to finish
        t = time.monotonic()
        assert run(db, "deal", "0", "3", "11", "8").returncode == 0
        times.append(time.monotonic() - t)
    whole = statistics.median(times)
    expected_deals = 3
    kills = committed_then_killed = attempts = 0
    while kills < KILLS:
        attempts += 1
        assert attempts < KILLS * 6, f"only {kills} kills in {attempts} attempts"
        cards = [0, rng.randrange(1, 14), rng.randrange(1, 14), rng.randrange(1, 14)]
        rng.shuffle(cards)
        before = assert_intact(db)[0]
        started = time.monotonic()
        proc = subprocess.Popen(command(db, "deal", *map(str, cards)), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        deadline = started + rng.uniform(0.5, 1.05) * whole  # late in the run, where the write is
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if proc.poll() is not None:  # finished first: the machine got faster (a shared CI box),
            times.append(time.monotonic() - started)  # so aim by the recent runs
            whole = statistics.median(times[-5:])
        killed = kill(proc)
        after = assert_intact(db)[0]
        assert after in (before, before + 1)  # the deal is wholly there or wholly absent
        expected_deals += after - before
        if killed:
            kills += 1
            committed_then_killed += after - before
        else:
            assert proc.returncode == 0, proc.stderr.read()
            assert after == before + 1
    assert run(db, "deal", "0", "1", "2", "3").returncode == 0  # and it takes the next deal
    entries, live = assert_intact(db)
    assert live == entries == expected_deals + 1
    print(f"\nFIGURES single deals: {kills} kills in {attempts} runs of `bigtwo deal` "
          f"({whole:.2f} s each); {committed_then_killed} of the killed deals had committed; "
          f"{entries} deals, all intact")


def test_kills_during_a_scoring_evening(tmp_path):
    """`bigtwo table` records deal after deal in one process: a kill lands inside or
    between single-deal transactions, almost never in start-up."""
    rng = random.Random(SEED + 1)
    db = tmp_path / "ledger.db"
    assert run(db, "session", "start", *FOUR).returncode == 0
    kills = 0
    rounds = []
    while kills < KILLS:
        lines = []
        for i in range(400):
            cards = [0, rng.randrange(1, 14), rng.randrange(1, 14), rng.randrange(1, 14)]
            rng.shuffle(cards)
            lines.append("undo" if i % 9 == 8 else " ".join(map(str, cards)))
        before = assert_intact(db)
        proc = subprocess.Popen(command(db, "table"), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out = Watch(proc, "stdout")
        feeder = threading.Thread(target=_feed, args=(proc, lines), daemon=True)
        feeder.start()
        assert out.seen("next:", timeout=60), out.text[-500:]  # past start-up, recording
        time.sleep(rng.uniform(0.05, 1.2))
        kills += kill(proc)
        after = assert_intact(db)
        rounds.append(after[0] - before[0])
    entries, live = assert_intact(db)
    assert sum(rounds) == entries and entries > 0
    assert run(db, "deal", "0", "1", "2", "3").returncode == 0
    print(f"\nFIGURES table loop: {kills} kills of `bigtwo table`; entries written between "
          f"kills {rounds}; {entries} entries ({live} live deals), all intact")


def _feed(proc: subprocess.Popen[str], lines: list[str]) -> None:
    try:
        for line in lines:
            proc.stdin.write(line + "\n")
        proc.stdin.close()
    except (BrokenPipeError, ValueError, OSError):
        pass


# --- a large import ------------------------------------------------------------------------

IMPORT_DEALS = 6000


def sessions_whole(db: Path, per_session: dict[str, int]) -> int:
    """Every imported session has all its games (sessions are written whole)."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT s.uuid, COUNT(e.id) FROM sessions s LEFT JOIN entries e ON e.session_id = s.id "
            "AND e.kind IN ('deal', 'amend', 'void') GROUP BY s.id"  # not the start entry (m005)
        ).fetchall()
    finally:
        conn.close()
    for uuid, count in rows:
        assert per_session.get(uuid) == count, (uuid, count, per_session.get(uuid))
    return sum(count for _, count in rows)


def timed_import(db: Path, sheet: Path) -> float:
    """Seconds from the start of writing (the progress label) to the end of an import."""
    proc = subprocess.Popen(command(db, "import", str(sheet)), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    err = Watch(proc, "stderr")
    assert err.seen("importing", timeout=120), err.text
    start = time.monotonic()
    assert proc.wait(timeout=300) == 0, err.text
    return time.monotonic() - start


def test_kills_during_a_large_import(tmp_path):
    rng = random.Random(SEED + 2)
    sheet = tmp_path / "club.txt"
    per_session = write_sheet(sheet, IMPORT_DEALS)
    assert sum(per_session.values()) == IMPORT_DEALS
    writing_time = timed_import(tmp_path / "scratch.db", sheet)
    db = tmp_path / "ledger.db"
    kills = runs = 0
    rounds, kept = 1, []
    while kills < KILLS:
        runs += 1
        assert runs < KILLS * 4
        done = sessions_whole(db, per_session) if db.exists() else 0
        if done == IMPORT_DEALS:
            # Complete: a kill from here on would only hit an import with nothing to add.
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
            rounds, done = rounds + 1, 0
        proc = subprocess.Popen(command(db, "import", str(sheet)), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        err = Watch(proc, "stderr")
        assert err.seen("importing", timeout=120), err.text  # the sheet is read; writing starts
        # Anywhere in a whole import's writing time: a resumed import first checks the
        # sessions already there, then writes the rest.
        time.sleep(rng.uniform(0.02, 1.0) * writing_time)
        if kill(proc):
            kills += 1
        else:
            assert proc.returncode == 0, err.text
        assert_intact(db, full=kills % 4 == 0)
        kept.append(sessions_whole(db, per_session))
    result = run(db, "import", str(sheet))
    assert result.returncode == 0, result.stderr
    assert sessions_whole(db, per_session) == IMPORT_DEALS
    entries, live = assert_intact(db)
    assert entries == live == IMPORT_DEALS
    again = run(db, "import", str(sheet))
    assert again.returncode == 0 and "nothing new" in again.stdout
    assert assert_intact(db, full=False) == (IMPORT_DEALS, IMPORT_DEALS)
    print(f"\nFIGURES import: {kills} kills in {runs} runs importing {IMPORT_DEALS} deals "
          f"({writing_time:.1f} s of writing uninterrupted; {rounds} round(s)); deals kept after "
          f"each run {kept}; the re-run completed: {entries} deals, none twice, all intact")
