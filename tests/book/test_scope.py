"""Scope selection, written once (ledger/book/scope.py): every report takes the same
--session/--all/--since/--until/--season, refuses the same mistakes in one line, and
says "no sessions from … to …" the same way (tests/history_ledger.py's three sessions)."""

from __future__ import annotations

import json

import history_ledger
import pytest

from ledger.book.scope import select
from ledger.storage.store import open_ledger

RANGE_COMMANDS = (["standings"], ["settle"], ["stats"], ["plot"], ["history"], ["export"],
                  ["standings", "--by", "month"])


@pytest.fixture
def ledger(ledger_path):
    with open_ledger(str(ledger_path)) as led:
        history_ledger.build(led)
        yield led


@pytest.mark.parametrize("command", RANGE_COMMANDS, ids=" ".join)
def test_every_range_option_refuses_a_reversed_range_in_one_line(cli, ledger, command, tmp_path):
    extra = ["--out", str(tmp_path / "p.png")] if command == ["plot"] else []
    err = cli.fails(*command, "--since", "2024-05-01", "--until", "2024-04-01", *extra, code=2)
    assert err.strip().splitlines() == [
        "error: --since 2024-05-01 is after --until 2024-04-01; nothing is between them"]


@pytest.mark.parametrize("command", RANGE_COMMANDS, ids=" ".join)
def test_an_empty_range_is_one_message_everywhere(cli, ledger, command):
    err = cli.fails(*command, "--since", "2030-01-01", code=2)
    assert err.strip().splitlines() == ["error: no sessions from 2030-01-01; see: bigtwo history --all"]


def test_season_add_refuses_a_reversed_range(cli, ledger):
    err = cli.fails("season", "add", "x", "--since", "2024-05-01", "--until", "2024-04-01", code=2)
    assert err.strip().splitlines() == [
        "error: --since 2024-05-01 is after --until 2024-04-01; nothing is between them"]
    assert "no seasons yet" in cli.ok("season", "list")


def test_a_range_never_says_no_current_session(cli, ledger):
    with ledger.writing():
        ledger.conn.execute("DELETE FROM settings")  # as after an import: nothing is current
    result = cli("stats", "--since", "2024-03-01")
    assert result.exit_code == 0
    assert "no current session" not in result.stderr
    # without a range the fallback to every session is said once, on stderr
    result = cli("standings")
    assert result.exit_code == 0
    assert result.stderr.strip().startswith("no current session: showing all sessions")


def test_standings_and_settle_over_a_range(cli, ledger):
    data = json.loads(cli.ok("standings", "--since", "2024-03-01", "--until", "2024-03-31", "--json"))
    assert data["sessions"] == [1, 2]
    assert data["range"] == {"since": "2024-03-01", "until": "2024-03-31", "season": None}
    nets = {p["name"]: p["net"] for p in data["players"]}
    assert nets == {"Ann": 82 + 32, "Ben": 74 - 37, "Cat": 58 + 5, "Dan": -214}
    money = json.loads(cli.ok("settle", "--since", "2024-03-01", "--until", "2024-03-31",
                              "--json"))["nets"]
    assert money == {"Ann": "73.00", "Ben": "0.00", "Cat": "34.00", "Dan": "-107.00"}
    text = cli.ok("standings", "--since", "2024-03-01", "--until", "2024-03-31")
    assert text.splitlines()[0] == "2 sessions, 2024-03-01 to 2024-03-08 (net points added up)"


def test_export_over_a_range_has_only_those_sessions(cli, ledger):
    data = json.loads(cli.ok("export", "--since", "2024-04-01"))
    assert [s["name"] for s in data["sessions"]] == ["third"]


def test_seasons_are_named_ranges(cli, ledger):
    assert cli.ok("season", "add", "March", "--since", "2024-03-01", "--until", "2024-03-31") \
        == "added season March: 2024-03-01 to 2024-03-31\n"
    assert [s.id for s in select(ledger, None, False, season="march").sessions] == [1, 2]
    data = json.loads(cli.ok("history", "--season", "March", "--json"))["sessions"]
    assert [r["id"] for r in data] == [2, 1]  # a page, newest first
    # adding the name again gives it new dates (a new row: nothing is updated)
    assert "now runs 2024-03-05" in cli.ok("season", "add", "march", "--since", "2024-03-05")
    assert [s.id for s in select(ledger, None, False, season="March").sessions] == [2, 3]
    assert ledger.conn.execute("SELECT COUNT(*) FROM seasons").fetchone()[0] == 2
    listed = json.loads(cli.ok("season", "list", "--json"))
    assert [(s["name"], s["since"], s["until"]) for s in listed] == [("march", "2024-03-05", None)]
    err = cli.fails("stats", "--season", "March", "--since", "2024-01-01", code=2)
    assert "not both" in err
    assert "did you mean 'march'" in cli.fails("stats", "--season", "marh", code=2)
    assert cli.ok("season", "remove", "March") == "removed season march\n"
    assert "no season 'March'" in cli.fails("standings", "--season", "March", code=2)
    with pytest.raises(Exception, match="append-only"):
        ledger.conn.execute("DELETE FROM seasons")


def test_league_per_currency_with_qualified_players(cli, ledger):
    history_ledger.add_session(ledger, ["Ann", "Ben"], ["Ann=0 Ben=4"], "2024-03-20",
                               currency="HKD")
    data = json.loads(cli.ok("standings", "--by", "month", "--min-deals", "4", "--json"))
    assert [(b["period"], b["currency"]) for b in data] == [
        ("2024-03", "HKD"), ("2024-03", "USD"), ("2024-04", "USD")]
    usd = data[1]["players"]
    assert [(p["player"], p["deals"], p["qualified"]) for p in usd] == [
        ("Ann", 7, True), ("Cat", 7, True), ("Ben", 7, True), ("Dan", 4, True)]
    april = data[2]["players"]
    assert [(p["player"], p["qualified"]) for p in april] == [("Ann", False), ("Eve", False)]
    assert data[0]["players"][0] == {"player": "Ann", "sessions": 1, "deals": 1, "wins": 1,
                                     "net": 4, "money": "4.00", "qualified": False}
    text = cli.ok("standings", "--by", "year", "--min-deals", "5", "--since", "2024-04-01")
    assert text.splitlines()[0] == "2024 (USD)"
    assert "qualified: at least 5 deals in the period" in text
    assert "--by" in cli.fails("standings", "--min-deals", "3", code=2)


def test_no_sessions_in_a_range_says_the_cli_advice_apart(tmp_path) -> None:
    from ledger.book import scope
    from ledger.core.errors import InputError
    from ledger.storage.store import open_ledger

    with open_ledger(tmp_path / "empty.db") as ledger, pytest.raises(InputError) as found:
        scope.select(ledger, None, True)
    assert found.value.message == "the ledger has no sessions yet"
    assert "bigtwo session start" in (found.value.advice or "")
