"""The HTML pages (scoreboard, entry, settle, history, a player's page), the plots and
the settlement's share image and text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)

from ledger.book import actions as book
from ledger.core.errors import InputError
from ledger.core.i18n import _, language
from ledger.storage.rows import SessionRow
from ledger.web import data
from ledger.web.auth import COOKIE, KEEPER, VIEWER
from ledger.web.site import Refused, need_read, session_number, site_of

# --- pages ----------------------------------------------------------------------------


def page_access(request: Request, keeper_only: bool = False) -> str | Response:
    """The visitor's level; or a redirect that swaps ``?t=TOKEN`` for the cookie."""
    token = request.query_params.get("t")
    if token is not None:
        found = site_of(request).cfg.tokens.level(token)
        if found is None:
            raise Refused(403, _("this link's token is wrong: use the link bigtwo serve printed"))
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "t"]
        target = request.url.path + ("?" + urlencode(rest) if rest else "")
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https", max_age=7 * 24 * 3600)
        return response
    found = need_read(request)
    if keeper_only and found != KEEPER:
        raise Refused(403, _("the viewer link is read-only: ask the scorekeeper to enter deals"))
    return found


def page(template: str, request: Request, who: str, /, **values: Any) -> HTMLResponse:
    from ledger.web.lang import words

    site = site_of(request)
    html = site.template(template, keeper=who == KEEPER, viewer=who == VIEWER, path=request.url.path,
                         words=words(), **values)
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
                    values["live"] = site.render(view, language())["html"]
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
    from ledger.book.scope import select

    site = site_of(request)

    def work() -> list[Any]:
        with site.reading() as ledger:
            if not ledger.journal.session_ids():
                return []
            scope = select(ledger, None, True, default_all=True)
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
    from ledger.book.scope import select

    site = site_of(request)
    name = request.path_params["name"]

    def work() -> dict[str, Any]:
        with site.reading() as ledger:
            scope = select(ledger, None, True, player=name, default_all=True)
            st = stats.build(ledger, scope, name)
            rows = list(reversed(stats.history(ledger, scope)))
            line = next((p for p in st.players if p.name == name), None)
            return {"name": name, "st": st, "line": line, "rows": rows,
                    "money_text": money_text}

    return page("player.html", request, who, **await run_in_threadpool(work))


def query_session(request: Request) -> int | None:
    sid = request.query_params.get("session")
    if sid is None:
        return None
    return session_number(sid)


async def plot_image(request: Request) -> Response:
    """A chart drawn by matplotlib in the drawing process (ledger/web/drawing.py), never
    in this one: the writes do not wait behind it."""
    need_read(request)
    from ledger.present.plots import KINDS  # matplotlib is imported only in the drawing process
    from ledger.web.drawing import plot_job

    kind, fmt = request.path_params["kind"], request.path_params["fmt"]
    if kind not in KINDS:
        raise InputError(_("unknown plot kind {kind!r}; choose from {kinds}").format(
            kind=kind, kinds=", ".join(KINDS)))
    if fmt not in ("svg", "png"):
        raise InputError(_("plots are served as .svg or .png, not .{fmt}").format(fmt=fmt))
    site = site_of(request)
    site.check_file()
    content = await site.drawer.draw(plot_job, site.cfg.db, site.cfg.identity, language(),
                                     query_session(request), request.query_params.get("player"),
                                     kind, fmt)
    media = "image/svg+xml" if fmt == "svg" else "image/png"
    return Response(content, media_type=media, headers={"cache-control": "no-store"})


async def share_png(request: Request) -> Response:
    need_read(request)
    from ledger.web.drawing import card_job

    site = site_of(request)
    sid = query_session(request)
    if sid is None:
        def current() -> int:
            with site.reading() as ledger:
                return site.session(ledger).id

        sid = await site.run_read(current)
    else:
        site.check_file()
    content = await site.drawer.draw(card_job, site.cfg.db, site.cfg.identity, language(), sid)
    return Response(content, media_type="image/png",
                    headers={"cache-control": "no-store",
                             "content-disposition": 'inline; filename="bigtwo-settle.png"'})


async def share_text(request: Request) -> Response:
    need_read(request)
    site = site_of(request)

    sid = query_session(request)

    def work() -> str:
        with site.reading() as ledger:
            return data.board(ledger, site.session(ledger, sid)).settle_text()

    return PlainTextResponse(await run_in_threadpool(work), headers={"cache-control": "no-store"})


