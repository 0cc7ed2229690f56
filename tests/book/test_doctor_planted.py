"""The streaming doctor finds exactly what the doctor before it found.

One ledger gets every kind of problem the self-check names planted in it at once
(changed points, changed and unscorable facts, missing rows, a void that does not
cancel, a second deal entry, corrections of nothing, an unknown entry kind, a stale
correction that kept points, a session with one seat, damaged rules, orphans of every
kind, undos that do not fit, cached totals and flows that drifted, a damaged payment, a
uuid two tables hold, a removed guard).  ``tests/data/doctor_planted.json`` holds the
findings of the doctor that kept every points row to the end and derived every deal
afresh (captured by running it on this very ledger, before the streaming doctor); the
plain doctor, ``doctor --full`` and the backup's check must give the same, in the same
order.

Two sessions with the same rules hold the same deals seat by seat under other names, so
the plain doctor proves the second from the first's derivation: a points row changed
there is still found, and so is one changed alike in every deal with those facts.
"""

from __future__ import annotations

import json
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from ledger.book import actions as book
from ledger.book import doctor
from ledger.core.rules import load_preset
from ledger.core.scoring import Deal
from ledger.formats import samples
from ledger.storage.store import open_ledger

EXPECTED = Path(__file__).resolve().parents[1] / "data" / "doctor_planted.json"

# The same deals, seat by seat, for two tables of other players (the second's are
# proven from the first's derivations by the plain doctor).
TWIN_DEALS = [(0, 3, 11, 8), (5, 0, 2, 7), (9, 4, 0, 1), (13, 8, 0, 6), (0, 3, 11, 8)]
TWINS = (["Amy", "Bob", "Cyd", "Don"], ["Wu", "Xi", "Yan", "Zoe"])


def build(path: Path) -> None:
    with open_ledger(path) as ledger:
        for f in sorted(samples.samples_dir().glob("*.toml")):
            samples.load_file(ledger, f)
        for players in TWINS:
            s = book.start_session(ledger, players, load_preset("classic"), Decimal(1), "PTS",
                                   "twin", False)
            for counts in TWIN_DEALS:
                book.record_deal(ledger, s, Deal(cards=dict(zip(players, counts, strict=True))))
        pair = book.start_session(ledger, ["Ann", "Ben"], load_preset("classic"), Decimal(1),
                                  "PTS", "pair", False)
        book.record_deal(ledger, pair, Deal(cards={"Ann": 0, "Ben": 5}))


def one(conn: sqlite3.Connection, sql: str) -> int:
    return int(conn.execute(sql).fetchone()[0])


