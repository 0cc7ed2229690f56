"""The scorekeeper's use cases as plain data: record, void and amend deals, standings,
settlement, statistics, ratings, the self-check (doctor) and the paper check.

Imports ``ledger.core`` and ``ledger.storage``; never formats, presentation, CLI or web.
"""
