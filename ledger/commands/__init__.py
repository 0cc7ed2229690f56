"""Feature commands, one module per feature; each has ``register(app)``.

Modules here import only typer and ledger.cliutil at load time; everything
heavier is imported inside the command that needs it.
"""

from __future__ import annotations

import importlib

import typer

FEATURES: tuple[str, ...] = ("table", "transfer", "care", "history")


def register_all(app: typer.Typer) -> None:
    for name in FEATURES:
        importlib.import_module(f"ledger.commands.{name}").register(app)
