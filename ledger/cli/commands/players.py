"""``bigtwo player rename`` / ``player merge``: players' names as append-only events;
``player pay-id``: each player's ways to be paid; ``player list``: both."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.common import JsonOpt, group, ledger_exists, open_db
from ledger.core.i18n import _


def register(app: typer.Typer) -> None:
    player_app = group("Rename players, merge two names of one player, keep their ways to be paid.")
    player_app.command("rename")(rename_cmd)
    player_app.command("merge")(merge_cmd)
    player_app.command("pay-id")(pay_id_cmd)
    player_app.command("list")(list_cmd)
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


def pay_id_cmd(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The player's name.")],
    scheme: Annotated[str, typer.Argument(
        help="fps (an FPS id, +852 mobile number or e-mail), paynow (+65 mobile number or "
             "UEN), promptpay (Thai mobile number or national id) or text (any other "
             "receive code, as your banking or wallet app gives it).")],
    pay_id: Annotated[str | None, typer.Argument(
        metavar="ID", help="The id in that scheme (leave out with --remove).")] = None,
    remove: Annotated[bool, typer.Option(
        "--remove", help="Take the player's id in that scheme away.")] = False,
) -> None:
    """Keep how a player is paid: settle --json and --qr then carry a payment code for
    each payment to them (pay ids are personal: never shared, exported only with
    --with-pay-ids)."""
    from ledger.book import pay_ids
    from ledger.core.errors import InputError

    if remove and pay_id is not None:
        raise InputError(_("give an ID or --remove, not both"))
    if not remove and pay_id is None:
        raise InputError(_("give the ID to keep, or --remove to take the scheme's id away"))
    with open_db(ctx) as ledger:
        if pay_id is None:
            done = pay_ids.remove_pay_id(ledger, name, scheme)
        else:
            done = pay_ids.set_pay_id(ledger, name, scheme, pay_id)
    if done.pay_id is None:
        typer.echo(_("removed {player}'s {scheme} pay id").format(
            player=done.player, scheme=done.scheme))
    else:
        typer.echo(_("{player} is paid by {scheme} {id}").format(
            player=done.player, scheme=done.scheme, id=done.pay_id.value))


def list_cmd(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Every player (merged names under the one they count as) and their pay ids."""
    from ledger.book.pay_ids import PlayerPay, player_list
    from ledger.present.text import dumps, table

    found: list[PlayerPay] = []
    if ledger_exists(ctx):
        with open_db(ctx) as ledger:
            found = player_list(ledger)
    if json_out:
        typer.echo(dumps([p.to_dict() for p in found]))
        return
    if not found:
        typer.echo(_("no players yet"))
        return
    typer.echo(table([[p.name, "; ".join(f"{i.scheme} {i.value}" for i in p.pay_ids)]
                      for p in found], [_("player"), _("pay ids")], align_right=False))
