"""Hostile typing: numbers of thousands of digits and lone surrogates give one
`error:` line (never a traceback), and inside `table` the evening goes on."""

from __future__ import annotations

import json

import pytest

from tests.helpers import file_digest

HUGE = "9" * 5000


@pytest.fixture
def session(cli):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")


@pytest.mark.parametrize("args", [
    ("deal", "Ann=0", f"Ben={HUGE}", "Cat=1", "Dan=2"),
    ("deal", "Ann=0", "Ben=1", "Cat=1", "Dan=2", "--twos", f"Ben={HUGE}"),
    ("deal", "0", HUGE, "1", "2"),
    ("amend", "1", "Ann=0", f"Ben={HUGE}", "Cat=1", "Dan=2"),
    ("void", HUGE),
    ("session", "show", HUGE),
    ("check", f"Ann={HUGE}", "Ben=1", "Cat=1", "Dan=1"),
    ("deal", "Ann\udcff=0", "Ben=1", "Cat=1", "Dan=2"),
    ("session", "start", "--players", "A\udcffnn,Ben"),
    ("session", "start", "--players", "Ann,Ben", "--name", "x\ud800"),
])
def test_one_error_line_and_nothing_changes(cli, ledger_path, session, args):
    cli.ok("deal", "Ann=0", "Ben=1", "Cat=2", "Dan=3")
    before = file_digest(ledger_path)
    result = cli(*args)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.stderr.lower().startswith(("error: ", "usage: ")), result.stderr[:300]
    assert file_digest(ledger_path) == before


def test_a_huge_number_typed_in_table_does_not_end_the_evening(cli, ledger_path, session):
    result = cli("table", input=f"Ann=0 Ben={HUGE} Cat=1 Dan=1\n0 1 2 3\nquit\n")
    assert result.exit_code == 1  # read from a file: the failed line makes the exit code 1
    out = result.stdout + result.stderr
    assert "far more than the 52 cards" in out
    assert "deal 1: Ann* 0" in out  # the next line was recorded
    assert json.loads(cli.ok("standings", "--json"))["players"][0]["deals"] == 1
