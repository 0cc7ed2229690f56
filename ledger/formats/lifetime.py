"""No process of ours outlives the one that started it.

Two children are started: a large score sheet's reader (:mod:`ledger.formats.sheet_reader`)
and the hub's drawing process (``ledger/web/drawing.py``).  A parent that ends normally
stops them; one killed hard (``kill -9``, the out-of-memory killer, a crash) cannot.  So
each child watches a pipe whose only writer is its parent (the reader its standard
input, the drawing process the pipe :mod:`multiprocessing` keeps for the purpose): the
kernel closes a dead process's files, the pipe reaches its end, and the child exits.
Nothing polls, and nothing depends on the platform's signals.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable

ORPHANED = 70
"""The exit code of a child whose parent has gone (nobody waits for it; ``ps`` shows it)."""


def exit_with_parent(wait_for_parent: Callable[[], object]) -> None:
    """In a child: end this process as soon as ``wait_for_parent()`` returns, that is when
    the pipe it waits on reaches its end because the parent has exited, however it
    exited.  Returns at once: a daemon thread waits, so the child's own work goes on."""

    def watch() -> None:
        with contextlib.suppress(OSError, ValueError):  # the pipe closed under it: gone too
            wait_for_parent()
        os._exit(ORPHANED)  # no clean-up: the parent that wanted the work is gone

    threading.Thread(target=watch, name="bigtwo-parent-watch", daemon=True).start()
