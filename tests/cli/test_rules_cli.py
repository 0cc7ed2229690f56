"""The house-rule variants through the commands: ``rules list/show``, ``compare
--explain``, the ranked settlement from session start to settle, export/import, doctor
and stats, and one ``error:`` line for every bad rule file."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

FOUR = ("--players", "Ann,Ben,Cat,Dan")


def rule_file(tmp_path: Path, text: str, name: str = "house") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, "utf-8")
    return str(path)


# --- rules list / show ------------------------------------------------------------------


def test_rules_list_shows_what_each_preset_sets(cli) -> None:
    out = cli.ok("rules", "list")
    rows = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert "next_deal winner, assist_single_only" in rows["classic"]
    assert "next_deal winner, next_lead winner, plays.straights hong-kong, plays.flushes poker" in (
        rows["hong-kong"])
    assert "four_twos tripled, finish_two forbidden" in rows["pay-the-winner"]
    assert "hand_size 17" in rows["three-player"]
    assert "losers pay 1, 2, 3 units by cards left; x2 if one holds 10+" in rows["taiwan"]
    assert "ranked" in rows["taiwan"] and "plays.suit_order SHDC" in rows["taiwan"]
    listed = {r["name"]: r["sets"] for r in json.loads(cli.ok("rules", "list", "--json"))}
    assert listed["taiwan"]["rank_payments"] == [1, 2, 3]
    assert listed["classic"]["next_deal"] == "winner"


@pytest.mark.parametrize("preset", ["classic", "taiwan", "hong-kong", "places"])
def test_rules_show_explains_every_option_with_its_source(cli, preset: str) -> None:
    from ledger.core.plays import PlayRules
    from ledger.core.rules import OPTION_KEYS

    lines = cli.ok("rules", "show", preset).splitlines()
    options = [line.strip() for line in lines if line.startswith("  ")]
    keys = {line.split(" = ")[0] for line in options}
    want = {k for k in OPTION_KEYS if k not in ("name", "description", "source", "plays")}
    want |= {f"plays.{k}" for k in PlayRules().to_dict()}
    assert keys == want
    for line in options:  # key = value: what it decides (source)
        assert ": " in line.split(" = ", 1)[1] and line.endswith(")"), line


def test_rules_show_reads_a_rule_file(cli, tmp_path) -> None:
    house = rule_file(tmp_path, 'base = "taiwan"\nrank_threshold = 8\n[plays]\nsuit_order = "none"\n')
    out = cli.ok("rules", "show", house)
    assert "  rank_threshold = 8: ranked:" in out
    assert '  plays.suit_order = "none": the suits, high to low; none: suits never break a tie' in out
    assert "ranked: losers pay 1, 2, 3 units by cards left; x2 if one holds 8+" in out


# --- compare --explain ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "options", "beats", "steps"),
    [
        # Andrew White: "A 2 3 4 5 > 2 3 4 5 6 > A K Q J 10"
        ("A♠2♠3♠4♠5♥", "2♦3♦4♦5♦6♣", ["--rules", "hong-kong"], True,
         ["straights (hong-kong), low to high: 3-4-5-6-7 < … < 10-J-Q-K-A < 2-3-4-5-6 < A-2-3-4-5",
          "A-2-3-4-5 is straight 10 of 10, 2-3-4-5-6 is 9: A-2-3-4-5 ranks higher"]),
        # pagat, Indonesia: the suit of the two decides
        ("A♥2♠3♥4♥5♥", "2♦3♠4♠5♠6♥", ["plays", "straights", "indonesian"], True,
         ["straights (indonesian), low to high: 3-4-5-6-7 < … < 10-J-Q-K-A < 2-3-4-5-6 = A-2-3-4-5",
          "suits (suit_order SHCD), high to low: ♠ ♥ ♣ ♦; compared: 2♠ against 2♦"]),
        # pagat: Hong Kong flushes, "2-J-7-5-3 beats A-J-10-7-6" (Wikipedia's, pay-the-winner)
        ("2♦J♦7♦5♦3♦", "A♠J♠10♠7♠6♠", ["--rules", "pay-the-winner"], True,
         ["flushes (top-card-first): the top card's rank first, then the suit",
          "ranks 2-J-7-5-3 against A-J-10-7-6; suits ♦ against ♠"]),
        # Wikipedia: "a 3-single cannot be used to beat any other 3-single"
        ("3♠", "3♥", ["plays", "suit_order", "none"], False,
         ["suits (suit_order none) never break a tie: equal ranks do not beat each other; "
          "compared: 3♠ against 3♥"]),
        # pagat: "A-K-Q-J-10 beats 2-2-2-2-6"
        ("10♥J♥Q♥K♥A♥", "2♠2♥2♣2♦6♠", ["plays", "five_card_order", "royal-over-quads"], True,
         ["five-card kinds (royal-over-quads), low to high: straight < flush < full house < "
          "straight flush < four of a kind < royal flush",
          "royal flush against four of a kind: the kind decides"]),
        # Wikipedia: "4-5-6-7-8 can be played on top of 7-7-7-6-6"
        ("4♦5♣6♥7♠8♦", "7♠7♥7♦6♠6♥", ["plays", "five_card_order", "by-value"], True,
         ["five-card plays (by-value): the card value decides first, whatever the kind: a "
          "straight's or a flush's top card, a full house's triple, the four of a four of a kind",
          "card values 8 against 7: the value decides"]),
        # the French text: "la carte d'as plus jeune, puis aller à 2, 3, etc., et le plus
        # ancien est roi"
        ("K♦", "2♠", ["plays", 'rank_order = "ace-low-king-high"\nstraights = "ace-low-king-high"'],
         True, ["ranks, high to low: K Q J 10 9 8 7 6 5 4 3 2 A; K against 2"]),
    ],
)
def test_compare_explain_prints_the_deciding_steps(cli, tmp_path, a, b, options, beats, steps) -> None:
    if options[0] == "plays":
        body = options[1] if len(options) == 2 else f'{options[1]} = "{options[2]}"'
        options = ["--rules", rule_file(tmp_path, f"[plays]\n{body}\n")]
    out = cli.ok("compare", a, b, *options, "--explain").splitlines()
    assert out[0].startswith("yes: " if beats else "no: ")
    for step in steps:
        assert f"  {step}" in out
    assert out[-1].startswith("rules ")
    data = json.loads(cli.ok("compare", a, b, *options, "--explain", "--json"))
    assert data["beats"] is beats and data["steps"] == [line[2:] for line in out[1:-1]]
    assert "steps" not in json.loads(cli.ok("compare", a, b, *options, "--json"))


# --- ranked settlement through the ledger -----------------------------------------------

RANKED = [
    # the Taiwanese examples at stake 1: cards left Ann, Ben, Cat, Dan -> money
    ("0 1 4 7", {"Ann": "6", "Ben": "-1", "Cat": "-2", "Dan": "-3"}),
    ("0 2 6 12", {"Ann": "12", "Ben": "-2", "Cat": "-4", "Dan": "-6"}),
    ("0 5 5 9", {"Ann": "6", "Ben": "-1.5", "Cat": "-1.5", "Dan": "-3"}),
]


@pytest.mark.parametrize(("cards", "money"), RANKED)
def test_ranked_examples_settle_exactly(cli, cards: str, money: dict[str, str]) -> None:
    started = cli.ok("session", "start", *FOUR, "--rules", "taiwan", "--stake", "1")
    assert "stake 0.5 PTS per point (2 points a unit)" in started
    cli.ok("deal", *cards.split())
    settled = json.loads(cli.ok("settle", "--json"))
    assert {k: Decimal(v) for k, v in settled["nets"].items()} == {
        k: Decimal(v) for k, v in money.items()}
    assert settled["working"][0]["method"] == "ranked"
    paid = {p["from"]: Decimal(p["amount"]) for p in settled["payments"]}
    assert paid == {k: -Decimal(v) for k, v in money.items() if k != "Ann"}  # each pays Ann
    text = cli.ok("settle")
    assert "(ranked, stake 0.5): losers pay the winner by rank of cards left" in text


def test_ranked_session_through_export_import_doctor_and_stats(cli, tmp_path, monkeypatch) -> None:
    cli.ok("session", "start", "--players", "陳大文,李小明,Cat,Dan", "--rules", "taiwan",
           "--stake", "10", "--currency", "TWD")
    for cards in ("0 1 4 7", "2 0 6 12", "5 5 0 9"):
        cli.ok("deal", *cards.split())
    nets = json.loads(cli.ok("settle", "--json"))["nets"]
    # units: 陳大文 +6 -2 -1.5 = 2.5; 李小明 -1 +12 -1.5 = 9.5; Cat -2 -4 +6 = 0; Dan -3 -6 -3 = -12
    assert {k: Decimal(v) for k, v in nets.items()} == {
        "李小明": Decimal("95"), "陳大文": Decimal("25"), "Cat": Decimal("0"), "Dan": Decimal("-120")}
    assert cli.ok("doctor").startswith("ok:")
    stats = json.loads(cli.ok("stats", "--json"))
    money = {p["name"]: Decimal(p["money"]["TWD"]) for p in stats["players"]}
    assert money == {k: Decimal(v) for k, v in nets.items()}  # stats count money as settle does
    won = {(r["player"], r["opponent"]): Decimal(r["won"]["TWD"]) for r in stats["head_to_head"]
           if "TWD" in r["won"]}
    assert won[("李小明", "Dan")] == Decimal("60")  # Dan paid 李小明 6 units at 10 a unit
    out = tmp_path / "x.json"
    cli.ok("export", "--all", "--out", str(out))
    monkeypatch.setenv("BIGTWO_DB", str(tmp_path / "other.db"))
    cli.ok("import", str(out))
    assert json.loads(cli.ok("settle", "--all", "--json"))["nets"] == nets
    assert cli.ok("doctor").startswith("ok:")


def test_ranked_refuses_teams_and_too_few_payments(cli, tmp_path) -> None:
    err = cli.fails("session", "start", *FOUR, "--rules", "taiwan", "--teams")
    assert err.count("error:") == 1 and "ranked settlement" in err and "no teams" in err
    two = rule_file(tmp_path, 'base = "taiwan"\nrank_payments = [1, 2]\n')
    err = cli.fails("session", "start", *FOUR, "--rules", two)
    assert "give rank payments for 2 losers only" in err
    err = cli.fails("session", "start", *FOUR, "--rules", "taiwan", "--stake", "0.000001")
    assert "must divide by 2 within 6 decimal places" in err


# --- the scoring options at the command line --------------------------------------------


def test_assist_after_quads_is_refused_under_doubling(cli) -> None:
    cli.ok("session", "start", "--players", "North,East,West,South", "--rules", "doubling")
    err = cli.fails("deal", "0", "3", "9", "8", "--finish", "quads", "--assist", "East")
    assert err.count("error:") == 1 and "assist_single_only" in err
    out = cli.ok("deal", "0", "3", "9", "8", "--finish", "two", "--assist", "East")
    assert out.startswith("deal 1: North* 0 (+40), East 3 → 40 (-40)")


def test_finish_two_forbidden_under_pay_the_winner(cli) -> None:
    cli.ok("session", "start", *FOUR, "--rules", "pay-the-winner")
    err = cli.fails("deal", "0", "3", "11", "8", "--finish", "two")
    assert err.count("error:") == 1 and "finish_two = forbidden" in err


def test_four_twos_tripled_on_hong_kong_tiers(cli, tmp_path) -> None:
    house = rule_file(tmp_path, 'base = "hong-kong"\nfour_twos = "tripled"\n')
    cli.ok("session", "start", *FOUR, "--rules", house)
    out = cli.ok("deal", "--four-twos", "Ann")
    assert out.startswith("deal 1: Ann* 0 (+117), Ben 13 → 39 fried (-39)")


def test_lowest_card_opens_under_pusoy_dos_suits(cli, tmp_path) -> None:
    house = rule_file(tmp_path, 'next_lead = "lowest-card"\n[plays]\nsuit_order = "DHSC"\n')
    cli.ok("session", "start", *FOUR, "--rules", house)
    assert cli.ok("deal", "4", "0", "9", "2").rstrip().endswith("next: Ben deals, 3♣ leads")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('four_twos = "double"\n', "rule 'four_twos' must be one of tiers, tripled, draw; got 'double'"),
        ('finish_two = "never"\n', "rule 'finish_two' must be one of double, plain, forbidden"),
        ("assist_single_only = 1\n", "rule 'assist_single_only' must be true or false, not 1"),
        ('settlement = "ranked"\nrank_payments = [1, 2, 4]\n',
         "rule 'rank_payments' [1, 2, 4] would make tied losers pay 1/6 units"),
        ('rank_threshold = "ten"\n', "rule 'rank_threshold' must be a whole number from 1 to 26"),
        ('next_lead = "3C"\n', "rule 'next_lead' must be one of winner, lowest-card, three-of-diamonds"),
        ('[plays]\nstraights = "circular"\n', "straights cannot be 'circular': use one of pagat,"),
        ('[plays]\nsuit_order = "DCHS"\n', "use one of SHCD, DHSC, SHDC, CSHD, HSDC, none"),
        ('[plays]\nfive_card_order = "royal"\n', "use one of standard, royal-over-quads"),
    ],
)
def test_bad_rule_files_give_one_error_line(cli, tmp_path, text: str, message: str) -> None:
    house = rule_file(tmp_path, text)
    for command in (("rules", "show", house), ("session", "start", *FOUR, "--rules", house)):
        err = cli.fails(*command)
        assert err.count("error:") == 1 and err.startswith("error: "), err
        assert message in err
        assert len(err.strip().splitlines()) == 1
