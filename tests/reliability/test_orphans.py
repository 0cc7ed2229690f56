"""No process outlives the one that started it (issue 30): the hub's drawing process and
a large import's sheet reader exit on their own when their parent is killed with
SIGKILL, as an out-of-memory kill or a crash would end it.  Once, three drawing
processes of about 75 MB each were left after three crash runs, blocked on a pipe for
ever.  Linux only: the processes are found in /proc."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")

GONE_WITHIN = 3.0  # seconds after the parent's kill


def _stat(pid: int) -> tuple[str, int] | None:
    """The state letter and parent of ``pid``, or None when there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _has_open(pid: int, path: Path) -> bool:
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def descendants(pid: int) -> list[int]:
    """Every process started by ``pid``, and by those, from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (found := _stat(int(entry))) is not None:
            parents.setdefault(found[1], []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        kids = parents.get(todo.pop(), [])
        out += kids
        todo += kids
    return out


def alive(pid: int) -> bool:
    found = _stat(pid)
    return found is not None and found[0] not in ("Z", "X")  # a zombie has exited


def wait_for(what: Callable[[], list[int]], timeout: float, why: str) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := what():
            return found
        time.sleep(0.05)
    raise AssertionError(why)


def kill_and_count_left(parent: subprocess.Popen[bytes], children: list[int]) -> list[str]:
    """SIGKILL ``parent``; the command lines of ``children`` still running a while later
    (killed then, so that a failing run leaves nothing behind either)."""
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + GONE_WITHIN
    while time.monotonic() < deadline and any(alive(pid) for pid in children):
        time.sleep(0.05)
    left = [f"{pid}: {_command_line(pid)}" for pid in children if alive(pid)]
    for pid in children:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    return left


def started(parent: subprocess.Popen[bytes], child: str) -> list[int]:
    """Every process ``parent`` has started, once one whose command line holds ``child`` is
    among them (the parent is killed if none comes)."""
    def found() -> list[int]:
        every = descendants(parent.pid)
        return every if any(child in _command_line(pid) for pid in every) else []

    try:
        return wait_for(found, 60, f"no {child} process was started")
    except AssertionError:
        parent.kill()
        parent.wait()
        raise


def test_the_hubs_drawing_process_ends_with_the_hub(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "ledger", "--db", str(tmp_path / "l.db"), "serve", "--port", "0",
         "--host", "127.0.0.1", "--token", "k" * 32],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children = started(server, "multiprocessing")  # drawing, started with the server
    left = kill_and_count_left(server, children)
    assert not left, f"still running {GONE_WITHIN} s after bigtwo serve was killed: {left}"


def test_a_hub_stopping_does_not_wait_for_its_drawing() -> None:
    """Ctrl-C (or SIGTERM) right after the links were printed: the drawing process may be
    mid-picture or still importing matplotlib (seconds on a busy machine).  Closing the
    drawer ends it at once; before, the pool let it finish its job and Python's exit
    waited for it, so a stop took as long as the picture."""
    from ledger.web.drawing import Drawer

    drawer = Drawer()
    pool = drawer._started()
    job = pool.submit(time.sleep, 120)  # a picture that takes two minutes
    wait_for(lambda: [1] if job.running() and pool._processes else [], 60,
             "the drawing process did not start the job")
    workers = list(pool._processes.values())
    drawer.close()
    # Gone long before the picture's two minutes. A process on a loaded machine can sit
    # seconds in a disk read (state D) before a signal takes it (a CI run saw one still
    # there 3 s after), so the bound is the job's length, not an instant.
    deadline = time.monotonic() + STOPPED_WITHIN
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
    # A worker the pool's own thread reaped first still reads as alive to this side
    # (multiprocessing's waitpid fails, so it answers "not ended"): "gone" is ended.
    left = {pid: state for pid, state in ((w.pid, _state(w.pid)) for w in workers if w.is_alive())
            if state != "gone"}
    for worker in workers:
        if worker.is_alive():
            worker.kill()
    assert not left, f"the drawing process still ran {STOPPED_WITHIN} s after the drawer closed: {left}"


STOPPED_WITHIN = 20.0  # against a job of 120 s: the pool's own shutdown waited for it


def _state(pid: int | None) -> str:
    """The process's state letter and name (``/proc/PID/stat``), to say why it is there."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "gone"
    return stat[stat.rindex(")") + 2:].split()[0] + " " + stat[stat.index("(") + 1:stat.rindex(")")]


def _one_long_session(path: Path, games: int) -> None:
    """A score sheet of one session of ``games`` games: its reader sends nothing until it
    has read it all (a message is a batch of whole sessions)."""
    rng = random.Random(30)
    lines = ["2024-03-01", "F=10", "Ann Ben Cat Dan"]
    for _ in range(games):
        counts = [rng.randint(1, 13) for _ in range(4)]
        counts[rng.randrange(4)] = 0
        lines.append(" ".join(map(str, counts)))
    path.write_text("\n".join(lines) + "\n", "utf-8")


def test_the_sheet_reader_ends_with_the_import(tmp_path: Path) -> None:
    sheet = tmp_path / "club.txt"
    # Before, the reader saw its parent had gone only when its next message failed: this
    # one has about 7 s of reading (on a 2-core machine) before its first.
    _one_long_session(sheet, 500_000)
    importer = subprocess.Popen(
        [sys.executable, "-m", "ledger", "--db", str(tmp_path / "l.db"), "import", str(sheet)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children = started(importer, "ledger.formats.sheet_reader")
    # Killed once the reader reads the sheet: it has said it is ready, and has nothing
    # more to say for seconds.
    wait_for(lambda: [pid for pid in children if _has_open(pid, sheet)], 60, "the sheet was not read")
    left = kill_and_count_left(importer, children)
    assert not left, f"still running {GONE_WITHIN} s after the import was killed: {left}"
