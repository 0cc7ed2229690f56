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



def _same(data: object) -> object:
    """``data`` with every list read as a set (a rename may sort the names otherwise)."""
    if isinstance(data, dict):
        return {k: _same(v) for k, v in data.items()}
    if isinstance(data, list):
        return sorted(json.dumps(_same(v), sort_keys=True, ensure_ascii=False) for v in data)
    return data


def test_a_rename_reaches_a_player_who_joined_later_and_back(cli, ledger_path):
    """Issue 33: ``player rename`` reached only the seats the session started with; a
    player a ``seat join`` brought kept the old name in ``seat show``, the deals' facts
    (log, export) and the seat entries, while the money moved to the new one."""
    cli.ok("session", "start", *FOUR, "--stake", "1", "--currency", "HKD")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=5", "Dan=8")
    cli.ok("seat", "sit-out", "Dan")
    cli.ok("seat", "join", "陳大文")
    cli.ok("deal", "Ann=2", "Ben=0", "Cat=4", "陳大文=6")
    cli.ok("seat", "sit-out", "陳大文")
    cli.ok("seat", "back", "Dan")
    cli.ok("deal", "Ann=1", "Ben=0", "Cat=2", "Dan=3")
    reads = [("settle", "--json"), ("owed", "--json"), ("seat", "show", "--json"), ("log", "--json"),
             ("export",), ("standings", "--json"), ("settle",), ("seat", "show"), ("log",)]
    before = {args: cli.ok(*args) for args in reads}
    assert "陳大文" in before[("seat", "show")]
    cli.ok("player", "rename", "陳大文", "Chan")
    after = {args: cli.ok(*args) for args in reads}
    for args, text in after.items():
        if args[0] == "log":  # the log says the rename itself too: its entries use the new name
            text = "\n".join(line for line in text.splitlines() if "renamed to" not in line)
            if args[-1] == "--json":
                text = json.dumps([e for e in json.loads(text) if e["kind"] != "rename"],
                                  ensure_ascii=False)
        assert "陳大文" not in text, (args, text)
        if args[-1] == "--json" and args[0] != "log":  # the same numbers, under the new name
            assert _same(json.loads(text)) == _same(json.loads(before[args].replace("陳大文", "Chan")))
    assert "陳大文 renamed to Chan" in after[("log",)]
    settle = json.loads(after[("settle", "--json")])
    assert settle["nets"] == {"Ann": "22.00", "Ben": "22.00", "Cat": "-10.00", "Chan": "-12.00",
                              "Dan": "-22.00"}  # Ann 16+4+2, Ben 4+12+6, Cat −4−4−2, Dan −16−6
    seats = json.loads(after[("seat", "show", "--json")])
    assert seats["seated"] == ["Ann", "Ben", "Cat", "Dan", "Chan"]
    assert seats["sitting_out"] == ["Chan"]
    exported = after[("export",)]
    assert '"players": ["Ann", "Ben", "Cat", "Chan"]' in exported
    assert '{"action": "join", "player": "Chan"}' in exported
    for args in [("--player", "Chan"), ("--search", "chan"), ("--search", "陳大")]:
        assert "Chan" in cli.ok("history", *args), args  # a joiner finds the session too
    cli.ok("seat", "swap", "chan", "Dan")  # the new name is the one typed now
    assert "undone: seat swap Chan Dan" in cli.ok("undo")
    cli.ok("player", "rename", "Chan", "陳大文")  # and back: every read as it was
    cli.ok("seat", "swap", "Dan", "陳大文")
    assert "undone: seat swap Dan 陳大文" in cli.ok("undo")
    for args in reads:
        if args[0] not in ("log", "export"):  # (those say the renames and the swap undone too)
            assert cli.ok(*args) == before[args], args
    assert "Chan" not in cli.ok("export")
    assert cli.ok("doctor").startswith("ok: ")


def test_a_merge_reaches_a_player_who_joined_later(cli, ledger_path):
    """A merge counts a later joiner as the player merged into, everywhere; and one who
    joined a session cannot be merged with a player of that session (two people)."""
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Chan Tai-man", "--stake", "1")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=5", "Chan Tai-man=8")
    cli.ok("session", "end")
    cli.ok("session", "start", *FOUR, "--stake", "1")
    cli.ok("seat", "sit-out", "Dan")
    cli.ok("seat", "join", "陳大文")
    cli.ok("deal", "Ann=2", "Ben=0", "Cat=4", "陳大文=6")
    err = cli.fails("player", "merge", "陳大文", "--into", "Ann")
    assert "sat in the same session" in err
    cli.ok("player", "merge", "陳大文", "--into", "Chan Tai-man")
    for args in [("settle", "--json"), ("seat", "show"), ("export",), ("standings", "--json")]:
        assert "陳大文" not in cli.ok(*args), args
    settle = json.loads(cli.ok("settle", "--json"))
    assert settle["nets"]["Chan Tai-man"] == "-12"  # this session only (no currency)
    assert "Chan Tai-man" in cli.ok("seat", "show").splitlines()[0]
    assert "陳大文" not in cli.ok("owed", "--json")
    assert cli.ok("doctor").startswith("ok: ")
