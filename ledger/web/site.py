"""The served ledger and the request basics: configuration, opening the ledger for a
request, finding the session, access levels and reading request bodies.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request

from ledger.book import actions as book
from ledger.core.errors import InputError, LedgerMoved, StoreError
from ledger.core.i18n import N_, _
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger, moved_problem, open_ledger
from ledger.web.auth import KEEPER, Tokens

HERE = Path(__file__).parent
BODY_LIMIT = 16 * 1024  # bytes; a deal line or a new session is far smaller
# A phone's sync pushes its whole ledger as one export (about 250 bytes a deal entry):
# 8 MiB holds some 30,000 deals, years of evenings.
IMPORT_BODY_LIMIT = 8 << 20
READ_THREADS = 4
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class Refused(Exception):
    """A request we turn down: HTTP status and the one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class TooLarge(Exception):
    pass


@dataclass
class Config:
    """What ``bigtwo serve`` was started with."""

    db: str
    tokens: Tokens
    session_id: int | None = None
    identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the ledger when served
    allowed_hosts: list[str] | None = None
    body_limit: int = BODY_LIMIT
    poll: float = 0.1
    lang: str | None = None  # the page's language when the browser asks for none we have
    origins: list[str] = field(default_factory=list)  # --allow-origin: the offline app's
    extra: dict[str, Any] = field(default_factory=dict)


# --- the ledger, per request ---------------------------------------------------------


def file_identity(path: str) -> tuple[int, int] | None:
    """(device, inode) the path names now, or None if it names nothing."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class Site:
    """The served ledger: opening it, finding the session, the change signal."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.session_id = cfg.session_id
        # Writes from this server queue here rather than in SQLite's busy handler, whose
        # sleeps grow to 100 ms; the command line still waits on SQLite's lock as always.
        self.write_lock = threading.Lock()
        # Reads (standings, history, a log) run in their own few threads, so however many
        # viewers ask at once the writes' threads are never queued behind them.
        from concurrent.futures import ThreadPoolExecutor

        self.read_pool = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="bigtwo-read")
        from ledger.web.drawing import Drawer

        self.drawer = Drawer()
        if cfg.identity is None:
            cfg.identity = file_identity(cfg.db)
        self._watch: Ledger | None = None

    async def run_read(self, work: Any) -> Any:
        """``work()`` in a read thread (never one a write is waiting for), in the request's
        context: its language (``ledger.core.i18n.using``) goes with it, as
        ``asyncio.to_thread`` would carry it (``run_in_executor`` alone does not)."""
        import asyncio
        import contextvars

        here = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self.read_pool, here.run, work)

    def replaced(self) -> bool:
        return self.moved() is not None

    def moved(self) -> str | None:
        """Why the path no longer names the file served at start, or None while it does."""
        if self.cfg.identity is None:
            return None
        return moved_problem(self.cfg.db, self.cfg.identity)

    def moved_message(self, problem: str) -> str:
        return _("the ledger {path} is no longer the file this server opened: {problem}; "
                 "nothing more is read or written there: restart bigtwo serve on the ledger's path"
                 ).format(path=self.cfg.db, problem=problem)

    def check_file(self) -> None:
        """:class:`LedgerMoved` (503) unless the path still names the file served at start:
        checked before every open, so a moved ledger is neither read as stale data nor
        replaced by a new empty one."""
        problem = self.moved()
        if problem is not None:
            raise LedgerMoved(self.moved_message(problem))

    def _open(self) -> Ledger:
        """The served file, opened without ever creating one; bound to the file served at
        start so that storage's own check refuses a write into a file swapped in since."""
        self.check_file()
        try:
            ledger = open_ledger(self.cfg.db, create=False)
        except StoreError:
            self.check_file()  # gone between the look and the open
            raise
        ledger.holder = N_("this server")  # translated in LedgerMoved's message
        if self.cfg.identity is not None:
            if ledger.identity != self.cfg.identity:  # swapped between the look and the open
                ledger.close()
                self.check_file()
                raise LedgerMoved(self.moved_message(_("another file was put in its place")))
            ledger.identity = self.cfg.identity
        return ledger

    @contextlib.contextmanager
    def reading(self) -> Any:
        with self._open() as ledger:
            yield ledger

    @contextlib.contextmanager
    def writing(self) -> Any:
        """Open for a write that storage refuses (:class:`LedgerMoved`, inside the write
        transaction) unless the path still names the file the server started on."""
        with self.write_lock, self._open() as ledger:
            yield ledger

    def session(self, ledger: Ledger, session_id: int | None = None) -> SessionRow:
        return book.current_session(ledger, session_id if session_id is not None else self.session_id)

    def current_id(self) -> int:
        """The number of the session served (``serve --session``, else the current one),
        read from the ledger: for a read thread (:meth:`run_read`)."""
        with self.reading() as ledger:
            return self.session(ledger).id

    # -- the live feed --

    def mark(self) -> tuple[Any, ...]:
        """The change signal: last entry id, and the served session's state; or
        ``("moved", message)`` once the path no longer names the file served."""
        try:
            if self._watch is None:
                self._watch = self._open()
            else:
                self.check_file()
        except LedgerMoved as exc:
            self.close()
            return ("moved", str(exc))
        ledger = self._watch
        # Every commit by any other connection (a phone's write, a deal typed in the
        # terminal, an end or reopen) changes data_version: one cheap query a poll.
        return (ledger.derived.last_entry_id(), ledger.derived.data_version())

    def shutdown(self) -> None:
        """The server stops: the watcher's ledger, the read threads, the drawing process."""
        self.close()
        self.read_pool.shutdown(wait=False, cancel_futures=True)
        self.drawer.close()

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()
            self._watch = None