def plant(path: Path) -> None:
    """Every kind of problem, behind the ledger's back (the guards off while it is done,
    one of them left off)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA ignore_check_constraints = 1")
    guards = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                               "AND name LIKE '%_no_%'").fetchall())
    for name in guards:
        conn.execute(f"DROP TRIGGER {name}")

    def pid(name: str) -> int:
        return one(conn, f"SELECT id FROM players WHERE name = '{name}'")

    def sid(name: str, nth: int = 0) -> int:
        return one(conn, f"SELECT id FROM sessions WHERE name = '{name}' ORDER BY id LIMIT 1 OFFSET {nth}")

    def eid(session: int, seq: int) -> int:
        return one(conn, f"SELECT id FROM entries WHERE session_id = {session} AND seq = {seq}")

    ann, ben, cat, dan = pid("Ann"), pid("Ben"), pid("Cat"), pid("Dan")
    twin_a, twin_b, pair = sid("twin"), sid("twin", 1), sid("pair")
    last_seq = one(conn, f"SELECT MAX(seq) FROM entries WHERE session_id = {twin_b}")
    run = [
        # changed points: a net alone (nets no longer sum to zero), a penalty alone
        f"UPDATE points SET net = 18 WHERE entry_id = {eid(1, 5)} AND player_id = {ben}",
        f"UPDATE points SET penalty = penalty + 1 WHERE entry_id = {eid(1, 17)} AND player_id = {cat}",
        # the twin: two nets swapped in one deal (still summing to zero), and every deal
        # of those facts changed alike (a points row that agrees with its twin)
        f"UPDATE points SET net = net + 4 WHERE entry_id = {eid(twin_b, 2)} AND player_id = {pid('Xi')}",
        f"UPDATE points SET net = net - 4 WHERE entry_id = {eid(twin_b, 2)} AND player_id = {pid('Zoe')}",
        f"UPDATE points SET net = net + 2 WHERE entry_id IN ({eid(twin_b, 1)}, {eid(twin_b, 5)}) "
        f"AND player_id = {pid('Wu')}",
        f"UPDATE points SET net = net - 2 WHERE entry_id IN ({eid(twin_b, 1)}, {eid(twin_b, 5)}) "
        f"AND player_id = {pid('Yan')}",
        # changed facts, facts that do not score, an unknown fact
        "UPDATE entries SET facts = '{\"cards\": {\"Ann\": 10, \"Ben\": 4, \"Cat\": 0, \"Dan\": 1}}' "
        f"WHERE id = {eid(1, 3)}",
        f"UPDATE entries SET facts = 'not json' WHERE id = {eid(1, 9)}",
        "UPDATE entries SET facts = '{\"cards\": {\"Ann\": 0, \"Ben\": 3, \"Cat\": 11, \"Dan\": 8}, "
        f"\"luck\": 1}}' WHERE id = {eid(1, 11)}",
        f"UPDATE entries SET facts = '[1, 2]' WHERE id = {eid(1, 13)}",
        # a missing row
        f"DELETE FROM points WHERE entry_id = {eid(1, 7)} AND player_id = {dan}",
        # a second 'deal' entry for deal 1, a void and an amend of deals never recorded,
        # a void of a void deal, an unknown kind, a stale correction that kept points
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) VALUES "
        f"('p-second', {twin_b}, {last_seq + 1}, 'deal', 1, "
        "'{\"cards\": {\"Wu\": 0, \"Xi\": 3, \"Yan\": 11, \"Zoe\": 8}}', '2030-01-01')",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) VALUES "
        f"('p-never', {twin_b}, {last_seq + 2}, 'void', 77, NULL, '2030-01-02')",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) VALUES "
        f"('p-void1', {twin_b}, {last_seq + 3}, 'void', 4, NULL, '2030-01-03')",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) VALUES "
        f"('p-void2', {twin_b}, {last_seq + 4}, 'void', 4, NULL, '2030-01-04')",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) VALUES "
        f"('p-bogus', {twin_b}, {last_seq + 5}, 'bogus', 3, NULL, '2030-01-05')",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) VALUES "
        f"('p-stale', {twin_b}, {last_seq + 6}, 'void', 3, NULL, '2000-01-01')",
        "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, penalty, "
        f"net) SELECT id, {twin_b}, {pid('Wu')}, -1, 0, 0, -9, -9, 5 FROM entries WHERE uuid = 'p-stale'",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) VALUES "
        f"('p-amend', {twin_b}, {last_seq + 7}, 'amend', 88, "
        "'{\"cards\": {\"Wu\": 0, \"Xi\": 1, \"Yan\": 1, \"Zoe\": 1}}', '2030-01-07')",
        # one seat left, and its deal's rows for the player who left
        f"DELETE FROM seats WHERE session_id = {pair} AND player_id = {ben}",
        # damaged rules
        "UPDATE sessions SET rules = '{\"tiers\": \"lots\"}' WHERE id = 2",
        # orphans: points of no entry, of a missing player, filed under another session;
        # a seat and an entry of no session; a seat of a missing player
        "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, penalty, "
        f"net) VALUES (9999, 1, {ann}, 1, 0, 0, 3, 3, -3)",
        "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, penalty, "
        f"net) VALUES ({eid(1, 2)}, 1, 4242, 0, 0, 0, 0, 0, 0)",
        "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, penalty, "
        f"net) VALUES ({eid(twin_a, 1)}, 1, {ann}, 0, 0, 0, 1, 0, 0)",
        f"INSERT INTO seats (session_id, seat, player_id) VALUES (77, 1, {ann})",
        "INSERT INTO seats (session_id, seat, player_id) VALUES (3, 9, 4343)",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) "
        "VALUES ('orphan-entry', 42, 1, 'void', 1, NULL, '2025-01-01')",
        # undos that do not fit what they take back
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at, undoes) "
        "VALUES ('u-nowhere', 1, 190, 'void', 1, NULL, '2030-02-01', 'no-such-entry')",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at, undoes) "
        f"SELECT 'u-elsewhere', 4, 191, 'void', 2, NULL, '2030-02-02', uuid FROM entries "
        f"WHERE id = {eid(1, 2)}",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at, undoes) "
        "SELECT 'u-kind', 1, NULL, 'reopen', NULL, NULL, '2030-02-03', uuid FROM entries "
        f"WHERE id = {eid(1, 14)}",
        "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at, undoes) "
        "SELECT 'u-deal', 1, 192, 'void', 99, NULL, '2030-02-04', uuid FROM entries "
        f"WHERE id = {eid(1, 15)}",
        "INSERT INTO payments (uuid, created_at, kind, undoes) VALUES ('p-nowhere', '2030-01-01', "
        "'undo', 'no-such-payment')",
        # drifted caches: a total, a flow, a total of a session that does not exist
        f"UPDATE session_totals SET net = net + 7 WHERE session_id = 1 AND player_id = {ann}",
        "UPDATE session_flows SET net = net - 1 WHERE rowid = (SELECT MIN(rowid) FROM session_flows)",
        f"INSERT INTO session_totals VALUES (555, {ann}, 1, 0, 0, 2, 2, 5)",
        # a payment the gate refuses, a uuid two tables hold
        "INSERT INTO payments (uuid, created_at, kind, payer_id, payee_id, amount, currency) "
        f"VALUES ('pay-bad', '2030-03-01', 'payment', {ann}, {ben}, '-5', 'PTS')",
        "INSERT INTO seasons (uuid, created_at, kind, name, key, since) "
        "VALUES ('p-second', '2030-03-02', 'add', 'Spring', 'spring', '2030-01-01')",
    ]
    for sql in run:
        conn.execute(sql)
    for name, sql in guards.items():
        if name != "audit_no_delete":  # a removed guard
            conn.execute(sql)
    conn.close()


def report_of(path: Path, **how: bool) -> dict:
    with open_ledger(path) as ledger:
        report = doctor.check_ledger(ledger, **how).to_dict()
        report["data_problems"] = doctor.data_problems(ledger)
    return report


@pytest.fixture
def planted(ledger_path: Path) -> Path:
    build(ledger_path)
    plant(ledger_path)
    return ledger_path


def test_every_planted_problem_is_found_as_before(planted):
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert len(expected["findings"]) > 60
    checks = {f["check"] for f in expected["findings"]}
    assert checks == {"schema", "orphan", "rules", "seats", "replay", "derived", "net",
                      "totals", "payment", "key"}
    plain = report_of(planted)
    assert plain == expected
    full = report_of(planted, full=True)
    assert full["findings"] == expected["findings"]
    assert full["data_problems"] == expected["data_problems"]


def test_a_changed_twin_is_found_by_the_plain_doctor(planted):
    """The second twin's deals are proven from the first's: its changed rows are named."""
    with open_ledger(planted) as ledger:
        found = [f.text() for f in doctor.check_ledger(ledger).findings]
    assert "session 11 deal 2 (entry 2, deal): Xi net: expected 14, stored 18, difference +4" in found
    assert "session 11 deal 5 (entry 5, deal): Wu net: expected 33, stored 35, difference +2" in found


# --- a crafted backup: wrong points, alike in every deal of the same facts -------------


def craft(path: Path) -> None:
    """Every deal of the twins' first facts (Wu, Amy... 0 3 11 8) given other points, the
    same in each, nets still summing to zero and one row per player: only a derivation
    can tell."""
    conn = sqlite3.connect(path, isolation_level=None)
    guards = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                               "AND name LIKE 'points_no_%'").fetchall())
    for name in guards:
        conn.execute(f"DROP TRIGGER {name}")
    for seat_0, seat_2 in (("Amy", "Cyd"), ("Wu", "Yan")):
        conn.execute("UPDATE points SET net = net + 5 WHERE player_id = (SELECT id FROM players "
                     f"WHERE name = '{seat_0}') AND entry_id IN (SELECT id FROM entries "
                     "WHERE deal_no IN (1, 5) AND kind = 'deal')")
        conn.execute("UPDATE points SET net = net - 5 WHERE player_id = (SELECT id FROM players "
                     f"WHERE name = '{seat_2}') AND entry_id IN (SELECT id FROM entries "
                     "WHERE deal_no IN (1, 5) AND kind = 'deal')")
    for sql in guards.values():
        conn.execute(sql)
    conn.close()


def test_a_crafted_backup_is_neither_restored_nor_imported(cli, ledger_path, tmp_path):
    build(ledger_path)
    backup = tmp_path / "crafted.db"
    cli.ok("backup", str(backup))
    craft(backup)
    with open_ledger(backup) as ledger:  # the plain doctor finds each changed row too
        found = [f.text() for f in doctor.check_ledger(ledger).findings]
    assert len([t for t in found if t.endswith("net: expected 33, stored 38, difference +5")]) == 4
    before = cli.ok("standings", "--all", "--json")
    stderr = cli.fails("restore", str(backup))
    assert "fails the self-check, so nothing was restored" in stderr and "Amy net" in stderr
    stderr = cli.fails("import", str(backup))
    assert "fails the self-check, so nothing was imported" in stderr
    assert cli.ok("standings", "--all", "--json") == before


def test_restore_and_a_backup_s_import_derive_every_deal(planted, monkeypatch):
    """Their checks (``full_problems``, ``data_problems``) never prove a deal from
    another's derivation."""
    class NoMemo:
        def __init__(self) -> None:
            raise AssertionError("the full check derives every deal on its own")

    monkeypatch.setattr(doctor, "Derivations", NoMemo)
    with open_ledger(planted) as ledger:
        assert doctor.full_problems(ledger) and doctor.data_problems(ledger)
        with pytest.raises(AssertionError, match="on its own"):
            doctor.problems(ledger)
