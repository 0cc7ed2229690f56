"""The JSON API over Starlette's TestClient: the CLI's numbers and messages, auth, CSRF,
escaping, limits.  Nothing here scores a deal itself: results are compared with the CLI."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

import pytest
from web.conftest import start
from web.webhelpers import KEY, bearer, cli_json, ledger_bytes

from ledger.web.auth import COOKIE, Tokens, check_key, viewer_token

KEEP = bearer(KEY)
VIEW = bearer(viewer_token(KEY))
EVENING = [
    "陳大文=0 Ben=3 Cat=11 Dan=8",
    "陳=5 Ben=0 Cat=2 Dan=13",
    "陳大文=1 Ben=7 Cat=0 Dan=4 --assist Dan",
    "陳大文=10 Ben=6 Cat=9 Dan=0 --missed-call",
    "0 12 3 2",
]


def write(client, op: str, body: dict, headers=KEEP, key: str | None = None):
    """``POST /api/OP`` with a new idempotency key (or ``key``)."""
    return client.post(f"/api/{op}", json=body,
                       headers={**headers, "Idempotency-Key": key or str(uuid.uuid4())})


def deal(client, line: str, headers=KEEP, session: int = 1, key: str | None = None):
    return write(client, "record", {"session": session, "line": line}, headers, key)


def test_standings_and_settle_are_the_cli_json(client, db: Path, cli) -> None:
    for line in EVENING:
        assert deal(client, line).status_code == 200
    assert write(client, "amend", {"session": 1, "deal": 2, "line": "陳=5 Ben=0 Cat=3 Dan=13"}
                 ).status_code == 200
    assert write(client, "void", {"session": 1, "deal": 4}).status_code == 200
    for what in ("standings", "settle"):
        page = client.get(f"/api/{what}?session=1", headers=VIEW)
        assert page.status_code == 200
        assert page.json() == cli_json(db, what)
    assert client.get("/api/log?session=1", headers=VIEW).json()["entries"] == cli_json(db, "log")
    # Who deals next: the web's shortcut (count + last deal) agrees with every deal's facts.
    from ledger.book.actions import session_rules
    from ledger.core.dealer import next_turn_from_facts
    from ledger.storage.store import open_ledger

    with open_ledger(db) as ledger:
        s = ledger.journal.session(1)
        full = next_turn_from_facts(s.seats, session_rules(s),
                                    [e.facts for e in ledger.journal.live_deals(1)])
    assert client.get("/api/session?session=1", headers=VIEW).json()["next"]["text"] == full.describe()
    listed = cli_json(db, "session", "list")
    served = client.get("/api/sessions", headers=VIEW).json()["sessions"]
    assert [{k: s[k] for k in listed[0]} for s in reversed(served)] == listed


def test_a_deal_posted_is_the_deal_typed_in_the_cli(client, db: Path, tmp_path: Path) -> None:
    other = tmp_path / "typed.db"
    start(other)
    from web.webhelpers import bigtwo

    for line in EVENING:
        posted = deal(client, line)
        assert posted.status_code == 200, posted.text
        bigtwo(other, "deal", *line.split())
    for what in ("standings", "settle", "log"):
        web, typed = cli_json(db, what), cli_json(other, what)
        if what == "log":  # uuids and times differ; the facts and order do not
            web = [(e["deal"], e["kind"], e["facts"]) for e in web]
            typed = [(e["deal"], e["kind"], e["facts"]) for e in typed]
        assert web == typed
    recorded = deal(client, "Ben=0 陳大文=4 Cat=5 Dan=6").json()
    assert recorded["deal"] == 6 and recorded["kind"] == "deal"
    assert {p["name"]: p["net"] for p in recorded["players"]} == {
        "陳大文": -1, "Ben": 15, "Cat": -5, "Dan": -9}
    assert recorded["next"]["text"] == "next: Ben deals, Ben leads"  # classic: the winner deals


def test_preview_scores_without_writing(client, db: Path) -> None:
    before = ledger_bytes(db)
    preview = client.get("/api/preview", params={"session": 1, "line": EVENING[0]}, headers=KEEP)
    assert preview.status_code == 200
    assert ledger_bytes(db) == before
    recorded = deal(client, EVENING[0]).json()
    assert preview.json()["players"] == recorded["players"]


@pytest.mark.parametrize(
    ("payload", "cli_words"),
    [
        ({"line": "陳大文=0 Ben=3 Cat=11"}, ["陳大文=0", "Ben=3", "Cat=11"]),
        ({"line": "陳大文=0 Ben=3 Cat=11 Dan=8 --bogus"},
         ["陳大文=0", "Ben=3", "Cat=11", "Dan=8", "--bogus"]),
        ({"line": "Zed=0 Ben=3 Cat=11 Dan=8"}, ["Zed=0", "Ben=3", "Cat=11", "Dan=8"]),
        ({"line": "陳大文=0 Ben=0 Cat=11 Dan=8"}, ["陳大文=0", "Ben=0", "Cat=11", "Dan=8"]),
    ],
)
def test_bad_deal_is_400_with_the_cli_message_and_writes_nothing(
        client, db: Path, cli, payload: dict, cli_words: list[str]) -> None:
    before = ledger_bytes(db)
    answer = write(client, "record", {"session": 1, **payload})
    assert answer.status_code == 400
    assert ledger_bytes(db) == before
    message = cli.fails("--db", str(db), "deal", *cli_words)
    assert f"error: {answer.json()['error']}" == message.strip()


@pytest.mark.parametrize(
    "raw",
    [b"not json", b"[1, 2]", b'{"session": 1, "line": 5}', b'{"session": 1, "nothing": "here"}',
     b'{"session": 1, "line": "\\u0000"}', b'{"session": 1, "line": "' + b"x" * 3000 + b'"}',
     b'{"line": "0 1 2 3"}', b'{"session": "1", "line": "0 1 2 3"}'],
)
def test_malformed_bodies_are_400(client, db: Path, raw: bytes) -> None:
    before = ledger_bytes(db)
    answer = client.post("/api/record", content=raw, headers={
        **KEEP, "content-type": "application/json", "Idempotency-Key": str(uuid.uuid4())})
    assert answer.status_code == 400
    assert set(answer.json()) == {"status", "message", "error"} and answer.json()["message"]
    assert ledger_bytes(db) == before


def test_bad_void_amend_undo_are_refused_by_type(client, db: Path) -> None:
    before = ledger_bytes(db)
    assert write(client, "undo", {"session": 1}).json()["message"] == (
        "nothing to undo: session 1 has no deals yet")
    assert write(client, "void", {"session": 1, "deal": 3}).status_code == 404
    assert write(client, "void", {"session": 1, "deal": "3"}).status_code == 400
    assert write(client, "amend", {"session": 1, "deal": 1}).status_code == 400
    assert ledger_bytes(db) == before


def test_a_session_that_is_not_there_is_404_without_the_command_lines_advice(
        client, db: Path, cli) -> None:
    answer = client.get("/api/session?session=999", headers=VIEW)
    assert answer.status_code == 404
    assert answer.json()["error"] == "no session 999 in this ledger"  # no command-line advice
    assert answer.json()["status"] == 404
    assert cli.fails("--db", str(db), "standings", "--session", "999").strip() == (
        "error: no session 999 in this ledger; see: bigtwo session list")  # the CLI's advice
    assert client.get("/api/log?session=999", headers=VIEW).status_code == 404


def test_writes_need_the_scorekeeper_token(client, db: Path) -> None:
    before = ledger_bytes(db)
    assert deal(client, EVENING[0], headers={}).status_code == 401
    assert deal(client, EVENING[0], headers=VIEW).status_code == 403
    assert deal(client, EVENING[0], headers=bearer("x" * 24)).status_code == 403
    assert deal(client, EVENING[0], headers={"Authorization": "Basic abc"}).status_code == 401
    for op in ("undo", "end", "start", "reopen", "void", "amend"):
        assert write(client, op, {"session": 1}, headers=VIEW).status_code == 403
    assert ledger_bytes(db) == before


def test_the_app_page_carries_no_data(client) -> None:
    """``/`` and ``/entry`` are the phone app's one static page for every link: the
    ledger's data comes only through the API, with a token."""
    assert deal(client, EVENING[0]).status_code == 200
    for path in ("/", "/entry", f"/entry?t={KEY}"):
        page = client.get(path)
        assert page.status_code == 200 and "陳大文" not in page.text, path
        assert '<script type="module" src="/static/app/main.js">' in page.text


