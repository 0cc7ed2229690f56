"""Names are people: typed names match by NFC + casefold, and a near miss gets a
"did you mean" (issue 12)."""

from __future__ import annotations

import json


def test_near_misses_are_suggested(cli):
    cli.ok("session", "start", "--players", "陳大文,李小明,José,Anna")
    cli.ok("deal", "0", "3", "11", "8")
    err = cli.fails("stats", "--player", "陳大民")
    assert err.strip() == "error: no player named '陳大民' in this ledger; did you mean '陳大文'?"
    err = cli.fails("deal", "陳大民=0", "李小明=3", "José=11", "Anna=8")
    assert "did you mean '陳大文'?" in err and err.count("\n") == 1
    err = cli.fails("history", "--player", "Anne")
    assert "did you mean 'Anna'?" in err
    err = cli.fails("history", "--player", "Zed")
    assert "did you mean" not in err


def test_case_and_accents_typed_any_way_find_the_player(cli):
    cli.ok("session", "start", "--players", "陳大文,李小明,José,Anna")
    cli.ok("deal", "0", "3", "11", "8")
    for typed in ("jose\u0301", "JOSÉ", "José"):
        data = json.loads(cli.ok("stats", "--player", typed, "--json"))
        assert [p["name"] for p in data["players"]] == ["José"]
        rows = json.loads(cli.ok("history", "--player", typed, "--json"))["sessions"]
        assert len(rows) == 1
