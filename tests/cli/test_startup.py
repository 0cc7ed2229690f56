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
