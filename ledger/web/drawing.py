"""Pictures the server draws (``/plot/…``, ``/share/settle.png``), drawn in another
process: matplotlib holds the interpreter while it draws, so in the server's own
process a few viewers asking for charts would make the scorekeeper's next write wait.
One drawing process, started on the first picture asked for; at most
:data:`QUEUE` pictures waiting, the next is told to try again (503).  It ends with the
server however the server ends (:func:`watch_server`).

The phone app draws its own charts from the engine's JSON; these are for the
command-line-like uses (a link to a PNG, the share card).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ledger.core.errors import LedgerError
from ledger.core.i18n import _

QUEUE = 16


class Busy(LedgerError):
    """Too many pictures asked for at once (HTTP 503: try again)."""

    status = 503


class Drawer:
    """The drawing process, and how many pictures wait for it."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self.waiting = 0

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of this one with its threads and locks
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=watch_server)
        return self._pool

    def warm(self) -> None:
        """Start the drawing process now and have it import matplotlib, so the first chart
        a page shows does not wait for either (``bigtwo serve`` calls it at start)."""
        self._started().submit(warm_job)

    async def draw(self, job: Any, *args: Any) -> bytes:
        if self.waiting >= QUEUE:
            raise Busy(_("the server is drawing {count} pictures already; try again in a moment").format(
                count=self.waiting))
        pool = self._started()
        self.waiting += 1
        try:
            kind, value = await asyncio.get_running_loop().run_in_executor(pool, job, *args)
        finally:
            self.waiting -= 1
        if kind == "error":  # a LedgerError in the child: its status and message
            raise Drawn(value[0], value[1])
        return bytes(value)

    def close(self) -> None:
        """End the drawing process now, a picture or its start-up imports half done: the
        server is stopping, and a Ctrl-C must not wait for matplotlib to load (the pool's
        own shutdown lets the process finish its job, and Python's exit waits for it)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = getattr(pool, "_processes", None) or {}  # {pid: Process}; none yet: {}
        for process in list(processes.values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


class Drawn(LedgerError):
    """A refusal from the drawing process, with the status it had there."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def watch_server() -> None:
    """In the drawing process, first: exit when the server has gone, however it went
    (``kill -9``, the out-of-memory killer).  The pool's own pipes never say so (the
    worker holds both ends of its call queue): it waited for ever, about 75 MB each.
    :mod:`multiprocessing` gives a spawned child a pipe from its parent for this."""
    from multiprocessing import parent_process
    from multiprocessing.connection import wait

    from ledger.formats.lifetime import exit_with_parent

    server = parent_process()
    if server is not None:
        exit_with_parent(lambda: wait([server.sentinel]))


def warm_job() -> None:
    """In the drawing process: the imports every picture needs."""
    import ledger.present.share  # noqa: F401
    from ledger.present import plots

    plots.preload()


def _picture(paint: Any, fmt: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="bigtwo-serve-") as folder:
        out = Path(folder) / f"picture.{fmt}"
        paint(out)
        return out.read_bytes()


def _open(db: str, identity: tuple[int, int] | None) -> Any:
    from ledger.core.errors import LedgerMoved
    from ledger.storage.store import moved_problem, open_ledger

    if identity is not None and moved_problem(db, identity) is not None:
        raise LedgerMoved(_("the ledger {path} is no longer the file this server opened: {problem}; "
                            "nothing more is read or written there: restart bigtwo serve on the "
                            "ledger's path").format(path=db, problem=moved_problem(db, identity)))
    return open_ledger(db, create=False)


def plot_job(db: str, identity: tuple[int, int] | None, lang: str, session: int | None,
             player: str | None, kind: str, fmt: str) -> tuple[str, Any]:
    """In the drawing process: chart ``kind`` as bytes (or ``("error", (status, message))``)."""
    from ledger.core import i18n

    with i18n.using(lang):
        try:
            from ledger.book.scope import select
            from ledger.present import plots

            with _open(db, identity) as ledger:
                if session is not None:
                    scope = select(ledger, session, False)
                else:
                    scope = select(ledger, None, True, player=player, default_all=True)
                return "bytes", _picture(lambda out: plots.plot(ledger, scope, kind, out), fmt)
        except LedgerError as exc:
            return "error", _status(exc)


def card_job(db: str, identity: tuple[int, int] | None, lang: str, session: int) -> tuple[str, Any]:
    """In the drawing process: the settlement card of ``session`` as PNG bytes."""
    from ledger.core import i18n

    with i18n.using(lang):
        try:
            from ledger.book import actions as book
            from ledger.book import reports
            from ledger.present import share

            with _open(db, identity) as ledger:
                s = book.current_session(ledger, session)
                settlement = reports.settle(ledger, [s])
                return "bytes", _picture(lambda out: share.card(settlement, out), "png")
        except LedgerError as exc:
            return "error", _status(exc)


def _status(exc: LedgerError) -> tuple[int, str]:
    from ledger.engine.dispatch import error_dict

    found = error_dict(exc)
    return found["status"], found["message"]
