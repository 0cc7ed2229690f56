"""``bigtwo doctor``: a sound ledger passes; every kind of damage is found and named.

Damage is made on purpose by dropping the append-only triggers in the test only
(they are put back before the doctor runs, so only the damaged value is found).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from ledger.book import actions as book
from ledger.book import doctor
from ledger.core.rules import load_preset
from ledger.core.scoring import Deal, score_deal
from ledger.formats import samples
from ledger.storage.raw_rows import RawEntry, RawPoints
from ledger.storage.rows import PointsRow
from ledger.storage.store import open_ledger

GUARDS = [(t, op) for t in ("entries", "points", "audit", "player_events", "sessions", "seats",
                            "seasons", "payments", "imports", "pay_ids")
          for op in ("update", "delete")]


def load_samples(path: Path) -> None:
    with open_ledger(path) as ledger:
        for f in sorted(samples.samples_dir().glob("*.toml")):
            samples.load_file(ledger, f)


def tamper(path: Path, *statements: str, keep_guards_off: bool = False) -> None:
    """Change stored rows behind the ledger's back, as a bad disk or a hand edit would."""
    conn = sqlite3.connect(path, isolation_level=None)
    saved = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                              "AND name LIKE '%_no_%'").fetchall())
    for name in saved:
        conn.execute(f"DROP TRIGGER {name}")
    for sql in statements:
        conn.execute(sql)
    if not keep_guards_off:
        for sql in saved.values():
            conn.execute(sql)
    conn.close()


def player_id(path: Path, name: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()[0]
    finally:
        conn.close()


def entry_id(path: Path, session: int, seq: int) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT id FROM entries WHERE session_id = ? AND seq = ?",
                            [session, seq]).fetchone()[0]
    finally:
        conn.close()


@pytest.fixture
def evening(ledger_path: Path) -> Path:
    """Every sample session: classic, pay-the-winner, doubling, dragon, HK, teams, undo, amend."""
    load_samples(ledger_path)
    return ledger_path


def findings(cli) -> list[dict]:
    result = cli("doctor", "--json")
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)["findings"]


# --- a sound ledger -------------------------------------------------------------------


def test_a_sound_ledger_passes(cli, evening):
    out = cli.ok("doctor")
    assert out.startswith("ok: 9 sessions, 46 entries, 43 live deals")
    report = json.loads(cli.ok("doctor", "--json", "--full"))
    assert report["ok"] is True and report["findings"] == [] and report["integrity"] == ["ok"]


@pytest.mark.no_ledger
def test_no_ledger_yet_is_a_clean_error(cli, ledger_path):
    stderr = cli.fails("doctor", code=1)
    assert "no ledger" in stderr
    assert not ledger_path.exists()


def test_corrections_in_any_order_stay_sound(cli):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan", "--rules", "pay-the-winner")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("deal", "Ann=5", "Ben=0", "Cat=2", "Dan=7")
    cli.ok("amend", "1", "Ann=5", "Ben=0", "Cat=2", "Dan=7")  # the winner (payee) changes
    cli.ok("amend", "1", "Ann=5", "Ben=2", "Cat=0", "Dan=7")
    cli.ok("void", "1")
    cli.ok("amend", "1", "Ann=0", "Ben=1", "Cat=1", "Dan=1")
    cli.ok("undo")  # takes back the last amend: deal 1 is void again
    cli.ok("undo")  # takes back the void: deal 1 is Ann=5 Ben=2 Cat=0 Dan=7 again
    cli.ok("amend", "2", "Ann=1", "Ben=0", "Cat=2", "Dan=7")
    assert cli.ok("doctor").startswith("ok: 1 session, 9 entries, 2 live deals")
    players = json.loads(cli.ok("standings", "--json"))["players"]
    assert {p["name"]: (p["deals"], p["net"]) for p in players} == {
        "Ann": (2, -6), "Ben": (2, 8), "Cat": (2, 12), "Dan": (2, -14)}


def test_voiding_an_amended_deal_removes_it(cli):
    """Regression: a void used to negate only the amend entry, which holds the reversal
    of the version before it too, so the original deal came back."""
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("amend", "1", "Ann=5", "Ben=0", "Cat=2", "Dan=7")
    cli.ok("void", "1")
    players = json.loads(cli.ok("standings", "--json"))["players"]
    assert all(p["deals"] == 0 and p["net"] == 0 and p["penalty"] == 0 for p in players)
    cli.ok("doctor")


# --- damage, named ----------------------------------------------------------------------


