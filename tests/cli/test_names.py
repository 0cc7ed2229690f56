"""Player names are stored and shown exactly as typed: quotes, SQL, emoji, right-to-left
text, 200 characters (control and format characters are refused: tests/core/test_text.py).
They go through session start, deal, standings, log, settle, export and import unchanged."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from ledger.core.text import MAX_NAME

TABLES = ["Ann", "Ben", "Cat", "Dan"]
NAMES = [
    "O'Brien",
    'Say "Hi"',
    "Robert'); DROP TABLE players;--",
    "x' OR '1' LIKE '1",
    "50%_off",
    "C:\\temp\\ ~$HOME `id`",
    "🂡 Ace 🃏",
    "👩‍👩‍👧 family",
    "שָׁלוֹם",
    "علي بن أبي",
    "evil\u05d0",  # a right-to-left letter after left-to-right ones
    "Zoë Ĳssel ß",
    "Mary Ann",
    "NULL",
    "李小龍",
    "ó" * (MAX_NAME // 2) + "o" * (MAX_NAME // 2 - 1) + "!",  # exactly MAX_NAME characters
]
GROUPS = [NAMES[i:i + 4] for i in range(0, len(NAMES), 4)]


def deal_args(seats: list[str], winner: int) -> list[str]:
    return [f"{n}={0 if i == winner else 3 + i}" for i, n in enumerate(seats)]


@pytest.mark.parametrize("seats", GROUPS, ids=[f"group{i}" for i in range(len(GROUPS))])
def test_names_round_trip(cli, ledger_path, seats):
    assert len(NAMES[-1]) == MAX_NAME
    out = cli.ok("session", "start", "--players", ",".join(seats))
    for name in seats:
        assert name in out
    for winner in range(4):
        out = cli.ok("deal", *deal_args(seats, winner))
        assert all(name in out for name in seats)
    cli.ok("amend", "2", *deal_args(seats, 3))
    cli.ok("void", "1")

    st = json.loads(cli.ok("standings", "--json"))
    assert sorted(p["name"] for p in st["players"]) == sorted(seats)
    assert sum(p["net"] for p in st["players"]) == 0
    log = json.loads(cli.ok("log", "--json"))
    assert [sorted(e["facts"]["cards"]) for e in log if e["facts"]] == [sorted(seats)] * 5
    text = cli.ok("log")
    assert all(name in text for name in seats)
    settle = json.loads(cli.ok("settle", "--json"))
    assert sorted(settle["nets"]) == sorted(seats)
    assert {p["from"] for p in settle["payments"]} | {p["to"] for p in settle["payments"]} <= set(seats)
    [listed] = json.loads(cli.ok("session", "list", "--json"))
    assert listed["players"] == seats  # in seat order
    assert seats[0] in cli.ok("session", "show")

    conn = sqlite3.connect(ledger_path)
    try:
        stored = [r[0] for r in conn.execute("SELECT name FROM players ORDER BY id")]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    assert stored == seats  # byte for byte, and the players table is still there
    assert "players" in tables
    assert cli.ok("doctor").startswith("ok:")


def test_names_survive_export_and_import(cli, ledger_path, tmp_path):
    for seats in GROUPS:
        cli.ok("session", "start", "--players", ",".join(seats))
        cli.ok("deal", *deal_args(seats, 1))
    export = tmp_path / "all.json"
    cli.ok("export", "--all", "--out", str(export))
    other = tmp_path / "other.db"
    cli.ok("--db", str(other), "import", str(export))
    sessions = json.loads(cli.ok("--db", str(other), "session", "list", "--json"))
    assert [s["players"] for s in sessions] == GROUPS


def test_names_through_a_real_process_and_terminal_encoding(tmp_path):
    """Outside the test runner too: argv and stdout in UTF-8."""
    db = tmp_path / "l.db"
    seats = GROUPS[1]
    env = {"PYTHONIOENCODING": "utf-8", "COLUMNS": "200", "PATH": "/usr/bin:/bin"}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), *args],
                              capture_output=True, text=True, encoding="utf-8", env=env, check=True)

    run("session", "start", "--players", ",".join(seats))
    run("deal", *deal_args(seats, 2))
    players = json.loads(run("standings", "--json").stdout)["players"]
    assert sorted(p["name"] for p in players) == sorted(seats)


@pytest.mark.no_ledger
@pytest.mark.parametrize(
    "bad, why",
    [
        ("a" * (MAX_NAME + 1), "longer than"),
        ("Ann=Ben", "cannot contain"),
        ("-rf", "cannot contain"),
        ("#Dan", "cannot start with #"),
        ("tab\there", "control character"),
        ("nul\x00byte", "control character"),
        ("\x1b]0;owned\x07", "control character"),
        ("\u202eevil", "format character"),
        ("Ann\u200b", "format character"),
        ("42", "is a number"),
        ("", "empty"),
    ],
)
def test_names_that_cannot_be_typed_back_are_refused(cli, ledger_path, bad, why):
    stderr = cli.fails("session", "start", "--players", f"Ann,Ben,{bad}", code=2)
    assert why in stderr
    assert not ledger_path.exists()
