"""``bigtwo player rename`` and ``player merge``: append-only player events.

Nothing recorded is rewritten: deal facts, seats and points keep the names as they
were typed.  A rename changes the name shown for a player from then on; a merge makes
player A count as B in every report across sessions.  Both are undone by a reversal
event.  The storage view ``player_names`` resolves them (ledger/storage/players.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ledger.book.actions import check_player_names
from ledger.core.errors import Conflict, InputError, NotFound
from ledger.core.i18n import _
from ledger.core.text import name_key

if TYPE_CHECKING:
    from ledger.storage.players import PlayerEvent, PlayerName
    from ledger.storage.store import Ledger


@dataclass(frozen=True)
class PlayerChange:
    """What one rename, merge or undo did, by the names shown before it."""

    kind: str  # rename, merge, undo rename or undo merge
    player: str  # the player's own name before
    target: str  # the new name, or the player merged into (after an undo: the same)

    def to_dict(self) -> dict[str, str]:
        """``{"action", "player", "target"}`` (``bigtwo undo --json`` after a rename or merge)."""
        return {"action": self.kind, "player": self.player, "target": self.target}


def find(ledger: Ledger, typed: str) -> PlayerName:
    """The player ``typed`` names (by name key, current names before the names first
    typed); one ``error:`` with a did-you-mean when there is none."""
    key = name_key(typed.strip())
    names = ledger.players.names()
    for field in ("own_name", "typed_name"):
        for p in names.values():
            if name_key(getattr(p, field)) == key:
                return p
    from ledger.core.names import did_you_mean

    shown = sorted({p.own_name for p in names.values()})
    raise NotFound(_("no player named {name} in this ledger{hint}").format(
        name=repr(typed), hint=did_you_mean(typed, shown)))


def rename(ledger: Ledger, old: str, new: str) -> PlayerChange:
    """Show player ``old`` as ``new`` from now on (one transaction)."""
    with ledger.writing():
        player = find(ledger, old)
        if player.canon_id != player.id:
            raise InputError(_("player {name} is merged into {into}; rename {into} instead")
                             .format(name=repr(player.own_name), into=repr(player.name)))
        (name,) = check_player_names([new])
        if name == player.own_name:
            raise InputError(_("player {name} is already called that").format(name=repr(name)))
        key = name_key(name)
        for other in ledger.players.names().values():
            if other.id != player.id and key in (name_key(other.own_name),
                                                 name_key(other.typed_name)):
                raise Conflict(_("the name {name} is taken by player {other}").format(
                    name=repr(name), other=repr(other.name)),
                    advice=_("to make them one player: bigtwo player merge"))
        from ledger.book.actions import refuse_look_alike

        refuse_look_alike(name, [o.name for o in ledger.players.names().values()
                                 if o.id != player.id], in_ledger=True)
        ledger.players.add_event("rename", player.id, name=name)
    return PlayerChange("rename", player.own_name, name)


def merge(ledger: Ledger, source: str, into: str) -> PlayerChange:
    """Count player ``source`` as ``into`` in every report from now on."""
    with ledger.writing():
        a, b = find(ledger, source), find(ledger, into)
        if a.canon_id == b.canon_id:
            raise InputError(_("{a} and {b} are one player already; nothing to merge")
                             .format(a=repr(a.own_name), b=repr(b.name)))
        for p in (a, b):
            if p.canon_id != p.id:
                raise InputError(_("player {name} is merged into {into} already; "
                                   "name {into} instead").format(name=repr(p.own_name),
                                                                 into=repr(p.name)))
        if ledger.players.seated_together(a.id, b.id):
            raise InputError(_("{a} and {b} sat in the same session, so they are two "
                               "people; only one player's two names can be merged")
                             .format(a=repr(a.own_name), b=repr(b.own_name)))
        ledger.players.add_event("merge", a.id, into_id=b.id)
    return PlayerChange("merge", a.own_name, b.own_name)


def undo_last(ledger: Ledger) -> PlayerChange:
    """Take back the latest rename or merge that is not undone (a reversal event)."""
    with ledger.writing():
        event = ledger.players.last_live_event()
        if event is None:
            raise InputError(_("nothing to undo: no player was renamed or merged"))
        names = ledger.players.names()
        player = names[event.player_id]
        if event.kind == "merge":
            assert event.into_id is not None
            ledger.players.add_event("undo", event.player_id, undoes=event.id)
            return PlayerChange("undo merge", player.own_name, names[event.into_id].own_name)
        ledger.players.add_event("undo", event.player_id, undoes=event.id)
        after = ledger.players.names()[event.player_id]
        return PlayerChange("undo rename", player.own_name, after.own_name)


def undo_comes_first(ledger: Ledger, session_id: int | None) -> bool:
    """Whether ``undo`` takes back a player rename or merge rather than the session's
    last action: the one done last is undone first."""
    from ledger.book.undo import next_undo_at

    event = ledger.players.last_live_event()
    if event is None:
        return False
    if session_id is None:
        return True
    return event.at > next_undo_at(ledger, session_id)


def undo_text(change: PlayerChange) -> str:
    """The line ``undo`` prints after taking back a rename or merge."""
    if change.kind == "undo rename":
        return _("undo: {new} is called {old} again").format(
            new=change.player, old=change.target)
    if change.kind == "undo merge":
        return _("undo: {name} and {into} are two players again").format(
            name=change.player, into=change.target)
    raise ValueError(change.kind)



def events(ledger: Ledger, player_ids: set[int] | None = None) -> list[tuple[PlayerEvent, PlayerChange]]:
    """Each rename, merge and undo, oldest first, with what it did by the names as they
    were then (only those touching ``player_ids`` when given)."""
    own = {pid: p.typed_name for pid, p in ledger.players.names().items()}
    before: dict[int, str] = {}  # rename event id -> the name it replaced
    by_id = {}
    found = []
    for e in ledger.players.events():
        by_id[e.id] = e
        touched = {e.player_id} | ({e.into_id} if e.into_id is not None else set())
        if e.kind == "rename" and e.name is not None:
            before[e.id] = own[e.player_id]
            change = PlayerChange("rename", own[e.player_id], e.name)
            own[e.player_id] = e.name
        elif e.kind == "merge" and e.into_id is not None:
            change = PlayerChange("merge", own[e.player_id], own[e.into_id])
        else:
            undone = by_id[e.undoes] if e.undoes is not None else e
            if undone.kind == "rename":
                new, own[undone.player_id] = own[undone.player_id], before[undone.id]
                change = PlayerChange("undo rename", new, own[undone.player_id])
            else:
                assert undone.into_id is not None
                touched.add(undone.into_id)
                change = PlayerChange("undo merge", own[undone.player_id], own[undone.into_id])
        if player_ids is None or touched & player_ids:
            found.append((e, change))
    return found


def event_lines(ledger: Ledger, player_ids: set[int] | None = None) -> list[str]:
    """Each rename, merge and undo, oldest first, with the names as they were then
    (only those touching ``player_ids`` when given): what ``log`` shows."""
    from ledger.book.clock import local_second

    lines = []
    for e, change in events(ledger, player_ids):
        if change.kind == "rename":
            text = _("{old} renamed to {new}").format(old=change.player, new=change.target)
        elif change.kind == "merge":
            text = _("{name} merged into {into}").format(name=change.player, into=change.target)
        else:
            text = undo_text(change)
        lines.append(f"{local_second(e.at)}  {text}")
    return lines


def event_dicts(ledger: Ledger, player_ids: set[int] | None = None) -> list[dict[str, Any]]:
    """The same events for ``log --json`` (English keys): ``kind`` is rename, merge, undo
    rename or undo merge; ``player`` the name before, ``name`` a rename's new name (after
    an undo: the name given back), ``into`` the player merged into; ``undoes`` the uuid
    of the event an undo takes back."""
    uuids = {e.id: e.uuid for e in ledger.players.events()}
    out = []
    for e, change in events(ledger, player_ids):
        target = "into" if change.kind.endswith("merge") else "name"
        out.append({"uuid": e.uuid, "kind": change.kind, "at": e.at, "player": change.player,
                    target: change.target,
                    "undoes": uuids.get(e.undoes) if e.undoes is not None else None})
    return out