# --- access ---------------------------------------------------------------------------


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _sep, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refused(401, _("the Authorization header must be: Bearer TOKEN"))
    return token.strip()


def level(request: Request) -> str | None:
    """The access level of the ``Authorization: Bearer`` token (None without one). No
    cookie grants anything: cookies are not kept apart by port, so any other web app
    on this host would receive them."""
    tokens: Tokens = request.app.state.site.cfg.tokens
    given = _bearer(request)
    if given is None:
        return None
    found = tokens.level(given)
    if found is None:
        raise Refused(403, _("wrong token: use the link bigtwo serve printed"))
    return found


def need_read(request: Request) -> str:
    found = level(request)
    if found is None:
        raise Refused(401, _("this page needs the link bigtwo serve printed (it carries a token)"))
    return found


def need_write(request: Request) -> None:
    """The scorekeeper token, by header (which another site cannot make a browser send)."""
    found = level(request)
    if found is None:
        raise Refused(401, _("writing needs the scorekeeper token (Authorization: Bearer TOKEN)"))
    if found != KEEPER:
        raise Refused(403, _("the viewer link is read-only; the scorekeeper link can write"))


# --- helpers ------------------------------------------------------------------------


def site_of(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


async def body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw:
        return {}
    try:
        from ledger.core.limits import check_depth

        # json.loads recurses once per level: 16,000 levels would be a RecursionError
        check_depth(raw.decode("utf-8"), _("the request body"))
        value = json.loads(raw)
    except json.JSONDecodeError as exc:  # Python's words, as the import of a file says them
        problem = _("line {line} column {column}: {problem}").format(
            line=exc.lineno, column=exc.colno, problem=_(exc.msg))
        raise InputError(_("the request body is not JSON: {problem}").format(problem=problem)) from None
    except (ValueError, UnicodeDecodeError):
        raise InputError(_("the request body is not JSON: {problem}").format(
            problem=_("not UTF-8 text"))) from None
    if not isinstance(value, dict):
        raise InputError(_("the request body must be a JSON object, e.g. {example}").format(
            example='{"line": "Ann=0 Ben=3 Cat=11 Dan=8"}'))
    return value


def session_number(text: str) -> int:
    """A session number from a query value (``?session=3``), read as typed (ASCII or
    full-width digits): anything else is a 400 naming it, never a 500."""
    from ledger.core.numbers import digits

    found = digits(text)
    if found is None or len(found) > 18:
        raise InputError(_("session {sid!r} is not a session number").format(sid=text[:40]))
    return int(found)
