"""Score sheets in the big-two-scorer format: reading them, and `bigtwo import` of them."""

from __future__ import annotations

import datetime as dt
import json
import random
import subprocess
import sys
import uuid

import pytest
from helpers import ROOT, file_digest

from ledger.core.errors import LedgerError
from ledger.formats.exchange import import_file
from ledger.formats.sheet import SheetError, read_sheet, sheet_rules, uuid5
from ledger.storage.store import open_ledger

SAMPLES = ROOT / "sample_sessions"

# docs/scoring.md, worked example 6: games, wins, fried, penalty, net.
EXAMPLE_6 = {
    "a": (2, 1, 0, 1, 84), "x": (2, 1, 0, 9, -27), "b": (4, 1, 1, 23, 5),
    "c": (4, 0, 1, 25, -3), "d": (4, 1, 1, 39, -59),
}


def games_of(text: str) -> list:
    return list(read_sheet(text.splitlines(), "t.txt"))


def table(cli, *args: str) -> dict[str, tuple[int, ...]]:
    data = json.loads(cli.ok(*args, "standings", "--all", "--json"))
    return {p["name"]: (p["deals"], p["wins"], p["fried"], p["penalty"], p["net"])
            for p in data["players"]}


# --- an independent scorer, written from the format's description ------------------------


