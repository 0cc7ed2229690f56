"""Files in and out: JSON/CSV export, JSON import, big-two-scorer score sheets and the
sample session files.

Imports ``ledger.core``, ``ledger.storage`` and ``ledger.book``; never CLI or web.
"""
