"""A phone and a hub that recorded one session apart sync to the same standings (issue 20).

The phone's half runs :class:`ledger.engine.phone.Phone`, the very Python the offline app's
worker runs; the hub's half is ``bigtwo serve``'s app.  A sync is the hub's ``import`` of
the phone's ``export`` and then the phone's ``import`` of the hub's: both merge by entry
uuid, so a sync sent again, or cut off halfway and sent again, writes once.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from web.webhelpers import KEY, bearer, keyed, ledger_bytes

from ledger.engine.phone import Phone
from ledger.web.auth import viewer_token

KEEP = bearer(KEY)
VIEW = bearer(viewer_token(KEY))


def phone_call(phone: Phone, op: str, **args: Any) -> Any:
    reply = json.loads(phone.answer(op, json.dumps(args), "en"))
    assert "ok" in reply, reply
    return reply["ok"]


def recorded(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the ledger, table by table, but the keys of the imports it was sent."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND name != 'imports'")]
        return {t: conn.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in tables}
    finally:
        conn.close()


def push(client: Any, phone: Phone) -> dict[str, Any]:
    mine = phone_call(phone, "export")
    answer = client.post("/api/import", json={"text": mine["text"], "name": "phone.json"},
                         headers=keyed(KEEP))
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def pull(client: Any, phone: Phone) -> dict[str, Any]:
    theirs = client.get("/api/export", headers=KEEP)
    assert theirs.status_code == 200, theirs.text
    result: dict[str, Any] = phone_call(phone, "import", key=str(uuid.uuid4()),
                                        text=theirs.json()["text"], name="hub.json")
    return result


def agreed(board: dict[str, Any]) -> Any:
    return board["standings"]


def hub_board(client: Any, sid: int) -> Any:
    return client.get(f"/api/board?session={sid}", headers=KEEP).json()


def test_a_phone_and_the_hub_that_recorded_apart_sync_to_the_same_standings(client, db: Path,
                                                                           tmp_path: Path) -> None:
    record = lambda line: client.post("/api/record", json={"session": 1, "line": line},  # noqa: E731
                                      headers=keyed(KEEP))
    assert record("陳大文=0 Ben=3 Cat=11 Dan=8").status_code == 200
    phone = Phone(str(tmp_path / "phone" / "bigtwo.db"))
    assert pull(client, phone)["sessions_new"] == 1
    [mine] = phone_call(phone, "sessions")["sessions"]
    # Apart: the hub records two deals, the phone (offline) two and a void of deal 1.
    assert record("陳大文=5 Ben=0 Cat=2 Dan=9").status_code == 200
    assert record("陳大文=1 Ben=1 Cat=0 Dan=13").status_code == 200
    for line in ("陳大文=0 Ben=4 Cat=4 Dan=4", "陳大文=7 Ben=7 Cat=7 Dan=0"):
        phone_call(phone, "record", key=str(uuid.uuid4()), session=mine["id"], line=line)
    phone_call(phone, "void", key=str(uuid.uuid4()), session=mine["id"], deal=1)

    pushed = push(client, phone)
    assert pushed["entries_added"] == 3 and [r["file"] for r in pushed["renumbered"]] == [2, 3]
    # The pull is cut off: the phone never hears the answer; it syncs again.
    client.get("/api/export", headers=KEEP)
    again = push(client, phone)
    assert again["entries_added"] == 0 and again["conflicts"] == []
    pulled = pull(client, phone)
    assert pulled["entries_added"] == 2 and pulled["conflicts"] == []
    phone_board = phone_call(phone, "board", session=mine["id"])
    assert agreed(phone_board) == agreed(hub_board(client, 1))
    assert len(phone_board["deals"]) == 4  # deal 1 void on both; 2 + 2 deals made apart
    # Nothing doubled however often it syncs (each sync's key is kept: one key, one action).
    before = recorded(db)
    assert push(client, phone)["entries_added"] == 0
    assert pull(client, phone)["entries_added"] == 0
    assert recorded(db) == before
    # A payment marked on the phone syncs too (by its uuid, once).
    phone_call(phone, "pay", key=str(uuid.uuid4()), session=mine["id"], **{"from": "Dan", "to": "Ben"},
               amount="1")
    assert push(client, phone)["payments_added"] == 1
    assert push(client, phone).get("payments_added", 0) == 0
    assert pull(client, phone).get("payments_added", 0) == 0
    # Ending the evening on the phone is an entry too: the hub's session ends with it;
    # reopened on the hub, the phone's opens again.
    phone_call(phone, "end", key=str(uuid.uuid4()), session=mine["id"])
    push(client, phone)
    assert hub_board(client, 1)["session"]["ended_at"] is not None
    assert client.post("/api/reopen", json={"session": 1}, headers=keyed(KEEP)).status_code == 200
    pull(client, phone)
    assert phone_call(phone, "board", session=mine["id"])["session"]["ended_at"] is None
    # The log on the hub shows what the merge did: every entry, the phone's among them.
    log = client.get("/api/log?session=1", headers=KEEP).json()
    assert len(log) >= 6


def test_a_viewer_cannot_push_and_a_push_may_be_larger_than_a_deal(client, db: Path,
                                                                   tmp_path: Path) -> None:
    phone = Phone(str(tmp_path / "phone" / "bigtwo.db"))
    mine = phone_call(phone, "export")
    before = ledger_bytes(db)
    refused = client.post("/api/import", json={"text": mine["text"]}, headers=keyed(VIEW))
    assert refused.status_code == 403
    # An export of a long evening is far beyond a deal's 16 KB body limit.
    session = phone_call(phone, "start", key=str(uuid.uuid4()), players=["陳大文", "李小明", "José", "Dan"],
                         rules="classic")
    for _ in range(120):
        phone_call(phone, "record", key=str(uuid.uuid4()), session=session["id"],
                   line="陳大文=0 李小明=3 José=11 Dan=8")
    big = phone_call(phone, "export")["text"]
    assert len(big.encode()) > 16 * 1024
    assert client.post("/api/record", json={"session": 1, "line": big[:20000]},
                       headers=keyed(KEEP)).status_code == 413
    assert ledger_bytes(db) == before
    pushed = client.post("/api/import", json={"text": big, "name": "phone.json"}, headers=keyed(KEEP))
    assert pushed.status_code == 200, pushed.text
    assert pushed.json()["entries_added"] == 120


def test_a_push_that_is_no_export_changes_nothing(client, db: Path) -> None:
    before = ledger_bytes(db)
    bad = client.post("/api/import", json={"text": '{"format": "other", "version": 1, "sessions": []}',
                                           "name": "phone.json"}, headers=keyed(KEEP))
    assert bad.status_code == 400 and "not a bigtwo-ledger export" in bad.json()["message"]
    assert "bigtwo export" not in bad.json()["message"]  # the CLI's advice, never the phone's
    assert ledger_bytes(db) == before


def test_pay_ids_sync_between_the_keepers_devices_and_never_to_a_viewer(client, db: Path,
                                                                        tmp_path: Path) -> None:
    """Pay ids ride a sync (the export's pay_ids, as --with-pay-ids) both ways and to a
    second phone of the scorekeeper, each once by its uuid; a viewer's export never
    carries them, even when it asks; the phone's own download leaves them out."""
    from ledger.storage.store import open_ledger

    assert client.post("/api/record", json={"session": 1, "line": "陳大文=0 Ben=3 Cat=11 Dan=8"},
                       headers=keyed(KEEP)).status_code == 200
    phone = Phone(str(tmp_path / "phone" / "bigtwo.db"))
    other = Phone(str(tmp_path / "other" / "bigtwo.db"))

    def sync(device: Phone) -> tuple[dict[str, Any], dict[str, Any]]:
        mine = phone_call(device, "export", pay_ids=True)
        pushed = client.post("/api/import", json={"text": mine["text"], "name": "phone.json"},
                             headers=keyed(KEEP))
        assert pushed.status_code == 200, pushed.text
        theirs = client.get("/api/export?pay_ids=true", headers=KEEP)
        assert theirs.status_code == 200, theirs.text
        return pushed.json(), phone_call(device, "import", key=str(uuid.uuid4()),
                                         text=theirs.json()["text"], name="hub.json")

    try:
        sync(phone)
        phone_call(phone, "set_pay_id", key=str(uuid.uuid4()), player="Ben", scheme="fps",
                   id="+852 9123 4567")
        assert client.post("/api/set_pay_id", json={"player": "Dan", "scheme": "text", "id": "wxp://f2f0abc"},
                           headers=keyed(KEEP)).status_code == 200
        pushed, pulled = sync(phone)
        assert pushed["pay_ids_added"] == 1 and pulled["pay_ids_added"] == 1
        with open_ledger(db) as ledger:
            hub_ids = ledger.pay_ids.current()
        assert hub_ids == {"Ben": [("fps", "+85291234567")], "Dan": [("text", "wxp://f2f0abc")]}
        again = sync(phone)  # sent again: nothing doubled
        assert [a.get("pay_ids_added", 0) for a in again] == [0, 0]
        sync(other)  # the scorekeeper's second phone
        coded = {p["to"]: p["pay_code"]["scheme"]
                 for p in phone_call(other, "settle", session=1, pay_codes=True)["payments"]
                 if p.get("pay_code")}
        assert coded == {p["to"]: p["pay_code"]["scheme"]
                         for p in client.get("/api/settle?session=1", headers=KEEP).json()["payments"]
                         if "pay_code" in p} and coded
        # A viewer's export: no pay id, asked or not; the phone's download: none either.
        for asked in ("/api/export?pay_ids=true", "/api/export"):
            seen = client.get(asked, headers=VIEW)
            assert seen.status_code == 200 and "pay_ids" not in json.loads(seen.json()["text"])
            assert "91234567" not in seen.text and "wxp://" not in seen.text
        assert "pay_ids" not in json.loads(phone_call(phone, "export")["text"])
        assert "pay_ids" in json.loads(client.get("/api/export?pay_ids=true", headers=KEEP).json()["text"])
    finally:
        phone.ledger.close()
        other.ledger.close()
