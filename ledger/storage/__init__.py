"""The ledger file: the only package that imports ``sqlite3`` or ``sqlite_utils``.

Schema and migrations, the append-only journal (players, sessions, entries), the
totals and caches kept beside it, raw reads for the self-check, bulk import and
backup/restore.  Imports ``ledger.core`` only (for errors and plain types); never the
book, formats, presentation, CLI or web layers.
"""
