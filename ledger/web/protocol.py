"""The HTTP connection as ``bigtwo serve`` runs it: uvicorn's httptools protocol (the C
parser of llhttp, several times cheaper a request than the pure-Python h11) with two
limits a viewer's phone (or anything else on the Wi-Fi) cannot get round.

- **A request timeout**: a connection that has not sent a whole request (head and body)
  within :data:`REQUEST_SECONDS` of its first byte — or of opening — is closed.  Without
  it, 300 connections that never finish their headers stayed open for ever.  A request
  that was read in full is never cut: a live feed stays open as long as its page.
- **Connections per client**: at most :data:`PER_CLIENT` open connections from one
  address; the next is closed at once.
- **A request head's size**: a request line and headers of more than
  :data:`HEAD_BYTES` are answered 400 and the connection closed (h11 refused the same
  at 16 KiB; llhttp itself sets no limit, and took 2 MB of headers).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

REQUEST_SECONDS = 10.0
PER_CLIENT = 128
HEAD_BYTES = 16 * 1024


class HeadTooLarge(Exception):
    """Raised from the parser's callback: httptools reports it as a parser error, which
    uvicorn answers 400 and closes."""


class GuardedHTTP(HttpToolsProtocol):
    """uvicorn's httptools protocol with a request timeout and a cap on connections per
    client.  The protocol makes its request cycle (``self.cycle``) once a request's head
    is read, and marks it ``more_body = False`` once its body is."""

    request_seconds = REQUEST_SECONDS
    per_client = PER_CLIENT
    head_bytes = HEAD_BYTES
    open_by_client: dict[str, int] = {}  # noqa: RUF012 - one table per server process

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: Any = None  # the cycle in place when the timer started
        self._counted: str | None = None
        self._head = 0  # bytes of the current request's line and headers so far

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else "?"
        if self.open_by_client.get(host, 0) >= self.per_client:
            transport.close()
            return
        self.open_by_client[host] = self.open_by_client.get(host, 0) + 1
        self._counted = host
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._counted is not None:
            left = self.open_by_client.get(self._counted, 1) - 1
            if left > 0:
                self.open_by_client[self._counted] = left
            else:
                self.open_by_client.pop(self._counted, None)
            self._counted = None
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._between_requests() and (self._deadline is None or self._waiting_for is not self.cycle):
            self._arm()  # the first bytes of the next request on a kept-alive connection
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._head = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value) + 4)  # ": " and CRLF
        super().on_header(name, value)

    def _count_head(self, size: int) -> None:
        self._head += size
        if self._head > self.head_bytes:
            raise HeadTooLarge()

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._waiting_for = self.cycle
        self._deadline = self.loop.call_later(self.request_seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        cycle = self.cycle
        unfinished_head = cycle is self._waiting_for and self._between_requests()
        unfinished_body = cycle is not self._waiting_for and cycle is not None and (
            cycle.more_body and not cycle.response_started)
        if unfinished_head or unfinished_body:
            self.transport.close()
