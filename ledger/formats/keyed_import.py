"""An import sent to the hub (``POST /api/import``, a phone's sync) is an action with a
key like any other: the key names that import (its file's name and text), so a retry
is answered again and the key is refused for anything else (one key, one action:
:mod:`ledger.storage.keyed`)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from ledger.book.keys import checked, refuse_held, reused
from ledger.core.i18n import _
from ledger.formats.exchange import import_file
from ledger.formats.merge import ImportReport
from ledger.storage.store import Ledger


def import_keyed(ledger: Ledger, text: str, name: str, key: str) -> ImportReport:
    """Import ``text`` (a JSON export or a score sheet named ``name``) as the action
    ``key`` names: the same key with the same name and text imports again (merged by
    uuid, it writes nothing new: a retry's answer); with another text, or a key another
    action took, :class:`~ledger.core.errors.KeyReused` (422) and nothing written."""
    uuid = checked(key)
    assert uuid is not None
    digest = hashlib.sha256(f"{name}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
    with ledger.writing():
        kept = ledger.keys.import_digest(uuid)
        if kept is not None and kept != digest:
            raise reused(uuid, _("an import of another file"))
        if kept is None:
            refuse_held(ledger, uuid, "imports")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / (os.path.basename(name) or "import.json")
        path.write_text(text, encoding="utf-8")
        report = import_file(ledger, path)
    if kept is None:
        with ledger.writing():
            if ledger.keys.import_digest(uuid) is None:  # another of the hub's threads kept it
                ledger.keys.add_import(uuid, digest, name)
    return report
