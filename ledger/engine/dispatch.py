"""The engine interface: every op of the phone app, as plain JSON over the book.

``call(ledger, op, args)`` runs one op on an open ledger and returns a JSON-ready
dict; errors are :class:`~ledger.core.errors.LedgerError`s, which
:func:`error_dict` turns into ``{"status", "message"}`` in the current language.
The hub (``bigtwo serve``) serves it over HTTP (``GET /api/<op>`` for reads,
``POST /api/<op>`` for writes) and the offline phone runs the same module in Pyodide,
so this module imports only the pure engine: ``ledger.core``, ``ledger.storage``,
``ledger.book`` (never starlette, uvicorn, jinja2, segno or matplotlib).
The exact JSON of every op is in docs/serve.md, "The engine interface".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ledger.core import i18n
from ledger.core.errors import InputError, LedgerError, NotFound, StoreError
from ledger.core.i18n import _
from ledger.engine.ops import (
    Args,
    key_of,
    op_amend,
    op_board,
    op_end,
    op_export,
    op_history,
    op_import,
    op_last_setup,
    op_log,
    op_pay,
    op_presets,
    op_preview,
    op_record,
    op_reopen,
    op_session,
    op_sessions,
    op_settle,
    op_standings,
    op_start,
    op_undo,
    op_undo_preview,
    op_unpay,
    op_void,
)
from ledger.storage.store import Ledger

# --- errors ------------------------------------------------------------------------

# "…; see: bigtwo session list", "… (see: bigtwo log)" and their translations: until each
# error carries its advice apart (contract B), the advice is cut from the message here.
ADVICE = re.compile(r"\s*[;；(（][^;；(（]*?bigtwo [^)）]*[)）]?\s*$")


def status_of(exc: LedgerError) -> int:
    """The HTTP status of an error: the class's own ``status`` where it has one."""
    given = getattr(exc, "status", None)
    if isinstance(given, int):
        return given
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, StoreError):
        return 503
    return 400


def message_of(exc: LedgerError) -> str:
    """The message without the advice that names a command (only the CLI prints it)."""
    text = str(getattr(exc, "message", None) or exc)
    return ADVICE.sub("", text)


def error_dict(exc: LedgerError) -> dict[str, Any]:
    """``{"status": 404, "message": "no session 999 in this ledger"}`` (current language)."""
    return {"status": status_of(exc), "message": message_of(exc)}


Op = Callable[[Ledger, Args], dict[str, Any]]

READS: dict[str, Op] = {
    "sessions": op_sessions, "session": op_session, "board": op_board,
    "standings": op_standings, "log": op_log, "settle": op_settle, "history": op_history,
    "presets": op_presets, "last_setup": op_last_setup, "preview": op_preview,
    "undo_preview": op_undo_preview, "export": op_export,
}
WRITES: dict[str, Op] = {
    "record": op_record, "amend": op_amend, "void": op_void, "undo": op_undo,
    "start": op_start, "end": op_end, "reopen": op_reopen, "import": op_import,
    "pay": op_pay, "unpay": op_unpay,
}
# Every argument each op reads (anything else is refused: a typo is never ignored).
ARGS: dict[str, frozenset[str]] = {
    "sessions": frozenset(), "presets": frozenset(), "last_setup": frozenset(),
    "history": frozenset({"player"}), "settle": frozenset({"session", "round", "pay_codes"}),
    "preview": frozenset({"session", "line"}), "record": frozenset({"session", "line"}),
    "amend": frozenset({"session", "deal", "deal_uuid", "line"}),
    "void": frozenset({"session", "deal", "deal_uuid"}),
    "export": frozenset({"session"}), "import": frozenset({"text", "name"}),
    "start": frozenset({"players", "rules", "house", "rule_set", "stake", "currency", "name",
                        "teams"}),
    "pay": frozenset({"session", "from", "to", "amount", "currency", "note"}),
    "unpay": frozenset({"session", "payment"}),
}


def is_write(op: str) -> bool:
    return op in WRITES


def known(op: str) -> bool:
    return op in READS or op in WRITES


def check_args(op: str, args: Args) -> None:
    allowed = ARGS.get(op, frozenset({"session"})) | ({"key"} if op in WRITES else set())
    extra = sorted(set(args) - allowed)
    if extra:
        raise InputError(_("{op} does not take {names}; it takes: {allowed}").format(
            op=op, names=", ".join(extra), allowed=", ".join(sorted(allowed)) or "-"))


def call(ledger: Ledger, op: str, args: Args) -> dict[str, Any]:
    """Run ``op`` with ``args`` on ``ledger``: the op's JSON answer, or a LedgerError.

    A write needs ``key``: the uuid of the entry it writes, made where the action was
    taken; the book writes a repeat once and answers it from the entry already there,
    and refuses the same key for another action (KeyReused, 422)."""
    found = READS.get(op) or WRITES.get(op)
    if found is None:
        raise NotFound(_("no op {op!r}; the ops are: {ops}").format(
            op=op, ops=", ".join([*READS, *WRITES])))
    check_args(op, args)
    if op not in WRITES:
        return found(ledger, args)
    key_of(args)  # checked before anything else
    return found(ledger, args)


def language() -> str:
    return i18n.language()
