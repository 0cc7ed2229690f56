"""The ASGI application: the phone app, its JSON API and live feed, security.

Every request opens the ledger the way the command line does (``open_ledger``) and
every write calls one ``ledger.book`` action: the same checks, the same single
``BEGIN IMMEDIATE`` transaction, the same error messages.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from ledger.core import i18n
from ledger.core.errors import LedgerError
from ledger.engine import lang as lang_
from ledger.web.api import api_events, api_op
from ledger.web.downloads import plot_image, qr_rows, share_png, share_text
from ledger.web.feed import Feed
from ledger.web.shell import api_access, api_words, app_page, old_page
from ledger.web.site import (
    HERE,
    IMPORT_BODY_LIMIT,
    SECURITY_HEADERS,
    Config,
    Refused,
    Site,
    TooLarge,
    site_of,
)

# --- errors ------------------------------------------------------------------------------


def problem(request: Request, status: int, message: str) -> Response:
    """Every refusal and error as JSON (the app shows ``message``, in its language)."""
    return JSONResponse(error_body(status, message), status_code=status)


async def on_refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    return problem(request, exc.status, exc.message)


async def on_ledger_error(request: Request, exc: Exception) -> Response:
    from ledger.engine.dispatch import error_dict

    assert isinstance(exc, LedgerError)
    found = error_dict(exc)
    return problem(request, found["status"], found["message"])


async def on_too_large(request: Request, exc: Exception) -> Response:
    limit = IMPORT_BODY_LIMIT if request.url.path == "/api/import" else site_of(request).cfg.body_limit
    return problem(request, 413, too_large(limit))


async def on_http(request: Request, exc: Exception) -> Response:
    from starlette.exceptions import HTTPException

    assert isinstance(exc, HTTPException)
    known = HTTP_WORDS.get(exc.status_code)
    return problem(request, exc.status_code, i18n._(known) if known else str(exc.detail))


HTTP_WORDS = {404: i18n.N_("there is no such page here"),
              405: i18n.N_("this address does not take that kind of request")}


async def on_gone(request: Request, exc: Exception) -> Response:
    """The phone left before its request was complete: nothing was read, nothing written."""
    return Response(status_code=400)


async def on_crash(request: Request, exc: Exception) -> Response:
    return problem(request, 500, i18n._("internal error; nothing half-written is kept"))


# --- middleware ----------------------------------------------------------------------


class Guard:
    """Outermost layer: the request's language, body size limit, allowed Host names,
    security headers."""

    def __init__(self, app: Starlette, limit: int, hosts: list[str] | None, lang: str) -> None:
        self.app = app
        self.starlette = app  # the server reaches the site and the feed through it
        self.limit = limit
        self.hosts = hosts
        self.lang = lang  # the server's: when neither the page nor the browser chooses

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        asked, lang = self.language(scope, headers)
        with i18n.using(lang):
            await self.answer(scope, receive, send, headers, asked, lang)

    def language(self, scope: Scope, headers: dict[bytes, bytes]) -> tuple[str | None, str]:
        """(the ``?lang=`` given, or None; the request's language)."""
        from urllib.parse import parse_qs

        from starlette.requests import cookie_parser

        raw_query: bytes = scope.get("query_string", b"")
        # Parsed only when they can hold a choice: most requests (the readers' hundreds
        # a second) carry neither.
        query = parse_qs(raw_query.decode("latin-1")).get("lang") if (
            b"lang" in raw_query or b"%" in raw_query) else None
        asked = query[-1] if query else None
        raw_cookie = headers.get(b"cookie", b"")
        cookie = (cookie_parser(raw_cookie.decode("latin-1")).get(lang_.COOKIE)
                  if lang_.COOKIE.encode() in raw_cookie else None)
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        return asked, lang_.negotiate(asked, cookie, accept, self.lang)

    async def answer(self, scope: Scope, receive: Receive, send: Send, headers: dict[bytes, bytes],
                     asked: str | None, lang: str) -> None:
        _ = i18n._
        if self.hosts is not None and headers.get(b"host", b"").decode("latin-1") not in self.hosts:
            await _plain(send, 421, _("unknown Host header; use the link bigtwo serve printed"))
            return
        if asked is not None and lang_.known(asked) is None:
            await self.refuse_language(scope, send, asked)
            return
        limit = IMPORT_BODY_LIMIT if scope.get("path") == "/api/import" else self.limit
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _plain(send, 413, too_large(limit))
            return
        extra = [(b"content-language", lang_.HTML_LANG[lang].encode()),
                 (b"vary", b"Accept-Language, Cookie")]
        if asked is not None:  # remembered for the next pages and the page's API calls
            extra.append((b"set-cookie", (
                f"{lang_.COOKIE}={lang}; Path=/; Max-Age={lang_.COOKIE_AGE}; SameSite=Lax"
            ).encode()))
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise TooLarge()
            return message

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                own = list(message.get("headers", []))
                policy = [v for k, v in own if k == OFFLINE_CSP_HEADER]
                if policy:  # the offline site: its policy instead of the hub's
                    own = [(k, v) for k, v in own if k != OFFLINE_CSP_HEADER]
                    safe = [(k, v) for k, v in SECURITY_HEADERS if k.lower() != b"content-security-policy"]
                    message["headers"] = [*own, *safe, (b"content-security-policy", policy[0]), *extra]
                else:
                    message["headers"] = own + SECURITY_HEADERS + extra
            await send(message)

        await self.app(scope, limited, secured)

    async def refuse_language(self, scope: Scope, send: Send, asked: str) -> None:
        """A ``?lang=`` we do not speak: a 400 saying which we do."""
        await _plain(send, 400, lang_.bad_language(asked))


def too_large(limit: int) -> str:
    return i18n._("the request body is larger than {limit} bytes").format(limit=limit)


def error_body(status: int, message: str) -> dict[str, Any]:
    """An error as JSON: the engine's ``{"status", "message"}``, and ``error`` (the same
    message) for the scripts written before."""
    return {"status": status, "message": message, "error": message}


async def _plain(send: Send, status: int, message: str) -> None:
    body_bytes = json.dumps(error_body(status, message), ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body_bytes)).encode()),
                            *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body_bytes})


