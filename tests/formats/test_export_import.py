"""`bigtwo export` (JSON, CSV) and `bigtwo import` of JSON: lossless, idempotent, merging by uuid."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import file_digest


def build_evening(cli) -> None:
    """Sessions of every kind, with amendments (twice), voids, transfers and money."""
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan", "--stake", "0.25", "--currency", "USD",
           "--name", "Friday")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("deal", "Ann=5", "Ben=0", "Cat=2", "Dan=13")
    cli.ok("deal", "Ann=1", "Ben=1", "Cat=0", "Dan=9", "--assist", "Ben")
    cli.ok("amend", "2", "Ann=5", "Ben=0", "Cat=2", "Dan=12")
    cli.ok("amend", "2", "Ann=6", "Ben=0", "Cat=2", "Dan=12")
    cli.ok("void", "3")
    cli.ok("deal", "Ann=0", "Ben=4", "Cat=4", "Dan=4", "--missed-call")
    cli.ok("amend", "3", "Ann=2", "Ben=2", "Cat=0", "Dan=2")  # restores the voided deal
    cli.ok("session", "end")
    cli.ok("session", "start", "--players", "North,East,West,South", "--rules", "pay-the-winner",
           "--stake", "0.10", "--currency", "USD")
    cli.ok("deal", "North=0", "East=3", "West=11", "South=8")
    cli.ok("deal", "--dragon", "East")
    cli.ok("deal", "North=2", "East=0", "West=4", "South=1", "--missed-call")
    cli.ok("session", "start", "--players", "A,B,C,D", "--teams", "--rules", "hong-kong", "--stake", "2",
           "--currency", "USD")
    cli.ok("deal", "A=0", "B=3", "C=2", "D=8")
    cli.ok("deal", "A=0", "B=2", "C=5", "D=3", "--shootout", "B")
    cli.ok("undo")


def reports(cli, db: str) -> dict[str, object]:
    """Everything a player sees: standings and settlement per session and overall, and the log."""
    sessions = json.loads(cli.ok("--db", db, "session", "list", "--json"))
    out: dict[str, object] = {"all": json.loads(cli.ok("--db", db, "standings", "--all", "--json")),
                              "settle all": json.loads(cli.ok("--db", db, "settle", "--all", "--json"))}
    for s in sessions:
        sid = str(s["id"])
        out[f"standings {sid}"] = json.loads(cli.ok("--db", db, "standings", "--session", sid, "--json"))
        out[f"settle {sid}"] = json.loads(cli.ok("--db", db, "settle", "--session", sid, "--json"))
        out[f"log {sid}"] = json.loads(cli.ok("--db", db, "log", "--session", sid, "--json"))
    return out


@pytest.fixture
def exported(cli, tmp_path, ledger_path) -> Path:
    build_evening(cli)
    path = tmp_path / "all.json"
    assert "exported 3 sessions (14 entries)" in cli.ok("export", "--all", "--out", str(path))
    return path


def test_export_then_import_twice_reproduces_everything(cli, exported, tmp_path, ledger_path) -> None:
    other = str(tmp_path / "other.db")
    out = cli.ok("--db", other, "import", str(exported))
    assert "14 entries added (3 new sessions" in out
    assert reports(cli, other) == reports(cli, str(ledger_path))
    before = file_digest(Path(other))
    out = cli.ok("--db", other, "import", str(exported))
    assert "nothing new; its 3 sessions and 14 entries are already in the ledger" in out
    assert file_digest(Path(other)) == before
    again = tmp_path / "again.json"
    cli.ok("--db", other, "export", "--all", "--out", str(again))
    assert again.read_text() == exported.read_text()  # lossless: the same bytes back


def test_export_format(cli, exported) -> None:
    data = json.loads(exported.read_text())
    assert (data["format"], data["version"]) == ("bigtwo-ledger", 2)
    first = data["sessions"][0]
    assert set(first) == {"uuid", "name", "rules", "stake", "currency", "teams", "started_at",
                          "ended_at", "players", "entries"}
    assert first["players"] == ["Ann", "Ben", "Cat", "Dan"] and first["stake"] == "0.25"
    assert first["rules"]["name"] == "classic" and first["ended_at"]
    kinds = [(e["seq"], e["kind"], e["deal"]) for e in first["entries"] if "seq" in e]
    assert kinds == [(1, "deal", 1), (2, "deal", 2), (3, "deal", 3), (4, "amend", 2), (5, "amend", 2),
                     (6, "void", 3), (7, "deal", 4), (8, "amend", 3)]
    # then the session's own actions, in the one order: its start and its end
    actions = [(e["kind"], e["at"]) for e in first["entries"] if "seq" not in e]
    assert actions == [("start", first["started_at"]), ("end", first["ended_at"])]
    assert first["entries"][5]["facts"] is None
    assert "points" not in first["entries"][0]  # points are derived on import, never read


def test_export_to_stdout_and_of_one_session(cli, exported) -> None:
    data = json.loads(cli.ok("export", "--session", "2"))
    assert [s["players"][0] for s in data["sessions"]] == ["North"]
    assert "give --session ID or --all, not both" in cli.fails("export", "--session", "1", "--all")


def test_import_rederives_points_from_facts(cli, exported, tmp_path) -> None:
    data = json.loads(exported.read_text())
    for s in data["sessions"]:
        for e in s["entries"]:
            e["points"] = [{"player": "Ann", "penalty": 999}]  # ignored: never trusted
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    other = str(tmp_path / "o.db")
    cli.ok("--db", other, "import", str(path))
    standings = json.loads(cli.ok("--db", other, "standings", "--all", "--json"))
    assert max(p["penalty"] for p in standings["players"]) < 999


def test_merging_another_devices_export(cli, tmp_path) -> None:
    phone, laptop = str(tmp_path / "phone.db"), str(tmp_path / "laptop.db")
    cli.ok("--db", phone, "session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("--db", phone, "deal", "0", "1", "2", "3")
    first = tmp_path / "first.json"
    cli.ok("--db", phone, "export", "--all", "--out", str(first))
    cli.ok("--db", laptop, "session", "start", "--players", "Eve,Fay,Gus,Hal")  # the laptop's own
    cli.ok("--db", laptop, "deal", "3", "3", "3", "0")
    cli.ok("--db", laptop, "import", str(first))
    cli.ok("--db", phone, "deal", "1", "0", "2", "3")
    cli.ok("--db", phone, "amend", "1", "0", "2", "2", "3")
    cli.ok("--db", phone, "void", "2")
    second = tmp_path / "second.json"
    cli.ok("--db", phone, "export", "--all", "--out", str(second))
    out = cli.ok("--db", laptop, "import", str(second))
    assert "3 entries added (0 new sessions, 1 session merged)" in out
    assert "1 entry was already in the ledger" in out
    phone_table = json.loads(cli.ok("--db", phone, "standings", "--session", "1", "--json"))["players"]
    laptop_table = json.loads(cli.ok("--db", laptop, "standings", "--session", "2", "--json"))["players"]
    assert laptop_table == phone_table
    overall = json.loads(cli.ok("--db", laptop, "standings", "--all", "--json"))
    everyone = {p["name"] for p in overall["players"]}
    assert everyone == {"Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"}


def test_a_conflicting_merge_is_refused_with_a_report(cli, exported, tmp_path) -> None:
    other = tmp_path / "other.db"
    cli.ok("--db", str(other), "import", str(exported))
    data = json.loads(exported.read_text())
    changed = data["sessions"][0]["entries"][0]
    changed["facts"]["cards"]["Ben"] = 4  # the same uuid now says something else
    data["sessions"][1]["stake"] = "0.20"  # and this session changed its stake
    new_session = json.loads(json.dumps(data["sessions"][2]))
    new_session["uuid"] = "00000000-0000-4000-8000-000000000001"
    renamed = {}
    for i, e in enumerate(new_session["entries"]):
        renamed[e["uuid"]] = f"00000000-0000-4000-8000-{i + 100:012d}"
        e["uuid"] = renamed[e["uuid"]]
    for e in new_session["entries"]:  # an undo names what it took back in its session,
        if e.get("undoes"):  # a correction its deal (issue 30: never another session's)
            e["undoes"] = renamed[e["undoes"]]
        if e.get("deal_uuid"):
            e["deal_uuid"] = renamed[e["deal_uuid"]]
    data["sessions"].append(new_session)  # a new session still comes in
    path = tmp_path / "conflict.json"
    path.write_text(json.dumps(data))
    before = reports(cli, str(other))
    result = cli("--db", str(other), "import", str(path))
    assert result.exit_code == 1, result.stderr
    err = result.stderr
    assert "conflict.json: 2 conflicts with the ledger; nothing of 2 sessions was written" in err
    assert f"sessions[0].entries[0] ({changed['uuid']}): facts: ledger Ann=0 Ben=3 Cat=11 Dan=8, " \
           "file Ann=0 Ben=4 Cat=11 Dan=8" in err
    assert "sessions[1], session 2" in err and "stake: ledger 0.10, file 0.20" in err
    assert "1 new session" in result.stdout and "2 of 4 sessions not imported" in result.stdout
    after = reports(cli, str(other))
    for key in ("standings 1", "standings 2", "log 1", "log 2", "settle 1", "settle 2"):
        assert after[key] == before[key]
    assert "standings 4" in after


def test_an_entry_without_its_time_keeps_the_files_order(cli, tmp_path) -> None:
    """A file that leaves out a deal's ``at`` (hand-written, or one key lost) while its
    amend keeps its own: the deal must not be dated at the import (after its own amend),
    or the deal's version (the latest in the one order) is the old facts while the points
    count the amend, and ``bigtwo doctor`` finds the amend's points wrong."""
    src, dst = str(tmp_path / "src.db"), str(tmp_path / "dst.db")
    cli.ok("--db", src, "session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("--db", src, "deal", "0", "3", "11", "8")
    cli.ok("--db", src, "amend", "1", "0", "3", "12", "8")
    cli.ok("--db", src, "deal", "5", "0", "2", "7")
    cli.ok("--db", src, "void", "2")
    data = json.loads(cli.ok("--db", src, "export", "--all"))
    entries = data["sessions"][0]["entries"]
    assert [e["kind"] for e in entries] == ["deal", "amend", "deal", "void", "start"]
    del entries[0]["at"]  # the deal's time, not its amend's
    path = tmp_path / "no-time.json"
    path.write_text(json.dumps(data))
    cli.ok("--db", dst, "import", str(path))
    assert cli.ok("--db", dst, "doctor").startswith("ok: ")
    assert _agreed(cli, dst) == _agreed(cli, src)  # the amended facts are the live ones
    log = json.loads(cli.ok("--db", dst, "log", "--session", "1", "--json"))
    times = [e["at"] for e in log]
    assert times == sorted(times)  # the file's order: the deal right after the start
    assert log[0]["at"] < entries[1]["at"]
    # Merged into a session the ledger holds, an entry without a time comes after its own.
    cli.ok("--db", src, "deal", "1", "0", "2", "3")
    more = json.loads(cli.ok("--db", src, "export", "--all"))
    for e in more["sessions"][0]["entries"]:
        e.pop("at", None)
    path.write_text(json.dumps(more))
    assert "1 entry added" in cli.ok("--db", dst, "import", str(path))
    assert cli.ok("--db", dst, "doctor").startswith("ok: ")
    assert _agreed(cli, dst) == _agreed(cli, src)
    log = json.loads(cli.ok("--db", dst, "log", "--session", "1", "--json"))
    assert [e["at"] for e in log] == sorted(e["at"] for e in log)


def _sync(cli, tmp_path, src: str, dst: str) -> str:
    """``src``'s whole ledger exported and imported into ``dst``: the import's report."""
    path = tmp_path / "sync.json"
    cli.ok("--db", src, "export", "--all", "--out", str(path))
    return cli.ok("--db", dst, "import", str(path))


def _agreed(cli, db: str) -> tuple[object, object, list[object]]:
    """What two devices must agree on: standings, settlement and the live deals' facts."""
    standings = json.loads(cli.ok("--db", db, "standings", "--session", "1", "--json"))["players"]
    settle = json.loads(cli.ok("--db", db, "settle", "--session", "1", "--json"))
    log = json.loads(cli.ok("--db", db, "log", "--session", "1", "--json"))
    deals = sorted(json.dumps(e["facts"], sort_keys=True) for e in log if e["live"])
    return standings, (settle["nets"], settle["payments"]), deals


def _two_devices(cli, tmp_path) -> tuple[str, str]:
    """A hub and a phone holding the same session of two deals (the phone synced)."""
    hub, phone = str(tmp_path / "hub.db"), str(tmp_path / "phone.db")
    cli.ok("--db", hub, "session", "start", "--players", "陳大文,李小明,José,Dan")
    cli.ok("--db", hub, "deal", "0", "1", "2", "3")
    cli.ok("--db", hub, "deal", "4", "0", "5", "6")
    _sync(cli, tmp_path, hub, phone)
    return hub, phone


def test_a_session_recorded_on_two_devices_apart_merges_both_ways(cli, tmp_path) -> None:
    hub, phone = _two_devices(cli, tmp_path)
    # Apart: both record deals 3 (and the phone 4), each corrects an earlier deal.
    cli.ok("--db", hub, "deal", "0", "2", "2", "2")
    cli.ok("--db", hub, "amend", "1", "0", "1", "2", "4")
    cli.ok("--db", phone, "deal", "--session", "1", "7", "0", "1", "1")
    cli.ok("--db", phone, "deal", "--session", "1", "3", "3", "0", "9")
    cli.ok("--db", phone, "void", "--session", "1", "2")
    pushed = _sync(cli, tmp_path, phone, hub)
    assert "2 deals numbered anew" in pushed and "3 → 4, 4 → 5" in pushed
    pulled = _sync(cli, tmp_path, hub, phone)
    assert "1 deal numbered anew" in pulled and "3 → 5" in pulled
    assert _agreed(cli, hub) == _agreed(cli, phone)
    assert len(_agreed(cli, hub)[2]) == 4  # deals 1 (amended), 3 and the phone's two; 2 void
    # Again, both ways: nothing new, nothing doubled.
    assert "nothing new" in _sync(cli, tmp_path, phone, hub)
    assert "nothing new" in _sync(cli, tmp_path, hub, phone)
    # A later correction of a deal the two number differently finds it by its uuid.
    cli.ok("--db", phone, "amend", "--session", "1", "4", "7", "0", "2", "1")  # the hub's deal 5
    _sync(cli, tmp_path, phone, hub)
    _sync(cli, tmp_path, hub, phone)
    assert _agreed(cli, hub) == _agreed(cli, phone)
    for db in (hub, phone):
        cli.ok("--db", db, "doctor", "--full")


def test_two_devices_that_corrected_one_deal_apart_agree_on_the_later_correction(cli, tmp_path) -> None:
    hub, phone = _two_devices(cli, tmp_path)
    cli.ok("--db", hub, "amend", "1", "0", "5", "5", "5")  # first, on the hub
    cli.ok("--db", phone, "amend", "--session", "1", "1", "0", "9", "9", "9")  # later, on the phone
    cli.ok("--db", hub, "void", "2")  # first, on the hub
    cli.ok("--db", phone, "amend", "--session", "1", "2", "7", "0", "7", "7")  # later: brings it back
    assert "conflict" not in _sync(cli, tmp_path, phone, hub)
    assert "conflict" not in _sync(cli, tmp_path, hub, phone)
    assert _agreed(cli, hub) == _agreed(cli, phone)
    facts = _agreed(cli, hub)[2]
    assert json.dumps({"cards": {"陳大文": 0, "李小明": 9, "José": 9, "Dan": 9}}, sort_keys=True) in facts
    assert json.dumps({"cards": {"陳大文": 7, "李小明": 0, "José": 7, "Dan": 7}}, sort_keys=True) in facts
    log = json.loads(cli.ok("--db", phone, "log", "--session", "1", "--json"))
    assert sorted(e["kind"] for e in log if e.get("status") == "superseded") == ["amend", "void"]
    assert "superseded: a later correction stands" in cli.ok("--db", phone, "log", "--session", "1")
    for db in (hub, phone):
        cli.ok("--db", db, "doctor", "--full")
    assert "nothing new" in _sync(cli, tmp_path, phone, hub)


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("{not json", "bad.json is not valid JSON: line 1 column 2"),
        ("[]", "bad.json: must be a JSON object"),
        ('{"format": "other", "version": 1, "sessions": []}', "not a bigtwo-ledger export"),
        ('{"format": "bigtwo-ledger", "version": 3, "sessions": []}', "written by a newer bigtwo"),
        ('{"format": "bigtwo-ledger", "version": 1}', "missing key 'sessions'"),
        ('{"format": "bigtwo-ledger", "version": 1, "sessions": [{"uuid": "x"}]}',
         "bad.json: sessions[0]: missing key(s): players, rules, entries"),
    ],
)
def test_bad_files_are_refused_naming_where(cli, tmp_path, ledger_path, content, fragment) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert fragment in cli.fails("import", str(path), "--format", "json", code=2)
    assert not ledger_path.exists() or "no sessions yet" in cli.ok("session", "list")


