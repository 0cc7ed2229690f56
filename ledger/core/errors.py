"""The one error type users see.

Everything the user can get wrong (a bad deal, a bad rule file, a deal number
that does not exist...) raises a :class:`LedgerError` subclass with a message
that says what was wrong and what is allowed.  The CLI catches it once, prints
the message on stderr and exits non-zero without a traceback.
"""

from __future__ import annotations


class LedgerError(Exception):
    """A problem the user can fix; the message is shown as is."""

    exit_code = 1


class InputError(LedgerError):
    """Bad input on the command line or in a file (exit code 2, like a usage error)."""

    exit_code = 2


class NotFound(InputError):
    """A session, player or deal the ledger does not hold.

    Storage says only what is missing; the action layer adds where to look
    (``see: bigtwo session list``).
    """


class RuleError(InputError):
    """A rule set or rule file that is not valid."""


class StoreError(LedgerError):
    """The ledger file cannot be opened, read or written."""


class LedgerMoved(StoreError):
    """The ledger's path no longer names the file this command opened (deleted,
    renamed, or replaced by a sync tool): stop rather than write into nothing."""


class KeyReused(LedgerError):
    """An action's key (the uuid of the entry it writes, made where the action was taken)
    that an earlier action with other facts already used: a repeat must say the same."""

    status = 422
