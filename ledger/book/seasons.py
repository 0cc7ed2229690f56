"""Named seasons: ``bigtwo season add NAME --since DATE --until DATE``, then
``--season NAME`` wherever a report takes a range (ledger.book.scope).

A season is stored append-only (ledger/storage/seasons.py): adding a name again gives
it new dates, removing it appends a row; reports read each name's latest row.
"""

from __future__ import annotations

from datetime import date
from typing import Any, NamedTuple

from ledger.book.gate import check_season
from ledger.book.keys import refuse_held
from ledger.core.errors import NotFound
from ledger.core.i18n import _
from ledger.core.names import did_you_mean
from ledger.storage.seasons import SeasonRow
from ledger.storage.store import Ledger


class Season(NamedTuple):
    name: str
    since: date | None
    until: date | None
    uuid: str

    @classmethod
    def of(cls, row: SeasonRow) -> Season:
        return cls(row.name, None if row.since is None else date.fromisoformat(row.since),
                   None if row.until is None else date.fromisoformat(row.until), row.uuid)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "since": self.since and self.since.isoformat(),
                "until": self.until and self.until.isoformat(), "uuid": self.uuid}


def add_season(ledger: Ledger, name: str, since: str | None, until: str | None,
               entry_uuid: str | None = None) -> tuple[Season, bool]:
    """Add (or give new dates to) season ``name``; (the season, whether it replaced one).

    A repeat with the same ``entry_uuid`` writes nothing and returns what is there."""
    name, first, last = check_season("add", name, since, until)  # the gate's
    with ledger.writing():
        if entry_uuid is not None and (done := ledger.seasons.by_uuid(entry_uuid)) is not None:
            return Season.of(done), False
        refuse_held(ledger, entry_uuid, "seasons")  # one key, one action, of any kind
        before = ledger.seasons.find(name)
        row = ledger.seasons.add("add", name, None if first is None else first.isoformat(),
                                 None if last is None else last.isoformat(), entry_uuid)
        ledger.audit("season.add", row.to_dict())
    return Season.of(row), before is not None


def remove_season(ledger: Ledger, name: str) -> Season:
    with ledger.writing():
        found = find_season(ledger, name)
        ledger.seasons.add("remove", found.name, None, None)
        ledger.audit("season.remove", {"name": found.name, "uuid": found.uuid})
    return found


def seasons(ledger: Ledger) -> list[Season]:
    return [Season.of(r) for r in ledger.seasons.current()]


def find_season(ledger: Ledger, name: str) -> Season:
    """The season called ``name`` (any case); a NotFound naming the close ones."""
    row = ledger.seasons.find(name.strip())
    if row is None:
        names = [s.name for s in ledger.seasons.current()]
        hint = did_you_mean(name, names)
        advice = None if hint else (_("see: bigtwo season list") if names else _(
            "add one with bigtwo season add NAME --since DATE --until DATE"))
        raise NotFound(_("no season {name!r} in this ledger").format(name=name) + hint,
                       advice=advice)
    return Season.of(row)
