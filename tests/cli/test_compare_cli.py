"""``bigtwo compare``: every docs/plays.md example, every house option, a held-back set of
disputes under classic and hong-kong, and clean rejection of plays that are not plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

INVALID = "invalid"


def verdict(cli, a: str, b: str, *options: str) -> dict:
    return json.loads(cli.ok("compare", a, b, *options, "--json"))


def beats(cli, a: str, b: str, *options: str) -> bool:
    return verdict(cli, a, b, *options)["beats"]


def rule_file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, "utf-8")
    return str(path)


# Play options that are set together: the French ace-low ranks take their own straights.
TOGETHER = {("rank_order", "ace-low-king-high"): {"straights": "ace-low-king-high"},
            ("straights", "ace-low-king-high"): {"rank_order": "ace-low-king-high"}}


def plays_file(tmp_path: Path, **options: object) -> str:
    for key, value in list(options.items()):
        options |= TOGETHER.get((key, value), {})  # type: ignore[call-overload]
    lines = ["[plays]"] + [f"{k} = {json.dumps(v)}" for k, v in options.items()]
    return rule_file(tmp_path, "house", "\n".join(lines) + "\n")


# --- docs/plays.md "Examples (classic unless named)" --------------------------------------------
# Suitless examples get suits that cannot decide the answer.

DOCUMENTED_EXAMPLES = [
    ("2♠", "2♥", "classic", True),
    ("3♣", "3♦", "classic", True),
    ("9♠9♦", "9♥9♣", "classic", True),
    ("Q♦Q♣", "J♠J♥", "classic", True),
    ("2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥", "classic", True),  # 2-3-4-5-6 beats A-2-3-4-5
    ("2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥", "hong-kong", False),  # ... under hong-kong the reverse
    ("A♠2♠3♠4♠5♥", "2♦3♦4♦5♦6♣", "hong-kong", True),
    ("3♠5♠7♠9♠J♠", "2♥A♥K♥Q♥9♥", "classic", True),  # suit first
    ("3♠5♠7♠9♠J♠", "2♥A♥K♥Q♥9♥", "hong-kong", False),  # under hong-kong it does not
    ("9♦9♣9♥4♦4♣", "8♠8♥8♣K♠K♥", "classic", True),
    ("3♦3♣3♥3♠4♦", "2♠2♥2♣A♠A♥", "classic", True),
    ("3♦4♦5♦6♦7♦", "2♠2♥2♣2♦A♠", "classic", True),
]


@pytest.mark.parametrize(("a", "b", "preset", "expected"), DOCUMENTED_EXAMPLES)
def test_plays_md_examples(cli, a: str, b: str, preset: str, expected: bool) -> None:
    assert beats(cli, a, b, "--rules", preset) is expected
    assert beats(cli, b, a, "--rules", preset) is not expected


def test_royal_run_ending_in_a_two_is_a_flush_not_a_straight_flush(cli) -> None:
    result = verdict(cli, "J♠Q♠K♠A♠2♠", "3♥5♥7♥9♥J♥")
    assert result["a"]["kind"] == "flush"
    assert result["beats"] is True  # ♠ over ♥, suit first


def test_four_alone_is_not_a_play_under_with_kicker(cli, tmp_path) -> None:
    err = cli.fails("compare", "3♠3♥3♣3♦", "2♠", code=2)
    assert "play A" in err
    assert "four of a kind needs a fifth card" in err
    alone = plays_file(tmp_path, four_of_a_kind="alone")
    assert verdict(cli, "3♠3♥3♣3♦", "2♠2♥2♣2♦", "--rules", alone)["a"]["kind"] == "four-of-a-kind"


# --- docs/plays.md "Cards" and "Plays (default rules)" -------------------------------------------


@pytest.mark.parametrize("spelling", ["10h", "TH", "♥10", "H10", "10♥", "t♥"])
def test_card_notations(cli, spelling: str) -> None:
    result = verdict(cli, spelling, "9S")
    assert result["a"]["cards"] == ["10H"]
    assert result["beats"] is True


def test_cards_separated_by_commas_or_written_together(cli) -> None:
    assert verdict(cli, "9S,9D", "9♥9♣")["a"]["cards"] == ["9D", "9S"]
    assert verdict(cli, "9♠ 9♦", "9H, 9C")["beats"] is True


@pytest.mark.parametrize("ranks", ["J♠Q♥K♠A♠2♠", "Q♠K♥A♠2♠3♠", "3♠2♥A♠K♠Q♠"])
def test_runs_through_the_two_are_not_straights(cli, ranks: str) -> None:
    err = cli.fails("compare", ranks, "3♦4♦5♦6♦7♣", code=2)
    assert "five cards must be a straight, flush" in err


@pytest.mark.parametrize(
    ("a", "b", "expected", "why"),
    [
        ("4♦", "3♠", True, "higher rank"),
        ("K♠K♦", "K♥K♣", True, "higher suit of its highest card"),
        ("5♠A♦3♥2♣4♦", "5♥A♠3♠2♠4♠", True, "higher suit of the top card"),  # top card is the 5
        ("A♠2♠3♠4♠5♠", "2♣3♣4♣5♣6♦", True, "ranks above"),  # straight flush A-2-3-4-5 > straight
        ("3♦4♦5♦6♦8♦", "10♠J♥Q♠K♠A♠", True, "a flush ranks above a straight"),
        ("4♥6♥8♥10♥Q♥", "3♥5♥7♥9♥K♥", False, "lower top card"),  # same suit: top cards
        ("4♦4♣4♥3♦3♣", "3♠3♥3♣A♠A♥", True, "higher rank"),  # the triple decides
        ("4♦4♣4♥4♠5♦", "3♠3♥3♣3♦2♠", True, "higher rank"),  # the four decide
        ("3♠4♠5♠6♠7♠", "3♥4♥5♥6♥7♥", True, "higher suit of the top card"),  # straight flush ties
    ],
)
def test_default_rules(cli, a: str, b: str, expected: bool, why: str) -> None:
    result = verdict(cli, a, b)
    assert result["beats"] is expected
    assert why in result["reason"]


def test_plays_of_different_sizes(cli) -> None:
    result = verdict(cli, "3♦4♦5♦6♦7♦", "2♠")
    assert result["beats"] is False
    assert result["reason"] == (
        "straight flush 3-4-5-6-7 (top 7♦) cannot be played on single 2♠: "
        "a play is beaten only by one with as many cards"
    )
    assert (result["a"]["kind"], result["b"]["kind"]) == ("straight-flush", "single")


def test_json_shape(cli) -> None:
    result = verdict(cli, "7♠ 3♦ 5♥ 4♦ 6♣", "3♠4♠5♠6♠7♥")
    assert set(result) == {"beats", "a", "b", "reason", "rules", "plays"}
    assert result["a"] == {
        "kind": "straight",
        "cards": ["3D", "4D", "5H", "6C", "7S"],
        "top": "7S",
        "text": "straight 3-4-5-6-7 (top 7♠)",
    }
    assert result["rules"] == "classic"
    assert result["plays"]["straights"] == "pagat"


def test_text_output(cli) -> None:
    out = cli.ok("compare", "2S", "2H")
    assert out.splitlines() == [
        "yes: single 2♠ beats single 2♥: higher suit",
        "rules classic: default play options",
    ]
    out = cli.ok("compare", "2H", "2S", "--rules", "hong-kong")
    assert out.startswith("no: single 2♥ does not beat single 2♠: lower suit\n")
    assert "rules hong-kong: straights hong-kong, flushes poker" in out


# --- every play option, set in a rule file, changes an answer -------------------------------
# (option, value, A, B, classic answer, answer under the option); INVALID = exit 2.

OPTION_CASES = [
    ("suit_order", "DHSC", "3♦", "3♠", False, True),
    ("suit_order", "DHSC", "9♣9♠", "9♦9♥", True, False),
    ("suit_order", "SHDC", "3♦", "3♣", False, True),
    ("suit_order", "SHDC", "3♦5♦7♦9♦J♦", "3♣5♣7♣9♣J♣", False, True),
    ("straights", "hong-kong", "A♦2♣3♣4♣5♣", "2♦3♥4♥5♥6♥", False, True),
    ("straights", "hong-kong", "2♠3♠4♠5♠6♥", "10♠J♥Q♠K♠A♠", False, True),
    ("straights", "no-wrap", "J♠Q♥K♠A♠2♠", "10♠J♥Q♠K♠A♠", INVALID, True),
    ("straights", "no-wrap", "3♦4♣5♣6♣7♣", "A♠2♥3♠4♠5♠", True, INVALID),
    ("straights", "ace-low-excluded", "3♦4♣5♣6♣7♣", "A♠2♥3♠4♠5♠", True, INVALID),
    # pagat: "Some do not allow A-2-3-4-5 as a valid straight": 2-3-4-5-6 stays
    ("straights", "ace-low-excluded", "2♦3♣4♣5♣6♣", "A♠2♥3♠4♠5♠", True, INVALID),
    ("straights", "three-to-ace", "2♦3♣4♣5♣6♣", "A♠2♥3♠4♠5♠", True, INVALID),
    ("flushes", "top-card-first", "2♥A♥K♥Q♥9♥", "3♠5♠7♠9♠J♠", False, True),
    ("flushes", "poker", "A♥K♥J♥9♥8♥", "A♠J♠10♠7♠6♠", False, True),
    ("four_of_a_kind", "alone", "4♠4♥4♣4♦", "3♠3♥3♣3♦", INVALID, True),
    ("bombs", "beat-anything", "3♦3♣3♥3♠4♦", "2♠", False, True),
    ("bombs", "beat-anything", "3♥4♥5♥6♥7♥", "A♠A♥", False, True),
    ("bombs", "beat-anything", "3♥4♥5♥6♥7♥", "2♠2♥2♣", False, True),
    ("no_flushes", True, "3♦4♦5♦6♦8♦", "10♠J♥Q♠K♠A♠", True, INVALID),
    ("no_triples", True, "8♦8♣8♥", "7♠7♥7♣", True, INVALID),
    # French text, Pusoy Dos read low to high: "diamants, coeurs, pelles, clubs"
    ("suit_order", "CSHD", "3♣", "3♠", False, True),
    # Russian article: "(от низшего к высшему) треф, бубн, пик, червей"
    ("suit_order", "HSDC", "3♥", "3♠", False, True),
    # Wikipedia: "a 3-single cannot be used to beat any other 3-single"
    ("suit_order", "none", "3♠", "3♥", True, False),
    # pagat: "2-A-K-Q-J is valid and is the highest type of straight"
    ("straights", "twos-high", "J♠Q♥K♠A♠2♠", "10♠J♥Q♠K♠A♠", INVALID, True),
    ("straights", "twos-high", "3♦4♣5♣6♣7♣", "A♠2♥3♠4♠5♠", True, INVALID),
    # pagat: "26543 beats AKQJT because 2 beats ace"
    ("straights", "descending", "2♠3♥4♠5♠6♠", "10♠J♥Q♠K♠A♠", False, True),
    # pagat, Indonesia: straights with a two rank by the suit of the two
    ("straights", "indonesian", "A♥2♠3♥4♥5♥", "2♦3♠4♠5♠6♥", False, True),
    # pagat: "A-K-Q-J-10 beats 2-2-2-2-6, which beats 3-3-3-3-8, which beats K-Q-J-10-9"
    ("five_card_order", "royal-over-quads", "2♠2♥2♣2♦6♠", "9♥10♥J♥Q♥K♥", False, True),
    # pagat: "Some do not allow A-2-3-4-5": only that one
    ("straights", "no-ace-five", "2♦3♣4♣5♣6♣", "A♠2♥3♠4♠5♠", True, INVALID),
    # Wikipedia's straight orders (docs/rules.md)
    ("straights", "ace-five-low-two-six-high", "2♠3♥4♠5♠6♠", "10♠J♥Q♠K♠A♠", False, True),
    ("straights", "two-six-over-ace-five", "A♠2♥3♠4♠5♠", "10♠J♥Q♠K♠A♥", False, True),
    ("straights", "ace-five-high", "A♠2♥3♠4♠5♠", "2♠3♥4♠5♠6♠", False, True),
    ("straights", "ace-five-below-ace", "A♠2♥3♠4♠5♠", "9♠10♥J♠Q♠K♠", False, True),
    ("straights", "wrap-around", "J♠Q♥K♠A♠2♠", "10♠J♥Q♠K♠A♥", INVALID, True),
    # Wikipedia: "two pairs or four cards alone ... Four of a kind beats two pairs"
    ("four_of_a_kind", "two-pairs", "5♠5♥9♦9♣", "4♠4♥8♦8♣", INVALID, True),
    # pagat's GameSky, the French Choi Dai Di: "beat any combination"
    ("bombs", "beat-all", "3♦3♣3♥3♠4♦", "2♠", False, True),
    # Wikipedia: "A four of a kind can be used to beat all card combinations without a four"
    ("bombs", "quads-beat-all", "3♦3♣3♥3♠4♦", "9♥10♥J♥Q♥K♥", False, True),
    # Wikipedia: "a straight is considered higher than a flush"
    ("five_card_order", "straight-over-flush", "3♦4♣5♥6♠7♦", "2♠J♠7♠5♠3♠", False, True),
    # Wikipedia: "No Poker Rules ... a Full House can not be played over a Straight"
    ("five_card_order", "no-poker-rules", "9♠9♥9♦4♠4♥", "3♦4♣5♥6♠7♦", True, False),
    # pagat's GameSky: "a full house cannot be used to beat a straight"
    ("five_card_order", "gamesky", "9♠9♥9♦4♠4♥", "3♦4♣5♥6♠7♦", True, False),
    # Wikipedia: "4-5-6-7-8 can be played on top of 7-7-7-6-6"
    ("five_card_order", "by-value", "4♦5♣6♥7♠8♦", "7♠7♥7♦6♠6♥", False, True),
    # the French text: "la carte d'as plus jeune, puis aller à 2, 3, etc., et le plus ancien est roi"
    ("rank_order", "ace-low-king-high", "K♠", "2♠", False, True),
    ("straights", "ace-low-king-high", "A♠2♥3♠4♠5♠", "10♠J♥Q♠K♠A♥", False, INVALID),
    # the Russian article's two decks: "пятерка побеждает каре, но может победить или не
    # победить стрит-флеш"; "Игрокам может быть разрешено или не разрешено сыграть руку,
    # эквивалентную предыдущей руке"
    ("five_of_a_kind", "below-straight-flush", "5♠5♠5♥5♦5♣", "9♠9♥9♦9♣3♦", INVALID, True),
    ("five_of_a_kind", "above-straight-flush", "5♠5♠5♥5♦5♣", "3♥4♥5♥6♥7♥", INVALID, True),
    ("identical_beats", True, "3♦", "3♦", False, True),
    # Wikipedia: "two pairs (of different ranks) and one odd card ... below the straight"
    ("butterfly", True, "9♠9♥4♦4♣3♠", "8♠8♥7♦7♣A♠", INVALID, True),
    # Wikipedia: "The Smack Down can be played to defeat the "Big Two" only when the Two of
    # Spades is played as a single"
    ("smack_down", True, "4♠4♥5♦5♣6♠6♦", "2♠", INVALID, True),
    # the Russian article: "тройной и двух мусорных карт ... ниже стрита"
    ("triple_plus_two", True, "9♠9♥9♦3♣4♠", "8♠8♥8♦A♣2♠", INVALID, True),
    # Wikipedia: "Some variations allow for straights longer than five cards"
    ("long_straights", True, "4♠5♥6♦7♣8♠9♦", "3♠4♥5♦6♣7♠8♦", INVALID, True),
    # Wikipedia: a "Dragon" "is considered a valid combination ... Suit of 2 is tie-breaker"
    ("dragon_play", True, "3♠4♠5♠6♠7♠8♠9♠10♠J♠Q♠K♠A♠2♠", "3♦4♥5♦6♣7♥8♦9♣10♥J♦Q♣K♥A♦2♥",
     INVALID, True),
    # pagat, Todd Latta: "a straight flush is played with any two extra cards"
    ("straight_flush_plus_two", True, "5♣6♣7♣8♣9♣3♦3♠", "3♥4♥5♥6♥7♥2♠2♦", INVALID, True),
    # Wikipedia: "the jokers are deemed higher than the Two of Spades"
    ("jokers", True, "RJ", "2♠", INVALID, True),
]


def answer(cli, a: str, b: str, *options: str) -> bool | str:
    result = cli("compare", a, b, *options, "--json")
    if result.exit_code == 2:
        assert any(why in result.stderr for why in ("is not a play", "named twice", "is a joker"))
        assert "Traceback" not in result.output
        return INVALID
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["beats"]


@pytest.mark.parametrize(("option", "value", "a", "b", "classic", "changed"), OPTION_CASES)
def test_each_play_option_changes_the_answer(cli, tmp_path, option, value, a, b, classic, changed):
    assert classic != changed
    assert answer(cli, a, b, "--rules", "classic") == classic
    assert answer(cli, a, b, "--rules", plays_file(tmp_path, **{option: value})) == changed


def test_every_option_is_covered() -> None:
    from ledger.core.plays import CHOICES, SWITCHES

    covered = {(o, v) for o, v, *_ in OPTION_CASES}
    for option, values in CHOICES.items():
        for value in values[1:]:
            assert (option, value) in covered, (option, value)
    for option in SWITCHES:
        assert (option, True) in covered


def test_plays_table_accepts_dashes_and_keeps_the_base_options(cli, tmp_path) -> None:
    house = rule_file(tmp_path, "pusoy", 'base = "hong-kong"\n[plays]\nsuit-order = "dhsc"\n')
    shown = json.loads(cli.ok("rules", "show", house, "--json"))
    assert shown["plays"] == {"flushes": "poker", "straights": "hong-kong", "suit_order": "DHSC"}
    assert beats(cli, "3♦", "3♠", "--rules", house)  # Pusoy Dos suits
    assert beats(cli, "A♦2♣3♣4♣5♣", "2♦3♥4♥5♥6♥", "--rules", house)  # still Hong Kong straights


def test_rules_show_lists_every_play_option(cli) -> None:
    out = cli.ok("rules", "show", "classic")
    for option, value in (("suit_order", '"SHCD"'), ("straights", '"pagat"'),
                          ("flushes", '"suit-first"'), ("no_triples", "false"),
                          ("five_card_order", '"standard"')):
        assert f"  plays.{option} = {value}: " in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[plays]\nstraights = "wrap"\n', "straights cannot be 'wrap'"),
        ('[plays]\ntwos_high = true\n', "unknown play option 'twos_high'"),
        ('[plays]\nno_flushes = "yes"\n', "no_flushes must be true or false"),
        ('plays = "hong-kong"\n', "must be a table of play options"),
    ],
)
def test_bad_play_options_in_a_rule_file(cli, tmp_path, text: str, message: str) -> None:
    err = cli.fails("compare", "3S", "3D", "--rules", rule_file(tmp_path, "bad", text), code=2)
    assert message in err


# --- which rules when --rules is not given ---------------------------------------------------


@pytest.mark.no_ledger
def test_without_a_session_classic_and_no_ledger_is_created(cli, ledger_path) -> None:
    assert verdict(cli, "2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥")["rules"] == "classic"
    assert not ledger_path.exists()


def test_the_current_sessions_frozen_rules(cli) -> None:
    cli.ok("session", "start", "--players", "Ann,Ben", "--rules", "hong-kong")
    result = verdict(cli, "2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥")
    assert (result["rules"], result["beats"]) == ("hong-kong", False)
    cli.ok("session", "start", "--players", "Ann,Ben")
    assert beats(cli, "2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥") is True
    assert beats(cli, "2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥", "--session", "1") is False
    assert beats(cli, "2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥", "--rules", "hong-kong") is False


def test_a_ledger_without_a_current_session_uses_classic(cli, ledger_path) -> None:
    from ledger.storage.store import open_ledger

    open_ledger(ledger_path).close()  # a ledger with no session in it
    assert verdict(cli, "2S", "2H")["rules"] == "classic"


def test_rules_and_session_together_are_refused(cli) -> None:
    cli.ok("session", "start", "--players", "Ann,Ben")
    assert "not both" in cli.fails("compare", "2S", "2H", "--rules", "classic", "--session", "1")


# --- held-back disputes ------------------------------------------------------------------------
# Answers derived by hand from docs/plays.md, under classic and under hong-kong (straights
# hong-kong: 3-4-5-6-7 < ... < 10-J-Q-K-A < 2-3-4-5-6 < A-2-3-4-5, top card the 2 in the
# last two; flushes top-card-first: highest card, then suit).  INVALID: not a play.

DISPUTES = [
    # (A, B, classic, hong-kong)
    ("K♠", "A♦", False, False),  # rank before suit
    ("2♦", "A♠", True, True),  # the lowest two beats every ace
    ("7♥7♣", "7♠7♦", False, False),  # the pair with the spade is higher
    ("7♠7♣", "7♥7♦", True, True),
    ("8♦8♣8♥", "7♠7♥7♣", True, True),
    ("5♠5♥", "5♣", False, False),  # a pair on a single: different sizes
    ("10♥J♠Q♦K♣A♦", "9♠10♠J♠Q♠K♥", True, True),  # 10-J-Q-K-A over 9-10-J-Q-K
    ("A♣2♦3♠4♠5♥", "3♦4♣5♣6♦7♦", False, True),  # A-2-3-4-5: lowest, or highest in HK
    ("2♦3♠4♠5♠6♠", "2♠3♥4♥5♥6♥", True, False),  # top card 6♠ > 6♥; in HK 2♦ < 2♠
    ("A♥2♠3♦4♦5♦", "A♠2♥3♠4♠5♠", False, True),  # top card 5♦ < 5♠; in HK 2♠ > 2♥
    ("10♠J♥Q♥K♥A♥", "2♠3♠4♠5♠6♥", True, False),  # HK: 2-3-4-5-6 above 10-J-Q-K-A
    ("3♥5♥7♥9♥J♥", "2♣A♣K♣Q♣9♣", True, False),  # flush: suit first, or top card first
    # same top card: the suit decides; Andrew White (hong-kong): "face-value down the line"
    ("K♦Q♦8♦6♦4♦", "K♥9♥7♥5♥3♥", False, True),
    ("4♣6♣8♣10♣Q♣", "3♣5♣7♣9♣K♣", False, False),  # one suit: the top card decides
    ("J♠Q♠K♠A♠2♠", "3♠5♠7♠9♠J♠", True, True),  # both flushes; the two is on top
    ("3♦4♦5♦6♦8♦", "10♠J♠Q♠K♠A♥", True, True),  # any flush beats any straight
    ("4♠4♥4♣3♦3♣", "A♠K♠Q♠J♠9♠", True, True),  # full house over flush
    ("J♦J♣J♥2♠2♥", "Q♠Q♥Q♣3♦3♣", False, False),  # the triple decides, not the pair
    ("5♠5♥5♣5♦3♦", "4♠4♥4♣4♦2♠", True, True),
    ("A♥2♥3♥4♥5♥", "K♠K♥K♣K♦A♠", True, True),  # straight flush over four of a kind
    ("A♥2♥3♥4♥5♥", "9♣10♣J♣Q♣K♣", False, True),  # lowest straight flush, or highest in HK
    ("3♦4♦5♦6♦7♦", "2♠", False, False),  # no bombs by default
    ("3♠3♥3♣", "2♦2♣2♥", False, False),
    ("3♠", "3♥", True, True),
    ("J♠Q♥K♠A♠2♠", "3♦4♣5♣6♦7♦", INVALID, INVALID),  # J-Q-K-A-2 is no straight
    ("9♠9♥9♣9♦", "8♠8♥8♣8♦", INVALID, INVALID),  # four alone needs a kicker
    ("3♠3♦4♠4♦5♠", "3♥4♥5♥6♥8♥", INVALID, INVALID),  # two pairs and a card: no such play
    ("9♠10♦", "8♠", INVALID, INVALID),
]


@pytest.mark.parametrize("preset", ["classic", "hong-kong"])
@pytest.mark.parametrize(("a", "b", "classic", "hong_kong"), DISPUTES)
def test_held_back_disputes(cli, preset: str, a: str, b: str, classic, hong_kong) -> None:
    expected = classic if preset == "classic" else hong_kong
    assert answer(cli, a, b, "--rules", preset) == expected


def test_there_are_enough_disputes() -> None:
    assert len(DISPUTES) >= 20
    assert sum(c != h for _, _, c, h in DISPUTES) >= 5


# --- invalid plays exit non-zero naming the problem ------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ("1S", "3D", "play A ('1S'): unknown card '1S'"),
        ("3D", "11H", "play B ('11H'): unknown card '11H'"),
        ("5H 5H", "4S 4D", "play A ('5H 5H'): card 5H is named twice"),
        ("3S 4D", "5S", "play A ('3S 4D'): 3♠ 4♦ is not a play: two cards must be a pair"),
        ("3S", "3S 4S 5S 6S 7S 8S", "play B ('3S 4S 5S 6S 7S 8S'): 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ is not a play"),
        ("", "3S", "play A (''): no cards"),
        ("3Z", "3S", "a card is a rank 2-9, 10 or T, J, Q, K, A and a suit S, H, C, D"),
    ],
)
def test_invalid_plays_are_rejected_cleanly(cli, a: str, b: str, message: str) -> None:
    err = cli.fails("compare", a, b, code=2)
    assert err.startswith("error: ")
    assert message in err
    assert "Traceback" not in err


def test_unknown_rules_are_rejected(cli) -> None:
    assert "unknown rule set 'nosuch'" in cli.fails("compare", "3S", "3D", "--rules", "nosuch", code=2)
