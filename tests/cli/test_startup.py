"""Import-weight guarantees: the commands used at the table stay light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ledger.storage.schema import SCHEMA_VERSION
from ledger.storage.schema import migrations as _migrations

HEAVY = ("matplotlib", "numpy", "pandas", "tabulate", "sqlite_utils", "openskill",
         "starlette", "uvicorn", "jinja2", "segno", "anyio")

PROBE = """
import json, sys
from typer.testing import CliRunner
from ledger.cli.app import app
runner = CliRunner()
db = sys.argv[1]
for args in json.loads(sys.argv[2]):
    result = runner.invoke(app, ["--db", db, *args])
    assert result.exit_code == 0, result.output
heavy = json.loads(sys.argv[3])
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def loaded_after(tmp_path: Path, *commands: list[str]) -> set[str]:
    db = tmp_path / "probe.db"
    setup = subprocess.run(
        [sys.executable, "-m", "ledger", "--db", str(db), "session", "start",
         "--players", "Ann,Ben,Cat,Dan"], capture_output=True, text=True, check=True)
    assert "started" in setup.stdout
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(db), json.dumps(list(commands)), json.dumps(HEAVY)],
        capture_output=True, text=True, check=True,
    )
    return set(json.loads(out.stdout))


def test_importing_the_cli_loads_nothing_heavy() -> None:
    code = f"import sys, ledger.cli.app; print([m for m in {HEAVY!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "commands",
    [
        [["deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"]],
        [["deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"], ["undo"]],
        [["deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"], ["standings"]],
        [["deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"], ["standings", "--json"]],
        [["deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"], ["settle", "--json"]],
    ],
)
def test_table_commands_stay_light(tmp_path: Path, commands: list[list[str]]) -> None:
    assert loaded_after(tmp_path, *commands) == set()


def test_settle_table_loads_tabulate_but_no_plotting(tmp_path: Path) -> None:
    loaded = loaded_after(tmp_path, ["deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"], ["settle"])
    assert loaded <= {"tabulate"}


def test_schema_version_counts_the_migrations() -> None:
    assert len(_migrations()._migrations) == SCHEMA_VERSION


def test_lazy_command_table_matches_the_feature_modules() -> None:
    import typer.main

    from ledger.cli.commands import FEATURES, LAZY, feature_app

    for feature in FEATURES:
        built = typer.main.get_command(feature_app(feature))
        assert sorted(built.commands) == sorted(n for n, f in LAZY.items() if f == feature)


