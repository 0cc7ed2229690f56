"""The older score-sheet format of ``big-two-stats`` (the predecessor of big-two-scorer):
dates as ``yyyymmdd`` lines, the fry threshold on the command line (``import --fry N``),
and that program's start and end dates as ``--since`` / ``--until``.

The sheet below was written for this test from that program's documented rules (its
README and the comments of ``big-two-stats.py``): a date is a line of digits, of which
the first eight are ``yyyymmdd``; losses ``L`` are doubled from the fry threshold up to
12 and tripled at 13; a ``t`` player takes on everyone's (fried) losses and their fry
counts; each player's net is ``T - 4 L`` with ``T`` the game's total loss. The numbers
were worked out by hand, game by game, with ``--fry 11``:

    game  date        cards left            losses after fry/take     nets
    1     2019-01-05  Amy 0 Bob 5 Cyd 11 Dee 13   0 5 22 39           +66 +46 -22 -90
    2     2019-01-05  Amy 3 Bob 0 Cyd 12t Dee 1   0 0 28 0 (Cyd takes) +28 +28 -84 +28
    3     2019-01-12  Amy 2 Bob 0 Cyd 10 Eve 11   2 0 10 22           +26 +34 -6 -54
    4     2019-01-19  Amy 0t Bob 4 Cyd 6 Dee 12   34 0 0 0 (Amy takes) -102 +34 +34 +34
    5     2019-01-19  Amy 1 Bob 0 Cyd 13 Dee 2    1 0 39 2            +38 +42 -114 +34
"""

from __future__ import annotations

import json

import pytest

from ledger.formats.sheet import STATS, read_sheet, sheet_dialect

SHEET = """\
# our club, the old way
20190105
Amy Bob Cyd Dee
0 5 11 13
3 0 12t 1   # Cyd let Dee go out

20190112
Amy Bob Cyd Eve
2 0 10 11

201901190930  # extra digits after yyyymmdd are ignored
Amy Bob Cyd Dee
0t 4 6 12   # Amy went out without calling "last card"
1 0 13 2
"""

# (games played, games won, games fried, cards lost, net score) per player.
WHOLE = {"Amy": (5, 2, 1, 37, 56), "Bob": (5, 3, 0, 5, 184), "Cyd": (5, 0, 3, 99, -192),
         "Dee": (4, 0, 1, 41, 6), "Eve": (1, 0, 1, 22, -54)}
# big-two-stats.py sheet 20190112 20190119 --fry 11
RANGE = {"Amy": (3, 1, 1, 37, -38), "Bob": (3, 2, 0, 0, 110), "Cyd": (3, 0, 1, 49, -86),
         "Dee": (2, 0, 0, 2, 68), "Eve": (1, 0, 1, 22, -54)}
# big-two-stats.py sheet 20190105 --fry 11 (an end date only)
FIRST_DAY = {"Amy": (2, 1, 0, 0, 94), "Bob": (2, 1, 0, 5, 74), "Cyd": (2, 0, 2, 50, -106),
             "Dee": (2, 0, 1, 39, -62)}


# One count differs, by design: when a player takes on all losses, big-two-stats also
# moves the others' fry counts to the taker; the ledger counts a fry by the player's own
# cards, as big-two-scorer does (one scoring path for every source). In game 4 Dee was
# fried (12 cards) and Amy took the loss: big-two-stats counts Amy's fry, the ledger Dee's.
FRY_MOVED_IN_GAME_4 = {"Amy": -1, "Dee": +1}


