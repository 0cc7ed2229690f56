"""The interface in Traditional (Hong Kong) and Simplified Chinese (issue 12):
complete catalogs, the language chosen by --lang / BIGTWO_LANG / the locale, aligned
tables in every language, and JSON that is the same in every language."""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import re
import subprocess
import sys

import pytest
from aligned import assert_aligned
from helpers import CJK_SEATS, JOSE, ROOT, chinese_evening, forked_bigtwo

from ledger.core import i18n

SEATS = CJK_SEATS
LANGS = ["en", "zh_Hant", "zh_Hans"]


def catalogs_script():
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_message_is_translated_in_both_catalogs_and_compiled():
    script = catalogs_script()
    template = script.build_template()
    assert len(template) > 150  # help texts, report headings, messages
    for lang in script.LANGS:
        missing = script.untranslated(template, lang)
        assert missing == [], (
            f"{lang}: messages without a translation; run scripts/i18n.py update, fill in their "
            f"msgstr in ledger/locale/*/LC_MESSAGES/bigtwo.po, then scripts/i18n.py compile "
            f"(docs/i18n.md): {missing}")
        compiled = script.mo_path(lang).read_bytes()
        assert compiled == script.mo_bytes(script.read(script.po_path(lang), lang)), (
            f"{lang}: the .mo is stale; run scripts/i18n.py compile")


def test_the_catalog_check_fails_on_a_missing_translation(tmp_path, monkeypatch):
    script = catalogs_script()
    template = script.build_template()
    template.add("a message nobody translated")
    assert script.untranslated(template, "zh_Hant") == ["a message nobody translated"]


@pytest.fixture
def evening(cli):
    return chinese_evening(cli)


WORDS = {"en": ("player", "net"), "zh_Hant": ("玩家", "淨分"), "zh_Hans": ("玩家", "净分")}
REPORTS = [(["standings"], 1), (["settle"], 3), (["settle", "--round", "5"], 3), (["stats"], 4),
           (["history"], 1), (["session", "list"], 1), (["log"], 1),
           (["standings", "--by", "month"], 1), (["standings", "--by", "year"], 1)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("args", "tables"), REPORTS, ids=[" ".join(a) for a, _ in REPORTS])
def test_tables_align_in_every_language(evening, lang, args, tables):
    out = evening.ok("--lang", lang, *args)
    assert_aligned(out, expect_tables=tables)
    if args == ["standings"]:
        assert all(word in out for word in WORDS[lang])


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
@pytest.mark.parametrize("args", [a for a, _ in REPORTS], ids=[" ".join(a) for a, _ in REPORTS])
def test_every_table_heading_and_status_is_chinese(evening, lang, args):
    evening.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    evening.ok("session", "end")
    evening.ok("session", "use", "1")
    lines = evening.ok("--lang", lang, *args).splitlines()
    headings = [line for line, under in itertools.pairwise(lines)
                if under.startswith("---")]
    assert headings, lines
    # Allowed: the currency, UTC, the players' own names (head to head) and the rating's
    # symbols mu and sigma (TrueSkill's names for them).
    allowed = {"HKD", "UTC", "Ann", "Ben", "Cat", "Dan", "Jos", "Dragon", "sigma"}
    english = [w for line in headings for w in re.findall(r"[A-Za-z]{3,}", line) if w not in allowed]
    assert english == [], headings
    if args == ["session", "list"]:
        assert not re.search(r"\b(open|ended)\b", "\n".join(lines)), lines


