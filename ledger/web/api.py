"""The JSON API and the live feeds: reads return the same JSON as the command line's
``--json``; every write calls one ``ledger.book`` action in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    JSONResponse,
    Response,
    StreamingResponse,
)

from ledger.book import actions as book
from ledger.core import i18n
from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger
from ledger.web import data
from ledger.web.auth import KEEPER
from ledger.web.feed import Feed
from ledger.web.site import (
    Refused,
    Site,
    body,
    int_field,
    need_read,
    need_write,
    session_number,
    site_of,
    text_field,
)


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
            session_id = session_number(sid)

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


def record_deal(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    s = site.session(ledger)
    deal = parse_line(text_field(values, "line") or "", s)
    return recorded_json(ledger, s, book.record_deal(ledger, s, deal))


def amend_deal(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    s = site.session(ledger)
    number = int_field(values, "deal")
    deal = parse_line(text_field(values, "line") or "", s)
    return recorded_json(ledger, s, book.amend_deal(ledger, s, number, deal))


def void_deal(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    s = site.session(ledger)
    return recorded_json(ledger, s, book.void_deal(ledger, s, int_field(values, "deal")))


def undo_last(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    """Take back the last action of any kind (a deal, a fix, a void, the session's end).
    ``undo`` says what it was, as data (``action``, ``deal``, the facts as typed before
    and after) for the page to tell in its language; ``undone`` as the command line
    prints it, in English like every value of the API."""
    from ledger.core.deal_line import facts_text
    from ledger.present.text import undo_text

    s = site.session(ledger)
    undone = book.undo(ledger, s, session_start=False)
    out = ({"session": s.id, "kind": undone.action} if undone.recorded is None
           else recorded_json(ledger, s, undone.recorded))
    out["undo"] = {
        "action": undone.action, "session": undone.session.id, "deal": undone.deal_no,
        "line": facts_text(undone.facts, s.seats) if undone.facts else None,
        "back": facts_text(undone.restored, s.seats) if undone.restored else None,
    }
    with i18n.using("en"):
        out["undone"] = undo_text(undone)  # what was taken back, with its facts
    return out


def start_session_action(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
    from ledger.core.rules import load_preset
    from ledger.core.settlement import parse_currency, parse_stake

    players = text_field(values, "players") or ""
    seats = [p for p in players.replace("，", ",").split(",")]
    rules_name = text_field(values, "rules", required=False) or "classic"
    from ledger.core.rules import preset_names

    if rules_name not in preset_names():
        raise InputError(_("unknown rules {name!r}; the page offers the presets: {presets}").format(
            name=rules_name, presets=", ".join(preset_names())))
    rules = load_preset(rules_name)
    stake = parse_stake(text_field(values, "stake", required=False) or "1")
    currency = parse_currency(text_field(values, "currency", required=False) or "PTS")
    name = text_field(values, "name", required=False)  # the book checks its length
    teams = values.get("teams", False)
    if not isinstance(teams, bool):
        raise InputError(_('"teams" must be true or false'))
    s = book.start_session(ledger, seats, rules, stake, currency, name or None, teams)
    if site.session_id is not None:
        site.session_id = s.id  # the page follows the session it started
    return data.session_json(ledger, s)


def end_session_action(site: Site, ledger: Ledger, values: dict[str, Any]) -> Any:
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
    site = site_of(request)
    site.check_file()
    feed: Feed = request.app.state.feed

    async def stream() -> AsyncIterator[bytes]:
        seen = -1
        yield b"retry: 1000\n\n"
        while not feed.stopping:
            if feed.version != seen:
                seen = feed.version
                mark = feed.mark or ()
                if mark and mark[0] == "moved":  # the ledger is gone: say why, then stop
                    problem = site.moved()
                    message = mark[1] if problem is None else site.moved_message(problem)
                    text = json.dumps({"error": message}, ensure_ascii=False)
                    yield f"event: problem\ndata: {text}\n\n".encode()
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
        raise Refused(404, _("no live view {view!r}").format(view=view))
    if need_read(request) != KEEPER and view == "entry":
        raise Refused(403, _("the viewer link is read-only; the scorekeeper link can write"))
    site_of(request).check_file()  # a page opened after the move gets the 503 at once
    feed: Feed = request.app.state.feed
    return sse(feed.stream(view, request.is_disconnected, i18n.language()))


