"""At the table: score a whole evening in one loop (``table``).

See docs/at-the-table.md.  Only typer, the standard library and ledger.cli.common are
imported here at load time; the rest is imported by the command that needs it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import typer

from ledger.cli.common import SessionOpt, db_path, open_db, said
from ledger.core.i18n import _, ngettext


def register(app: typer.Typer) -> None:
    app.command("table")(table_cmd)


# --- table ---------------------------------------------------------------------------

# Commands of the loop; ``amend``/``void`` take a deal number after them, ``log`` and
# ``settle`` the options their own commands have (``log --wide``, ``settle --round 5``).
COMMANDS = ("undo", "amend", "void", "log", "standings", "settle", "help", "quit", "exit")
BARE = ("undo", "log", "standings", "settle", "help", "quit", "exit")
OPTIONS = {"log": ("--wide",), "settle": ("--round",)}
# The same commands in Chinese, both scripts (Hong Kong words first): what a scorekeeper
# types on a Chinese keyboard without switching to English.
CHINESE = {
    "撤回": "undo", "撤銷": "undo", "撤销": "undo",
    "修改": "amend", "作廢": "void", "作废": "void",
    "記錄": "log", "记录": "log",
    "計分": "standings", "计分": "standings",
    "埋數": "settle", "埋数": "settle", "結算": "settle", "结算": "settle",
    "幫助": "help", "帮助": "help",
    "走": "quit", "退出": "quit",
}


def table_cmd(ctx: typer.Context, session: SessionOpt = None) -> None:
    """Score a whole evening: one short line per deal, typed or read from standard input.

    A line is what follows `bigtwo deal` (e.g. 0 3 11 8, or Ann=0 Ben=3 ...), or one of
    undo, amend N ..., void N, log, standings, settle, help, quit.  At a terminal the
    line can be edited and earlier lines recalled (Up); Ctrl-C clears the line, Ctrl-D
    or quit ends the evening with the standings and the settlement.  Read from a file,
    errors name the line, and the exit code is 1 if any line failed.
    """
    from ledger.book import actions as book
    from ledger.core.errors import InputError, LedgerError, LedgerMoved
    from ledger.core.text import shown
    from ledger.present.text import session_title

    path = db_path(ctx)[0]
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session)
        if s.ended_at is not None:
            from ledger.book.clock import local_minute

            raise InputError(_("session {id} ended at {at}; start a new session to play on").format(
                id=s.id, at=local_minute(s.ended_at)))
        from ledger.present.fit import screen_width, wrap

        typer.echo(wrap(session_title(s), screen_width()))  # at spaces, as every title is
        typer.echo(wrap(_("one line per deal (e.g. {example}); help, undo, amend N, void N, log, "
                          "standings, settle, quit").format(example=_example(s.seats)), screen_width()))
        read = _Terminal(path) if interactive else _Piped()
        failed = 0
        try:
            while True:
                line = read(_("deal {number}> ").format(number=ledger.journal.next_deal_no(s.id)))
                if line is None:  # end of input (Ctrl-D)
                    break
                try:
                    if not _table_line(ledger, s.id, line):
                        break
                except LedgerMoved:
                    raise  # the file is gone from under us: the evening cannot go on here
                except LedgerError as exc:  # untouched: every action is one transaction
                    if interactive:  # the scorekeeper sees it and types the line again
                        typer.echo(f"error: {shown(said(exc))}", err=True)
                    else:  # a file: say where, and fail at the end
                        failed += 1
                        typer.echo("error: " + _("line {number}: {problem}").format(
                            number=read.number, problem=shown(said(exc))), err=True)
                except KeyboardInterrupt:  # Ctrl-C while a line was carried out: rolled back
                    if not interactive:
                        raise
                    typer.echo("\n" + _("(interrupted: that line changed nothing)"))
        finally:
            read.close()
        gone = _session_or_none(ledger, s.id)
        if gone is not None:
            typer.echo(_summary(ledger, gone))
    if failed:
        typer.echo(ngettext("{count} line failed and changed nothing",
                            "{count} lines failed and changed nothing", failed).format(count=failed),
                   err=True)

        raise typer.Exit(1)


class _Piped:
    """Lines from a file or pipe, numbered for the error messages."""

    def __init__(self) -> None:
        self.number = 0
        # Typed at a terminal whose output goes elsewhere (| tee): the terminal echoes.
        self.typed = sys.stdin.isatty()

    def __call__(self, prompt: str) -> str | None:
        typer.echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not line:
            typer.echo("")
            return None
        self.number += 1
        if not self.typed:  # read from a file: show the line after its prompt, as typed
            from ledger.core.text import shown

            typer.echo(shown(line.rstrip("\r\n")))
        return line

    def close(self) -> None:
        pass


class _Terminal:
    """Typed lines with editing and history (readline, where Python has it).

    The history is kept per ledger, beside it (``ledger.db.history``), so Up brings
    back last Friday's lines too.  Ctrl-C clears the line being typed."""

    def __init__(self, ledger_path: str) -> None:
        self.number = 0
        self.history = ledger_path + ".history"
        try:
            import readline
        except ImportError:  # no readline (e.g. Windows without pyreadline): plain input
            self.readline = None
            return
        self.readline = readline
        readline.set_history_length(2000)
        with contextlib.suppress(OSError):
            readline.read_history_file(self.history)
        self.start = readline.get_current_history_length()

    def __call__(self, prompt: str) -> str | None:
        while True:
            try:
                line = input(prompt)
            except EOFError:
                typer.echo("")
                return None
            except KeyboardInterrupt:  # Ctrl-C: drop the line, the evening goes on
                typer.echo("^C")
                continue
            self.number += 1
            return line

    def close(self) -> None:
        if self.readline is None:
            return
        try:
            added = self.readline.get_current_history_length() - self.start
            if not os.path.exists(self.history):
                open(self.history, "a", encoding="utf-8").close()
            self.readline.append_history_file(max(added, 0), self.history)
            self.readline.set_history_length(2000)
        except OSError:  # a read-only folder: the evening is recorded, only the history is lost
            pass


