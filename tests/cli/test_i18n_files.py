"""Files in and out speak the interface's language (issue 12): every refusal of import,
export, a score sheet, the paper check, backup, restore and doctor is one ``error:``
line in Traditional or Simplified Chinese that changes nothing in the ledger, the
English is what it always was, and ``--json`` stays the same in every language."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

SEATS = ["陳大文", "李小明", "Cat", "Dan"]
CJK = re.compile(r"[\u3400-\u9fff]")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")
COMMAND = re.compile(r"bigtwo(?: [a-z-]+| --[a-z]+(?: [a-z]+)?)+")
SQL = re.compile(r"CREATE [^）)]*")  # a schema's SQL, as the doctor shows it
# Three English words in a row: a sentence (or a piece of one) left untranslated.
ENGLISH = re.compile(r"\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b")


@pytest.fixture
def evening(cli):
    cli.ok("session", "start", "--players", ",".join(SEATS), "--stake", "0.5", "--currency", "HKD")
    cli.ok("deal", "0", "3", "11", "8")
    cli.ok("deal", "5", "0", "2", "13")
    return cli


def _export(**changes) -> dict:
    entry = {"uuid": "00000000-0000-4000-8000-000000000002", "seq": 1, "kind": "deal", "deal": 1,
             "facts": {"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}}}
    session = {"uuid": "00000000-0000-4000-8000-000000000001", "players": ["Ann", "Ben", "Cat", "Dan"],
               "rules": {"name": "classic"}, "entries": [entry]}
    data = {"format": "bigtwo-ledger", "version": 1, "sessions": [session]}
    for key, value in changes.items():
        where, _, field = key.partition("__")
        {"top": data, "session": session, "entry": entry}[where][field] = value
    return data


def _file(tmp_path: Path, name: str, content: str | bytes | dict) -> str:
    path = tmp_path / name
    if isinstance(content, dict):
        content = json.dumps(content)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, "utf-8")
    return str(path)


def _other_program(tmp_path: Path) -> str:
    path = tmp_path / "notes.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    return str(path)


def _tampered_backup(tmp_path: Path) -> str:
    """A copy of the ledger whose stored points no longer add up (a bad disk, a hand edit)."""
    path = tmp_path / "bad-backup.db"
    source = sqlite3.connect(os.environ["BIGTWO_DB"])
    copy = sqlite3.connect(path, isolation_level=None)
    source.backup(copy)
    source.close()
    tamper(copy, "UPDATE points SET net = net + 7 WHERE id = 1")
    copy.close()
    return str(path)


def tamper(conn: sqlite3.Connection, *statements: str) -> None:
    """Change stored rows behind the ledger's back (its append-only guards put back after)."""
    guards = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                               "AND name LIKE '%_no_%'").fetchall())
    for name in guards:
        conn.execute(f"DROP TRIGGER {name}")
    for sql in statements:
        conn.execute(sql)
    for sql in guards.values():
        conn.execute(sql)