@pytest.mark.parametrize(
    ("where", "edit", "fragment"),
    [
        ("session", lambda s: s.update(uuid="nope"), "sessions[1].uuid: 'nope' is not a uuid"),
        ("session", lambda s: s.update(players=["Ann", "Ann", "Cat", "Dan"]), "seated more than once"),
        ("session", lambda s: s["rules"].update(twos="sometimes"), "sessions[1]: rule 'twos'"),
        ("session", lambda s: s.update(stake="-1"), "sessions[1]: bad stake"),
        ("entry", lambda e: e.update(kind="redeal"), "entries[0]: kind must be one of deal, void, amend"),
        ("entry", lambda e: e["facts"]["cards"].update(East=0),
         "entries[0] (deal 1): 2 players have 0 cards"),
        ("entry", lambda e: e.pop("deal"), "entries[0]: missing key(s): deal"),
        ("entry", lambda e: e.update(kind="void"), "a void has no facts"),
        ("entry", lambda e: e.update(kind="amend", deal=7),
         "an amend of deal 7, which no earlier entry records"),
        ("entry", lambda e: e.update(at="yesterday"), "entries[0].at: 'yesterday' is not an ISO date"),
    ],
)
def test_bad_sessions_and_entries_are_refused_naming_where(cli, exported, tmp_path, where, edit,
                                                          fragment) -> None:
    data = json.loads(exported.read_text())
    edit(data["sessions"][1] if where == "session" else data["sessions"][1]["entries"][0])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    other = str(tmp_path / "o.db")
    err = cli.fails("--db", other, "import", str(path), code=2)
    assert "bad.json: sessions[1]" in err and fragment in err
    assert "no sessions yet" in cli.ok("--db", other, "session", "list")  # nothing written


