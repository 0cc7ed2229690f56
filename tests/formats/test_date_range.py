"""Dates outside what every time zone can show (issue 22): refused by import, restore
and score sheets; and a ledger that already holds one (stored before the range was kept)
still reports, whatever the time zone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import file_digest

FAR, EARLY = "9999-12-31T23:59:59+00:00", "0001-01-01T00:00:00+00:00"
REPORTS = [("session", "list"), ("history",), ("stats",), ("log",), ("standings",),
           ("standings", "--by", "month"), ("log", "--wide"), ("history", "--wide"), ("settle",)]


def no_sessions(cli) -> bool:
    listed = json.loads(cli.ok("session", "list", "--json"))
    return not (listed["sessions"] if isinstance(listed, dict) else listed)


def crafted_export(cli, tmp_path: Path, stamp: str) -> Path:
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("deal", "0", "3", "11", "8")
    out = tmp_path / "export.json"
    cli.ok("export", "--out", str(out))
    text = re.sub(r'"(started_at|at|ended_at)": "[^"]*"', rf'"\1": "{stamp}"', out.read_text("utf-8"))
    crafted = tmp_path / "crafted.json"
    crafted.write_text(text, "utf-8")
    return crafted


@pytest.mark.parametrize("stamp", [FAR, EARLY, "1969-12-31T23:59:59+00:00",
                                   "9000-01-01T00:00:00+00:00", "8999-12-31T23:00:00-14:00"])
def test_import_refuses_a_date_outside_the_range(cli, tmp_path, monkeypatch, stamp: str) -> None:
    crafted = crafted_export(cli, tmp_path, stamp)
    other = tmp_path / "other.db"
    monkeypatch.setenv("BIGTWO_DB", str(other))
    err = cli.fails("import", str(crafted))
    assert "is outside the dates the ledger keeps (1970-01-01 to 8999-12-31, UTC)" in err
    assert len(err.strip().splitlines()) == 1
    assert no_sessions(cli)


def test_import_keeps_dates_inside_the_range(cli, tmp_path, monkeypatch) -> None:
    crafted = crafted_export(cli, tmp_path, "8999-12-31T12:00:00+00:00")
    monkeypatch.setenv("BIGTWO_DB", str(tmp_path / "other.db"))
    cli.ok("import", str(crafted))


@pytest.mark.parametrize("first", ["9999-12-31", "99991231", "9000-01-01", "90000101",
                                   "1969-12-31", "19691231", "0001-01-01", "00010101"])
def test_a_score_sheet_date_outside_the_range_is_refused(cli, tmp_path, ledger_path, first) -> None:
    """In both formats: a big-two-stats sheet (dates yyyymmdd) dated 99991231 was imported
    while a big-two-scorer sheet with that date was refused (issue 30)."""
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(f"2019-01-05\nAnn Ben Cat Dan\n0 3 11 8\n{first}\n0 1 2 3\n"
                     if "-" in first else
                     f"20190105\nAnn Ben Cat Dan\n0 3 11 8\n{first}\n0 1 2 3\n", "utf-8")
    err = cli.fails("import", str(sheet), code=2)
    day = first if "-" in first else f"{first[:4]}-{first[4:6]}-{first[6:]}"
    assert err == (f"error: sheet.txt line 4: {first}: {day} is outside the dates the ledger keeps "
                   "(1970-01-01 to 8999-12-31, UTC)\n"), err
    assert no_sessions(cli)


@pytest.mark.parametrize("first", ["1970-01-01", "19700101", "8999-12-31", "89991231"])
def test_a_score_sheet_keeps_the_first_and_last_day_of_the_range(cli, tmp_path, first) -> None:
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(f"{first}\nAnn Ben Cat Dan\n0 3 11 8\n", "utf-8")
    cli.ok("import", str(sheet))
    assert not no_sessions(cli)


def stored_long_ago(monkeypatch, stamp: str) -> None:
    """The ledger writes ``stamp`` as the time of every row: a ledger that holds such a
    date, as one imported before the range was kept does."""
    import ledger.storage.journal as journal
    import ledger.storage.store as store

    monkeypatch.setattr(journal, "now", lambda: stamp)
    monkeypatch.setattr(store, "now", lambda: stamp)


@pytest.mark.parametrize("stamp, zone", [(FAR, "Asia/Hong_Kong"), (EARLY, "America/Los_Angeles"),
                                         (FAR, "Pacific/Kiritimati"), (EARLY, "Etc/GMT+12")])
def test_reports_never_crash_on_a_stored_date(cli, monkeypatch, stamp: str, zone: str) -> None:
    with monkeypatch.context() as patch:
        stored_long_ago(patch, stamp)
        cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
        cli.ok("deal", "0", "3", "11", "8")
    monkeypatch.setenv("TZ", zone)
    for report in REPORTS:
        result = cli(*report)
        assert result.exit_code == 0, f"{report}: {result.output[-500:]}"
    assert stamp[:10] in cli.ok("session", "list")  # shown as stored (UTC) where the zone cannot


def test_the_page_shows_such_a_ledger(cli, monkeypatch, ledger_path) -> None:
    from starlette.testclient import TestClient
    from web.webhelpers import KEY, bearer

    from ledger.web.app import create_app
    from ledger.web.auth import Tokens
    from ledger.web.site import Config

    with monkeypatch.context() as patch:
        stored_long_ago(patch, FAR)
        cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
        cli.ok("deal", "0", "3", "11", "8")
    monkeypatch.setenv("TZ", "Asia/Hong_Kong")
    app = create_app(Config(db=str(ledger_path), tokens=Tokens.from_key(KEY)))
    with TestClient(app) as client:
        for path in ("/api/history", "/api/sessions", "/api/log?session=1", "/api/board?session=1", "/"):
            answer = client.get(path, headers=bearer(KEY))
            assert answer.status_code == 200, f"{path}: {answer.text[:300]}"


def test_restore_refuses_a_backup_with_a_date_outside_the_range(cli, tmp_path, monkeypatch,
                                                               ledger_path) -> None:
    crafted = tmp_path / "crafted.db"
    monkeypatch.setenv("BIGTWO_DB", str(crafted))
    with monkeypatch.context() as patch:
        stored_long_ago(patch, FAR)
        cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
        cli.ok("deal", "0", "3", "11", "8")
    monkeypatch.setenv("BIGTWO_DB", str(ledger_path))
    cli.ok("session", "start", "--players", "Eve,Fay,Gus,Hal")
    before = file_digest(ledger_path)
    err = cli.fails("restore", str(crafted))
    assert "outside the dates the ledger keeps" in err
    assert file_digest(ledger_path) == before
