"""Files that are not what they should be (issue 22): deep or endless rule files, FIFOs
and devices named as rule files, ledgers or imports, a sample TOML given to import.
Each gets one `error:` line naming what the file is, and nothing is written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, file_digest

DEEP = "name = \"deep\"\nplays = " + "[" * 1000 + "]" * 1000 + "\n"


@pytest.fixture
def session(cli):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")


@pytest.mark.parametrize("command", [("rules", "show"), ("session", "start", "--players",
                                                          "Ann,Ben,Cat,Dan", "--rules")])
def test_a_rule_file_nested_1000_deep_is_one_error_line(cli, tmp_path: Path, command) -> None:
    rule_file = tmp_path / "deep.toml"
    rule_file.write_text(DEEP, "utf-8")
    assert len(DEEP) < 2100  # a 2 KB file
    err = cli.fails(*command, str(rule_file))
    assert err.startswith("error: rule file ") and "nested 1000 levels deep; at most 64" in err


def test_a_rule_file_linked_to_dev_zero_is_refused_unread(tmp_path: Path, ledger_path: Path) -> None:
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    # In a child with 2 GiB of address space: reading /dev/zero to the end must not take
    # the machine's memory (the child dies with MemoryError instead).
    done = bigtwo("rules", "show", str(link), env=child_env(ledger_path), memory=2 << 30)
    assert done.returncode != 0
    assert done.stderr.startswith("error: rule file ") and "is a character device, not a file" in done.stderr


def test_a_rule_file_larger_than_a_mebibyte_is_refused(cli, tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20) + "\n", "utf-8")
    assert "is larger than 1024 KiB" in cli.fails("rules", "show", str(big))


def bigtwo(*args: str, env: dict[str, str], timeout: float = 20,
           memory: int | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-m", "ledger", *args], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=ROOT,
                          preexec_fn=limit if memory else None)


def child_env(db: Path) -> dict[str, str]:
    return {**os.environ, "BIGTWO_DB": str(db), "BIGTWO_LANG": "en", "COLUMNS": "100"}


@pytest.mark.no_ledger
def test_a_fifo_named_as_a_rule_file_does_not_hang(tmp_path: Path, ledger_path: Path) -> None:
    fifo = tmp_path / "x.toml"
    os.mkfifo(fifo)
    done = bigtwo("session", "start", "--players", "Ann,Ben,Cat,Dan", "--rules", str(fifo),
                  env=child_env(ledger_path))
    assert done.returncode != 0
    assert done.stderr.startswith("error: rule file ") and "is a FIFO (named pipe), not a file" in done.stderr
    assert not ledger_path.exists()


@pytest.mark.no_ledger
def test_a_fifo_named_as_the_ledger_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "ledger.db"
    os.mkfifo(fifo)
    done = bigtwo("--db", str(fifo), "session", "list", env=child_env(fifo))
    assert done.returncode == 1
    assert "it is a FIFO (named pipe), not a file" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ledger.db"]  # no -journal beside it


@pytest.mark.parametrize("command", [("session", "list"), ("log",),
                                     ("session", "start", "--players", "Ann,Ben,Cat,Dan")])
def test_dev_null_as_the_ledger_is_refused_and_leaves_no_journal(cli, command) -> None:
    journal = Path("/dev/null-journal")
    had = journal.exists()
    result = cli("--db", "/dev/null", *command)
    left = journal.exists() and not had
    if left:  # today's main wrote it: clean up what the bug left
        journal.unlink()
    assert result.exit_code == 1
    assert "error: cannot open the ledger /dev/null: it is a character device, not a file" in result.stderr
    assert not left


@pytest.mark.no_ledger
def test_import_of_a_fifo_says_what_it_is(cli, tmp_path: Path, ledger_path: Path) -> None:
    fifo = tmp_path / "export.json"
    os.mkfifo(fifo)
    err = cli.fails("import", str(fifo))
    assert "it is a FIFO (named pipe), not a file" in err and "no such file" not in err
    assert not ledger_path.exists()


@pytest.mark.no_ledger
def test_import_of_a_sample_toml_says_what_it_is_and_how_to_use_it(cli, ledger_path) -> None:
    err = cli.fails("import", str(ROOT / "sample_sessions" / "evening.toml"))
    assert err.startswith("error: evening.toml is a sample session file")
    assert "bigtwo demo" in err and "bigtwo table" in err
    assert "needs 4 players" not in err
    assert not ledger_path.exists()


@pytest.mark.no_ledger
def test_a_sample_file_nested_deep_is_one_error_line(tmp_path: Path, ledger_path: Path) -> None:
    from ledger.core.errors import InputError
    from ledger.formats.samples import read_sample

    deep = tmp_path / "deep.toml"
    deep.write_text("[[session]]\nplayers = " + "[" * 1000 + "]" * 1000 + "\n", "utf-8")
    with pytest.raises(InputError, match="nested 1000 levels deep"):
        read_sample(deep)
    assert file_digest(ledger_path) == "absent"
