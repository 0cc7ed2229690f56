"""Shared fixtures: every test gets its own ledger file through BIGTWO_DB, a copy of a
ledger migrated once per run (per xdist worker); tests that drive a browser, or start
servers and processes with timing margins, run one at a time on one worker each.

The suite runs in parallel (README, .ci/run): ``pytest -n auto --dist loadgroup``.
docs/reliability.md ("How long the suite takes") says why and how much.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

from ledger.cli.app import app

# Tests kept to one worker each under `--dist loadgroup` (xdist_group), by file.  A group
# runs its tests one after another, so they keep the margins they were written with: no
# two Chromiums at once, no two crash or server tests at once.  Other tests spread over the
# other workers.  (Chromium's tests in two, three or four groups side by side saturated
# the two CPUs and ran no faster than one group, some timing tests past their limits:
# see docs/reliability.md.)  tests/architecture/test_suite_groups.py checks that every file
# that starts Chromium is in a browser group (BROWSER), and every file that starts
# `bigtwo serve` or kills a process is in a group.
GROUPS = {
    # Chromium (Playwright): the phone app on the hub, the offline app on Pyodide.
    "browser": (
        "tests/web/test_other_port.py",
        "tests/web/test_phone.py",
        "tests/web/test_phone_corrections.py",
        "tests/web/test_phone_money_first.py",
        "tests/web/test_phone_pay.py",
        "tests/web/test_phone_restart.py",
        "tests/web/test_phone_seats.py",
        "tests/web/test_phone_tables.py",
        "tests/offline/test_offline_browser.py",
        "tests/offline/test_offline_store_open.py",
        "tests/offline/test_offline_words_layout.py",
        "tests/offline/test_offline_first_open.py",
        "tests/offline/test_offline_pay.py",
        "tests/offline/test_offline_scopes.py",
        "tests/offline/test_offline_seats_sync.py",
        "tests/offline/test_offline_start.py",
        "tests/offline/test_offline_update.py",
    ),
    # Processes killed at chosen moments, writers racing for the lock, `bigtwo serve`
    # and its time limits, a terminal under tmux: what they measure is timing.
    "processes": (
        "tests/cli/test_table_terminal.py",
        "tests/formats/test_bulk_indexes.py",
        "tests/formats/test_sheets.py",
        "tests/reliability/test_backup.py",
        "tests/reliability/test_concurrency.py",
        "tests/reliability/test_crash.py",
        "tests/reliability/test_file_replaced.py",
        "tests/reliability/test_orphans.py",
        "tests/web/test_hostile_serve.py",
        "tests/web/test_i18n.py",
        "tests/web/test_limits.py",
        "tests/web/test_serve.py",
        "tests/web/test_tls.py",
        "tests/web/test_tokens.py",
    ),
}
# `bigtwo` as a process builds its click command once, for its one command line; Typer's
# CliRunner builds it again on every invoke (about 6 ms of the 9-13 ms of an in-process
# `bigtwo standings` here), and the suite invokes it some 6,000 times.  So the tests build
# `app`'s command once per worker and use it for every invoke, as a process would for its
# one; other Typer apps are built as before.  The group is made to be used again: the
# commands it loads when named stay added (ledger.cli.lazy) and each help text goes back
# to English before it is translated (ledger.cli.common.localize).  What a command loads
# on its own is tested in processes of their own (tests/cli/test_startup.py).
_BUILD = typer.main.get_command
_APP_COMMAND = []


def _app_command_once(typer_app: typer.Typer) -> object:
    if typer_app is not app:
        return _BUILD(typer_app)
    if not _APP_COMMAND:
        _APP_COMMAND.append(_BUILD(app))
    return _APP_COMMAND[0]


typer.testing._get_command = _app_command_once  # CliRunner.invoke's builder

BROWSER = ("browser",)
"""The groups whose tests start Chromium."""
GROUP_OF = {path: group for group, paths in GROUPS.items() for path in paths}
ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="also run tests marked slow")


def pytest_itemcollected(item: pytest.Item) -> None:
    """A grouped file's tests get their ``xdist_group`` as they are collected: before any
    ``pytest_collection_modifyitems``, where pytest-xdist reads the groups."""
    group = group_of(item.path)
    if group is not None:
        item.add_marker(pytest.mark.xdist_group(group))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow (CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def group_of(path: Path) -> str | None:
    """The xdist group of the tests in the file ``path``, or None (spread freely)."""
    try:
        return GROUP_OF.get(path.resolve().relative_to(ROOT).as_posix())
    except ValueError:  # not in this repository
        return None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """``--dist loadgroup`` by file: pytest-xdist 3.8 reads a test's group from a suffix
    it writes into ``item._nodeid``, which pytest 9 no longer uses for ``nodeid``, so
    its groups would be lost; this scheduler takes each test's group from its file
    (GROUPS), every other test being a unit of its own, as loadgroup does."""
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return GROUP_OF.get(nodeid.split("::", 1)[0], nodeid)

    return ByGroup(config, log)


def pytest_configure(config: pytest.Config) -> None:
    """The package's bytecode written next to its sources once, before the workers start,
    as pip writes an installed package's: the suite starts `bigtwo` as a process a
    thousand times, and with PYTHONDONTWRITEBYTECODE set (as on CI's machines) an
    editable install's modules were compiled again by every one of them.  In place, not
    under PYTHONPYCACHEPREFIX, which moves the lookup of every module's bytecode, the
    standard library's too (docs/reliability.md).  A folder the run cannot write to is
    left as it is: Python compiles in memory then, as before."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller did it
        return
    import compileall

    compileall.compile_dir(ROOT / "ledger", quiet=2, workers=1)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per CPU, as most of a test's time is spent waiting (on
    fsync, a child process, a browser), not computing.  PYTEST_XDIST_AUTO_NUM_WORKERS
    still chooses, as in pytest-xdist."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if chosen.isdigit():
        return int(chosen)
    return 2 * (os.cpu_count() or 1)


@pytest.fixture(scope="session")
def template_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new ledger made by :func:`open_ledger` once per run (per worker): the eight
    migrations and their syncs, paid once instead of once per test."""
    from ledger.storage.store import open_ledger

    path = tmp_path_factory.mktemp("template") / "ledger.db"
    open_ledger(path).close()
    leftovers = [p.name for p in path.parent.iterdir() if p != path]
    assert not leftovers, f"a closed ledger is one file, found {leftovers}"
    return path


@pytest.fixture(autouse=True)
def ledger_path(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                template_ledger: Path) -> Path:
    """BIGTWO_DB, a new ledger (a copy of the template) unless the test is marked
    ``no_ledger``: then the path names no file yet."""
    path = tmp_path / "ledger.db"
    if request.node.get_closest_marker("no_ledger") is None:
        shutil.copyfile(template_ledger, path)
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
