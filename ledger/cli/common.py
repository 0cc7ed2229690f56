"""Shared pieces of the command line: the error-handling group, the ledger path,
common options.  Command modules import from here, never from each other."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ledger.core.errors import InputError, LedgerError

DB_ENV = "BIGTWO_DB"
APP_NAME = "bigtwo-ledger"


class LedgerGroup(TyperGroup):
    """Shows every LedgerError as one line on stderr with its exit code, no traceback."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        names = super().list_commands(ctx)
        if ctx.parent is None:  # the root: feature commands load on demand
            from ledger.cli.commands import LAZY

            names += [n for n in LAZY if n not in names]
        return names

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is None and ctx.parent is None:
            from ledger.cli.commands import load

            command = load(cmd_name)
        return command

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except LedgerError as exc:
            from ledger.core.text import shown

            lines = f"error: {exc}".split("\n")  # an import's conflicts take several lines
            typer.echo("\n".join(shown(line) for line in lines), err=True)
            ctx.exit(exc.exit_code)


def group(help_text: str) -> typer.Typer:
    return typer.Typer(cls=LedgerGroup, help=help_text, no_args_is_help=True,
                       pretty_exceptions_enable=False, rich_markup_mode=None,
                       add_completion=False)


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False)) / "ledger.db"


def db_path(ctx: typer.Context) -> tuple[str, bool]:
    """The ledger path and whether it is the default one (whose folder we may create)."""
    given = ctx.find_root().obj.get("db") if ctx.find_root().obj else None
    if given:
        return given, False
    env = os.environ.get(DB_ENV)
    if env:
        return env, False
    return str(default_db_path()), True


def open_db(ctx: typer.Context, create: bool = False):
    """Open the ledger.  Only commands that add something (``create``) make a new file:
    a command that fails on a missing ledger leaves no empty ledger behind."""
    from ledger.storage.store import open_ledger

    path, is_default = db_path(ctx)
    if not create and not os.path.exists(path) and (is_default or Path(path).parent.is_dir()):
        raise InputError(
            f"no current session (no sessions yet: there is no ledger at {path}); start one with "
            "bigtwo session start --players Ann,Ben,Cat,Dan (or bigtwo import FILE)"
        )
    return open_ledger(path, create_folder=is_default)


def ledger_exists(ctx: typer.Context) -> bool:
    """Is there a ledger to read?  (A missing folder counts as "yes", so that opening
    it reports the folder.)"""
    path = db_path(ctx)[0]
    return os.path.exists(path) or not Path(path).parent.is_dir()


SessionOpt = Annotated[
    int | None, typer.Option("--session", help="Session ID (default: the current session).")
]


AllOpt = Annotated[bool, typer.Option("--all", help="Every session in the ledger.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="JSON output.")]


def scope_sessions(ledger: Any, session: int | None, all_sessions: bool) -> list[Any]:
    """The sessions a report covers: --session ID, --all, or the current session."""
    from ledger.book import actions as book
    from ledger.book import reports

    if all_sessions and session is not None:
        raise InputError("give --session ID or --all, not both")
    current = None if all_sessions else book.current_session(ledger, session)
    return reports.pick_sessions(ledger, current, all_sessions)
