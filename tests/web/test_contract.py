"""One record per question: the hub's answer to every op is a view record's ``to_dict()``,
the same dict the command line's ``--json`` prints where a command answers the same
question (docs/serve.md's tables and pieces are written from the same records:
tests/engine/test_op_declarations.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from web.conftest import start
from web.webhelpers import KEY, bearer, bigtwo, cli_json, keyed

from ledger.web.auth import viewer_token

KEEP = bearer(KEY)
VIEW = bearer(viewer_token(KEY))
IDS = re.compile(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}"
                 r"|\d{4}-\d\d-\d\dT[\d:.]+([+-]\d\d:\d\d|Z)?")

# (op, its arguments, the same action on the command line)
STEPS = [
    ("record", {"line": "陳大文=0 Ben=3 Cat=11 Dan=8"}, ["deal", "陳大文=0", "Ben=3", "Cat=11", "Dan=8"]),
    ("record", {"line": "陳大文=5 Ben=0 Cat=2 Dan=9"}, ["deal", "陳大文=5", "Ben=0", "Cat=2", "Dan=9"]),
    ("amend", {"deal": 2, "line": "陳大文=5 Ben=0 Cat=3 Dan=9"},
     ["amend", "2", "陳大文=5", "Ben=0", "Cat=3", "Dan=9"]),
    ("void", {"deal": 1}, ["void", "1"]),
    ("undo", {}, ["undo"]),  # the void taken back
    ("undo", {}, ["undo"]),  # the amend taken back
    ("record", {"line": "陳大文=13 Ben=1 Cat=0 Dan=4"}, ["deal", "陳大文=13", "Ben=1", "Cat=0", "Dan=4"]),
    ("end", {}, ["session", "end"]),
    ("undo", {}, ["undo"]),  # the end taken back
]


def plain(value: Any) -> Any:
    """JSON as it travels, with the uuids and clock times (made apart) masked."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return json.loads(IDS.sub("<id>", text))


def test_each_write_answers_what_the_cli_prints_for_it(client, db: Path, tmp_path: Path) -> None:
    """``POST /api/record`` (amend, void, undo, pay) answers exactly ``bigtwo deal LINE
    --json`` (amend, void, undo, paid) for the same action on a twin ledger, apart from
    ids and times."""
    twin = tmp_path / "twin.db"
    start(twin)
    for op, args, words in STEPS:
        answer = client.post(f"/api/{op}", json={"session": 1, **args}, headers=keyed(KEEP))
        assert answer.status_code == 200, (op, answer.text)
        if op == "end":
            bigtwo(twin, *words)  # session end prints its own text; the op answers the card
            continue
        assert plain(answer.json()) == plain(cli_json(twin, *words)), (op, args)
    assert [e["kind"] for e in cli_json(db, "log")] == [e["kind"] for e in cli_json(twin, "log")]
    paid = client.post("/api/pay", json={"session": 1, "from": "Dan", "to": "陳大文", "amount": "1.50"},
                       headers=keyed(KEEP))
    assert paid.status_code == 200, paid.text
    assert plain(paid.json()) == plain(cli_json(twin, "paid", "Dan", "陳大文", "1.50", "--session", "1"))


def test_each_read_is_its_record_and_the_clis_json(client, db: Path) -> None:
    from ledger.book import reports, views
    from ledger.core.deal_line import parse_deal_line
    from ledger.storage.store import open_ledger

    for op, args, _words in STEPS[:4]:
        assert client.post(f"/api/{op}", json={"session": 1, **args}, headers=keyed(KEEP)).is_success
    line = "陳大文=0 Ben=1 Cat=2 Dan=3"
    with open_ledger(db) as ledger:
        s = ledger.journal.session(1)
        from ledger.book.actions import session_rules

        undo = views.undo_preview(ledger, s, session_start=False)
        records = {
            "sessions": views.session_page(ledger).to_dict(),
            "session": views.session_card(s).to_dict(),
            "board": views.board(ledger, s).to_dict(),
            "standings": reports.standings(ledger, [s]).to_dict(),
            "log": views.log(ledger, s).to_dict(),
            "deals": views.deal_lines(ledger, s).to_dict(),
            "preview": views.deal_preview(s, parse_deal_line(line, s.seats, session_rules(s))).to_dict(),
            "undo_preview": None if undo is None else undo.to_dict(),
            "last_setup": views.last_setup(ledger).to_dict(),  # type: ignore[union-attr]
        }
    asked = {"preview": {"line": line}}
    for op, record in records.items():
        params = {"session": 1, **asked.get(op, {})} if op not in ("sessions", "last_setup") else {}
        answer = client.get(f"/api/{op}", params=params, headers=VIEW)
        assert answer.status_code == 200, (op, answer.text)
        assert answer.json() == json.loads(json.dumps(record, default=str)), op
    # Where a command answers the same question, its --json is the same dict.
    for op, words in (("standings", ["standings"]), ("settle", ["settle"]), ("log", ["log"]),
                      ("history", ["history", "--all"])):
        params = {} if op == "history" else {"session": 1}
        assert client.get(f"/api/{op}", params=params, headers=VIEW).json() == cli_json(db, *words), op
    assert client.get("/api/settle", params={"session": 1, "round": "1"}, headers=VIEW).json() == (
        cli_json(db, "settle", "--round", "1"))
    assert client.get("/api/history", params={"player": "Ben"}, headers=VIEW).json() == (
        cli_json(db, "history", "--all", "--player", "Ben"))
    # The board's pieces are the other ops' records: one shape for each question.
    board = client.get("/api/board", params={"session": 1}, headers=VIEW).json()
    assert board["session"] == records["session"] and board["undo"] == records["undo_preview"]
    assert board["standings"] == records["standings"] and board["deals"] == records["deals"][:10]
    after = client.post("/api/record", json={"session": 1, "line": line}, headers=keyed(KEEP)).json()
    assert after["next"] == client.get("/api/board", params={"session": 1}, headers=VIEW).json()["next"]
    assert set(after["next"]) == {"dealers", "leader", "opener", "leaders", "twin", "text"}


def test_the_sessions_op_is_a_page_of_the_session_list(client, db: Path) -> None:
    """``GET /api/sessions`` is a :class:`SessionPage`: each session as ``bigtwo session list
    --json`` gives it (no rule set) with ``open``, newest first, the total and a cursor
    that ``before`` continues from; a crafted cursor is one 400."""
    start(db, name="Saturday", rules="hong-kong")
    listed = list(reversed(cli_json(db, "session", "list")))
    first = client.get("/api/sessions", params={"limit": 1}, headers=VIEW).json()
    assert first["total"] == len(listed) == 2 and first["next"]
    rest = client.get("/api/sessions", params={"before": first["next"]}, headers=VIEW).json()
    assert rest["next"] is None
    pages = first["sessions"] + rest["sessions"]
    assert [{k: v for k, v in s.items() if k != "open"} for s in pages] == listed
    assert all(s["open"] is (s["ended_at"] is None) and "rule_set" not in s for s in pages)
    found = client.get("/api/sessions", params={"q": "hong"}, headers=VIEW).json()
    assert found["total"] == 0  # the rules are no search: names, players and numbers are
    found = client.get("/api/sessions", params={"q": "陳大文"}, headers=VIEW).json()
    assert found["total"] == 2
    bad = client.get("/api/sessions", params={"before": "bm90IGEgZGF0ZSAx"}, headers=VIEW)
    assert bad.status_code == 400 and "is not a cursor of this list" in bad.json()["error"]
    assert client.get("/api/sessions", params={"limit": 500}, headers=VIEW).status_code == 400
