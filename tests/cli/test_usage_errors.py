"""The edge of the program: a usage error is one ``error:`` line (exit 2), and output
that cannot be written (a full disk, a closed pipe) ends without a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import file_digest

FOUR = ("--players", "Ann,Ben,Cat,Dan")


@pytest.mark.parametrize(("args", "message", "command"), [
    (("compare", "garbage"), "missing argument 'b'", "bigtwo compare"),
    (("void", "1", "--bogus"), "got unexpected extra argument", "bigtwo void"),
    (("void", "x"), "invalid value for 'number'", "bigtwo void"),
    (("bogus",), "no such command 'bogus'", "bigtwo"),
    (("standings", "--bogus"), "no such option: --bogus", "bigtwo standings"),
    (("session", "bogus"), "no such command 'bogus'", "bigtwo session"),
    (("session", "show", "1", "2"), "got unexpected extra argument", "bigtwo session show"),
    (("--bogus", "standings"), "no such option: --bogus", "bigtwo"),
])
def test_a_usage_error_is_one_line(cli, ledger_path, args, message, command):
    cli.ok("session", "start", *FOUR)
    before = file_digest(ledger_path)
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: {message}"), lines[0]
    assert lines[0].endswith(f" (see '{command} --help')"), lines[0]
    assert file_digest(ledger_path) == before


@pytest.mark.parametrize("args", [("void", "-1"), ("void", "0"), ("amend", "-1", "0", "3", "11", "8"),
                                  ("void", "--session", "1", "-2")])
def test_a_deal_number_below_1_says_which_numbers_exist(cli, ledger_path, args):
    """`void -1` is a deal number that does not exist, not an unknown option."""
    cli.ok("session", "start", *FOUR)
    cli.ok("deal", "0", "3", "11", "8")
    before = file_digest(ledger_path)
    result = cli(*args)
    assert result.exit_code != 0 and result.stdout == ""
    assert result.stderr == f"error: cannot {args[0]} deal {args[-1] if args[0] == 'void' else args[1]}: " \
                            "session 1 has deals 1 to 1\n"
    assert file_digest(ledger_path) == before


def test_a_deal_number_below_1_in_the_table_loop(cli, ledger_path):
    cli.ok("session", "start", *FOUR)
    cli.ok("deal", "0", "3", "11", "8")
    before = file_digest(ledger_path)
    result = cli("table", input="void -1\namend -2 0 3 11 8\nvoid -\n")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: line 1: cannot void deal -1: session 1 has deals 1 to 1",
        "error: line 2: cannot amend deal -2: session 1 has deals 1 to 1",
        "error: line 3: void needs a deal number: void N, e.g. void 3",
        "3 lines failed and changed nothing"]
    assert file_digest(ledger_path) == before


def test_a_usage_error_in_chinese(cli):
    err = cli.fails("--lang", "zh_Hant", "compare", "garbage", code=2)
    assert err.startswith("error: 漏咗參數 'b'")  # click's words through our catalog
    assert err.rstrip("\n").endswith("（見 'bigtwo compare --help'）"), err


def test_help_and_a_bare_group_still_show_the_help(cli):
    assert "Usage:" in cli.ok("session", "--help")
    result = cli("session")
    assert "Usage:" in result.output and "start" in result.output


def _run(args: list[str], stdout: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ledger", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120, check=False)


FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists() and os.environ.get("CI") != "true",
                    reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [
    ["rules", "list"], ["standings", "--all"], ["export", "--all"], ["export", "--all", "--format",
                                                                      "csv"],
    ["history", "--all", "--json"], ["log"],
])
def test_a_full_disk_under_stdout_is_one_error_line(cli, ledger_path, args):
    cli.ok("session", "start", *FOUR, "--name", "陳大文's evening")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=4", "Dan=5")
    before = file_digest(ledger_path)
    with FULL.open("w") as full:
        result = _run(args, full.fileno())
    assert result.returncode == 1, result.stderr
    assert result.stderr == "error: cannot write the output: no space left on device\n"
    assert file_digest(ledger_path) == before


@pytest.mark.parametrize("deals", [1, 30])  # a short output is still in Python's buffer at exit
@pytest.mark.parametrize("args", [["rules", "list"], ["log"], ["export", "--all"],
                                  ["export", "--all", "--format", "csv"]])
def test_a_closed_pipe_ends_quietly(cli, ledger_path, args, deals):
    cli.ok("session", "start", *FOUR)
    for _ in range(deals):
        cli.ok("deal", "Ann=0", "Ben=3", "Cat=4", "Dan=5")
    read_end, write_end = os.pipe()
    os.close(read_end)  # `bigtwo log | head -0`: the reader is gone before anything is written
    try:
        result = _run(args, write_end)
    finally:
        os.close(write_end)
    assert result.returncode == 1
    assert result.stderr == ""
