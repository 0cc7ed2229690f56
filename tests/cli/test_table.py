"""``bigtwo table``: a whole evening in one loop, read from standard input."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from helpers import file_digest

FOUR = ("--players", "Ann,Ben,Cat,Dan")

# Ten deals as typed at the table, an undo, and a bad line (rejected, nothing recorded).
SCRIPT = [
    "0 3 11 8",
    "Ann=5 Ben=0 Cat=2 Dan=13",
    "0 3 eleven 8",  # bad line
    "0 1 9 4 --assist Dan",
    "c=0 a=4 b=6 d=9",  # prefixes, any order
    "undo",
    "0 2 2 2",
    'Ann=0 Ben="2S 2H 5D" Cat=11 Dan=8',  # typed hand: classic takes the count only
    "4 4 0 1 --missed-call",
    "0 5 5 5",
    "1 0 12 13",
    "--dragon Cat",
    "6 0 3 3",
]


def run_table(cli, lines: list[str], *args: str, code: int = 0):
    result = cli("table", *args, input="".join(line + "\n" for line in lines))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def ledger_view(cli) -> dict:
    """What must be equal: every entry's deal number, kind, facts and liveness, the
    standings and the settlement."""
    log = json.loads(cli.ok("log", "--json"))
    return {
        "log": [(e["seq"], e["deal"], e["kind"], e["facts"], e["live"]) for e in log],
        "standings": json.loads(cli.ok("standings", "--json")),
        "settle": json.loads(cli.ok("settle", "--json")),
    }


def test_a_scripted_evening_equals_the_same_deals_entered_one_by_one(cli, tmp_path, monkeypatch):
    cli.ok("session", "start", *FOUR, "--name", "Friday")
    result = run_table(cli, [*SCRIPT, "quit"], code=1)
    assert result.stderr.count("error: ") == 1
    assert "error: line 3: " in result.stderr and "'eleven'" in result.stderr
    assert "1 line failed and changed nothing" in result.stderr
    by_table = ledger_view(cli)

    monkeypatch.setenv("BIGTWO_DB", str(tmp_path / "by-commands.db"))
    cli.ok("session", "start", *FOUR, "--name", "Friday")
    for line in SCRIPT:
        if line == "undo":
            cli.ok("undo")
        elif "eleven" in line:
            cli.fails("deal", *shlex.split(line), code=2)
        else:
            cli.ok("deal", *shlex.split(line))
    by_commands = ledger_view(cli)

    assert by_table == by_commands
    kinds = [kind for _, _, kind, _, _ in by_table["log"]]
    assert kinds.count("deal") == 11 and kinds.count("void") == 1
    assert sum(live for *_, live in by_table["log"]) == 10  # ten deals stand
    assert [p["deals"] for p in by_table["standings"]["players"]] == [10] * 4


def test_the_transcript(cli) -> None:
    cli.ok("session", "start", *FOUR)
    out = run_table(cli, ["0 3 11 8", "standings"]).stdout
    lines = out.splitlines()
    assert lines[0].startswith("session 1: Ann, Ben, Cat, Dan")
    assert lines[1] == ("one line per deal (e.g. 0 3 11 8); help, undo, amend N, void N, log, "
                        "standings, settle, quit")
    # read from a file, each line is shown after its prompt, as if typed
    assert lines[2] == "deal 1> 0 3 11 8"
    assert lines[3] == "deal 1: Ann* 0 (+33), Ben 3 (+21), Cat 11 → 22 fried (-55), Dan 8 (+1)"
    assert "next: Ann deals, Ann leads" in lines  # classic: the winner deals (pagat, White)
    # end of input: a newline, and the evening's summary with the money
    end = lines.index("deal 2> standings") + 1
    end = lines.index("deal 2> ", end)
    assert lines[end + 1] == "end of the evening: session 1, 1 deal"
    assert "player  deals  wins  fried  penalty  net  PTS" in lines
    assert "fewest payments (3):" in lines
    assert out.count("player  deals  wins  fried  penalty  net") == 3


def test_undo_voids_the_last_deal_and_numbers_go_on(cli) -> None:
    cli.ok("session", "start", *FOUR)
    out = run_table(cli, ["0 3 11 8", "0 1 1 1", "undo", "0 2 2 2"]).stdout
    assert "deal 3> undo\nundone: deal 2 (Ann=0 Ben=1 Cat=1 Dan=1) — deal 2 does not count now" in out
    assert "deal 3> 0 2 2 2\ndeal 3: Ann* 0" in out
    log = json.loads(cli.ok("log", "--json"))
    assert [(e["deal"], e["kind"], e["live"]) for e in log] == [
        (1, "deal", True), (2, "deal", False), (2, "void", False), (3, "deal", True)]


def test_bad_lines_re_prompt_and_leave_the_ledger_untouched(cli, ledger_path) -> None:
    cli.ok("session", "start", *FOUR)
    before = file_digest(ledger_path)
    bad = [
        "0 3 11",  # a count short
        "Ann=0 Ben=3 Cat=11 Eve=8",
        "1 3 11 8",  # nobody went out
        "0 3 11 8 --twos Ben=1",  # classic does not score twos
        "0 3 11 8 --colour red",
        "Ann=0 Ben=\"2S 2H\" Cat=\"2S 5D\" Dan=1",
        'Ann=0 Ben="2S',  # unclosed quote
        "undp",
        "void 9",  # no deal 9
        "quit now",
    ]
    result = run_table(cli, [*bad, "help", "standings", "quit"], code=1)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == len(bad)
    assert [e.split(":")[1] for e in errors] == [f" line {i}" for i in range(1, len(bad) + 1)]
    assert "3 numbers for 4 players" in errors[0]
    assert "'Eve' is not seated" in errors[1]
    assert "no winner" in errors[2]
    assert "do not score twos" in errors[3]
    assert "unknown option '--colour'" in errors[4]
    assert "held twice" in errors[5]
    assert "cannot read the line" in errors[6]
    assert "unknown command 'undp': did you mean undo?" in errors[7]
    assert "cannot void deal 9: session 1 has no deals yet" in errors[8]
    assert "quit takes nothing after it" in errors[9]
    assert result.stdout.count("deal 1> ") == len(bad) + 3  # one prompt per line
    assert file_digest(ledger_path) == before


def test_blank_lines_and_comments_are_skipped(cli) -> None:
    cli.ok("session", "start", *FOUR)
    result = run_table(cli, ["", "   ", "# deal one next", "0 3 11 8  # Cat fried"])
    assert result.stderr == ""
    assert json.loads(cli.ok("standings", "--json"))["players"][0]["deals"] == 1


def test_quit_stops_reading(cli) -> None:
    cli.ok("session", "start", *FOUR)
    run_table(cli, ["0 3 11 8", "QUIT", "0 1 1 1"])
    assert len(json.loads(cli.ok("log", "--json"))) == 1


def test_end_of_input_ends_cleanly(cli) -> None:
    cli.ok("session", "start", *FOUR)
    result = cli("table", input="")
    assert result.exit_code == 0
    assert result.stdout.endswith("deal 1> \nsession 1: no deals recorded\n")


def test_help_settle_and_standings(cli) -> None:
    cli.ok("session", "start", *FOUR, "--rules", "doubling")
    out = run_table(cli, ["help", "0 3 11 8", "settle", "standings"]).stdout
    assert "cards left in seat order (Ann, Ben, Cat, Dan); the winner has 0" in out
    assert 'Ben="2S 2H 5D"' in out
    assert "(rules doubling score: twos each, bombs each, finish_double, assist)" in out
    assert "fewest payments" in out
    assert out.count("player  deals  wins  fried  penalty  net") == 3  # the deal, standings, summary
    assert out.count("player  deals  wins  fried  penalty  net  PTS") == 2  # standings with money


def test_a_places_session_takes_order_lines(cli) -> None:
    cli.ok("session", "start", *FOUR, "--rules", "places")
    result = run_table(cli, ["--order Cat,Ann,Dan,Ben"])
    assert result.stderr == ""
    assert "next: Ben deals, Cat leads" in result.stdout


def test_the_next_dealer_and_leader_follow_the_rules(cli, tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('next_deal = "winner"\nnext_lead = "three-of-diamonds"\n', "utf-8")
    cli.ok("session", "start", *FOUR, "--rules", str(house))
    out = run_table(cli, ["3 0 11 8"]).stdout
    assert "next: Ben deals, 3♦ leads" in out


def test_session_option_and_current_session(cli) -> None:
    cli.ok("session", "start", *FOUR)
    cli.ok("session", "start", "--players", "Eve,Fay")
    run_table(cli, ["0 3 11 8"], "--session", "1")
    run_table(cli, ["0 4"])
    assert json.loads(cli.ok("log", "--session", "1", "--json"))[0]["facts"]["cards"]["Cat"] == 11
    assert json.loads(cli.ok("log", "--json"))[0]["facts"]["cards"] == {"Eve": 0, "Fay": 4}


@pytest.mark.parametrize("setup", [(), ("session", "end")])
def test_no_open_session_is_an_error(cli, setup: tuple[str, ...]) -> None:
    if setup:
        cli.ok("session", "start", *FOUR)
        cli.ok(*setup)
    result = cli("table", input="0 3 11 8\n")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "no current session" in result.stderr or "ended" in result.stderr


def test_amend_void_log_and_undo_inside_the_loop(cli) -> None:
    cli.ok("session", "start", *FOUR)
    lines = ["0 3 11 8", "5 0 2 7", "9 4 0 1", "amend 1 0 4 11 8", "void 2", "log",
             "undo", "undo", "undo", "log"]
    out = run_table(cli, lines).stdout
    assert "amended deal 1: Ann* 0 (+34), Ben 4 (+18), Cat 11 → 22 fried (-54), Dan 8 (+2)" in out
    assert "deal 2 voided" in out
    assert "undone: the void of deal 2 — deal 2 counts again: Ann=5 Ben=0 Cat=2 Dan=7" in out
    assert ("undone: the amendment of deal 1 (Ann=0 Ben=4 Cat=11 Dan=8) — deal 1 is back to "
            "Ann=0 Ben=3 Cat=11 Dan=8") in out
    assert "undone: deal 3 (Ann=9 Ben=4 Cat=0 Dan=1) — deal 3 does not count now" in out
    assert "#    deal    entry    facts" in out and "status" in out
    assert "undoes #5" in out and "undoes #4" in out
    log = json.loads(cli.ok("log", "--json"))
    assert [(e["deal"], e["kind"]) for e in log][5:] == [(2, "amend"), (1, "amend"), (3, "void")]
    live = {e["deal"]: e["facts"]["cards"] for e in log if e["live"]}
    assert live == {1: {"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8},
                    2: {"Ann": 5, "Ben": 0, "Cat": 2, "Dan": 7}}


def test_amend_and_void_need_a_deal_number(cli) -> None:
    cli.ok("session", "start", *FOUR)
    result = run_table(cli, ["amend", "void x", "amend 1", "amnd 1 0 3 11 8"], code=1)
    errors = result.stderr.splitlines()
    assert "error: line 1: amend needs a deal number: amend N followed by the deal" in errors[0]
    assert "error: line 2: void needs a deal number: void N, e.g. void 3" in errors[1]
    assert "error: line 3: cannot amend deal 1: session 1 has no deals yet" in errors[2] \
        or "amend 1 needs the corrected deal" in errors[2]
    assert "did you mean amend?" in errors[3]
    assert errors[-1] == "4 lines failed and changed nothing"


def test_undo_at_the_start_takes_the_empty_session_back(cli) -> None:
    cli.ok("session", "start", *FOUR)
    cli.ok("session", "start", "--players", "Eve,Fay,Gus")
    out = run_table(cli, ["undo", "0 3 11"]).stdout
    assert "undone: the start of session 2 (Eve, Fay, Gus — rules classic, no deals); " \
        "current again: session 1" in out
    assert "0 3 11" not in out.split("undone:")[1]  # the loop ended: nothing more was read
    assert "session 2" not in cli.ok("session", "list")


def test_lines_read_from_a_file_are_shown_after_their_prompt_without_terminal_codes(cli) -> None:
    cli.ok("session", "start", *FOUR)
    out = run_table(cli, ["# Friday \x1b[2J at Ann's", "0 3 11 8"]).stdout
    assert "\x1b" not in out
    assert "deal 1> # Friday \\x1b[2J at Ann's\ndeal 1> 0 3 11 8\ndeal 1: Ann* 0" in out


def test_the_opening_lines_fit_a_narrow_terminal(cli, monkeypatch) -> None:
    from ledger.present.fit import width

    monkeypatch.setenv("COLUMNS", "40")
    cli.ok("session", "start", "--players", "陳大文,李小明,José,Dan", "--name", "星期五")
    out = cli.ok("table", input="quit\n")
    opening = out.split("deal 1>")[0].splitlines()
    assert opening and all(width(line) <= 40 for line in opening), opening
    assert "amend N" in " ".join(opening)  # folded, nothing cut
