"""``bigtwo paid``, ``bigtwo payments list|undo`` and ``bigtwo owed``: money after the
evening (ledger/book/payments.py, ledger/book/owed.py; docs/money.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.common import (
    JsonOpt,
    SeasonOpt,
    SessionOpt,
    SinceOpt,
    UntilOpt,
    group,
    ledger_exists,
    open_db,
)
from ledger.core.i18n import _, ngettext

if TYPE_CHECKING:
    from ledger.book.payments import Paid

RoundOpt = Annotated[str | None, typer.Option(
    "--round", metavar="COIN",
    help="Balances and payments in whole coins: 1, 5, 0.5 … (the exact remainder is shown).")]


def register(app: typer.Typer) -> None:
    app.command("paid")(paid_cmd)
    app.command("owed")(owed_cmd)
    payments_app = group("Payments recorded with bigtwo paid: list them, or take one back.")
    payments_app.command("list")(list_cmd)
    payments_app.command("undo")(undo_cmd)
    app.add_typer(payments_app, name="payments")


def _who(p: Paid) -> str:
    from ledger.core.settlement import format_amount

    return _("{payer} paid {payee} {amount} {currency}").format(
        payer=p.payer, payee=p.payee, amount=format_amount(p.amount), currency=p.currency)


def paid_cmd(
    ctx: typer.Context,
    payer: Annotated[str, typer.Argument(help="Who paid.", metavar="PAYER")],
    payee: Annotated[str, typer.Argument(help="Who was paid.", metavar="PAYEE")],
    amount: Annotated[str, typer.Argument(help="How much, e.g. 20 or 12.50.", metavar="AMOUNT")],
    currency: Annotated[str | None, typer.Option(
        "--currency", metavar="C",
        help="The currency (default: the session's, or the one the two have played in).")] = None,
    session: SessionOpt = None,
    note: Annotated[str | None, typer.Option("--note", metavar="TEXT",
                                             help="A few words kept with the payment.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Record a payment between two players: for one session (--session ID), or against
    what they owe overall, oldest debt first (undo with bigtwo payments undo)."""
    from ledger.book.payments import record_payment
    from ledger.book.views import after_payment
    from ledger.present.text import dumps, signed

    with open_db(ctx) as ledger:
        view = after_payment(ledger, record_payment(ledger, payer, payee, amount, currency,
                                                    session, note))
    done, block = view.payment, view.owed
    if json_out:
        typer.echo(dumps(view.to_dict()))
        return
    where = (_("for session {id}").format(id=done.session_id) if done.session_id is not None
             else _("against the balance as a whole"))
    typer.echo(_("recorded: {what} ({where}); bigtwo payments undo takes it back").format(
        what=_who(done), where=where))
    left = ", ".join(f"{name} {signed(block.balances.get(name, 0))}" for name in (done.payer, done.payee))
    typer.echo(_("outstanding now ({currency}): {balances}").format(currency=done.currency,
                                                                     balances=left))


def owed_cmd(
    ctx: typer.Context,
    since: SinceOpt = None,
    until: UntilOpt = None,
    season: SeasonOpt = None,
    round_to: RoundOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every player's outstanding balance across sessions, per currency, after the
    payments recorded, and the fewest payments that would clear it."""
    from ledger.book.owed import owed
    from ledger.book.scope import date_range, day_of, no_sessions
    from ledger.core.errors import InputError
    from ledger.present.text import dumps, signed, table

    coin = None
    if round_to is not None:
        from ledger.core.settlement import parse_coin

        coin = parse_coin(round_to)
    with open_db(ctx) as ledger:
        within = date_range(ledger, since, until, season)
        sessions = [s for s in ledger.journal.sessions() if not within or within.holds(day_of(s))]
        if not sessions and within:
            raise no_sessions(None, within)
        if not sessions:
            from ledger.book.scope import NO_SESSIONS

            raise InputError(_(NO_SESSIONS))
        result = owed(ledger, sessions, within, coin)
    if json_out:
        typer.echo(dumps(result.to_dict()))
        return
    from ledger.core.settlement import format_amount

    blocks = []
    for b in result.blocks:
        head = ngettext("{currency}: {count} session", "{currency}: {count} sessions",
                        b.sessions).format(currency=b.currency, count=b.sessions)
        head += ngettext(", {count} payment", ", {count} payments", b.payments).format(count=b.payments)
        headers = [_("player"), _("paid"), _("outstanding")]
        rows = [[k, signed(b.paid.get(k, 0)), signed(v)] for k, v in b.balances.items()]
        if b.exact is not None and b.coin is not None:
            headers.append(_("exact"))
            for row, name in zip(rows, b.balances, strict=True):
                row.append(signed(b.exact[name]))
            head += _(" (in coins of {coin}; the exact remainder stays owed or credited)").format(
                coin=format_amount(b.coin))
        plan = (table([[p.payer, p.payee, format_amount(p.amount)] for p in b.plan],
                      [_("pays"), _("to"), b.currency]) if b.plan else _("(all square)"))
        blocks.append(head + "\n" + table(rows, headers) + "\n\n"
                      + _("to clear it ({count}):").format(count=len(b.plan)) + "\n" + plan)
    typer.echo("\n\n".join(blocks))


def list_cmd(
    ctx: typer.Context,
    since: SinceOpt = None,
    until: UntilOpt = None,
    season: SeasonOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The payments recorded (the ones taken back left out), oldest first."""
    from ledger.book.payments import live_payments
    from ledger.book.scope import date_range
    from ledger.core.settlement import format_amount
    from ledger.present.text import dumps, table

    paid = []
    if ledger_exists(ctx):
        with open_db(ctx) as ledger:
            paid = live_payments(ledger, date_range(ledger, since, until, season))
    if json_out:
        typer.echo(dumps([p.to_dict() for p in paid]))
        return
    if not paid:
        typer.echo(_("no payments recorded; record one with bigtwo paid PAYER PAYEE AMOUNT"))
        return
    typer.echo(table([[p.uuid[:8], p.day, p.payer, p.payee, format_amount(p.amount), p.currency,
                       "" if p.session_id is None else str(p.session_id), p.note or ""]
                      for p in paid],
                     [_("payment"), _("date"), _("from"), _("to"), _("amount"), _("currency"),
                      _("session"), _("note")], align_right=False))


def undo_cmd(
    ctx: typer.Context,
    payment: Annotated[str | None, typer.Argument(
        help="The payment's uuid, or its first characters (default: the latest).",
        metavar="PAYMENT")] = None,
) -> None:
    """Take back a payment (it stays in the ledger, marked as taken back)."""
    from ledger.book.payments import undo_payment

    with open_db(ctx) as ledger:
        done = undo_payment(ledger, payment)
    typer.echo(_("took back: {what} (payment {uuid})").format(what=_who(done), uuid=done.uuid[:8]))
