"""The ASGI application: pages, JSON API, live feed, security.

Every request opens the ledger the way the command line does (``open_ledger``) and
every write calls one ``ledger.book`` action: the same checks, the same single
``BEGIN IMMEDIATE`` transaction, the same error messages.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from ledger.book import actions as book
from ledger.book import reports
from ledger.core.errors import InputError, LedgerError, LedgerMoved, StoreError
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger, moved_problem, open_ledger
from ledger.web import data
from ledger.web.auth import COOKIE, KEEPER, VIEWER, Tokens
from ledger.web.feed import Feed

HERE = Path(__file__).parent
BODY_LIMIT = 16 * 1024  # bytes; a deal line or a new session is far smaller
MAX_LINE = 2000
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
    """The served ledger: opening it, finding the session, rendering views."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.session_id = cfg.session_id
        # Writes from this server queue here rather than in SQLite's busy handler, whose
        # sleeps grow to 100 ms; the command line still waits on SQLite's lock as always.
        self.write_lock = threading.Lock()
        if cfg.identity is None:
            cfg.identity = file_identity(cfg.db)
        self._watch: Ledger | None = None
        from jinja2 import Environment, FileSystemLoader

        self.env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True,
                               trim_blocks=True, lstrip_blocks=True)
        self.env.filters["signed"] = data.signed
        self.env.filters["amount"] = data.amount

    def replaced(self) -> bool:
        return self.moved() is not None

    def moved(self) -> str | None:
        """Why the path no longer names the file served at start, or None while it does."""
        if self.cfg.identity is None:
            return None
        return moved_problem(self.cfg.db, self.cfg.identity)

    def moved_message(self, problem: str) -> str:
        return (f"the ledger {self.cfg.db} is no longer the file this server opened: {problem}; "
                "nothing more is read or written there: restart bigtwo serve on the ledger's path")

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
        ledger.holder = "this server"
        if self.cfg.identity is not None:
            if ledger.identity != self.cfg.identity:  # swapped between the look and the open
                ledger.close()
                self.check_file()
                raise LedgerMoved(self.moved_message("another file was put in its place"))
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

    def maybe_session(self, ledger: Ledger) -> SessionRow | None:
        try:
            return self.session(ledger)
        except InputError:
            return None

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
        current = ledger.journal.get_setting(book.CURRENT_KEY)
        sid = self.session_id if self.session_id is not None else current
        ended = None
        if sid is not None:
            with contextlib.suppress(LedgerError):
                ended = ledger.journal.session(int(sid)).ended_at
        return (ledger.derived.last_entry_id(), current, sid, ended, len(ledger.journal.session_ids()))

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()
            self._watch = None

    def render(self, view: str) -> dict[str, Any]:
        """One live view as ``{"session": ID, "html": ...}`` (the same for every page);
        ``{"error": ...}`` with the message as its html once the ledger has moved."""
        try:
            with self.reading() as ledger:
                s = self.maybe_session(ledger)
                if s is None:
                    return {"session": None, "html": self.template("_nosession.html", keeper=False)}
                b = data.board(ledger, s)
                return {"session": s.id, "ended": s.ended_at is not None,
                        "next_deal": ledger.journal.next_deal_no(s.id),
                        "html": self.template(f"_{view}.html", b=b, keeper=view == "entry")}
        except LedgerMoved as exc:
            return {"session": None, "error": str(exc),
                    "html": self.template("_problem.html", message=str(exc))}

    def template(self, template_name: str, /, **values: Any) -> str:
        return self.env.get_template(template_name).render(**values)


# --- access ---------------------------------------------------------------------------


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refused(401, "the Authorization header must be: Bearer TOKEN")
    return token.strip()


def level(request: Request) -> str | None:
    tokens: Tokens = request.app.state.site.cfg.tokens
    given = _bearer(request)
    if given is not None:
        found = tokens.level(given)
        if found is None:
            raise Refused(403, "wrong token: use the link bigtwo serve printed")
        return found
    return tokens.level(request.cookies.get(COOKIE))


def own_origin(request: Request) -> str:
    return f"{request.url.scheme}://{request.headers.get('host', '')}"


def need_read(request: Request) -> str:
    found = level(request)
    if found is None:
        raise Refused(401, "this page needs the link bigtwo serve printed (it carries a token)")
    return found


