"""``python -m ledger`` runs the ``bigtwo`` command line."""

from ledger.cli import main

main()
