"""``python -m ledger`` runs the ``bigtwo`` command line."""

from ledger.cli.app import main

main()