def as_the_ledger_counts(program: dict[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    out = {}
    for name, (games, won, fried, lost, net) in program.items():
        out[name] = (games, won, fried + FRY_MOVED_IN_GAME_4.get(name, 0), lost, net)
    return out


def table(cli, *args: str) -> dict[str, tuple[int, ...]]:
    data = json.loads(cli.ok("standings", *args, "--json"))
    return {p["name"]: (p["deals"], p["wins"], p["fried"], p["penalty"], p["net"])
            for p in data["players"]}


@pytest.fixture
def sheet(tmp_path):
    path = tmp_path / "club.txt"
    path.write_text(SHEET, "utf-8")
    return path


def test_the_older_format_is_recognised_by_its_date_lines():
    assert sheet_dialect(SHEET.splitlines()) == STATS
    dates = [g.session.date for g in read_sheet(SHEET.splitlines(), "club.txt", STATS, 11)]
    assert dates == ["2019-01-05", "2019-01-05", "2019-01-12", "2019-01-19", "2019-01-19"]


def test_imported_with_its_threshold_it_gives_that_programs_numbers(cli, sheet):
    cli.ok("import", str(sheet), "--fry", "11")
    assert table(cli, "--all") == as_the_ledger_counts(WHOLE)
    assert table(cli, "--since", "2019-01-12", "--until", "2019-01-19") == as_the_ledger_counts(RANGE)
    assert table(cli, "--until", "2019-01-05") == FIRST_DAY  # no fry moved: exactly the program's
    # importing it again adds nothing
    again = json.loads(cli.ok("import", str(sheet), "--fry", "11", "--json"))
    assert (again["entries_added"], again["entries_present"]) == (0, 5)


def test_the_default_threshold_is_10_as_in_that_program(cli, sheet):
    cli.ok("import", str(sheet))
    cyd = table(cli, "--since", "2019-01-12", "--until", "2019-01-12")["Cyd"]
    assert cyd == (1, 0, 1, 20, 44 - 4 * 20)  # fried at 10: losses 2 0 20 22, T = 44


@pytest.mark.parametrize(("line", "message"), [
    ("F=11", "club.txt line 3: cannot read 'F=11': a line of this big-two-stats sheet is a "
             "date yyyymmdd"),
    ("20191345", "club.txt line 3: 20191345 is not a date (yyyymmdd)"),
    ("2019", "club.txt line 3: 2019 is not a date (yyyymmdd)"),
    ("0 1 2 3 4", "club.txt line 3: a game needs 4 numbers of cards left (one per player), not 5"),
    ("1 2 3 4", "club.txt line 3: a game has exactly one winner (cards left 0); nobody has 0 cards"),
    ("0 14 1 1", "club.txt line 3: Bob has 14 cards left: a hand holds at most 13"),
])
def test_errors_name_the_line_as_in_the_newer_format(cli, tmp_path, line, message):
    path = tmp_path / "club.txt"
    path.write_text(f"20190105\nAmy Bob Cyd Dee\n{line}\n", "utf-8")
    err = cli.fails("import", str(path), code=2)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {message}"), lines
    assert "no sessions yet" in cli.fails("standings", "--all")


@pytest.mark.no_ledger
def test_fry_is_checked_before_anything_is_written(cli, sheet, tmp_path, ledger_path):
    assert "from 1 to 12" in cli.fails("import", str(sheet), "--fry", "13", code=2)
    newer = tmp_path / "new.txt"
    newer.write_text("2019-01-05\nAmy Bob Cyd Dee\n0 1 2 3\n", "utf-8")
    assert "F=<n> lines" in cli.fails("import", str(newer), "--fry", "11", code=2)
    assert not ledger_path.exists()


def test_a_low_threshold_still_triples_13(cli, tmp_path):
    path = tmp_path / "low.txt"
    path.write_text("20190105\nAmy Bob Cyd Dee\n0 1 8 13\n", "utf-8")
    cli.ok("import", str(path), "--fry", "8")
    # losses 0, 1, 16, 39: T = 56
    assert table(cli, "--all") == {"Amy": (1, 1, 0, 0, 56), "Bob": (1, 0, 0, 1, 52),
                                   "Cyd": (1, 0, 1, 16, -8), "Dee": (1, 0, 1, 39, -100)}
