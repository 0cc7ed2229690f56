"""The pure core: cards, plays, rule sets (+ presets), scoring, settlement, the dealer's
helpers and the deal grammar.

Imports only the standard library and other modules of ``ledger.core``: no storage,
no terminal, no sqlite3, typer, tabulate or matplotlib.  Everything here is a pure
function of its arguments, so it is tested without a ledger file.
"""
