"""`table` and `deal` read what a Chinese keyboard types and every line `log` prints
(issue 22): full-width digits, ideographic spaces, commas; command words in Chinese in
both scripts; quoted names; the options the loop's own hints suggest; accents left off."""

from __future__ import annotations

import json

import pytest

from tests.helpers import CJK_SEATS, file_digest


def deals(cli) -> list[dict]:
    log = json.loads(cli.ok("log", "--json"))
    entries = log["entries"] if isinstance(log, dict) else log
    return [e for e in entries if e["kind"] == "deal"]


@pytest.fixture
def session(cli):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")


@pytest.mark.parametrize("line", ["０ ３ ８ １２", "0\u30003\u30008\u300012", "0，3，8，12",
                                  "0,3,8,12", "0、3、8、12", "０，３，８，１２",
                                  "Ann=０ Ben=３ Cat=８ Dan=１２", "0， 3， 8， 12"])
def test_counts_as_a_chinese_keyboard_types_them(cli, session, line: str) -> None:
    result = cli("table", input=f"{line}\nquit\n")
    assert result.exit_code == 0, result.output
    assert deals(cli)[0]["facts"]["cards"] == {"Ann": 0, "Ben": 3, "Cat": 8, "Dan": 12}


def test_counts_as_a_chinese_keyboard_types_them_in_deal(cli, session) -> None:
    cli.ok("deal", "０", "３", "８", "１２")
    cli.ok("deal", "0，3，8，12")
    assert [d["facts"]["cards"]["Dan"] for d in deals(cli)] == [12, 12]


@pytest.mark.parametrize("line", ["0\u30003\u30008\u300012", "０\u3000３\u3000８\u3000１２",
                                  "Ann=0\u3000Ben=3\u3000Cat=8\u3000Dan=12", "0 3 8 12",
                                  "0, 3, 8, 12"])
def test_ideographic_spaces_in_one_argument_of_deal_and_amend(cli, session, line: str) -> None:
    """``bigtwo deal "0　3　8　12"``: the whole line in one shell argument, as a full-width
    keyboard types it, once "1 numbers for 4 players" (issue 30); the same with ASCII
    spaces, as a line copied from ``log`` is pasted in quotes."""
    cli.ok("deal", line)
    cli.ok("deal", "1", "2", "3", "0")
    cli.ok("amend", "2", line)
    log = json.loads(cli.ok("log", "--json"))
    cards = {"Ann": 0, "Ben": 3, "Cat": 8, "Dan": 12}
    assert [(e["kind"], e["facts"]["cards"]) for e in log if e["kind"] in ("deal", "amend")] == [
        ("deal", cards), ("deal", {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 0}), ("amend", cards)]
    result = cli("table", input=f"{line}\nquit\n")  # and table reads the same line the same way
    assert result.exit_code == 0, result.output
    assert deals(cli)[-1]["facts"]["cards"] == {"Ann": 0, "Ben": 3, "Cat": 8, "Dan": 12}


def test_one_count_for_four_players_is_refused_in_the_singular(cli, session) -> None:
    result = cli("deal", "5")
    assert result.exit_code != 0
    assert result.stderr.splitlines() == [
        "error: 1 number for 4 players: give one count per seat in seat order "
        "(Ann, Ben, Cat, Dan) or NAME=CARDS pairs"]
    assert deals(cli) == []


@pytest.mark.parametrize("word, shows", [
    ("撤回", "undone: deal 1"), ("撤銷", "undone: deal 1"), ("撤销", "undone: deal 1"),
    ("記錄", "entry"), ("记录", "entry"), ("計分", "penalty"), ("计分", "penalty"),
    ("埋數", "fewest payments"), ("埋数", "fewest payments"), ("結算", "fewest payments"),
    ("结算", "fewest payments"), ("幫助", "commands:"), ("帮助", "commands:"),
])
def test_command_words_in_chinese(cli, session, word: str, shows: str) -> None:
    result = cli("table", input=f"0 3 8 12\n{word}\n")
    assert result.exit_code == 0, result.output
    assert "unknown command" not in result.output
    assert shows in result.stdout.split(f"> {word}", 1)[1]


@pytest.mark.parametrize("word", ["走", "退出"])
def test_quit_in_chinese_ends_the_evening(cli, session, word: str) -> None:
    result = cli("table", input=f"0 3 8 12\n{word}\n1 0 2 3\n")
    assert result.exit_code == 0, result.output
    assert len(deals(cli)) == 1  # the line after quit was not read