def _session_or_none(ledger: Any, session_id: int) -> Any:
    from ledger.core.errors import InputError

    try:
        return ledger.journal.session(session_id)
    except InputError:  # its start was undone
        return None


def _summary(ledger: Any, s: Any) -> str:
    from ledger.book import reports
    from ledger.book.views import settle_view
    from ledger.present.text import settlement_text, standings_text

    if not s.deals:
        return _("session {id}: no deals recorded").format(id=s.id)
    money = reports.settle(ledger, [s])
    return "\n\n".join([
        ngettext("end of the evening: session {id}, {count} deal",
                 "end of the evening: session {id}, {count} deals", s.deals).format(
            id=s.id, count=s.deals),
        standings_text(reports.standings(ledger, [s]), money=money),
        settlement_text(settle_view(money)),
    ])


def _table_line(ledger: Any, session_id: int, line: str) -> bool:
    """Carry out one line; False when the loop should end."""
    from ledger.book import actions as book
    from ledger.book import reports, views
    from ledger.core.deal_line import parse_deal_line
    from ledger.core.errors import InputError
    from ledger.present.text import after_deal_text, log_text, settlement_text, standings_text

    s = ledger.journal.session(session_id)  # fresh: another terminal may have added deals
    words = line.split()  # str.split: the ideographic space (U+3000) separates words too
    if not words or words[0].startswith("#"):
        return True
    command = CHINESE.get(words[0], words[0].casefold())
    if command != words[0].casefold():  # a Chinese command word: the rest as after the English
        line = command + line.lstrip()[len(words[0]):]
    if command not in COMMANDS and _looks_like_a_command(words[0]):
        import difflib

        close = difflib.get_close_matches(command, COMMANDS, n=1, cutoff=0.6)
        values = {"command": words[0], "commands": ", ".join(COMMANDS[:-1]),
                  "example": _example(s.seats)}
        if close:
            raise InputError(_("unknown command {command!r}: did you mean {close}? the commands "
                               "are {commands}; a deal is e.g. {example} (type help)").format(
                                   close=close[0], **values))
        raise InputError(_("unknown command {command!r}: the commands are {commands}; a deal is "
                           "e.g. {example} (type help)").format(**values))
    if command in BARE:
        options = _options(command, words[1:])
        if command in ("quit", "exit"):
            return False
        if command == "help":
            typer.echo(_help_text(s))
        elif command == "standings":
            typer.echo(standings_text(reports.standings(ledger, [s]), money=reports.settle(ledger, [s])))
        elif command == "settle":
            money = reports.settle(ledger, [s])
            if "--round" in options:
                from ledger.core.settlement import parse_coin

                money = money.rounded(parse_coin(options["--round"]))
            typer.echo(settlement_text(views.settle_view(money)))
        elif command == "log":
            from ledger.present.fit import report_width

            typer.echo(log_text(views.log(ledger, s), report_width("--wide" in options)))
        else:
            return _undo(ledger, s)
        return True
    if command in ("amend", "void"):
        parts = line.split(None, 2)
        from ledger.core.numbers import is_whole_number, whole_number

        if len(parts) < 2 or not is_whole_number(parts[1].removeprefix("-")):
            if command == "amend":
                raise InputError(_("amend needs a deal number: amend N followed by the deal, e.g. "
                                   "amend 3 {example}").format(example=_example(s.seats)))
            raise InputError(_("void needs a deal number: void N, e.g. void 3"))
        number = (-1 if parts[1].startswith("-") else 1) * whole_number(parts[1].removeprefix("-"))
        if command == "void":
            if len(parts) > 2 and not parts[2].lstrip().startswith("#"):
                raise InputError(_("void takes only the deal number, e.g. void 3"))
            typer.echo(after_deal_text(views.after_deal(ledger, s, book.void_deal(ledger, s, number))))
        else:
            if len(parts) < 3:
                raise InputError(_("amend {number} needs the corrected deal, e.g. amend {number} "
                                   "{example}").format(number=number, example=_example(s.seats)))
            deal = parse_deal_line(parts[2], book.deal_seats(ledger, s, number), book.session_rules(s))
            typer.echo(after_deal_text(
                views.after_deal(ledger, s, book.amend_deal(ledger, s, number, deal)), "amended deal"))
        return True
    rules = book.session_rules(s)
    recorded = book.record_deal(ledger, s, parse_deal_line(line, book.deal_seats(ledger, s), rules))
    typer.echo(after_deal_text(views.after_deal(ledger, s, recorded)))
    return True


