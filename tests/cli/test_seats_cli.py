"""``bigtwo seat …`` end to end: each change one entry, said back with the line-up now;
bad input one ``error:`` line with nothing written; ``undo`` names the seat change."""

from __future__ import annotations

import json

from helpers import file_digest

FOUR = ("--players", "Ann,Ben,Cat,Dan")


def test_an_evening_at_the_command_line(cli, ledger_path):
    cli.ok("session", "start", *FOUR, "--stake", "1", "--currency", "HKD")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=5", "Dan=8")
    out = cli.ok("seat", "join", "Eve", "--sit-out")
    assert out.splitlines()[:3] == ["seat join Eve", "session 1: seated Ann, Ben, Cat, Dan, Eve",
                                    "sitting out: Eve"]
    cli.ok("seat", "sit-out", "ann")  # matched as a deal's names are
    data = json.loads(cli.ok("seat", "back", "Eve", "--json"))
    assert data["action"] == "seat back Eve" and data["facts"] == {"action": "back", "player": "Eve"}
    assert data["lineup"] == {"seated": ["Ann", "Ben", "Cat", "Dan", "Eve"], "sitting_out": ["Ann"],
                              "playing": ["Ben", "Cat", "Dan", "Eve"]}
    out = cli.ok("deal", "Ben=0", "Cat=2", "Dan=4", "Eve=6")
    assert "Ann" not in out.splitlines()[0]  # a sit-out scores nothing that deal
    cli.ok("seat", "swap", "Cat", "Dan")
    assert cli.ok("seat", "show").splitlines() == [
        "session 1: seated Ann, Ben, Dan, Cat, Eve", "sitting out: Ann", "next deal: Ben, Dan, Cat, Eve"]
    out = cli.ok("undo")
    assert out.startswith("undone: seat swap Cat Dan")
    settle = json.loads(cli.ok("settle", "--json"))
    assert settle["nets"] == {"Ann": "16.00", "Ben": "16.00", "Cat": "0.00", "Eve": "-12.00",
                              "Dan": "-20.00"}
    text = cli.ok("settle")
    assert "sitting out: Ann" in text and "sitting out: Eve" in text
    log = json.loads(cli.ok("log", "--json"))
    assert [e["deal"] for e in log if e["kind"] == "deal"] == [1, 2]
    assert [(e["action"], e["undone"]) for e in log if e["kind"] == "seat"] == [
        ("seat join Eve", False), ("seat sit-out Ann", False), ("seat back Eve", False),
        ("seat swap Cat Dan", True)]
    text = cli.ok("log")
    assert "seats changed:" in text and text.rstrip().endswith("seat swap Cat Dan  (undone)")


def test_bad_seat_changes_are_one_error_line_and_write_nothing(cli, ledger_path):
    cli.ok("session", "start", *FOUR)
    before = file_digest(ledger_path)
    for args, said in [(("seat", "join", "Eve"), "joins sitting out"),
                       (("seat", "leave", "Zed"), "'Zed' is not seated"),
                       (("seat", "back", "Ann"), "Ann is not sitting out"),
                       (("seat", "order", "Ann,Ben"), "every seated player"),
                       (("seat", "order", "Dan,Cat,Ben,Ann", "--from-deal", "3"), "from 1 to 1"),
                       (("seat", "swap", "Ann", "Ann"), "two different"),
                       (("seat", "join", "Eve=2", "--sit-out"), "cannot contain =")]:
        err = cli.fails(*args)
        assert err.startswith("error: ") and said in err and len(err.strip().splitlines()) == 1, err
    assert file_digest(ledger_path) == before


def test_a_seat_order_corrected_from_a_deal_on(cli, ledger_path):
    cli.ok("session", "start", *FOUR, "--rules", "classic")
    for _ in range(2):
        cli.ok("deal", "Ann=0", "Ben=3", "Cat=5", "Dan=8")
    out = cli.ok("seat", "order", "Ann,Cat,Ben,Dan", "--from-deal", "2")
    assert out.splitlines()[0] == "seat order Ann,Cat,Ben,Dan --from-deal 2"
    assert "undone: seat order Ann,Cat,Ben,Dan --from-deal 2" in cli.ok("undo")


def test_backup_restore_and_the_doctor_carry_the_seats(cli, ledger_path, tmp_path, monkeypatch):
    cli.ok("session", "start", *FOUR)
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=5", "Dan=8")
    cli.ok("seat", "join", "Eve", "--sit-out")
    cli.ok("seat", "sit-out", "Dan")
    cli.ok("seat", "back", "Eve")
    cli.ok("deal", "Ann=4", "Ben=0", "Cat=5", "Eve=8")
    cli.ok("seat", "leave", "Ann")
    cli.ok("undo")
    assert cli.ok("doctor").startswith("ok: ")
    settled = cli.ok("settle", "--json")
    cli.ok("backup", str(tmp_path / "b.db"))
    monkeypatch.setenv("BIGTWO_DB", str(tmp_path / "restored.db"))
    cli.ok("restore", str(tmp_path / "b.db"))
    assert cli.ok("settle", "--json", "--session", "1") == settled
    assert cli.ok("seat", "show", "--session", "1").splitlines()[0] == (
        "session 1: seated Ann, Ben, Cat, Dan, Eve")
    assert cli.ok("doctor").startswith("ok: ")