# One word for a deal in each script (鋪 in Hong Kong, 局 in the Mainland): the title's
# count and the table's column agree, and the Simplified catalog never says 铺.
DEAL_WORD = {"zh_Hant": ("鋪", "鋪數"), "zh_Hans": ("局", "局数")}


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_one_word_for_a_deal_in_each_script(evening, lang):
    word, column = DEAL_WORD[lang]
    deals = max(p["deals"] for p in json.loads(evening.ok("standings", "--json"))["players"])
    title, header = evening.ok("--lang", lang, "standings").splitlines()[:2]
    assert title.endswith(f"{deals} {word}") and column in header.split()
    po = (ROOT / "ledger" / "locale" / "zh_Hans" / "LC_MESSAGES" / "bigtwo.po").read_text()
    assert "铺" not in po


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_forty_columns_in_chinese(evening, monkeypatch, lang):
    from ledger.present.fit import width

    monkeypatch.setenv("COLUMNS", "40")
    for args in (["standings"], ["settle", "--round", "1"]):
        out = evening.ok("--lang", lang, *args)
        assert max(width(line) for line in out.splitlines()) <= 40, out
        assert_aligned(out)


@pytest.mark.parametrize("args", [["standings", "--json"], ["settle", "--json"],
                                  ["settle", "--round", "5", "--json"], ["stats", "--json"],
                                  ["history", "--json"], ["log", "--json"],
                                  ["session", "list", "--json"], ["rules", "list", "--json"]])
def test_json_is_the_same_in_every_language(evening, monkeypatch, args):
    english = evening.ok("--lang", "en", *args)
    assert evening.ok("--lang", "zh_Hant", *args) == english
    monkeypatch.setenv("BIGTWO_LANG", "zh_Hans")
    assert evening.ok(*args) == english
    json.loads(english)


