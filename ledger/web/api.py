"""The JSON API and the live feeds: reads return the same JSON as the command line's
``--json``; every write calls one ``ledger.book`` action in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    JSONResponse,
    Response,
    StreamingResponse,
)

from ledger.core import i18n
from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import _
from ledger.engine import dispatch as engine
from ledger.web.auth import KEEPER
from ledger.web.feed import Feed
from ledger.web.site import Refused, body, need_read, need_write, session_number, site_of

# --- the engine's ops over HTTP ------------------------------------------------------------

NOT_ARGS = ("lang", "t")  # the page's language and link token travel in the query too


def op_args(request: Request, op: engine.Op | None = None) -> dict[str, Any]:
    """A read's arguments from its query, as the op declares them: a number
    (``session=3``, full-width digits too) as a number; anything else as typed."""
    numbers = {"session"} if op is None else {
        p.name for p in op.params if p.kind in ("int", "session")}
    out: dict[str, Any] = {}
    for k, v in request.query_params.items():
        if k not in NOT_ARGS:
            if k == "session":  # read as typed (full-width digits too); else a 400
                out[k] = session_number(v)
            elif k in numbers and v.isascii() and v.isdigit() and len(v) < 19:
                out[k] = int(v)
            else:
                out[k] = v
    return out


async def api_op(request: Request) -> Response:
    """``GET /api/<op>?session=ID…`` for the engine's reads, ``POST /api/<op>`` with a
    JSON body and an ``Idempotency-Key`` header for its writes (docs/serve.md): every op
    declared in ledger/engine/ops.py, read or write as it is declared."""
    name = request.path_params["op"]
    if name not in engine.OPS:
        raise Refused(404, _("no op {op!r}; the ops are: {ops}").format(
            op=name, ops=", ".join(engine.OPS)))
    op = engine.OPS[name]
    site = site_of(request)
    if not op.write:
        if request.method != "GET":
            raise Refused(405, _("{op} is a read: GET /api/{op}?session=ID").format(op=name))
        level = need_read(request)
        args = op_args(request, op)
        if name == "settle":  # pay ids are the scorekeeper's alone, never a viewer's
            args["pay_codes"] = level == KEEPER
        if name == "export" and level != KEEPER:  # a sync's pay ids: the scorekeeper's devices only
            args.pop("pay_ids", None)

        def read() -> bytes:  # the answer's bytes, as JSONResponse writes them, made once
            with site.reading() as ledger:
                answer = op.call(ledger, args)
            return json.dumps(answer, ensure_ascii=False, allow_nan=False, indent=None,
                              separators=(",", ":")).encode("utf-8")

        feed: Feed = request.app.state.feed
        question = ("read", name, json.dumps(args, sort_keys=True, default=str), i18n.language())
        return Response(await feed.current(question, read, site.run_read), media_type="application/json")
    if request.method != "POST":
        raise Refused(405, _("{op} is a write: POST /api/{op} with an Idempotency-Key header").format(
            op=name))
    need_write(request)
    values = await body(request)
    key = request.headers.get("idempotency-key")
    if key is None and "key" not in values:
        raise InputError(_("a write needs an Idempotency-Key header: a new uuid for each action, "
                           "the same one when it is sent again"))
    if key is not None:
        if "key" in values and values["key"] != key:
            raise InputError(_('the body\'s "key" and the Idempotency-Key header differ'))
        values["key"] = key.strip().strip('"')

    def write() -> Any:
        with site.writing() as ledger:
            return op.call(ledger, values)

    result = await run_in_threadpool(write)
    request.app.state.feed.poke()
    return JSONResponse(result)


async def api_events(request: Request) -> Response:
    """The live feed (server-sent events; docs/serve.md, "The live feed").

    ``?session=ID``: a ``change`` event ``{"version", "session", "board"}`` with that
    session's board (the ``board`` op's JSON) now and at every change of it — built once
    per change however many phones listen, and the same bytes for each.  Without a
    session: ``{"version", "last_entry_id"}`` at every change of the ledger (the table
    picker's cue).  Either ends with a ``problem`` event ``{"status", "message"}`` when the
    ledger is moved away.  The token travels as a header: the app reads the stream with
    ``fetch``, not ``EventSource`` (which sends no headers)."""
    need_read(request)
    site = site_of(request)
    site.check_file()
    feed: Feed = request.app.state.feed
    args = op_args(request)
    extra = sorted(set(args) - {"session"})
    if extra:
        raise InputError(_("{op} does not take {names}; it takes: {allowed}").format(
            op="events", names=", ".join(extra), allowed="session"))
    session = args.get("session")
    if session is not None:
        if isinstance(session, str):
            raise InputError(_("session {sid!r} is not a session number").format(sid=session))

        def exists() -> None:
            with site.reading() as ledger:
                engine.call(ledger, "session", {"session": session})  # 404 before the stream

        await site.run_read(exists)
    return sse(events(request, site, feed, session))


def problem_event(site: Any, feed: Feed) -> bytes | None:
    mark = feed.mark or ()
    if not (mark and mark[0] == "moved"):
        return None
    found = site.moved()
    message = mark[1] if found is None else site.moved_message(found)
    text = json.dumps({"status": 503, "message": message, "error": message}, ensure_ascii=False)
    return f"event: problem\ndata: {text}\n\n".encode()


async def events(request: Request, site: Any, feed: Feed, session: int | None) -> AsyncIterator[bytes]:
    seen = -1
    sent: str | None = None
    yield b"retry: 1000\n\n"
    while not feed.stopping:
        if feed.version != seen:
            seen = feed.version
            gone = problem_event(site, feed)
            if gone is not None:  # the ledger is gone: say why, then stop
                yield gone
                return
            if session is None:
                payload = json.dumps({"version": seen, "last_entry_id": (feed.mark or (None,))[0]})
                yield f"event: change\nid: {seen}\ndata: {payload}\n\n".encode()
                continue
            try:
                seen, board = await feed.shared(("board", session), lambda: board_text(site, session),
                                                site.run_read)
            except LedgerError as exc:
                found = engine.error_dict(exc)
                text = json.dumps({**found, "error": found["message"]}, ensure_ascii=False)
                yield f"event: problem\ndata: {text}\n\n".encode()
                return
            if board != sent:  # another table's change leaves this one's phones alone
                sent = board
                yield (f'event: change\nid: {seen}\ndata: {{"version":{seen},"session":{session},'
                       f'"board":{board}}}\n\n').encode()
        elif not await feed.wait(seen):
            if await request.is_disconnected():
                return
            yield b": ping\n\n"


def board_text(site: Any, session: int) -> str:
    """The board of ``session`` as compact JSON (in a read thread)."""
    with site.reading() as ledger:
        board = engine.call(ledger, "board", {"session": session})
    return json.dumps(board, ensure_ascii=False, separators=(",", ":"))


def sse(stream: AsyncIterator[bytes]) -> StreamingResponse:
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"cache-control": "no-store", "x-accel-buffering": "no"})