def test_csv_is_one_row_per_player_per_live_deal(cli, exported) -> None:
    rows = list(csv.DictReader(io.StringIO(cli.ok("export", "--all", "--format", "csv"))))
    live = {"1": 4, "2": 3, "3": 1}
    assert len(rows) == 4 * sum(live.values())
    first = rows[0]
    assert (first["session"], first["deal"], first["player"], first["cards"], first["won"]) == \
        ("1", "1", "Ann", "0", "1")
    cat = next(r for r in rows if r["player"] == "Cat" and r["deal"] == "1")
    assert (cat["fried"], cat["penalty"], cat["net"], cat["money"]) == ("1", "22", "-55", "-13.75")
    per_session = {}
    for r in rows:
        per_session[r["session"]] = per_session.get(r["session"], 0) + int(r["net"])
    assert set(per_session.values()) == {0}


def test_csv_neutralises_cells_a_spreadsheet_would_run(cli) -> None:
    cli.ok("session", "start", "--players", "@Ann,+Ben,Cat,Dan", "--name", "=HYPERLINK(\"x\")")
    cli.ok("deal", "0", "3", "11", "8")
    cli.ok("session", "start", "--players", "Eve,Fay,Gus,Hal", "--name", "-2+3")
    cli.ok("deal", "0", "3", "11", "8")
    rows = list(csv.reader(io.StringIO(cli.ok("export", "--all", "--format", "csv"))))
    names = {r[2] for r in rows[1:]}
    players = {r[6] for r in rows[1:]}
    assert names == {"'=HYPERLINK(\"x\")", "'-2+3"}
    assert {"'@Ann", "'+Ben", "Cat"} <= players
    nets = [r[11] for r in rows[1:]]
    assert "-55" in nets  # numbers stay numbers


