"""The engine interface: every op of the phone app, as plain JSON over the book.

``call(ledger, op, args)`` runs one op on an open ledger and returns its JSON-ready
answer (a view record's ``to_dict()``); errors are
:class:`~ledger.core.errors.LedgerError`s, which :func:`error_dict` turns into
``{"status", "message"}`` in the current language.  The ops are declared once, in
``ledger/engine/ops.py`` (:data:`OPS`, by :func:`ledger.engine.declare.op`); the hub
(``bigtwo serve``) serves them over HTTP (``GET /api/<op>`` for reads, ``POST
/api/<op>`` for writes) and the offline phone runs this same module in Pyodide, so it
imports only the pure engine: ``ledger.core``, ``ledger.storage``, ``ledger.book``
(never starlette, uvicorn, jinja2, segno or matplotlib).
The exact JSON of every op is in docs/serve.md, "The engine interface".
"""

from __future__ import annotations

import re
from typing import Any

from ledger.core import i18n
from ledger.core.errors import LedgerError, NotFound, StoreError
from ledger.core.i18n import _
from ledger.engine import ops as _ops  # noqa: F401  (declares every op)
from ledger.engine.declare import OPS, Args, Op
from ledger.storage.store import Ledger

__all__ = ["OPS", "Args", "Op", "call", "error_dict", "find", "language", "message_of",
           "status_of"]

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


# --- ops ------------------------------------------------------------------------------


def find(op: str) -> Op:
    """The op named ``op``, or NotFound naming every op."""
    found = OPS.get(op)
    if found is None:
        raise NotFound(_("no op {op!r}; the ops are: {ops}").format(op=op, ops=", ".join(OPS)))
    return found


def call(ledger: Ledger, op: str, args: Args) -> Any:
    """Run ``op`` with ``args`` on ``ledger``: the op's JSON answer, or a LedgerError.

    A write needs ``key``: the uuid of the entry it writes, made where the action was
    taken; the book writes a repeat once and answers it from the entry already there,
    and refuses the same key for another action (KeyReused, 422)."""
    return find(op).call(ledger, args)


def language() -> str:
    return i18n.language()