def need_write(request: Request) -> None:
    """The scorekeeper token, by header; or by cookie from a page of this server."""
    by_header = request.headers.get("authorization") is not None
    found = level(request)
    if found is None:
        raise Refused(401, "writing needs the scorekeeper token (Authorization: Bearer TOKEN)")
    if found != KEEPER:
        raise Refused(403, "the viewer link is read-only; the scorekeeper link can write")
    if not by_header and request.headers.get("origin") != own_origin(request):
        raise Refused(403, "refused a write from another site (the Origin header must be this server)")


# --- helpers ------------------------------------------------------------------------


def site_of(request: Request) -> Site:
    return request.app.state.site


async def body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"the request body is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise InputError('the request body must be a JSON object, e.g. {"line": "Ann=0 Ben=3 Cat=11 Dan=8"}')
    return value


def text_field(values: dict[str, Any], key: str, required: bool = True, limit: int = MAX_LINE) -> str | None:
    value = values.get(key)
    if value is None:
        if required:
            raise InputError(f'missing "{key}" in the request body')
        return None
    if not isinstance(value, str):
        raise InputError(f'"{key}" must be a string')
    if len(value) > limit:
        raise InputError(f'"{key}" is longer than {limit} characters')
    return value


def int_field(values: dict[str, Any], key: str) -> int:
    value = values.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f'"{key}" must be a whole number, e.g. {{"{key}": 3}}')
    return value


def parse_line(line: str, s: SessionRow) -> Any:
    from ledger.core.deal_line import parse_deal_line

    return parse_deal_line(line, s.seats, book.session_rules(s))


def recorded_json(ledger: Ledger, s: SessionRow, recorded: book.Recorded) -> dict[str, Any]:
    out: dict[str, Any] = {
        "session": s.id, "deal": recorded.entry.deal_no, "entry": recorded.entry.id,
        "kind": recorded.entry.kind, "facts": recorded.entry.facts,
    }
    if recorded.score is not None:
        out.update(data.score_dict(list(s.seats), recorded.score))
    out["next"] = data.turn_dict(data.next_turn(ledger, s))
    out["standings"] = data.standings_json(ledger, ledger.journal.session(s.id))
    return out


# --- API ------------------------------------------------------------------------------


def api_read(build: Callable[[Site, Ledger, SessionRow], Any]) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        need_read(request)
        site = site_of(request)
        sid = request.query_params.get("session")
        session_id = None
        if sid is not None:
            if not sid.isdigit() or len(sid) > 18:
                raise InputError(f"session {sid!r} is not a session number")
            session_id = int(sid)

        def work() -> Any:
            with site.reading() as ledger:
                return build(site, ledger, site.session(ledger, session_id))

        return JSONResponse(await run_in_threadpool(work))

    return endpoint


def api_write(action: Callable[[Site, Ledger, dict[str, Any]], Any]) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        need_write(request)
        values = await body(request)
        site = site_of(request)

        def work() -> Any:
            with site.writing() as ledger:
                return action(site, ledger, values)

        result = await run_in_threadpool(work)
        request.app.state.feed.poke()
        return JSONResponse(result)

    return endpoint


