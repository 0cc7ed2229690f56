"""Importing score sheets (big-two-scorer's, or the older big-two-stats format):
:mod:`ledger.formats.sheet` games to import specs.

A sheet with an error writes nothing.  A large sheet (:meth:`Importer.large`) is read
once, streamed, into one transaction, which an error rolls back; a smaller one (into a
bigger ledger, whose import commits every few thousand deals) is read twice: once to
check every line and count the games for the progress bar, once to import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, groupby
from pathlib import Path
from typing import Any

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.formats.merge import EntrySpec, Importer, ImportReport, Progress, SessionSpec
from ledger.formats.sheet import (
    DEFAULT_FRY_THRESHOLD,
    SCORER,
    SheetGame,
    SheetSession,
    older_fry,
    read_sheet,
    sheet_dialect,
)
from ledger.formats.sheet_games import LineReader, SheetScorer, sheet_lines, sheet_spec
from ledger.storage.bulk import ScoreRow
from ledger.storage.raw_rows import ImportedEntry
from ledger.storage.store import Ledger


def sheet_format(path: Path, origin: str, fry: int | None = None) -> tuple[str, int]:
    """(dialect, first fry threshold) of the sheet at ``path``: ``--fry`` is for the older
    big-two-stats sheets, which leave their threshold to the command line."""
    dialect = sheet_dialect(sheet_lines(path, origin))
    if fry is None:
        return dialect, DEFAULT_FRY_THRESHOLD
    if dialect == SCORER:
        raise InputError(_("--fry is for big-two-stats sheets (dates as yyyymmdd lines); "
                           "{origin} is a big-two-scorer sheet, which gives its fry threshold "
                           "in F=<n> lines").format(origin=origin))
    return dialect, older_fry(fry)


def scan_sheet(path: Path, origin: str, dialect: str = SCORER,
               fry: int = DEFAULT_FRY_THRESHOLD) -> tuple[int, int]:
    """Read the whole sheet once without writing: (sessions, games), or the first error."""
    sessions = games = 0
    last: SheetSession | None = None
    for game in read_sheet(sheet_lines(path, origin), origin, dialect, fry):
        if game.session is not last:
            last = game.session
            sheet_spec(last, origin)
            sessions += 1
        games += 1
    return sessions, games


class _SheetRun:
    """A session's games, streamed: as :class:`EntrySpec` (iterated: what a merge
    compares), or for a new session as the rows of the bulk path (:meth:`imported`)."""

    def __init__(self, scorer: SheetScorer, spec: SessionSpec, games: Iterator[SheetGame],
                 origin: str) -> None:
        self.scorer, self.spec, self.games, self.origin = scorer, spec, games, origin

    def __iter__(self) -> Iterator[EntrySpec]:
        return self.scorer.entries(self.spec, self.games, self.origin)

    def imported(self) -> Iterator[ImportedEntry]:
        return self.scorer.imported(self.spec, self.games)

    def columns(self) -> tuple[Mapping[int, Sequence[ScoreRow]], list[Any], list[int]]:
        """The scores, and the games as :meth:`BulkImport.import_scored` takes them."""
        flat, keys, _lines = self.scorer.columns(self.spec, self.games)
        return self.scorer.scores, flat, keys


def sheet_sessions(path: Path, origin: str, dialect: str = SCORER, fry: int = DEFAULT_FRY_THRESHOLD,
                   lines: Iterable[str] | None = None
                   ) -> Iterator[tuple[SessionSpec, Iterable[EntrySpec]]]:
    """The sheet's sessions, each with its games, streamed from the file (or ``lines``)."""
    games = read_sheet(sheet_lines(path, origin) if lines is None else lines, origin, dialect, fry)
    scorer = SheetScorer()
    for _session, run in groupby(games, key=lambda g: g.session):
        yield _sheet_run(run, scorer, origin)


def _sheet_run(run: Iterator[SheetGame], scorer: SheetScorer, origin: str
               ) -> tuple[SessionSpec, _SheetRun]:
    first = next(run)
    spec = sheet_spec(first.session, origin)
    return spec, _SheetRun(scorer, spec, chain([first], run), origin)


def import_sheet(ledger: Ledger, path: Path, origin: str,
                 start_progress: Callable[[int, int], Progress | None] | None = None,
                 fry: int | None = None) -> ImportReport:
    dialect, first_fry = sheet_format(path, origin, fry)
    report = ImportReport(origin, "sheet")
    lines = line_count(path)  # as many games at most
    if Importer.large(ledger, lines):
        # One transaction: no need to check the sheet before; the bar counts its lines.
        # Read in a process of its own where one can start (ledger.formats.sheet_reader).
        from ledger.formats.sheet_reader import read_elsewhere

        read = [0]
        sessions = read_elsewhere(path, origin, dialect, first_fry, read, lambda: sheet_sessions(
            path, origin, dialect, first_fry, LineReader(path, origin, read)))
        bar = start_progress(lines, lines) if start_progress else None
        progress = None if bar is None else _line_progress(bar, read)
        return Importer(ledger, report, progress, expected=lines, whole=True).run(sessions)
    count, games = scan_sheet(path, origin, dialect, first_fry)
    progress = start_progress(count, games) if start_progress else None
    return Importer(ledger, report, progress, expected=games).run(
        sheet_sessions(path, origin, dialect, first_fry))


def line_count(path: Path) -> int:
    """The file's lines (the last one with or without its newline), counted in blocks."""
    count, last = 0, b"\n"
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")


def _line_progress(bar: Progress, read: list[int]) -> Progress:
    """A progress bar of lines moved to ``read[0]`` whenever entries are written."""
    shown = 0

    def moved(_entries: int) -> None:
        nonlocal shown
        bar(read[0] - shown)
        shown = read[0]

    return moved
