"""The phone app's shell: its page (one static file; every screen is drawn by the app
from the engine's JSON), the words it shows in the request's language, the access
level of the token it holds, and the old pages' addresses sent on to its screens.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from ledger.core.errors import LedgerError
from ledger.web.site import HERE, need_read, site_of

APP = HERE / "static" / "app"


@lru_cache(maxsize=1)
def hub_page() -> bytes:
    """The app's page as the hub serves it: every module of the first screen named
    (``modulepreload``: the hub's engine and what the page imports), so a phone fetches
    them side by side instead of one level of imports after the other."""
    from ledger.web.offline import preloads, start_modules

    page = (APP / "index.html").read_text(encoding="utf-8")
    main = '<script type="module" src="/static/app/main.js"></script>'
    preload = preloads("/static/app/", start_modules(engine="engine-hub.js"))
    return page.replace(main, preload + main, 1).encode()


async def app_page(request: Request) -> Response:
    """The app itself: the same page for the scorekeeper's and the viewers' links (the
    token in the link is kept by the app and sent as a header, never as a cookie)."""
    return Response(hub_page(), media_type="text/html; charset=utf-8",
                    headers={"cache-control": "no-cache"})


async def api_words(request: Request) -> Response:
    """``{"lang", "html_lang", "languages", "words"}``: the app's words in the request's
    language (``?lang=``, else the browser's Accept-Language, else the server's)."""
    from ledger.core import i18n
    from ledger.engine import lang

    here = i18n.language()
    return JSONResponse({"lang": here, "html_lang": lang.HTML_LANG.get(here, "en"),
                         "languages": lang.NATIVE, "words": lang.words()})


async def api_access(request: Request) -> Response:
    """``{"level": "keeper" | "viewer"}`` of the token the request carries."""
    return JSONResponse({"level": need_read(request)})


def old_page(screen: str) -> Any:
    """An address of the server-rendered pages that came before the app (a bookmark, an
    old QR code): a redirect to the app's screen for it (``/settle`` →
    ``/#/t/3/settle``), the query kept, so a link's ``?t=TOKEN`` is still taken by the
    app (engine-hub.js ``keepToken``)."""

    async def endpoint(request: Request) -> Response:
        from urllib.parse import quote

        hash_ = screen
        if screen == "settle":
            site = site_of(request)
            try:
                hash_ = f"#/t/{await site.run_read(site.current_id)}/settle"
            except LedgerError:  # no session (or no ledger): the app's own first screen
                hash_ = ""
        elif screen == "session":
            hash_ = f"#/t/{request.path_params['sid']}/log"
        elif screen == "player":
            hash_ = "#/player/" + quote(request.path_params["name"], safe="")
        query = request.url.query
        return RedirectResponse("/" + ("?" + query if query else "") + hash_, status_code=303)

    return endpoint
