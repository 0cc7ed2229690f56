"""The engine inside the phone: what the Pyodide Web Worker of the offline app calls.

The worker (``static/app/engine-worker-thread.js``) keeps the ledger file in
Pyodide's in-memory file system and copies every change to the browser's origin
private file system (OPFS) before it answers; this module opens the ledger there
and answers the same ops as the hub, through the same :func:`ledger.web.engine.call`
— no second scoring path.  It imports only the pure engine (runs in Pyodide), never
starlette, uvicorn, jinja2, segno or matplotlib.

Answers are JSON text both ways, so nothing but strings crosses into JavaScript:

>>> import json, tempfile, os
>>> phone = Phone(os.path.join(tempfile.mkdtemp(), "bigtwo.db"))
>>> json.loads(phone.answer("sessions", "{}", "en"))
{'ok': {'sessions': []}}
"""

from __future__ import annotations

import json
from typing import Any

from ledger.core import i18n
from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import N_, _
from ledger.storage.store import Ledger, open_ledger

# Words the offline app says beyond the phone app's own (ledger/web/lang.py).
OFFLINE_WORDS = {
    "engine_loading": N_("Starting the scorekeeper on this phone…"),
    "engine_failed": N_("The scorekeeper could not start on this phone: {reason}"),
    "storage_refused": N_("This browser did not promise to keep the ledger: it may clear it when "
                          "space runs low. Export the ledger now and then to keep a copy."),
    "other_tab": N_("The ledger is open in another tab or window of this app; close it there."),
}


class Phone:
    """The open ledger of this phone and the ops the app sends it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.ledger: Ledger = open_ledger(path, create_folder=True)
        self.ledger.holder = N_("the app")
        # The worker copies the main file only: every write is checkpointed into it
        # before the copy (docs/offline.md, "Durability").
        self.checkpoint()

    def checkpoint(self) -> None:
        """Move the write-ahead log into the main file and empty it."""
        self.ledger.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def answer(self, op: str, args_json: str, lang: str) -> str:
        """``{"ok": answer}`` or ``{"error": {"status", "message"}}`` as JSON text, with
        ``"changed": true`` when the op wrote to the ledger (the worker then saves it)."""
        from ledger.web import engine

        conn = self.ledger.conn
        before = conn.total_changes
        found = i18n.normalize(lang) if lang else None
        reply: dict[str, Any]
        with i18n.using(found or "en"):
            try:
                args = json.loads(args_json)
                if not isinstance(args, dict):
                    raise InputError(_("the arguments must be a JSON object"))
                own = PHONE_OPS.get(op)
                reply = {"ok": own(self, args) if own else engine.call(self.ledger, op, args)}
            except LedgerError as exc:
                reply = {"error": engine.error_dict(exc)}
        if conn.total_changes != before:
            self.checkpoint()
            reply["changed"] = True
        return json.dumps(reply, ensure_ascii=False, default=str)


def op_words(phone: Phone, args: dict[str, Any]) -> dict[str, Any]:
    return words()


def op_export(phone: Phone, args: dict[str, Any]) -> dict[str, Any]:
    """``{"name", "text", "sessions"}``: the CLI's JSON export (``bigtwo export``) of one
    session (``session``) or of every session on this phone, for a download or the
    share sheet; ``bigtwo import`` reads it on a laptop (merged by uuid)."""
    import io

    from ledger.book import actions as book
    from ledger.formats import exchange

    ledger = phone.ledger
    extra = sorted(set(args) - {"session"})
    if extra:
        raise InputError(_("export does not take {names}; it takes: session").format(
            names=", ".join(extra)))
    if args.get("session") is not None:
        sessions = [book.current_session(ledger, int(args["session"]))]
    else:
        sessions = list(ledger.journal.sessions())
    out = io.StringIO()
    exchange.export_json(ledger, sessions, out)
    stamp = "all" if args.get("session") is None else f"session-{args['session']}"
    return {"name": f"bigtwo-{stamp}.json", "text": out.getvalue(), "sessions": len(sessions)}


def op_import(phone: Phone, args: dict[str, Any]) -> dict[str, Any]:
    """Import ``text`` — a JSON export or a big-two-scorer score sheet, as ``bigtwo
    import`` does (merged by uuid: importing it twice writes nothing new); ``name`` is
    the file's name, shown in the report."""
    import os
    import tempfile
    from pathlib import Path

    from ledger.formats import exchange

    extra = sorted(set(args) - {"text", "name", "key"})
    if extra:
        raise InputError(_("import does not take {names}; it takes: text, name").format(
            names=", ".join(extra)))
    text = args.get("text")
    if not isinstance(text, str):
        raise InputError(_('missing "{key}" in the request').format(key="text"))
    name = os.path.basename(str(args.get("name") or "import.json")) or "import.json"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        report = exchange.import_file(phone.ledger, path)
    return {**report.to_dict(), "summary": report.summary()}


PHONE_OPS = {"words": op_words, "export": op_export, "import": op_import}


def words() -> dict[str, Any]:
    """The app's words in the current language, with the offline app's own."""
    from ledger.core.i18n import _
    from ledger.web import lang

    here = i18n.language()
    found = lang.words()
    found.update({key: _(text) for key, text in OFFLINE_WORDS.items()})
    return {"lang": here, "html_lang": lang.HTML_LANG.get(here, "en"), "languages": lang.NATIVE,
            "words": found}
