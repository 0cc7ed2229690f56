"""``bigtwo export``, ``bigtwo import`` and ``bigtwo check`` (docs/import-export.md,
docs/paper-check.md)."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ledger.cli.common import (
    GIVEN_FILE,
    NUMBER,
    AllOpt,
    JsonOpt,
    SeasonOpt,
    SessionOpt,
    SinceOpt,
    UntilOpt,
    chosen_scope,
    open_db,
)
from ledger.core.i18n import _, ngettext

PROGRESS_MIN_ENTRIES = 1000  # one session smaller than this imports without a bar


class ExportFormat(StrEnum):
    json = "json"
    csv = "csv"


class ImportFormat(StrEnum):
    json = "json"
    sheet = "sheet"


def register(app: typer.Typer) -> None:
    app.command("export")(export_cmd)
    app.command("import")(import_cmd)
    app.command("check")(check_cmd)


def export_cmd(
    ctx: typer.Context,
    session: SessionOpt = None,
    all_sessions: AllOpt = False,
    since: SinceOpt = None,
    until: UntilOpt = None,
    season: SeasonOpt = None,
    fmt: Annotated[
        ExportFormat,
        typer.Option("--format", help="json: lossless, for bigtwo import; csv: one row per "
                                      "player per deal, for spreadsheets."),
    ] = ExportFormat.json,
    out: Annotated[
        Path | None, typer.Option("--out", callback=GIVEN_FILE,
                                  help="Write to this file (default: standard output).")
    ] = None,
    with_pay_ids: Annotated[bool, typer.Option(
        "--with-pay-ids", help="JSON only: also the players' pay ids (personal data: "
                               "left out unless asked).")] = False,
) -> None:
    """Export sessions as JSON (lossless, for import elsewhere) or CSV (for spreadsheets)."""
    from ledger.formats import exchange as transfer
    from ledger.formats import file_kinds

    if with_pay_ids and fmt is ExportFormat.csv:
        from ledger.core.errors import InputError

        raise InputError(_("--with-pay-ids is for --format json"))
    with open_db(ctx) as ledger:
        scope = chosen_scope(ledger, session, all_sessions, since, until, season)
        sessions = scope.sessions
        own = ledger.pay_ids.rows([s.id for s in sessions]) if with_pay_ids else []

        def write(f: Any) -> int:
            if fmt is ExportFormat.csv:
                from ledger.formats.csv_export import export_csv

                return export_csv(ledger, sessions, f)
            from ledger.formats.payments_io import exported_rows

            return transfer.export_json(ledger, sessions, f,
                                        exported_rows(ledger, sessions, scope.everything, scope.range),
                                        own)

        if out is None:
            write(sys.stdout)
            return
        count = file_kinds.write_file(out, write)
    what = (ngettext("{count} entry", "{count} entries", count) if fmt is ExportFormat.json
            else ngettext("{count} row", "{count} rows", count)).format(count=count)
    typer.echo(ngettext("exported {count} session ({what}) to {out}",
                        "exported {count} sessions ({what}) to {out}", len(sessions)).format(
                            count=len(sessions), what=what, out=out))


def import_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(callback=GIVEN_FILE,
                                         help="A JSON export, a backup (bigtwo backup), or a score "
                                              "sheet of big-two-scorer or big-two-stats.",
                                         metavar="FILE")],
    fmt: Annotated[
        ImportFormat | None,
        typer.Option("--format", help="json or sheet (default: json if the file starts with {, "
                                      "else a score sheet)."),
    ] = None,
    fry: Annotated[
        int | None,
        typer.Option("--fry", metavar="N", help="The fry threshold of a big-two-stats sheet "
                                               "(dates as yyyymmdd lines): 1 to 12, default 10."),
    ] = None,
    standings: Annotated[bool, typer.Option(
        "--standings", help="Then print the standings of the sessions in the file, as "
                            "big-two-scorer prints its table.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Import a JSON export, a backup or a score sheet; importing it again adds nothing."""
    from ledger.formats import exchange as transfer
    from ledger.formats import file_kinds
    from ledger.formats.merge import ImportConflict
    from ledger.present.text import dumps

    file_kinds.check_importable(file)  # before the ledger is opened (or created)
    if fry is not None:
        file_kinds.check_fry(file, None if fmt is None else fmt.value, fry)
    with ExitStack() as stack:

        def start_progress(sessions: int, entries: int) -> Any:
            if sessions <= 1 and entries < PROGRESS_MIN_ENTRIES:
                return None
            bar = stack.enter_context(
                typer.progressbar(length=entries, label=_("importing {name}").format(name=file.name),
                                  file=sys.stderr)
            )
            return bar.update

        ledger = stack.enter_context(open_db(ctx, create=True))
        if fmt is None and fry is None and file_kinds.is_backup(file):  # checked as restore does
            from ledger.formats.backup_import import import_backup

            report = import_backup(ledger, file)
        else:
            report = transfer.import_file(ledger, file, None if fmt is None else fmt.value,
                                          start_progress, fry)
        table = None
        if standings and report.session_ids:
            from ledger.book import reports

            table = reports.standings(ledger, ledger.journal.sessions_of(report.session_ids))
    if json_out:
        typer.echo(dumps({**report.to_dict(), **({"standings": table.to_dict()} if table else {})}))
    else:
        typer.echo(report.summary())
        if table is not None:
            from ledger.present.text import standings_text

            typer.echo(standings_text(table))
    if report.conflicts:
        raise ImportConflict(report.conflict_text())