# Each case: (the arguments, given a scratch folder) and the English line as it always was.
Case = tuple[Callable[[Path], list[str]], str]
CASES: dict[str, Case] = {
    "a password file as a sheet": (
        lambda t: ["import", _file(t, "passwd", "root:x:0:0:root:/root:/bin/bash\n")],
        "error: passwd line 1: a line of names needs 4 players, not 1 "
        "(root:x:0:0:root:/root:/bin/bash)"),
    "a game before the names": (
        lambda t: ["import", _file(t, "s.txt", "0 3 11 8\n")],
        "error: s.txt line 1: a game before any line of player names"),
    "two winners": (
        lambda t: ["import", _file(t, "s.txt", "Ann Ben Cat Dan\n0 0 11 8\n")],
        "error: s.txt line 2: a game has exactly one winner (cards left 0); Ann and Ben all "
        "have 0 cards"),
    "a hand too big": (
        lambda t: ["import", _file(t, "s.txt", "Ann Ben Cat Dan\n0 3 14 8\n")],
        "error: s.txt line 2: Cat has 14 cards left: a hand holds at most 13"),
    "a bad date": (
        lambda t: ["import", _file(t, "s.txt", "2024-13-45\nAnn Ben Cat Dan\n0 3 11 8\n")],
        "error: s.txt line 1: 2024-13-45 is not a date (YYYY-MM-DD)"),
    "a low fry threshold": (
        lambda t: ["import", _file(t, "s.txt", "F=3\n")],
        "error: s.txt line 1: fry threshold F=3 is below 10"),
    "a line it cannot read": (
        lambda t: ["import", _file(t, "s.txt", "Ann Ben Cat Dan\nAnn=0 x\n")],
        "error: s.txt line 2: cannot read 'Ann=0 x': a line is a date YYYY-MM-DD, a fry "
        "threshold F=<n>, four player names, four numbers of cards left (one 0, the winner; a "
        "`t` suffix on at most one), a # comment, or blank"),
    "a sheet that is not UTF-8": (
        lambda t: ["import", _file(t, "s.txt", b"Ann Ben Cat Dan\n\xff 1 2 3\n")],
        "error: s.txt line 2: not UTF-8 text"),
    "broken JSON": (
        lambda t: ["import", _file(t, "e.json", '{"format": ')],
        "error: e.json is not valid JSON: line 1 column 1: Expecting value"),
    "JSON that is not an export": (
        lambda t: ["import", _file(t, "e.json", _export(top__format="xlsx"))],
        "error: e.json: not a bigtwo-ledger export (format is 'xlsx'); write one with: bigtwo "
        "export --format json"),
    "a newer version": (
        lambda t: ["import", _file(t, "e.json", _export(top__version=3))],
        "error: e.json: version 3 is not supported: this bigtwo reads version 2 (the file was "
        "written by a newer bigtwo)"),
    "an unknown kind of entry": (
        lambda t: ["import", _file(t, "e.json", _export(entry__kind="redo"))],
        "error: e.json: sessions[0].entries[0]: kind must be one of deal, void, amend, start, end, reopen, "
        "undo, seat, not 'redo'"),
    "a void of a deal never recorded": (
        lambda t: ["import", _file(t, "e.json", _export(entry__kind="void", entry__facts=None))],
        "error: e.json: sessions[0].entries[0]: a void of deal 1, which no earlier entry records"),
    "a bad uuid": (
        lambda t: ["import", _file(t, "e.json", _export(session__uuid="nope"))],
        "error: e.json: sessions[0].uuid: 'nope' is not a uuid"),
    "a bad stake": (
        lambda t: ["import", _file(t, "e.json", _export(session__stake=[1]))],
        "error: e.json: sessions[0]: stake must be text like \"0.25\", not [1]"),
    "no such file": (
        lambda t: ["import", str(t / "nothere.json")],
        "error: cannot import {t}/nothere.json: no such file"),
    "a folder": (
        lambda t: ["import", str(t)],
        "error: {t}: it is a folder, not a file; give a regular file"),
    "an empty file": (
        lambda t: ["import", _file(t, "empty.txt", "  \n")],
        "error: empty.txt is empty: not a bigtwo export or score sheet"),
    "export into a missing folder": (
        lambda t: ["export", "--all", "--out", str(t / "no" / "e.json")],
        "error: cannot write {t}/no/e.json: No such file or directory"),
    "paper check without totals of everyone": (
        lambda t: ["check", "陳大文=0,5", "李小明=3"],
        "error: every player needs as many totals as the others; given: 陳大文 2, 李小明 1"),
    "paper check after a deal that is not there": (
        lambda t: ["check", "陳大文=5", "--after", "9"],
        "error: --after 9: session 1 has deals 1 to 2"),
    "paper check with a word for a total": (
        lambda t: ["check", "陳大文=five"],
        "error: '陳大文=five': 'five' is not a penalty total (a whole number 0 or more)"),
    "doctor with no ledger": (
        lambda t: ["--db", str(t / "none.db"), "doctor"],
        "error: no ledger at {t}/none.db yet (nothing to check or back up)"),
    "backup over a file": (
        lambda t: ["backup", _file(t, "b.db", "old")],
        "error: {t}/b.db already exists; give a new file name (or --force to replace it)"),
    "backup into a folder": (
        lambda t: ["backup", str(t)],
        "error: {t}: it is a folder, not a file; give a regular file"),
    "backup into a missing folder": (
        lambda t: ["backup", str(t / "no" / "b.db")],
        "error: cannot write the backup {t}/no/b.db: the folder {t}/no does not exist"),
    "backup onto the ledger": (
        lambda t: ["backup", os.environ["BIGTWO_DB"]],
        "error: {db} is the ledger itself; give another file for the backup"),
    "restore a password file": (
        lambda t: ["restore", _file(t, "passwd", "root:x:0:0:root:/root:/bin/bash\n")],
        "error: {t}/passwd is not a bigtwo ledger (not an SQLite database); nothing was restored"),
    "restore an empty file": (
        lambda t: ["restore", _file(t, "empty.db", "")],
        "error: {t}/empty.db is empty (0 bytes), not a bigtwo backup; nothing was restored"),
    "restore a missing file": (
        lambda t: ["restore", str(t / "none.db")],
        "error: no backup file {t}/none.db"),
    "restore another program's database": (
        lambda t: ["restore", _other_program(t)],
        "error: {t}/notes.db is not a bigtwo ledger: an SQLite database of another program "
        "(tables: notes); nothing was restored"),
    "restore a backup that fails the self-check": (
        lambda t: ["restore", _tampered_backup(t)],
        "error: {t}/bad-backup.db fails the self-check, so nothing was restored (3 problems; "
        "the first: session 1 deal 1 (entry 1, deal): 陳大文 net: expected 33, stored 40, "
        "difference +7)"),
    "another program's database as the ledger": (
        lambda t: ["--db", _other_program(t), "standings"],
        "error: {t}/notes.db is an SQLite database of another program (tables: notes); give a "
        "new file for the ledger"),
    # The rest of the book's refusals at the table.
    "void a deal that is not there": (
        lambda t: ["void", "9"], "error: cannot void deal 9: session 1 has deals 1 to 2"),
    "a session that is not there": (
        lambda t: ["standings", "--session", "99"],
        "error: no session 99 in this ledger; see: bigtwo session list"),
    "a name that is a number": (
        lambda t: ["session", "start", "--players", "Ann,Ben,7,Dan"],
        "error: player name '7' is a number; numbers are cards left"),
    "nine players": (
        lambda t: ["session", "start", "--players", "A,B,C,D,E,F,G,H,I"],
        "error: a session seats 2 to 8 players, not 9"),
    "a date that is not one": (
        lambda t: ["stats", "--since", "2024-02-30"],
        "error: bad date '2024-02-30' for --since: use YYYY-MM-DD, e.g. 2024-05-03"),
    "dates the wrong way round": (
        lambda t: ["stats", "--since", "2024-05-01", "--until", "2024-01-01"],
        "error: --since 2024-05-01 is after --until 2024-01-01; nothing is between them"),
    "no sessions between the dates": (
        lambda t: ["history", "--since", "2030-01-01"],
        "error: no sessions from 2030-01-01; see: bigtwo history --all"),
    "cut with two cards": (
        lambda t: ["cut", "7H 8H"],
        "error: give the one exposed card, e.g. 7H; got 2 cards in '7H 8H'"),
    "a short hand to check for a redeal": (
        lambda t: ["redeal-check", "3D 4S"],
        "error: a hand as dealt has 13 cards (17 or 18 with three players), not 2: type all of them, e.g. "
        "\"3D 4S 7H JC QD 5C 6C 8C 9C 10S 3S 4S 5S\""),
    "export of one session and all": (
        lambda t: ["export", "--all", "--session", "1"],
        "error: give --session ID or --all, not both"),
    "a league by the week": (
        lambda t: ["standings", "--by", "week"],
        "error: --by takes month or year, not 'week'"),
    "settle in an unknown format": (
        lambda t: ["settle", "--format", "pdf"],
        "error: unknown --format 'pdf'; choose from table, text, markdown, png"),
    "an unknown chart": (

        lambda t: ["plot", "--kind", "pie"],
        "error: unknown plot kind 'pie'; choose from net, timeline, sessions, distribution, rates, "
        "rating"),
    "a chart to a GIF": (
        lambda t: ["plot", "--out", str(t / "c.gif")],
        "error: cannot write a plot to {t}/c.gif: give a file ending in .png, .svg, .pdf"),
    "a chart into a missing folder": (
        lambda t: ["plot", "--out", str(t / "gone" / "c.png")],
        "error: cannot write a plot to {t}/gone/c.png: the folder {t}/gone does not exist"),
    "a settlement card to a JPEG": (
        lambda t: ["settle", "--format", "png", "--out", str(t / "s.jpg")],
        "error: cannot write a settlement card to {t}/s.jpg: give a file ending in .png"),
    "a settlement card into a missing folder": (
        lambda t: ["settle", "--format", "png", "--out", str(t / "gone" / "s.png")],
        "error: cannot write a settlement card to {t}/gone/s.png: the folder {t}/gone does not exist"),
}


