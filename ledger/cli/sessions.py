"""``bigtwo session``: start, list, show, pick, end and reopen sessions."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.common import (
    GIVEN_RULES,
    NUMBER,
    SessionOpt,
    group,
    ledger_exists,
    open_db,
)
from ledger.core.i18n import _

session_app = group("Start, list, show, pick, end and reopen sessions.")

@session_app.command("start")
def session_start(
    ctx: typer.Context,
    players: Annotated[str, typer.Option("--players", help="Names in seat order: Ann,Ben,Cat,Dan")],
    rules: Annotated[str, typer.Option("--rules", callback=GIVEN_RULES,
                                         help="Preset name or rule file .toml.")] = "classic",
    stake: Annotated[str, typer.Option("--stake", help="Money per point, e.g. 0.25.")] = "1",
    currency: Annotated[str, typer.Option("--currency", help="Currency code, e.g. USD.")] = "PTS",
    name: Annotated[str | None, typer.Option("--name", help="A name for the evening.")] = None,
    teams: Annotated[bool, typer.Option("--teams", help="Partners opposite: seats 1+3, 2+4.")] = False,
) -> None:
    """Start a session and make it the current one."""
    from ledger.book import actions as book
    from ledger.core.rules import load_rules
    from ledger.core.settlement import parse_currency, parse_stake
    from ledger.core.text import clean_session_name
    from ledger.present.text import session_title

    rule_set = load_rules(rules)
    stake_value = parse_stake(stake)
    currency_code = parse_currency(currency)
    seats = players.split(",")
    # Checked before the ledger is opened, so a refused session creates no ledger file.
    book.check_session(rule_set, book.check_player_names(seats), teams)
    name = clean_session_name(name or "")
    with open_db(ctx, create=True) as ledger:
        s = book.start_session(ledger, seats, rule_set, stake_value, currency_code, name, teams)
        typer.echo(_("started {session}").format(session=session_title(s)))


@session_app.command("list")
def session_list(
    ctx: typer.Context,
    json_out: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
) -> None:
    """List every session."""
    from ledger.book import actions as book
    from ledger.book.clock import local_day
    from ledger.present.text import dumps, table

    sessions, current = [], None
    if ledger_exists(ctx):
        with open_db(ctx) as ledger:
            sessions = ledger.journal.sessions()
            current = ledger.journal.get_setting(book.CURRENT_KEY)
    if json_out:
        typer.echo(dumps([s.to_dict() for s in sessions]))
        return
    if not sessions:
        typer.echo(_("no sessions yet; start one with: bigtwo session start --players Ann,Ben,Cat,Dan"))
        return
    rows = [
        ["*" if str(s.id) == current else "", s.id, local_day(s.started_at), s.name, ", ".join(s.seats),
         s.rules_name, f"{s.stake} {s.currency}", s.deals, _("ended") if s.ended_at else _("open")]
        for s in sessions
    ]
    headers = [_("current"), _("id"), _("date"), _("name"), _("players"), _("rules"), _("stake"),
               _("deals"), _("status")]
    typer.echo(table(rows, headers, align_right=False))


@session_app.command("show")
def session_show(
    ctx: typer.Context,
    session_id: Annotated[int | None, typer.Argument(
        parser=NUMBER, help="Session ID (default: current).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
) -> None:
    """Show a session: its rules, seats and standings."""
    from ledger.book import actions as book
    from ledger.book import reports
    from ledger.present.text import dumps, session_title, standings_text

    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session_id)
        st = reports.standings(ledger, [s])
    if json_out:
        typer.echo(dumps({**s.to_dict(full_rules=True), "standings": st.to_dict()}))
        return
    from ledger.present.fit import screen_width, wrap

    typer.echo(wrap(session_title(s), screen_width()))
    typer.echo(standings_text(st))


@session_app.command("use")
def session_use(
    ctx: typer.Context,
    session_id: Annotated[int, typer.Argument(parser=NUMBER, help="Session ID.")],
) -> None:
    """Make a session the current one."""
    from ledger.book import actions as book
    from ledger.present.text import session_title

    with open_db(ctx) as ledger:
        chosen = book.use_session(ledger, session_id)
        typer.echo(_("now using {session}").format(session=session_title(chosen)))


@session_app.command("end")
def session_end(ctx: typer.Context, session: SessionOpt = None) -> None:
    """End a session: no more deals can be added (corrections still can)."""
    from ledger.book import actions as book
    from ledger.book import reports
    from ledger.book.owed import recorded_for, with_payments
    from ledger.book.scope import Scope
    from ledger.book.views import settle_view
    from ledger.present.text import payments_text, session_title, settlement_text, standings_text

    with open_db(ctx) as ledger:
        s = book.end_session(ledger, book.current_session(ledger, session))
        typer.echo(_("ended {session}").format(session=session_title(s)))
        if s.deals:  # the final word, the money first: who pays whom, then how
            money = reports.settle(ledger, [s])
            view = settle_view(with_payments(ledger, money, Scope([s], False)),
                               recorded_for(ledger, [s]))
            standings = standings_text(reports.standings(ledger, [s]), money=money)
    if s.deals:
        typer.echo("")
        typer.echo(payments_text(view))
        typer.echo("")
        typer.echo(standings)
        typer.echo("")
        typer.echo(_("the working (bigtwo settle prints it again):"))
        typer.echo(settlement_text(view, plan=False))


@session_app.command("reopen")
def session_reopen(
    ctx: typer.Context,
    session_id: Annotated[int | None, typer.Argument(help="Session ID (default: the current one).")] = None,
) -> None:
    """Reopen an ended session so it takes deals again (undo takes it back)."""
    from ledger.book import actions as book
    from ledger.present.text import session_title

    with open_db(ctx) as ledger:
        s = book.reopen_session(ledger, book.current_session(ledger, session_id))
        typer.echo(_("reopened {session} (undo takes it back)").format(session=session_title(s)))
