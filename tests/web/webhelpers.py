"""Shared pieces of the web tests: a ledger with a session, the app, a real server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from helpers import forked_bigtwo

KEY = "test-key-0123456789abcdef"
PLAYERS = ["陳大文", "Ben", "Cat", "Dan"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def keyed(headers: dict[str, str]) -> dict[str, str]:
    """``headers`` with a new idempotency key (one write, never sent before)."""
    import uuid

    return {**headers, "Idempotency-Key": str(uuid.uuid4())}


def ledger_bytes(path: Path) -> bytes:
    """The ledger file and its write-ahead log, byte for byte."""
    out = b""
    for suffix in ("", "-wal"):
        p = Path(str(path) + suffix)
        out += p.read_bytes() if p.exists() else b"-"
    return out


def cli_json(db: Path, *args: str) -> Any:
    """``bigtwo --db DB ARGS --json``, parsed."""
    return json.loads(bigtwo(db, *args, "--json").stdout)


def bigtwo(db: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``bigtwo --db DB ARGS`` in a child process forked from one that imported the command
    line (tests/helpers.py ``forked_bigtwo``); ``check``: a non-zero exit raises."""
    done = forked_bigtwo(["--db", str(db), *args])
    if check:
        done.check_returncode()
    return done


class Server:
    """``bigtwo serve --port 0`` in a child process, as a user starts it."""

    def __init__(self, db: Path, key: str | None = KEY, *extra: str,
                 env: dict[str, str] | None = None, verify: Any = True) -> None:
        self.verify = verify  # for https: the test's own certificate
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200", **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ledger", "--db", str(db), "serve", "--port", "0",
             *(["--token", key] if key is not None else []), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        self.lines: list[str] = []
        self.keeper = self.viewer = ""
        deadline = time.monotonic() + 20
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise AssertionError("bigtwo serve exited:\n" + err)
            self.lines.append(line)
            link = (re.findall(r"https?://\S+", line) or [""])[-1]  # the links end their lines
            if "/entry?t=" in link:
                self.keeper = link
            elif "/?t=" in link:
                self.viewer = link
            if line.startswith("Ctrl-C"):  # in every language
                break
        assert self.keeper and self.viewer, "".join(self.lines)
        self.base = self.keeper.split("/entry")[0]
        self.viewer_token = self.viewer.split("t=")[1]
        self._wait_ready()

    def _wait_ready(self) -> None:
        import httpx

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                httpx.get(self.base + "/static/app/app.css", timeout=1, verify=self.verify)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        raise AssertionError("bigtwo serve did not answer")

    def stop(self) -> tuple[int, str]:
        import signal

        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            out, err = self.proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
            raise AssertionError("bigtwo serve did not stop on Ctrl-C") from None
        return self.proc.returncode, out + err
