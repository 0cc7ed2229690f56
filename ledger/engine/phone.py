"""The engine inside the phone: what the Pyodide Web Worker of the offline app calls.

The worker (``static/app/engine-worker-thread.js``) keeps the ledger file in
Pyodide's in-memory file system and copies every change to the browser's origin
private file system (OPFS) before it answers; this module opens the ledger there
and answers the same ops as the hub (every op declared in ``ledger/engine/ops.py``),
through the same :func:`ledger.engine.dispatch.call`
— no second scoring path.  It imports only the pure engine (runs in Pyodide), never
starlette, uvicorn, jinja2 or matplotlib; segno (vendored for Pyodide) only when the
``qr`` op draws a payment's code.

Answers are JSON text both ways, so nothing but strings crosses into JavaScript:

>>> import json, tempfile, os
>>> phone = Phone(os.path.join(tempfile.mkdtemp(), "bigtwo.db"))
>>> json.loads(phone.answer("sessions", "{}", "en"))
{'ok': {'sessions': [], 'total': 0, 'next': None}}
"""

from __future__ import annotations

import json
from typing import Any

from ledger.core import i18n
from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import N_, _
from ledger.storage.store import Ledger, open_ledger

# Words the offline app says beyond the phone app's own (ledger/engine/lang.py).
OFFLINE_WORDS = {
    "engine_loading": N_("Starting the scorekeeper on this phone…"),
    "engine_download": N_("Loading the scorekeeper: {mb} MB, only this once; then this app works offline."),
    "engine_failed": N_("The scorekeeper could not start on this phone: {reason}"),
    "engine_slow": N_("The scorekeeper is still starting. If this lasts, close this app's other "
                      "tabs and reload: nothing kept is lost."),
    "storage_refused": N_("This browser did not promise to keep the ledger: it may clear it when "
                          "space runs low. Export the ledger now and then to keep a copy."),
    "other_tab": N_("The ledger is open in another tab or window of this app; close it there."),
    "storage_stuck": N_("This browser did not open the ledger's storage. Reload the app: nothing "
                        "kept is lost."),
    "phone_ledger": N_("This phone's ledger"),
    "export_ledger": N_("Export every session"),
    "exported": N_("Exported {n} sessions as {name}."),
    "import_file": N_("Import a file (an export or a score sheet)"),
    "hub_link": N_("The hub's scorekeeper link"),
    "sync_now": N_("Sync with the hub"),
    "syncing": N_("Syncing with the hub…"),
    "synced": N_("Synced. Sent: {sent} Received: {received}"),
    "sync_link_bad": N_("That is not a scorekeeper link: paste the link bigtwo serve printed "
                        "(it ends in ?t=…)."),
    "sync_unreachable": N_("The hub did not answer (it must be https and allow this app). "
                           "Nothing was lost: sync again when it is reachable."),
    "sync_refused": N_("The hub refused the sync: {reason}"),
    "sync_how": N_("Paste the scorekeeper link of a hub started with a certificate (bigtwo serve "
                   "--cert) that allows this app, or move the ledger by file: Export, then "
                   "bigtwo import on the laptop."),
    "sync_reachable": N_("This app can reach that hub if the hub allows this app's address: "
                         "bigtwo serve --allow-origin {app}"),
    "sync_blocked": N_("This app is on an https address, so the browser will not let it reach "
                       "{hub} (plain http). Start the hub with a certificate (bigtwo serve "
                       "--cert), or send the ledger as a file and run bigtwo import on the laptop."),
    "sync_by_file": N_("Send the ledger as a file"),
    "this_app": N_("This app"),
    "install_app": N_("Install on this phone"),
    "install_ios": N_("To keep it on this iPhone or iPad: in Safari tap Share (the square with "
                      "an arrow), then Add to Home Screen."),
    "share_app": N_("Share this app"),
    "app_link_copied": N_("Copied the app's address: {address}"),
    "update_ready": N_("A new version of this app is ready."),
    "reload": N_("Reload"),
    "app_qr": N_("Scan to open this app"),
    "app_qr_alt": N_("QR code of {address}"),
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
        from ledger.engine import dispatch as engine

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


def op_qr(phone: Phone, args: dict[str, Any]) -> dict[str, Any]:
    """``{"text": PAYLOAD}`` → ``{"rows": […]}``: a payment's QR code drawn by the same
    Python as the hub's ``POST /qr`` (:func:`ledger.present.qr.pay_code_rows`).  The phone's
    own, not an op of ``ledger/engine/ops.py``: the hub would serve a read as ``GET
    /api/qr?text=…``, a pay id in an address and open to a viewer."""
    from ledger.present.qr import pay_code_rows

    extra = sorted(set(args) - {"text"})
    if extra:
        raise InputError(_("{op} does not take {names}; it takes: {allowed}").format(
            op="qr", names=", ".join(extra), allowed="text"))
    return pay_code_rows(args.get("text"))


PHONE_OPS = {"words": op_words, "qr": op_qr}


def words() -> dict[str, Any]:
    """The app's words in the current language, with the offline app's own."""
    from ledger.core.i18n import _
    from ledger.engine import lang

    here = i18n.language()
    found = lang.words()
    found.update({key: _(text) for key, text in OFFLINE_WORDS.items()})
    return {"lang": here, "html_lang": lang.HTML_LANG.get(here, "en"), "languages": lang.NATIVE,
            "words": found}
