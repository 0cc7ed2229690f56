"""The view records of ledger/book/views.py: what each front end renders, built once.

The command line's --json is each record's to_dict(); these tests pin the JSON shapes
the hub and the phone app read, and that the text the CLI prints agrees with them."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from ledger.book import actions as book
from ledger.book import reports, views
from ledger.core.deal_line import parse_deal_line
from ledger.core.rules import load_preset
from ledger.storage.store import open_ledger

FOUR = ["陳大文", "Ben", "Cat", "Dan"]


def _session(ledger, rules: str = "classic", teams: bool = False, stake: str = "1"):
    return book.start_session(ledger, FOUR, load_preset(rules), Decimal(stake), "HKD", "", teams)


def _deal(ledger, s, line: str):
    return book.record_deal(ledger, s, parse_deal_line(line, s.seats, book.session_rules(s)))


def test_after_deal_is_plain_json_with_the_standings_and_who_is_next(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _session(ledger)
        view = views.after_deal(ledger, s, _deal(ledger, s, "陳大文=0 Ben=3 Cat=11 Dan=8"))
        data = view.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert set(data) == {"session", "deal", "entry", "seq", "kind", "facts", "players",
                             "standings", "next"}
        assert (data["session"], data["deal"], data["kind"], data["seq"]) == (s.id, 1, "deal", 1)
        assert data["entry"] == ledger.journal.entries(s.id)[0].uuid  # named by uuid
        assert data["players"][0] == {"name": "陳大文", "cards": 0, "win": True, "fried": False,
                                      "penalty": 0, "net": 33}
        assert data["standings"] == reports.standings(ledger, [ledger.journal.session(s.id)]).to_dict()
        assert data["next"] == {"dealers": ["陳大文"], "leader": "陳大文", "opener": "3♦",
                                "leaders": [], "twin": False,
                                "text": "next: 陳大文 deals, 陳大文 leads"}
        void = views.after_deal(ledger, s, book.void_deal(ledger, s, 1)).to_dict()
        assert (void["kind"], void["players"], void["facts"]) == ("void", None, None)
        assert all(p["deals"] == 0 for p in void["standings"]["players"])


def test_the_board_carries_the_phones_main_screen(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _session(ledger, "hong-kong", stake="0.5")
        assert views.board(ledger, s).to_dict()["undo"] is None  # the phone never undoes a start
        start = views.board(ledger, s, session_start=True).undo
        assert start is not None and start._replace(target=None) == views.UndoPreview("session start")
        assert start.target == s.start_uuid  # the entry undo would take back, named by its uuid
        _deal(ledger, s, "陳大文=0 Ben=3 Cat=11 Dan=8")
        data = views.board(ledger, s).to_dict()
        assert json.loads(json.dumps(data)) == data
        assert set(data) == {"session", "rules", "hand_size", "points_per_unit", "standings",
                             "money", "next", "facts", "undo", "next_deal", "deals", "seats"}
        assert data["seats"] == {"seated": FOUR, "sitting_out": [], "playing": FOUR}
        assert data["session"]["players"] == FOUR and data["session"]["deals"] == 1
        assert data["session"] == views.session_card(ledger.journal.session(s.id)).to_dict()
        assert data["session"]["open"] is True and data["session"]["mode"] == "cards"
        assert data["next_deal"] == 2
        assert data["deals"] == [{"deal": 1, "uuid": ledger.journal.live_deals(s.id)[-1].uuid,
                                  "kind": "deal", "line": "陳大文=0 Ben=3 Cat=11 Dan=8",
                                  "facts": data["deals"][0]["facts"],
                                  "net": {"陳大文": 33, "Ben": 21, "Cat": -55, "Dan": 1}}]
        assert data["session"]["uuid"] == s.uuid and data["session"]["stake"] == "0.5"
        assert data["hand_size"] == 13 and data["rules"]["name"] == "hong-kong"
        money = reports.settle(ledger, [s]).to_dict()
        assert data["money"] == {"currency": "HKD", "nets": money["nets"]}
        assert list(data["money"]["nets"]) == ["陳大文", "Ben", "Dan", "Cat"]  # most first
        last = ledger.journal.live_deals(s.id)[-1]
        assert data["undo"] == {"action": "deal", "deal": 1, "line": "陳大文=0 Ben=3 Cat=11 Dan=8",
                                "back": None, "target": last.uuid}
        from ledger.core.registry import offered_facts  # the registry says which facts

        assert data["facts"] == [o.to_dict() for o in offered_facts(load_preset("hong-kong"))]
        assert "--shootout" not in [f["word"] for f in data["facts"]]  # not a teams session


@pytest.mark.parametrize("steps", [
    ["deal"], ["deal", "void"], ["deal", "amend"], ["deal", "end"], ["deal", "void", "undo"],
])
def test_the_undo_preview_is_what_undo_then_takes_back(tmp_path: Path, steps: list[str]) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _session(ledger)
        for step in steps:
            s = ledger.journal.session(s.id)
            if step == "deal":
                _deal(ledger, s, "0 3 11 8")
                _deal(ledger, ledger.journal.session(s.id), "5 0 2 13")
            elif step == "void":
                book.void_deal(ledger, s, 2)
            elif step == "amend":
                book.amend_deal(ledger, s, 1, parse_deal_line("2 0 1 1", s.seats))
            elif step == "end":
                book.end_session(ledger, s)
            else:
                book.undo(ledger, s)
        s = ledger.journal.session(s.id)
        preview = views.undo_preview(ledger, s)
        assert preview is not None
        undone = book.undo(ledger, s)
        assert (preview.action, preview.deal_no) == (undone.action, undone.deal_no)


def test_the_ranked_settlement_shows_its_own_working(tmp_path: Path, cli) -> None:
    """taiwan: losers pay the winner by rank, not Σs − n·s (the phone's settle page was wrong)."""
    cli.ok("session", "start", "--players", ",".join(FOUR), "--rules", "taiwan", "--stake", "10")
    for line in (("0", "3", "11", "8"), ("5", "0", "2", "13"), ("9", "1", "0", "4")):
        cli.ok("deal", *line)
    data = json.loads(cli.ok("settle", "--json"))
    (work,) = data["working"]
    assert work["method"] == "ranked" and work["points_per_unit"] == 2
    assert "sum_s" not in work and all("n_s" not in r for r in work["rows"])
    assert {r["name"]: r["net_points"] for r in work["rows"]} == work["net_points"]
    text = cli.ok("settle")
    assert "Σs" not in text and "ranked" in text
    assert data["sessions"] == 1


def test_pairwise_working_is_sum_minus_n_times_s(tmp_path: Path, cli) -> None:
    cli.ok("session", "start", "--players", ",".join(FOUR))
    cli.ok("deal", "0", "3", "11", "8")
    (work,) = json.loads(cli.ok("settle", "--json"))["working"]
    rows = {r["name"]: r for r in work["rows"]}
    assert work["sum_s"] == 3 + 22 + 8 and work["n"] == 4
    assert rows["Ben"] == {"name": "Ben", "s": 3, "n_s": 12, "net_points": 33 - 12}
    rounded = json.loads(cli.ok("settle", "--json", "--round", "5"))
    assert rounded["round"] == "5" and set(rounded["rounding"]) == set(FOUR)


def test_log_marks_what_replaced_each_entry(tmp_path: Path, cli) -> None:
    cli.ok("session", "start", "--players", ",".join(FOUR))
    cli.ok("deal", "0", "3", "11", "8")
    cli.ok("deal", "5", "0", "2", "13")
    cli.ok("amend", "1", "0", "3", "10", "8")
    cli.ok("void", "2")
    cli.ok("undo")
    log = json.loads(cli.ok("log", "--json"))
    assert [(e["kind"], e["deal"], e["status"], e["live"]) for e in log] == [
        ("deal", 1, "amended", False), ("deal", 2, "voided", False), ("amend", 1, None, True),
        ("void", 2, None, False), ("amend", 2, None, True)]
    assert log[-1]["undoes"] == 4
    text = cli.ok("log")
    assert "undoes #4" in text and "voided" in text


def test_league_is_grouped_and_sorted_in_the_book(tmp_path: Path, cli) -> None:
    cli.ok("session", "start", "--players", ",".join(FOUR), "--stake", "2")
    cli.ok("deal", "0", "3", "11", "8")
    from ledger.book import scope
    from ledger.book.league import league

    with open_ledger(Path(cli.ok("db", "path").strip())) as ledger:
        view = league(ledger, scope.select(ledger, None, True), "year")
    assert [p.player for p in view.blocks[0].players] == ["陳大文", "Ben", "Dan", "Cat"]
    assert view.to_dict() == json.loads(cli.ok("standings", "--by", "year", "--json"))
    assert view.to_dict()[0]["players"][0]["money"] == "66"
    zh = cli.ok("--lang", "zh_Hant", "standings", "--by", "month").splitlines()
    assert "玩家" in zh[1] and "player" not in zh[1] and "sessions" not in zh[1]


def test_history_ranks_each_sessions_money_in_the_book(tmp_path: Path, cli) -> None:
    cli.ok("session", "start", "--players", ",".join(FOUR))
    cli.ok("deal", "0", "3", "11", "8")
    from ledger.book import scope

    with open_ledger(Path(cli.ok("db", "path").strip())) as ledger:
        view = views.history(ledger, scope.select(ledger, None, True))
    assert [n for n, _v in view.lines[0].money] == ["陳大文", "Ben", "Dan", "Cat"]
    assert view.to_dict() == json.loads(cli.ok("history", "--all", "--json"))


def test_an_undo_says_what_it_took_back_and_the_deal_after(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _session(ledger)
        _deal(ledger, s, "0 3 11 8")
        book.amend_deal(ledger, s, 1, parse_deal_line("2 0 1 1", s.seats))
        view = views.undone_view(ledger, book.undo(ledger, ledger.journal.session(s.id)))
        data = view.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert {k: data[k] for k in ("action", "session", "deal", "line", "back", "current")} == {
            "action": "amend", "session": s.id, "deal": 1, "line": "陳大文=2 Ben=0 Cat=1 Dan=1",
            "back": "陳大文=0 Ben=3 Cat=11 Dan=8", "current": None}
        assert data["after"]["kind"] == "amend" and data["after"]["players"][0]["cards"] == 0
        book.end_session(ledger, ledger.journal.session(s.id))
        ended = views.undone_view(ledger, book.undo(ledger, ledger.journal.session(s.id)))
        assert ended.to_dict()["action"] == "session end" and ended.after is None
