"""Names and hosts at the page (issue 22): every player's page is reachable from its
link (AC/DC too); serve's QR codes stack on narrow terminals, its links warn when they
are loopback only, and listening on every address links the machine's own address.
Loopback only: nothing here sends traffic to another address."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from web.conftest import start
from web.webhelpers import KEY, bearer

NAMES = ["AC/DC", "50% off", "a?b", "Mary Ann", "O'Brien", "陳大文", "x&y"]


@pytest.fixture
def odd_client(ledger_path: Path):
    from starlette.testclient import TestClient

    from ledger.web.app import create_app
    from ledger.web.auth import Tokens
    from ledger.web.site import Config

    start(ledger_path, players=NAMES[:4])
    start(ledger_path, players=[*NAMES[4:], "Dan"])
    app = create_app(Config(db=str(ledger_path), tokens=Tokens.from_key(KEY)))
    with TestClient(app) as c:
        yield c


def test_every_name_has_a_reachable_page(odd_client, ledger_path: Path, cli) -> None:
    """Each player's numbers by name (the app's player screen asks ``/api/history?player=``),
    and an old page's address of any name lands on that player's screen."""
    from urllib.parse import unquote

    from ledger.book import actions as book
    from ledger.core.deal_line import parse_deal_line
    from ledger.storage.store import open_ledger

    with open_ledger(ledger_path) as ledger:
        for sid in (1, 2):
            s = ledger.journal.session(sid)
            book.record_deal(ledger, s, parse_deal_line("0 3 5 7", s.seats))
    for sid in (1, 2):
        board = odd_client.get(f"/api/board?session={sid}", headers=bearer(KEY)).json()
        names = board["session"]["players"]
        assert len(names) == 4
        for name in names:
            answer = odd_client.get("/api/history", params={"player": name}, headers=bearer(KEY))
            assert answer.status_code == 200, f"{name}: {answer.status_code}"
            assert [r["id"] for r in answer.json()] == [sid], name
            old = odd_client.get("/history/player/" + quote(name, safe=""), follow_redirects=False)
            assert unquote(old.headers["location"].split("#/player/")[1]) == name


def test_a_slash_in_a_name_reaches_its_page(odd_client) -> None:
    for link in ("/history/player/AC/DC", "/history/player/AC%2FDC"):
        answer = odd_client.get(link, follow_redirects=False)
        assert answer.status_code == 303, link
        assert answer.headers["location"] == "/#/player/AC%2FDC", link


def test_narrow_terminals_get_the_qr_codes_stacked() -> None:
    from ledger.web.server import banner, qr_lines

    keeper, viewer = "http://127.0.0.1:8000/entry?t=" + KEY, "http://127.0.0.1:8000/?t=v"
    qr = len(qr_lines(keeper)[0])
    for screen in (40, 60, 79):
        text = banner("l.db", "s", keeper, viewer, colour=False, screen=screen)
        code_lines = [line for line in text.splitlines() if "█" in line or "▀" in line]
        assert code_lines and max(len(line) for line in code_lines) <= qr  # one code a row
    wide = banner("l.db", "s", keeper, viewer, colour=False, screen=120)
    assert max(len(line) for line in wide.splitlines() if "█" in line) > qr  # side by side


def test_loopback_links_say_phones_cannot_open_them() -> None:
    from ledger.web.server import loopback_note

    assert "a phone cannot open them" in loopback_note("127.0.0.1")[0]
    assert "--lan" in loopback_note("localhost")[0]
    assert loopback_note("192.168.1.20") == ()


def test_listening_on_every_address_links_the_machines_own(monkeypatch) -> None:
    from ledger.web import server

    monkeypatch.setattr(server, "lan_address", lambda: "192.168.1.20")
    assert server.link_host("0.0.0.0") == ("192.168.1.20", ["192.168.1.20", *server.LOOPBACK])
    assert server.link_host("::")[0] == "192.168.1.20"
    assert server.link_host("127.0.0.1") == ("127.0.0.1", ["127.0.0.1"])


def test_serve_on_every_address_prints_no_0_0_0_0_link(ledger_path: Path) -> None:
    import os
    import subprocess
    import sys

    start(ledger_path)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, "-m", "ledger", "--db", str(ledger_path), "serve",
                             "--host", "0.0.0.0", "--port", "0", "--token", KEY],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:  # the printed links only: no request is sent to any address
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("Ctrl-C"):
                break
        text = "".join(lines)
        assert "http://0.0.0.0" not in text, text
        assert re.search(r"http://[\d.]+:\d+/entry\?t=", text), text
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_on_loopback_warns_in_its_banner(ledger_path: Path) -> None:
    from web.webhelpers import Server

    start(ledger_path)
    server = Server(ledger_path)
    try:
        assert "a phone cannot open them" in "".join(server.lines)
    finally:
        server.stop()
