"""Every action is an entry: the one order, undo over every kind, idempotent writes."""

from __future__ import annotations

import json
import sqlite3
import uuid

import pytest

from ledger.book import actions as book
from ledger.core.errors import InputError, KeyReused
from ledger.core.rules import load_preset
from ledger.core.scoring import Deal
from ledger.storage.store import open_ledger

SEATS = ["Ann", "Ben", "Cat"]


def key() -> str:
    return str(uuid.uuid4())


def deal(ann: int, ben: int, cat: int) -> Deal:
    return Deal(cards={"Ann": ann, "Ben": ben, "Cat": cat})


@pytest.fixture
def led(ledger_path):
    with open_ledger(ledger_path) as ledger:
        yield ledger


@pytest.fixture
def s(led):
    return book.start_session(led, SEATS, load_preset("classic"), 1, "PTS", "", False)


def fresh(led, s):
    return led.journal.session(s.id)


def net(led, s) -> dict[str, int]:
    from ledger.book import reports

    return {p.name: p.net for p in reports.standings(led, [fresh(led, s)]).players}


def test_end_void_undo_undo_reopens_the_session(led, s):
    book.record_deal(led, s, deal(0, 3, 7))
    book.record_deal(led, s, deal(4, 0, 1))
    both = net(led, s)
    book.end_session(led, fresh(led, s))
    book.void_deal(led, fresh(led, s), 1)
    first = book.undo(led, fresh(led, s))
    assert (first.action, first.deal_no, first.restored) == ("void", 1, deal(0, 3, 7).to_dict())
    second = book.undo(led, fresh(led, s))
    assert second.action == "session end"
    assert fresh(led, s).ended_at is None and net(led, s) == both  # no real deal taken back
    third = book.undo(led, fresh(led, s))
    assert (third.action, third.deal_no) == ("deal", 2)


def test_reopen_is_an_action_undo_takes_back(led, s):
    book.record_deal(led, s, deal(0, 3, 7))
    book.end_session(led, fresh(led, s))
    with pytest.raises(InputError, match="ended"):
        book.record_deal(led, fresh(led, s), deal(0, 1, 1))
    book.reopen_session(led, fresh(led, s))
    assert fresh(led, s).ended_at is None
    with pytest.raises(InputError, match="is open"):
        book.reopen_session(led, fresh(led, s))
    assert book.undo_preview(led, fresh(led, s)).action == "session reopen"
    assert book.undo(led, fresh(led, s)).action == "session reopen"
    assert fresh(led, s).ended_at is not None
    assert book.undo(led, fresh(led, s)).action == "session end"


def test_undo_of_a_start_is_an_entry_and_the_session_is_gone(led, s):
    preview = book.undo_preview(led, s)
    assert preview is not None and preview.action == "session start"
    assert preview.target == s.start_uuid
    assert book.undo_preview(led, s, session_start=False) is None
    undone = book.undo(led, s)
    assert undone.action == "session start" and undone.current is None
    assert led.journal.sessions() == [] and led.journal.session_ids() == []
    kinds = led.conn.execute("SELECT kind, undoes IS NOT NULL FROM entries ORDER BY id").fetchall()
    assert kinds == [("start", 0), ("undo", 1)]  # nothing deleted


def test_the_preview_says_what_undo_takes_back_and_changes_nothing(led, s):
    book.record_deal(led, s, deal(0, 3, 7))
    book.amend_deal(led, s, 1, deal(0, 4, 7))
    count = led.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    preview = book.undo_preview(led, s)
    assert preview.to_dict() | {"at": None, "target": None} == {
        "action": "amend", "session": s.id, "target": None, "at": None, "deal": 1,
        "facts": deal(0, 4, 7).to_dict(), "restored": deal(0, 3, 7).to_dict()}
    assert led.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == count
    undone = book.undo(led, s)
    assert undone.entry is not None and undone.entry.undoes == preview.target


def test_a_repeated_write_writes_nothing_and_returns_the_same(led, s):
    k = key()
    first = book.record_deal(led, s, deal(0, 3, 7), entry_uuid=k)
    count = led.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    again = book.record_deal(led, s, deal(0, 3, 7), entry_uuid=k)
    assert again == first
    assert led.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == count
    with pytest.raises(KeyReused, match=k) as caught:
        book.record_deal(led, s, deal(0, 4, 7), entry_uuid=k)
    assert caught.value.status == 422
    for action in (lambda u: book.amend_deal(led, s, 1, deal(0, 5, 7), entry_uuid=u),
                   lambda u: book.void_deal(led, s, 1, entry_uuid=u),
                   lambda u: book.end_session(led, fresh(led, s), entry_uuid=u)):
        u = key()
        one = action(u)
        count = led.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        assert action(u) == one
        assert led.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == count
        with pytest.raises(KeyReused):
            book.undo(led, fresh(led, s), entry_uuid=k)  # a deal's key is no undo's
    u = key()
    undone = book.undo(led, fresh(led, s), entry_uuid=u)
    again = book.undo(led, fresh(led, s), entry_uuid=u)
    assert again._replace(session=None) == undone._replace(session=None)  # session: as now
    assert fresh(led, s).ended_at is None  # one undo: the end taken back once


