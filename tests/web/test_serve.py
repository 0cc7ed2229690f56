"""``bigtwo serve`` as a user starts it: links, QR code, the live feed, concurrent
writers, Ctrl-C."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from web.conftest import start
from web.webhelpers import KEY, Server, bearer, bigtwo, cli_json, keyed


def read_events(url: str, token: str, want: int, found: list[dict], ready: threading.Event,
                wait: float = 10) -> None:
    with httpx.stream("GET", url, headers=bearer(token), timeout=wait) as events:
        ready.set()
        for line in events.iter_lines():
            if line.startswith("data:"):
                found.append({"at": time.monotonic(), **json.loads(line[5:])})
                if len(found) >= want:
                    return


def test_serve_prints_links_and_qr_and_stops_on_ctrl_c(db: Path) -> None:
    server = Server(db)
    try:
        text = "".join(server.lines)
        assert f"/entry?t={KEY}" in server.keeper
        assert KEY not in server.viewer and server.viewer.startswith("http://127.0.0.1:")
        assert "█" in text  # the QR codes
        answer = httpx.get(server.viewer, follow_redirects=True)  # the viewer link as printed
        assert answer.status_code == 200 and "/static/app/main.js" in answer.text  # the app
        board = httpx.get(server.base + "/api/board?session=1", headers=bearer(server.viewer_token))
        assert board.status_code == 200 and board.json()["session"]["name"] == "Friday"
        assert httpx.post(server.base + "/api/undo", json={"session": 1},
                          headers=keyed(bearer(server.viewer_token))).status_code == 403
    finally:
        code, out = server.stop()
    assert code == 0, out
    assert "stopped" in out and "Traceback" not in out


def test_a_cli_deal_reaches_open_pages(db: Path) -> None:
    server = Server(db)
    try:
        found: list[dict] = []
        ready = threading.Event()
        reader = threading.Thread(target=read_events, daemon=True, args=(
            server.base + "/api/events?session=1", server.viewer_token, 2, found, ready))
        reader.start()
        assert ready.wait(10)
        time.sleep(0.3)
        bigtwo(db, "deal", "陳大文=0", "Ben=3", "Cat=11", "Dan=8")
        done = time.monotonic()
        reader.join(10)
        assert len(found) == 2, found
        assert found[1]["at"] - done < 1.0
        assert found[0]["board"]["deals"] == []
        assert found[1]["board"]["deals"][0]["net"] == {"陳大文": 33, "Ben": 21, "Cat": -55, "Dan": 1}
    finally:
        server.stop()


@pytest.mark.slow
def test_cli_and_four_writers_at_once_lose_nothing(db: Path) -> None:
    server = Server(db)
    per_writer = 10
    errors: list[str] = []

    def writer(i: int) -> None:
        with httpx.Client(base_url=server.base, headers=bearer(KEY), timeout=30) as client:
            for _ in range(per_writer):
                answer = client.post("/api/record", json={"session": 1, "line": f"0 {i + 1} 2 3"},
                                     headers=keyed({}))
                if answer.status_code != 200:
                    errors.append(answer.text)

    try:
        threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
        cli = subprocess.Popen(
            [sys.executable, "-c",
             "import subprocess, sys\n"
             "for _ in range(5):\n"
             f"    subprocess.run([sys.executable, '-m', 'ledger', '--db', {str(db)!r}, 'deal',"
             " 'Ben=0', '陳大文=1', 'Cat=1', 'Dan=1'], check=True, capture_output=True)\n"])
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert cli.wait(120) == 0
    finally:
        server.stop()
    assert errors == []
    log = cli_json(db, "log")
    assert [e["deal"] for e in log] == list(range(1, 4 * per_writer + 5 + 1))
    standings = {p["name"]: p for p in cli_json(db, "standings")["players"]}
    assert standings["Ben"]["wins"] == 5 and standings["陳大文"]["wins"] == 4 * per_writer
    # Each writer's deals: Ben holds i+1 cards; sum of Ben's penalty is known exactly.
    assert standings["Ben"]["penalty"] == per_writer * (1 + 2 + 3 + 4)


def test_serve_refuses_bad_options(db: Path, tmp_path: Path) -> None:
    bad = bigtwo(db, "serve", "--token", "short", check=False)
    assert bad.returncode != 0 and bad.stderr.startswith("error: --token") and "Traceback" not in bad.stderr
    bad = bigtwo(db, "serve", "--lan", "--host", "0.0.0.0", check=False)
    assert bad.returncode == 2 and bad.stderr == "error: give --lan or --host, not both\n"
    bad = bigtwo(db, "serve", "--port", "70000", check=False)
    assert bad.returncode != 0 and "65535" in bad.stderr and "Traceback" not in bad.stderr
    bad = bigtwo(db, "serve", "--session", "9", check=False)
    assert bad.returncode != 0 and "no session 9" in bad.stderr
    server = Server(db)
    try:
        port = server.base.rsplit(":", 1)[1]
        busy = bigtwo(db, "serve", "--port", port, check=False)
        assert busy.returncode != 0 and "already in use" in busy.stderr and "Traceback" not in busy.stderr
    finally:
        server.stop()


def test_serve_a_chosen_session(ledger_path: Path) -> None:
    start(ledger_path, name="first")
    start(ledger_path, name="second")
    server = Server(ledger_path, KEY, "--session", "1")
    try:
        answer = httpx.post(server.base + "/api/record", headers=keyed(bearer(KEY)),
                            json={"session": 1, "line": "陳大文=0 Ben=3 Cat=11 Dan=8"})
        assert answer.json()["session"] == 1
        assert httpx.get(server.base + "/api/standings?session=1",
                         headers=bearer(KEY)).json()["sessions"] == [1]
    finally:
        server.stop()
    assert cli_json(ledger_path, "standings", "--session", "1") == cli_json(
        ledger_path, "standings", "--session", "1")
    assert cli_json(ledger_path, "session", "list")[1]["deals"] == 0


def test_a_client_that_leaves_mid_request_harms_nothing(db: Path) -> None:
    import socket

    server = Server(db)
    try:
        host, port = server.base.removeprefix("http://").rsplit(":", 1)
        body = json.dumps({"session": 1, "line": "陳大文=0 Ben=3 Cat=11 Dan=8"}).encode()
        for cut in (0, 5, len(body) - 1):  # the body stops short, then the phone is gone
            with socket.create_connection((host, int(port))) as sock:
                sock.sendall(
                    f"POST /api/record HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {KEY}\r\n"
                    f"Idempotency-Key: 0b7c5b8e-4c1d-4d55-9f0a-{cut:012d}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                    + body[:cut])
        with socket.create_connection((host, int(port))) as sock:  # a page leaves its feed
            sock.sendall(f"GET /api/events?session=1 HTTP/1.1\r\nHost: {host}:{port}\r\n"
                         f"Authorization: Bearer {KEY}\r\n\r\n".encode())
            sock.recv(100)
        time.sleep(0.3)
        assert cli_json(db, "log") == []
        answer = httpx.post(server.base + "/api/record", headers=keyed(bearer(KEY)), json=json.loads(body))
        assert answer.status_code == 200 and answer.json()["deal"] == 1
    finally:
        code, out = server.stop()
    assert code == 0 and "Traceback" not in out, out
    assert [e["deal"] for e in cli_json(db, "log")] == [1]


def test_the_json_change_feed(db: Path) -> None:
    server = Server(db)
    try:
        found: list[dict] = []
        ready = threading.Event()
        reader = threading.Thread(target=read_events, daemon=True, args=(
            server.base + "/api/events", server.viewer_token, 2, found, ready))
        reader.start()
        assert ready.wait(10)
        time.sleep(0.3)
        bigtwo(db, "deal", "陳大文=0", "Ben=3", "Cat=11", "Dan=8")
        reader.join(10)
        deal_id = sqlite3.connect(db).execute(  # the session's start is an entry too
            "SELECT id FROM entries WHERE kind = 'deal'").fetchone()[0]
        assert [f["last_entry_id"] for f in found] == [0, deal_id]  # the table's feed: ?session=
    finally:
        server.stop()


def test_the_live_feed_of_one_table(ledger_path: Path) -> None:
    """``/api/events?session=ID``: that table's board now and after each of its changes;
    another table's deal sends it nothing."""
    start(ledger_path, name="first")
    start(ledger_path, name="second", players=["Ann", "Bob", "Cy", "Di"])
    server = Server(ledger_path)
    try:
        found: list[dict] = []
        ready = threading.Event()
        reader = threading.Thread(target=read_events, daemon=True, args=(
            server.base + "/api/events?session=1", server.viewer_token, 2, found, ready, 60))
        reader.start()
        assert ready.wait(10)
        time.sleep(0.3)
        bigtwo(ledger_path, "deal", "--session", "2", "Ann=0", "Bob=3", "Cy=11", "Di=8")
        time.sleep(0.5)
        assert len(found) == 1 and found[0]["board"]["next_deal"] == 1
        bigtwo(ledger_path, "deal", "--session", "1", "陳大文=0", "Ben=3", "Cat=11", "Dan=8")
        reader.join(60)
        assert [f["session"] for f in found] == [1, 1]
        assert found[1]["board"]["next_deal"] == 2 and found[1]["board"]["deals"][0]["deal"] == 1
        missing = httpx.get(server.base + "/api/events?session=999", headers=bearer(KEY))
        assert missing.status_code == 404
    finally:
        server.stop()


def test_the_qr_code_is_the_link() -> None:
    import segno

    from ledger.web.server import qr_lines

    url = "http://192.168.1.20:8000/entry?t=abcdefghijklmnop1234"
    lines = qr_lines(url)
    top = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    rows: list[list[int]] = []
    for line in lines:
        rows.append([top[ch][0] for ch in line])
        rows.append([top[ch][1] for ch in line])
    expected = [list(r) for r in segno.make(url, error="m").matrix_iter(scale=1, border=2)]
    assert rows[:len(expected)] == [[int(bool(x)) for x in r] for r in expected]