async def offline_site(request: Request) -> Response:
    """The offline phone app (``bigtwo app build``'s site, docs/offline.md) at ``/app/``,
    for this laptop's browser (loopback is a secure context); its own content security
    policy, which allows the WebAssembly its engine runs."""
    from starlette.exceptions import HTTPException
    from starlette.responses import RedirectResponse

    from ledger.web import offline

    if "path" not in request.path_params:
        return RedirectResponse("/app/", status_code=308)
    rel = request.path_params["path"] or "index.html"
    files = offline.served()
    if rel not in files:
        raise HTTPException(404)
    return Response(files[rel], media_type=offline.content_type(rel),
                    headers={"cache-control": "no-cache", OFFLINE_CSP: offline.CSP})


OFFLINE_CSP = "x-bigtwo-offline-csp"  # Guard swaps it for its own content-security-policy
OFFLINE_CSP_HEADER = OFFLINE_CSP.encode()


# --- the app ------------------------------------------------------------------------------


def create_app(cfg: Config) -> Any:
    """The ASGI app for ``cfg`` (tests use it with Starlette's TestClient)."""
    from starlette.exceptions import HTTPException

    site = Site(cfg)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        import asyncio

        feed = Feed(site.mark, cfg.poll)
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
            site.shutdown()

    routes = [
        Route("/", app_page),
        Route("/api/words", api_words),
        Route("/api/access", api_access),
        # The old pages' addresses (bookmarks, old QR codes): on to the app's screens.
        Route("/entry", app_page),  # the scorekeeper link bigtwo serve prints
        Route("/settle", old_page("settle")),
        Route("/start", old_page("#/start")),
        Route("/history", old_page("#/history")),
        Route("/history/session/{sid:int}", old_page("session")),
        Route("/history/player/{name:path}", old_page("player")),  # any name, AC/DC too
        Route("/plot/{kind:str}.{fmt:str}", plot_image),
        Route("/share/settle.png", share_png),
        Route("/share/settle.txt", share_text),
        Route("/qr", qr_rows, methods=["POST"]),
        Route("/api/events", api_events),
        Route("/api/{op:str}", api_op, methods=["GET", "POST"]),
        Route("/app", offline_site),
        Route("/app/{path:path}", offline_site),
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
    guarded = Guard(app, cfg.body_limit, cfg.allowed_hosts, cfg.lang or i18n.language())
    if cfg.origins:  # the offline app's origin may call the API (ledger/web/cors.py)
        from ledger.web.cors import Cors

        return Cors(guarded, cfg.origins)
    return guarded


__all__ = ["create_app"]
