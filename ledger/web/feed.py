"""The live feed: one watcher notices every change to the ledger, renders each view
once per change, and hands the same bytes to every open page (server-sent events).

The change signal is the ledger's last entry id, plus the few session facts that are
not entries (which session is current, whether it ended), so a deal recorded by the
command line shows on every phone within one poll interval; a write made through the
page pokes the watcher so it shows at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

POLL_SECONDS = 0.1
HEARTBEAT_SECONDS = 15.0

Mark = tuple[Any, ...]


class Feed:
    """Watches ``mark()`` (cheap, run on the event loop) and renders views on demand.

    ``render(view, lang)`` runs in a worker thread and returns a JSON-ready dict; it is
    called at most once per view and language per change however many pages are
    listening.  A dict
    with an ``"error"`` goes out as a ``problem`` event that ends the stream (the
    ledger file was moved away: there is nothing more to follow).
    """

    def __init__(self, mark: Callable[[], Mark], render: Callable[[str, str], dict[str, Any]],
                 interval: float = POLL_SECONDS) -> None:
        self._mark = mark
        self._render = render
        self.interval = interval
        self.version = 0
        self.mark: Mark | None = None
        self._changed = asyncio.Event()
        self._poke = asyncio.Event()
        self._stop = asyncio.Event()
        self._cache: dict[tuple[str, str], tuple[int, bytes]] = {}
        self._locks: dict[tuple[str, Any], asyncio.Lock] = {}
        self._shared: dict[tuple[str, Any], tuple[int, Any]] = {}
        self.listeners = 0

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

    async def shared(self, key: tuple[str, Any], build: Callable[[], Any],
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

    async def payload(self, view: str, lang: str = "en") -> tuple[int, bytes]:
        """(version, the SSE message) for ``view`` in ``lang`` at the current version."""
        key = (view, lang)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            version = self.version
            cached = self._cache.get(key)
            if cached is not None and cached[0] == version:
                return cached
            data = await asyncio.to_thread(self._render, view, lang)
            data["version"] = version
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            event = "problem" if data.get("error") else "update"
            message = f"event: {event}\nid: {version}\ndata: {text}\n\n".encode()
            self._cache[key] = (version, message)
            return version, message

    async def stream(self, view: str, is_gone: Callable[[], Any], lang: str = "en") -> Any:
        """The SSE stream of one page (in its language): the current state, then every
        change."""
        self.listeners += 1
        try:
            yield b"retry: 1000\n\n"
            seen = -1
            while not self._stop.is_set():
                if self.version != seen:
                    seen, message = await self.payload(view, lang)
                    yield message
                    if message.startswith(b"event: problem"):
                        return  # the ledger is gone: the page shows why and stops listening
                    continue
                if not await self.wait(seen):
                    if await is_gone():
                        return
                    yield b": ping\n\n"
        finally:
            self.listeners -= 1