def check_cmd(
    ctx: typer.Context,
    totals: Annotated[
        list[str],
        typer.Argument(help="NAME=TOTAL for each player on the sheet, or NAME=T1,T2,... deal by deal.",
                       metavar="NAME=TOTAL"),
    ],
    session: SessionOpt = None,
    after: Annotated[
        int | None,
        typer.Option("--after", parser=NUMBER,
                     help="The sheet's last total is after this deal (default: the last)."),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Check a paper score sheet's running penalty totals against the ledger."""
    from ledger.book import actions as book
    from ledger.book import papercheck
    from ledger.core.deal_line import facts_text
    from ledger.present.text import dumps, signed, table

    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session)
        result = papercheck.check(ledger, s, totals, after)
    if json_out:
        typer.echo(dumps(result.to_dict()))
    else:
        span = (_("deals {first} to {last}, deal by deal").format(
                    first=result.deals[0], last=result.deals[-1])
                if len(result.deals) > 1 else _("after deal {deal}").format(deal=result.after))
        typer.echo(_("paper check of session {id} ({players}): {span}").format(
            id=s.id, players=", ".join(s.seats), span=span))
        rows = []
        for p in result.players:
            where = ""
            if p.first_differs is not None:
                where = _("deal {deal}").format(deal=p.first_differs)
                if p.sheet_added is not None:
                    where = _("deal {deal} (sheet +{sheet}, ledger +{ledger})").format(
                        deal=p.first_differs, sheet=p.sheet_added, ledger=p.ledger_added)
            rows.append([p.name, p.sheet, p.ledger, signed(p.difference), where])
        typer.echo(table(rows, [_("player"), _("sheet"), _("ledger"), _("difference"),
                                _("first differs at")]))
    if result.ok:
        if not json_out:
            typer.echo(_("the sheet agrees with the ledger after deal {deal}").format(
                deal=result.after))
        return
    if result.first_differs is not None:
        facts = facts_text(result.facts) if result.facts else ""
        message = _("the sheet disagrees with the ledger from deal {deal} ({facts}); "
                    "see: bigtwo log").format(deal=result.first_differs, facts=facts)
    else:
        off = ", ".join(f"{p.name} {signed(p.difference)}" for p in result.players if p.difference)
        message = _("the sheet disagrees with the ledger after deal {deal} ({off}); give the "
                    "totals deal by deal (NAME=T1,T2,...) to find where").format(
                        deal=result.after, off=off)

    raise papercheck.SheetDisagrees(message)
