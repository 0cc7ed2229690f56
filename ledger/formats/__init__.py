"""Files in and out: JSON/CSV export, JSON import, big-two-scorer score sheets and the
sample session files.

Imports ``ledger.core``, ``ledger.storage`` and ``ledger.book``; never presentation, CLI or web
(a helper both need belongs in a lower layer, as ``facts_text`` does in ``ledger.core.deal_line``).
"""
