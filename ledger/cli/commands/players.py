"""``bigtwo player rename`` / ``player merge``: players' names as append-only events."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.common import group, open_db
from ledger.core.i18n import _


def register(app: typer.Typer) -> None:
    player_app = group("Rename players, or merge two names of one player.")
    player_app.command("rename")(rename_cmd)
    player_app.command("merge")(merge_cmd)
    app.add_typer(player_app, name="player")


def rename_cmd(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(help="The player's name now.")],
    new: Annotated[str, typer.Argument(help="The name to show from now on.")],
) -> None:
    """Show a player under a new name in every report (undo takes it back; recorded
    deals keep the names they were written with)."""
    from ledger.book import players

    with open_db(ctx) as ledger:
        done = players.rename(ledger, old, new)
    typer.echo(_("renamed {old} to {new} (undo takes it back)").format(
        old=done.player, new=done.target))


def merge_cmd(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The name to merge away.")],
    into: Annotated[str, typer.Option("--into", help="The player it is the same person as.")],
) -> None:
    """Count two names of one person as one player in every report across sessions
    (refused if they ever sat in the same session; undo takes it back)."""
    from ledger.book import players

    with open_db(ctx) as ledger:
        done = players.merge(ledger, name, into)
    typer.echo(_("merged {name} into {into} (undo takes it back)").format(
        name=done.player, into=done.target))