def test_deal_builds_no_feature_command(tmp_path: Path) -> None:
    loaded = loaded_after(tmp_path, ["deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"])
    assert loaded == set()
    code = (
        "import sys, ledger.cli.app; from typer.testing import CliRunner; "
        f"CliRunner().invoke(ledger.cli.app.app, ['--db', {str(tmp_path / 'probe.db')!r}, 'undo']); "
        "print(sorted(m for m in sys.modules if m.startswith('ledger.cli.commands.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_deal_does_not_load_the_card_parser(tmp_path: Path) -> None:
    """`deal` needs who deals and leads next, not ledger.core.cards (about 3 ms)."""
    db = tmp_path / "probe.db"
    subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), "session", "start",
                    "--players", "Ann,Ben,Cat,Dan"], capture_output=True, text=True, check=True)
    code = (
        "import sys, ledger.cli.app; from typer.testing import CliRunner; "
        f"r = CliRunner().invoke(ledger.cli.app.app, ['--db', {str(db)!r}, "
        "'deal', 'Ann=0', 'Ben=3', 'Cat=11', 'Dan=8']); "
        "print(r.exit_code, 'next: Ann deals, Ann leads' in r.output, "
        "'ledger.core.cards' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "True", "False"]


# What `bigtwo deal` may load of ours: recording a deal and printing the standings and
# who deals next.  A new module on this path (or an old one pulled back in) fails here;
# docs/performance.md says what each costs.  Keep it short.
DEAL_MODULES = {
    "ledger", "ledger.cli", "ledger.cli.app", "ledger.cli.common", "ledger.cli.lazy",
    "ledger.cli.sessions", "ledger.cli.commands",  # the package: its LAZY table, no feature module
    "ledger.core", "ledger.core.errors", "ledger.core.i18n", "ledger.core.text",
    "ledger.core.rule_values", "ledger.core.rules", "ledger.core.rule_set", "ledger.core.scoring",
    "ledger.core.deal_checks",  # (scoring's checks of the facts)
    "ledger.core.seating",  # players and decks: hand sizes, the table a deck seats
    "ledger.core.deal_line", "ledger.core.registry", "ledger.core.fact_help", "ledger.core.dealer",
    "ledger.core.settlement",
    "ledger.core.numbers", "ledger.core.limits",  # counts as typed; the ledger is a regular file
    "ledger.book", "ledger.book.actions", "ledger.book.writes", "ledger.book.keys", "ledger.book.reports",
    "ledger.book.clock", "ledger.book.views", "ledger.book.views.deal",
    "ledger.storage", "ledger.storage.rows", "ledger.storage.store", "ledger.storage.codec",
    "ledger.storage.errors", "ledger.storage.schema", "ledger.storage.journal",
    "ledger.storage.history", "ledger.storage.sessions",  # the journal's reads
    "ledger.storage.players", "ledger.storage.totals",
    "ledger.present", "ledger.present.text", "ledger.present.fit",
}
# Dataclasses defined by those modules: each costs ~0.3-0.5 ms to create (its methods
# are generated and compiled); records that are never changed are named tuples (~0.1 ms).
DEAL_DATACLASSES = {"ledger.core.dealer.Cut", "ledger.core.deal_line.DealArgs"}

DEAL_PROBE = """
import dataclasses, json, sys
import typer.main
built = []
make = typer.main.get_command_from_info
def counting(*args, **kwargs):  # Typer passes command_info by name
    built.append((args[0] if args else kwargs["command_info"]).name)
    return make(*args, **kwargs)
typer.main.get_command_from_info = counting
from typer.testing import CliRunner
from ledger.cli.app import app
r = CliRunner().invoke(app, ["--db", sys.argv[1], "deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8"])
assert r.exit_code == 0, r.output
ours = sorted(m for m in sys.modules if m == "ledger" or m.startswith("ledger."))
classes = sorted(f"{c.__module__}.{c.__name__}" for m in ours for c in vars(sys.modules[m]).values()
                 if isinstance(c, type) and c.__module__ == m and dataclasses.is_dataclass(c))
print(json.dumps({"modules": ours, "dataclasses": classes, "built": built}))
"""


def deal_probe(tmp_path: Path) -> dict[str, list[str]]:
    db = tmp_path / "probe.db"
    subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), "session", "start",
                    "--players", "Ann,Ben,Cat,Dan"], capture_output=True, text=True, check=True)
    out = subprocess.run([sys.executable, "-c", DEAL_PROBE, str(db)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_deal_loads_only_its_own_modules(tmp_path: Path) -> None:
    probe = deal_probe(tmp_path)
    assert set(probe["modules"]) <= DEAL_MODULES, set(probe["modules"]) - DEAL_MODULES
    assert set(probe["dataclasses"]) <= DEAL_DATACLASSES, probe["dataclasses"]


def test_deal_builds_only_the_deal_command(tmp_path: Path) -> None:
    """The root's commands are made into click commands when named (ledger.cli.lazy): `deal`
    builds `deal`, not the ~16 commands and groups of ledger.cli.app."""
    assert deal_probe(tmp_path)["built"] == ["deal"]


def test_every_root_command_is_still_listed_and_reachable() -> None:
    import typer

    from ledger.cli.app import app
    from ledger.cli.commands import LAZY

    root = typer.main.get_command(app)
    ctx = typer.Context(root)  # type: ignore[arg-type]
    names = root.list_commands(ctx)  # type: ignore[attr-defined]
    assert names[:3] == ["deal", "amend", "void"] and names[-len(LAZY):] == list(LAZY)
    assert len(names) == len(set(names))
    for name in names:
        assert root.get_command(ctx, name) is not None, name  # type: ignore[attr-defined]
