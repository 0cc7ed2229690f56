"""Looking after the ledger: ``doctor`` (self-check), ``backup`` and ``restore``.

See docs/reliability.md.  Only typer, the standard library and ledger.cli.common are
imported here at load time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.common import GIVEN_FILE, JsonOpt, db_path, open_db
from ledger.core.i18n import _, ngettext


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor_cmd)
    app.command("backup")(backup_cmd)
    app.command("restore")(restore_cmd)


def _existing_ledger(ctx: typer.Context) -> str:
    from ledger.core.errors import StoreError

    path = db_path(ctx)[0]
    if not Path(path).is_file():
        raise StoreError(_("no ledger at {path} yet (nothing to check or back up)").format(path=path))
    return path


def doctor_cmd(
    ctx: typer.Context,
    full: Annotated[
        bool, typer.Option("--full", help="Derive every deal on its own, and SQLite's full "
                           "integrity_check instead of quick_check (slower).")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Check the ledger: file integrity, every deal's points against its facts, nets sum to zero.

    Sessions that SQL digests prove sound are not replayed; every other deal is
    derived again from its facts (--full derives every deal). Exits 1 when anything is
    found; each finding names the deal, the expected and the stored value, and the
    difference.
    """
    from ledger.book.doctor import check_ledger

    _existing_ledger(ctx)
    with open_db(ctx) as ledger:
        report = check_ledger(ledger, full=full)
    if json_out:
        from ledger.present.text import dumps

        typer.echo(dumps(report.to_dict()))
    else:
        typer.echo(report.text())
    if not report.ok:
        raise typer.Exit(1)


def backup_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(
        callback=GIVEN_FILE, help="The backup file to write, e.g. ledger-2025-06-01.db.")],
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Save a consistent copy of the ledger (SQLite's online backup API; safe while others write)."""
    from ledger.storage.backup import backup_ledger

    path = _existing_ledger(ctx)
    with open_db(ctx) as ledger:
        written = backup_ledger(ledger, file, overwrite=force)
        counts = ledger.inspection.counts()
    typer.echo(_("backed up {path} to {file}: {sessions}, {entries} ({size} bytes)").format(
        path=path, file=written, sessions=_sessions(counts["sessions"]),
        entries=_entries(counts["entries"]), size=written.stat().st_size))


def _sessions(n: int) -> str:
    return ngettext("{count} session", "{count} sessions", n).format(count=n)


def _entries(n: int) -> str:
    return ngettext("{count} entry", "{count} entries", n).format(count=n)


def restore_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(callback=GIVEN_FILE, help="A backup made by bigtwo backup.")],
) -> None:
    """Replace the ledger with a backup that passes the self-check.

    The current ledger is first saved beside it as NAME.before-restore-<time>.db.
    """
    from ledger.book.doctor import data_problems, full_problems
    from ledger.formats.rebuild import rebuild
    from ledger.storage.backup import restore_ledger

    path, is_default = db_path(ctx)
    # the full check (doctor --full's), whatever the plain doctor checks
    done = restore_ledger(path, file, rebuild=rebuild, check=full_problems,
                          check_backup=data_problems,
                          create_folder=is_default)
    typer.echo(_("restored {path} from {file}: {sessions}, {entries}").format(
        path=path, file=file, sessions=_sessions(done.sessions), entries=_entries(done.entries)))
    if done.previous is not None:
        typer.echo(_("the ledger it replaced was saved as {file}").format(file=done.previous))
        if done.only_before:
            typer.echo(_("that copy holds what the restored ledger does not: {rows}").format(
                rows=_("; ").join(_rows(table, n) for table, n in sorted(done.only_before.items()))))


def _rows(table: str, n: int) -> str:
    """``2 entries``, ``1 payment``: rows of a table with uuids, counted."""
    words = {
        "entries": ngettext("{count} entry", "{count} entries", n),
        "sessions": ngettext("{count} session", "{count} sessions", n),
        "payments": ngettext("{count} payment", "{count} payments", n),
        "seasons": ngettext("{count} season row", "{count} season rows", n),
        "player_events": ngettext("{count} rename or merge", "{count} renames or merges", n),
        "imports": ngettext("{count} import", "{count} imports", n),
    }
    return words.get(table, f"{{count}} {table}").format(count=n)

