"""A large score sheet read in a process of its own while the import writes it.

``bigtwo import`` of a large sheet (one transaction: :mod:`ledger.formats.sheet_import`)
spends about as long reading, checking and scoring the lines as SQLite spends writing
them.  Here the reading runs in a child process (``python -m
ledger.formats.sheet_reader``), which hands the import each session's games, keyed by
score (:meth:`SheetScorer.columns`), as JSON lines in batches over a pipe: on two cores the
reading and the writing overlap.  The child reads the file itself; what it sends is its
parent's to trust, as a function's result is.

The child's first message says it is ready; a child that cannot start (no processes, as
in Pyodide, or none that can run this package) leaves the reading to the import's own
process, as before.  The child's standard input is a pipe the import never writes to:
when the import dies, however (``kill -9``), the pipe ends and the child exits at once
(:mod:`ledger.formats.lifetime`), not at its next message, a whole session later.

An error reading the sheet is sent where it comes, with its line: the import raises it
there, and its transaction writes nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import groupby
from pathlib import Path
from typing import IO, Any

from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import _, choose, language
from ledger.formats.merge import EntrySpec, SessionSpec, collected_after
from ledger.formats.sheet import SheetError, SheetSession, read_sheet
from ledger.formats.sheet_games import (
    LineReader,
    SheetScorer,
    points_of,
    sheet_entry,
    sheet_spec,
)
from ledger.storage.bulk import ScoreRow
from ledger.storage.raw_rows import ImportedEntry
from ledger.storage.rows import PointsTuple

BATCH = 32  # sessions a message
FIRST_BATCH = 4  # sessions of the first: the import starts writing sooner
READY, SESSIONS, FAILED, END = "ready", "sessions", "failed", "end"


class ReadRun:
    """One session's games as the reader process sent them: for a new session, keyed by
    score (:meth:`columns`); for a session the ledger has (a merge) or whose players were
    renamed, as entries (iterated) or rows (:meth:`imported`) made of those here."""

    def __init__(self, spec: SessionSpec, games: list[Any], keys: list[int], lines: list[int],
                 scores: Mapping[int, Sequence[ScoreRow]], origin: str) -> None:
        self.spec, self.games, self.keys, self.lines = spec, games, keys, lines
        self.scores, self.origin = scores, origin

    def columns(self) -> tuple[Mapping[int, Sequence[ScoreRow]], list[Any], list[int]]:
        return self.scores, self.games, self.keys

    def _rows(self) -> Iterator[tuple[str, int, str, list[PointsTuple], int]]:
        names, games, scores = self.spec.players, self.games, self.scores
        for i, (key, line) in enumerate(zip(self.keys, self.lines, strict=True)):
            yield (games[3 * i], games[3 * i + 1], games[3 * i + 2],
                   points_of(names, scores[key]), line)

    def __iter__(self) -> Iterator[EntrySpec]:
        for uuid, deal, facts, points, line in self._rows():
            yield sheet_entry(self.spec, self.origin, uuid, deal, line, points, facts)

    def imported(self) -> Iterator[ImportedEntry]:
        started = self.spec.started_at
        for uuid, deal, facts, points, _line in self._rows():
            yield ImportedEntry(uuid, "deal", deal, facts, points, started)


def read_elsewhere(path: Path, origin: str, dialect: str, fry: int, read: list[int],
                   here: Callable[[], Iterator[tuple[SessionSpec, Iterable[EntrySpec]]]]
                   ) -> Iterator[tuple[SessionSpec, Iterable[EntrySpec]]]:
    """The sheet's sessions as a reader process sends them, or as ``here()`` reads them
    when no reader process can start.  ``read[0]``: the last line it has read (progress).

    The process is started now and its first message waited for only when the first
    session is asked for: it starts up while the import gets its transaction ready."""
    if sys.platform == "emscripten":  # Pyodide: no processes
        return here()
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed by _stop; never a full pipe
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "ledger.formats.sheet_reader", str(path), origin, dialect,
             str(fry), language()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
    except OSError:
        errors.close()
        return here()
    return _once_ready(child, errors, origin, read, here)


def _once_ready(child: subprocess.Popen[bytes], errors: IO[bytes], origin: str,
                read: list[int],
                here: Callable[[], Iterator[tuple[SessionSpec, Iterable[EntrySpec]]]]
                ) -> Iterator[tuple[SessionSpec, Iterable[EntrySpec]]]:
    assert child.stdout is not None
    if _received_message(child.stdout) != [READY]:
        # It could not start (say, this package is not importable there).
        _stop(child, errors)
        yield from here()
        return
    yield from _received(child, errors, origin, read)


def _received(child: subprocess.Popen[bytes], errors: IO[bytes], origin: str, read: list[int]
              ) -> Iterator[tuple[SessionSpec, ReadRun]]:
    assert child.stdout is not None
    scores: dict[int, Sequence[ScoreRow]] = {}
    try:
        while True:
            message = _received_message(child.stdout)
            if message is None:
                child.wait()
                errors.seek(0)
                said = errors.read().decode("utf-8", "replace").strip().splitlines()
                raise LedgerError(_("the process reading {origin} stopped ({why}); nothing of "
                                    "it was imported").format(
                    origin=origin, why=said[-1] if said else _("exit code {code}").format(
                        code=child.returncode))) from None
            kind = message[0]
            if kind == END:
                return
            if kind == FAILED:
                raise SheetError(message[1])
            _kind, sessions, last_line = message
            read[0] = last_line  # read up to there: the bar moves as these are written
            for (date, fry, players, run, line), seats, games, keys, lines, new_scores in sessions:
                scores.update((int(key), rows) for key, rows in new_scores.items())
                session = SheetSession(date, fry, tuple(players), run, line)
                spec = sheet_spec(session, origin, tuple(seats))
                yield spec, ReadRun(spec, games, keys, lines, scores, origin)
    finally:
        _stop(child, errors)


def _stop(child: subprocess.Popen[bytes], errors: IO[bytes]) -> None:
    if child.poll() is None:
        child.kill()
    child.wait()
    for stream in (child.stdin, child.stdout):
        if stream is not None:
            stream.close()
    errors.close()


def _send(out: IO[bytes], message: list[Any]) -> None:
    out.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")


def _received_message(stream: IO[bytes]) -> Any:
    """The next message (a JSON line), or None at the end of the stream (or of a line
    that is not one: a reader that could not start)."""
    line = stream.readline()
    if not line.endswith(b"\n"):
        return None
    try:
        return json.loads(line)
    except ValueError:
        return None


def serve(path: Path, origin: str, dialect: str, fry: int, out: IO[bytes]) -> None:
    """The reader process: the sheet's sessions, keyed, in batches, then the end (or
    the error that stopped it)."""
    _send(out, [READY])
    scorer = SheetScorer()
    read = [0]
    lines = LineReader(path, origin, read)
    batch: list[tuple[Any, ...]] = []
    sent = 0  # scores sent so far (keys are numbered from 0 in order)
    sent_any = False  # a batch
    try:
        for _session, run in groupby(read_sheet(lines, origin, dialect, fry),
                                     key=lambda g: g.session):
            games = list(run)
            spec = sheet_spec(games[0].session, origin)
            flat, keys, numbers = scorer.columns(spec, games)
            new: dict[int, Sequence[ScoreRow]] = {
                key: scorer.scores[key] for key in range(sent, len(scorer.scores))}
            sent = len(scorer.scores)
            session = games[0].session
            batch.append(((session.date, session.fry_threshold, session.players, session.run,
                           session.line), spec.players, flat, keys, numbers, new))
            if len(batch) >= (BATCH if sent_any else FIRST_BATCH):
                _send(out, [SESSIONS, batch, read[0]])
                batch, sent_any = [], True
        if batch:
            _send(out, [SESSIONS, batch, read[0]])
    except InputError as exc:
        _send(out, [FAILED, str(exc)])
        return
    _send(out, [END])


def main(argv: Sequence[str]) -> None:
    from ledger.formats.lifetime import exit_with_parent

    exit_with_parent(sys.stdin.buffer.read)  # the import never writes: its end is its exit
    path, origin, dialect, fry, lang = argv
    choose(lang)
    out = sys.stdout.buffer
    try:
        with collected_after():
            serve(Path(path), origin, dialect, int(fry), out)
        out.flush()
    except BrokenPipeError:  # the import stopped (Ctrl-C, an error of its own)
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
