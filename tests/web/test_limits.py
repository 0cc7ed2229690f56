"""A server a viewer cannot stall: connections that never finish their request are
closed, one client cannot hold more than its share of connections, and charts are drawn
in another process (real uvicorn, real sockets)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web.webhelpers import KEY, bearer

from ledger.web.auth import Tokens
from ledger.web.protocol import GuardedHTTP


class Quick(GuardedHTTP):
    """The same protocol with limits a test can wait for."""

    request_seconds = 1.0
    per_client = 4
    open_by_client: dict[str, int] = {}  # noqa: RUF012 - this server's own table


@pytest.fixture
def served(db: Path) -> Iterator[tuple[str, int]]:
    import uvicorn

    from ledger.web.app import create_app
    from ledger.web.server import bind
    from ledger.web.site import Config

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    app = create_app(Config(db=str(db), tokens=Tokens.from_key(KEY)))
    server = uvicorn.Server(uvicorn.Config(app, http=Quick, log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield "127.0.0.1", port
    server.should_exit = True
    thread.join(10)
    sock.close()


def closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(100) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_request_that_never_finishes_its_head_is_closed(served: tuple[str, int]) -> None:
    host, port = served
    silent = socket.create_connection(served)  # says nothing at all
    slow = socket.create_connection(served)
    slow.sendall(f"GET /api/sessions HTTP/1.1\r\nHost: {host}:{port}\r\nX-Slow: ".encode())
    started = time.monotonic()
    assert closed_within(silent, 5) and closed_within(slow, 5)
    assert time.monotonic() - started < 4
    # A whole request is answered, and its connection kept alive as usual.
    with httpx.Client(base_url=f"http://{host}:{port}", headers=bearer(KEY)) as client:
        assert client.get("/api/sessions").status_code == 200
        time.sleep(1.5)
        assert client.get("/api/sessions").status_code == 200


def test_a_body_that_never_finishes_is_closed(served: tuple[str, int]) -> None:
    host, port = served
    sock = socket.create_connection(served)
    sock.sendall(f"POST /api/record HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {KEY}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ses".encode())
    assert closed_within(sock, 5)


def test_a_live_feed_outlives_the_request_timeout(served: tuple[str, int]) -> None:
    host, port = served
    with httpx.stream("GET", f"http://{host}:{port}/api/events?session=1", headers=bearer(KEY),
                      timeout=10) as events:
        lines = events.iter_lines()
        assert next(lines).startswith("retry:")
        time.sleep(1.6)  # past the request timeout: a finished request is never cut
        with httpx.Client(base_url=f"http://{host}:{port}", headers=bearer(KEY)) as client:
            client.post("/api/record", json={"session": 1, "line": "0 3 11 8"},
                        headers={"Idempotency-Key": "0b7c5b8e-4c1d-4d55-9f0a-000000000001"})
        boards = []
        for line in lines:
            if line.startswith("data:"):
                boards.append(json.loads(line[5:])["board"])
                if boards[-1]["next_deal"] == 2:
                    break
        assert boards[0]["next_deal"] == 1 and boards[-1]["next_deal"] == 2


def test_a_request_head_over_the_limit_is_refused(served: tuple[str, int]) -> None:
    from ledger.web.protocol import HEAD_BYTES

    host, port = served
    sock = socket.create_connection(served)
    sock.sendall(f"GET /api/sessions HTTP/1.1\r\nHost: {host}:{port}\r\n".encode())
    with contextlib.suppress(OSError):  # the server may close while we still send
        for i in range(HEAD_BYTES // 1000 + 2):
            sock.sendall(b"X-Pad-%d: " % i + b"a" * 1000 + b"\r\n")
    sock.settimeout(5)
    answer = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(4096):  # to the end: the server closes after its 400
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400")
    # A head under the limit is answered as usual.
    padded = {f"X-Pad-{i}": "a" * 1000 for i in range(HEAD_BYTES // 2000)}
    answer_ok = httpx.get(f"http://{host}:{port}/api/sessions", headers={**bearer(KEY), **padded})
    assert answer_ok.status_code == 200


def test_one_client_holds_a_bounded_number_of_connections(served: tuple[str, int]) -> None:
    held = [socket.create_connection(served) for _ in range(Quick.per_client)]
    extra = socket.create_connection(served)
    assert closed_within(extra, 3)  # closed at once, not after the request timeout
    for sock in held:
        sock.close()
    time.sleep(0.2)
    host, port = served
    assert httpx.get(f"http://{host}:{port}/api/sessions", headers=bearer(KEY)).status_code == 200


def test_charts_are_drawn_in_another_process(client: Any) -> None:
    import os

    answer = client.get("/plot/net.svg?session=1", headers=bearer(KEY))
    assert answer.status_code == 200 and answer.content.lstrip().startswith((b"<?xml", b"<svg"))
    site = client.app.starlette.state.site
    assert site.drawer._pool is not None and os.getpid() not in {
        p.pid for p in site.drawer._pool._processes.values()}
    missing = client.get("/plot/net.svg?session=999", headers=bearer(KEY))
    assert missing.status_code == 404