def straightforward_table(text: str) -> dict[str, tuple[int, ...]]:
    """Per deal: tiers 1..F-1 x1, F..12 x2, 13 x3; a `t` loser takes every penalty, a `t`
    winner takes them all too; nets sum(p') - 4p'.  Counted per player over the file."""
    threshold, names, out = 10, None, {}
    for line in text.splitlines():
        words = line.split("#")[0].split()
        if not words or (len(words) == 1 and words[0][0].isdigit()):
            continue  # blank, comment or date
        if words[0].startswith("F="):
            threshold = int(words[0][2:])
            continue
        if not words[0][0].isdigit():
            names = words
            continue
        cards = [int(w.rstrip("t")) for w in words]
        taker = next((i for i, w in enumerate(words) if w.endswith("t")), None)
        base = [c if c < threshold else (2 * c if c < 13 else 3 * c) for c in cards]
        final = base if taker is None else [sum(base) if i == taker else 0 for i in range(4)]
        for i, name in enumerate(names):
            row = out.setdefault(name, [0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += cards[i] == 0
            row[2] += cards[i] >= threshold
            row[3] += final[i]
            row[4] += sum(final) - 4 * final[i]
    return {k: tuple(v) for k, v in out.items()}


def year_of_play(seed: int, games: int = 400) -> str:
    """A generated year: many dates, changing players, t markers, changes of F."""
    rng = random.Random(seed)
    club = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    lines, written, day = ["# generated"], 0, dt.date(2024, 1, 1)
    while written < games:
        lines.append(f"{day.isoformat()}  # an evening")
        if rng.random() < 0.3:
            lines.append(f"F={rng.choice([10, 11, 12, 13, 20])}")
        for _ in range(rng.choice([1, 1, 2])):
            lines.append(" ".join(rng.sample(club, 4)))
            for _ in range(min(rng.randrange(3, 15), games - written)):
                winner = rng.randrange(4)
                cells = ["0" if i == winner else str(rng.randrange(1, 14)) for i in range(4)]
                if rng.random() < 0.08:
                    cells[rng.randrange(4)] += "t"
                lines.append(" ".join(cells) + ("  # note" if rng.random() < 0.05 else ""))
                written += 1
            lines.append("")
        day += dt.timedelta(days=rng.choice([3, 4, 7]))
    return "\n".join(lines) + "\n"


# --- reading ----------------------------------------------------------------------------


def test_example_6_reads_as_two_sessions() -> None:
    games = games_of((SAMPLES / "example6.txt").read_text())
    assert [(g.session.players, g.position, g.cards, g.takes) for g in games] == [
        (("a", "b", "c", "d"), 1, (0, 11, 12, 13), None),
        (("a", "b", "c", "d"), 2, (1, 1, 1, 0), None),
        (("x", "b", "c", "d"), 1, (3, 0, 1, 2), 0),
        (("x", "b", "c", "d"), 2, (0, 1, 1, 1), 0),
    ]
    assert games[2].deal().assist == "x"  # `t` on a loser: an assist
    assert games[3].deal().missed_call  # `t` on the winner: a missed last-card call
    assert games[0].session is games[1].session
    assert games[0].session.uuid != games[2].session.uuid


def test_comments_blanks_dates_and_thresholds() -> None:
    text = """
    # a comment line
    2024-03-01   # a date with a comment
    F=11
       Ann Ben Cat Dan   # names
    0 3 11 8  # a game

    2024-03-01
    Ann Ben Cat Dan
    9 0 10 11
    """
    games = games_of(text)
    assert [g.line for g in games] == [6, 10]
    assert games[0].session is games[1].session  # restating the same date and names changes nothing
    session = games[0].session
    assert (session.date, session.fry_threshold, session.run) == ("2024-03-01", 11, 0)
    assert session.started_at == "2024-03-01T12:00:00.000000+00:00"  # noon; the tests run in UTC
    assert session.name == "2024-03-01: Ann Ben Cat Dan F=11"


@pytest.mark.parametrize(
    ("change", "new_session"),
    [("", False), ("F=10", False), ("F=12", True), ("2024-03-02", True), ("2024-03-01", False),
     ("Ben Ann Cat Dan", True), ("Ann Ben Cat Eve", True), ("Ann Ben Cat Dan", False)],
)
def test_what_starts_a_new_session(change: str, new_session: bool) -> None:
    games = games_of(f"2024-03-01\nAnn Ben Cat Dan\n0 1 2 3\n{change}\n1 0 2 3\n")
    assert (games[0].session != games[1].session) is new_session
    assert games[1].position == (1 if new_session else 2)


def test_identities_are_stable_and_runs_are_counted_per_date() -> None:
    text = "2024-01-05\na b c d\n0 1 2 3\nx b c d\n0 1 2 3\na b c d\n0 1 2 3\n"
    games = games_of(text)
    assert [g.session.run for g in games] == [0, 1, 2]
    assert len({g.session.uuid for g in games}) == 3
    grown = games_of(text + "1 0 2 3\n2024-01-06\n0 2 2 2\n")
    assert [g.uuid for g in grown[:3]] == [g.uuid for g in games]
    assert grown[3].session is grown[2].session and grown[3].position == 2
    assert grown[4].session.date == "2024-01-06" and grown[4].session.run == 0
    # A game's uuid is uuid5 of its session's uuid and its position.
    assert games[0].uuid == str(uuid.uuid5(uuid.UUID(games[0].session.uuid), "1"))


def test_games_before_any_date_are_undated() -> None:
    (game,) = games_of("a b c d\n0 1 2 3\n")
    assert game.session.date is None and game.session.started_at is None
    assert game.session.name == "undated: a b c d"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("a b c d\n0 1 2", 2, "4 numbers of cards left"),
        ("# no names yet\n0 1 2 3", 2, "before any line of player names"),
        ("a b c d\n1 2 3 4", 2, "exactly one winner"),
        ("a b c d\n0 0 1 2", 2, "a and b all have 0 cards"),
        ("a b c d\n0 1t 2t 3", 2, "at most one"),
        ("a b c d\n0 14 2 3", 2, "b has 14 cards left"),
        ("a b c d\n0 99999999 2 3", 2, "at most 13"),
        ("F=9", 1, "below 10"),
        ("\n\nF=99999", 3, "too large"),
        ("2024-13-01", 1, "not a date"),
        ("a b c", 1, "needs 4 players, not 3"),
        ("a b c d e", 1, "needs 4 players, not 5"),
        ("a a b c", 1, "named twice"),
        ("F = 13", 1, "cannot read"),
        ("a b c# d", 1, "needs 4 players, not 3"),
        ("a b 3c d", 1, "'3c' is not a player name"),
        ("a b c* d", 1, "not a player name"),
        ("a b c d\n0 1 x 3", 2, "cannot read"),
        ("a b c d\n0 1 2 3T", 2, "cannot read"),
        ("2024-01-01 a", 1, "cannot read"),
    ],
)
def test_errors_name_the_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(SheetError) as err:
        games_of(text)
    assert f"t.txt line {line}: " in str(err.value)
    assert fragment in str(err.value)


