"""Presentation for people: text tables and summaries, and plots.

tabulate and matplotlib are imported here only, and only inside the functions that
use them.  Imports ``ledger.core``, ``ledger.storage``, ``ledger.book`` and
``ledger.formats``; never CLI or web.
"""
