"""Shared pieces of the command line: the error-handling group, the ledger path,
common options.  Command modules import from here, never from each other."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import N_

if TYPE_CHECKING:
    from ledger.cli.lazy import LazyTyper
    from ledger.storage.store import Ledger

DB_ENV = "BIGTWO_DB"
APP_NAME = "bigtwo-ledger"


_HELP_ATTRS = ("help", "short_help", "epilog")


def localize(command: Any) -> None:
    """Put ``command``'s help texts (and its subcommands' and options') in the interface's
    language (ledger.core.i18n), keeping the English ones to go back to."""
    from ledger.core.i18n import _, language

    lang = language()
    if getattr(command, "_bigtwo_lang", "en") == lang:
        return
    command._bigtwo_lang = lang
    if lang != "en":
        import typer.core

        typer.core._ = _  # type: ignore[attr-defined]  # Typer's own headings ("Options", "Commands") go through gettext
        from ledger.cli.cjk_help import install, joined
        from ledger.cli.cjk_help import short_help as shorten

        install()  # help measured and wrapped by terminal columns, between Chinese characters
    for obj in [command, *getattr(command, "params", [])]:
        for attr in _HELP_ATTRS:
            english = obj.__dict__.setdefault(f"_en_{attr}", getattr(obj, attr, None))
            if isinstance(english, str) and english:
                setattr(obj, attr, _(english) if lang == "en" else joined(_(english)))
    if "short_help" in command.__dict__ and command.__dict__.get("_en_short_help") is None:
        # no short help of its own: the framework cuts the help, by characters and spaces
        command.short_help = None if lang == "en" or not command.help else shorten(command.help)
    if "_bigtwo_usage" not in command.__dict__:  # the framework's own words, once per command
        command._bigtwo_usage = True
        command.format_usage = _usage(command)
        command.get_help_option = _help_option(command.get_help_option)
        for param in getattr(command, "params", []):
            if hasattr(param, "display_type_rich"):  # the "<int>" after an option's name
                param.display_type_rich = _type_label(param.display_type_rich)
    for sub in getattr(command, "commands", {}).values():
        localize(sub)


def _usage(command: Any) -> Any:
    def format_usage(ctx: Any, formatter: Any) -> None:
        from ledger.core.i18n import _

        pieces = command.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_("Usage: "))

    return format_usage


# The type words Typer shows after an option's name (``--session <int>``); choices
# (``<json|csv>``) are what is typed and stay as they are.
TYPE_WORDS = (N_("int"), N_("str"), N_("path"), N_("time"), N_("list[str]"))


def _type_label(display: Any) -> Any:
    def display_type_rich(ctx: Any) -> Any:
        from ledger.core.i18n import _

        label = display(ctx=ctx)
        if isinstance(label, str) and label[1:-1] in TYPE_WORDS:
            return f"<{_(label[1:-1])}>"
        return label

    return display_type_rich


def _help_option(make: Any) -> Any:
    def get_help_option(ctx: Any) -> Any:
        from ledger.core.i18n import _

        option = make(ctx)  # made once per command and kept: its English text kept too
        if option is not None and option.help:
            option.help = _(option.__dict__.setdefault("_en_help", option.help))
        return option

    return get_help_option


def _lang_in(args: list[str]) -> str | None:
    """The value of ``--lang`` among the root's arguments (before the command name)."""
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
        if not arg.startswith("-") and (i == 0 or args[i - 1] not in ("--db", "--lang")):
            return None  # the command name: options after it are the command's
    return None


GLOBAL_OPTIONS = ("--db", "--lang")  # the root's options: accepted after the subcommand too


def global_options_first(args: list[str]) -> list[str]:
    """``bigtwo standings --db X`` as ``bigtwo --db X standings``: the root's options
    (which take a value) moved to the front, wherever they were typed (not after ``--``).

    >>> global_options_first(["standings", "--all", "--db", "x.db"])
    ['--db', 'x.db', 'standings', '--all']
    >>> global_options_first(["deal", "--db=x.db", "0", "3"])
    ['--db=x.db', 'deal', '0', '3']
    """
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest += args[i:]
            break
        if arg in GLOBAL_OPTIONS and i + 1 < len(args):
            front += args[i:i + 2]
            i += 2
            continue
        if arg.split("=", 1)[0] in GLOBAL_OPTIONS and "=" in arg:
            front.append(arg)
        else:
            rest.append(arg)
        i += 1
    return front + rest


