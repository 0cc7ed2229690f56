"""Hostile text: escape sequences in session, rule and player names never reach the
terminal raw, new ones are refused, and look-alike names are one player."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ledger.core.text import MAX_SESSION_NAME

CLEAR = "\x1b[2J\x1b[H"
TITLE = "\x1b]0;pwned\x07"
CLIPBOARD = "\x1b]52;c;ZXZpbA==\x07"
EVIL = f"evening{CLEAR}{TITLE}{CLIPBOARD}\u202e"
RAW = ("\x1b", "\x07", "\u202e")


@pytest.mark.no_ledger
@pytest.mark.parametrize("name", [CLEAR, TITLE, CLIPBOARD, "a\u202eb", "a\u200bb", "a\ud800"])
def test_session_name_with_control_characters_is_refused(cli, ledger_path, name):
    err = cli.fails("session", "start", "--players", "Ann,Ben,Cat,Dan", "--name", name, code=2)
    assert "session name" in err and "not allowed" in err
    assert not any(ch in err for ch in RAW)
    assert not ledger_path.exists()


def test_session_name_length_limit(cli, ledger_path):
    cli.ok("session", "start", "--players", "Ann,Ben", "--name", "x" * MAX_SESSION_NAME)
    err = cli.fails("session", "start", "--players", "Ann,Ben",
                    "--name", "x" * (MAX_SESSION_NAME + 1), code=2)
    assert f"longer than {MAX_SESSION_NAME}" in err


def test_rule_file_name_with_escape_is_refused(cli, tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('name = "house\\u001b]0;x\\u0007"\n', "utf-8")
    err = cli.fails("session", "start", "--players", "Ann,Ben", "--rules", str(rules), code=2)
    assert "rule name" in err and "control character" in err


@pytest.mark.no_ledger
@pytest.mark.parametrize(("key", "value", "what"), [
    ("description", "x\\u001b]52;c;aGk=\\u0007y", "control character (U+001B)"),
    ("source", "pagat\\u202e", "format character (U+202E"),
    ("description", "two\\nlines", "control character (U+000A)"),
])
@pytest.mark.parametrize("command", [("rules", "show"), ("session", "start", "--players", "Ann,Ben",
                                                         "--rules")])
def test_rule_file_free_text_with_control_characters_is_refused(cli, tmp_path, ledger_path, key,
                                                                value, what, command):
    rules = tmp_path / "house.toml"
    rules.write_text(f'base = "classic"\n{key} = "{value}"\n', "utf-8")
    result = cli(*command, str(rules))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert f"rule '{key}'" in lines[0] and what in lines[0]
    assert not any(ch in result.stderr for ch in RAW)
    assert not ledger_path.exists()


def test_rule_file_plain_free_text_is_shown(cli, tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('base = "classic"\ndescription = "鋤大D at 陳大文\'s"\nsource = "our table"\n',
                     "utf-8")
    out = cli.ok("rules", "show", str(rules))
    assert out.splitlines()[:2] == ["house: 鋤大D at 陳大文's", "source: our table"]


def _old_ledger_with_hostile_text(cli, ledger_path):
    """A ledger written before names were checked: hostile text stored raw."""
    from ledger.storage.upgrade import guard_sql

    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan", "--name", "x")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=5", "Dan=9")
    conn = sqlite3.connect(ledger_path)
    with conn:
        conn.execute("DROP TRIGGER sessions_no_update")  # append-only: a hand edit
        conn.execute("UPDATE sessions SET name = ?, rules_name = ?, currency = ?",
                     [EVIL, f"classic{TITLE}", f"HKD{CLEAR}"])
        conn.execute(guard_sql("sessions", "UPDATE"))
        conn.execute("UPDATE players SET name = ? WHERE name = 'Ben'", [f"Ben{CLIPBOARD}"])
    conn.close()


@pytest.mark.parametrize("args", [
    ("session", "list"), ("session", "show"), ("log",), ("standings",),
    ("export", "--format", "csv"), ("settle",), ("session", "list", "--json"), ("log", "--json"),
    ("export", "--format", "json"),
])
def test_stored_escape_sequences_are_shown_escaped(cli, ledger_path, args):
    _old_ledger_with_hostile_text(cli, ledger_path)
    result = cli(*args)
    out = result.stdout + result.stderr
    assert not any(ch in out for ch in RAW), repr(out)
    if args[-1] != "csv" and "--json" not in args and args[-1] != "json" and args[0] != "settle":
        assert "\\x1b" in out  # visible, not dropped


def test_json_output_keeps_the_exact_text(cli, ledger_path):
    _old_ledger_with_hostile_text(cli, ledger_path)
    [listed] = json.loads(cli.ok("session", "list", "--json"))
    assert listed["name"] == EVIL  # the escape means the same string to a JSON reader


def test_look_alike_names_are_one_player_in_a_session(cli, ledger_path):
    err = cli.fails("session", "start", "--players", "\u00e9lise,e\u0301lise,Cat", code=2)
    assert "more than once" in err
    err = cli.fails("session", "start", "--players", "Ann,ANN,Cat", code=2)
    assert "more than once" in err
    err = cli.fails("session", "start", "--players", "Ann,Ann\u200b,Cat", code=2)
    assert "format character" in err


def test_names_are_matched_by_name_key_everywhere(cli, ledger_path):
    cli.ok("session", "start", "--players", "Zo\u00eb,Ben,Cat,Dan")
    out = cli.ok("deal", "zoe\u0308=0", "BEN=3", "cat=5", "Dan=9")  # decomposed, other case
    assert "Zo\u00eb*" in out
    cli.ok("check", "ZOE\u0308=0", "ben=3", "Cat=5", "DAN=9")
    assert "Zo\u00eb" in cli.ok("history", "--player", "zoe\u0308")
    assert "Zo\u00eb" in cli.ok("stats", "--player", "ZO\u00cb")
    # A new session that types a known player another way seats the same player.
    cli.ok("session", "start", "--players", "ZOE\u0308,ben")
    [_, second] = json.loads(cli.ok("session", "list", "--json"))
    assert second["players"] == ["Zo\u00eb", "Ben"]
    conn = sqlite3.connect(ledger_path)
    assert conn.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 4
    conn.close()