def test_a_changed_net_names_the_deal_expected_stored_and_difference(cli, evening):
    # Deal 5 of the evening: Ann=13 Ben=8 Cat=0 Dan=6, classic pairwise: Ben's net is
    # Σp − 4·p = 53 − 32 = +21.  Make it 18.
    ben, deal5 = player_id(evening, "Ben"), entry_id(evening, 1, 5)
    tamper(evening, f"UPDATE points SET net = 18 WHERE entry_id = {deal5} AND player_id = {ben}")
    result = cli("doctor")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "session 1 deal 5 (entry 5, deal): Ben net: expected 21, stored 18, difference -3" in lines
    assert ("session 1 deal 5 (entry 5, deal): net points summed over players: expected 0, "
            "stored -3, difference -3") in lines
    assert lines[-1].startswith(f"{len(lines) - 1} problems found")
    found = findings(cli)
    first = next(f for f in found if f["what"] == "Ben net")
    assert (first["expected"], first["stored"], first["difference"]) == (21, 18, -3)
    assert first["where"] == "session 1 deal 5 (entry 5, deal)"


def test_changed_facts_are_re_derived(cli, evening):
    deal3 = entry_id(evening, 1, 3)  # Ann=9 Ben=4 Cat=0 Dan=1: Ann's penalty 9
    facts = json.dumps({"cards": {"Ann": 10, "Ben": 4, "Cat": 0, "Dan": 1}}, sort_keys=True)
    tamper(evening, f"UPDATE entries SET facts = '{facts}' WHERE id = {deal3}")
    found = {f["what"]: f for f in findings(cli) if f["where"] == "session 1 deal 3 (entry 3, deal)"}
    # 10 cards is fried (x2): Ann's penalty would be 20, not the 9 stored.
    assert (found["Ann penalty"]["expected"], found["Ann penalty"]["stored"]) == (20, 9)
    assert found["Ann fried"]["difference"] == -1


def test_a_missing_row_is_found(cli, evening):
    dan, deal7 = player_id(evening, "Dan"), entry_id(evening, 1, 7)
    tamper(evening, f"DELETE FROM points WHERE entry_id = {deal7} AND player_id = {dan}")
    texts = [f["text"] for f in findings(cli)]
    assert "session 1 deal 7 (live, net of reversals): Dan rows: expected 1, stored 0, difference -1" in texts
    assert any(t.startswith("session 1 deal 7 (entry 7, deal): Dan net: expected") for t in texts)


def test_a_void_that_does_not_cancel_is_found(cli, evening):
    # Entry 17 of the evening is the undo of deal 16 (Ann=7 Ben=0 Cat=13 Dan=1).
    cat, undo = player_id(evening, "Cat"), entry_id(evening, 1, 17)
    tamper(evening, f"UPDATE points SET penalty = penalty + 1 WHERE entry_id = {undo} "
                    f"AND player_id = {cat}")
    found = [f for f in findings(cli) if f["where"] == "session 1 deal 16 (entry 17, void)"]
    assert [(f["what"], f["expected"], f["stored"]) for f in found] == [("Cat penalty", -39, -38)]


def test_orphan_rows_are_found(cli, evening):
    ann = player_id(evening, "Ann")
    tamper(
        evening,
        "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, penalty, "
        f"net) VALUES (9999, 1, {ann}, 1, 0, 0, 3, 3, -3)",
        f"INSERT INTO seats (session_id, seat, player_id) VALUES (77, 1, {ann})",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) "
        "VALUES ('orphan-entry', 42, 1, 'void', 1, NULL, '2025-01-01')",
    )
    texts = [f["text"] for f in findings(cli)]
    assert any(t.startswith("points row") and "its entry 9999 does not exist" in t for t in texts)
    assert "seat 1 of session 77: its session does not exist" in texts
    assert any(t.startswith("entry ") and "its session 42 does not exist" in t for t in texts)


def test_a_removed_guard_is_found(cli, evening):
    tamper(evening, "SELECT 1", keep_guards_off=True)
    texts = [f["text"] for f in findings(cli)]
    assert len(texts) == len(GUARDS)
    assert all("is missing" in t for t in texts)


def test_damaged_stored_rules_are_a_finding_not_a_crash(cli, evening):
    tamper(evening, "UPDATE sessions SET rules = '{\"tiers\": \"lots\"}' WHERE id = 2")
    found = findings(cli)
    assert any(f["where"] == "session 2" and "frozen rule set does not load" in f["what"] for f in found)


