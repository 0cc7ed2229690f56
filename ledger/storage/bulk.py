"""Bulk import: many entries appended at once, for ``bigtwo import`` (``ledger.bulk``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import chain
from typing import TYPE_CHECKING, Any

from ledger.storage.bulk_sql import (
    insert_counted,
    insert_rows,
    quoted,
    scored_entries_sql,
    scored_games_sql,
    scored_sql,
)
from ledger.storage.codec import to_json
from ledger.storage.raw_rows import ImportedEntry, StoredEntry
from ledger.storage.schema import POINT_COLUMNS

if TYPE_CHECKING:
    from ledger.storage.store import Ledger


# A seat's points in a score: deals, wins, fried, cards, penalty, net, payee seat or None.
ScoreRow = tuple[int, int, int, int, int, int, "int | None"]


class _Score:
    """A score of :meth:`BulkImport.import_scored` as its totals are summed: how many
    points rows it makes, its seats' columns end to end (POINT_COLUMNS a seat), and its
    (seat, payee seat, net) where a seat has a payee."""

    __slots__ = ("flows", "rows", "sums")

    def __init__(self, rows: Sequence[ScoreRow]) -> None:
        self.rows = len(rows)
        self.sums = tuple(chain.from_iterable(row[:6] for row in rows))
        self.flows = tuple((seat, row[6], row[5]) for seat, row in enumerate(rows)
                           if row[6] is not None)


# A new session's totals by player and flows by (player, payee), summed in bulk.
_Sums = tuple[dict[int, list[int]], dict[tuple[int, int], int]]


class BulkImport:
    """The import path of one open ledger: lookups by identity and multi-row inserts."""

    # The triggers that keep session_totals and session_flows row by row (schema m002).
    TOTALS_TRIGGERS = ("points_into_totals", "points_into_flows")

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn
        # While the totals are summed in bulk: the triggers' SQL, and the new sessions
        # whose totals are still to be summed.
        self._triggers: list[str] | None = None
        # By session: its totals by player (deals, wins, fried, cards, penalty, net) and
        # its flows by (player, payee), summed as its points rows are made.
        self._unsummed: dict[int, _Sums] = {}
        # While the secondary indexes are built in bulk: their SQL; and whether they were
        # built already in this transaction (then they stay).
        self._indexes: list[str] | None = None
        self._indexes_built = False
        # Scored games (import_scored): the scores by key now in temp.bulk_scores, and
        # those of them with a payee (pay-the-winner flows).
        self._scores: dict[int, _Score] = {}
        self._flowing: set[int] = set()
        # While the foreign keys are checked once, at the end (tuned(whole=True)).
        self._references_unchecked = False

    @contextmanager
    def totals_in_bulk(self) -> Iterator[BulkImport]:
        """Inside one transaction (``ledger.writing()``): the points of new sessions
        marked with :meth:`sum_later` go in (:meth:`import_entries`) without the
        per-row triggers, and their sessions' totals and flows are summed once, by
        :meth:`sum_totals`, before the transaction ends.

        The triggers are dropped on the first such write and created again, from their
        own SQL as stored, by :meth:`sum_totals` (called on leaving, and by the importer
        before anything else writes points).  DDL is transactional in SQLite: a
        transaction that does not commit keeps the triggers and writes no totals.

        Likewise the secondary indexes, when :meth:`build_indexes_later` says so."""
        assert self.conn.in_transaction
        try:
            yield self
            self.sum_totals()
            self._drop_scored()
            if self._references_unchecked:
                self.check_references()
        finally:
            self._triggers = None
            self._unsummed = {}
            self._indexes = None
            self._indexes_built = False
            self._scores = {}
            self._flowing = set()

    # The tables whose secondary indexes an import may build once instead of row by row.
    INDEXED_TABLES = ("entries", "points")

    def entry_count(self) -> int:
        """About how many entries the ledger holds (the last id: entries are only
        appended), read from the primary key's b-tree, not counted."""
        count: int = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM entries").fetchone()[0]
        return count

    def build_indexes_later(self, lookups: bool = False) -> bool:
        """Inside :meth:`totals_in_bulk`, outside any savepoint: drop the indexes of
        ``entries`` and ``points`` that no constraint needs (every index that is not
        UNIQUE), so that the rows written next go in without them; :meth:`sum_totals`
        creates each again from its own SQL as stored (one sort of the whole table
        instead of an insertion per row), before the transaction ends.

        The UNIQUE indexes stay: ``uuid`` (identity, idempotency and the ``undoes``
        foreign key), ``(session_id, seq)`` and ``undoes`` check what they check row by
        row, and serve the lookups by session of the import itself; but for ``uuid``'s
        while the foreign keys are checked at the end (``tuned(whole=True)``), which
        is built again like the others, checking uniqueness then.  DDL is
        transactional in SQLite: a transaction that does not commit keeps every index.

        ``lookups``: the import looks entries up by uuid as it writes (a JSON import
        merges by uuid): the index of ``uuid`` stays, whatever the foreign keys.

        At most once a transaction: False (nothing dropped) when the indexes were
        created again already in this one (before a merged session's writes)."""
        assert self.conn.in_transaction
        if self._indexes is not None:
            return True
        if self._indexes_built:
            return False
        conn = self.conn
        names = [name for table in self.INDEXED_TABLES
                 for _seq, name, unique, origin, _partial in conn.execute(
                     f"PRAGMA index_list({table})")
                 if origin == "c" and (not unique or (self._references_unchecked and not lookups
                                                        and self._uuid_index(name)))]
        found = dict(conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN "
            f"({', '.join('?' * len(names))})", names).fetchall())
        self._indexes = [found[name] for name in names]
        for name in names:
            conn.execute(f"DROP INDEX {quoted(name)}")
        return True

    def _uuid_index(self, name: str) -> bool:
        """Whether the index ``name`` is of ``uuid`` alone: entries' identity, inserted in
        random order (a uuid5 is a hash), so about 1 s of 200,000 sheet games row by row
        against 0.3 s in one sort.  The ``undoes`` foreign key needs it while foreign
        keys are checked row by row; built again, it checks that no uuid is there twice."""
        return [col for _n, _cid, col in self.conn.execute(f"PRAGMA index_info({quoted(name)})")] \
            == ["uuid"]

    def _build_indexes(self) -> None:
        if self._indexes is None:
            return
        for sql in self._indexes:
            self.conn.execute(sql)
        self._indexes = None
        self._indexes_built = True

    def pause_triggers(self) -> None:
        """Inside :meth:`totals_in_bulk`, outside any savepoint: drop the triggers that
        keep the totals row by row, before a new session (:meth:`sum_later`) is written
        inside a savepoint (which, rolled back, would bring them back unnoticed)."""
        self._pause_triggers()

    def forget_new(self) -> None:
        """The new sessions whose totals are not summed yet were rolled back (a savepoint
        undone): their sums go too."""
        self._unsummed = {sid: sums for sid, sums in self._unsummed.items()
                          if self.conn.execute("SELECT 1 FROM sessions WHERE id = ?",
                                               [sid]).fetchone() is not None}

    def _pause_triggers(self) -> None:
        if self._triggers is not None:
            return
        names = self.TOTALS_TRIGGERS
        found = dict(self.conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN "
            f"({', '.join('?' * len(names))})", names).fetchall())
        self._triggers = [found[name] for name in names]
        for name in names:
            self.conn.execute(f"DROP TRIGGER {name}")

    def sum_totals(self) -> None:
        """Sum the totals and flows of the sessions written without the triggers, in the
        order the triggers would have added their rows (a player's first points row),
        and create the triggers again; then the indexes :meth:`build_indexes_later`
        dropped, if it did."""
        if self._triggers is not None:  # some points rows went in without the triggers
            self._sum_unsummed()
        self._unsummed = {}
        self._build_indexes()

    def _sum_unsummed(self) -> None:
        """The new sessions' totals and flows, summed as their rows were made, go in as
        rows, in the order the triggers would have added them (by session, then by a
        player's first points row: the order of the sums' dicts)."""
        assert self._triggers is not None
        conn = self.conn
        cols = ", ".join(POINT_COLUMNS)
        conn.executemany(
            f"INSERT INTO session_totals (session_id, player_id, {cols}) "
            f"VALUES (?, ?, {', '.join('?' * len(POINT_COLUMNS))})",
            [(sid, pid, *sums) for sid, (totals, _flows) in self._unsummed.items()
             for pid, sums in totals.items()])
        conn.executemany(
            "INSERT INTO session_flows (session_id, player_id, payee_id, net) VALUES (?, ?, ?, ?)",
            [(sid, pid, payee, net) for sid, (_totals, flows) in self._unsummed.items()
             for (pid, payee), net in flows.items()])
        for sql in self._triggers:
            conn.execute(sql)
        self._triggers = None

    @contextmanager
    def tuned(self, cache_mib: int = 64, whole: bool = False) -> Iterator[BulkImport]:
        """Settings for a long import on this connection (outside any transaction): a
        page cache big enough that a transaction's inserts need not spill to disk before
        it commits, and fewer WAL checkpoints.  Durability is unchanged
        (``synchronous = FULL``).

        ``whole``: the import is one large transaction.  Its foreign keys are checked
        once, at its end (:meth:`check_references` in :meth:`totals_in_bulk`, which fails
        it), not row by row: a scan of the tables instead of a lookup per row and key (of
        200,000 sheet games, about 2 s of inserts against 0.25 s of checking).  And its
        temporary storage is in files, as SQLite's default: the sorts that build the
        indexes of a million deals spill there (into the system's file cache), where in
        memory they would hold all of it (peak 397 MiB against 268 MiB)."""
        conn = self.conn
        assert not conn.in_transaction  # SQLite takes these settings outside transactions only
        if whole:
            conn.execute("PRAGMA foreign_keys = OFF")
            self._references_unchecked = True
        cache = conn.execute("PRAGMA cache_size").fetchone()[0]
        checkpoint = conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        temp = conn.execute("PRAGMA temp_store").fetchone()[0]
        conn.execute(f"PRAGMA cache_size = {-1024 * cache_mib}")
        conn.execute("PRAGMA wal_autocheckpoint = 10000")
        # Savepoints and statements that fire triggers keep a sub-journal: in a file,
        # that is a write per changed page, millions over a long import of many
        # transactions (a whole one writes its new sessions without either).
        conn.execute(f"PRAGMA temp_store = {'FILE' if whole else 'MEMORY'}")
        try:
            yield self
        finally:
            if whole:
                self._references_unchecked = False
                conn.execute("PRAGMA foreign_keys = ON")
            conn.execute(f"PRAGMA cache_size = {cache}")
            conn.execute(f"PRAGMA wal_autocheckpoint = {checkpoint}")
            conn.execute(f"PRAGMA temp_store = {temp}")

    def check_references(self) -> None:
        """Every foreign key of the ledger, checked at once (inside the transaction that
        wrote without checking them row by row): an :class:`sqlite3.IntegrityError`, as
        SQLite raises for one row, when a row names what is not there."""
        problems = self.conn.execute("PRAGMA foreign_key_check").fetchmany(5)
        if problems:
            raise sqlite3.IntegrityError(
                "FOREIGN KEY constraint failed: " + "; ".join(
                    f"{table} row {rowid} names a missing {parent}"
                    for table, rowid, parent, _fk in problems))

    def session_id_by_uuid(self, session_uuid: str) -> int | None:
        row = self.conn.execute("SELECT id FROM sessions WHERE uuid = ?", [session_uuid]).fetchone()
        return None if row is None else row[0]

    def entry_texts(self, uuids: Sequence[str]) -> dict[str, StoredEntry]:
        """The entries among ``uuids`` already in the ledger, facts as stored JSON: what an
        import compares, without decoding every entry."""
        out: dict[str, StoredEntry] = {}
        for start in range(0, len(uuids), 500):
            chunk = list(uuids[start:start + 500])
            rows = self.conn.execute(
                "SELECT uuid, session_id, kind, deal_no, facts FROM entries "
                f"WHERE uuid IN ({','.join('?' * len(chunk))})",
                chunk,
            )
            out.update((uuid, StoredEntry(*stored)) for uuid, *stored in rows)
        return out

    def entry_sessions(self, uuids: Sequence[str]) -> dict[str, str]:
        """The entries among ``uuids`` in the ledger -> the uuid of their session."""
        out: dict[str, str] = {}
        for start in range(0, len(uuids), 500):
            chunk = list(uuids[start:start + 500])
            out.update(self.conn.execute(
                "SELECT e.uuid, s.uuid FROM entries e JOIN sessions s ON s.id = e.session_id "
                f"WHERE e.uuid IN ({','.join('?' * len(chunk))})", chunk).fetchall())
        return out

    def deal_numbers(self, session_id: int) -> set[int]:
        """Every deal number a session's entries refer to (voided ones included)."""
        rows = self.conn.execute(
            "SELECT DISTINCT deal_no FROM entries WHERE session_id = ? AND seq IS NOT NULL",
            [session_id]
        )
        return {r[0] for r in rows}

    def sum_later(self, session_id: int) -> None:
        """Inside :meth:`totals_in_bulk`: ``session_id`` is a new session, whose points
        :meth:`import_entries` writes without the triggers, summed once at the end."""
        self._unsummed[session_id] = ({}, {})

    def import_entries(self, session_id: int, entries: Sequence[ImportedEntry]) -> None:
        """Append many entries and their points at once (inside ``ledger.writing()``).

        The points of a session marked with :meth:`sum_later` are summed into the totals
        once, at the end of the transaction, not row by row.

        The bulk path of ``bigtwo import``: entries get the next ids and seqs in order,
        and no audit row each (the importer writes one per session, :meth:`note_import`).
        Rows go in as multi-row ``INSERT ... VALUES`` statements: one statement per few
        hundred rows instead of one per row, which is what costs with triggers on
        ``points`` (each statement that fires one keeps its own journal).
        """
        if not entries:
            return
        conn = self.conn
        first_id, first_seq = self._next_rows(session_id)
        stamp = self.ledger.journal.next_time(session_id)
        values: list[Any] = []
        typed_names: dict[str, str] = {}
        seat_ids: dict[str, int] = {}
        if self.ledger.players.mark():  # renamed or merged players: stored as typed
            typed_names = self.ledger.journal.renames(session_id, shown=False)
            seat_ids = {shown: pid for _t, shown, pid in self.ledger.journal.seat_names(session_id)}
        for i, e in enumerate(entries):
            facts = e.facts
            if facts is not None and typed_names:
                from ledger.core.names import rename_facts

                facts = to_json(rename_facts(
                    json.loads(facts) if isinstance(facts, str) else facts, typed_names))
            if facts is not None and not isinstance(facts, str):
                facts = to_json(facts)
            if e.created_at is None:  # one after the other, in the order given
                stamp = _after(stamp) if i else stamp
            values += (first_id + i, e.uuid, session_id, first_seq + i, e.kind, e.deal_no, facts,
                       e.created_at or stamp, e.undoes)
        insert_rows(conn, "entries (id, uuid, session_id, seq, kind, deal_no, facts, created_at, "
                    "undoes)", 9, values)
        ids = {**self.ledger.player_cache, **seat_ids}
        player_id = self.ledger.player_id
        values = []
        sums = self._unsummed.get(session_id)
        if sums is None:  # the triggers sum them
            for i, e in enumerate(entries):
                for player, deals, wins, fried, cards, penalty, net, payee in e.points:
                    pid = ids.get(player) or player_id(player)
                    payee_id = None if payee is None else ids.get(payee) or player_id(payee)
                    values += (first_id + i, session_id, pid, deals, wins, fried, cards, penalty,
                               net, payee_id)
        else:  # summed here, as the triggers would (POINT_COLUMNS in order)
            totals, flows = sums
            for i, e in enumerate(entries):
                for player, deals, wins, fried, cards, penalty, net, payee in e.points:
                    pid = ids.get(player) or player_id(player)
                    total = totals.get(pid)
                    if total is None:
                        totals[pid] = [deals, wins, fried, cards, penalty, net]
                    else:
                        total[0] += deals
                        total[1] += wins
                        total[2] += fried
                        total[3] += cards
                        total[4] += penalty
                        total[5] += net
                    if payee is None:
                        payee_id = None
                    else:
                        payee_id = ids.get(payee) or player_id(payee)
                        flows[pid, payee_id] = flows.get((pid, payee_id), 0) + net
                    values += (first_id + i, session_id, pid, deals, wins, fried, cards, penalty,
                               net, payee_id)
        insert_rows(conn, "points (entry_id, session_id, player_id, deals, wins, fried, cards, "
                    "penalty, net, payee_id)", 10, values)

    def _next_rows(self, session_id: int) -> tuple[int, int]:
        """Before a session's rows go in: the triggers paused if its totals are summed in
        bulk (a new session), else the bulk sums so far written, so that the triggers
        keep its totals; then the first entry id and the session's first seq to use."""
        if session_id in self._unsummed:
            self._pause_triggers()
        elif self._triggers is not None:
            self.sum_totals()  # the triggers keep this session's totals
        conn = self.conn
        first_id: int = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM entries").fetchone()[0]
        first_seq: int = conn.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE session_id = ?", [session_id]
        ).fetchone()[0]
        return first_id, first_seq

    def import_scored(self, session_id: int, games: Sequence[Any], keys: Sequence[int],
                      created_at: str | None, scores: Mapping[int, Sequence[ScoreRow]]) -> None:
        """Append a new session's deals whose points are shared by many: ``games`` holds
        each deal's (uuid, deal number, facts JSON) end to end, ``keys`` the key of each
        one's score, and ``scores[key]`` the points of each seat in seat order, (deals,
        wins, fried, cards, penalty, net, payee seat or None): a sheet's thousands of
        games have a few thousand scores.  Inside :meth:`totals_in_bulk`, like
        :meth:`import_entries` (the same rows, ids, seqs and times), which ``bigtwo
        import`` uses otherwise.

        The entries go in as rows, their ids and seqs counted by SQLite from the first
        (so that only what differs is bound); their points are made by SQLite, one
        statement a call, from the games' keys and the scores (``temp.bulk_scores``),
        with the session's seats as its players.  Each score's rows go into that table
        the first time one of its games comes.  The session's totals are summed from
        its games' scores."""
        n = len(keys)
        if not n:
            return
        if len(games) != 3 * n:
            raise ValueError(f"{len(games)} values for {n} games of session {session_id}")
        conn = self.conn
        first_id, first_seq = self._next_rows(session_id)
        if not self._scores:
            conn.execute("CREATE TEMP TABLE IF NOT EXISTS bulk_scores (key INTEGER NOT NULL, "
                         "seat INTEGER NOT NULL, deals INTEGER NOT NULL, wins INTEGER NOT NULL, "
                         "fried INTEGER NOT NULL, cards INTEGER NOT NULL, penalty INTEGER NOT NULL, "
                         "net INTEGER NOT NULL, payee INTEGER, PRIMARY KEY (key, seat)) WITHOUT ROWID")
            conn.execute("CREATE TEMP TABLE IF NOT EXISTS bulk_games (entry_id INTEGER PRIMARY KEY, "
                         "key INTEGER NOT NULL)")
        pids = [pid for (pid,) in conn.execute(
            "SELECT player_id FROM seats WHERE session_id = ? ORDER BY seat", [session_id])]
        if created_at is not None:  # a dated sheet: one time for all
            insert_counted(conn, scored_entries_sql, 3, games,
                           lambda start: [first_id + start, session_id, first_seq + start,
                                          created_at])
        else:  # one after the other, in the order given
            stamp = self.ledger.journal.next_time(session_id)
            values: list[Any] = []
            for i in range(n):
                if i:
                    stamp = _after(stamp)
                values += (first_id + i, games[3 * i], session_id, first_seq + i, "deal",
                           games[3 * i + 1], games[3 * i + 2], stamp, None)
            insert_rows(conn, "entries (id, uuid, session_id, seq, kind, deal_no, facts, "
                        "created_at, undoes)", 9, values)
        new = [key for key in dict.fromkeys(keys) if key not in self._scores]
        if new:
            width = len(pids)
            if any(len(scores[key]) != width for key in new):
                raise ValueError(f"a score of session {session_id} is not one row a seat")
            conn.executemany("INSERT INTO temp.bulk_scores VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             [(key, seat, *row) for key in new for seat, row in enumerate(scores[key])])
            for key in new:
                score = self._scores[key] = _Score(scores[key])
                if score.flows:
                    self._flowing.add(key)
        insert_counted(conn, scored_games_sql, 1, keys, lambda start: [first_id + start])
        made = conn.execute(scored_sql(len(pids)), [session_id, *pids]).rowcount
        conn.execute("DELETE FROM temp.bulk_games")
        known = self._scores
        expected = sum(known[key].rows for key in keys)
        if made != expected:  # every game's seats: a key without its rows would lose points
            raise RuntimeError(f"{made} points rows made of {expected} for session {session_id}")
        sums = self._unsummed.get(session_id)
        if sums is not None:  # summed here, as the triggers would (POINT_COLUMNS in order)
            totals, flows = sums
            added = list(map(sum, zip(*(known[key].sums for key in keys), strict=True)))
            for seat, pid in enumerate(pids):  # a player's first points row: seat order
                part = added[6 * seat:6 * seat + 6]
                total = totals.get(pid)
                if total is None:
                    totals[pid] = part
                else:
                    for j, value in enumerate(part):
                        total[j] += value
            # In the order of the games (seats in order); none while no score has a payee.
            for key in keys if self._flowing else ():
                for seat, payee, net in known[key].flows:
                    flow = (pids[seat], pids[payee])
                    flows[flow] = flows.get(flow, 0) + net

    def _drop_scored(self) -> None:
        if self._scores:
            self.conn.execute("DROP TABLE temp.bulk_scores")
            self.conn.execute("DROP TABLE temp.bulk_games")
            self._scores = {}
            self._flowing = set()

    def note_import(self, session_id: int, detail: dict[str, Any]) -> None:
        """The one audit row of a session's import (inside ``ledger.writing()``)."""
        self.ledger.audit("session.import", detail, session_id=session_id)


def _after(stamp: str) -> str:
    from datetime import datetime, timedelta

    return (datetime.fromisoformat(stamp) + timedelta(microseconds=1)).isoformat(
        timespec="microseconds")
