"""``bigtwo deal``, ``amend``, ``void`` and ``undo`` with ``--json``: the view record's
``to_dict()`` (``AfterDeal``, ``UndoneView``), what the hub's ops answer."""

from __future__ import annotations

import json

from ledger.book import views
from ledger.storage.store import open_ledger


def test_deal_amend_void_and_undo_print_their_records(cli, ledger_path) -> None:
    cli.ok("session", "start", "--players", "陳大文,Ben,Cat,Dan")
    dealt = json.loads(cli.ok("deal", "陳大文=0", "Ben=3", "Cat=11", "Dan=8", "--json"))
    with open_ledger(ledger_path) as ledger:
        s = ledger.journal.session(1)
        [entry] = [e for e in ledger.journal.entries(1) if e.kind == "deal"]
        assert dealt["entry"] == entry.uuid and dealt["seq"] == entry.seq
        assert dealt["standings"] == views.board(ledger, s).to_dict()["standings"]
    assert [p["net"] for p in dealt["players"]] == [33, 21, -55, 1]
    assert set(dealt["next"]) == {"dealers", "leader", "opener", "leaders", "twin", "text"}
    fixed = json.loads(cli.ok("amend", "1", "陳大文=0", "Ben=3", "Cat=10", "Dan=8", "--json"))
    assert (fixed["kind"], fixed["deal"], fixed["players"][2]["cards"]) == ("amend", 1, 10)
    void = json.loads(cli.ok("void", "1", "--json"))
    assert (void["kind"], void["players"]) == ("void", None)
    undone = json.loads(cli.ok("undo", "--json"))
    assert (undone["action"], undone["back"]) == ("void", "陳大文=0 Ben=3 Cat=10 Dan=8")
    assert undone["after"]["kind"] == "amend" and undone["after"]["deal"] == 1
    # Without --json: the text, as before.
    assert cli.ok("deal", "陳大文=1", "Ben=0", "Cat=2", "Dan=3").startswith("deal 2:")


def test_undo_of_a_rename_prints_what_it_took_back(cli) -> None:
    cli.ok("session", "start", "--players", "陳大文,Ben,Cat,Dan")
    cli.ok("deal", "陳大文=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("player", "rename", "Ben", "Benjamin")
    assert json.loads(cli.ok("undo", "--json")) == {"action": "undo rename", "player": "Benjamin",
                                                   "target": "Ben"}
