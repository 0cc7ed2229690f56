"""``bigtwo stats``, ``bigtwo history`` and ``bigtwo plot`` (docs/stats.md,
docs/history.md, docs/plots.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.common import (
    GIVEN_FILE,
    AllOpt,
    JsonOpt,
    SeasonOpt,
    SessionOpt,
    SinceOpt,
    UntilOpt,
    chosen_scope,
    ledger_exists,
    open_db,
)
from ledger.core.i18n import N_, _

PlayerOpt = Annotated[
    str | None, typer.Option("--player", help="Only this player (name as in the ledger).")
]
KindOpt = Annotated[
    str | None,
    typer.Option("--kind", help="net | timeline | sessions | distribution | rates | rating "
                                "(default: net for one session, timeline for several)."),
]
OutOpt = Annotated[
    Path | None,
    typer.Option("--out", callback=GIVEN_FILE, help="File to write: .png, .svg or .pdf "
                               "(default: bigtwo-KIND-SCOPE.png in the current folder)."),
]


LimitOpt = Annotated[
    int | None, typer.Option("--limit", help="Sessions a page shows (default 50, at most 200).")
]
BeforeOpt = Annotated[
    str | None, typer.Option("--before", metavar="CURSOR",
                             help="The next page: the sessions after the CURSOR the page before "
                                  "ended with.")
]
SearchOpt = Annotated[
    str | None, typer.Option("--search", help="Only sessions whose name, a player's name or "
                                              "number holds this text.")
]
HistoryAllOpt = Annotated[
    bool, typer.Option("--all", help="Every session at once, oldest first (no pages).")
]

WideOpt = Annotated[
    bool, typer.Option("--wide", help="Every column, whatever the screen's width (COLUMNS).")
]

NO_SESSIONS = N_("no sessions yet; start one with: bigtwo session start --players Ann,Ben,Cat,Dan")


def register(app: typer.Typer) -> None:
    app.command("stats")(stats_cmd)
    app.command("history")(history_cmd)
    app.command("plot")(plot_cmd)


def _notice(text: str) -> None:
    typer.echo(text, err=True)


def stats_cmd(
    ctx: typer.Context,
    session: SessionOpt = None,
    all_sessions: AllOpt = False,
    player: PlayerOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    season: SeasonOpt = None,
    json_out: JsonOpt = False,
    wide: WideOpt = False,
) -> None:
    """Win and fry rates, streaks, records, head to head and skill ratings."""
    from ledger.book import stats

    with open_db(ctx) as ledger:
        scope = chosen_scope(ledger, session, all_sessions, since, until, season)
        st = stats.build(ledger, scope, player, notice=_notice)
    if json_out:
        from ledger.present.text import dumps

        typer.echo(dumps(st.to_dict()))
        return
    from ledger.present.fit import report_width
    from ledger.present.stats_text import stats_text

    typer.echo(stats_text(st, report_width(wide)))


def history_cmd(
    ctx: typer.Context,
    session: SessionOpt = None,
    all_sessions: HistoryAllOpt = False,
    player: PlayerOpt = None,
    search: SearchOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    season: SeasonOpt = None,
    limit: LimitOpt = None,
    before: BeforeOpt = None,
    json_out: JsonOpt = False,
    wide: WideOpt = False,
) -> None:
    """List sessions, newest first a page at a time: date, name, players, rules, deals and
    money per player."""
    from ledger.book import views
    from ledger.core.errors import InputError

    paged = not all_sessions and session is None
    if not paged and (limit is not None or before is not None):
        raise InputError(_("--limit and --before page the list: give them without --all or "
                           "--session"))
    empty = '{"sessions": [], "total": 0, "next": null}' if paged else "[]"
    if not ledger_exists(ctx):
        typer.echo(empty if json_out else _(NO_SESSIONS))
        return
    with open_db(ctx) as ledger:
        if not ledger.journal.session_ids():
            typer.echo(empty if json_out else _(NO_SESSIONS))
            return
        page = None
        if paged and not (since or until or season):  # every session, read a page at a time
            shown = ledger.player_name(player) if player is not None else None
            page = views.history_page(ledger, None, search, before, limit, shown)
            if not page.total and shown is not None:
                from ledger.book.scope import Range, no_sessions

                raise no_sessions(shown, Range(None, None))
        else:
            scope = chosen_scope(ledger, session, all_sessions, since, until, season, player=player,
                                 default_all=True)
            if paged:
                page = views.history_page(ledger, scope, search, before, limit)
            else:
                view = views.history(ledger, scope, search)
    if json_out:
        from ledger.present.text import dumps

        typer.echo(dumps(page.to_dict() if page is not None else view.to_dict()))
        return
    from ledger.present.fit import report_width
    from ledger.present.stats_text import history_text

    if page is not None and not page.history.lines:
        typer.echo(_("no session matches {text!r}").format(text=search) if search
                   else _(NO_SESSIONS))
        return
    typer.echo(history_text(page.history if page is not None else view, report_width(wide)))
    if page is not None and page.next is not None:
        typer.echo(_("{shown} of {total} sessions; the next page: --before {cursor}").format(
            shown=len(page.history.lines), total=f"{page.total:,}", cursor=page.next), err=True)


def plot_cmd(
    ctx: typer.Context,
    session: SessionOpt = None,
    all_sessions: AllOpt = False,
    kind: KindOpt = None,
    out: OutOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    season: SeasonOpt = None,
) -> None:
    """Draw a chart to a PNG, SVG or PDF file and print its path."""
    from ledger.core.errors import InputError
    from ledger.present import plots

    if kind is not None and kind not in plots.KINDS:
        raise InputError(_("unknown plot kind {kind!r}; choose from {kinds}").format(
            kind=kind, kinds=", ".join(plots.KINDS)))

    if out is not None:
        plots.check_out(out)
    with open_db(ctx) as ledger:
        scope = chosen_scope(ledger, session, all_sessions, since, until, season)
        chosen = kind or plots.default_kind(scope)
        path = plots.plot(ledger, scope, chosen, out or plots.default_path(chosen, scope), _notice)
    typer.echo(str(path.resolve()))
