"""``bigtwo serve``: the live page for phones at the table (docs/serve.md).

The scorekeeper token is kept beside the ledger (ledger/web/keys.py): the same links
after a restart.

starlette, uvicorn, Jinja2 and segno are imported inside the command only.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.common import GIVEN_FILE, SessionOpt, db_path, open_db


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)


def serve_cmd(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).")] = 8000,
    session: SessionOpt = None,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Listen on this machine's local network address (phones on the same Wi-Fi)."
    )] = False,
    token: Annotated[str | None, typer.Option(
        "--token", help="The scorekeeper token (default: the one kept beside the ledger).")] = None,
    token_file: Annotated[str | None, typer.Option(
        "--token-file", metavar="FILE", callback=GIVEN_FILE,
        help="Read the scorekeeper token from FILE (owner-only; not shown by ps, unlike --token).",
    )] = None,
    new_token: Annotated[bool, typer.Option(
        "--new-token", help="Make a new scorekeeper token and keep it (the old links stop working).",
    )] = False,
    cert: Annotated[str | None, typer.Option(
        "--cert", metavar="FILE", callback=GIVEN_FILE,
        help="Serve HTTPS with this certificate (PEM; with --key).")] = None,
    key: Annotated[str | None, typer.Option(
        "--key", metavar="FILE", callback=GIVEN_FILE,
        help="The certificate's private key (PEM; with --cert).")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", metavar="ORIGIN",
        help="Let the installed app at ORIGIN (e.g. https://club.example.org) call the API; repeatable.",
    )] = None,
) -> None:
    """Serve a live scoreboard, deal entry and settlement to phones on the same ledger."""
    from ledger.book import actions as book
    from ledger.core.errors import InputError
    from ledger.core.i18n import _
    from ledger.web.keys import choose, said
    from ledger.web.server import lan_address, serve

    if lan:
        if host != "127.0.0.1":
            raise InputError(_("give --lan or --host, not both"))
        host = lan_address()
    path = db_path(ctx)[0]
    with open_db(ctx, create=True) as ledger:
        if session is not None:
            book.current_session(ledger, session)  # an unknown session is refused up front
    if (cert is None) != (key is None):
        raise InputError(_("HTTPS needs both --cert FILE and --key FILE"))
    from ledger.web.cors import check_origin

    origins = [check_origin(o) for o in allow_origin or ()]
    found = choose(path, token, token_file, new_token)
    serve(path, host, port, session, found.key, typer.echo, note=said(found),
          tls=(cert, key) if cert and key else None, origins=origins)