def test_a_damaged_file_is_found_by_sqlite_s_check(cli, ledger_path):
    load_samples(ledger_path)
    conn = sqlite3.connect(ledger_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'idx_entries_uuid'").fetchone()[0]
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with ledger_path.open("r+b") as f:  # scribble over the index's page
        f.seek((root - 1) * page + 8)
        f.write(b"\x07" * 64)
    result = cli("doctor")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "integrity" in result.output or "malformed" in result.output


# --- the pure replay ---------------------------------------------------------------------


SEATS = ("Ann", "Ben", "Cat", "Dan")


def _rows(score, sign=1):
    return book.points_rows(SEATS, score, sign)


def test_replay_accepts_what_book_writes_and_rejects_the_old_void(tmp_path):
    rules = load_preset("classic")
    first = score_deal(rules, SEATS, Deal(cards={"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8}))
    second = score_deal(rules, SEATS, Deal(cards={"Ann": 5, "Ben": 0, "Cat": 2, "Dan": 7}))
    facts1 = json.dumps({"cards": {"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8}})
    facts2 = json.dumps({"cards": {"Ann": 5, "Ben": 0, "Cat": 2, "Dan": 7}})
    entries = [RawEntry(1, 1, "deal", 1, facts1), RawEntry(2, 2, "amend", 1, facts2),
               RawEntry(3, 3, "void", 1, None)]
    amend = _rows(first, -1) + _rows(second)
    good_void = _rows(second, -1)
    old_void = [PointsRow(p.player, -p.deals, -p.wins, -p.fried, -p.cards, -p.penalty, -p.net)
                for p in amend]
    base = [RawPoints(1, p) for p in _rows(first)] + [RawPoints(2, p) for p in amend]
    ok = doctor.check_session(1, rules.to_json(), False, SEATS, entries,
                              base + [RawPoints(3, p) for p in good_void])
    assert ok.findings == [] and ok.live_deals == 0
    bad = doctor.check_session(1, rules.to_json(), False, SEATS, entries,
                               base + [RawPoints(3, p) for p in old_void])
    wrong = {f.what for f in bad.findings if f.where == "session 1 deal 1 (entry 3, void)"}
    assert "Cat penalty" in wrong  # 22 of the first version came back
    assert any(f.check == "seats" for f in bad.findings)


def test_undos_that_do_not_fit_what_they_take_back_are_found(cli, evening):
    conn = sqlite3.connect(evening)
    free = "uuid NOT IN (SELECT undoes FROM entries WHERE undoes IS NOT NULL)"  # not undone yet
    (one, _), (three, deal_no) = conn.execute(
        f"SELECT uuid, deal_no FROM entries WHERE session_id = 1 AND kind = 'deal' AND {free} "
        "ORDER BY deal_no LIMIT 2").fetchall()
    other = conn.execute(
        f"SELECT uuid FROM entries WHERE session_id = 2 AND kind = 'deal' AND {free}").fetchone()[0]
    seq = conn.execute("SELECT MAX(seq) FROM entries").fetchone()[0] + 1
    payment = conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0]
    conn.close()
    assert payment == 0 and deal_no != 99

    def entry(uuid: str, session: int, kind: str, deal_no: int | None, undoes: str, seq: int | None) -> str:
        return ("INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at, undoes) "
                f"VALUES ('{uuid}', {session}, {'NULL' if seq is None else seq}, '{kind}', "
                f"{'NULL' if deal_no is None else deal_no}, NULL, '2030-01-01', '{undoes}')")

    tamper(evening,
           entry("u-nowhere", 1, "void", 1, "no-such-entry", seq),
           entry("u-elsewhere", 1, "void", 1, other, seq + 1),
           entry("u-kind", 1, "reopen", None, one, None),
           entry("u-deal", 1, "void", 99, three, seq + 2),
           "INSERT INTO payments (uuid, created_at, kind, undoes) VALUES ('p-nowhere', '2030-01-01', "
           "'undo', 'no-such-payment')")
    texts = [f["text"] for f in findings(cli)]

    def has(part: str) -> bool:
        return any(part in t for t in texts)

    assert has("it undoes no-such-entry, which is no entry")
    assert has(": another session's")
    assert has("a reopen entry cannot take back entry") and has(", a deal")
    assert has(f"of deal {deal_no}, not of its own deal 99")
    assert has("it takes back no-such-payment, which is no payment")


def test_every_undo_book_writes_fits(cli, ledger_path):
    """Undo of each kind of action (a deal, a correction, an end, a reopen, a start, a
    payment): the doctor finds nothing."""
    from ledger.book.payments import record_payment, undo_payment

    with open_ledger(ledger_path) as led:
        s = book.start_session(led, ["Ann", "Ben", "Cat"], load_preset("classic"), 1, "PTS", "x", False)
        book.record_deal(led, s, Deal(cards={"Ann": 0, "Ben": 3, "Cat": 7}))
        book.record_deal(led, s, Deal(cards={"Ann": 2, "Ben": 0, "Cat": 7}))
        book.amend_deal(led, s, 1, Deal(cards={"Ann": 0, "Ben": 4, "Cat": 7}))
        fresh = lambda: led.journal.session(s.id)  # noqa: E731
        from ledger.book.undo import undo

        undo(led, fresh())  # the amend
        undo(led, fresh())  # deal 2
        book.end_session(led, fresh())
        undo(led, fresh())  # the end
        book.end_session(led, fresh())
        book.reopen_session(led, fresh())
        undo(led, fresh())  # the reopen
        record_payment(led, "Ann", "Ben", "2", currency="PTS")
        undo_payment(led)
        t = book.start_session(led, ["Ann", "Ben"], load_preset("classic"), 1, "PTS", "y", False)
        undo(led, led.journal.session(t.id))  # the start
    result = cli("doctor", "--json")
    assert result.exit_code == 0, result.output