class LedgerGroup(TyperGroup):
    """Shows every LedgerError as one line on stderr with its exit code, no traceback.
    Help texts follow the interface language (``--lang``, ``BIGTWO_LANG``, the locale)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:  # type: ignore[override]
        if ctx.parent is None:
            args = global_options_first(args)
            from ledger.core import i18n

            try:
                i18n.choose(_lang_in(args))  # before --help is shown
            except LedgerError as exc:
                typer.echo(error_line(exc), err=True)
                ctx.exit(exc.exit_code)
        localize(self)
        try:  # a parameter's callback refused its value (--db naming a FIFO)
            return super().parse_args(ctx, args)
        except LedgerError as exc:
            typer.echo(error_line(exc), err=True)
            ctx.exit(exc.exit_code)

    def main(self, args: Any = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        """The edge of the program: usage errors as one ``error:`` line, output that cannot
        be written (a full disk, a closed pipe) without a traceback."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        errors = _click_errors()
        try:
            try:
                code = super().main(args, prog_name, complete_var, False, **extra)
            except errors.NoArgsIsHelpError as exc:  # bare `bigtwo session`: the help
                exc.show()
                code = exc.exit_code
            except errors.UsageError as exc:
                from ledger.cli.usage import usage_line

                typer.echo(usage_line(exc), err=True)
                code = exc.exit_code
            except errors.ClickException as exc:
                typer.echo(f"error: {exc.format_message()}", err=True)
                code = exc.exit_code
            except typer.Abort:
                code = 1
            sys.stdout.flush()  # what is still buffered fails here, not at interpreter exit
        except OSError as exc:
            output_failed(exc)
        sys.exit(code if isinstance(code, int) else 0)

    # Commands made only when named, in the shape of click's documented ``LazyGroup``:
    # name -> a function that builds the click command.  The root's table
    # (:class:`ledger.cli.lazy.LazyTyper`) holds its own commands and the feature ones.
    lazy_subcommands: Mapping[str, Callable[[], Any]] = {}

    # Typer hands its commands its own Context (a subclass of the one these methods declare).
    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return list(dict.fromkeys([*self.lazy_subcommands, *super().list_commands(ctx)]))

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:  # type: ignore[override]
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in self.lazy_subcommands:
            command = self.lazy_subcommands[cmd_name]()
            if command is not None:
                self.add_command(command, cmd_name)
        if command is not None:
            localize(command)
        return command

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """Unknown commands get a "did you mean" over every command, the lazily loaded
        feature commands included (``stat`` → ``stats``, ``tabel`` → ``table``)."""
        try:
            return super().resolve_command(ctx, args)
        except Exception as exc:  # click's UsageError (Typer's own copy of click)
            message = getattr(exc, "message", None)
            if args and isinstance(message, str) and message.startswith("No such command"):
                import difflib

                close = difflib.get_close_matches(args[0], self.list_commands(ctx), n=2, cutoff=0.6)
                message = message.split(". Did you mean")[0].rstrip(".")
                if close:
                    message += ". Did you mean " + " or ".join(repr(c) for c in close) + "?"
                exc.message = message  # type: ignore[attr-defined]
            raise

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except LedgerError as exc:
            from ledger.core.text import shown

            lines = error_line(exc).split("\n")  # an import's conflicts take several lines
            typer.echo("\n".join(shown(line) for line in lines), err=True)
            ctx.exit(exc.exit_code)


def error_line(exc: LedgerError) -> str:
    """``exc`` as the command line says it: ``error:``, then :func:`said` (each problem
    of :class:`~ledger.core.errors.Problems` its own ``error:`` line)."""
    from ledger.core.errors import Problems

    if isinstance(exc, Problems):
        return "\n".join(f"error: {line}" for line in exc.problems)
    return f"error: {said(exc)}"


def said(exc: LedgerError) -> str:
    """The message, then the advice only the command line gives
    (``no session 99 in this ledger; see: bigtwo session list``)."""
    if not exc.advice:
        return str(exc)
    from ledger.core.i18n import _

    return _("{message}; {advice}").format(message=exc, advice=exc.advice)


def _click_errors() -> Any:
    """The exceptions of the click Typer runs on: its own copy in newer Typer releases,
    else the click package."""
    try:
        from typer._click import exceptions  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from click import exceptions  # type: ignore[import-not-found,no-redef,unused-ignore]
    return exceptions


def output_failed(exc: OSError) -> NoReturn:
    """Leave after the output could not be written: quietly for a closed pipe
    (``bigtwo log | head -1``), else with one ``error:`` line (a full disk)."""
    import errno

    try:  # what is still buffered for stdout goes nowhere, without a second error at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if exc.errno == errno.EPIPE:
        sys.exit(1)
    from ledger.core.i18n import _

    why = (exc.strerror or str(exc)).lower()
    if exc.filename is None:  # stdout (a file being read or written names itself)
        message = _("cannot write the output: {reason}").format(reason=why)
    else:
        message = f"{exc.filename}: {why}"
    typer.echo(f"error: {message}", err=True)
    sys.exit(1)


def group(help_text: str, completion: bool = False) -> typer.Typer:
    return typer.Typer(cls=LedgerGroup, help=help_text, no_args_is_help=True,
                       pretty_exceptions_enable=False, rich_markup_mode=None,
                       add_completion=completion)


def root_group(help_text: str) -> LazyTyper:
    """The ``bigtwo`` app itself: a :func:`group` whose commands are built on demand."""
    from ledger.cli.lazy import LazyTyper

    return LazyTyper(cls=LedgerGroup, help=help_text, no_args_is_help=True,
                     pretty_exceptions_enable=False, rich_markup_mode=None, add_completion=True)