def test_reads_need_a_token(client) -> None:
    for path in ("/api/standings?session=1", "/api/settle?session=1", "/api/session?session=1",
                 "/api/log?session=1", "/api/board?session=1", "/api/sessions", "/api/access", "/settle",
                 "/history", "/share/settle.txt"):
        assert client.get(path).status_code == 401, path
        assert client.get(path, headers=VIEW).status_code == 200, path
    assert client.get("/api/access", headers=VIEW).json() == {"level": "viewer"}
    assert client.get("/api/access", headers=KEEP).json() == {"level": "keeper"}
    assert client.get("/events/entry", headers=VIEW).status_code == 403


def test_link_token_becomes_a_strict_httponly_cookie(client) -> None:
    answer = client.get(f"/settle?t={KEY}", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/settle"
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert client.get("/settle?t=wrong-token-000000000", follow_redirects=False).status_code == 403


def test_cookie_writes_need_this_servers_origin(client, db: Path) -> None:
    client.get(f"/settle?t={KEY}")
    before = ledger_bytes(db)
    assert deal(client, EVENING[0], headers={}).status_code == 403  # no Origin
    assert deal(client, EVENING[0], headers={"origin": "http://evil.example"}).status_code == 403
    assert ledger_bytes(db) == before
    answer = deal(client, EVENING[0], headers={"origin": "http://testserver"})
    assert answer.status_code == 200 and answer.json()["deal"] == 1
    client.cookies.clear()
    client.get(f"/settle?t={viewer_token(KEY)}")
    assert deal(client, EVENING[1], headers={"origin": "http://testserver"}).status_code == 403


def test_body_limit(client, db: Path) -> None:
    before = ledger_bytes(db)
    big = json.dumps({"line": EVENING[0], "pad": "x" * 20000})
    answer = client.post("/api/record", content=big, headers={**KEEP, "content-type": "application/json"})
    assert answer.status_code == 413 and "larger than" in answer.json()["error"]

    def chunks():  # no Content-Length: counted as it arrives
        yield big[:10000].encode()
        yield big[10000:].encode()

    answer = client.post("/api/record", content=chunks(), headers=KEEP)
    assert answer.status_code == 413
    assert ledger_bytes(db) == before


def test_session_name_is_shown_as_text(ledger_path: Path) -> None:
    from starlette.testclient import TestClient

    from ledger.web.app import create_app
    from ledger.web.site import Config

    start(ledger_path, name="<script>alert(1)</script>", players=["<b>x</b>", "Ben", "Cat", "Dan"])
    app = create_app(Config(db=str(ledger_path), tokens=Tokens.from_key(KEY)))
    with TestClient(app) as c:
        assert deal(c, "'<b>x</b>'=0 Ben=3 Cat=11 Dan=8").status_code == 200
        for path in ("/settle", "/history", "/history/session/1"):
            html = c.get(path, headers=KEEP).text
            assert "<script>alert" not in html and "<b>x</b>" not in html, path
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        with c.stream("GET", "/events/scoreboard", headers=VIEW) as events:
            for line in events.iter_lines():
                if line.startswith("data:"):
                    html = json.loads(line[5:])["html"]
                    break
        assert "&lt;script&gt;" in html and "<script>" not in html


def test_security_headers_and_no_directory_listing(client) -> None:
    page = client.get("/", headers=VIEW)
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    for path in ("/static/", "/static", "/static/../app.py", "/static/%2e%2e/app.py", "/templates/"):
        assert client.get(path, headers=VIEW).status_code == 404, path
    assert client.get("/static/app.css").status_code == 200


def test_unknown_host_is_refused(db: Path) -> None:
    from starlette.testclient import TestClient

    from ledger.web.app import create_app
    from ledger.web.site import Config

    app = create_app(Config(db=str(db), tokens=Tokens.from_key(KEY), allowed_hosts=["127.0.0.1:8000"]))
    with TestClient(app, base_url="http://rebound.example:8000") as c:
        assert c.get("/api/standings?session=1", headers=VIEW).status_code == 421


def test_start_and_end_a_session(client, db: Path, cli) -> None:
    started = write(client, "start", {
        "players": "李小明,陳大文,Ann", "rules": "three-player", "stake": "2", "currency": "SGD",
        "name": "Saturday"})
    assert started.status_code == 200, started.text
    assert started.json()["id"] == 2 and started.json()["players"] == ["李小明", "陳大文", "Ann"]
    assert client.get("/api/session?session=2", headers=VIEW).json()["id"] == 2
    assert deal(client, "李小明=0 陳大文=4 Ann=9", session=2).status_code == 200
    assert write(client, "end", {"session": 2}).json()["ended_at"]
    ended = deal(client, "李小明=0 陳大文=4 Ann=9", session=2)
    assert ended.status_code == 409 and "ended" in ended.json()["error"]
    reopened = write(client, "reopen", {"session": 2})
    assert reopened.status_code == 200 and reopened.json()["ended_at"] is None
    assert deal(client, "李小明=0 陳大文=4 Ann=9", session=2).json()["deal"] == 2
    bad = write(client, "start", {"players": "Ann,Ann,Ben"})
    assert bad.status_code == 400
    assert bad.json()["error"] == cli.fails("session", "start", "--players", "Ann,Ann,Ben")[7:].strip()
    bad = write(client, "start", {"players": "Ann,Ben", "stake": "-1"})
    assert bad.status_code == 400 and "stake" in bad.json()["error"]
    assert cli_json(db, "session", "list")[-1]["id"] == 2


def test_a_replaced_ledger_stops_writes(client, db: Path, tmp_path: Path) -> None:
    assert deal(client, EVENING[0]).status_code == 200
    copy = tmp_path / "other.db"
    start(copy, name="elsewhere")
    shutil.copy(copy, tmp_path / "swap.db")
    os.replace(tmp_path / "swap.db", db)
    before = ledger_bytes(db)
    answer = deal(client, EVENING[1])
    assert answer.status_code == 503 and "replaced" in answer.json()["error"]
    assert ledger_bytes(db) == before


def test_token_rules() -> None:
    with pytest.raises(Exception, match="16 to 128"):
        check_key("short")
    with pytest.raises(Exception, match="16 to 128"):
        check_key("has spaces in it but long")
    tokens = Tokens.from_key(KEY)
    assert tokens.level(KEY) == "keeper"
    assert tokens.level(tokens.viewer) == "viewer"
    assert tokens.level(KEY + "x") is None and tokens.level("") is None
    assert KEY not in tokens.viewer


def test_a_ledger_replaced_after_the_check_is_still_refused(client, db: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The file swapped between the server's own look and the write: storage's check,
    inside the write transaction, still refuses it (against the file served at start)."""
    from helpers import file_digest

    from ledger.web.site import Site

    assert deal(client, EVENING[0]).status_code == 200
    other = tmp_path / "other.db"
    start(other, name="elsewhere")
    os.replace(other, db)
    monkeypatch.setattr(Site, "moved", lambda self: None)
    before = file_digest(db)
    answer = deal(client, EVENING[1])
    assert answer.status_code == 503 and "no longer the file" in answer.json()["error"]
    assert file_digest(db) == before


def move_away(db: Path, to: Path) -> None:
    """``mv l.db moved.db`` with its -wal and -shm, as a user tidying files would."""
    for suffix in ("", "-wal", "-shm"):
        if Path(str(db) + suffix).exists():
            os.replace(str(db) + suffix, str(to) + suffix)


READS = ["/api/standings?session=1", "/api/settle?session=1", "/api/session?session=1",
         "/api/log?session=1", "/api/board?session=1", "/api/sessions", "/api/preview?session=1&line=0",
         "/plot/net.svg", "/share/settle.txt", "/share/settle.png", "/events/scoreboard",
         "/api/events"]
PAGES = ["/settle", "/start", "/history", "/history/session/1"]


def test_a_ledger_moved_away_is_refused_and_never_recreated(client, db: Path, tmp_path: Path) -> None:
    """Reads as well as writes: 503 with the moved-file message, and no new empty
    ledger appears at the old path (a viewer's refresh used to create one)."""
    assert deal(client, EVENING[0]).status_code == 200
    assert client.get("/api/standings?session=1", headers=VIEW).status_code == 200
    move_away(db, tmp_path / "moved.db")
    for path in READS:
        answer = client.get(path, headers=VIEW)
        assert answer.status_code == 503, (path, answer.text)
        assert "is no longer the file this server opened" in answer.json()["error"], path
        assert not db.exists(), path
    client.cookies.set(COOKIE, KEY)
    for path in PAGES:
        answer = client.get(path)
        assert answer.status_code == 503 and "no longer the file this server opened" in answer.text, path
        assert "陳大文" not in answer.text, path  # no stale standings
    for op, body in [("record", {"session": 1, "line": EVENING[1]}), ("undo", {"session": 1})]:
        answer = write(client, op, body)
        path = op
        assert answer.status_code == 503, (path, answer.text)
        assert "is no longer the file this server opened" in answer.json()["error"], path
    assert not db.exists() and not Path(str(db) + "-wal").exists()
    assert cli_json(tmp_path / "moved.db", "standings")["players"]  # the moved file is intact


def test_the_live_feed_says_the_ledger_moved_and_stops(client, db: Path, tmp_path: Path) -> None:
    import asyncio
    import time

    from ledger.web.feed import Feed
    from ledger.web.site import Site

    site: Site = client.app.starlette.state.site
    feed: Feed = client.app.starlette.state.feed
    assert feed.mark is not None and feed.mark[0] != "moved"
    move_away(db, tmp_path / "moved.db")
    deadline = time.monotonic() + 10
    while feed.mark[0] != "moved" and time.monotonic() < deadline:  # the watcher polls
        time.sleep(0.05)
    assert feed.mark[0] == "moved" and "no longer the file this server opened" in feed.mark[1]
    view = site.render("scoreboard")
    assert "no longer the file this server opened" in view["error"]
    assert "no longer the file this server opened" in view["html"] and "陳大文" not in view["html"]
    assert not db.exists()

    async def listen() -> list[bytes]:
        """One page's stream over the same watcher: a problem event, then the end."""
        own = Feed(site.mark, site.render, 0.05)
        own.check()
        gone = asyncio.Event()
        messages = [m async for m in own.stream("scoreboard", lambda: asyncio.sleep(0, gone.is_set()))]
        own.stop()
        return messages

    messages = asyncio.run(asyncio.wait_for(listen(), 10))
    assert messages[-1].startswith(b"event: problem") and b"no longer the file" in messages[-1]
    assert not any(m.startswith(b"event: update") for m in messages)
