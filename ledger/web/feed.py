"""The live feed's watcher: it notices every change to the ledger, and what the feed
sends (``/api/events``: a session's board) is built once per change and handed to every
open app (server-sent events, ledger/web/api.py).

The change signal is the ledger's last entry id, plus the few session facts that are
not entries (which session is current, whether it ended), so a deal recorded by the
command line shows on every phone within one poll interval; a write made through the
page pokes the watcher so it shows at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

POLL_SECONDS = 0.1
HEARTBEAT_SECONDS = 15.0

Mark = tuple[Any, ...]


MAX_SHARED = 256  # different reads kept (the boards of every table, the history, …)


class Feed:
    """Watches ``mark()`` (cheap, run on the event loop); :meth:`shared` builds what is
    sent at most once per change however many apps are listening."""

    def __init__(self, mark: Callable[[], Mark], interval: float = POLL_SECONDS) -> None:
        self._mark = mark
        self.interval = interval
        self.version = 0
        self.mark: Mark | None = None
        self._changed = asyncio.Event()
        self._poke = asyncio.Event()
        self._stop = asyncio.Event()
        self._locks: dict[tuple[Any, ...], asyncio.Lock] = {}
        self._shared: dict[tuple[Any, ...], tuple[int, Any]] = {}

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def stop(self) -> None:
        self._stop.set()
        self._announce()

    def poke(self) -> None:
        """Look now (after a write made here)."""
        self._poke.set()

    def _announce(self) -> None:
        done, self._changed = self._changed, asyncio.Event()
        done.set()

    def check(self) -> bool:
        """Compare the mark with the last one; announce a change.  True if changed."""
        mark = self._mark()
        if mark != self.mark:
            self.mark = mark
            self.version += 1
            self._announce()
            return True
        return False

    async def run(self) -> None:
        while not self._stop.is_set():
            self.check()
            self._poke.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poke.wait(), self.interval)

    async def wait(self, seen: int, timeout: float = HEARTBEAT_SECONDS) -> bool:
        """Wait until the version differs from ``seen`` (True) or ``timeout`` (False)."""
        if self.version != seen or self._stop.is_set():
            return True
        changed = self._changed
        try:
            await asyncio.wait_for(changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def current(self, key: tuple[Any, ...], build: Callable[[], Any],
                      run: Callable[[Callable[[], Any]], Any]) -> Any:
        """``build()`` as the ledger is now (the mark is read first, so an answer is never
        older than the request), shared by every request that asks the same thing at the
        same version: sixty phones reading the history between two deals cost one read.
        At most ``MAX_SHARED`` different questions are kept; others are answered afresh."""
        self.check()
        if key not in self._shared and len(self._shared) >= MAX_SHARED:
            return await run(build)
        return (await self.shared(key, build, run))[1]

    async def shared(self, key: tuple[Any, ...], build: Callable[[], Any],
                     run: Callable[[Callable[[], Any]], Any]) -> tuple[int, Any]:
        """(version, ``build()`` at that version): built once per change for every
        listener, by ``run`` (the site's read threads)."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            version = self.version
            cached = self._shared.get(key)
            if cached is not None and cached[0] == version:
                return cached
            value = await run(build)
            self._shared[key] = (version, value)
            return version, value