def ledger_state(cli) -> str:
    """Everything the ledger holds, as an export (English: the same bytes every time)."""
    return cli.ok("--lang", "en", "export", "--all")


def untranslated(line: str, tmp_path: Path) -> list[str]:
    """Runs of English words in ``line`` that are not a path, a quoted value or a command."""
    text = line.removeprefix("error: ").replace(str(tmp_path), "")
    text = SQL.sub("", COMMAND.sub("", QUOTED.sub("", text)))

    return ENGLISH.findall(text)


def _run_case(cli, tmp_path: Path, case: Case, lang: str) -> str:
    make, _ = case
    before = ledger_state(cli)
    err = cli.fails("--lang", lang, *make(tmp_path))
    assert ledger_state(cli) == before, "a refused command changed the ledger"
    return err


@pytest.mark.parametrize("name", CASES)
def test_every_refusal_is_one_line_in_english_as_before(evening, tmp_path, name):
    err = _run_case(evening, tmp_path, CASES[name], "en")
    assert err == CASES[name][1].format(t=tmp_path, db=os.environ["BIGTWO_DB"]) + "\n"



@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
@pytest.mark.parametrize("name", CASES)
def test_every_refusal_is_one_chinese_line(evening, tmp_path, name, lang):
    err = _run_case(evening, tmp_path, CASES[name], lang)
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert CJK.search(err), err
    assert untranslated(err, tmp_path) == [], err


