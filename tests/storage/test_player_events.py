"""player_events and the player_names view (migration m004): the one place where a
player id is resolved to the id it counts as and the name shown for it."""

from __future__ import annotations

import sqlite3

import pytest

from ledger.storage.store import open_ledger


@pytest.fixture
def ledger(tmp_path):
    with open_ledger(tmp_path / "l.db") as led:
        with led.writing():
            for name in ("Ann", "陳大文", "李小明"):
                led.player_id(name, create=True)
        yield led


def _shown(led):
    return {p.typed_name: (p.name, p.canon_id) for p in led.players.names().values()}


def test_rename_changes_the_shown_name_only(ledger):
    ids = ledger.journal.player_ids()
    with ledger.writing():
        ledger.players.add_event("rename", ids["Ann"], name="Anna")
    assert _shown(ledger)["Ann"] == ("Anna", ids["Ann"])
    assert ledger.journal.player_ids()["Ann"] == ids["Ann"]  # the typed name is kept


def test_merges_are_followed_and_undone_by_reversal(ledger):
    ids = ledger.journal.player_ids()
    with ledger.writing():
        first = ledger.players.add_event("merge", ids["Ann"], into_id=ids["陳大文"])
        ledger.players.add_event("merge", ids["陳大文"], into_id=ids["李小明"])
        ledger.players.add_event("rename", ids["李小明"], name="Lee")
    assert _shown(ledger)["Ann"] == ("Lee", ids["李小明"])
    with ledger.writing():
        ledger.players.add_event("undo", ids["Ann"], undoes=first.id)
    assert _shown(ledger)["Ann"] == ("Ann", ids["Ann"])
    assert _shown(ledger)["陳大文"] == ("Lee", ids["李小明"])
    assert ledger.players.last_live_event().kind == "rename"
    assert [e.kind for e in ledger.players.events()] == ["merge", "merge", "rename", "undo"]


def test_events_are_append_only(ledger):
    ids = ledger.journal.player_ids()
    with ledger.writing():
        event = ledger.players.add_event("rename", ids["Ann"], name="Anna")
    for sql in ("UPDATE player_events SET name = 'x'", "DELETE FROM player_events"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            ledger.conn.execute(sql)
    with pytest.raises(sqlite3.IntegrityError), ledger.writing():  # one undo per event
        ledger.players.add_event("undo", ids["Ann"], undoes=event.id)
        ledger.players.add_event("undo", ids["Ann"], undoes=event.id)
    assert len(ledger.players.events()) == 1


def test_seated_together_follows_merges(ledger):
    with ledger.writing():
        ledger.journal.add_session(seats=["Ann", "Ben", "Cat", "Dan"], name="s", rules={},
                                   stake="0", currency=None, teams=False)
    ids = ledger.journal.player_ids()
    assert ledger.players.seated_together(ids["Ann"], ids["Ben"])
    assert not ledger.players.seated_together(ids["Ann"], ids["李小明"])
    with ledger.writing():
        ledger.players.add_event("merge", ids["陳大文"], into_id=ids["Ben"])
    assert ledger.players.seated_together(ids["Ann"], ids["Ben"])
    assert not ledger.players.seated_together(ids["陳大文"], ids["李小明"])


def test_doctor_full_is_clean_after_renames_merges_and_undos(cli, ledger_path):
    from ledger.book import doctor

    cli.ok("session", "start", "--players", "陳大文,李小明,Ann,Ben")
    cli.ok("deal", "陳大文=0", "李小明=3", "Ann=5", "Ben=7")
    cli.ok("session", "start", "--players", "Cat,李小明,Ann,Dan")
    cli.ok("deal", "Cat=0", "李小明=3", "Ann=5", "Dan=7")
    with open_ledger(ledger_path) as led:
        ids = led.journal.player_ids()
        with led.writing():
            led.players.add_event("rename", ids["陳大文"], name="Chan Tai-man")
            merge = led.players.add_event("merge", ids["Cat"], into_id=ids["陳大文"])
            led.players.add_event("undo", ids["Cat"], undoes=merge.id)
            led.players.add_event("merge", ids["Dan"], into_id=ids["Ben"])
        report = doctor.check_ledger(led, full=True)
        assert report.problems() == []
        assert led.inspection.missing_guards() == []
        assert led.inspection.schema_differences() == []
    assert cli.ok("doctor", "--full").startswith("ok:")
