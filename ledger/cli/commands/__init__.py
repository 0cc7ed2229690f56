"""Feature commands, one module per feature; each has ``register(app)``.

They load lazily: ``bigtwo deal`` neither imports these modules nor builds their
commands.  The root group looks a name up in :data:`LAZY` only when it is not a
core command, then imports that one feature module.  Modules here import only
typer and ledger.cli.common at load time; everything heavier is imported inside the
command that needs it.
"""

from __future__ import annotations

import importlib
from typing import Any

import typer

# Command name -> the feature module that registers it (a test checks they agree).
LAZY: dict[str, str] = {
    "compare": "compare", "table": "table", "cut": "dealer", "redeal-check": "dealer",
    "export": "transfer", "import": "transfer", "check": "transfer",
    "doctor": "care", "backup": "care", "restore": "care",
    "stats": "history", "history": "history", "plot": "history",
    "serve": "serve", "player": "players", "season": "seasons",
    "paid": "money", "owed": "money", "payments": "money", "app": "app_site", "bot": "bot",
    "seat": "seats",
}
FEATURES: tuple[str, ...] = tuple(dict.fromkeys(LAZY.values()))


def _group() -> None:
    """The feature's commands."""


def feature_app(name: str) -> typer.Typer:
    """A Typer app holding just the commands of feature module ``name``."""
    app = typer.Typer(rich_markup_mode=None, pretty_exceptions_enable=False, add_completion=False)
    app.callback()(_group)  # a group even when the feature has one command (serve)
    importlib.import_module(f"ledger.cli.commands.{name}").register(app)
    return app


def load(command: str) -> Any:
    """The click command for ``command``, built from its feature module (None if unknown)."""
    if command not in LAZY:
        return None
    built = typer.main.get_group(feature_app(LAZY[command]))
    return built.commands.get(command)
