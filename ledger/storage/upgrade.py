"""Migration m005 (``ledger.storage.schema``): every user action an entry.

Kept apart from schema.py: only a ledger written by an older bigtwo runs it.  The
entries table is rebuilt by SQLite's documented procedure (foreign keys are off
around the transaction: :func:`ledger.storage.schema.check_and_migrate`): the new
table is made, every row copied, the old table dropped and the new one renamed, its
indexes and append-only triggers made again.  The history the audit log held becomes
entries and columns:

- each session gets its ``start`` entry (at ``started_at``);
- each ``deal.undo`` audit row becomes the ``undoes`` of the entry that undo wrote;
- each ``session.end`` of the audit log an ``end`` entry, and each ``session.reopen``
  (only undo reopened a session) a ``reopen`` entry that ``undoes`` the end before it;
  the last end keeps the session's ``ended_at``, which then leaves ``sessions``.

The uuids of the entries made here derive from the session's uuid and the time
(:func:`action_uuid`), so the same old ledger migrated on two devices, or exported by
an older bigtwo and imported here, gives the same entries.
"""

from __future__ import annotations

import json
import sqlite3
import uuid as uuidlib

# The namespace of the uuids made for actions an older ledger kept only in its audit log.
ACTION_NAMESPACE = uuidlib.uuid5(uuidlib.NAMESPACE_DNS, "entries.bigtwo-ledger")

ENTRIES_TABLE = """CREATE TABLE entries_new (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER,
    kind TEXT NOT NULL
        CHECK (kind IN ('deal', 'amend', 'void', 'start', 'end', 'reopen', 'undo')),
    deal_no INTEGER,
    facts TEXT,
    created_at TEXT NOT NULL,
    undoes TEXT REFERENCES entries(uuid),
    CHECK ((kind IN ('deal', 'amend', 'void')) = (seq IS NOT NULL AND deal_no IS NOT NULL)),
    CHECK (kind NOT IN ('deal', 'amend') OR facts IS NOT NULL),
    CHECK (kind IN ('deal', 'amend') OR facts IS NULL),
    CHECK (kind != 'undo' OR undoes IS NOT NULL)) STRICT"""

ENTRY_INDEXES = (
    "CREATE UNIQUE INDEX idx_entries_uuid ON entries (uuid)",
    # an entry is undone once at most
    "CREATE UNIQUE INDEX idx_entries_undoes ON entries (undoes)",
    "CREATE UNIQUE INDEX idx_entries_session_id_seq ON entries (session_id, seq)",
    # the current version of a deal: its latest entry in the one order
    "CREATE INDEX idx_entries_deal_order ON entries (session_id, deal_no, created_at, uuid)",
    # the one order of a session's actions (the undo stack, the clock's last time)
    "CREATE INDEX idx_entries_order ON entries (session_id, created_at, uuid)",
    # the session's own actions (open or ended, start undone) without its deals
    "CREATE INDEX idx_entries_session_actions ON entries (session_id, created_at, uuid) "
    "WHERE seq IS NULL",
)

GUARDED = ("entries", "sessions", "seats")


# m011: the entries table with seat entries (a ``seat`` entry has facts, no deal).
SEAT_ENTRIES_TABLE = """CREATE TABLE entries_new (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER,
    kind TEXT NOT NULL
        CHECK (kind IN ('deal', 'amend', 'void', 'start', 'end', 'reopen', 'undo', 'seat')),
    deal_no INTEGER,
    facts TEXT,
    created_at TEXT NOT NULL,
    undoes TEXT REFERENCES entries(uuid),
    CHECK ((kind IN ('deal', 'amend', 'void')) = (seq IS NOT NULL AND deal_no IS NOT NULL)),
    CHECK (kind NOT IN ('deal', 'amend', 'seat') OR facts IS NOT NULL),
    CHECK (kind IN ('deal', 'amend', 'seat') OR facts IS NULL),
    CHECK (kind != 'undo' OR undoes IS NOT NULL)) STRICT"""


