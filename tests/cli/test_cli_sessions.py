"""Happy paths end to end through the ``bigtwo`` command line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from helpers import file_digest

from ledger.cli.app import app

FOUR = ("--players", "Ann,Ben,Cat,Dan")
DECIMAL = re.compile(r"^-?\d+(\.\d+)?$")


def _json(cli, *args: str):
    return json.loads(cli.ok(*args, "--json"))


# --- sessions -------------------------------------------------------------------


def test_session_start_list_show_use_end(cli):
    out = cli.ok("session", "start", *FOUR, "--name", "Friday", "--stake", "0.5", "--currency", "usd")
    assert out.startswith('started session 1 "Friday": Ann, Ben, Cat, Dan')
    assert "0.5 USD" in out
    cli.ok("session", "start", "--players", "Eve,Fay,Gus", "--rules", "three-player")

    listed = _json(cli, "session", "list")
    assert [s["id"] for s in listed] == [1, 2]
    first, second = listed
    assert first["name"] == "Friday"
    assert first["players"] == ["Ann", "Ben", "Cat", "Dan"]
    assert (first["rules"], first["stake"], first["currency"], first["teams"]) == (
        "classic", "0.5", "USD", False)
    assert first["ended_at"] is None and first["deals"] == 0
    assert second["players"] == ["Eve", "Fay", "Gus"] and second["rules"] == "three-player"

    text = cli.ok("session", "list")
    current_rows = [line for line in text.splitlines() if line.startswith("*")]
    assert len(current_rows) == 1 and "Eve, Fay, Gus" in current_rows[0]  # the newest is current

    assert cli.ok("session", "use", "1").startswith("now using session 1")
    assert "Ann, Ben, Cat, Dan" in cli.ok("session", "show")
    shown = _json(cli, "session", "show")
    assert shown["id"] == 1 and shown["name"] == "Friday"
    assert shown["rules"]["name"] == "classic" and shown["rules"]["hand_size"] == 13
    assert shown["players"] == ["Ann", "Ben", "Cat", "Dan"]  # seat order, not standings
    assert [p["name"] for p in shown["standings"]["players"]] == ["Ann", "Ben", "Cat", "Dan"]
    assert "Eve, Fay, Gus" in cli.ok("session", "show", "2")

    # The current session takes the deal; --session picks another.
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=4", "Dan=5")
    cli.ok("deal", "Eve=0", "Fay=2", "Gus=17", "--session", "2")
    assert [s["deals"] for s in _json(cli, "session", "list")] == [1, 1]

    ended = cli.ok("session", "end")
    assert ended.startswith("ended session 1")
    assert _json(cli, "session", "list")[0]["ended_at"] is not None
    assert _json(cli, "session", "list")[1]["ended_at"] is None


def test_no_deal_after_session_end_but_corrections_still_allowed(cli, ledger_path):
    cli.ok("session", "start", *FOUR)
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=4", "Dan=5")
    cli.ok("session", "end")
    before = file_digest(ledger_path)
    stderr = cli.fails("deal", "Ann=0", "Ben=3", "Cat=4", "Dan=5", code=2)
    assert stderr.startswith("error: session 1 ended")
    assert file_digest(ledger_path) == before
    cli.ok("amend", "1", "Ann=0", "Ben=2", "Cat=4", "Dan=5")
    cli.ok("void", "1")


def test_session_list_when_empty(cli):
    assert "no sessions yet" in cli.ok("session", "list")
    assert _json(cli, "session", "list") == []


# --- deals and corrections ----------------------------------------------------------


def test_after_an_undo_amend_and_void_name_a_deal_by_its_stored_number(cli):
    """docs/offline.md, "Deal numbers after an undo": the undone deal keeps its number, the
    next deal takes the one after it, and `amend N` / `void N` name the deal stored as N,
    never the Nth live deal."""
    cli.ok("session", "start", *FOUR)
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("deal", "Ann=5", "Ben=0", "Cat=2", "Dan=13")
    cli.ok("deal", "Ann=1", "Ben=0", "Cat=2", "Dan=3")
    assert cli.ok("undo").startswith("undone: deal 3 ")
    assert cli.ok("deal", "Ann=4", "Ben=6", "Cat=0", "Dan=1").startswith("deal 4:")
    # Deal 4 is the third live deal: `void 4` names it, and deal 3 stays taken back.
    assert cli.ok("void", "4").startswith("deal 4 voided")
    log = _json(cli, "log")
    voided = [e for e in log if e["kind"] == "void"]
    assert [e["deal"] for e in voided] == [3, 4]
    assert [e["live"] for e in log if e["kind"] == "deal"] == [True, True, False, False]
    # `amend 3` names the deal stored as 3 (the undone one), restoring it under its number.
    assert cli.ok("amend", "3", "Ann=2", "Ben=0", "Cat=5", "Dan=7").startswith("amended deal 3:")
    log = _json(cli, "log")
    live = {e["deal"]: e["facts"]["cards"] for e in log if e["live"]}
    assert live == {1: {"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8},
                    2: {"Ann": 5, "Ben": 0, "Cat": 2, "Dan": 13},
                    3: {"Ann": 2, "Ben": 0, "Cat": 5, "Dan": 7}}
    # The next deal still follows the highest number ever stored.
    assert cli.ok("deal", "Ann=0", "Ben=1", "Cat=1", "Dan=1").startswith("deal 5:")


def test_deal_undo_void_amend_and_log(cli):
    cli.ok("session", "start", *FOUR)
    out = cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    assert out.startswith("deal 1:")
    assert "Cat 11 → 22 fried" in out  # 11 cards x2: cards left, then the penalty
    assert cli.ok("deal", "5", "0", "2", "13").startswith("deal 2:")  # counts in seat order
    cli.ok("deal", "Ann=1", "Ben=0", "Cat=2", "Dan=3")
    assert cli.ok("undo").startswith(
        "undone: deal 3 (Ann=1 Ben=0 Cat=2 Dan=3) — deal 3 does not count now")
    assert cli.ok("void", "2").startswith("deal 2 voided")
    out = cli.ok("amend", "1", "Ann=0", "Ben=4", "Cat=11", "Dan=8")
    assert out.startswith("amended deal 1:")
    # A voided deal can be restored by amending it; it keeps its number.
    assert cli.ok("amend", "2", "Ann=5", "Ben=0", "Cat=2", "Dan=1").startswith("amended deal 2:")
    # New deals continue after the highest number ever used.
    assert cli.ok("deal", "Ann=0", "Ben=1", "Cat=1", "Dan=1").startswith("deal 4:")

    log = _json(cli, "log")
    assert [(e["seq"], e["deal"], e["kind"], e["live"]) for e in log] == [
        (1, 1, "deal", False),
        (2, 2, "deal", False),
        (3, 3, "deal", False),
        (4, 3, "void", False),
        (5, 2, "void", False),
        (6, 1, "amend", True),
        (7, 2, "amend", True),
        (8, 4, "deal", True),
    ]
    assert log[3]["facts"] is None
    assert log[5]["facts"] == {"cards": {"Ann": 0, "Ben": 4, "Cat": 11, "Dan": 8}}
    assert set(log[0]) == {"seq", "uuid", "deal", "kind", "facts", "live", "undoes", "status", "at"}
    assert [e["status"] for e in log][:3] == ["amended", "voided", "voided"]
    assert [e["undoes"] for e in log][3] == 3  # the void of deal 3 was written by undo

    text = cli.ok("log")
    rows = [line.split() for line in text.splitlines()[3:]]
    kinds = [(row[0], row[1], row[2]) for row in rows]
    assert kinds == [("1", "1", "deal"), ("2", "2", "deal"), ("3", "3", "deal"), ("4", "3", "void"),
                     ("5", "2", "void"), ("6", "1", "amend"), ("7", "2", "amend"), ("8", "4", "deal")]
    assert "Ann=0 Ben=4 Cat=11 Dan=8" in text

    # Standings come from the live deals only: 1 (amended), 2 (restored), 4.
    players = {p["name"]: p for p in _json(cli, "standings")["players"]}
    assert {n: p["deals"] for n, p in players.items()} == {"Ann": 3, "Ben": 3, "Cat": 3, "Dan": 3}
    assert {n: p["penalty"] for n, p in players.items()} == {
        "Ann": 5, "Ben": 4 + 1, "Cat": 22 + 2 + 1, "Dan": 8 + 1 + 1}
    assert sum(p["net"] for p in players.values()) == 0
    assert _json(cli, "session", "list")[0]["deals"] == 3


def test_deal_options_and_immediate_win(cli):
    cli.ok("session", "start", "--players", "North,East,West,South", "--rules", "doubling")
    out = cli.ok("deal", "North=0", "East=3", "West=9", "South=8", "--bombs", "West=1", "--twos",
                 "South=1", "--finish", "two")
    assert "East 3 → 6" in out and "West 9 → 36" in out and "South 8 → 32" in out  # scoring.md example 3
    cli.ok("deal", "--dragon", "east")
    players = {p["name"]: p for p in _json(cli, "standings")["players"]}
    assert players["North"]["net"] == 74 - 39
    assert players["East"]["net"] == -6 + 117


def test_log_empty_session(cli):
    cli.ok("session", "start", *FOUR)
    assert "no entries yet" in cli.ok("log")
    assert _json(cli, "log") == []


# --- reports --------------------------------------------------------------------------


def test_standings_and_settle_json_shape(cli):
    cli.ok("session", "start", *FOUR, "--stake", "0.5", "--currency", "USD")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("deal", "Ann=1", "Ben=0", "Cat=2", "Dan=3")

    st = _json(cli, "standings")
    assert set(st) == {"scope", "sessions", "players"}
    assert st["scope"] == "session 1" and st["sessions"] == [1]
    assert [p["name"] for p in st["players"]] == ["Ann", "Ben", "Dan", "Cat"]  # by net, best first
    for p in st["players"]:
        assert list(p) == ["name", "deals", "wins", "fried", "penalty", "net"]
        assert all(type(p[k]) is int for k in ("deals", "wins", "fried", "penalty", "net"))
    ann = st["players"][0]
    assert (ann["deals"], ann["wins"], ann["fried"], ann["penalty"], ann["net"]) == (2, 1, 0, 1, 35)
    cat = st["players"][-1]
    assert (cat["fried"], cat["penalty"], cat["net"]) == (1, 24, -55 - 2)

    se = _json(cli, "settle")
    assert set(se) >= {"currency", "nets", "pairwise", "payments"}
    assert se["currency"] == "USD"
    assert se["nets"] == {"Ann": "17.50", "Ben": "13.50", "Dan": "-2.50", "Cat": "-28.50"}
    for payment in se["pairwise"] + se["payments"]:
        assert set(payment) == {"from", "to", "amount"}
        assert isinstance(payment["amount"], str) and DECIMAL.match(payment["amount"])
        assert not payment["amount"].startswith("-")
    assert se["payments"] == [
        {"from": "Cat", "to": "Ann", "amount": "17.50"},
        {"from": "Cat", "to": "Ben", "amount": "11.00"},
        {"from": "Dan", "to": "Ben", "amount": "2.50"},
    ]
    # The pair-by-pair flows settle the same nets as the plan.
    balance = dict.fromkeys(se["nets"], 0.0)
    for p in se["pairwise"]:
        balance[p["from"]] -= float(p["amount"])
        balance[p["to"]] += float(p["amount"])
    assert {k: round(v, 2) for k, v in balance.items()} == {k: float(v) for k, v in se["nets"].items()}
    (work,) = se["working"]
    assert work["method"] == "pairwise" and work["stake"] == "0.5"
    assert work["sum_s"] == 1 + 3 + 24 + 11 and work["n"] == 4

    text = cli.ok("settle")
    assert "fewest payments (3)" in text and "pair by pair" in text
    assert "Ann" in cli.ok("standings")


def test_all_sessions_add_money_not_points(cli):
    cli.ok("session", "start", "--players", "Ann,Ben", "--stake", "0.25", "--currency", "USD")
    cli.ok("deal", "Ann=0", "Ben=5")  # Ann +5 points = +1.25
    cli.ok("session", "start", "--players", "Ann,Ben", "--stake", "2", "--currency", "USD")
    cli.ok("deal", "Ann=3", "Ben=0")  # Ben +3 points = +6.00

    st = _json(cli, "standings", "--all")
    assert st["scope"] == "all sessions" and st["sessions"] == [1, 2]
    assert {p["name"]: p["net"] for p in st["players"]} == {"Ann": 2, "Ben": -2}

    se = _json(cli, "settle", "--all")
    assert se["nets"] == {"Ben": "4.75", "Ann": "-4.75"}  # not 2 points at either stake
    assert se["payments"] == [{"from": "Ann", "to": "Ben", "amount": "4.75"}]
    assert "all 2 sessions" in cli.ok("standings", "--all")
    # One session alone still settles at its own stake.
    assert _json(cli, "settle", "--session", "1")["nets"] == {"Ann": "1.25", "Ben": "-1.25"}


# --- the ledger file ----------------------------------------------------------------------


@pytest.mark.no_ledger
def test_db_option_overrides_environment(cli, ledger_path, tmp_path):
    other = tmp_path / "other.db"
    assert cli.ok("db", "path").strip() == str(ledger_path)
    assert cli.ok("--db", str(other), "db", "path").strip() == str(other)
    cli.ok("--db", str(other), "session", "start", *FOUR)
    cli.ok("--db", str(other), "deal", "Ann=0", "Ben=3", "Cat=4", "Dan=5")
    assert not ledger_path.exists()
    assert len(_json(cli, "--db", str(other), "session", "list")) == 1
    assert _json(cli, "session", "list") == []  # BIGTWO_DB is a different, new ledger
    assert other.exists() and not ledger_path.exists()  # listing creates no ledger


def test_db_path_without_environment_is_the_user_data_folder(cli, monkeypatch):
    monkeypatch.delenv("BIGTWO_DB")
    path = Path(cli.ok("db", "path").strip())
    assert path.name == "ledger.db" and "bigtwo-ledger" in str(path)


# --- rules ------------------------------------------------------------------------------


def test_rules_list_and_show(cli):
    text = cli.ok("rules", "list")
    for preset in ("classic", "pay-the-winner", "doubling", "hong-kong", "da-lao-er", "three-player",
                   "places", "taiwan"):
        assert preset in text
    assert _json(cli, "rules", "list")[0]["name"] == "classic"

    shown = cli.ok("rules", "show", "hong-kong")
    assert shown.startswith("hong-kong:")
    assert "tiers: 1-9 x1, 10-12 x2, 13 x3" in shown  # Andrew White's tiers
    assert "  missed_call = false: a winner who did not call 'last card' pays every penalty" in shown
    data = _json(cli, "rules", "show", "hong-kong")
    assert data["tiers"] == [[1, 1], [10, 2], [13, 3]]
    assert data["settlement"] == "pairwise" and data["assist"] is True


def test_user_rule_file_with_fry_threshold(cli, tmp_path):
    rule_file = tmp_path / "house.toml"
    rule_file.write_text('base = "classic"\nfry_threshold = 11\n', "utf-8")
    assert "tiers: 1-10 x1, 11-12 x2, 13 x3" in cli.ok("rules", "show", str(rule_file))
    cli.ok("session", "start", "--players", "Ann,Ben", "--rules", str(rule_file))
    cli.ok("deal", "Ann=0", "Ben=10")
    ben = {p["name"]: p for p in _json(cli, "standings")["players"]}["Ben"]
    assert (ben["penalty"], ben["fried"]) == (10, 0)  # 10 not 20: not fried below 11
    cli.ok("deal", "Ann=0", "Ben=11")
    ben = {p["name"]: p for p in _json(cli, "standings")["players"]}["Ben"]
    assert (ben["penalty"], ben["fried"]) == (10 + 22, 1)
    # Under plain classic the same 10 cards cost 20.
    cli.ok("session", "start", "--players", "Ann,Ben")
    cli.ok("deal", "Ann=0", "Ben=10")
    assert {p["name"]: p for p in _json(cli, "standings")["players"]}["Ben"]["penalty"] == 20
    # The session froze the file's rules: editing the file later changes nothing recorded.
    rule_file.write_text('base = "classic"\nfry_threshold = 10\n', "utf-8")
    assert {p["name"]: p for p in _json(cli, "standings", "--session", "1")["players"]}["Ben"][
        "penalty"] == 32
    assert _json(cli, "session", "show", "1")["rules"]["tiers"] == [[1, 1], [11, 2], [13, 3]]


# --- help -----------------------------------------------------------------------------------


def test_python_dash_m_ledger_help(tmp_path):
    env = {**os.environ, "BIGTWO_DB": str(tmp_path / "x.db")}
    result = subprocess.run([sys.executable, "-m", "ledger", "--help"], capture_output=True, text=True,
                            env=env, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage:")
    for command in ("session", "deal", "settle", "standings", "rules", "db"):
        assert command in result.stdout
    assert not (tmp_path / "x.db").exists()  # help opens no ledger


def _walk(command, path: tuple[str, ...] = (), parent=None):
    """Every command of the tree, lazily loaded feature commands included (typer ships
    its own click, so no isinstance checks)."""
    yield path, command
    if hasattr(command, "commands"):
        ctx = typer.Context(command, parent=parent)
        for name in command.list_commands(ctx):
            yield from _walk(command.get_command(ctx, name), (*path, name), ctx)


COMMANDS = list(_walk(typer.main.get_command(app)))


def test_command_tree_is_complete():
    names = {" ".join(p) for p, _ in COMMANDS}
    for expected in ("session start", "session list", "session show", "session use", "session end",
                     "deal", "amend", "void", "undo", "log", "standings", "settle", "rules list",
                     "rules show", "db path", "stats", "plot", "import", "doctor", "compare"):
        assert expected in names


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) or "bigtwo" for p, _ in COMMANDS])
def test_every_command_has_help(cli, path, command):
    assert (command.help or "").strip(), f"{' '.join(path)} has no help text"
    for param in command.params:
        if param.param_type_name == "option":
            assert (param.help or "").strip(), f"{' '.join(path)} {param.opts} has no help"
    out = cli.ok(*path, "--help")
    assert "Usage:" in out
    assert command.help.strip().splitlines()[0][:30] in " ".join(out.split())


def test_session_end_prints_the_money_first(cli) -> None:
    """The fewest payments come right under "ended", with what is paid and outstanding,
    before the standings and the working; the working is printed once, with no second
    list of the fewest payments under it."""
    cli.ok("session", "start", *FOUR, "--stake", "1", "--currency", "HKD")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("deal", "Ann=5", "Ben=0", "Cat=2", "Dan=13")
    cli.ok("paid", "Dan", "Ann", "5")
    out = cli.ok("session", "end")
    lines = out.splitlines()
    assert lines[0].startswith("ended session 1")
    assert lines[1] == ""
    assert lines[2] == "fewest payments (3):"
    assert lines[3].split() == ["pays", "to", "HKD", "paid", "outstanding"]
    plan = [line.split() for line in lines[5:8]]
    assert sorted(plan) == [["Cat", "Ann", "17.00", "0.00", "17.00"],
                            ["Dan", "Ann", "42.00", "5.00", "37.00"],
                            ["Dan", "Ben", "67.00", "0.00", "67.00"]]
    # The same record as `settle --json`: the payments and their progress agree.
    st = _json(cli, "settle")
    assert sorted([p["from"], p["to"], p["amount"], p["paid"], p["outstanding"]]
                  for p in st["progress"]) == sorted(plan)
    assert out.index("fewest payments") < out.index("penalty") < out.index("Σs = 79")
    assert out.count("fewest payments") == 1