def _undo(ledger: Any, s: Any) -> bool:
    """Undo the last action; False when that was the session's start (the loop ends)."""
    from ledger.book import actions as book
    from ledger.book.views import undone_view
    from ledger.present.text import undo_text

    view = undone_view(ledger, book.undo(ledger, s))
    typer.echo(undo_text(view.undone, view.after, said=True))
    return _session_or_none(ledger, s.id) is not None


def _options(command: str, words: list[str]) -> dict[str, str]:
    """The options typed after a bare command (``log --wide``, ``settle --round 5`` or
    ``--round=5``), or InputError naming what the command takes."""
    from ledger.core.errors import InputError

    allowed = OPTIONS.get(command, ())
    found: dict[str, str] = {}
    i = 0
    while i < len(words):
        option, sep, value = words[i].partition("=")
        if option.startswith("#"):
            break
        if option not in allowed:
            if not allowed:
                raise InputError(_("{command} takes nothing after it; type help for the line "
                                   "forms").format(command=command))
            raise InputError(_("{command} takes only {options}, not {word!r}").format(
                command=command, options=", ".join(allowed), word=words[i]))
        if option == "--round" and not sep:
            if i + 1 >= len(words):
                raise InputError(_("--round needs a coin, e.g. settle --round 5"))
            i += 1
            value = words[i]
        found[option] = value
        i += 1
    return found


