"""Shared fixtures: every test gets its own ledger file through BIGTWO_DB."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ledger.cli.app import app


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def ledger_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "ledger.db"
    monkeypatch.setenv("BIGTWO_DB", str(path))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("TZ", "UTC")  # dates as stored; tests of local time set their own
    monkeypatch.setenv("BIGTWO_LANG", "en")  # English whatever the machine's locale; i18n tests set theirs
    from ledger.core import i18n

    i18n.choose(None)
    return path


class Cli:
    """Runs ``bigtwo`` in-process; ``ok`` asserts success, ``fails`` asserts a clean error."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None):
        return self.runner.invoke(app, list(args), input=input, catch_exceptions=False)

    def ok(self, *args: str, input: str | None = None) -> str:
        result = self(*args, input=input)
        assert result.exit_code == 0, f"bigtwo {' '.join(args)} failed:\n{result.output}"
        return result.stdout

    def fails(self, *args: str, code: int | None = None) -> str:
        result = self(*args)
        assert result.exit_code != 0, f"bigtwo {' '.join(args)} should fail:\n{result.output}"
        if code is not None:
            assert result.exit_code == code, result.output
        assert "Traceback" not in result.output
        return result.stderr


@pytest.fixture
def cli() -> Cli:
    return Cli()