def test_fry_threshold_rules() -> None:
    assert sheet_rules(10).tiers == ((1, 1), (10, 2), (13, 3))
    assert sheet_rules(12).tiers == ((1, 1), (12, 2), (13, 3))
    assert sheet_rules(13).tiers == ((1, 1), (13, 3))
    assert sheet_rules(500).tiers == ((1, 1),)  # big-two-scorer fries nobody from 14 on
    assert sheet_rules(11).name == "classic" and sheet_rules(11).assist and sheet_rules(11).missed_call


def test_uuid5_matches_the_standard_library() -> None:
    for n in range(50):
        ns = uuid.uuid4()
        assert uuid5(ns.bytes, str(n)) == str(uuid.uuid5(ns, str(n)))


# --- importing ----------------------------------------------------------------------------


def test_example_6_imports_with_the_exact_numbers(cli) -> None:
    out = cli.ok("import", str(SAMPLES / "example6.txt"))
    assert "4 deals added (2 new sessions" in out
    assert table(cli) == EXAMPLE_6
    sessions = json.loads(cli.ok("session", "list", "--json"))
    assert [s["rules"] for s in sessions] == ["classic", "classic"]
    assert [s["players"] for s in sessions] == [list("abcd"), list("xbcd")]


def test_a_year_of_play_matches_a_straightforward_scorer(cli, tmp_path) -> None:
    text = year_of_play(seed=7)
    sheet = tmp_path / "year.txt"
    sheet.write_text(text)
    cli.ok("import", str(sheet))
    expected = straightforward_table(text)
    assert sum(v[0] for v in expected.values()) == 4 * 400
    assert table(cli) == expected


def test_the_sample_year_matches_a_straightforward_scorer(cli) -> None:
    text = (SAMPLES / "year.txt").read_text()
    out = cli.ok("import", str(SAMPLES / "year.txt"))
    assert "375 deals added (51 new sessions" in out
    assert table(cli) == straightforward_table(text)


def test_the_sample_year_is_what_its_script_writes() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_year_sheet.py")],
                            capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout == (SAMPLES / "year.txt").read_text()


def test_reimporting_adds_nothing(cli, tmp_path, ledger_path) -> None:
    sheet = tmp_path / "s.txt"
    sheet.write_text(year_of_play(seed=3, games=120))
    cli.ok("import", str(sheet))
    before = file_digest(ledger_path)
    out = cli.ok("import", str(sheet))
    assert "nothing new" in out and "120 deals are already in the ledger" in out
    assert file_digest(ledger_path) == before


