"""The plain doctor proves sessions clean from SQL digests (ledger/book/proofs.py) and
replays only the others; ``--full`` replays every session.

A session whose points were changed is replayed when the change breaks a digest (a
count, a weighted sum) and then named as the replay names it, even when the change is
consistent (nets still summing to zero, the cached totals changed alike); a change
crafted to keep every digest passes the plain doctor, and ``--full`` finds it.
"""

from __future__ import annotations

import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from ledger.book import actions as book
from ledger.book import doctor
from ledger.book.derivations import Derivations
from ledger.book.proofs import proofs
from ledger.core.rules import load_preset
from ledger.core.scoring import Deal
from ledger.storage.store import open_ledger

TABLES = (["Amy", "Bob", "Cyd", "Don"], ["Don", "Cyd", "Bob", "Amy"], ["Wu", "Xi", "Yan", "Zoe"])
COUNTS = [(0, 3, 11, 8), (5, 0, 2, 7), (9, 4, 0, 1), (13, 8, 0, 6), (0, 3, 11, 8)]


@pytest.fixture
def ledger_file(tmp_path: Path) -> Path:
    path = tmp_path / "proofs.db"
    with open_ledger(path) as ledger:
        for players in TABLES:
            s = book.start_session(ledger, players, load_preset("classic"), Decimal(1), "PTS",
                                   "table", False)
            for counts in COUNTS:
                book.record_deal(ledger, s, Deal(cards=dict(zip(players, counts, strict=True))))
            book.record_deal(ledger, s, Deal(cards=dict(zip(players, (0, 1, 2, 3), strict=True)),
                                             assist=players[2]))
            book.record_deal(ledger, s, Deal(cards=dict(zip(players, (4, 0, 2, 3), strict=True)),
                                             missed_call=True))
    return path


def tamper(path: Path, *sql: str) -> None:
    """Change rows behind the ledger's back (its guard put back after)."""
    conn = sqlite3.connect(path, isolation_level=None)
    guard = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'points_no_update'").fetchone()[0]
    conn.execute("DROP TRIGGER points_no_update")
    for statement in sql:
        conn.execute(statement)
    conn.execute(guard)
    conn.close()


def proven(path: Path) -> tuple[list[int], int]:
    """The sessions the digests prove clean, and how many deals were derived."""
    derivations = Derivations()
    with open_ledger(path) as ledger:
        found = proofs(ledger, derivations, ledger.inspection.cached_tables())
        assert found is not None
        return [p.session_id for p in found if p.rows is None], derivations.derived


def findings(path: Path, full: bool = False) -> list[str]:
    with open_ledger(path) as ledger:
        return [f.text() for f in doctor.check_ledger(ledger, full=full).findings]


def test_a_sound_ledger_is_proven_with_each_distinct_deal_derived_once(ledger_file):
    sessions, derived = proven(ledger_file)
    assert len(sessions) == 3
    # the three tables hold the same deals seat by seat (the second the first's players
    # in other seats, the third other players): each distinct one is derived once
    assert derived == len(set(COUNTS)) + 2
    with open_ledger(ledger_file) as ledger:
        report = doctor.check_ledger(ledger)
    assert report.ok and (report.sessions, report.entries, report.live_deals,
                          report.points) == (3, 21, 21, 84)


def test_a_consistent_change_is_replayed_and_named(ledger_file):
    """Two players' nets swapped in one deal, the cached totals changed alike: every sum
    the replay checks still holds, the digest weighted by player does not."""
    tamper(ledger_file,
           "UPDATE points SET net = net + 4 WHERE entry_id = (SELECT id FROM entries WHERE "
           "session_id = 3 AND seq = 2) AND player_id = (SELECT id FROM players WHERE name = 'Xi')",
           "UPDATE points SET net = net - 4 WHERE entry_id = (SELECT id FROM entries WHERE "
           "session_id = 3 AND seq = 2) AND player_id = (SELECT id FROM players WHERE name = 'Zoe')",
           "UPDATE session_totals SET net = net + 4 WHERE session_id = 3 "
           "AND player_id = (SELECT id FROM players WHERE name = 'Xi')",
           "UPDATE session_totals SET net = net - 4 WHERE session_id = 3 "
           "AND player_id = (SELECT id FROM players WHERE name = 'Zoe')")
    sessions, _derived = proven(ledger_file)
    assert sessions == [1, 2]
    found = findings(ledger_file)
    assert found == findings(ledger_file, full=True)
    assert found == [
        "session 3 deal 2 (entry 2, deal): Xi net: expected 14, stored 18, difference +4",
        "session 3 deal 2 (entry 2, deal): Zoe net: expected -14, stored -18, difference -4",
    ]


def test_a_row_moved_to_another_deal_is_replayed(ledger_file):
    tamper(ledger_file, "UPDATE points SET entry_id = entry_id + 1 WHERE id = "
                        "(SELECT min(id) FROM points WHERE session_id = 2)")
    sessions, _derived = proven(ledger_file)
    assert sessions == [1, 3]
    found = findings(ledger_file)
    assert found and found == findings(ledger_file, full=True)


def test_a_change_crafted_to_keep_every_digest_needs_the_full_check(ledger_file):
    """Cards up by the penalty's weight and the penalty down by the cards' weight leave
    each row's weighted sum as it was: the plain doctor proves the session, ``--full``
    (what ``restore`` and a backup's import run) derives every deal and names it."""
    tamper(ledger_file,
           "UPDATE points SET cards = cards + 101, penalty = penalty - 19 WHERE id = "
           "(SELECT min(id) FROM points WHERE session_id = 1)",
           "UPDATE session_totals SET cards = cards + 101, penalty = penalty - 19 WHERE "
           "session_id = 1 AND player_id = (SELECT player_id FROM points WHERE id = "
           "(SELECT min(id) FROM points WHERE session_id = 1))")
    assert findings(ledger_file) == []
    full = findings(ledger_file, full=True)
    assert len(full) == 2 and all(f.startswith("session 1 deal 1 (entry 1, deal): Amy ") for f in full)
    with open_ledger(ledger_file) as ledger:
        assert doctor.full_problems(ledger) and doctor.data_problems(ledger)


def test_other_facts_and_seatings_are_replayed(ledger_file, tmp_path):
    """Facts the digests do not key (twos here) and a seat named as no JSON path can
    name it are replayed, and still found sound."""
    with open_ledger(ledger_file) as ledger:
        s = book.start_session(ledger, ["Amy", "Bob", 'Q"uote', "Don"], load_preset("classic"),
                               Decimal(1), "PTS", "odd", False)
        book.record_deal(ledger, s, Deal(cards={"Amy": 0, "Bob": 3, 'Q"uote': 4, "Don": 5}))
        t = book.start_session(ledger, ["Amy", "Bob"], load_preset("doubling"), Decimal(1),
                               "PTS", "twos", False)
        book.record_deal(ledger, t, Deal(cards={"Amy": 0, "Bob": 5}, twos={"Bob": 1}))
    sessions, _derived = proven(ledger_file)
    assert sessions == [1, 2, 3]
    assert findings(ledger_file) == []
