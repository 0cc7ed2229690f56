"""``bigtwo import BACKUP``: a backup (``bigtwo backup``) merged into the ledger, as an
export of every session would be, after the checks a restore makes.

The backup is read as ``restore`` reads it (:class:`~ledger.storage.backup.BackupReader`:
its rows only, never its schema), its rows get the self-check's data checks, and they
are copied through the gate into a fresh ledger in a temporary folder
(:func:`ledger.formats.rebuild.rebuild`), which must then pass the full check
(``doctor --full``'s), whatever the plain doctor checks.  Its sessions and payments are
then imported as a JSON export of them would be: merged by uuid, through the gate
again, against this ledger.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ledger.book.doctor import data_problems, full_problems
from ledger.core.errors import Problems
from ledger.core.i18n import _
from ledger.formats.exchange import export_json, import_json
from ledger.formats.merge import ImportReport
from ledger.formats.rebuild import rebuild
from ledger.storage.backup import BackupReader
from ledger.storage.store import Ledger, open_ledger


def import_backup(ledger: Ledger, path: Path) -> ImportReport:
    """Merge the backup ``path`` into ``ledger`` (see the module's docstring)."""
    origin = path.name

    def refuse(found: list[str]) -> None:
        if found:
            raise Problems([_("{file} fails the self-check, so nothing was imported: {problem}")
                            .format(file=origin, problem=p) for p in found])

    with tempfile.TemporaryDirectory() as folder:
        staged = Path(folder) / "backup.db"
        with BackupReader(path) as reader:
            refuse(data_problems(reader.ledger()))
            with open_ledger(staged) as fresh:
                rebuild(reader, fresh)
        text = Path(folder) / origin
        with open_ledger(staged) as fresh:
            refuse(full_problems(fresh))
            sessions = fresh.journal.sessions()
            with text.open("w", encoding="utf-8") as out:
                export_json(fresh, sessions, out, fresh.payments.rows())
        report = import_json(ledger, text, origin)
    report.kind = "backup"
    return report