def test_export_to_a_file_replaces_it_whole(cli, exported, tmp_path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("old")
    out = cli.ok("export", "--all", "--format", "csv", "--out", str(target))
    assert "exported 3 sessions (32 rows)" in out
    assert target.read_text().startswith("session,date,name")
    assert not list(tmp_path.glob(".out.csv.*"))
    assert "cannot write" in cli.fails("export", "--all", "--out", str(tmp_path / "no" / "x.json"))


def test_a_file_that_is_no_export_is_refused_with_the_clis_advice(cli, tmp_path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"format": "other", "version": 1, "sessions": []}')
    err = cli.fails("import", str(path))
    assert "not a bigtwo-ledger export (format is 'other')" in err
    assert "write one with: bigtwo export --format json" in err


@pytest.mark.no_ledger
def test_import_help_and_errors(cli, tmp_path, ledger_path) -> None:
    assert "score sheet" in cli.ok("import", "--help")
    assert "no such file" in cli.fails("import", str(tmp_path / "none.json"))
    assert "it is a folder" in cli.fails("import", str(tmp_path))
    assert not ledger_path.exists()  # a refused import creates no ledger
    assert "no sessions yet" in cli.fails("export", "--all")


def test_a_merge_scores_only_what_the_ledger_does_not_hold(cli, exported, tmp_path, ledger_path,
                                                         monkeypatch) -> None:
    """A deal or amend the ledger holds already, in its session, with the same facts, is
    not scored again (nor written); a new one is scored (and one the ledger holds with
    other facts too: then a conflict, test_a_conflicting_merge_is_refused_with_a_report)."""
    from ledger.formats import exchange

    cli.ok("deal", "A=0", "B=1", "C=2", "D=3")
    later = tmp_path / "later.json"
    cli.ok("export", "--all", "--out", str(later))
    scored: list[str] = []
    real = exchange._checked_facts

    def counting(spec, e, members, table=None):
        scored.append(e.uuid)
        return real(spec, e, members, table)

    monkeypatch.setattr(exchange, "_checked_facts", counting)
    other = str(tmp_path / "other.db")
    cli.ok("--db", other, "import", str(exported))
    with_facts = [e["uuid"] for s in json.loads(exported.read_text("utf-8"))["sessions"]
                  for e in s["entries"] if e.get("facts") is not None]
    assert sorted(scored) == sorted(with_facts)  # a new ledger: every deal and amend
    scored.clear()
    out = cli.ok("--db", other, "import", str(later))
    assert "1 entry added" in out
    new = [e["uuid"] for s in json.loads(later.read_text("utf-8"))["sessions"]
           for e in s["entries"] if e.get("facts") is not None and e["uuid"] not in with_facts]
    assert scored == new and len(new) == 1
    assert reports(cli, other) == reports(cli, str(ledger_path))


def test_deals_alike_by_seat_are_scored_once_and_each_keeps_its_own_names(cli, tmp_path, ledger_path,
                                                                         monkeypatch) -> None:
    """An export's import scores a deal once per shape by seat, as a score sheet's import
    scores a line once (ledger/core/seat_keys.py): another table with the same rules
    playing the same deal seat for seat takes that score with its own names; other rules,
    another seat order or a word that is a player's name is scored on its own.  What the
    new ledger shows is what the ledger that recorded it shows."""
    from ledger.formats import exchange

    evening = [["{0}=0", "{1}=3", "{2}=11", "{3}=8"], ["{0}=5", "{1}=0", "{2}=2", "{3}=13"],
               ["{0}=1", "{1}=1", "{2}=0", "{3}=9", "--assist", "{1}"],
               ["{0}=0", "{1}=4", "{2}=4", "{3}=4", "--missed-call"]]
    # (seats, rules, who holds what): the second table plays the first's deals seat for
    # seat; the fourth the same hands by name as the first, in another seat order.
    tables = [("Ann,Ben,Cat,Dan", "classic", "Ann,Ben,Cat,Dan"),
              ("陳大文,李小明,José,Eve", "classic", "陳大文,李小明,José,Eve"),
              ("陳大文,李小明,José,Eve", "pay-the-winner", "陳大文,李小明,José,Eve"),
              ("Ben,Ann,Cat,Dan", "classic", "Ann,Ben,Cat,Dan")]
    for players, rules, hands in tables:
        cli.ok("session", "start", "--players", players, "--rules", rules)
        names = hands.split(",")
        for deal in evening:
            cli.ok("deal", *[word.format(*names) for word in deal])
        cli.ok("session", "end")
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,two", "--rules", "doubling")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=2", "two=8", "--finish", "two")  # "two": a word and a name
    path = tmp_path / "tables.json"
    cli.ok("export", "--all", "--out", str(path))
    scored: list[str] = []
    real = exchange.score_deal

    def counting(rules, seats, deal, teams=False):
        scored.append(",".join(seats))
        return real(rules, seats, deal, teams)

    monkeypatch.setattr(exchange, "score_deal", counting)
    other = str(tmp_path / "other.db")
    cli.ok("--db", other, "import", str(path))
    assert len(scored) == 13  # 17 deals; the second table's four take the first's scores
    assert "陳大文,李小明,José,Eve" in scored  # its pay-the-winner session: other rules
    assert reports(cli, other) == reports(cli, str(ledger_path))
    cli.ok("--db", other, "doctor", "--full")  # every deal derived again: none differs


