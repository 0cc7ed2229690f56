"""The error types users see.

Everything the user can get wrong (a bad deal, a bad rule file, a deal number
that does not exist...) raises a :class:`LedgerError` subclass with a message
that says what was wrong and what is allowed.  Each class says what it is for a
web client (``status``, an HTTP status code) and for a shell (``exit_code``).

The message is a whole sentence for every front end.  Advice that names a
command of the command line (``see: bigtwo session list``) is kept apart in
``advice``: the CLI prints it after the message (``ledger.cli.common.error_line``); the hub and
the phone app do not, since their users have no command line.
"""

from __future__ import annotations


class LedgerError(Exception):
    """A problem the user can fix; the message is shown as is."""

    exit_code = 1
    status = 400  # HTTP: a request the server turns down

    def __init__(self, message: str = "", advice: str | None = None) -> None:
        super().__init__(message)
        self.advice = advice

    @property
    def message(self) -> str:
        """The sentence every front end shows (no command-line advice)."""
        return str(self)


class InputError(LedgerError):
    """Bad input on the command line or in a file (exit code 2, like a usage error)."""

    exit_code = 2


class Problems(InputError):
    """Several problems of one input (a crafted file), each its own line: the command
    line says each as an ``error:`` line, the web as lines of one message.  Nothing of
    the input was written."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


class NotFound(InputError):
    """A session, player or deal the ledger does not hold (HTTP 404).

    Storage says only what is missing; the action layer adds where to look
    (``advice="see: bigtwo session list"``).
    """

    status = 404


class Conflict(InputError):
    """An action the ledger's state refuses now (HTTP 409): a deal already void, a
    session already ended, nothing left to undo."""

    status = 409


class RuleError(InputError):
    """A rule set or rule file that is not valid."""


class StoreError(LedgerError):
    """The ledger file cannot be opened, read or written (HTTP 503: the server cannot
    serve it now)."""

    status = 503


class LedgerMoved(StoreError):
    """The ledger's path no longer names the file this command opened (deleted,
    renamed, or replaced by a sync tool): stop rather than write into nothing."""


class KeyReused(LedgerError):
    """An action's key (the uuid of the entry it writes, made where the action was taken)
    that an earlier action with other facts already used: a repeat must say the same."""

    status = 422
