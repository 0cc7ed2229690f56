"""`bigtwo check`: a paper score sheet's running penalty totals asserted against the ledger."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def evening(cli) -> None:
    """docs/scoring.md worked example 1 (penalty totals A=81 B=40 C=107 D=63), with a voided deal inside."""
    cli.ok("session", "start", "--players", "A,B,C,D")
    for line in ["A=0 B=1 C=13 D=13", "A=13 B=0 C=13 D=11", "A=5 B=0 C=5 D=5",
                 "A=12 B=12 C=0 D=2", "A=9 B=9 C=12 D=0", "A=9 B=6 C=5 D=0"]:
        cli.ok("deal", *line.split())
    cli.ok("void", "3")  # played on paper? no: struck out, so not on the sheet either


# Running totals after each live deal (1, 2, 4, 5, 6), as written on paper.
PAPER = {"A": [0, 39, 63, 72, 81], "B": [1, 1, 25, 34, 40], "C": [39, 78, 78, 102, 107],
         "D": [39, 61, 63, 63, 63]}


def claims(sheet: dict[str, list[int]]) -> list[str]:
    return [f"{name}={','.join(map(str, values))}" for name, values in sheet.items()]


def test_the_totals_agree(cli, evening) -> None:
    out = cli.ok("check", "A=81", "B=40", "C=107", "D=63")
    assert "the sheet agrees with the ledger after deal 6" in out
    assert "paper check of session 1 (A, B, C, D): after deal 6" in out


def test_a_wrong_total_reports_each_player(cli, evening) -> None:
    result = cli("check", "a=81", "b=46", "c=107", "d=60")
    assert result.exit_code == 1
    rows = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()[3:]}
    assert rows["A"] == ["81", "81", "0"]
    assert rows["B"] == ["46", "40", "+6"]
    assert rows["D"] == ["60", "63", "-3"]
    assert "disagrees with the ledger after deal 6 (B +6, D -3)" in result.stderr
    assert "deal by deal" in result.stderr


def test_deal_by_deal_finds_the_first_deal_that_differs(cli, evening) -> None:
    assert "agrees" in cli.ok("check", *claims(PAPER))
    paper = {k: list(v) for k, v in PAPER.items()}
    paper["B"][2:] = [v + 10 for v in paper["B"][2:]]  # B's 24 in deal 4 written as 34
    paper["C"][3:] = [v - 1 for v in paper["C"][3:]]  # and C's deal 5 one short
    result = cli("check", *claims(paper))
    assert result.exit_code == 1
    assert "deals 1 to 6, deal by deal" in result.stdout
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[3:]}
    assert "deal 4 (sheet +34, ledger +24)" in rows["B"]
    assert "deal 5 (sheet +23, ledger +24)" in rows["C"]
    assert "from deal 4 (A=12 B=12 C=0 D=2)" in result.stderr


def test_after_a_deal(cli, evening) -> None:
    assert "agrees with the ledger after deal 2" in cli.ok("check", "--after", "2", "A=39", "B=1", "C=78",
                                                           "D=61")
    assert "agrees with the ledger after deal 3" in cli.ok("check", "--after", "3", "A=39", "B=1",
                                                           "C=78", "D=61")  # deal 3 is void
    # The last two deals before deal 5, deal by deal: right-aligned on deal 5.
    assert "agrees" in cli.ok("check", "--after", "5", "A=63,72", "B=25,34")
    result = cli("check", "--after", "5", "A=63,73", "B=25,34")
    assert result.exit_code == 1 and "deal 5 (sheet +10, ledger +9)" in result.stdout


def test_json(cli, evening) -> None:
    result = cli("check", "--json", "A=0,39", "B=1,2", "--after", "2")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and data["first_differs"] == 2 and data["deals"] == [1, 2]
    assert data["facts"] == {"cards": {"A": 13, "B": 0, "C": 13, "D": 11}}
    b = next(p for p in data["players"] if p["name"] == "B")
    assert (b["sheet"], b["ledger"], b["difference"], b["sheet_added"], b["ledger_added"]) == (2, 1, 1, 1, 0)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ((), "error: missing argument 'NAME=TOTAL' (see 'bigtwo check --help')"),
        (("Zed=4",), "'Zed' is not seated"),
        (("A=4", "a=5"), "A is given twice"),
        (("A=x",), "'x' is not a penalty total"),
        (("A=-3",), "'-3' is not a penalty total"),
        (("A",), "write NAME=TOTAL"),
        (("A=1,2", "B=3"), "as many totals as the others"),
        (("A=0,1,2,3,4,5,6",), "the sheet gives 7 totals per player but the ledger has 5 deals"),
        (("--after", "9", "A=1"), "--after 9: session 1 has deals 1 to 6"),
        (("--session", "7", "A=1"), "no session 7"),
    ],
)
def test_bad_input(cli, evening, args, fragment) -> None:
    assert fragment in cli.fails("check", *args, code=2)


def test_a_session_without_deals(cli) -> None:
    cli.ok("session", "start", "--players", "A,B,C,D")
    assert "has no deals to check against" in cli.fails("check", "A=0")
