"""The ``bigtwo`` command line: thin wrappers that parse, call the core, print.

Heavy modules (tabulate, matplotlib) are imported inside the commands that use
them, so recording a deal starts fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from ledger.cli.common import (
    DB_ENV,
    DEAL_NUMBER,
    GIVEN_FILE,
    GIVEN_LEDGER,
    GIVEN_RULES,
    AllOpt,
    JsonOpt,
    SeasonOpt,
    SessionOpt,
    SinceOpt,
    UntilOpt,
    chosen_scope,
    db_path,
    group,
    open_db,
    root_group,
)
from ledger.cli.sessions import session_app
from ledger.core.fact_help import deal_help
from ledger.core.i18n import _

app = root_group("Keep score and settle money for Big Two played with real cards.")
rules_app = group("The rule sets: presets shipped with the tool.")
db_app = group("Where the ledger lives.")
app.add_typer(session_app, name="session")
app.add_typer(rules_app, name="rules")
app.add_typer(db_app, name="db")


def _show_version(value: bool) -> None:
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("bigtwo-ledger")
    except PackageNotFoundError:  # run from a checkout that is not installed
        number = "(not installed)"
    typer.echo(f"bigtwo {number}")
    raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option("--db", callback=GIVEN_LEDGER,
                     help=f"Ledger file (default: ${DB_ENV}, else your data folder)."),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="Interface language: en, zh_Hant (繁體, Hong Kong) or zh_Hans "
                                    "(简体) (default: $BIGTWO_LANG, else LC_ALL / LC_MESSAGES / LANG)."),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_show_version,
                      help="Print the version and exit."),
    ] = False,
) -> None:
    """Keep score and settle money for Big Two played with real cards."""
    ctx.obj = {"db": db}  # --lang was applied before the arguments were parsed (LedgerGroup)


# --- db ---------------------------------------------------------------------


@db_app.command("path")
def db_path_cmd(ctx: typer.Context) -> None:
    """Print the ledger file this command would use."""
    typer.echo(db_path(ctx)[0])


# --- rules ------------------------------------------------------------------


@rules_app.command("list")
def rules_list(json_out: Annotated[bool, typer.Option("--json", help="JSON output.")] = False) -> None:
    """List the preset rule sets and the options each one sets."""
    from ledger.core.rules import load_preset, preset_names, preset_settings
    from ledger.present.rules_text import rules_list_text
    from ledger.present.text import dumps

    presets = [load_preset(n) for n in preset_names()]
    settings = {r.name: preset_settings(r.name) for r in presets}
    if json_out:
        typer.echo(dumps([r.to_dict() | {"sets": settings[r.name]} for r in presets]))
        return
    typer.echo(rules_list_text(presets, settings))


@rules_app.command("show")
def rules_show(
    name: Annotated[str, typer.Argument(callback=GIVEN_RULES,
                                       help="A preset name or a rule file (.toml).")],
    json_out: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
) -> None:
    """Show every option of a rule set, each explained in one line with its source."""
    from ledger.core.rules import load_rules
    from ledger.present.rules_text import rules_show_lines
    from ledger.present.text import dumps

    rules = load_rules(name)
    if json_out:
        typer.echo(dumps(rules.to_dict()))
        return
    from ledger.core.rules import preset_sources
    from ledger.core.text import shown

    sources = {} if name.endswith(".toml") else preset_sources(name)
    lines = rules_show_lines(rules, sources)
    typer.echo("\n".join(shown(line) for line in lines))  # no raw escapes


# --- deals --------------------------------------------------------------------


def echo_view(view: Any, json_out: bool, text: Callable[[], str]) -> None:
    """Print a view record: its ``to_dict()`` with ``--json`` (what the hub's op answers),
    else its text."""
    if json_out:
        from ledger.present.text import dumps

        typer.echo(dumps(view.to_dict()))
        return
    typer.echo(text())


# Every deal option with what it records: from the registry of deal facts.
DEAL_HELP = deal_help()

# Deal words are parsed by ledger.core.deal_line (one grammar for the command line, the
# table loop and sample files); Typer only collects them.
WORDS_SETTINGS = {"allow_extra_args": True, "ignore_unknown_options": True}
WordsArg = Annotated[list[str] | None, typer.Argument(help="The deal: see below.", metavar="DEAL...")]


@app.command("deal", context_settings=WORDS_SETTINGS, epilog=DEAL_HELP)
def deal_cmd(ctx: typer.Context, words: WordsArg = None, session: SessionOpt = None,
             json_out: JsonOpt = False) -> None:
    """Record a deal: bigtwo deal Ann=0 Ben=3 Cat=11 Dan=8"""
    from ledger.book import actions as book
    from ledger.book.views import after_deal
    from ledger.core.deal_line import build_deal, shell_words, split_words
    from ledger.present.text import after_deal_text

    args = split_words(shell_words(words or []))  # "0　3　8　12": one word, four counts
    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session)
        deal = build_deal(args, book.deal_seats(ledger, s), book.session_rules(s))
        view = after_deal(ledger, s, book.record_deal(ledger, s, deal))
    echo_view(view, json_out, lambda: after_deal_text(view, "deal"))


@app.command("amend", context_settings=WORDS_SETTINGS, epilog=DEAL_HELP)
def amend_cmd(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(parser=DEAL_NUMBER,
                                          help="The deal number to correct.")],
    words: WordsArg = None,
    session: SessionOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Replace a deal's facts with corrected ones (a new entry; the old stays in the log)."""
    from ledger.book import actions as book
    from ledger.book.views import after_deal
    from ledger.core.deal_line import build_deal, shell_words, split_words
    from ledger.present.text import after_deal_text

    args = split_words(shell_words(words or []))  # "0　3　8　12": one word, four counts
    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session)
        deal = build_deal(args, book.deal_seats(ledger, s, number), book.session_rules(s))
        view = after_deal(ledger, s, book.amend_deal(ledger, s, number, deal))
    echo_view(view, json_out, lambda: after_deal_text(view, "amended deal"))