def allow_seat_entries(conn: sqlite3.Connection) -> None:
    """m011: the entries table rebuilt to take ``seat`` entries, every row copied as it
    is (ids kept: points name their entry by id), its indexes and guards made again."""
    indexes = [sql for (sql,) in conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries' "
        "AND sql IS NOT NULL ORDER BY name")]
    conn.execute(SEAT_ENTRIES_TABLE)
    conn.execute("INSERT INTO entries_new SELECT id, uuid, session_id, seq, kind, deal_no, facts, "
                 "created_at, undoes FROM entries ORDER BY id")
    conn.execute("DROP TABLE entries")
    conn.execute("ALTER TABLE entries_new RENAME TO entries")
    for sql in indexes:
        conn.execute(sql)
    for op in ("UPDATE", "DELETE"):
        conn.execute(guard_sql("entries", op))


def action_uuid(session_uuid: str, kind: str, at: str | None = None) -> str:
    """The uuid of a session's ``start`` (no time), or of an ``end`` / ``reopen`` at
    ``at``, when the action was recorded before it had one of its own."""
    name = f"{session_uuid}/{kind}" if at is None else f"{session_uuid}/{kind}/{at}"
    return str(uuidlib.uuid5(ACTION_NAMESPACE, name))


def guard_sql(table: str, op: str) -> str:
    return (f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END")


def migrate_history(conn: sqlite3.Connection) -> None:
    conn.execute(ENTRIES_TABLE)
    conn.execute(
        """INSERT INTO entries_new (id, uuid, session_id, seq, kind, deal_no, facts, created_at,
                                    undoes)
           SELECT e.id, e.uuid, e.session_id, e.seq, e.kind, e.deal_no, e.facts, e.created_at,
                  (SELECT t.uuid FROM audit a JOIN entries t ON t.session_id = a.session_id
                     AND t.seq = json_extract(a.detail, '$.undoes')
                   WHERE a.action = 'deal.undo' AND a.entry_id = e.id ORDER BY a.id LIMIT 1)
           FROM entries e ORDER BY e.id""")
    rows: list[tuple[object, ...]] = []
    for sid, suuid, started_at, ended_at in conn.execute(
            "SELECT id, uuid, started_at, ended_at FROM sessions ORDER BY id").fetchall():
        rows.append((action_uuid(suuid, "start"), sid, "start", started_at, None))
        rows += ends_and_reopens(conn, sid, suuid, ended_at)
    conn.executemany(
        "INSERT INTO entries_new (uuid, session_id, kind, created_at, undoes) "
        "VALUES (?, ?, ?, ?, ?)", rows)
    conn.execute("DROP TABLE entries")
    conn.execute("ALTER TABLE entries_new RENAME TO entries")
    for sql in ENTRY_INDEXES:
        conn.execute(sql)
    conn.execute("ALTER TABLE sessions DROP COLUMN ended_at")
    for table in GUARDED:  # the entries' guards went with the old table
        for op in ("UPDATE", "DELETE"):
            conn.execute(guard_sql(table, op))


def ends_and_reopens(conn: sqlite3.Connection, sid: int, suuid: str, ended_at: str | None
                      ) -> list[tuple[object, ...]]:
    """The end and reopen entries of one session, from its audit rows; the last end is
    at the session's ``ended_at`` (an end the audit log lacks is made at that time)."""
    events: list[list[object]] = []  # [kind, at, undoes], the end's at fixed by its reopen
    for action, at, detail in conn.execute(
            "SELECT action, at, detail FROM audit WHERE session_id = ? "
            "AND action IN ('session.end', 'session.reopen') ORDER BY id", [sid]):
        if action == "session.end":
            events.append(["end", at, None])
        elif events and events[-1][0] == "end":
            was = json.loads(detail).get("was_ended_at") if detail else None
            if isinstance(was, str):
                events[-1][1] = was  # the time the session was ended at, as it was stored
            events.append(["reopen", at, None])
    if events and events[-1][0] == "end":
        if ended_at is None:
            events.pop()  # not ended after all: the column is what the ledger said
        else:
            events[-1][1] = ended_at
    elif ended_at is not None:
        events.append(["end", ended_at, None])
    out: list[tuple[object, ...]] = []
    for i, (kind, at, _undoes) in enumerate(events):
        undoes = out[i - 1][0] if kind == "reopen" else None
        out.append((action_uuid(suuid, str(kind), str(at)), sid, kind, at, undoes))
    return out