def _path_check(kind: str) -> Callable[..., Any]:
    """A parameter callback that refuses, while the command line is read and before the
    command runs, a path naming something that is not a file (a FIFO would make the
    command wait for ever, a device would be read or replaced): one ``error:`` line.
    ``kind``: ``file`` (read or written), ``folder``, ``ledger`` (``--db``, exit 1 as
    when the ledger cannot be opened) or ``rules`` (a preset name, or a ``.toml`` file)."""

    def check(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
        if value is None or ctx.resilient_parsing:
            return value
        path = os.fspath(value)
        if kind == "ledger":
            from ledger.storage.store import refuse_not_a_ledger

            refuse_not_a_ledger(path)
        elif kind != "rules" or path.endswith(".toml"):
            from ledger.core.limits import refuse_not_a_file

            name = param.opts[0] if param.param_type_name == "option" else None
            if kind == "rules":
                from ledger.core.i18n import _

                what = _("rule file {spec}").format(spec=path)
            else:
                what = f"{name} {path}" if name else path
            refuse_not_a_file(path, what, folder=kind == "folder")
        return value

    return check


GIVEN_FILE = _path_check("file")
"""The callback of every option or argument naming a file to read or write."""
GIVEN_FOLDER = _path_check("folder")
"""The callback of every option or argument naming a folder to write into."""
GIVEN_LEDGER = _path_check("ledger")
"""The callback of ``--db``."""
GIVEN_RULES = _path_check("rules")
"""The callback of every option or argument naming a preset or a rule file."""
PATH_CHECKS = (GIVEN_FILE, GIVEN_FOLDER, GIVEN_LEDGER, GIVEN_RULES)


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
        from ledger.storage.store import refuse_not_a_ledger

        refuse_not_a_ledger(env)  # as --db is checked when it is read
        return env, False
    return str(default_db_path()), True


def open_db(ctx: typer.Context, create: bool = False) -> Ledger:
    """Open the ledger.  Only commands that add something (``create``) make a new file:
    a command that fails on a missing ledger leaves no empty ledger behind."""
    from ledger.storage.store import open_ledger

    path, is_default = db_path(ctx)
    if not create and not os.path.exists(path) and (is_default or Path(path).parent.is_dir()):
        from ledger.core.i18n import _

        raise InputError(_(
            "no current session (no sessions yet: there is no ledger at {path}); start one with "
            "bigtwo session start --players Ann,Ben,Cat,Dan (or bigtwo import FILE)"
        ).format(path=path))
    return open_ledger(path, create_folder=is_default)


def ledger_exists(ctx: typer.Context) -> bool:
    """Is there a ledger to read?  (A missing folder counts as "yes", so that opening
    it reports the folder.)"""
    path = db_path(ctx)[0]
    return os.path.exists(path) or not Path(path).parent.is_dir()


def _whole(text: Any, signed: bool) -> int:
    """A number typed on the command line, read by :func:`ledger.core.numbers.whole_number`
    (ASCII or full-width digits; ``²`` and other scripts' digits are refused), with a
    leading ``-`` when ``signed`` (a deal number: the book says which numbers exist)."""
    if isinstance(text, int):
        return text
    from ledger.core.numbers import whole_number

    text, sign = str(text), 1
    if signed and text.startswith("-"):
        text, sign = text[1:], -1
    try:
        return sign * whole_number(text, max_digits=100)  # a long one: the book says none such
    except InputError as exc:  # the framework's usage error, with this reason
        raise typer.BadParameter(str(exc)) from None


def NUMBER(text: Any) -> int:
    return _whole(text, False)


def DEAL_NUMBER(text: Any) -> int:
    return _whole(text, True)


NUMBER.__name__ = DEAL_NUMBER.__name__ = "int"

SessionOpt = Annotated[
    int | None, typer.Option("--session", parser=NUMBER,
                             help="Session ID (default: the current session).")
]


AllOpt = Annotated[bool, typer.Option("--all", help="Every session in the ledger.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="JSON output.")]


SinceOpt = Annotated[
    str | None, typer.Option("--since", metavar="DATE",
                             help="From this date on, YYYY-MM-DD (a session's start date).")
]
UntilOpt = Annotated[
    str | None, typer.Option("--until", metavar="DATE",
                             help="Up to this date, YYYY-MM-DD, that day included.")
]
SeasonOpt = Annotated[
    str | None, typer.Option("--season", metavar="NAME",
                             help="The dates of a season (bigtwo season add NAME ...).")
]


def chosen_scope(ledger: Any, session: int | None, all_sessions: bool, since: str | None = None,
                 until: str | None = None, season: str | None = None, **narrow: Any) -> Any:
    """The sessions a report covers (ledger.book.scope.select); when it falls back to every
    session because none is current, says so in one line on stderr, so the report itself
    stays clean."""
    from ledger.book.scope import select

    scope = select(ledger, session, all_sessions, since, until, season=season, **narrow)
    if scope.notice:
        typer.echo(scope.notice, err=True)
    return scope