def test_the_sheet_error_reads_naturally(evening, tmp_path):
    args = CASES["a password file as a sheet"][0](tmp_path)
    assert evening.fails("--lang", "zh_Hant", *args) == (
        "error: passwd 第 1 行：玩家名嗰行要有 4 個玩家，唔係 1 個（root:x:0:0:root:/root:/bin/bash）\n")
    assert evening.fails("--lang", "zh_Hans", *args) == (
        "error: passwd 第 1 行：玩家名行需要 4 位玩家，而不是 1 位（root:x:0:0:root:/root:/bin/bash）\n")


def test_import_and_export_summaries_follow_the_language(evening, tmp_path):
    out = tmp_path / "all.json"
    assert evening.ok("--lang", "zh_Hant", "export", "--all", "--out", str(out)) == (
        f"已匯出 1 場（2 項記錄）到 {out}\n")
    assert evening.ok("--lang", "zh_Hans", "export", "--all", "--format", "csv", "--out",
                      str(tmp_path / "all.csv")) == f"已导出 1 场（8 行）到 {tmp_path / 'all.csv'}\n"
    assert evening.ok("--lang", "en", "export", "--all", "--out", str(out)) == (
        f"exported 1 session (2 entries) to {out}\n")
    assert evening.ok("--lang", "zh_Hant", "import", str(out)) == (
        "all.json：冇新嘢；佢嘅 1 場 同 2 項記錄 已經喺帳簿入面\n")
    sheet = _file(tmp_path, "s.txt", "Ann Ben Cat Dan\n0 3 11 8\n5 0 2 13t\n")
    assert evening.ok("--lang", "zh_Hans", "import", sheet) == (
        "s.txt：添加了 2 局（1 个新场次，合并了 0 场）\n")


