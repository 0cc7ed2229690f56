"""The engine interface (ledger/engine/dispatch.py) and its HTTP routes: every op named by its
session, writes at most once per idempotency key, errors by type."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from web.webhelpers import KEY, bearer, cli_json, keyed, ledger_bytes

from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger
from ledger.web.auth import viewer_token

KEEP = bearer(KEY)
VIEW = bearer(viewer_token(KEY))
LINE = "陳大文=0 Ben=3 Cat=11 Dan=8"


def test_the_engine_imports_no_server_library() -> None:
    """It runs in Pyodide too: nothing of the hub's stack, nor matplotlib."""
    heavy = ["starlette", "uvicorn", "jinja2", "segno", "matplotlib", "anyio", "typer"]
    code = ("import sys, ledger.engine.dispatch; "
            f"print([m for m in {heavy!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_retried_write_is_one_deal_with_the_first_answer(client, db: Path) -> None:
    key = str(uuid.uuid4())
    first = client.post("/api/record", json={"session": 1, "line": LINE},
                        headers={**KEEP, "Idempotency-Key": key})
    assert first.status_code == 200, first.text
    again = client.post("/api/record", json={"session": 1, "line": LINE},
                        headers={**KEEP, "Idempotency-Key": key})
    assert again.status_code == 200 and again.json() == first.json()
    assert [e["deal"] for e in cli_json(db, "log")] == [1]
    # The same key with another body: 422, nothing written.
    before = ledger_bytes(db)
    other = client.post("/api/record", json={"session": 1, "line": "陳大文=1 Ben=0 Cat=11 Dan=8"},
                        headers={**KEEP, "Idempotency-Key": key})
    assert other.status_code == 422 and "used already" in other.json()["message"]
    assert ledger_bytes(db) == before
    # Every write needs a key; a fresh one is a fresh deal.
    bare = client.post("/api/record", json={"session": 1, "line": LINE}, headers=KEEP)
    assert bare.status_code == 400 and "Idempotency-Key" in bare.json()["message"]
    assert client.post("/api/record", json={"session": 1, "line": LINE},
                       headers=keyed(KEEP)).json()["deal"] == 2


def test_a_double_tap_on_start_is_one_session(client, db: Path) -> None:
    body = {"players": ["李小明", "Ann", "Ben"], "rules": "three-player"}
    headers = keyed(KEEP)
    one, two = (client.post("/api/start", json=body, headers=headers) for _ in range(2))
    assert one.status_code == two.status_code == 200 and one.json() == two.json()
    assert [s["id"] for s in cli_json(db, "session", "list")] == [1, 2]


@pytest.mark.parametrize("path", [
    "/api/session?session=999", "/api/board?session=999", "/api/log?session=999",
    "/api/settle?session=999", "/api/standings?session=999", "/api/nothing", "/api/deal",
])
def test_not_found_is_404_without_cli_advice(client, path: str) -> None:
    answer = client.get(path, headers=VIEW)
    assert answer.status_code == 404, answer.text
    assert answer.json()["status"] == 404 and "see: bigtwo" not in answer.json()["message"]


def test_a_missing_deal_is_refused_in_the_pages_language(client) -> None:
    answer = client.post("/api/void", json={"session": 999, "deal": 1},
                         headers=keyed({**KEEP, "accept-language": "zh-HK"}))
    assert answer.status_code == 404 and "999" in answer.json()["message"]
    assert "bigtwo" not in answer.json()["message"]


def test_reads_are_get_and_writes_post(client) -> None:
    assert client.post("/api/board", json={"session": 1}, headers=keyed(KEEP)).status_code == 405
    assert client.get("/api/record?session=1&line=0", headers=KEEP).status_code == 405
    unknown = client.get("/api/board?session=1&sesion=2", headers=VIEW)
    assert unknown.status_code == 400 and "sesion" in unknown.json()["message"]
    assert client.get("/api/board", headers=VIEW).status_code == 400  # every table is named


def test_two_keepers_two_tables(client, db: Path) -> None:
    """A second keeper starting a table moves nobody: each call names its session."""
    assert client.post("/api/record", json={"session": 1, "line": LINE}, headers=keyed(KEEP)).json()[
        "session"] == 1
    other = client.post("/api/start", json={"players": "Ann,Bob,Cy,Di", "rules": "hong-kong"},
                        headers=keyed(KEEP)).json()
    assert other["id"] == 2
    assert client.post("/api/record", json={"session": 1, "line": "陳大文=2 Ben=0 Cat=1 Dan=8"},
                       headers=keyed(KEEP)).json()["deal"] == 2
    assert client.post("/api/record", json={"session": 2, "line": "Ann=0 Bob=3 Cy=4 Di=5"},
                       headers=keyed(KEEP)).json()["deal"] == 1
    first = client.get("/api/board?session=1", headers=VIEW).json()
    second = client.get("/api/board?session=2", headers=VIEW).json()
    assert first["session"]["players"] == ["陳大文", "Ben", "Cat", "Dan"] and first["next_deal"] == 3
    assert second["session"]["rules"] == "hong-kong" and second["next_deal"] == 2
    assert [d["deal"] for d in first["deals"]] == [2, 1]
    tables = client.get("/api/sessions", headers=VIEW).json()["sessions"]
    assert [(t["id"], t["open"]) for t in tables] == [(2, True), (1, True)]


def test_board_presets_and_last_setup(client, db: Path) -> None:
    client.post("/api/record", json={"session": 1, "line": LINE}, headers=keyed(KEEP))
    board = client.get("/api/board?session=1", headers=VIEW).json()
    assert board["session"]["hand_size"] == 13 and board["undo"]["action"] == "deal"
    assert board["undo"]["target"] == board["deals"][0]["uuid"]
    presets = client.get("/api/presets", headers={**VIEW, "accept-language": "zh-HK"}).json()
    names = [p["name"] for p in presets]
    assert names[0] == "classic" and "taiwan" in names
    assert all(p["description"] for p in presets)
    english = client.get("/api/presets", headers={**VIEW, "accept-language": "en"}).json()
    described = {p["name"]: p["description"] for p in presets}
    assert [p["name"] for p in english] == names  # the same rule sets, described in the request's language
    assert described["classic"] != english[0]["description"]
    assert any("\u4e00" <= c <= "\u9fff" for c in described["classic"]), described["classic"]
    last = client.get("/api/last_setup", headers=VIEW).json()
    assert last["players"] == ["陳大文", "Ben", "Cat", "Dan"] and last["stake"] == "0.5"
    again = client.post("/api/start", json={k: last[k] for k in (
        "players", "rule_set", "stake", "currency", "teams")}, headers=keyed(KEEP))
    assert again.status_code == 200, again.text
    assert again.json()["rule_set"] == last["rule_set"]


def test_amend_and_void_name_a_deal_by_its_uuid(client, db: Path) -> None:
    made = client.post("/api/record", json={"session": 1, "line": LINE}, headers=keyed(KEEP)).json()
    void = client.post("/api/void", json={"session": 1, "deal_uuid": made["entry"]}, headers=keyed(KEEP))
    assert void.status_code == 200 and void.json()["kind"] == "void" and void.json()["deal"] == 1
    fixed = client.post("/api/amend", json={"session": 1, "deal_uuid": made["entry"],
                                            "line": "陳大文=0 Ben=3 Cat=10 Dan=8"}, headers=keyed(KEEP))
    assert fixed.status_code == 200 and fixed.json()["deal"] == 1
    settle = client.get("/api/settle?session=1&round=1", headers=VIEW).json()
    assert settle == cli_json(db, "settle", "--round", "1")


def test_the_engine_without_http(db: Path) -> None:
    """The same call the phone's worker makes: plain dicts in, plain dicts out."""
    from ledger.core.errors import LedgerError
    from ledger.engine import dispatch as engine
    from ledger.storage.store import open_ledger

    with open_ledger(db) as ledger:
        key = str(uuid.uuid4())
        answer = engine.call(ledger, "record", {"session": 1, "line": LINE, "key": key})
        assert json.loads(json.dumps(answer)) == answer
        assert engine.call(ledger, "record", {"session": 1, "line": LINE, "key": key}) == answer
        with pytest.raises(LedgerError) as caught:
            engine.call(ledger, "board", {"session": 999})
        assert engine.error_dict(caught.value)["status"] == 404


@pytest.fixture
def a_new_op() -> Any:
    """``deal_count``, an op declared here and nowhere else (taken away after the test)."""
    from ledger.engine.declare import OPS, op

    def deal_count(ledger: Ledger, session: SessionRow) -> Any:
        """`{"deals": 3}`: how many deals the session counts."""
        return {"deals": ledger.journal.session(session.id).deals}

    op()(deal_count)
    try:
        yield deal_count
    finally:
        del OPS["deal_count"]


def test_adding_an_op_is_one_function(a_new_op: Any, client, db: Path, tmp_path: Path) -> None:
    """One declared function: the hub serves it, the phone's worker answers it, and the
    JavaScript op list and the docs' table (scripts/make_ops.py) have it — no other edit."""
    import importlib.util

    from ledger.engine.phone import Phone

    client.post("/api/record", json={"session": 1, "line": LINE}, headers=keyed(KEEP))
    assert client.get("/api/deal_count?session=1", headers=VIEW).json() == {"deals": 1}
    assert client.post("/api/deal_count", json={"session": 1}, headers=keyed(KEEP)).status_code == 405
    assert client.get("/api/deal_count?session=1&x=2", headers=VIEW).status_code == 400
    phone = Phone(str(tmp_path / "phone" / "bigtwo.db"))
    assert json.loads(phone.answer("deal_count", '{"session": 7}', "en"))["error"]["status"] == 404
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("make_ops", root / "scripts" / "make_ops.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert '{"name": "deal_count", "method": "GET", "write": false, "args": [{"name": "session"' in tool.js()
    assert ("| `deal_count` | `session` | `{\"deals\": 3}`: how many deals the session counts. |"
            in tool.table(False))
