"""``bigtwo seat join|leave|sit-out|back|swap|order|show``: seats that change during the evening."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.common import DEAL_NUMBER, JsonOpt, SessionOpt, group, open_db

NameArg = Annotated[str, typer.Argument(help="The player's name.")]


def register(app: typer.Typer) -> None:
    seat_app = group("Seats that change during the evening: who joins, leaves, sits out a deal, "
                     "swaps seats, or the seat order.")
    seat_app.command("join")(join_cmd)
    seat_app.command("leave")(leave_cmd)
    seat_app.command("sit-out")(sit_out_cmd)
    seat_app.command("back")(back_cmd)
    seat_app.command("swap")(swap_cmd)
    seat_app.command("order")(order_cmd)
    seat_app.command("show")(show_cmd)
    app.add_typer(seat_app, name="seat")


def _change(ctx: typer.Context, session: int | None, json_out: bool, action: str, names: list[str],
            out: bool = False, from_deal: int | None = None) -> None:
    from ledger.book import actions as book
    from ledger.book.seats import seat_change
    from ledger.present.text import dumps, seat_change_text

    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session)
        change = seat_change(ledger, s, action, names, out=out, from_deal=from_deal)
        if json_out:
            typer.echo(dumps(change.to_dict()))
            return
        turn = book.next_turn(ledger, change.session)
    typer.echo(seat_change_text(change, turn))


def join_cmd(ctx: typer.Context, name: NameArg, sit_out: Annotated[bool, typer.Option(
        "--sit-out", help="Join sitting out (the table is full until someone sits out).")] = False,
             session: SessionOpt = None, json_out: JsonOpt = False) -> None:
    """A player joins the table, in the last seat (a late arrival, a substitute)."""
    _change(ctx, session, json_out, "join", [name], out=sit_out)


def leave_cmd(ctx: typer.Context, name: NameArg, session: SessionOpt = None,
              json_out: JsonOpt = False) -> None:
    """A player leaves the table; their deals still count."""
    _change(ctx, session, json_out, "leave", [name])


def sit_out_cmd(ctx: typer.Context, name: NameArg, session: SessionOpt = None,
                json_out: JsonOpt = False) -> None:
    """A seated player sits out the next deals (scores nothing in them) until back."""
    _change(ctx, session, json_out, "sit-out", [name])


def back_cmd(ctx: typer.Context, name: NameArg, session: SessionOpt = None,
             json_out: JsonOpt = False) -> None:
    """A player sitting out plays again from the next deal."""
    _change(ctx, session, json_out, "back", [name])


def swap_cmd(ctx: typer.Context, first: NameArg, second: NameArg, session: SessionOpt = None,
             json_out: JsonOpt = False) -> None:
    """Two seated players change seats."""
    _change(ctx, session, json_out, "swap", [first, second])


def order_cmd(
    ctx: typer.Context,
    names: Annotated[str, typer.Argument(help="Every seated player, in seat order: A,B,C,D.",
                                         metavar="A,B,C,…")],
    from_deal: Annotated[int | None, typer.Option(
        "--from-deal", parser=DEAL_NUMBER,
        help="The seat order was entered wrong: it is this one from deal N on (who deals "
             "next counts from there).")] = None,
    session: SessionOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The seat order (the direction of play), e.g. a seat order entered wrong."""
    _change(ctx, session, json_out, "order", [n for n in names.split(",") if n.strip()],
            from_deal=from_deal)


def show_cmd(ctx: typer.Context, session: SessionOpt = None, json_out: JsonOpt = False) -> None:
    """Who is seated, in seat order, who sits out, and who plays the next deal."""
    from ledger.book import actions as book
    from ledger.book.lineups import lineup
    from ledger.present.text import dumps, lineup_text

    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session)
        now = lineup(ledger, s)
    if json_out:
        typer.echo(dumps({"session": s.id, **now.to_dict()}))
        return
    typer.echo(lineup_text(s.id, now))