# "-1" is a (bad) deal number, not an unknown option: the book answers which numbers exist.
@app.command("void", context_settings={"ignore_unknown_options": True})
def void_cmd(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(parser=DEAL_NUMBER,
                                          help="The deal number to void.")],
    session: SessionOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Void a deal (a new entry; the deal stays in the log)."""
    from ledger.book import actions as book
    from ledger.book.views import after_deal
    from ledger.present.text import after_deal_text

    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session)
        view = after_deal(ledger, s, book.void_deal(ledger, s, number))
    echo_view(view, json_out, lambda: after_deal_text(view, "void"))


@app.command("undo")
def undo_cmd(ctx: typer.Context, session: SessionOpt = None, json_out: JsonOpt = False) -> None:
    """Take back the last action: a deal, amend or void, a session end, the start of a
    session with no deals, or a player rename or merge.  Undo again to walk further back;
    it is itself an entry."""
    from ledger.book import actions as book
    from ledger.book.views import undone_view
    from ledger.present.text import undo_text

    with open_db(ctx) as ledger:
        from ledger.book import players

        sid = session if session is not None else book.current_session_id(ledger)
        if players.undo_comes_first(ledger, sid):
            change = players.undo_last(ledger)
            echo_view(change, json_out, lambda: players.undo_text(change))
            return
        s = book.current_session(ledger, session)
        view = undone_view(ledger, book.undo(ledger, s))
    echo_view(view, json_out, lambda: undo_text(view.undone, view.after, said=True))


@app.command("log")
def log_cmd(
    ctx: typer.Context,
    session: SessionOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
    wide: Annotated[bool, typer.Option("--wide", help="Every column, whatever the screen's width.")] = False,
) -> None:
    """Every entry of a session, voids and amendments included."""
    from ledger.book import actions as book
    from ledger.book import views
    from ledger.present.fit import report_width, screen_width, wrap
    from ledger.present.text import dumps, log_text, session_title

    with open_db(ctx) as ledger:
        view = views.log(ledger, book.current_session(ledger, session))
    if json_out:
        typer.echo(dumps(view.to_dict()))
        return
    typer.echo(wrap(session_title(view.session), screen_width()))
    typer.echo(log_text(view, report_width(wide)))
    if view.seat_lines:
        typer.echo("\n" + _("seats changed:"))
        for line in view.seat_lines:
            typer.echo(wrap("  " + line, screen_width()))
    if view.event_lines:
        typer.echo("\n" + _("players renamed or merged:"))
        for line in view.event_lines:
            typer.echo(wrap("  " + line, screen_width()))


# --- reports ------------------------------------------------------------------

@app.command("standings")
def standings_cmd(
    ctx: typer.Context, session: SessionOpt = None, all_sessions: AllOpt = False,
    since: SinceOpt = None, until: UntilOpt = None, season: SeasonOpt = None,
    json_out: JsonOpt = False,
    by: Annotated[str | None, typer.Option(
        "--by", help="A league table per month or year (every session, or the range): "
                     "attendance, deals, wins, net points and money, per currency.")] = None,
    min_deals: Annotated[int | None, typer.Option(
        "--min-deals", metavar="N", min=0,
        help="With --by: mark who played at least N deals in the period (qualified).")] = None,
) -> None:
    """Deals, wins, fried, penalty and net points per player."""
    from ledger.book import reports
    from ledger.core.i18n import ngettext
    from ledger.present.text import dumps, session_title, standings_text

    if by is not None or min_deals is not None:
        from ledger.cli.league import league_cmd

        league_cmd(ctx, by, min_deals, json_out, session, all_sessions, since, until, season)
        return
    with open_db(ctx) as ledger:
        scope = chosen_scope(ledger, session, all_sessions, since, until, season)
        if scope.everything and len(scope.sessions) > 1:
            st = reports.standings_all(ledger)
        else:
            st = reports.standings(ledger, scope.sessions)
    if json_out:
        typer.echo(dumps({**st.to_dict(), **({"range": scope.range.to_dict()} if scope.range else {})}))
        return
    if scope.range:
        typer.echo(_("{scope} (net points added up)").format(scope=scope.describe()))
    elif len(st.sessions) == 1:
        from ledger.present.fit import screen_width, wrap

        typer.echo(wrap(session_title(st.sessions[0]), screen_width()))
    else:
        typer.echo(ngettext("all {count} session (net points added up)",
                            "all {count} sessions (net points added up)",
                            len(st.session_ids)).format(count=len(st.session_ids)))
    typer.echo(standings_text(st))


@app.command("settle")
def settle_cmd(
    ctx: typer.Context, session: SessionOpt = None, all_sessions: AllOpt = False,
    since: SinceOpt = None, until: UntilOpt = None, season: SeasonOpt = None,
    json_out: JsonOpt = False,
    round_to: Annotated[str | None, typer.Option(
        "--round", metavar="COIN",
        help="Pay in whole coins: 1, 5, 0.5, 0.05 … (nets still add up to 0; largest remainder).",
    )] = None,
    fmt: Annotated[str, typer.Option(
        "--format", metavar="FORMAT",
        help="table (default), text (for a chat app), markdown, or png (a card to share).",
    )] = "table",
    out: Annotated[str | None, typer.Option(
        "--out", callback=GIVEN_FILE,
        help="With --format png: the file (default bigtwo-settle-SCOPE.png here).",
    )] = None,
    qr: Annotated[bool, typer.Option(
        "--qr", help="Draw each payment's code (FPS, PayNow, PromptPay or the payee's own "
                     "receive code: bigtwo player pay-id) to scan with a banking app.",
    )] = False,
) -> None:
    """Who pays whom: nets, pair by pair, and the fewest payments."""
    from ledger.book import reports
    from ledger.core.errors import InputError

    share_formats = ("table", "text", "markdown", "png")
    if fmt not in share_formats:
        raise InputError(_("unknown --format {value!r}; choose from {formats}").format(
            value=fmt, formats=", ".join(share_formats)))
    if out is not None and fmt != "png":
        raise InputError(_("--out is for --format png"))
    if qr and (json_out or fmt != "table"):
        raise InputError(_("--qr draws the codes on its own: leave out --json and --format"))
    coin = None
    if round_to is not None:
        from ledger.core.settlement import parse_coin

        coin = parse_coin(round_to)
    with open_db(ctx) as ledger:
        scope = chosen_scope(ledger, session, all_sessions, since, until, season)
        if scope.everything and len(scope.sessions) > 1:
            st = reports.settle_all(ledger)
        else:
            st = reports.settle(ledger, scope.sessions)
        from ledger.book.owed import recorded_for, with_payments

        st = with_payments(ledger, st, scope)
        recorded = recorded_for(ledger, scope.sessions)
        ids = None
        if json_out or qr:  # the scorekeeper's own terminal: pay ids, never in a share
            from ledger.book.pay_ids import pay_ids

            ids = pay_ids(ledger)
    if coin is not None:
        st = st.rounded(coin)
    if json_out or qr:
        from ledger.book.views import settle_view

        view = settle_view(st, recorded, ids)
        if qr:
            import sys

            from ledger.present.fit import screen_width
            from ledger.present.qr import pay_codes_text

            typer.echo(pay_codes_text(view, colour=sys.stdout.isatty(), width=screen_width()))
            return
        from ledger.present.text import dumps

        typer.echo(dumps(view.to_dict()))
        return
    if fmt == "table":
        from ledger.book.views import settle_view
        from ledger.present.text import settlement_text

        typer.echo(settlement_text(settle_view(st, recorded)))
        return
    from ledger.present import share

    if fmt == "text":
        typer.echo(share.chat_text(st))
    elif fmt == "markdown":
        typer.echo(share.markdown(st))
    else:
        from pathlib import Path

        path = share.card(st, Path(out) if out else share.default_card_path(st),
                          lambda line: typer.echo(line, err=True))
        typer.echo(str(path.resolve()))


@app.command("demo")
def demo_cmd(
    ctx: typer.Context,
    keep: Annotated[bool, typer.Option("--keep", help="Keep the demo ledger and plot "
                                       "(default: a temporary folder, removed at the end).")] = False,
) -> None:
    """Load the sample evening into a fresh ledger and show standings and settlement."""
    import shutil
    import tempfile

    given = ctx.find_root().obj.get("db")
    folder = None
    if given:
        path = given
    else:
        folder = tempfile.mkdtemp(prefix="bigtwo-demo-")
        path = os.path.join(folder, "demo.db")
    try:
        _demo(path, folder is None or keep)
    finally:
        if folder is not None and not keep:
            shutil.rmtree(folder, ignore_errors=True)


def _demo(path: str, kept: bool) -> None:
    from ledger.book import reports
    from ledger.book.views import settle_view
    from ledger.formats import samples
    from ledger.present.text import session_title, settlement_text, standings_text
    from ledger.storage.store import open_ledger

    with open_ledger(path) as ledger:
        sessions = samples.load_file(ledger, samples.samples_dir() / "evening.toml")
        s = sessions[0]
        typer.echo(_("demo ledger: {path}").format(path=path))
        typer.echo(session_title(s))
        typer.echo("")
        typer.echo(standings_text(reports.standings(ledger, [s])))
        typer.echo("")
        typer.echo(settlement_text(settle_view(reports.settle(ledger, [s]))))
        from pathlib import Path

        from ledger.book.scope import select
        from ledger.present import plots

        typer.echo("")
        if not kept:  # no plot named in a folder about to go: say how to keep one
            typer.echo(_("(a temporary folder, removed now; bigtwo demo --keep keeps the ledger "
                         "and draws its plot)"))
            return
        chart = Path(path).resolve().with_name(f"{Path(path).stem}-net.png")
        plots.plot(ledger, select(ledger, s.id, False), "net", chart)
        typer.echo(_("plot: {path}").format(path=chart))



def main() -> None:
    """Console-script entry point."""
    import signal

    # A terminated command (kill, a closing terminal) unwinds like Ctrl-C: its open
    # transaction rolls back and its temporary files are removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        app(prog_name="bigtwo")
    except KeyboardInterrupt:
        typer.echo(_("interrupted; nothing half-written is kept"), err=True)
        sys.exit(130)
