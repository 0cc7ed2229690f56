"""Commands built only when they are named: one mechanism for the whole command line.

Typer turns every registered function into a click command (its parameters from the
signature and type hints) before it runs any of them: ~6 ms for ``bigtwo``'s root,
paid by every ``bigtwo deal``.  Here the root's commands are kept as the functions and
options they were declared with, and each is made into a click command when it is
named, through Typer's public API alone (``Typer.command``, ``Typer.add_typer`` and
``typer.main.get_command``, ``get_group``).  The click side is the shape click documents for lazy
loading (``LazyGroup``: a group whose ``list_commands`` and ``get_command`` consult a
table of names): :class:`ledger.cli.common.LedgerGroup.lazy_subcommands`, which holds
the root's own commands and the feature modules' (:data:`ledger.cli.commands.LAZY`) alike.
"""

from __future__ import annotations

import functools
from collections import ChainMap
from collections.abc import Callable
from typing import Any

import typer


class LazyTyper(typer.Typer):
    """The root app.  ``@app.command(...)`` and ``app.add_typer(sub, name=...)`` record
    what to build instead of registering it; the root group builds each command, alone,
    when ``bigtwo NAME`` (``--help``, completion, "did you mean") asks for it."""

    def __init__(self, *, cls: type[Any], **kwargs: Any) -> None:
        self.lazy: dict[str, Callable[[], Any]] = {}  # commands
        self.lazy_groups: dict[str, Callable[[], Any]] = {}  # sub-apps (session, rules, db)
        # The feature commands (ledger/cli/commands/, each module imported when one of its
        # commands is named) are in the same table.
        from ledger.cli.commands import LAZY, load

        features: dict[str, Callable[[], Any]] = {name: functools.partial(load, name) for name in LAZY}
        # Listed as Typer lists them, commands before sub-apps, then the features (a
        # ChainMap iterates its last map first).
        table: ChainMap[str, Callable[[], Any]] = ChainMap(features, self.lazy_groups, self.lazy)
        self._settings = {k: kwargs[k] for k in ("rich_markup_mode", "pretty_exceptions_enable")
                          if k in kwargs}
        # The root group's class carries this app's table (click instantiates the class).
        super().__init__(cls=type("RootGroup", (cls,), {"lazy_subcommands": table}), **kwargs)

    def command(self, name: str | None = None, **options: Any) -> Callable[[Any], Any]:
        def record(function: Any) -> Any:
            key = name or function.__name__.replace("_", "-")
            self.lazy[key] = lambda: self._build_one(key, function, options)
            return function

        return record

    def add_typer(self, typer_instance: typer.Typer, *, name: str | None = None,
                  **options: Any) -> None:
        if name is None or options:  # the root adds its sub-apps by name alone
            raise TypeError("the root app adds a sub-app by its name alone: add_typer(app, name=...)")
        self.lazy_groups[name] = lambda: typer.main.get_group(typer_instance)

    def _build_one(self, name: str, function: Any, options: dict[str, Any]) -> Any:
        """``function`` as the click command ``name``: an app holding that one command
        is, for Typer, that command."""
        single = typer.Typer(add_completion=False, **self._settings)
        single.command(name, **options)(function)
        return typer.main.get_command(single)
