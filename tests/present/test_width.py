"""Tables line up with Chinese names, emoji and a decomposed accent (issue 12).

陳大文 takes six terminal columns in three characters, 🐉 two in one, and
"Jose" + U+0301 four columns in five code points: every table is measured in
display columns (wcwidth), so the numbers after such names stay in their column."""

from __future__ import annotations

import pytest
from aligned import assert_aligned, columns
from helpers import CJK_SEATS, JOSE

from ledger.present.fit import width
from ledger.present.text import quick_table

SEATS = CJK_SEATS  # José typed decomposed; stored NFC


def test_width_counts_terminal_columns() -> None:
    assert width("Ann") == 3
    assert width("陳大文") == 6
    assert width(JOSE) == 4
    assert width("🐉Dragon") == 8


def test_quick_table_pads_by_display_width() -> None:
    text = quick_table([[n, 1, "+5"] for n in SEATS], ["player", "deals", "net"])
    assert_aligned(text)
    ends = {len(columns(line)) for line in text.splitlines()}
    assert ends == {len(columns(text.splitlines()[1]))}  # every right-aligned row ends together


def test_the_checker_sees_a_misaligned_table() -> None:
    bad = "player  net\n------  ---\n陳大文     +5\nAnn      -5"
    with pytest.raises(AssertionError):
        assert_aligned(bad)


@pytest.fixture
def evening(cli):
    cli.ok("session", "start", "--players", ",".join(SEATS), "--stake", "0.5", "--currency", "HKD")
    cli.ok("deal", "陳大文=0", "李小明=3", f"{JOSE}=11", "🐉Dragon=8")
    cli.ok("deal", "陳大文=5", "李小明=0", f"{JOSE}=2", "🐉Dragon=13")
    cli.ok("deal", "0", "7", "12", "1")
    return cli


REPORTS = [
    (["standings"], 1),
    (["standings", "--all"], 1),
    (["settle"], 3),
    (["stats"], 4),
    (["history"], 1),
    (["session", "list"], 1),
    (["log"], 1),
    (["stats", "--wide"], 4),
    (["history", "--wide"], 1),
    (["log", "--wide"], 1),
]


@pytest.mark.parametrize(("args", "tables"), REPORTS, ids=[" ".join(a) for a, _ in REPORTS])
def test_reports_align_with_cjk_names(evening, args, tables) -> None:
    assert_aligned(evening.ok(*args), expect_tables=tables)


def test_table_help_lines_up(evening) -> None:
    out = evening.ok("table", input="help\nquit\n")
    lines = [line for line in out.splitlines() if "a loser's cards instead" in line
             or "or NAME=CARDS pairs" in line or "cards left in seat order" in line]
    assert len(lines) >= 3, out
    starts = set()
    for line in lines:
        cells = columns(line)
        text = "".join(cells)
        for marker in ("cards left", "or NAME=CARDS", "a loser's"):
            if marker in line:
                starts.add(len(columns(line[: line.index(marker)])))
        assert text
    assert len(starts) == 1, out


@pytest.mark.parametrize("command", [["stats"], ["history"], ["log"]])
def test_long_reports_fit_80_columns_unless_wide(evening, monkeypatch, command):
    evening.ok("session", "start", "--players", "Ann,Ben,陳大文,李小明", "--name", "a long evening name")
    evening.ok("deal", "0", "3", "11", "8", "--assist", "Ben")
    monkeypatch.setenv("COLUMNS", "80")
    scope = ["--all"] if command != ["log"] else []
    narrow = evening.ok(*command, *scope)
    assert max(width(line) for line in narrow.splitlines()) <= 80, narrow
    assert_aligned(narrow)
    wide = evening.ok(*command, *scope, "--wide")
    assert max(width(line) for line in wide.splitlines()) > 80
    assert "--wide shows every column" in narrow and "--wide shows" not in wide
    assert_aligned(wide)


def test_log_is_dated_in_the_local_time_zone(evening, monkeypatch):
    import json
    from datetime import datetime
    from zoneinfo import ZoneInfo

    stamp = json.loads(evening.ok("log", "--json"))[0]["at"]
    monkeypatch.setenv("TZ", "Asia/Hong_Kong")
    out = evening.ok("log", "--wide")
    hk = datetime.fromisoformat(stamp).astimezone(ZoneInfo("Asia/Hong_Kong"))
    assert hk.strftime("%Y-%m-%d %H:%M:%S") in out and "at (HKT)" in out
