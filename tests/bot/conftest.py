"""The bot's tests: the fake Bot API on a local port and ``bigtwo bot telegram`` run
against it as a process of its own, as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from bot.fakeapi import FakeApi, serve


class BotProcess:
    """One run of ``bigtwo bot telegram``; its terminal output kept in ``lines``."""

    def __init__(self, args: list[str]) -> None:
        env = {**os.environ, "BIGTWO_LANG": "en", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "ledger", *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.reader.join(5)


class Run:
    """The fake API, a ledger, a token file, and the bot started and stopped at will."""

    def __init__(self, tmp: Path, url: str, fake: FakeApi) -> None:
        self.tmp, self.url, self.fake = tmp, url, fake
        self.db = tmp / "ledger.db"
        self.token_file = tmp / "token"
        self.token_file.write_text(fake.token + "\n", encoding="utf-8")
        self.token_file.chmod(0o600)
        self.bots: list[BotProcess] = []

    def start(self, *extra: str) -> BotProcess:
        bot = BotProcess(["--db", str(self.db), "bot", "telegram", "--token-file", str(self.token_file),
                          "--api-url", self.url, *extra])
        self.bots.append(bot)
        polled = ("getUpdates", self.fake.token)
        self.fake.wait(lambda: polled in self.fake.calls or bot.proc.poll() is not None)
        assert bot.proc.poll() is None, "\n".join(bot.lines)
        return bot

    def stop(self) -> None:
        for bot in self.bots:
            bot.stop()


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    fake = FakeApi()
    url, stop = serve(fake)
    r = Run(tmp_path, url, fake)
    try:
        yield r
    finally:
        r.stop()
        stop()