def test_a_conflict_is_told_in_chinese_and_its_json_stays_english(evening, tmp_path):
    data = json.loads(ledger_state(evening))
    data["sessions"][0]["stake"] = "2"
    changed = _file(tmp_path, "changed.json", data)
    before = ledger_state(evening)
    english = evening.fails("--lang", "en", "import", changed)
    assert english.splitlines()[0] == (
        "error: changed.json: 1 conflict with the ledger; nothing of 1 session was written:")
    assert "stake: ledger 0.5, file 2" in english
    hant = evening.fails("--lang", "zh_Hant", "import", changed)
    assert hant.splitlines()[0] == "error: changed.json：同帳簿有 1 個衝突；1 場 全部都冇寫入："
    assert "注碼：帳簿 0.5，檔案 2" in hant
    assert "注码：账本 0.5，文件 2" in evening.fails("--lang", "zh_Hans", "import", changed)
    outputs = {lang: evening("--lang", lang, "import", "--json", changed).stdout
               for lang in ("en", "zh_Hant", "zh_Hans")}
    assert json.loads(outputs["en"])["conflicts"][0]["differences"] == ["stake: ledger 0.5, file 2"]
    assert outputs["zh_Hant"] == outputs["en"] == outputs["zh_Hans"]
    assert ledger_state(evening) == before


def test_the_paper_check_speaks_chinese(evening):
    out = evening.ok("--lang", "zh_Hant", "check", "陳大文=5", "李小明=3", "Cat=24", "Dan=47")
    assert out.splitlines()[0] == "對計分紙：第 1 場（陳大文, 李小明, Cat, Dan）：第 2 鋪之後"
    assert out.splitlines()[-1] == "第 2 鋪之後計分紙同帳簿一致"
    assert "計分紙" in out.splitlines()[1] and "相差" in out.splitlines()[1]
    err = evening.fails("--lang", "zh_Hans", "check", "陳大文=5", "李小明=3", "Cat=24", "Dan=42")
    assert err.startswith("error: 第 2 局之后计分表与账本不一致（Dan -5）") and err.count("\n") == 1
    english = evening.ok("check", "陳大文=5", "李小明=3", "Cat=24", "Dan=47", "--json")
    assert evening.ok("--lang", "zh_Hant", "check", "陳大文=5", "李小明=3", "Cat=24", "Dan=47",
                      "--json") == english


