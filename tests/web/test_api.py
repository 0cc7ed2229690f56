"""The JSON API over Starlette's TestClient: the CLI's numbers and messages, auth (no
cookie grants anything), limits.  Nothing here scores a deal itself: results are compared with the CLI."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

import pytest
from web.conftest import start
from web.webhelpers import KEY, bearer, cli_json, ledger_bytes

from ledger.web.auth import Tokens, check_key, viewer_token

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
    assert client.get("/api/log?session=1", headers=VIEW).json() == cli_json(db, "log")
    # Who deals next: the web's shortcut (count + last deal) agrees with every deal's facts.
    from ledger.book.actions import session_rules
    from ledger.core.dealer import next_turn_from_facts
    from ledger.storage.store import open_ledger

    with open_ledger(db) as ledger:
        s = ledger.journal.session(1)
        full = next_turn_from_facts(s.seats, session_rules(s),
                                    [e.facts for e in ledger.journal.live_deals(1)])
    assert client.get("/api/board?session=1", headers=VIEW).json()["next"]["text"] == full.describe()
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
                 "/api/log?session=1", "/api/board?session=1", "/api/sessions", "/api/access",
                 "/api/history", "/share/settle.txt"):
        assert client.get(path).status_code == 401, path
        assert client.get(path, headers=VIEW).status_code == 200, path
    assert client.get("/api/access", headers=VIEW).json() == {"level": "viewer"}
    assert client.get("/api/access", headers=KEEP).json() == {"level": "keeper"}


OLD_PAGES = [("/settle", "/#/t/1/settle"), ("/start", "/#/start"), ("/history", "/#/history"),
             ("/history/session/1", "/#/t/1/log"), ("/history/player/AC/DC", "/#/player/AC%2FDC"),
             ("/history/player/%E9%99%B3%E5%A4%A7%E6%96%87", "/#/player/%E9%99%B3%E5%A4%A7%E6%96%87")]


@pytest.mark.parametrize(("old", "screen"), OLD_PAGES)
def test_an_old_pages_address_lands_on_the_apps_screen(client, old: str, screen: str) -> None:
    """A bookmark of the pages before the app, or an old QR code: a redirect to the app's
    screen, the query kept (the app takes a link's ``?t=`` itself), no cookie, no data."""
    answer = client.get(old, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == screen, answer.headers
    assert "set-cookie" not in answer.headers and "陳大文" not in answer.text
    linked = client.get(f"{old}?t={KEY}&lang=en", follow_redirects=False)
    path, _, fragment = screen.partition("#")
    assert linked.headers["location"] == f"{path}?t={KEY}&lang=en#{fragment}"
    assert "bigtwo_token" not in linked.headers.get("set-cookie", "")
    for gone in ("/events/scoreboard", "/events/entry", "/static/app.css", "/static/entry.js",
                 "/static/live.js"):
        assert client.get(gone, headers=VIEW).status_code == 404, gone


def test_settle_with_no_session_lands_on_the_apps_first_screen(ledger_path: Path) -> None:
    from starlette.testclient import TestClient

    from ledger.storage.store import open_ledger
    from ledger.web.app import create_app
    from ledger.web.site import Config

    open_ledger(ledger_path).close()  # a ledger with no session yet
    with TestClient(create_app(Config(db=str(ledger_path), tokens=Tokens.from_key(KEY)))) as c:
        answer = c.get(f"/settle?t={KEY}", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/?t={KEY}"


@pytest.mark.parametrize("cookie", ["bigtwo_token", "token", "t"])
def test_no_cookie_grants_reads_or_writes(client, db: Path, cookie: str) -> None:
    """Cookies are not kept apart by port: a token in one, from whichever page set it,
    grants nothing, with or without this server's Origin; only the header does."""
    before = ledger_bytes(db)
    client.cookies.set(cookie, KEY)
    for origin in ({}, {"origin": "http://testserver"}, {"origin": "http://127.0.0.1:9"}):
        assert deal(client, EVENING[0], headers=origin).status_code == 401, origin
        assert client.get("/api/board?session=1", headers=origin).status_code == 401
    assert ledger_bytes(db) == before
    client.cookies.set(cookie, viewer_token(KEY))
    assert client.get("/api/access").status_code == 401
    assert deal(client, EVENING[0]).json()["deal"] == 1  # the header still writes


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
        for path in ("/api/board?session=1", "/api/history", "/api/sessions", "/share/settle.txt"):
            answer = c.get(path, headers=KEEP)  # data as data: JSON or plain text, never HTML
            assert answer.headers["content-type"].split(";")[0] in ("application/json", "text/plain"), path
            assert "<b>x</b>" in answer.text, path
        assert c.get("/api/board?session=1", headers=KEEP).json()["session"]["name"] == (
            "<script>alert(1)</script>")
        for path in ("/", "/entry"):  # the app's page is static: the name is never in it
            assert "alert(1)" not in c.get(path).text and "<b>x</b>" not in c.get(path).text


def test_security_headers_and_no_directory_listing(client) -> None:
    page = client.get("/", headers=VIEW)
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    for path in ("/static/", "/static", "/static/../app.py", "/static/%2e%2e/app.py", "/templates/",
                 "/static/app/"):
        assert client.get(path, headers=VIEW).status_code == 404, path
    assert client.get("/static/app/app.css").status_code == 200
    for path in ("/api/board?session=1", "/nowhere", "/settle"):  # every answer, errors too
        answer = client.get(path, headers=VIEW, follow_redirects=False)
        assert answer.headers["content-security-policy"] == page.headers["content-security-policy"]
        assert answer.headers["x-frame-options"] == "DENY", path


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
         "/plot/net.svg", "/share/settle.txt", "/share/settle.png", "/api/events",
         "/api/events?session=1"]


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
    answer = client.get("/settle", follow_redirects=False)  # an old page's address: no stale data
    assert answer.status_code == 303 and "陳大文" not in answer.text
    assert not db.exists()
    for op, body in [("record", {"session": 1, "line": EVENING[1]}), ("undo", {"session": 1})]:
        answer = write(client, op, body)
        path = op
        assert answer.status_code == 503, (path, answer.text)
        assert "is no longer the file this server opened" in answer.json()["error"], path
    assert not db.exists() and not Path(str(db) + "-wal").exists()
    assert cli_json(tmp_path / "moved.db", "standings")["players"]  # the moved file is intact


def test_the_live_feed_says_the_ledger_moved_and_stops(client, db: Path, tmp_path: Path) -> None:
    """``/api/events``, open when the ledger is moved away: a ``problem`` event with the
    moved-file message, then the end of the stream (and no new empty ledger)."""
    import threading

    events: list[tuple[str, str]] = []
    with client.stream("GET", "/api/events?session=1", headers=VIEW) as stream:
        kind = ""
        for line in stream.iter_lines():
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                events.append((kind, line[5:]))
                if len(events) == 1:  # the board now: then the file goes away
                    threading.Thread(target=move_away, args=(db, tmp_path / "moved.db")).start()
    assert events[0][0] == "change" and "陳大文" in events[0][1]
    assert events[-1][0] == "problem", events
    problem = json.loads(events[-1][1])
    assert problem["status"] == 503 and "no longer the file this server opened" in problem["message"]
    assert all(k == "change" for k, _ in events[:-1])
    assert not db.exists()


def test_the_hub_page_names_every_module_of_its_first_screen(client) -> None:
    import re

    page = client.get("/", headers=VIEW).text
    named = re.findall(r'<link rel="modulepreload" href="/static/app/([\w-]+\.js)">', page)
    assert {"main.js", "engine.js", "engine-hub.js", "board.js", "words.js", "dom.js"} <= set(named)
    assert "engine-worker.js" not in named and "engine-worker-thread.js" not in named
    assert page.index("modulepreload") < page.index('<script type="module" src="/static/app/main.js">')
    for name in named:  # each one is there, and each one's imports are named too
        text = client.get(f"/static/app/{name}").text
        for imported in re.findall(r'from\s*"\./([\w-]+\.js)"', text):
            assert imported in named, (name, imported)
