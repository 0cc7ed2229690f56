"""``bigtwo table`` at a real terminal (a pseudo-terminal): line editing, history kept
per ledger across evenings, Ctrl-C clears the line and the evening goes on."""

from __future__ import annotations

import os
import select
import sys
import time
from pathlib import Path

import pytest

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX-only")
pytest.importorskip("readline", reason="line editing needs readline")

UP, LEFT, CTRL_C, CTRL_D = "\x1b[A", "\x1b[D", "\x03", "\x04"


class Terminal:
    """``bigtwo table`` running in a pseudo-terminal."""

    def __init__(self, ledger: Path) -> None:
        env = {**os.environ, "BIGTWO_DB": str(ledger), "TERM": "xterm", "COLUMNS": "200"}
        env.pop("INPUTRC", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command
            os.execvpe(sys.executable, [sys.executable, "-m", "ledger", "table"], env)
        self.seen = ""
        self.mark = 0  # expect() looks at what came after the last key sent

    def expect(self, text: str, timeout: float = 60.0) -> str:
        """Read until ``text`` appears; returns everything read so far."""
        end = time.monotonic() + timeout
        while text not in self.seen[self.mark:]:
            left = end - time.monotonic()
            assert left > 0, f"waited for {text!r}; the terminal shows:\n{self.seen[-2000:]}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:  # the child has gone
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"ended before {text!r}:\n{self.seen[-2000:]}")
                self.seen += chunk.decode("utf-8", "replace")
        return self.seen

    def send(self, keys: str) -> None:
        self.mark = len(self.seen)
        os.write(self.fd, keys.encode())
        time.sleep(0.05)  # readline takes an escape sequence as one key only when it arrives whole

    def line(self, keys: str, then: str) -> None:
        self.send(keys + "\r")
        self.expect(then)

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)


def test_editing_history_and_ctrl_c(cli, ledger_path: Path) -> None:
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    t = Terminal(ledger_path)
    t.expect("deal 1> ")
    # Typed "0 3 1 8", then Left Left and a 1: the line becomes "0 3 11 8".
    t.send("0 3 1 8")
    t.send(LEFT)
    t.send(LEFT)
    t.line("1", "deal 2> ")
    assert "deal 1: Ann* 0 (+33), Ben 3 (+21), Cat 11 → 22 fried (-55), Dan 8 (+1)" in t.seen
    # Up brings the last line back; Enter records it again as deal 2.
    t.send(UP)
    t.line("", "deal 3> ")
    assert "deal 2: Ann* 0 (+33), Ben 3 (+21), Cat 11 → 22 fried (-55)" in t.seen
    # Ctrl-C drops a half-typed line, and the evening goes on at the same deal.
    t.send("5 0 2 ")
    t.send(CTRL_C)
    t.expect("^C")
    t.line("undo", "deal 3> ")
    assert "undone: deal 2 (Ann=0 Ben=3 Cat=11 Dan=8)" in t.seen
    t.send(CTRL_D)
    out = t.expect("fewest payments")
    assert t.wait() == 0
    assert "end of the evening: session 1, 1 deal" in out
    assert "Traceback" not in out

    # The history is kept beside the ledger: the next evening's Up finds last week's lines.
    history = ledger_path.with_name(ledger_path.name + ".history").read_text("utf-8")
    assert "0 3 11 8" in history and "undo" in history
    t = Terminal(ledger_path)
    t.expect("deal 3> ")
    t.send(UP)
    t.send(UP)
    t.line("", "deal 4> ")  # two lines back: "0 3 11 8"
    assert "deal 3: Ann* 0 (+33), Ben 3 (+21), Cat 11 → 22 fried (-55)" in t.seen
    t.line("quit", "fewest payments")
    assert t.wait() == 0
