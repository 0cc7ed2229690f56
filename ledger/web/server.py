"""Running the app: the socket, the printed links and QR codes, uvicorn, Ctrl-C."""

from __future__ import annotations

import contextlib
import errno
import socket
import sys
from collections.abc import Callable
from typing import Any

from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import _
from ledger.present.qr import on_white, qr_lines
from ledger.web.auth import Tokens


def lan_address() -> str:
    """This machine's address on the local network (the one its default route uses).

    Connecting a UDP socket sends nothing; it only asks the kernel which address it
    would send from.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
    except OSError:
        address = ""
    finally:
        probe.close()
    if not address or address.startswith("127.") or address == "0.0.0.0":
        raise LedgerError(_(
            "--lan: this machine has no local network address (is Wi-Fi on?); "
            "give one with --host ADDRESS"
        ))
    return address


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, or one clear error (port in use, address not ours)."""
    if not 0 <= port <= 65535:
        raise InputError(_("--port {port}: give a port from 1 to 65535 (0 picks a free one)").format(
            port=port))
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise InputError(_("--host {host!r}: cannot resolve it ({problem})").format(
            host=host, problem=exc.strerror or exc)) from None
    family, *_rest, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: a response's head and body leave at once instead
    # of the body waiting ~40 ms for the client's delayed ACK (Nagle).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise LedgerError(_("port {port} on {host} is already in use; pick another with --port").format(
                port=port, host=host)) from None
        if exc.errno == errno.EACCES:
            raise LedgerError(_("port {port} needs special rights; pick one above 1023 with --port").format(
                port=port)) from None
        raise LedgerError(_("cannot listen on {host} port {port}: {problem}").format(
            host=host, port=port, problem=exc.strerror or exc)) from None
    sock.set_inheritable(True)
    return sock


def side_by_side(left: list[str], right: list[str], gap: int = 3) -> list[str]:
    width = max(len(x) for x in left)
    height = max(len(left), len(right))
    left = left + [" " * width] * (height - len(left))
    right = right + [""] * (height - len(right))
    return [a.ljust(width) + " " * gap + b for a, b in zip(left, right, strict=True)]


def links(base: str, tokens: Tokens) -> tuple[str, str]:
    """(scorekeeper link, viewer link)."""
    return f"{base}/entry?t={tokens.key}", f"{base}/?t={tokens.viewer}"


SIDE_BY_SIDE = 80  # narrower terminals get the two QR codes one under the other


def banner(db: str, where: str, keeper: str, viewer: str, colour: bool,
           screen: int = SIDE_BY_SIDE, notes: tuple[str, ...] = ()) -> str:
    """The links, their QR codes (side by side from :data:`SIDE_BY_SIDE` columns, else
    stacked: a wrapped QR code cannot be scanned) and ``notes`` (warnings)."""
    keeper_qr, viewer_qr = qr_lines(keeper), qr_lines(viewer)
    width = len(keeper_qr[0])
    if colour:  # black modules on white, whatever the terminal's own colours
        keeper_qr, viewer_qr = on_white(keeper_qr), on_white(viewer_qr)
    left, right = _("scorekeeper (can write)"), _("viewers (read only)")
    if screen >= SIDE_BY_SIDE and 2 * width + 3 <= screen:
        heading = left + " " * max(1, width - columns(left)) + "   " + right
        codes = [heading, *side_by_side(keeper_qr, viewer_qr)]
    else:
        codes = [left, *keeper_qr, "", right, *viewer_qr]
    return "\n".join([
        _("bigtwo serve: ledger {path}, {where}").format(path=db, where=where),
        _("scorekeeper link (can write; keep it to yourself): {link}").format(link=keeper),
        _("viewer link (read only; share it with the table):  {link}").format(link=viewer),
        *notes,
        "",
        *codes,
        "",
        _("Ctrl-C stops the server."),
    ])


LOOPBACK = ("127.0.0.1", "localhost", "::1")
ANY = ("0.0.0.0", "::", "")


def link_host(host: str) -> tuple[str, list[str]]:
    """(the address the printed links name, every address a phone may use for this
    server).  Listening on every address (``0.0.0.0``, ``::``), the links name this
    machine's own network address, which a phone can open, instead of 0.0.0.0."""
    if host not in ANY:
        return host, [host]
    try:
        own = lan_address()
    except LedgerError:  # no network: only this machine can reach it
        own = "127.0.0.1"
    return own, [own, *LOOPBACK]