def test_the_language_comes_from_lang_then_bigtwo_lang_then_the_locale(evening, monkeypatch):
    for key in ("BIGTWO_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    assert "player" in evening.ok("standings")
    monkeypatch.setenv("LANG", "zh_HK.UTF-8")
    assert "淨分" in evening.ok("standings")
    monkeypatch.setenv("LC_MESSAGES", "zh_CN.UTF-8")
    assert "净分" in evening.ok("standings")
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert "player" in evening.ok("standings")
    monkeypatch.setenv("BIGTWO_LANG", "zh_TW")
    assert "淨分" in evening.ok("standings")
    assert "净分" in evening.ok("--lang", "zh-Hans", "standings")
    assert "player" in evening.ok("--lang", "en", "standings")


def test_an_unknown_language_is_one_error_line(evening):
    err = evening.fails("--lang", "klingon", "standings", code=2)
    assert err == "error: unknown language 'klingon'; choose en, zh_Hant (繁體) or zh_Hans (简体)\n"


def run(*args: str, lang: str) -> str:
    env = {**os.environ, "BIGTWO_LANG": lang}
    done = forked_bigtwo(list(args), env=env)
    done.check_returncode()
    return done.stdout


def test_help_is_translated():
    hant = run("--help", lang="zh_Hant")
    assert "鋤大D" in hant and "用法：" in hant and "選項" in hant and "指令" in hant
    hans = run("settle", "--help", lang="zh_Hans")
    assert "最少转账" in hans and "显示此说明并退出。" in hans
    assert "Usage:" in run("--help", lang="en")


def test_the_table_loop_speaks_chinese(evening):
    out = evening.ok("--lang", "zh_Hant", "table", input="help\n0 3 11 8\nquit\n")
    assert "第 4 鋪> " in out and "贏家係 0" in out and "下一鋪：" in out


def test_choosing_chinese_keeps_the_deal_path_light(tmp_path):
    db = str(tmp_path / "l.db")
    subprocess.run([sys.executable, "-m", "ledger", "--db", db, "session", "start", "--players",
                    "陳大文,李小明,Ann,Ben"], check=True, capture_output=True)
    code = (
        "import sys, json; from typer.testing import CliRunner; from ledger.cli.app import app; "
        f"db = {db!r}; r = CliRunner(); "
        "out = r.invoke(app, ['--db', db, '--lang', 'zh_Hant', 'deal', '0', '3', '11', '8']); "
        "assert '下一鋪' in out.output, out.output; "
        "print(json.dumps([m for m in ('babel', 'tabulate', 'matplotlib', 'sqlite_utils') "
        "if m in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_normalize_reads_locales():
    assert i18n.normalize("zh_TW.Big5") == "zh_Hant"
    assert i18n.normalize("zh_SG") == "zh_Hans"
    assert i18n.normalize("de_DE") is None


def test_common_mistakes_are_told_in_chinese(evening):
    err = evening.fails("--lang", "zh_Hant", "stats", "--player", "陳大民")
    assert err == "error: 帳簿入面冇叫 '陳大民' 嘅玩家；你係咪想寫 '陳大文'？\n"
    err = evening.fails("--lang", "zh_Hans", "deal", "陳大民=0", "李小明=3", f"{JOSE}=11", "🐉Dragon=8")
    assert err.startswith("error: 剩牌：'陳大民' 不在桌上") and "你是不是想写 '陳大文'？" in err
    err = evening.fails("--lang", "zh_Hant", "settle", "--round", "0")
    assert err.startswith("error: --round '0' 唔啱") and err.count("\n") == 1


def test_a_rule_file_error_is_told_in_chinese(cli, tmp_path):
    bad = tmp_path / "house.toml"
    bad.write_text("tiers = [[1, 1], [10, 2], [8, 3]]\n", "utf-8")
    english = cli.fails("rules", "show", str(bad), code=2)
    assert "does not rise above" in english
    hant = cli.fails("--lang", "zh_Hant", "rules", "show", str(bad), code=2)
    assert hant.startswith(f"error: 規則檔 {bad}：規則 'tiers' 要係") and "8 冇大過 10" in hant
    assert hant.count("\n") == 1
    hans = cli.fails("--lang", "zh_Hans", "rules", "show", str(bad), code=2)
    assert "规则文件" in hans and "8 没有大于 10" in hans and hans.count("\n") == 1
    assert "香港網上／內地級數" in cli.ok("--lang", "zh_Hant", "rules", "show", "hong-kong-online")


def test_the_deal_grammar_speaks_chinese(evening):
    err = evening.fails("--lang", "zh_Hant", "deal", "陳大文=0", "李小明=3S 3S", f"{JOSE}=11",
                        "🐉Dragon=8")
    assert err == "error: 李小明='3S 3S' 唔係剩低嘅張數：3S 寫咗兩次：每張牌只可以寫一次\n"
    err = evening.fails("--lang", "zh_Hans", "deal", "0", "3", "11", "8", "--finish", "dragonfly")
    assert err.startswith("error: 未知的收尾方式 'dragonfly'；可用：") and err.count("\n") == 1


def test_compare_answers_in_chinese_and_its_json_stays_english(cli):
    args = ("compare", "3D 4D 5D 6D 7C", "3S 4S 5S 6S 7D")
    assert cli.ok("--lang", "zh_Hant", *args).splitlines()[0] == (
        "可以：蛇 3-4-5-6-7 (最大 7♣) 大過 蛇 3-4-5-6-7 (最大 7♦)：最大嗰張嘅花色較大")
    assert cli.ok("--lang", "zh_Hans", "compare", "2S", "KH KD").startswith(
        "不行：单张 2♠ 不能压 对子 K♦ K♥：只有张数相同的牌才能压")
    english = cli.ok("--lang", "en", *args, "--json")
    assert json.loads(english)["reason"].startswith("straight 3-4-5-6-7 (top 7♣) beats")
    assert cli.ok("--lang", "zh_Hant", *args, "--json") == english
    err = cli.fails("--lang", "zh_Hant", "compare", "2S 2H 3D", "KH KD", code=2)
    assert err == "error: 出牌 A（'2S 2H 3D'）：3♦ 2♥ 2♠ 唔出得：三張牌一定要係三條\n"


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_an_unseated_name_in_a_deal_is_told_without_an_english_word(evening, lang):
    before = evening.ok("log", "--json")
    err = evening.fails("--lang", lang, "deal", "陳大文=0", "李小明=3", "Zed=4", "🐉Dragon=8")
    assert err.startswith("error: 剩牌：'Zed' ") and err.count("\n") == 1, err
    assert "cards" not in err
    assert evening.ok("log", "--json") == before
    assert evening.fails("--lang", "en", "deal", "陳大文=0", "Zed=4").startswith("error: cards: 'Zed' ")
