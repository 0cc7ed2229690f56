"""Every line a user reads is in the chosen language: a corpus of commands (each preset's
``rules show``, ``rules list``, ``compare --explain`` over several pairs and rule sets,
the scoring and settlement checks, click's usage errors, help) run in Traditional and
Simplified Chinese must print Chinese and no English sentence, while English stays as
it was and ``--json`` stays English."""

from __future__ import annotations

import json
import re

import pytest

from ledger.core.rules import preset_names

SEATS = "陳大文,李小明,José,阿明"
LANGS = ["zh_Hant", "zh_Hans"]
CJK = re.compile(r"[\u3400-\u9fff]")
# Public names that stay as written (the rule texts' and games' names).
PROPER_NAMES = ("Choi Dai Di", "Da Lao Er", "Andrew White", "Big Two", "Pusoy Dos")
CARDS = "陳大文=0 李小明=3 José=5 阿明=2"

PAIRS = [
    ("3D", "4D"), ("3S", "3D"), ("3D 3S", "4D 4H"), ("3D 4D 5D 6D 7C", "3S 4S 5S 6S 7D"),
    ("AS 2S 3S 4S 5H", "2D 3D 4D 5D 6C"), ("3D 5D 7D 9D JD", "3S 4S 5S 6S 7D"),
    ("3D 5D 7D 9D JD", "4S 6S 8S 10S QS"), ("3D 3S 3H 4D 4S", "5D 5S 5H 6D 6S"),
    ("3D 3S 3H 3C 4D", "5D 5S 5H 5C 6S"), ("3D", "4D 4S"), ("AS KS QS JS 10S", "9H 9D 9S 9C 3D"),
]

# (setup run in English, commands whose every line must be in the chosen language)
CORPUS: list[tuple[tuple[str, ...], list[tuple[str, ...]]]] = [
    ((), [("rules", "show", name) for name in [*preset_names(), "house.toml"]]
     + [("compare", "--explain", "--rules", rules, a, b)
        for a, b in PAIRS for rules in ("classic", "hong-kong", "taiwan")]
     + [("compare", "--explain", "--rules", "bombs.toml", "3D 3S 3H 3C 4D", "4S"),
        ("compare", "--explain", "--rules", "bombs.toml", "3D", "3S"),
        ("compare", "--explain", "--rules", "bombs.toml", "3D 5D 7D 9D JD", "3S 5S 7S 9S JS")]
     + [("session", "start", "--players", SEATS, "--stake", stake)
        for stake in ("abc", "0.1234567", "99999999999")]
     + [("session", "start", "--players", SEATS, "--currency", "12"),
        ("session", "start", "--players", "陳大文,\x1b[31m,José,阿明"),
        ("session", "start", "--players", SEATS, "--name", "x" * 1200),
        # click's usage errors
        ("session", "start", "陳大文", "李小明"), ("standings", "--bogus"),
        ("standings", "--sesion", "1"), ("standings", "extra"), ("void", "x"),
        ("export", "--format", "xml"), ("stat",), ("session", "starts"), ("compare", "3D"),
        ("settle", "--round"), ("standings", "--json=1"),
        ("session", "start", "--help"), ("import", "--help")]),
    (("session", "start", "--players", SEATS), [
        ("deal", "陳大文=0", "李小明=3", "José=5"),
        ("deal", "陳大文=0", "李小明=3", "José=5", "阿明=20"),
        ("deal", "陳大文=0", "李小明=3", "José=5", "阿明=0"),
        ("deal", "陳大文=1", "李小明=3", "José=5", "阿明=2"),
        ("deal", *CARDS.split(), "--twos", "李小明=1"),
        ("deal", *CARDS.split(), "--assist", "陳大文"),
        ("deal", *CARDS.split(), "--finish", "quads"),
        ("deal", *CARDS.split(), "--assist", "李小明", "--finish", "quads"),
        ("deal", *CARDS.split(), "--shootout", "李小明"),
        ("deal", "--dragon", "陳大文", "--twos", "李小明=1"),
    ]),
    (("session", "start", "--players", SEATS, "--rules", "doubling"), [
        ("deal", *CARDS.split(), "--twos", "李小明=4"),
        ("deal", *CARDS.split(), "--bombs", "李小明=1"),
        ("deal", *CARDS.split(), "--missed-call"),
        ("deal", *CARDS.split(), "--twos", "李小明=3", "--twos", "José=2"),
    ]),
    (("session", "start", "--players", SEATS, "--rules", "pay-the-winner"), [
        ("deal", *CARDS.split(), "--finish", "two"),
    ]),
    (("session", "start", "--players", SEATS, "--teams"), [
        ("deal", "陳大文=0", "李小明=3", "José=6", "阿明=3"),
        ("deal", "陳大文=0", "李小明=3", "José=5", "阿明=3", "--shootout", "李小明"),
        ("deal", *CARDS.split(), "--assist", "李小明"),
    ]),
    (("session", "start", "--players", SEATS, "--rules", "places"), [
        ("deal", *CARDS.split()),
        ("deal", "--order", "陳大文,李小明,José"),
        ("deal", "--order", "陳大文,李小明,José,陳大文"),
    ]),
]


