"""The server-drawn downloads: charts (``/plot/KIND.svg|png``) and the settlement's
share picture and text (``/share/settle.png``, ``/share/settle.txt``), for scripts and
the command line's kind of use; the phone app draws its own from the engine's JSON.
And ``POST /qr``: a payment code's QR module matrix for the scorekeeper's phone.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from ledger.core.errors import InputError
from ledger.core.i18n import _, language
from ledger.web.site import body, need_read, need_write, session_number, site_of


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
    session, player, lang = query_session(request), request.query_params.get("player"), language()

    async def draw() -> bytes:
        drawn: bytes = await site.drawer.draw(plot_job, site.cfg.db, site.cfg.identity, lang,
                                              session, player, kind, fmt)
        return drawn

    # Drawn once per change of the ledger however many phones ask (the feed's version).
    feed = request.app.state.feed
    content = await feed.current(("plot", kind, fmt, session, player, lang), draw,
                                 lambda build: build())
    media = "image/svg+xml" if fmt == "svg" else "image/png"
    return Response(content, media_type=media, headers={"cache-control": "no-store"})


async def share_png(request: Request) -> Response:
    need_read(request)
    from ledger.web.drawing import card_job

    site = site_of(request)
    sid = query_session(request)
    if sid is None:
        sid = await site.run_read(site.current_id)
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
        from ledger.book import reports
        from ledger.present.share import chat_text

        with site.reading() as ledger:
            return chat_text(reports.settle(ledger, [site.session(ledger, sid)]))

    return PlainTextResponse(await site.run_read(work), headers={"cache-control": "no-store"})


async def qr_rows(request: Request) -> Response:
    """``POST /qr`` with ``{"text": PAYLOAD}``: ``{"rows": ["0110…", …]}``, the QR code's
    modules (1 dark, quiet zone included) for the phone to draw, by the drawing the offline
    app's engine uses too (:func:`ledger.present.qr.pay_code_rows`).  The scorekeeper's
    token only (a payload carries a pay id), the payload in the body (never in an
    address a log keeps); nothing is read from the ledger."""
    need_write(request)
    from ledger.present.qr import pay_code_rows

    return JSONResponse(pay_code_rows((await body(request)).get("text")),
                        headers={"cache-control": "no-store"})
