"""Cross-origin calls from the installed phone app (``bigtwo serve --allow-origin``).

The offline app lives on its own HTTPS origin (a club's GitHub Pages, say); to sync with
a hub it calls this server's API from there.  Browsers allow that only for origins the
server names: ``Access-Control-Allow-Origin`` on every answer to such an origin, and an
answer to the *preflight* (``OPTIONS``) that the keeper's ``Authorization`` header and the
writes' ``Idempotency-Key`` and JSON body cause.  Only ``/api/`` is open to them; no
cookie is ever allowed (``Access-Control-Allow-Credentials`` is never sent: the token
travels as a header).  Origins not named get no CORS headers, so their pages cannot read
any answer.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ledger.core.errors import InputError
from ledger.core.i18n import _

ALLOWED_METHODS = b"GET, POST"
ALLOWED_HEADERS = b"authorization, content-type, idempotency-key, accept-language"
MAX_AGE = b"600"


def check_origin(origin: str) -> str:
    """``--allow-origin`` as the browser sends it: ``https://host[:port]``, no path."""
    from urllib.parse import urlsplit

    parts = urlsplit(origin.strip())
    if (parts.scheme not in ("https", "http") or not parts.netloc or parts.path not in ("", "/")
            or parts.query or parts.fragment or "@" in parts.netloc):
        raise InputError(_("--allow-origin {origin!r}: give the app's origin as the browser names "
                           "it, e.g. https://club.example.org").format(origin=origin))
    return f"{parts.scheme}://{parts.netloc.lower()}"


class Cors:
    """Answers preflights from the allowed origins and marks their answers as readable."""

    def __init__(self, app: ASGIApp, origins: list[str]) -> None:
        self.app = app
        self.origins = {o.encode() for o in origins}

    def __getattr__(self, name: str) -> object:  # the wrapped app's attributes (starlette, …)
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.origins:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        origin = headers.get(b"origin")
        if origin not in self.origins or not scope.get("path", "").startswith("/api/"):
            await self.app(scope, receive, send)
            return
        assert origin is not None
        allow = [(b"access-control-allow-origin", origin), (b"vary", b"Origin")]
        if scope["method"] == "OPTIONS" and b"access-control-request-method" in headers:
            extra = [(b"access-control-allow-methods", ALLOWED_METHODS),
                     (b"access-control-allow-headers", ALLOWED_HEADERS),
                     (b"access-control-max-age", MAX_AGE)]
            if headers.get(b"access-control-request-private-network") == b"true":
                extra.append((b"access-control-allow-private-network", b"true"))
            await send({"type": "http.response.start", "status": 204,
                        "headers": allow + extra + [(b"content-length", b"0")]})
            await send({"type": "http.response.body", "body": b""})
            return

        async def marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + allow
            await send(message)

        await self.app(scope, receive, marked)