def english_sentence(line: str) -> str | None:
    """Three or more plain English words in a row, one space apart (outside the proper
    names): a sentence
    left untranslated.  Ranks, option names, rule keys, values (``pay-the-winner``), card codes
    and quoted text are not plain words."""
    for name in PROPER_NAMES:
        line = line.replace(name, "")
    line = re.sub(r"'[^']*'|\"[^\"]*\"", "''", line)
    run: list[str] = []
    for token in line.split(" "):  # two spaces (a table's columns) end a run
        if re.fullmatch(r"[A-Za-z]{2,}|[a-z]", token):  # not a rank (A K Q J)
            run.append(token)
            if len(run) >= 3:
                return " ".join(run)
        else:
            run = []
    return None


@pytest.fixture
def bombs_rules(tmp_path, monkeypatch):
    (tmp_path / "bombs.toml").write_text(
        'name = "bombs"\nplays = { bombs = "beat-anything", suit_order = "none", flushes = "poker" }\n',
        encoding="utf-8")
    (tmp_path / "house.toml").write_text('base = "classic"\ntwos = "each"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)


def test_the_sentence_finder_finds_english_and_spares_names_and_options():
    assert english_sentence("error: no cards given for 阿明") == "no cards given"
    assert english_sentence("  plays.straights = \"pagat\": 蛇（pagat；Andrew White）") is None
    assert english_sentence("classic  1-9 x1  assist, missed call  pairwise  next_deal winner") is None
    assert english_sentence("error: 規則 'da lao er' 唔計 twos") is None


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_of_the_corpus_is_in_chinese(cli, bombs_rules, lang):
    checked = 0
    for setup, commands in CORPUS:
        if setup:
            cli.ok(*setup)
        for args in commands:
            result = cli("--lang", lang, *args)
            text = result.stdout + result.stderr
            assert "Traceback" not in text
            lines = [line for line in text.splitlines() if line.strip()]
            assert lines, args
            if result.exit_code:
                assert len(lines) == 1 and lines[0].startswith("error: "), (args, text)
            for line in lines:
                assert CJK.search(line), f"{lang}: bigtwo {' '.join(args)}: no Chinese in {line!r}"
                found = english_sentence(line)
                assert found is None, f"{lang}: bigtwo {' '.join(args)}: English {found!r} in {line!r}"
                checked += 1
    assert checked > 400


@pytest.mark.parametrize("lang", LANGS)
def test_rules_list_has_chinese_headings(cli, lang):
    header = cli.ok("--lang", lang, "rules", "list").splitlines()[0]
    assert CJK.search(header) and english_sentence(header) is None
    assert header.split()[0] == {"zh_Hant": "預設規則", "zh_Hans": "预设规则"}[lang]


def test_english_is_unchanged(cli, bombs_rules):
    shown = cli.ok("rules", "show", "classic").splitlines()
    assert shown[1] == "source: pagat.com's Big Two page; Andrew White's Hong Kong rules"
    assert shown[2] == "tiers: 1-9 x1, 10-12 x2, 13 x3"
    assert cli.ok("rules", "show", "house.toml").splitlines()[0] == (
        "house: based on classic; this file sets twos")
    assert shown[3] == ("  hand_size = 13: cards dealt to each player; a full hand after an "
                        "immediate win (pagat.com's Big Two page: thirteen cards each)")
    assert cli.ok("rules", "show", "taiwan").splitlines()[2] == (
        "ranked: losers pay 1, 2, 3 units by cards left; x2 if one holds 10+")
    assert cli.ok("rules", "list").split()[:5] == ["preset", "scoring", "extras", "settlement", "also"]
    assert cli.ok("compare", "--explain", "3D", "4D").splitlines()[1] == (
        "  ranks, high to low: 2 A K Q J 10 9 8 7 6 5 4 3; 3 against 4")
    assert cli.ok("compare", "--explain", "--rules", "bombs.toml", "3D 3S 3H 3C 4D", "4S"
                  ).splitlines()[1:3] == [
        "  sizes: 5 cards against 1; a play is beaten only by one with as many cards",
        "  bombs beat-anything: four of a kind + 1 or a straight flush beats any single, pair or "
        "triple (A is one)"]
    assert cli.fails("session", "start", "陳大文", code=2) == (
        "error: missing option '--players' (see 'bigtwo session start --help')\n")
    assert cli.fails("standings", "--sesion", "1", code=2) == (
        "error: no such option: --sesion (Possible options: --json, --season, --session) "
        "(see 'bigtwo standings --help')\n")
    cli.ok("session", "start", "--players", SEATS)
    assert cli.fails("deal", "陳大文=0", "李小明=3", "José=5") == (
        "error: no cards given for 阿明; every seated player needs NAME=CARDS\n")
    assert "[required]" in cli.ok("session", "start", "--help")


def test_chinese_help_lines_up_in_terminal_columns(cli):
    from ledger.present.fit import width

    lines = cli.ok("--lang", "zh_Hant", "session", "start", "--help").splitlines()
    options = [line for line in lines if line.startswith("  --")]
    assert any("<文字>" in line for line in options)
    # the help texts start in one column, whatever the option's name holds
    starts = {width(line[:len(line) - len(line[2:].lstrip().split("  ", 1)[1].lstrip())])
              for line in options}
    assert len(starts) == 1, options


@pytest.mark.parametrize("args", [
    ("compare", "--explain", "--json", "3D 4D 5D 6D 7C", "3S 4S 5S 6S 7D"),
    ("compare", "--explain", "--json", "--rules", "hong-kong", "AS 2S 3S 4S 5H", "2D 3D 4D 5D 6C"),
])
def test_explain_steps_in_json_stay_english(cli, args):
    english = cli.ok("--lang", "en", *args)
    assert json.loads(english)["steps"][0].startswith("five-card kinds (standard), low to high:")
    for lang in LANGS:
        assert cli.ok("--lang", lang, *args) == english


@pytest.mark.parametrize(("lang", "summary", "empty"), [
    ("zh_Hant", "今晚埋數：第 1 場，2 鋪", "第 2 場：一鋪都未記"),
    ("zh_Hans", "今晚结算：第 1 场，2 局", "第 2 场：还没有记录任何一局"),
])
def test_the_table_loop_ends_the_evening_in_chinese(cli, lang, summary, empty):
    cli.ok("session", "start", "--players", SEATS)
    out = cli("--lang", lang, "table", input="0 3 5 2\n4 0 1 9\n").stdout
    assert summary in out.splitlines()
    assert cli.ok("--lang", "en", "table", input="").count("end of the evening: session 1, 2 deals") == 1
    cli.ok("session", "start", "--players", SEATS)
    assert empty in cli("--lang", lang, "table", input="").stdout.splitlines()


@pytest.mark.parametrize("lang", LANGS)
def test_undo_says_what_it_took_back_in_chinese(cli, lang):
    cli.ok("session", "start", "--players", SEATS)
    cli.ok("deal", "0", "3", "5", "2")
    cli.ok("deal", "0", "4", "11", "13")
    cli.ok("amend", "1", "0", "3", "5", "1")
    cli.ok("void", "2")
    cli.ok("session", "end")
    said = [cli.ok("--lang", lang, "undo") for _ in range(4)]  # end, void, amend, deal
    for text in said:
        assert CJK.search(text.splitlines()[0]), text  # what was taken back
        for line in text.splitlines():  # then the deal now, the standings, who deals
            assert english_sentence(line) is None, line
    assert said[1].splitlines()[0].endswith("陳大文=0 李小明=4 José=11 阿明=13")
    cli.ok("session", "start", "--players", SEATS)
    assert cli.ok("undo").startswith("undone: the start of session 2 (陳大文, 李小明, José, 阿明 — "
                                     "rules classic, no deals); current again: session 1")
