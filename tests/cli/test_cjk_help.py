"""Help in Chinese is wrapped as Chinese is written: every line within the terminal's
columns, no space where the translator broke a line, every command's summary readable;
English help is exactly as before."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from ledger.cli.commands import LAZY
from ledger.present.fit import width

COMMANDS = ["deal", "table", "settle", "session start", "import", "serve", "rules show", *LAZY]
CJK = "\u4e00-\u9fff"


def help_of(cli, lang: str, command: str, monkeypatch, columns: int) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    return cli.ok("--lang", lang, *command.split(), "--help")


def assert_fits(out: str, columns: int, command: str) -> None:
    assert re.search(f"[{CJK}]", out), command
    for line in out.splitlines():
        if line.lstrip().startswith(("--", "-")) or "bigtwo" in line:
            continue  # an option's own name, or a quoted command: not wrapped text
        assert width(line) <= columns, (command, line)


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_chinese_help_fits_the_terminal(cli, monkeypatch, lang) -> None:
    for command in dict.fromkeys(["", *COMMANDS]):  # the test runner's terminal: 80 columns
        assert_fits(help_of(cli, lang, command, monkeypatch, 80), 80, command)


@pytest.mark.parametrize("command", ["", "table", "import"])
def test_chinese_help_fits_a_narrow_terminal(tmp_path, command) -> None:
    env = {**os.environ, "COLUMNS": "50", "BIGTWO_DB": str(tmp_path / "l.db")}
    out = subprocess.run([sys.executable, "-m", "ledger", "--lang", "zh_Hant", *command.split(),
                          "--help"], env=env, capture_output=True, text=True, check=True).stdout
    assert_fits(out, 50, command)


@pytest.mark.parametrize(("lang", "joined"), [("zh_Hant", "在終端機可以編輯該行並以上鍵"),
                                              ("zh_Hans", "在终端可以编辑该行并以上键")])
def test_no_space_where_a_translated_line_was_broken(cli, monkeypatch, lang, joined) -> None:
    out = help_of(cli, lang, "table", monkeypatch, 80)
    assert joined in out.replace("\n  ", "")
    assert not re.search(f"[{CJK}，。：；] +[{CJK}]", out), out


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_every_command_has_a_readable_summary(cli, monkeypatch, lang) -> None:
    out = help_of(cli, lang, "", monkeypatch, 80)
    rows = out.split("\n\n")[-1].splitlines()[1:]
    summaries = [row[16:] for row in rows if row.startswith("  ") and row[2] != " "]
    assert len(summaries) >= 20
    for summary in summaries:
        assert re.search(f"[{CJK}]", summary) and summary.strip() != "...", rows
        assert width(summary) <= 62


def test_english_help_is_unchanged_after_chinese(cli, monkeypatch) -> None:
    before = {c: help_of(cli, "en", c, monkeypatch, 80) for c in ["", "table", "settle"]}
    for command in ["", "table", "settle"]:
        help_of(cli, "zh_Hant", command, monkeypatch, 80)
    after = {c: help_of(cli, "en", c, monkeypatch, 80) for c in ["", "table", "settle"]}
    assert after == before
    undo = next(line for line in after[""].splitlines() if line.startswith("  undo "))
    assert undo.endswith("...") and "Take back the last action" in undo  # click's own cut