def test_a_growing_sheet_adds_only_its_new_games(cli, tmp_path) -> None:
    full = year_of_play(seed=11, games=200).splitlines(keepends=True)
    sheet = tmp_path / "s.txt"
    cut = next(i for i in range(len(full) // 2, len(full)) if full[i][0].isdigit() and " " in full[i])
    sheet.write_text("".join(full[: cut + 1]))  # stops in the middle of an evening
    first = cli.ok("import", str(sheet))
    sheet.write_text("".join(full))
    second = cli.ok("import", str(sheet))
    added = [int(t.split(" deals added")[0].split()[-1]) for t in (first, second)]
    assert sum(added) == 200
    assert "1 session merged" in second
    assert table(cli) == straightforward_table("".join(full))


def test_import_standings_are_those_of_the_files_sessions(cli, tmp_path) -> None:
    """`import --standings`: the sessions of the file, merged and new, not the ledger's others."""
    other = tmp_path / "other.txt"
    other.write_text(year_of_play(seed=4, games=80))
    full = year_of_play(seed=11, games=200).splitlines(keepends=True)
    sheet = tmp_path / "s.txt"
    cut = next(i for i in range(len(full) // 2, len(full)) if full[i][0].isdigit() and " " in full[i])
    sheet.write_text("".join(full[: cut + 1]))
    cli.ok("import", str(other))
    cli.ok("import", str(sheet))
    sheet.write_text("".join(full))
    data = json.loads(cli.ok("import", str(sheet), "--standings", "--json"))
    got = {p["name"]: (p["deals"], p["wins"], p["fried"], p["penalty"], p["net"])
           for p in data["standings"]["players"]}
    assert got == straightforward_table("".join(full))
    text = cli.ok("import", str(sheet), "--standings")  # nothing new: the same table
    assert "nothing new" in text and all(name in text for name in got)


def test_an_edited_game_is_a_conflict_and_its_session_is_not_touched(cli, tmp_path, ledger_path) -> None:
    sheet = tmp_path / "s.txt"
    sheet.write_text("2024-02-02\nAnn Ben Cat Dan\n0 1 2 3\n4 0 5 6\n")
    cli.ok("import", str(sheet))
    sheet.write_text("2024-02-02\nAnn Ben Cat Dan\n0 1 2 3\n4 0 5 7\n1 1 0 1\n"
                     "2024-02-03\nAnn Ben Cat Dan\n0 1 1 1\n")
    before = table(cli)
    result = cli("import", str(sheet))
    assert result.exit_code == 1
    assert "s.txt line 4 (deal 2)" in result.stderr
    assert "facts: ledger Ann=4 Ben=0 Cat=5 Dan=6, file Ann=4 Ben=0 Cat=5 Dan=7" in result.stderr
    assert "1 of 2 sessions not imported (conflicts)" in result.stdout
    after = table(cli)
    assert after["Ann"][0] == before["Ann"][0] + 1  # only the other day's session came in
    assert ledger_path.exists()


def test_a_bad_sheet_writes_nothing(cli, tmp_path, ledger_path) -> None:
    sheet = tmp_path / "bad.txt"
    sheet.write_text("2024-01-01\nAnn Ben Cat Dan\n0 1 2 3\n" * 50 + "0 1 2\n")
    err = cli.fails("import", str(sheet), code=2)
    assert "bad.txt line 151: a game needs 4 numbers" in err
    cli.ok("session", "list")
    assert "no sessions yet" in cli.ok("session", "list")


def test_bad_names_and_bytes_name_the_line(cli, tmp_path) -> None:
    sheet = tmp_path / "names.txt"
    sheet.write_text("2024-01-01\n\nAnn Ben=x Cat Dan\n0 1 2 3\n")
    assert "names.txt line 3: " in cli.fails("import", str(sheet))
    sheet.write_text("2024-01-01\nAnn Ben Cat ann\n0 1 2 3\n")
    assert "names.txt line 2: player 'Ann' is seated more than once" in cli.fails("import", str(sheet))
    sheet.write_bytes(b"Ann Ben Cat Dan\n0 1 2 3\n\xff\xfe 1 2 3\n")
    assert "names.txt line 3: not UTF-8 text" in cli.fails("import", str(sheet))
    assert "no such file" in cli.fails("import", str(tmp_path / "missing.txt"))


def test_an_interrupted_import_leaves_whole_sessions_and_finishes_when_run_again(
        tmp_path, monkeypatch) -> None:
    from ledger.storage.bulk import BulkImport

    text = year_of_play(seed=5, games=300)
    sheet = tmp_path / "s.txt"
    sheet.write_text(text)
    monkeypatch.setattr("ledger.formats.merge.BATCH_ENTRIES", 20)  # commit every few sessions
    real = BulkImport.import_scored
    calls = {"n": 0}

    def flaky(self, *args):
        calls["n"] += 1
        if calls["n"] == 12:
            raise KeyboardInterrupt
        return real(self, *args)

    monkeypatch.setattr(BulkImport, "import_scored", flaky)
    ledger = open_ledger(tmp_path / "l.db")
    with pytest.raises(KeyboardInterrupt):
        import_file(ledger, sheet)
    per_session = {}
    for g in read_sheet(text.splitlines()):
        per_session[g.session.uuid] = g.position
    stored = {s.uuid: s.deals for s in ledger.journal.sessions()}
    assert 0 < len(stored) < len(per_session)
    assert all(per_session[u] == n for u, n in stored.items())  # whole sessions only
    monkeypatch.setattr(BulkImport, "import_scored", real)
    report = import_file(ledger, sheet)
    assert report.entries_present == sum(stored.values())
    assert {s.uuid: s.deals for s in ledger.journal.sessions()} == per_session
    ledger.close()


def test_a_large_sheet_with_an_error_at_its_end_writes_nothing(cli, tmp_path, monkeypatch) -> None:
    """A large sheet is read once into one transaction (no first pass to check it): an
    error on its last line still names that line and writes nothing."""
    monkeypatch.setattr("ledger.formats.merge.INDEX_BUILD_MIN", 100)
    monkeypatch.setattr("ledger.formats.merge.BATCH_ENTRIES", 50)  # would commit often
    lines = year_of_play(seed=3, games=600).splitlines()
    sheet = tmp_path / "big.txt"
    sheet.write_text("\n".join([*lines, "0 0 3 4"]) + "\n")
    out = cli.fails("import", str(sheet))
    assert f"big.txt line {len(lines) + 1}: a game has exactly one winner" in out
    assert cli.ok("history", "--all", "--json").strip() == "[]"
    sheet.write_text("\n".join(lines))  # and without it (no newline at the end): all of it
    assert "600 deals added" in cli.ok("import", str(sheet))


def test_a_large_sheet_read_in_a_process_of_its_own_writes_what_one_read_here_writes(
        tmp_path, monkeypatch) -> None:
    """The reader process (ledger.formats.sheet_reader) and the import's own reading
    write the same rows; where no reader can start, the import reads the sheet itself."""
    import sqlite3

    import ledger.formats.sheet_reader as reader

    sheet = tmp_path / "club.txt"
    sheet.write_text(year_of_play(seed=8, games=6000))
    started = []
    real = reader._received

    def spy(*args):  # what a reader process that said it is ready sends
        started.append(args[0].args)
        return real(*args)

    monkeypatch.setattr(reader, "_received", spy)
    with open_ledger(tmp_path / "child.db") as ledger:
        assert import_file(ledger, sheet).entries_added == 6000
    assert len(started) == 1 and started[0][1:3] == ["-m", "ledger.formats.sheet_reader"]
    cannot = {"never_ready": "/bin/false",  # starts, and never says it is ready
              "not_started": str(tmp_path / "missing")}  # cannot be started at all
    for name, executable in cannot.items():
        monkeypatch.setattr(sys, "executable", executable)
        with open_ledger(tmp_path / f"{name}.db") as ledger:
            assert import_file(ledger, sheet).entries_added == 6000
    assert len(started) == 1

    def rows(db):
        conn = sqlite3.connect(db)
        try:
            return [conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()
                    for t in ("seats", "entries", "points", "session_totals")]
        finally:
            conn.close()

    written = rows(tmp_path / "child.db")
    assert all(rows(tmp_path / f"{name}.db") == written for name in cannot)


def test_a_reader_process_that_stops_fails_the_import_and_writes_nothing(tmp_path, monkeypatch) -> None:
    """A reader that says it is ready and then stops (killed, out of memory): the import
    fails with one clear error and its one transaction writes nothing."""
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\nexec {sys.executable} -c \"import sys; "
                    "sys.stdout.write('[\\\"ready\\\"]\\n'); sys.stdout.flush(); "
                    "sys.exit('out of memory')\"\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(fake))
    sheet = tmp_path / "club.txt"
    sheet.write_text(year_of_play(seed=8, games=6000))
    with open_ledger(tmp_path / "l.db") as ledger:
        with pytest.raises(LedgerError, match=r"the process reading club\.txt stopped \(out of "
                           r"memory\); nothing of it was imported"):
            import_file(ledger, sheet)
        assert ledger.journal.sessions() == []


def test_a_large_sheet_read_elsewhere_names_its_error_in_the_interface_language(
        cli, tmp_path) -> None:
    lines = year_of_play(seed=3, games=6000).splitlines()
    sheet = tmp_path / "big.txt"
    sheet.write_text("\n".join([*lines, "0 0 3 4"]) + "\n")
    out = cli.fails("--lang", "zh_Hant", "import", str(sheet))
    assert f"big.txt 第 {len(lines) + 1} 行：每鋪要啱啱好一個贏家" in out, out
    assert cli.ok("history", "--all", "--json").strip() == "[]"


def test_the_lines_of_a_file_are_counted_with_or_without_a_last_newline(tmp_path) -> None:
    from ledger.formats.sheet_import import line_count

    f = tmp_path / "f.txt"
    for text, count in (("", 0), ("a", 1), ("a\n", 1), ("a\nb", 2), ("\n\n", 2),
                        ("x\n" * 700_000, 700_000)):
        f.write_text(text)
        assert line_count(f) == count


def test_a_large_sheet_shows_its_progress_by_lines(tmp_path, monkeypatch) -> None:
    """Not counted first, a large sheet's progress is its lines read: the bar's length,
    all of it moved by the end."""
    from ledger.formats.sheet_import import line_count

    monkeypatch.setattr("ledger.formats.merge.INDEX_BUILD_MIN", 100)
    sheet = tmp_path / "s.txt"
    sheet.write_text(year_of_play(seed=4, games=900))
    started, moved = [], []

    def start_progress(sessions: int, entries: int):
        started.append((sessions, entries))
        return moved.append

    with open_ledger(tmp_path / "l.db") as ledger:
        report = import_file(ledger, sheet, start_progress=start_progress)
    assert report.entries_added == 900
    assert started == [(line_count(sheet), line_count(sheet))]
    assert sum(moved) == line_count(sheet) and len(moved) > 1 and min(moved) >= 0


def test_many_sessions_show_a_progress_bar_on_stderr(cli) -> None:
    result = cli("import", str(SAMPLES / "year.txt"))
    assert result.exit_code == 0
    assert "importing year.txt" in result.stderr
    assert "importing" not in result.stdout


@pytest.mark.slow
def test_sigkill_during_a_big_import_then_rerun(tmp_path) -> None:
    """Kill a 6,000-deal import at random moments; whole sessions only, and a rerun finishes."""
    import os
    import signal
    import time

    text = year_of_play(seed=13, games=6000)
    sheet = tmp_path / "big.txt"
    sheet.write_text(text)
    expected = {}
    for g in read_sheet(text.splitlines()):
        expected[g.session.uuid] = g.position
    db = tmp_path / "kill.db"
    rng = random.Random(1)
    command = [sys.executable, "-m", "ledger", "--db", str(db), "import", str(sheet)]
    for _ in range(12):
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 2.0))
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        if db.exists():
            with open_ledger(db) as ledger:
                stored = {s.uuid: s.deals for s in ledger.journal.sessions()}
            assert all(expected[u] == n for u, n in stored.items())
    subprocess.run(command, check=True, capture_output=True, timeout=600)
    with open_ledger(db) as ledger:
        assert {s.uuid: s.deals for s in ledger.journal.sessions()} == expected


@pytest.mark.parametrize("before", [True, False])
def test_a_large_import_collects_no_cycles_while_it_writes_and_as_before_after(
        tmp_path, monkeypatch, before) -> None:
    """A whole import runs without the cyclic collector (ledger.formats.merge
    collected_after), which is on again after it if it was on before, an error or not."""
    import gc

    monkeypatch.setattr("ledger.formats.merge.INDEX_BUILD_MIN", 100)
    sheet = tmp_path / "s.txt"
    sheet.write_text(year_of_play(seed=4, games=900))
    seen: list[bool] = []

    def start_progress(_sessions: int, _entries: int):
        return lambda _n: seen.append(gc.isenabled())

    was = gc.isenabled()
    try:
        (gc.enable if before else gc.disable)()
        with open_ledger(tmp_path / "l.db") as ledger:
            assert import_file(ledger, sheet, start_progress=start_progress).entries_added == 900
            assert gc.isenabled() is before
        sheet.write_text(year_of_play(seed=5, games=900) + "0 0 3 4\n")
        with open_ledger(tmp_path / "new.db") as ledger:
            with pytest.raises(LedgerError, match="exactly one winner"):
                import_file(ledger, sheet, start_progress=start_progress)
            assert gc.isenabled() is before
            assert ledger.journal.sessions() == []
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)
