"""Renames and merges of players as append-only events (``ledger.players``).

The journal keeps every name as it was typed (deal facts, seats, points all point at
the player row made when the name was first used).  A rename or a merge is one row of
``player_events``; undoing it appends an ``undo`` row naming it.  The view
``player_names`` (migration m004) is the one place that says, for every player id,
which id it counts as now (merges followed) and which name is shown for it.
Writes go inside :meth:`Ledger.writing <ledger.storage.store.Ledger.writing>`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ledger.storage.codec import inserted_id, new_uuid, now
from ledger.storage.sessions import LIVE_JOIN

if TYPE_CHECKING:
    from ledger.storage.store import Ledger


class PlayerName(NamedTuple):
    """One player as the reports see it: ``name`` is the name shown (the name of the
    player it was merged into, if any), ``canon_id`` the id it counts as,
    ``own_name`` its own current name and ``typed_name`` the name first typed."""

    id: int
    name: str
    canon_id: int
    own_name: str
    typed_name: str


class PlayerEvent(NamedTuple):
    id: int
    uuid: str
    at: str
    kind: str  # rename, merge or undo
    player_id: int
    into_id: int | None
    name: str | None
    undoes: int | None


class Players:
    """The player events of one open ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn

    def source(self) -> str:
        """What a query joins to show players: the view ``player_names``, or while no
        player was ever renamed or merged the same columns straight from ``players``
        (then equal, and cheaper than resolving every player for each deal)."""
        if self.mark():
            return "player_names"
        return ("(SELECT id, name, id AS canon_id, name AS own_name, name AS typed_name "
                "FROM players)")

    def names(self) -> dict[int, PlayerName]:
        """Every player by id, resolved through the live renames and merges."""
        return {r[0]: PlayerName(*r) for r in self.conn.execute(
            "SELECT id, name, canon_id, own_name, typed_name FROM player_names ORDER BY id")}

    def canon_ids(self) -> dict[int, int]:
        """Every player id -> the id it counts as (itself, unless merged)."""
        return dict(self.conn.execute("SELECT id, canon_id FROM player_names").fetchall())

    def mark(self) -> int:
        """The id of the latest player event (0: none): caches keyed by player note it."""
        return int(self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM player_events").fetchone()[0])

    def events(self) -> list[PlayerEvent]:
        return [PlayerEvent(*r) for r in self.conn.execute(
            "SELECT id, uuid, at, kind, player_id, into_id, name, undoes FROM player_events "
            "ORDER BY id")]

    def last_live_event(self) -> PlayerEvent | None:
        """The latest rename or merge that is not undone."""
        row = self.conn.execute(
            """SELECT id, uuid, at, kind, player_id, into_id, name, undoes FROM player_events e
               WHERE kind != 'undo'
                 AND NOT EXISTS (SELECT 1 FROM player_events u WHERE u.undoes = e.id)
               ORDER BY id DESC LIMIT 1""").fetchone()
        return None if row is None else PlayerEvent(*row)

    def seated_together(self, a: int, b: int) -> bool:
        """Whether any player counted as ``a`` ever sat in a session with one counted
        as ``b``: in its seats, or brought by a ``seat join`` (a later joiner)."""
        row = self.conn.execute(
            """WITH members (session_id, player_id) AS (
                 SELECT session_id, player_id FROM seats
                 UNION SELECT e.session_id, t.id FROM entries e
                   JOIN players t ON t.name = json_extract(e.facts, '$.player')
                   WHERE """ + LIVE_JOIN + """)
               SELECT 1 FROM members x JOIN members y ON y.session_id = x.session_id
               JOIN player_names nx ON nx.id = x.player_id
               JOIN player_names ny ON ny.id = y.player_id
               WHERE nx.canon_id = ? AND ny.canon_id = ? LIMIT 1""", [a, b]).fetchone()
        return row is not None

    def add_event(self, kind: str, player_id: int, *, into_id: int | None = None,
                  name: str | None = None, undoes: int | None = None,
                  event_uuid: str | None = None, at: str | None = None) -> PlayerEvent:
        """Append one event and its audit row (inside ``ledger.writing()``)."""
        event = (event_uuid or new_uuid(), at or now(), kind, player_id, into_id, name, undoes)
        event_id = inserted_id(self.conn.execute(
            "INSERT INTO player_events (uuid, at, kind, player_id, into_id, name, undoes) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", event))
        self.ledger.audit(f"player.{kind}", {
            "event": event_id, "player": player_id, "into": into_id, "name": name,
            "undoes": undoes})
        return PlayerEvent(event_id, *event)