def test_doctor_tells_every_finding_in_chinese_and_its_json_stays_english(evening, ledger_path):
    conn = sqlite3.connect(ledger_path, isolation_level=None)
    tamper(conn,
           "UPDATE points SET net = net + 7 WHERE id = 1",  # a changed net (and its total)
           "UPDATE entries SET facts = '\"oops\"' WHERE seq = 2",  # facts that do not score
           "INSERT INTO seats (session_id, seat, player_id) VALUES (77, 1, 1)",  # an orphan
           "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, "
           "penalty, net) VALUES (9999, 1, 1, 1, 0, 0, 3, 3, -3)")
    conn.execute("DROP TRIGGER entries_no_update")  # a guard that is gone
    conn.close()
    outputs = {lang: evening("--lang", lang, "doctor", "--json") for lang in ("en", "zh_Hant", "zh_Hans")}
    assert {r.exit_code for r in outputs.values()} == {1}
    assert outputs["en"].stdout == outputs["zh_Hant"].stdout == outputs["zh_Hans"].stdout
    texts = [f["text"] for f in json.loads(outputs["en"].stdout)["findings"]]
    assert "session 1 deal 2 (entry 2, deal): its facts do not score: facts are 'oops', not a " \
           "table of facts" in texts
    assert "seat 1 of session 77: its session does not exist" in texts
    checks = {f["check"] for f in json.loads(outputs["en"].stdout)["findings"]}
    assert checks >= {"derived", "orphan", "schema", "totals", "net"}
    english = evening("--lang", "en", "doctor")
    assert english.stdout.splitlines()[:-1] == texts  # the English text is the JSON's, as before
    assert english.stdout.splitlines()[-1].startswith(f"{len(texts)} problems found in 1 session, ")
    for lang, found in (("zh_Hant", "個問題"), ("zh_Hans", "个问题")):
        lines = evening("--lang", lang, "doctor").stdout.splitlines()
        assert len(lines) == len(texts) + 1 and found in lines[-1]
        for line in lines:
            assert CJK.search(line), line
            assert untranslated(line, ledger_path.parent) == [], line
    hant = evening("--lang", "zh_Hant", "doctor").stdout
    assert "第 1 場第 2 鋪（第 2 項記錄，鋪）：牌局資料計唔到分：牌局資料係 'oops'，唔係一個資料表" in hant
    assert "第 77 場第 1 個座位：佢嘅場次唔存在" in hant


@pytest.mark.parametrize(("lang", "ok"), [("zh_Hant", "冇問題：1 場、2 項記錄、2 鋪有效、8 行分數"),
                                          ("zh_Hans", "正常：1 场、2 条记录、2 局有效、8 行分数")])
def test_doctor_backup_and_restore_report_in_chinese(evening, tmp_path, lang, ok):
    assert evening.ok("--lang", lang, "doctor").startswith(ok)
    backup = tmp_path / "b.db"
    said = evening.ok("--lang", lang, "backup", str(backup))
    assert CJK.search(said) and str(backup) in said and "1 " in said
    english = evening.ok("--lang", "en", "backup", "--force", str(backup))
    assert english.startswith(f"backed up {os.environ['BIGTWO_DB']} to {backup}: 1 session, "
                              "2 entries (")
    restored = evening.ok("--lang", lang, "restore", str(backup)).splitlines()
    assert len(restored) == 2 and all(CJK.search(line) for line in restored)
    assert all(untranslated(line, tmp_path) == [] for line in restored)


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_the_table_loop_tells_each_bad_line_in_chinese(evening, lang):
    before = ledger_state(evening)
    result = evening("--lang", lang, "table", input="frobnicate\nvoid x\nstandings now\n")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 4 and all(line.startswith("error: ") for line in lines[:3])
    for line in lines:
        assert CJK.search(line), line
        assert untranslated(line, Path("/nowhere")) == [], line
    assert CJK.search(result.stdout.split("\n\n")[0].splitlines()[-1])  # the evening's summary
    assert ledger_state(evening) == before
    english = evening("--lang", "en", "table", input="frobnicate\nvoid x\n")
    assert english.stderr.splitlines()[1:] == [
        "error: line 2: void needs a deal number: void N, e.g. void 3",
        "2 lines failed and changed nothing"]


def test_a_ledger_moved_away_is_told_in_chinese(tmp_path):
    from ledger.core import i18n
    from ledger.core.errors import LedgerMoved
    from ledger.storage.store import open_ledger

    path = tmp_path / "ledger-moved.db"
    with open_ledger(path) as ledger:
        path.rename(tmp_path / "elsewhere.db")
        i18n.choose("zh_Hans")
        try:
            with pytest.raises(LedgerMoved) as moved:
                ledger.check_same_file()
        finally:
            i18n.choose(None)
    assert str(moved.value) == (f"账本 {path} 已不是此命令打开的那个文件：它已被删除或移走；"
                                "已停止，最后这次修改未保存")