def _deal(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    s = site.session(ledger)
    deal = parse_line(text_field(values, "line") or "", s)
    return recorded_json(ledger, s, book.record_deal(ledger, s, deal))


def _amend(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    s = site.session(ledger)
    number = int_field(values, "deal")
    deal = parse_line(text_field(values, "line") or "", s)
    return recorded_json(ledger, s, book.amend_deal(ledger, s, number, deal))


def _void(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    s = site.session(ledger)
    return recorded_json(ledger, s, book.void_deal(ledger, s, int_field(values, "deal")))


def _undo(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    from ledger.present.text import undo_text

    s = site.session(ledger)
    undone = book.undo(ledger, s, session_start=False)
    out = ({"session": s.id, "kind": undone.action} if undone.recorded is None
           else recorded_json(ledger, s, undone.recorded))
    out["undone"] = undo_text(undone)  # what was taken back, with its facts
    return out


def _start(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    from ledger.core.rules import load_preset
    from ledger.core.settlement import parse_currency, parse_stake

    players = text_field(values, "players") or ""
    seats = [p for p in players.replace("，", ",").split(",")]
    rules_name = text_field(values, "rules", required=False) or "classic"
    from ledger.core.rules import preset_names

    if rules_name not in preset_names():
        raise InputError(f"unknown rules {rules_name!r}; the page offers the presets: "
                         f"{', '.join(preset_names())}")
    rules = load_preset(rules_name)
    stake = parse_stake(text_field(values, "stake", required=False) or "1")
    currency = parse_currency(text_field(values, "currency", required=False) or "PTS")
    name = text_field(values, "name", required=False)  # the book checks its length
    teams = values.get("teams", False)
    if not isinstance(teams, bool):
        raise InputError('"teams" must be true or false')
    s = book.start_session(ledger, seats, rules, stake, currency, name or None, teams)
    if site.session_id is not None:
        site.session_id = s.id  # the page follows the session it started
    return data.session_json(ledger, s)


def _end(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    s = book.end_session(ledger, site.session(ledger))
    return data.session_json(ledger, s)


async def api_preview(request: Request) -> Response:
    """Score a deal line without writing anything (the same core as a recorded deal)."""
    need_read(request)
    values = await body(request)
    site = site_of(request)

    def work() -> Any:
        with site.reading() as ledger:
            s = site.session(ledger)
            deal = parse_line(text_field(values, "line") or "", s)
            score = book.score(s, deal)
            return {"session": s.id, "facts": deal.to_dict(), **data.score_dict(list(s.seats), score)}

    return JSONResponse(await run_in_threadpool(work))


async def api_sessions(request: Request) -> Response:
    need_read(request)
    site = site_of(request)

    def work() -> Any:
        with site.reading() as ledger:
            return [s.to_dict() for s in ledger.journal.sessions()]

    return JSONResponse(await run_in_threadpool(work))


async def api_events(request: Request) -> Response:
    """A JSON change feed for scripts: ``{"version", "last_entry_id", "session"}``."""
    need_read(request)
    site_of(request).check_file()
    feed: Feed = request.app.state.feed

    async def stream() -> AsyncIterator[bytes]:
        seen = -1
        yield b"retry: 1000\n\n"
        while not feed.stopping:
            if feed.version != seen:
                seen = feed.version
                mark = feed.mark or ()
                if mark and mark[0] == "moved":  # the ledger is gone: say why, then stop
                    yield f"event: problem\ndata: {json.dumps({'error': mark[1]})}\n\n".encode()
                    return
                sid = mark[2] if len(mark) > 2 else None
                payload = {"version": seen, "last_entry_id": mark[0] if len(mark) > 1 else None,
                           "session": None if sid is None else int(sid)}
                yield f"event: change\ndata: {json.dumps(payload)}\n\n".encode()
            elif not await feed.wait(seen):
                if await request.is_disconnected():
                    return
                yield b": ping\n\n"

    return sse(stream())


def sse(stream: AsyncIterator[bytes]) -> StreamingResponse:
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"cache-control": "no-store", "x-accel-buffering": "no"})


async def live_events(request: Request) -> Response:
    view = request.path_params["view"]
    if view not in ("scoreboard", "entry", "settle"):
        raise Refused(404, f"no live view {view!r}")
    if need_read(request) != KEEPER and view == "entry":
        raise Refused(403, "the viewer link is read-only; the scorekeeper link can write")
    site_of(request).check_file()  # a page opened after the move gets the 503 at once
    feed: Feed = request.app.state.feed
    return sse(feed.stream(view, request.is_disconnected))


# --- pages ----------------------------------------------------------------------------


def page_access(request: Request, keeper_only: bool = False) -> str | Response:
    """The visitor's level; or a redirect that swaps ``?t=TOKEN`` for the cookie."""
    token = request.query_params.get("t")
    if token is not None:
        found = site_of(request).cfg.tokens.level(token)
        if found is None:
            raise Refused(403, "this link's token is wrong: use the link bigtwo serve printed")
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "t"]
        target = request.url.path + ("?" + urlencode(rest) if rest else "")
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https", max_age=7 * 24 * 3600)
        return response
    found = need_read(request)
    if keeper_only and found != KEEPER:
        raise Refused(403, "the viewer link is read-only: ask the scorekeeper to enter deals")
    return found


def page(template: str, request: Request, who: str, /, **values: Any) -> HTMLResponse:
    site = site_of(request)
    html = site.template(template, keeper=who == KEEPER, viewer=who == VIEWER, path=request.url.path,
                         **values)
    return HTMLResponse(html, headers={"cache-control": "no-store"})


def live_page(template: str, view: str, keeper_only: bool = False) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        who = page_access(request, keeper_only)
        if isinstance(who, Response):
            return who
        site = site_of(request)

        def work() -> dict[str, Any]:
            values: dict[str, Any] = {"view": view}
            with site.reading() as ledger:
                s = site.maybe_session(ledger)
                values["s"] = s
                if s is not None:
                    values["b"] = data.board(ledger, s)
                    values["rules"] = book.session_rules(s)
                    values["live"] = site.render(view)["html"]
                else:
                    values["live"] = site.template("_nosession.html", keeper=who == KEEPER)
            return values

        return page(template, request, who, **await run_in_threadpool(work))

    return endpoint


async def start_page(request: Request) -> Response:
    who = page_access(request, keeper_only=True)
    if isinstance(who, Response):
        return who
    from ledger.core.rules import load_preset, preset_names

    presets = [load_preset(n) for n in preset_names()]
    site = site_of(request)

    def work() -> SessionRow | None:
        with site.reading() as ledger:
            return site.maybe_session(ledger)

    return page("start.html", request, who, presets=presets, s=await run_in_threadpool(work))


async def history_page(request: Request) -> Response:
    who = page_access(request)
    if isinstance(who, Response):
        return who
    from ledger.book import stats

    site = site_of(request)

    def work() -> list[Any]:
        with site.reading() as ledger:
            if not ledger.journal.session_ids():
                return []
            scope = stats.select(ledger, None, True, default_all=True)
            return list(reversed(stats.history(ledger, scope)))

    return page("history.html", request, who, rows=await run_in_threadpool(work))


async def session_page(request: Request) -> Response:
    who = page_access(request)
    if isinstance(who, Response):
        return who
    site = site_of(request)
    sid = request.path_params["sid"]

    def work() -> dict[str, Any]:
        with site.reading() as ledger:
            s = book.current_session(ledger, sid)
            return {"b": data.board(ledger, s, last=None), "s": s}

    return page("session.html", request, who, **await run_in_threadpool(work))


async def player_page(request: Request) -> Response:
    who = page_access(request)
    if isinstance(who, Response):
        return who
    from ledger.book import stats
    from ledger.book.money import money_text

    site = site_of(request)
    name = request.path_params["name"]

    def work() -> dict[str, Any]:
        with site.reading() as ledger:
            scope = stats.select(ledger, None, True, player=name, default_all=True)
            st = stats.build(ledger, scope, name)
            rows = list(reversed(stats.history(ledger, scope)))
            line = next((p for p in st.players if p.name == name), None)
            return {"name": name, "st": st, "line": line, "rows": rows,
                    "money_text": money_text}

    return page("player.html", request, who, **await run_in_threadpool(work))


async def plot_image(request: Request) -> Response:
    need_read(request)
    from ledger.book import stats
    from ledger.present import plots

    kind, fmt = request.path_params["kind"], request.path_params["fmt"]
    if kind not in plots.KINDS:
        raise InputError(f"unknown plot kind {kind!r}; choose from {', '.join(plots.KINDS)}")
    if fmt not in ("svg", "png"):
        raise InputError(f"plots are served as .svg or .png, not .{fmt}")
    site = site_of(request)
    sid = request.query_params.get("session")
    player = request.query_params.get("player")

    def work() -> bytes:
        with site.reading() as ledger:
            if sid is not None:
                if not sid.isdigit() or len(sid) > 18:
                    raise InputError(f"session {sid!r} is not a session number")
                scope = stats.select(ledger, int(sid), False)
            else:
                scope = stats.select(ledger, None, True, player=player, default_all=True)
            return draw(lambda out: plots.plot(ledger, scope, kind, out), fmt)

    content = await run_in_threadpool(work)
    media = "image/svg+xml" if fmt == "svg" else "image/png"
    return Response(content, media_type=media, headers={"cache-control": "no-store"})


def draw(paint: Callable[[Path], Any], fmt: str) -> bytes:
    """The bytes of a picture that ``ledger.present`` draws into a file."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bigtwo-serve-") as folder:
        out = Path(folder) / f"picture.{fmt}"
        paint(out)
        return out.read_bytes()


async def share_png(request: Request) -> Response:
    need_read(request)
    from ledger.present import share

    site = site_of(request)

    def work() -> bytes:
        with site.reading() as ledger:
            s = site.session(ledger)
            settlement = reports.settle(ledger, [s])
            return draw(lambda out: share.card(settlement, out), "png")

    return Response(await run_in_threadpool(work), media_type="image/png",
                    headers={"cache-control": "no-store",
                             "content-disposition": 'inline; filename="bigtwo-settle.png"'})


async def share_text(request: Request) -> Response:
    need_read(request)
    site = site_of(request)

    def work() -> str:
        with site.reading() as ledger:
            return data.board(ledger, site.session(ledger)).settle_text()

    return PlainTextResponse(await run_in_threadpool(work), headers={"cache-control": "no-store"})


# --- errors ------------------------------------------------------------------------------


def _wants_json(request: Request) -> bool:
    path = request.url.path
    return path.startswith(("/api/", "/events/", "/plot/", "/share/"))


def problem(request: Request, status: int, message: str) -> Response:
    if _wants_json(request):
        return JSONResponse({"error": message}, status_code=status)
    html = site_of(request).template("problem.html", message=message, status=status,
                                     keeper=False, viewer=False, path=request.url.path)
    return HTMLResponse(html, status_code=status)


async def on_refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    return problem(request, exc.status, exc.message)


async def on_ledger_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, LedgerError)
    return problem(request, 503 if isinstance(exc, StoreError) else 400, str(exc))


async def on_too_large(request: Request, exc: Exception) -> Response:
    limit = site_of(request).cfg.body_limit
    return problem(request, 413, f"the request body is larger than {limit} bytes")


async def on_http(request: Request, exc: Exception) -> Response:
    from starlette.exceptions import HTTPException

    assert isinstance(exc, HTTPException)
    return problem(request, exc.status_code, str(exc.detail))


async def on_gone(request: Request, exc: Exception) -> Response:
    """The phone left before its request was complete: nothing was read, nothing written."""
    return Response(status_code=400)


async def on_crash(request: Request, exc: Exception) -> Response:
    return problem(request, 500, "internal error; nothing half-written is kept")


# --- middleware ----------------------------------------------------------------------


class Guard:
    """Outermost layer: body size limit, allowed Host names, security headers."""

    def __init__(self, app: Starlette, limit: int, hosts: list[str] | None) -> None:
        self.app = app
        self.starlette = app
        self.limit = limit
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        if self.hosts is not None and headers.get(b"host", b"").decode("latin-1") not in self.hosts:
            await _plain(send, 421, b'{"error": "unknown Host header; use the link bigtwo serve printed"}')
            return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            text = f'{{"error": "the request body is larger than {self.limit} bytes"}}'
            await _plain(send, 413, text.encode())
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise TooLarge()
            return message

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, limited, secured)


async def _plain(send: Send, status: int, body_bytes: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body_bytes)).encode()),
                            *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body_bytes})


# --- the app ------------------------------------------------------------------------------


def create_app(cfg: Config) -> Guard:
    """The ASGI app for ``cfg`` (tests use it with Starlette's TestClient)."""
    from starlette.exceptions import HTTPException

    site = Site(cfg)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        import asyncio

        feed = Feed(site.mark, site.render, cfg.poll)
        app.state.feed = feed
        feed.check()
        task = asyncio.create_task(feed.run())
        try:
            yield
        finally:
            feed.stop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            site.close()

    routes = [
        Route("/", live_page("scoreboard.html", "scoreboard")),
        Route("/entry", live_page("entry.html", "entry", keeper_only=True)),
        Route("/settle", live_page("settle.html", "settle")),
        Route("/start", start_page),
        Route("/history", history_page),
        Route("/history/session/{sid:int}", session_page),
        Route("/history/player/{name:str}", player_page),
        Route("/plot/{kind:str}.{fmt:str}", plot_image),
        Route("/share/settle.png", share_png),
        Route("/share/settle.txt", share_text),
        Route("/events/{view:str}", live_events),
        Route("/api/session", api_read(lambda site, ledger, s: data.session_json(ledger, s))),
        Route("/api/standings", api_read(lambda site, ledger, s: data.standings_json(ledger, s))),
        Route("/api/settle", api_read(lambda site, ledger, s: data.settle_json(ledger, s))),
        Route("/api/log", api_read(lambda site, ledger, s: reports.log_dicts(ledger, s))),
        Route("/api/sessions", api_sessions),
        Route("/api/events", api_events),
        Route("/api/preview", api_preview, methods=["POST"]),
        Route("/api/deal", api_write(_deal), methods=["POST"]),
        Route("/api/amend", api_write(_amend), methods=["POST"]),
        Route("/api/void", api_write(_void), methods=["POST"]),
        Route("/api/undo", api_write(_undo), methods=["POST"]),
        Route("/api/session/start", api_write(_start), methods=["POST"]),
        Route("/api/session/end", api_write(_end), methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static", html=False), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            Refused: on_refused, LedgerError: on_ledger_error, TooLarge: on_too_large,
            HTTPException: on_http, ClientDisconnect: on_gone, Exception: on_crash,
        },
    )
    app.state.site = site
    return Guard(app, cfg.body_limit, cfg.allowed_hosts)


__all__ = ["Config", "create_app"]