def test_void_and_amend_in_chinese(cli, session) -> None:
    result = cli("table", input="0 3 8 12\n5 0 2 7\n作廢 1\n修改 2 0 5 2 7\n")
    assert result.exit_code == 0, result.output
    assert "deal 1 voided" in result.stdout and "amended deal 2" in result.stdout


def test_help_lists_the_chinese_words(cli, session) -> None:
    out = cli.ok("table", input="help\n")
    for word in ("撤回", "撤销", "埋數", "结算", "記錄", "记录", "計分", "计分", "走", "退出"):
        assert word in out
    assert "log [--wide]" in out and "settle [--round COIN]" in out
    assert "written NAME=CARDS" in out


def test_every_deal_line_log_prints_is_read_back(cli) -> None:
    from ledger.core.deal_line import facts_text

    seats = ["Mary Ann", "O'Brien", "Cat", "Dan"]
    cli.ok("session", "start", "--players", ",".join(seats))
    typed = "\"Mary Ann\"=3 \"O'Brien\"=0 Cat=4 Dan=5 --assist \"Mary Ann\""
    cli.ok("table", input=f"{typed}\n")
    (first,) = deals(cli)
    printed = facts_text(first["facts"], seats)
    assert printed in cli.ok("log", "--wide")  # the log prints the deal this way ...
    again = cli("table", input=f"{printed}\n")
    assert again.exit_code == 0, again.output  # ... and the loop reads what it printed
    first, second = deals(cli)
    assert first["facts"] == second["facts"]


def test_a_line_starting_with_a_quoted_name_is_a_deal(cli) -> None:
    cli.ok("session", "start", "--players", "Mary Ann,O'Brien,Cat,Dan")
    result = cli("table", input="\"Mary Ann\"=3 \"O'Brien\"=0 Cat=4 Dan=5\n'Mary Ann'=0 O=1 C=2 D=3\n")
    assert result.exit_code == 0, result.output
    assert "unknown command" not in result.output
    assert len(deals(cli)) == 2


def test_the_options_the_hints_suggest_work_inside_table(cli, session) -> None:
    lines = "\n".join(["0 3 8 12", "5 0 2 7", "log --wide", "settle --round 5", "settle --round=1"])
    result = cli("table", input=lines + "\n")
    assert result.exit_code == 0, result.output
    assert "takes nothing after it" not in result.output
    assert "at (UTC)" in result.stdout.split("log --wide", 1)[1]  # the column --wide adds


@pytest.mark.parametrize("line, says", [("log --bogus", "log takes only --wide"),
                                        ("settle --round", "--round needs a coin"),
                                        ("standings --wide", "standings takes nothing after it")])
def test_other_options_are_one_error_line(cli, ledger_path, session, line: str, says: str) -> None:
    before = file_digest(ledger_path)
    result = cli("table", input=line + "\n")
    assert result.exit_code == 1 and says in result.stderr
    assert file_digest(ledger_path) == before


def test_a_player_named_like_a_command_is_written_name_equals(cli) -> None:
    cli.ok("session", "start", "--players", "log,undo,Cat,Dan")
    result = cli("table", input="log=0 undo=3 Cat=8 Dan=12\nlog\n")
    assert result.exit_code == 0, result.output
    assert deals(cli)[0]["facts"]["cards"]["undo"] == 3


def test_a_name_typed_without_its_accent_finds_the_one_player(cli) -> None:
    cli.ok("session", "start", "--players", ",".join(CJK_SEATS))
    result = cli("table", input="陳大文=0 李小明=3 jose=8 🐉Dragon=12\n")
    assert result.exit_code == 0, result.output
    cli.ok("deal", "陳大文=5", "李小明=0", "JOSE=2", "🐉Dragon=7")
    assert [d["facts"]["cards"]["José"] for d in deals(cli)] == [8, 2]


def test_an_accentless_spelling_that_fits_two_players_is_refused(cli, ledger_path) -> None:
    cli.ok("session", "start", "--players", "José,Josè,Cat,Dan")
    before = file_digest(ledger_path)
    assert "matches several players" in cli.fails("deal", "jose=0", "josè=1", "Cat=2", "Dan=3")
    assert file_digest(ledger_path) == before
