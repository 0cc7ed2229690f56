"""Presentation for people: text tables and summaries, plots and QR codes drawn as text.

tabulate, matplotlib and segno (``qr.py``) are imported here only, and only inside the
functions that use them.  Imports ``ledger.core``, ``ledger.storage``, ``ledger.book``
and ``ledger.formats``; never CLI or web.
"""
