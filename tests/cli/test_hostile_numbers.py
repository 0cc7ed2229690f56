"""One reader of "a whole number as typed" (ledger.core.numbers, issue 22): ASCII and
full-width digits, nothing else, wherever a number is typed."""

from __future__ import annotations

import json

import pytest

from ledger.core.errors import InputError
from tests.helpers import file_digest


@pytest.mark.parametrize("text, value", [("0", 0), ("12", 12), ("１２", 12), (" ３ ", 3), ("0１", 1)])
def test_ascii_and_full_width_digits_are_numbers(text: str, value: int) -> None:
    from ledger.core.numbers import is_whole_number, whole_number

    assert whole_number(text) == value and is_whole_number(text)


@pytest.mark.parametrize("text", ["²", "①", "٣", "३", "৩", "1.0", "-1", "+1", "", " ", "1 2", "一"])
def test_nothing_else_is(text: str) -> None:
    from ledger.core.numbers import digits, whole_number

    assert digits(text) is None
    with pytest.raises(InputError, match="is not a whole number"):
        whole_number(text)


def test_too_many_digits_is_refused_before_int_sees_them() -> None:
    from ledger.core.numbers import whole_number

    with pytest.raises(InputError, match="has 5000 digits; at most 18"):
        whole_number("9" * 5000)
    with pytest.raises(InputError, match="is more than 52"):
        whole_number("53", "cards", most=52)


@pytest.fixture
def session(cli):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("deal", "0", "3", "11", "8")
    cli.ok("deal", "5", "0", "2", "13")
    cli.ok("deal", "1", "7", "0", "4")


@pytest.mark.parametrize("args", [("void", "٣"), ("void", "²"), ("session", "show", "٣"),
                                  ("log", "--session", "²"), ("session", "use", "①")])
def test_other_digits_on_the_command_line_are_refused(cli, ledger_path, session, args) -> None:
    before = file_digest(ledger_path)
    result = cli(*args)
    assert result.exit_code != 0
    assert "is not a whole number (write it with the digits 0-9)" in result.stderr
    assert file_digest(ledger_path) == before


def test_full_width_digits_on_the_command_line_are_read(cli, session) -> None:
    assert "deal 2 voided" in cli.ok("void", "２")
    assert cli.ok("log", "--session", "１")


def test_a_superscript_two_in_table_is_an_error_line_and_the_evening_goes_on(cli, session) -> None:
    result = cli("table", input="void ²\nvoid ３\n0 1 2 3\nquit\n")
    assert result.exit_code == 1  # one line failed
    assert "Traceback" not in result.output
    assert "error: line 1: void needs a deal number" in result.stderr
    assert "deal 3 voided" in result.stdout
    assert "deal 4: Ann* 0" in result.stdout  # the rest of the evening was read
    assert json.loads(cli.ok("standings", "--json"))["players"][0]["deals"] == 3


def test_a_sample_file_reads_numbers_as_typed(tmp_path, ledger_path) -> None:
    from ledger.formats.samples import load_file
    from ledger.storage.store import open_ledger

    sample = tmp_path / "s.toml"
    sample.write_text('[[session]]\nplayers = ["Ann", "Ben", "Cat", "Dan"]\n'
                      'deals = ["0 3 11 8", "void ²"]\n', "utf-8")
    with open_ledger(ledger_path) as ledger, pytest.raises(InputError, match="void needs a deal number"):
        load_file(ledger, sample)
    sample.write_text('[[session]]\nplayers = ["Ann", "Ben", "Cat", "Dan"]\n'
                      'deals = ["0 3 11 8", "void １"]\n', "utf-8")
    with open_ledger(ledger_path) as ledger:
        (s,) = load_file(ledger, sample)
        assert ledger.journal.live_deals(s.id) == []
