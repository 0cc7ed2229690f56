"""Local time (issue 12): the ledger stores UTC, reports show the user's zone (TZ),
--since/--until take local dates, and a dated sheet's games carry the sheet's date."""

from __future__ import annotations

import json

import pytest

SHEET = """
2024-03-01
陳大文 李小明 Ann Ben
0 3 11 8
9 0 10 11
"""


@pytest.mark.parametrize("tz", ["UTC", "America/Los_Angeles", "Asia/Hong_Kong", "Pacific/Auckland"])
def test_a_dated_sheet_keeps_its_date_in_every_zone(cli, tmp_path, monkeypatch, tz):
    sheet = tmp_path / "s.txt"
    sheet.write_text(SHEET, encoding="utf-8")
    monkeypatch.setenv("TZ", tz)
    cli.ok("import", str(sheet))
    log = json.loads(cli.ok("log", "--session", "1", "--json"))
    from datetime import datetime
    from zoneinfo import ZoneInfo

    local = [datetime.fromisoformat(e["at"]).astimezone(ZoneInfo(tz)).date().isoformat() for e in log]
    assert local == ["2024-03-01", "2024-03-01"]  # the sheet's date, not the import's
    rows = json.loads(cli.ok("history", "--json"))["sessions"]
    assert rows[0]["date"] == "2024-03-01"
    assert "2024-03-01" in cli.ok("log", "--session", "1", "--wide")
    assert json.loads(cli.ok("history", "--since", "2024-03-01", "--until", "2024-03-01",
                             "--json"))["sessions"]


def test_an_evening_in_los_angeles_is_dated_that_evening(cli, ledger_path, monkeypatch):
    import sqlite3

    from ledger.storage.upgrade import guard_sql

    cli.ok("session", "start", "--players", "陳大文,李小明,Ann,Ben")
    cli.ok("deal", "0", "3", "11", "8")
    conn = sqlite3.connect(ledger_path)  # 8 pm on 3 May in Los Angeles is 3 am on 4 May UTC
    conn.execute("DROP TRIGGER sessions_no_update")  # sessions are append-only: a hand edit
    conn.execute("UPDATE sessions SET started_at = '2024-05-04T03:00:00.000000+00:00'")
    conn.execute(guard_sql("sessions", "UPDATE"))
    conn.commit()
    conn.close()
    monkeypatch.setenv("TZ", "America/Los_Angeles")
    assert json.loads(cli.ok("history", "--json"))["sessions"][0]["date"] == "2024-05-03"
    assert json.loads(cli.ok("history", "--since", "2024-05-03", "--until", "2024-05-03",
                             "--json"))["sessions"]
    cli.fails("history", "--since", "2024-05-04")
    monkeypatch.setenv("TZ", "Asia/Hong_Kong")
    assert json.loads(cli.ok("history", "--json"))["sessions"][0]["date"] == "2024-05-04"