@pytest.mark.parametrize("crafted, fragment", [
    ({"Ann": 0, "Ben": True, "Cat": 11, "Dan": 8}, "is not a whole number"),  # True == 1 in Python
    ({"Ann": 0, "Ben": 3.0, "Cat": 11, "Dan": 8}, "is not a whole number"),   # 3.0 == 3
])
def test_a_crafted_deal_equal_in_python_to_a_shared_one_is_still_refused(cli, tmp_path, crafted,
                                                                        fragment) -> None:
    """The shared scores key each value with its JSON type: a second table's deal that
    Python finds equal to the first's (``true`` for 1, ``3.0`` for 3) is scored on its
    own and refused with its own message; the new ledger is left as it was."""
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("deal", "Ann=0", "Ben=1", "Cat=11", "Dan=8")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("session", "end")
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("deal", "Ann=0", "Ben=1", "Cat=11", "Dan=8")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    path = tmp_path / "two.json"
    cli.ok("export", "--all", "--out", str(path))
    data = json.loads(path.read_text("utf-8"))
    second = data["sessions"][1]
    deals = [e for e in second["entries"] if e["kind"] == "deal"]
    target = deals[0] if crafted["Ben"] == 1 else deals[1]
    target["facts"]["cards"] = crafted
    path.write_text(json.dumps(data), "utf-8")
    other = tmp_path / "other.db"
    err = cli.fails("--db", str(other), "import", str(path))
    assert fragment in err and "sessions[1]" in err, err
    assert err.count("error:") == 1
    cli.ok("--db", str(other), "session", "list")  # the ledger opens: nothing of the file in it
    assert json.loads(cli.ok("--db", str(other), "session", "list", "--json")) == []


