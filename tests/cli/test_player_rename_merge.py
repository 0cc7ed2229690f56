"""``bigtwo player rename`` / ``player merge`` (issue 12): append-only events that every
report follows, shown in ``log``, taken back by ``undo``; recorded deals keep the names
they were typed with, so ``doctor --full`` stays clean."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.helpers import file_digest


def _two_sessions(cli) -> None:
    cli.ok("session", "start", "--players", "陳大文,李小明,Ann,Ben")
    cli.ok("deal", "陳大文=0", "李小明=3", "Ann=5", "Ben=7")
    cli.ok("session", "start", "--players", "Cat,李小明,Anne,Dan")
    cli.ok("deal", "Cat=0", "李小明=3", "Anne=5", "Dan=7")


def _standings_all(cli) -> dict[str, dict]:
    return {p["name"]: p for p in json.loads(cli.ok("standings", "--all", "--json"))["players"]}


def _raw_facts(path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT facts FROM entries WHERE seq IS NOT NULL ORDER BY id")]
    finally:
        conn.close()


def test_rename_is_followed_by_reports_and_keeps_the_recorded_facts(cli, ledger_path):
    _two_sessions(cli)
    facts = _raw_facts(ledger_path)
    assert cli.ok("player", "rename", "李小明", "Lee Siu-ming").strip() == (
        "renamed 李小明 to Lee Siu-ming (undo takes it back)")
    players = _standings_all(cli)
    assert "李小明" not in players and players["Lee Siu-ming"]["deals"] == 2
    assert "Lee Siu-ming" in cli.ok("history", "--all")
    # --player finds the player by its new name and by its old one
    assert cli.ok("stats", "--player", "lee siu-ming") == cli.ok("stats", "--player", "李小明")
    assert "Lee Siu-ming" in cli.ok("stats", "--player", "李小明")
    # the open session's seats and deals use the new name; the stored facts keep the old
    cli.ok("deal", "Cat=0", "lee siu-ming=2", "Anne=9", "Dan=1")
    log = cli.ok("log")
    assert '"Lee Siu-ming"=2' in log and "李小明 renamed to Lee Siu-ming" in log
    assert _raw_facts(ledger_path)[:2] == facts
    assert "李小明" in _raw_facts(ledger_path)[2]
    # a new session with the new name is the same player
    cli.ok("session", "start", "--players", "Lee Siu-ming,Ann,Ben,Cat")
    cli.ok("deal", "Lee Siu-ming=0", "Ann=1", "Ben=2", "Cat=3")
    assert _standings_all(cli)["Lee Siu-ming"]["deals"] == 4
    assert cli.ok("doctor", "--full").startswith("ok:")


def test_merge_folds_two_names_into_one_player_and_undo_takes_it_back(cli):
    _two_sessions(cli)
    before = _standings_all(cli)
    assert cli.ok("player", "merge", "anne", "--into", "Ann").strip() == (
        "merged Anne into Ann (undo takes it back)")
    merged = _standings_all(cli)
    assert "Anne" not in merged
    assert merged["Ann"]["deals"] == 2
    assert merged["Ann"]["net"] == before["Ann"]["net"] + before["Anne"]["net"]
    stats = cli.ok("stats", "--all")
    assert "Anne" not in stats and "Ann" in stats
    assert "Anne merged into Ann" in cli.ok("log")
    # one player may not sit twice under its two names
    err = cli.fails("session", "start", "--players", "Ann,Anne,Cat,Dan")
    assert err.startswith("error: 'Ann' and 'Anne' are one player, 'Ann' (merged)")
    assert cli.ok("doctor", "--full").startswith("ok:")
    assert cli.ok("undo").strip() == "undo: Anne and Ann are two players again"
    assert _standings_all(cli) == before
    assert "undo: Anne and Ann are two players again" in cli.ok("log")
    assert cli.ok("doctor", "--full").startswith("ok:")


def test_log_json_lists_the_player_events_the_text_log_shows(cli):
    _two_sessions(cli)  # the current session seats Cat, 李小明, Anne, Dan
    cli.ok("player", "rename", "李小明", "Lee Siu-ming")
    cli.ok("player", "merge", "Anne", "--into", "Ann")
    cli.ok("undo")  # takes back the merge
    cli.ok("player", "rename", "Ben", "Benny")  # Ben is not seated here: not in this log
    log = json.loads(cli.ok("log", "--json"))
    assert [e["kind"] for e in log] == ["deal", "rename", "merge", "undo merge"]
    rename, merge, undo = log[1:]
    assert {k: rename[k] for k in ("player", "name", "undoes")} == {
        "player": "李小明", "name": "Lee Siu-ming", "undoes": None}
    assert (merge["player"], merge["into"]) == ("Anne", "Ann")
    assert (undo["player"], undo["into"], undo["undoes"]) == ("Anne", "Ann", merge["uuid"])
    assert all(e["at"].endswith("+00:00") for e in log)
    text = cli.ok("log")
    assert "李小明 renamed to Lee Siu-ming" in text and "Benny" not in text
    assert len(text.split("players renamed or merged:")[1].strip().splitlines()) == 3
    # the same in every language: keys and kinds stay English
    assert cli.ok("--lang", "zh_Hant", "log", "--json") == cli.ok("log", "--json")
    # the first session seats Ben and Ann: its log lists his rename and the merge into Ann
    first = json.loads(cli.ok("log", "--json", "--session", "1"))
    assert [e["kind"] for e in first] == ["deal", "rename", "merge", "undo merge", "rename"]
    assert (first[-1]["player"], first[-1]["name"]) == ("Ben", "Benny")
    assert "Ben renamed to Benny" in cli.ok("log", "--session", "1")


def test_undo_takes_back_the_latest_action_first(cli):
    _two_sessions(cli)
    cli.ok("player", "rename", "Cat", "貓")
    cli.ok("deal", "貓=0", "李小明=1", "Anne=2", "Dan=3")
    assert cli.ok("undo").startswith("undone: deal 2")  # the deal came after the rename
    assert cli.ok("undo").strip() == "undo: 貓 is called Cat again"
    assert "Cat" in _standings_all(cli)
    assert cli.ok("undo").startswith("undone: deal 1")  # then the session again
    assert cli.ok("doctor", "--full").startswith("ok:")


@pytest.mark.parametrize(("args", "message"), [
    (("player", "rename", "陳大民", "X"),
     "error: no player named '陳大民' in this ledger; did you mean '陳大文'?"),
    (("player", "rename", "Ann", " "),
     "error: a player name is empty; write a name such as Ann or 陳大文"),
    (("player", "rename", "Ann", "A\x07b"), "error: player name 'A\\x07b' contains a control"),
    (("player", "rename", "Ann", "ben"),
     "error: the name 'ben' is taken by player 'Ben'; to make them one player: "
     "bigtwo player merge"),
    (("player", "rename", "Ann", "李小明"), "error: the name '李小明' is taken by player '李小明'"),
    (("player", "merge", "Ann", "--into", "Ben"),
     "error: 'Ann' and 'Ben' sat in the same session, so they are two people"),
    (("player", "merge", "Ann", "--into", "ann"),
     "error: 'Ann' and 'Ann' are one player already; nothing to merge"),
    (("player", "merge", "Nobody", "--into", "Ann"), "error: no player named 'Nobody'"),
])
def test_bad_input_is_one_error_and_changes_nothing(cli, ledger_path, args, message):
    _two_sessions(cli)
    digest = file_digest(ledger_path)
    err = cli.fails(*args)
    assert err.startswith(message) and err.count("\n") == 1, err
    assert file_digest(ledger_path) == digest


def test_renaming_a_merged_player_and_merging_twice_are_refused(cli, ledger_path):
    _two_sessions(cli)
    cli.ok("player", "merge", "Anne", "--into", "Ann")
    digest = file_digest(ledger_path)
    assert cli.fails("player", "rename", "Anne", "Annie").startswith(
        "error: player 'Anne' is merged into 'Ann'; rename 'Ann' instead")
    assert cli.fails("player", "merge", "Anne", "--into", "Cat").startswith(
        "error: player 'Anne' is merged into 'Ann' already; name 'Ann' instead")
    assert file_digest(ledger_path) == digest


def test_player_undo_with_nothing_left_is_the_sessions_own(cli, ledger_path):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    cli.ok("player", "rename", "Ann", "Anna")
    assert cli.ok("undo").strip() == "undo: Anna is called Ann again"
    assert cli.ok("undo").startswith("undone: the start of session 1")
    digest = file_digest(ledger_path)
    cli.fails("undo")
    assert file_digest(ledger_path) == digest


def test_messages_in_chinese(cli):
    _two_sessions(cli)
    assert cli.ok("--lang", "zh_Hant", "player", "rename", "Ben", "阿斌").strip() == (
        "已將 Ben 改名做 阿斌（undo 可以撤回）")
    result = cli("--lang", "zh_Hans", "player", "merge", "Ann", "--into", "阿斌")
    assert result.exit_code != 0
    assert result.stderr.startswith("error: ") and "是两个人" in result.stderr


def test_export_writes_the_names_now_and_restore_keeps_the_events(cli, ledger_path, tmp_path):
    _two_sessions(cli)
    old = tmp_path / "old.json"
    cli.ok("export", "--all", "--out", str(old))
    cli.ok("player", "rename", "李小明", "Lee Siu-ming")
    cli.ok("player", "merge", "Anne", "--into", "Ann")
    new = tmp_path / "new.json"
    cli.ok("export", "--all", "--out", str(new))
    text = new.read_text(encoding="utf-8")
    assert "李小明" not in text and "Anne" not in text and "Lee Siu-ming" in text
    # a file written before the rename is the same sessions: nothing new, no conflict
    digest = file_digest(ledger_path)
    assert "nothing new" in cli.ok("import", str(old))
    assert "nothing new" in cli.ok("import", str(new))
    assert file_digest(ledger_path) == digest
    # into another ledger the export brings the names as they are now, as plain names
    other = tmp_path / "other.db"
    cli.ok("--db", str(other), "import", str(new))
    assert _standings_all_of(cli, other) == _standings_all(cli)
    # a backup restores the events themselves: undo still takes the merge back
    backup, restored = tmp_path / "b.db", tmp_path / "r.db"
    cli.ok("backup", str(backup))
    cli.ok("--db", str(restored), "restore", str(backup))
    assert _standings_all_of(cli, restored) == _standings_all(cli)
    assert cli.ok("--db", str(restored), "doctor", "--full").startswith("ok:")
    cli.ok("--db", str(restored), "session", "use", "2")
    assert cli.ok("--db", str(restored), "undo").strip() == (
        "undo: Anne and Ann are two players again")


def _standings_all_of(cli, db) -> dict[str, dict]:
    out = cli.ok("--db", str(db), "standings", "--all", "--json")
    return {p["name"]: p for p in json.loads(out)["players"]}