def loopback_note(host: str) -> tuple[str, ...]:
    """A warning when the links are this machine's only: phones cannot open them."""
    if host in LOOPBACK or host.startswith("127."):
        return (_("note: these links work on this machine only ({host}): a phone cannot open "
                  "them; for phones on the same Wi-Fi start with --lan").format(host=host),)
    return ()


def columns(text: str) -> int:
    """``text``'s width in terminal columns (陳 takes two)."""
    from wcwidth import wcswidth

    found = wcswidth(text)
    return found if found >= 0 else len(text)


def tls_names(cert: str, key: str) -> list[str]:
    """The host names a certificate is for (its DNS names), after checking that the
    certificate and its key load: one clear error otherwise."""
    import ssl

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
        # The standard library's own reader of a certificate file (as ssl's tests use it).
        decoded = ssl._ssl._test_decode_cert(cert)  # type: ignore[attr-defined]
    except (OSError, ssl.SSLError, ValueError) as exc:
        raise LedgerError(_("--cert {cert} / --key {key}: cannot use them for HTTPS ({problem})").format(
            cert=cert, key=key, problem=getattr(exc, "strerror", None) or exc)) from None
    return [value for kind, value in decoded.get("subjectAltName", ()) if kind == "DNS"]


def serve(db: str, host: str, port: int, session_id: int | None, key: str,
          echo: Callable[[str], None], *, poll: float = 0.1, ready: Callable[[str], None] | None = None,
          note: str | None = None, tls: tuple[str, str] | None = None, origins: list[str] | None = None,
          **uvicorn_options: Any) -> None:
    """Serve ``db`` until Ctrl-C (or SIGTERM)."""
    import uvicorn

    from ledger.web.app import create_app
    from ledger.web.site import Config, file_identity

    tokens = Tokens.from_key(key)
    names = tls_names(*tls) if tls else []
    sock = bind(host, port)
    port = sock.getsockname()[1]
    named, reachable = link_host(host)

    def bracketed(address: str) -> str:
        return f"[{address}]" if ":" in address else address

    hosts = {f"{bracketed(a)}:{port}" for a in reachable} | {f"{n}:{port}" for n in names}
    if named in LOOPBACK:
        hosts |= {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}
    if tls:  # the certificate's own name, when it has one, is the name phones must use
        uvicorn_options.update(ssl_certfile=tls[0], ssl_keyfile=tls[1])
        cert_name = next((n for n in names if "*" not in n), None)
        base = f"https://{cert_name or bracketed(named)}:{port}"
    else:
        base = f"http://{bracketed(named)}:{port}"
    cfg = Config(db=db, tokens=tokens, session_id=session_id, identity=file_identity(db),
                 allowed_hosts=sorted(hosts), poll=poll, origins=list(origins or ()))
    app = create_app(cfg)
    site = app.starlette.state.site
    try:
        site.drawer.warm()  # charts ready by the time a page asks
        keeper, viewer = links(base, tokens)
        where = (_("session {id}").format(id=session_id) if session_id is not None
                 else _("the current session"))
        import shutil

        echo(banner(db, where, keeper, viewer, colour=sys.stdout.isatty(),
                    screen=shutil.get_terminal_size((SIDE_BY_SIDE, 24)).columns,
                    notes=(*loopback_note(named), *([note] if note else []))))
        from ledger.web.protocol import GuardedHTTP

        # The standard library's event loop, whatever else is installed (uvicorn's "auto"
        # would take uvloop where it finds it).
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=1, http=GuardedHTTP, loop="asyncio",
                                **uvicorn_options)
        server = _make_server(config, app)
        if ready is not None:
            ready(base)
        # uvicorn stops gracefully on the first Ctrl-C, then raises it again: that is the
        # way out we asked for, not an interruption.
        with contextlib.suppress(KeyboardInterrupt):
            server.run(sockets=[sock])
    finally:  # however it stops: a SIGTERM before uvicorn has started too
        sock.close()
        site.shutdown()  # the drawing process ends now, not when its imports are done
    echo(_("stopped; every recorded deal is in the ledger"))


def _make_server(config: Any, app: Any) -> Any:
    """uvicorn's server, which also ends the live feeds when asked to stop, so that
    open pages do not hold up a clean exit."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            feed = getattr(app.starlette.state, "feed", None)
            if feed is not None:
                feed.stop()
            super().handle_exit(sig, frame)

    return Server(config)
