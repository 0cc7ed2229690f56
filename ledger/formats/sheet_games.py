"""A score sheet's games made into what the import takes: the file's lines, each
session's :class:`SessionSpec`, and the games' facts and points (the scorer), as
entries, as the bulk path's rows, or keyed by score.

Shared by the import (:mod:`ledger.formats.sheet_import`) and the reader process of a
large sheet (:mod:`ledger.formats.sheet_reader`), which score the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ledger.book import actions as book
from ledger.core.errors import InputError
from ledger.core.i18n import N_, _
from ledger.core.phrase import Phrase, local
from ledger.core.scoring import score_deal
from ledger.formats.merge import EntrySpec, SessionSpec
from ledger.formats.sheet import SheetError, SheetGame, SheetSession
from ledger.storage.bulk import ScoreRow
from ledger.storage.raw_rows import ImportedEntry
from ledger.storage.rows import PointsTuple


def sheet_lines(path: Path, origin: str) -> Iterator[str]:
    """The file's lines, streamed; bytes that are not UTF-8 are an error naming the line."""
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise SheetError(_("{origin} line {number}: not UTF-8 text").format(
                    origin=origin, number=number)) from None
            yield line


@lru_cache(maxsize=4096)
def _checked_names(players: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(book.check_player_names(players))


def sheet_spec(s: SheetSession, origin: str, seats: tuple[str, ...] | None = None) -> SessionSpec:
    """The session to import; ``seats``: its names as checked already (by the reader
    process, :mod:`ledger.formats.sheet_reader`)."""
    where = Phrase(N_("{origin} line {number}"), origin=origin, number=s.line)
    try:
        if seats is None:
            seats = _checked_names(s.players)
    except InputError as exc:
        raise SheetError(_("{where}: {problem}").format(where=local(where), problem=exc)) from None
    return SessionSpec(
        uuid=s.uuid, name=s.name, rules=s.rules, stake="1", currency="PTS", teams=False,
        started_at=s.started_at, ended_at=None, players=tuple(seats), where=where,
        from_sheet=True,
    )


class SheetScorer:
    """Facts and points of sheet games, fast: a sheet can hold hundreds of thousands.

    The points are the pure core's (``score_deal``), memoised: without teams a player's
    points depend on their own cards, their part (winner, taker of all losses) and the
    others' cards as a multiset, so a game is looked up by its seats sorted by cards (a
    few thousand keys for any sheet).  The facts JSON is written from a template in
    exactly the form ``json.dumps(Deal.to_dict(), sort_keys=True)`` gives (checked on the
    first game of every session).
    """

    def __init__(self) -> None:
        # A sheet's rules are `classic` at its fry threshold: the threshold is their key.
        # By seats sorted by cards, and (a shortcut) by the cards in seat order.
        self.values: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
        self.seated: dict[tuple[Any, ...], tuple[bool, list[tuple[Any, ...]]]] = {}
        # For the bulk path (keyed): a key by (threshold, cards, takes), a score by key.
        self.keys: dict[tuple[Any, ...], int] = {}
        self.scores: dict[int, list[Any]] = {}

    def _seated(self, spec: SessionSpec, game: SheetGame) -> tuple[bool, list[tuple[Any, ...]]]:
        """Each seat's (deals, wins, fried, cards, penalty, net, payee seat), in seat order,
        and whether no seat has a payee (pairwise: the usual case)."""
        cards, takes = game.cards, game.takes
        order = sorted(range(len(cards)), key=cards.__getitem__)
        key = (game.session.fry_threshold, tuple(sorted(cards)),
               None if takes is None else order.index(takes))
        ranked = self.values.get(key)
        if ranked is None:
            ranked = self.values[key] = self._score(spec, game, order)
        out: list[tuple[Any, ...]] = [()] * len(cards)
        for j, seat in enumerate(order):
            *head, payee = ranked[j]
            out[seat] = (*head, None if payee is None else order[payee])
        return all(v[6] is None for v in out), out

    @staticmethod
    def _score(spec: SessionSpec, game: SheetGame, order: list[int]) -> list[tuple[Any, ...]]:
        """Each seat's points in ``order`` (payees as positions in that order)."""
        names = spec.players
        score = score_deal(spec.rules, names, game.deal())
        rank = {names[seat]: j for j, seat in enumerate(order)}
        return [(1, int(score.wins[n]), int(score.fried[n]), score.cards[n], score.penalty[n],
                 score.net[n], None if (payee := score.payee[n]) is None else rank[payee])
                for n in (names[seat] for seat in order)]

    def entries(self, spec: SessionSpec, games: Iterable[SheetGame], origin: str) -> Iterator[EntrySpec]:
        for game, points, facts in self.scored(spec, games):
            yield sheet_entry(spec, origin, game.uuid, game.position, game.line, points, facts)

    def imported(self, spec: SessionSpec, games: Iterable[SheetGame]) -> Iterator[ImportedEntry]:
        """The games as the bulk path writes them: no :class:`EntrySpec` and no place
        for messages (a new session's games cannot conflict)."""
        started = spec.started_at
        for game, points, facts in self.scored(spec, games):
            yield ImportedEntry(game.uuid, "deal", game.position, facts, points, started)

    def columns(self, spec: SessionSpec, games: Iterable[SheetGame]
                ) -> tuple[list[Any], list[int], list[int]]:
        """The games as :meth:`BulkImport.import_scored` takes them: (uuid, deal number,
        facts JSON) of each end to end, the key of each one's score in :attr:`scores`
        (each seat's points, payees as seats), and each one's line."""
        facts = self._facts(spec)
        keys, scores = self.keys, self.scores
        flat: list[Any] = []
        keyed: list[int] = []
        lines: list[int] = []
        for game in games:
            cards, takes = game.cards, game.takes
            found = (game.session.fry_threshold, cards, takes)
            key = keys.get(found)
            if key is None:
                key = keys[found] = len(keys)
                scores[key] = self._seated(spec, game)[1]
            flat += (game.uuid, game.position, facts(game))
            keyed.append(key)
            lines.append(game.line)
        return flat, keyed, lines

    def scored(self, spec: SessionSpec, games: Iterable[SheetGame]
               ) -> Iterator[tuple[SheetGame, list[PointsTuple], str]]:
        """Each game with its points rows (seat order) and its facts as JSON text."""
        names = spec.players
        facts = self._facts(spec)
        seated = self.seated
        for game in games:
            cards, takes = game.cards, game.takes
            key = (game.session.fry_threshold, cards, takes)
            found = seated.get(key)
            if found is None:
                found = seated[key] = self._seated(spec, game)
            no_payee, values = found
            yield game, points_of(names, values, no_payee), facts(game)

    @staticmethod
    def _facts(spec: SessionSpec) -> Callable[[SheetGame], str]:
        """A game's facts JSON, from a template of the session's names (checked against
        ``Deal.to_dict()`` on its first game)."""
        names = spec.players
        quoted = [json.dumps(n, ensure_ascii=False).replace("{", "{{").replace("}", "}}")
                  for n in names]
        cards_part = '"cards": {{' + ", ".join(
            f"{quoted[i]}: {{{i}}}" for i in sorted(range(len(names)), key=lambda i: names[i])
        ) + "}}"
        plain = ("{{" + cards_part + "}}").format
        missed = ("{{" + cards_part + ', "missed_call": true}}').format
        assist = [('{{"assist": ' + q + ", " + cards_part + "}}").format for q in quoted]
        checked = False

        def facts(game: SheetGame) -> str:
            nonlocal checked
            cards, takes = game.cards, game.takes
            text = (plain if takes is None else missed if cards[takes] == 0 else assist[takes])(*cards)
            if not checked:
                expected = json.dumps(game.deal().to_dict(), sort_keys=True, ensure_ascii=False)
                assert text == expected, (text, expected)
                checked = True
            return text

        return facts


def sheet_entry(spec: SessionSpec, origin: str, uuid: str, deal: int, line: int,
                points: list[PointsTuple], facts: str) -> EntrySpec:
    """A sheet game as the importer compares it with the ledger (a merged session),
    its place named for messages."""
    # A dated sheet's games carry its date, not the time of the import.
    return EntrySpec(uuid, "deal", deal, None, spec.started_at,
                     Phrase(N_("{origin} line {number} (deal {deal})"), origin=origin,
                            number=line, deal=deal), points, facts)


def points_of(names: Sequence[str], values: Sequence[ScoreRow], no_payee: bool = False
              ) -> list[PointsTuple]:
    """A score's points rows by player: ``values`` each seat's (deals, wins, fried,
    cards, penalty, net, payee seat), in the order of ``names``."""
    if no_payee:  # (player, deals, wins, fried, cards, penalty, net, payee None)
        return [(name, *v) for name, v in zip(names, values, strict=True)]  # type: ignore[misc]
    return [(name, d, w, f, c, p, n, None if payee is None else names[payee])
            for name, (d, w, f, c, p, n, payee) in zip(names, values, strict=True)]


class LineReader:
    """A sheet's lines (:func:`sheet_lines`), and in ``read[0]`` how many have been read:
    the progress of an import that did not count its games first."""

    def __init__(self, path: Path, origin: str, read: list[int]) -> None:
        self.path, self.origin, self.read = path, origin, read

    def __iter__(self) -> Iterator[str]:
        for number, line in enumerate(sheet_lines(self.path, self.origin), 1):
            self.read[0] = number
            yield line