def _undo_variants(cli, tmp_path: Path) -> dict[str, Path]:
    """An export whose second session undid its deal (a void naming it), and the same with
    that void aimed at other entries of the file, each padded with blank lines so that
    its import counts as large (INDEX_BUILD_MIN: indexes built once, at the end)."""
    import copy
    import uuid as uuids

    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("deal", "Ann=5", "Ben=0", "Cat=2", "Dan=13")
    cli.ok("session", "start", "--players", "Eve,Fay,Gus,Hal")
    cli.ok("deal", "Eve=0", "Fay=3", "Gus=11", "Hal=8")
    cli.ok("undo")
    base = tmp_path / "base.json"
    cli.ok("export", "--all", "--out", str(base))
    data = json.loads(base.read_text("utf-8"))
    first, second = data["sessions"]

    def start(session: dict) -> str:
        return next(e["uuid"] for e in session["entries"] if e["kind"] == "start")

    def void(v: dict) -> dict:
        return next(e for e in v["sessions"][1]["entries"] if e["kind"] == "void")

    def first_voids(deal: int, undoes: str) -> Callable[[dict], None]:
        def edit(v: dict) -> None:  # a void of the first session's deal, naming ``undoes``
            e = copy.deepcopy(void(v))
            e.update(uuid=str(uuids.uuid4()), deal=deal, seq=9, undoes=undoes)
            e.pop("deal_uuid", None)  # (its deal found by its number, in its own session)
            v["sessions"][0]["entries"].append(e)
        return edit

    edits = {"as exported": lambda v: None,
             "another session's deal": lambda v: void(v).update(undoes=first["entries"][0]["uuid"]),
             "another session's start": lambda v: void(v).update(undoes=start(first)),
             "its own start": lambda v: void(v).update(undoes=start(second)),
             "another deal of its session": first_voids(2, first["entries"][0]["uuid"]),
             "a later session's deal": first_voids(1, second["entries"][0]["uuid"])}
    out = {}
    for i, (name, edit) in enumerate(edits.items()):
        v = copy.deepcopy(data)
        edit(v)
        path = tmp_path / f"variant{i}.json"
        path.write_text(json.dumps(v, indent=1) + "\n" * 6000, encoding="utf-8")
        out[name] = path
    return out


