"""bigtwo history: one line per session with money per player; filters and errors."""

from __future__ import annotations

import json

import pytest
from history_ledger import add_session, build

from ledger.storage.store import open_ledger


@pytest.fixture
def ledger(ledger_path):
    with open_ledger(ledger_path) as led:
        build(led)
        yield led


def test_lists_every_session_by_default(cli, ledger):
    out = cli.ok("history")
    lines = out.splitlines()
    assert lines[0].split()[:6] == ["id", "date", "name", "players", "rules", "deals"]
    assert "2024-03-01  first" in out
    assert "Ann +41.00, Ben +37.00, Cat +29.00, Dan -107.00 USD" in out
    assert "Ann +32.00, Cat +5.00, Ben -37.00 USD" in out
    assert "Ann +5.00, Eve -5.00 USD" in out
    assert len(lines) == 2 + 3


def test_json_shape(cli, ledger):
    rows = json.loads(cli.ok("history", "--all", "--json"))  # every session, oldest first
    assert [r["id"] for r in rows] == [1, 2, 3]
    first = rows[0]
    assert set(first) == {"id", "date", "started_at", "name", "players", "rules", "teams",
                          "stake", "currency", "deals", "net", "money"}
    assert first["deals"] == 4 and first["rules"] == "classic" and first["stake"] == "0.5"
    assert first["net"] == {"Ann": 82, "Ben": 74, "Cat": 58, "Dan": -214}
    assert first["money"] == {"Ann": "41.00", "Ben": "37.00", "Cat": "29.00", "Dan": "-107.00"}
    assert rows[1]["deals"] == 3  # the voided deal is not counted


def test_a_page_is_newest_first_with_the_total_and_the_cursor(cli, ledger):
    page = json.loads(cli.ok("history", "--json"))
    assert [r["id"] for r in page["sessions"]] == [3, 2, 1]
    assert page["total"] == 3 and page["next"] is None
    assert page["sessions"] == list(reversed(json.loads(cli.ok("history", "--all", "--json"))))
    first = json.loads(cli.ok("history", "--limit", "2", "--json"))
    assert [r["id"] for r in first["sessions"]] == [3, 2] and first["total"] == 3
    rest = json.loads(cli.ok("history", "--limit", "2", "--before", first["next"], "--json"))
    assert [r["id"] for r in rest["sessions"]] == [1] and rest["next"] is None
    result = cli("history", "--limit", "2")
    assert result.exit_code == 0
    assert f"2 of 3 sessions; the next page: --before {first['next']}" in result.stderr
    assert "first" not in result.stdout and "2024-03-08" in result.stdout  # session 1 is on page 2


def test_search_finds_a_name_a_player_or_a_number(cli, ledger):
    def found(*args: str) -> list[int]:
        return [r["id"] for r in json.loads(cli.ok("history", *args, "--json"))["sessions"]]

    assert found("--search", "FIRST") == [1]
    assert found("--search", "eve") == [3]
    assert found("--search", "2") == [2]
    assert found("--search", "Cat", "--since", "2024-03-02") == [2]
    assert json.loads(cli.ok("history", "--search", "Zed", "--json"))["total"] == 0
    assert "no session matches 'Zed'" in cli.ok("history", "--search", "Zed")


@pytest.mark.parametrize("cursor", ["xyz", "MjAyNC0wMy0wMSAx=", "bm90IGEgZGF0ZSAx", "MjAyNC0wMy0wMSAtMQ", ""])
def test_a_crafted_cursor_is_one_clean_error(cli, ledger, cursor):
    err = cli.fails("history", "--before", cursor, code=2)
    assert "is not a cursor of this list" in err and len(err.strip().splitlines()) == 1


def test_money_matches_settle(cli, ledger):
    rows = json.loads(cli.ok("history", "--all", "--json"))
    for row in rows:
        settle = json.loads(cli.ok("settle", "--session", str(row["id"]), "--json"))
        assert settle["nets"] == {k: v for k, v in row["money"].items() if k in settle["nets"]}


@pytest.mark.parametrize(
    ("args", "ids"),
    [
        (["--player", "Dan"], [1]),
        (["--player", "Cat"], [2, 1]),  # a page: newest first
        (["--since", "2024-03-08"], [3, 2]),
        (["--until", "2024-03-08"], [2, 1]),
        (["--since", "2024-03-02", "--until", "2024-04-01"], [2]),
        (["--session", "2"], [2]),
        (["--all", "--player", "Cat"], [1, 2]),  # every session at once: oldest first
        (["--all", "--player", "Eve"], [3]),
        (["--all", "--search", "cat"], [1, 2]),
    ],
)
def test_filters(cli, ledger, args, ids):
    found = json.loads(cli.ok("history", *args, "--json"))
    rows = found["sessions"] if isinstance(found, dict) else found
    assert [r["id"] for r in rows] == ids


def test_teams_money_is_half_the_team_net(cli, ledger):
    add_session(ledger, ["Ann", "Ben", "Cat", "Dan"], ["Ann=0 Ben=3 Cat=1 Dan=2"], "2024-05-02",
                teams=True)
    row = json.loads(cli.ok("history", "--session", "4", "--json"))[0]
    assert row["teams"] is True
    assert row["net"] == {"Ann": 5, "Ben": -5, "Cat": 5, "Dan": -5}
    assert row["money"] == {"Ann": "2.50", "Ben": "-2.50", "Cat": "2.50", "Dan": "-2.50"}
    assert "classic teams" in cli.ok("history", "--session", "4")


def test_empty_ledger(cli):
    assert "no sessions yet" in cli.ok("history")
    assert json.loads(cli.ok("history", "--json")) == {"sessions": [], "total": 0, "next": None}
    assert json.loads(cli.ok("history", "--all", "--json")) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "Zed"], "no player named 'Zed'"),
        (["--since", "2024-02-30"], "YYYY-MM-DD"),
        (["--session", "1", "--all"], "not both"),
        (["--player", "Eve", "--until", "2024-03-31"], "no sessions with Eve"),
        (["--all", "--limit", "2"], "without --all"),
        (["--limit", "0"], "a page shows 1 to 200 sessions, not 0"),
    ],
)
def test_bad_input_is_one_clean_line(cli, ledger, args, message):
    err = cli.fails("history", *args, code=2)
    assert message in err
    assert len(err.strip().splitlines()) == 1
