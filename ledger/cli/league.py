"""``bigtwo standings --by month|year [--min-deals N]``: the league table rendered
(the data is ledger.book.league's); loaded only when ``--by`` is given."""

from __future__ import annotations

import typer

from ledger.cli.common import chosen_scope, open_db
from ledger.core.errors import InputError
from ledger.core.i18n import _, ngettext


def league_cmd(ctx: typer.Context, by: str | None, min_deals: int | None, json_out: bool,
               session: int | None, all_sessions: bool, since: str | None, until: str | None,
               season: str | None) -> None:
    from ledger.book.league import league
    from ledger.present.text import dumps, signed, table

    if by is None:
        raise InputError(_("--min-deals is for a league table: give --by month or --by year"))
    if session is not None:
        raise InputError(_("a league table covers every session or a range of dates, not "
                           "--session ID"))
    with open_db(ctx) as ledger:
        scope = chosen_scope(ledger, None, all_sessions, since, until, season, default_all=True)
        result = league(ledger, scope, by, min_deals)
    if json_out:
        typer.echo(dumps(result.to_dict()))
        return
    headers = [_("player"), _("sessions"), _("deals"), _("wins"), _("net")]
    if min_deals is not None:
        headers.append(_("qualified"))
    blocks = []
    for block in result.blocks:
        cells = []
        for r in block.players:
            row: list[object] = [r.player, r.sessions, r.deals, r.wins, signed(r.net), signed(r.money)]
            if r.qualified is not None:
                row.append(_("yes") if r.qualified else _("no"))
            cells.append(row)
        title = f"{block.period} ({block.currency})"
        blocks.append(f"{title}\n" + table(cells, [*headers[:5], block.currency, *headers[5:]]))
    if min_deals is not None:
        blocks.append(ngettext("qualified: at least {count} deal in the period",
                               "qualified: at least {count} deals in the period",
                               min_deals).format(count=min_deals))
    typer.echo("\n\n".join(blocks))