UNDO_REFUSED = {
    "as exported": None,
    "another session's deal": "of session N: another session's",
    "another session's start": "of session N: another session's",
    "its own start": "a void entry cannot take back entry",
    "another deal of its session": "of deal 1, not of its own deal 2",
    "a later session's deal": "which neither the file nor the ledger has before it",
}


def test_an_undo_takes_back_only_what_it_may_and_alike_in_an_empty_or_a_holding_ledger(
        cli, tmp_path) -> None:
    """An entry that takes another back names one of its own session, of a kind its kind
    takes back, of its own deal (the doctor's rules): anything else is refused, that
    session not written.  Into an empty ledger the import finds the target among what it
    wrote (the uuid index is built at its end); into one that holds entries, in the
    ledger: the same outcome either way."""
    import re

    for name, path in _undo_variants(cli, tmp_path).items():
        seen = []
        for holding in (False, True):
            db = str(tmp_path / f"{path.stem}-{holding}.db")
            if holding:
                cli.ok("--db", db, "session", "start", "--players", "Zed,Yan,Xu,Wu")
                cli.ok("--db", db, "deal", "Zed=0", "Yan=1", "Xu=2", "Wu=3")
            result = cli("--db", db, "import", str(path))
            logs = [json.loads(cli.ok("--db", db, "log", "--session", str(s["id"]), "--json"))
                    for s in json.loads(cli.ok("--db", db, "session", "list", "--json"))
                    if s["players"][0] != "Zed"]
            seen.append((result.exit_code, re.sub(r"session \d+", "session N", result.output),
                         [[(e["kind"], e["deal"], e["status"], e["live"], e["undoes"]) for e in log]
                          for log in logs]))
        assert seen[0] == seen[1], name
        refused = UNDO_REFUSED[name]
        assert seen[0][0] == (0 if refused is None else 1), (name, seen[0][1])
        assert refused is None or refused in seen[0][1], (name, seen[0][1])
        db = str(tmp_path / f"{path.stem}-False.db")
        assert "ok:" in cli.ok("--db", db, "doctor", "--full")  # nothing the doctor questions