def _looks_like_a_command(word: str) -> bool:
    """A first word that is neither a count, NAME=CARDS, a quoted name ("Mary Ann"=3)
    nor an --option."""
    from ledger.core.numbers import is_whole_number

    return ("=" not in word and not word.startswith(("-", '"', "'"))
            and not is_whole_number(word) and not _counts(word))


def _counts(word: str) -> bool:
    """Counts typed with commas (``0，3，8，12``)."""
    import re

    from ledger.core.numbers import is_whole_number

    parts = [p for p in re.split(r"[,，、]", word) if p]
    return len(parts) < len(word) and bool(parts) and all(is_whole_number(p) for p in parts)


def _example(seats: Any) -> str:
    counts = [0, 3, 11, 8][: len(seats)]
    return " ".join(str(c) for c in counts)


def _help_text(s: Any) -> str:
    """The table's help, each line fitted to the terminal: what a line of the left
    column means wraps under itself (``陳大文`` takes two columns a character)."""
    from ledger.book import actions as book
    from ledger.core.fact_help import table_options
    from ledger.core.registry import extras as offered
    from ledger.present.fit import hanging, screen_width, width, wrap

    columns = screen_width()
    rules = book.session_rules(s)
    seats = ", ".join(s.seats)
    pairs = " ".join(f"{n}={c}" for n, c in zip(s.seats, [0, 3, 11, 8], strict=False))
    typed = f'{s.seats[1]}="2S 2H 5D"'
    column = max(27, width(pairs), width(typed)) + 2  # display columns: 陳大文 takes six
    extras = ", ".join(offered(rules)) or _("none")
    commands = [
        ("undo", _("take back the last action (a deal, amend or void); again walks back")),
        ("amend N DEAL", _("replace deal N, e.g. amend 2 {example}").format(
            example=_example(s.seats))),
        ("void N", _("deal N no longer counts")),
        ("log [--wide]", _("every entry, corrections included")),
        ("standings", _("the running totals")),
        ("settle [--round COIN]", _("the money (--round 5: in whole coins of 5)")),
        ("help, quit", _("(Ctrl-D also ends; Ctrl-C clears the line being typed)")),
    ]
    chinese = [(" / ".join(words), command) for command, words in _chinese_words()]
    word_column = max(23, *(width(words) + 2 for words, _command in chinese))
    return "\n".join([
        wrap(_("a deal, one line (exactly what follows `bigtwo deal`):"), columns),
        hanging("  " + _example(s.seats), _("cards left in seat order ({seats}); the winner has 0")
                .format(seats=seats), column, columns),
        hanging("  " + pairs, _("or NAME=CARDS pairs (a unique start of a name will do)"),
                column, columns),
        hanging("  " + typed, _("a loser's cards instead of a count"), column, columns),
        *(("  " + _("options:") if i == 0 else "").ljust(10) + " " + words  # the registry's
          for i, words in enumerate(table_options(max(columns - 11, 30)))),
        wrap("  " + _("(rules {name} score: {extras})").format(name=rules.name, extras=extras),
             columns),
        wrap(_("commands:"), columns),
        *(hanging("  " + left, text, 23, columns) for left, text in commands),
        wrap(_("the same in Chinese:"), columns),
        *(hanging("  " + words, command, word_column, columns) for words, command in chinese),
        wrap(_("a player named like a command (e.g. log) is written NAME=CARDS: log=3"), columns),
    ])


def _chinese_words() -> list[tuple[str, list[str]]]:
    by_command: dict[str, list[str]] = {}
    for word, command in CHINESE.items():
        by_command.setdefault(command, []).append(word)
    return list(by_command.items())
