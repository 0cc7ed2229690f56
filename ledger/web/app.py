"""The ASGI application: pages, JSON API, live feed, security.

Every request opens the ledger the way the command line does (``open_ledger``) and
every write calls one ``ledger.book`` action: the same checks, the same single
``BEGIN IMMEDIATE`` transaction, the same error messages.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    Response,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from ledger.book import reports
from ledger.core.errors import LedgerError, StoreError
from ledger.web import data
from ledger.web.api import (
    amend_deal,
    api_events,
    api_preview,
    api_read,
    api_sessions,
    api_write,
    end_session_action,
    live_events,
    record_deal,
    start_session_action,
    undo_last,
    void_deal,
)
from ledger.web.feed import Feed
from ledger.web.pages import (
    history_page,
    live_page,
    player_page,
    plot_image,
    session_page,
    share_png,
    share_text,
    start_page,
)
from ledger.web.site import HERE, SECURITY_HEADERS, Config, Refused, Site, TooLarge, site_of

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
        Route("/api/deal", api_write(record_deal), methods=["POST"]),
        Route("/api/amend", api_write(amend_deal), methods=["POST"]),
        Route("/api/void", api_write(void_deal), methods=["POST"]),
        Route("/api/undo", api_write(undo_last), methods=["POST"]),
        Route("/api/session/start", api_write(start_session_action), methods=["POST"]),
        Route("/api/session/end", api_write(end_session_action), methods=["POST"]),
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


__all__ = ["create_app"]