def test_a_deal_sent_again_after_the_end_is_still_that_deal(led, s):
    k = key()
    first = book.record_deal(led, s, deal(0, 3, 7), entry_uuid=k)
    book.end_session(led, fresh(led, s))
    assert book.record_deal(led, fresh(led, s), deal(0, 3, 7), entry_uuid=k) == first


def test_a_repeated_start_returns_the_session(led):
    sid, start = key(), key()
    one = book.start_session(led, SEATS, load_preset("classic"), 1, "PTS", "x", False,
                             session_uuid=sid, entry_uuid=start)
    assert one.uuid == sid and one.start_uuid == start
    again = book.start_session(led, SEATS, load_preset("classic"), 1, "PTS", "x", False,
                               session_uuid=sid, entry_uuid=start)
    assert again == one and len(led.journal.sessions()) == 1
    with pytest.raises(KeyReused):
        book.start_session(led, SEATS, load_preset("classic"), 2, "PTS", "x", False,
                           session_uuid=sid)
    with pytest.raises(InputError, match="not a uuid"):
        book.record_deal(led, one, deal(0, 3, 7), entry_uuid="not-a-key")


def test_two_quick_actions_keep_their_order(led, s, monkeypatch):
    from ledger.storage import journal

    monkeypatch.setattr(journal, "now", lambda: "2026-01-01T00:00:00.000000+00:00")
    book.record_deal(led, s, deal(0, 3, 7))
    book.void_deal(led, s, 1)
    times = [r[0] for r in led.conn.execute(
        "SELECT created_at FROM entries WHERE session_id = ? ORDER BY id", [s.id])]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert book.undo(led, s).action == "void"  # the later one, though the clock stood still


def test_the_order_is_by_time_then_uuid_not_by_id(led, s):
    """An entry imported from another device with an earlier time sits where its time
    puts it: the stack follows created_at, then uuid."""
    book.record_deal(led, s, deal(0, 3, 7))
    late = book.record_deal(led, s, deal(4, 0, 1))
    early_end = "2000-01-01T00:00:00.000000+00:00"
    with led.writing():
        led.journal.end_session(s.id, at=early_end)  # written last, ordered first
    assert book.undo_preview(led, fresh(led, s)).target == late.entry.uuid


def test_exported_and_imported_the_stack_and_standings_are_the_same(cli, ledger_path, tmp_path):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=7")
    cli.ok("deal", "Ann=4", "Ben=0", "Cat=1")
    cli.ok("session", "end")
    cli.ok("void", "1")
    cli.ok("undo")
    cli.ok("session", "start", "--players", "Dan,Eve")
    cli.ok("undo")  # the start of session 2, taken back
    out = tmp_path / "all.json"
    cli.ok("export", "--all", "--out", str(out))
    other = str(tmp_path / "other.db")
    cli.ok("--db", other, "import", str(out))
    cli.ok("--db", other, "import", str(out))  # idempotent
    for db in (str(ledger_path), other):
        assert json.loads(cli.ok("--db", db, "standings", "--json"))["players"] == \
            json.loads(cli.ok("--db", str(ledger_path), "standings", "--json"))["players"]
    with open_ledger(ledger_path) as a, open_ledger(other) as b:
        assert book.undo_preview(a, a.journal.session(1)) == \
            book.undo_preview(b, b.journal.session(1))
        kinds = [(e.kind, e.uuid, e.undoes) for e in a.journal.actions(1)]
        assert kinds == [(e.kind, e.uuid, e.undoes) for e in b.journal.actions(1)]
    assert "the end of session 1" in cli.ok("--db", other, "undo", "--session", "1")


def test_session_reopen_on_the_command_line(cli):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=7")
    cli.ok("session", "end")
    assert cli.ok("session", "reopen").startswith("reopened session 1")
    assert "is open; only an ended session can be reopened" in cli.fails("session", "reopen", "1")
    cli.ok("deal", "Ann=4", "Ben=0", "Cat=1")
    assert "no session 7" in cli.fails("session", "reopen", "7")
    assert "the end" not in cli.ok("undo")  # the deal first
    assert "the reopening of session 1" in cli.ok("undo")
    assert json.loads(cli.ok("session", "list", "--json"))[0]["ended_at"] is not None


def test_no_journal_row_can_be_changed(led, s):
    book.record_deal(led, s, deal(0, 3, 7))
    book.end_session(led, fresh(led, s))
    for sql in ("UPDATE entries SET created_at = created_at", "DELETE FROM entries",
                "UPDATE sessions SET name = 'x'", "DELETE FROM sessions",
                "UPDATE seats SET seat = seat", "DELETE FROM seats"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            led.conn.execute(sql)
