"""The phone app's shell: its page (one static file; every screen is drawn by the app
from the engine's JSON), the words it shows in the request's language, and the access
level of the token it holds.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from ledger.web.site import HERE, need_read

APP = HERE / "static" / "app"


async def app_page(request: Request) -> Response:
    """The app itself: the same page for the scorekeeper's and the viewers' links (the
    token in the link is kept by the app and sent as a header, never as a cookie)."""
    return FileResponse(APP / "index.html", media_type="text/html; charset=utf-8",
                        headers={"cache-control": "no-cache"})


async def api_words(request: Request) -> Response:
    """``{"lang", "html_lang", "languages", "words"}``: the app's words in the request's
    language (``?lang=``, else the browser's Accept-Language, else the server's)."""
    from ledger.core import i18n
    from ledger.web import lang

    here = i18n.language()
    return JSONResponse({"lang": here, "html_lang": lang.HTML_LANG.get(here, "en"),
                         "languages": lang.NATIVE, "words": lang.words()})


async def api_access(request: Request) -> Response:
    """``{"level": "keeper" | "viewer"}`` of the token the request carries."""
    return JSONResponse({"level": need_read(request)})
