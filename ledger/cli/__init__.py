"""The ``bigtwo`` command line: the only package that imports ``typer``/``click``.

Each command parses its arguments, calls one action of the book (or formats), and
prints one rendering from ``ledger.present``.  May import every layer below it.
"""
