"""``bigtwo season add|list|remove``: named ranges of dates for reports (``--season NAME``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.common import JsonOpt, SinceOpt, UntilOpt, group, ledger_exists, open_db
from ledger.core.i18n import _


def register(app: typer.Typer) -> None:
    season_app = group("Named seasons: a range of dates that reports take as --season NAME.")
    season_app.command("add")(add_cmd)
    season_app.command("list")(list_cmd)
    season_app.command("remove")(remove_cmd)
    app.add_typer(season_app, name="season")


def _span(since: object, until: object) -> str:
    return _("{since} to {until}").format(since=since or "…", until=until or "…")


def add_cmd(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The season's name, e.g. 2024 or spring-2024.")],
    since: SinceOpt = None,
    until: UntilOpt = None,
) -> None:
    """Name a range of dates (adding a name again gives it new dates)."""
    from ledger.book.seasons import add_season

    with open_db(ctx, create=True) as ledger:
        season, replaced = add_season(ledger, name, since, until)
    text = (_("season {name} now runs {span}") if replaced else _("added season {name}: {span}"))
    typer.echo(text.format(name=season.name, span=_span(season.since, season.until)))


def list_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """The seasons and their dates."""
    from ledger.book.seasons import seasons
    from ledger.present.text import dumps, table

    found = []
    if ledger_exists(ctx):
        with open_db(ctx) as ledger:
            found = seasons(ledger)
    if json_out:
        typer.echo(dumps([s.to_dict() for s in found]))
        return
    if not found:
        typer.echo(_("no seasons yet; add one with bigtwo season add NAME --since DATE --until DATE"))
        return
    typer.echo(table([[s.name, s.since or "", s.until or ""] for s in found],
                     [_("season"), _("since"), _("until")], align_right=False))


def remove_cmd(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The season's name.")],
) -> None:
    """Forget a season's name (its sessions stay as they are)."""
    from ledger.book.seasons import remove_season

    with open_db(ctx) as ledger:
        season = remove_season(ledger, name)
    typer.echo(_("removed season {name}").format(name=season.name))
