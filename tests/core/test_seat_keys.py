"""A deal's facts keyed by seat (ledger.core.seat_keys): the key an export's import
shares a score by, exact or absent, never a guess."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from ledger.core.registry import STORED_FACTS
from ledger.core.rules import load_preset
from ledger.core.scoring import Deal, score_deal
from ledger.core.seat_keys import KNOWN, SharedScores, by_name, by_seat, seat_key

SEATS = ("Ann", "Ben", "Cat", "Dan")
OTHERS = ("陳大文", "李小明", "José", "two")


def renamed(facts: dict, old: tuple[str, ...], new: tuple[str, ...]) -> dict:
    return by_name(by_seat(facts, old), new)


def test_every_stored_fact_is_known_or_never_keyed() -> None:
    """A new stored fact must be sorted into what its value holds before deals with it
    share a score; until then a deal stating it is scored on its own."""
    assert set(STORED_FACTS) - KNOWN == {"players"}
    assert seat_key({"cards": {"Ann": 0}, "players": ["Ann"]}, SEATS) is None
    assert seat_key({"cards": {"Ann": 0}, "colour": "red"}, SEATS) is None


def test_the_same_deal_at_another_table_has_the_same_key() -> None:
    facts = {"cards": {"Ann": 1, "Ben": 1, "Cat": 0, "Dan": 9}, "assist": "Ben", "missed_call": False}
    assert seat_key(facts, SEATS) == seat_key(renamed(facts, SEATS, OTHERS), OTHERS)
    assert seat_key(facts, SEATS) != seat_key(facts, ("Ben", "Ann", "Cat", "Dan"))  # other seats
    moved = {"cards": {"Ann": 1, "Ben": 1, "Cat": 0, "Dan": 9}, "assist": "Ann"}
    assert seat_key(moved, SEATS) != seat_key({**facts, "missed_call": True}, SEATS)
    reordered = {"cards": {"Dan": 9, "Ann": 1, "Ben": 1, "Cat": 0}, "assist": "Ben", "missed_call": False}
    assert seat_key(reordered, SEATS) == seat_key(facts, SEATS)  # an export sorts names


def test_values_of_another_json_type_never_share_a_key() -> None:
    """``1``, ``1.0`` and ``true`` are equal in Python and hash alike: a count of ``true``
    must be refused, never take the score of a count of 1."""
    base = {"cards": {"Ann": 0, "Ben": 1, "Cat": 2, "Dan": 3}}
    assert seat_key({"cards": {"Ann": 0, "Ben": True, "Cat": 2, "Dan": 3}}, SEATS) is None
    assert seat_key({"cards": {"Ann": 0, "Ben": 1.0, "Cat": 2, "Dan": 3}}, SEATS) is None
    assert seat_key({**base, "missed_call": 1}, SEATS) is None
    assert seat_key({**base, "hands": {"Ben": "2S"}}, SEATS) != seat_key({**base, "hands": {"Ben": 2}}, SEATS)


def test_a_name_not_seated_or_a_word_that_is_a_name_gives_no_key() -> None:
    base = {"cards": {"Ann": 0, "Ben": 1, "Cat": 2, "Dan": 3}}
    assert seat_key({"cards": {"Ann": 0, "Zed": 1}}, SEATS) is None
    assert seat_key({**base, "assist": "Zed"}, SEATS) is None
    assert seat_key({**base, "order": ["Ann", "Ben", "Cat", "Zed"]}, SEATS) is None
    assert seat_key({**base, "finish": "two"}, SEATS) is not None
    assert seat_key({**renamed(base, SEATS, OTHERS), "finish": "two"}, OTHERS) is None  # a player "two"
    assert seat_key({**base, "finish": 2}, SEATS) is None


counts = st.lists(st.integers(0, 13), min_size=4, max_size=4).filter(lambda c: c.count(0) == 1)


@given(counts, st.sampled_from([None, 0, 1, 2, 3]), st.permutations(range(4)))
def test_a_score_by_seat_is_the_score_under_any_names(cards: list[int], assist: int | None,
                                                      seating: list[int]) -> None:
    """What the import relies on: scoring a deal at a table of other names, in another seat
    order of the same seats, gives the same points seat for seat."""
    rules = load_preset("classic")
    winner = cards.index(0)
    facts: dict = {"cards": dict(zip(SEATS, cards, strict=True))}
    if assist is not None and assist != winner:
        facts["assist"] = SEATS[assist]
    other = tuple(OTHERS[i] for i in seating)  # any names, any order of them
    moved = renamed(facts, SEATS, other)
    assert seat_key(facts, SEATS) == seat_key(moved, other)
    one = score_deal(rules, SEATS, Deal.from_dict(facts))
    two = score_deal(rules, other, Deal.from_dict(moved))
    assert [one.net[n] for n in SEATS] == [two.net[n] for n in other]
    assert [one.payee[n] for n in SEATS] == [
        None if two.payee[n] is None else SEATS[other.index(two.payee[n])] for n in other]


def test_shared_scores_keep_one_table_per_rules_seats_and_teams_and_no_more_than_asked() -> None:
    shared = SharedScores(most=1)
    classic, other = load_preset("classic"), load_preset("pay-the-winner")
    facts = {"cards": {"Ann": 0, "Ben": 1, "Cat": 2, "Dan": 3}, "assist": "Ben"}
    rows = [("Ann", 1, 1, 0, 0, 0, 6, None), ("Ben", 1, 0, 0, 1, 6, -6, "Ann")]
    key = seat_key(facts, SEATS)
    assert key is not None
    shared.table(classic, False, SEATS).keep(key, facts, rows)
    found = shared.table(load_preset("classic"), False, OTHERS).find(key)  # equal rules
    assert found == ({"cards": {"陳大文": 0, "李小明": 1, "José": 2, "two": 3}, "assist": "李小明"},
                     [("陳大文", 1, 1, 0, 0, 0, 6, None), ("李小明", 1, 0, 0, 1, 6, -6, "陳大文")],
                     None)  # (no text made: the facts say more than the cards)
    assert shared.table(other, False, SEATS).find(key) is None
    assert shared.table(classic, True, SEATS).find(key) is None
    assert shared.table(classic, False, SEATS[:3]).find(key) is None
    shared.table(other, False, SEATS).keep(key, facts, rows)  # past `most`: not kept
    assert shared.table(other, False, SEATS).find(key) is None
    assert shared.table(classic, False, OTHERS).key(renamed(facts, SEATS, OTHERS)) == key


NAMES = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=6)


@given(st.lists(NAMES, min_size=2, max_size=8, unique=True), st.data())
def test_a_cards_only_deal_found_has_its_stored_text_as_the_encoder_writes_it(
        names: list[str], data: st.DataObject) -> None:
    """The text made from the seats' quoted names is ``to_json``'s, byte for byte, for
    any names (quotes, backslashes, CJK, emoji, names that sort otherwise than seated)."""
    from ledger.storage.codec import to_json

    counts = data.draw(st.lists(st.integers(0, 39), min_size=len(names), max_size=len(names)))
    facts = {"cards": dict(zip(names, counts, strict=True))}
    shared = SharedScores()
    table = shared.table("rules", False, tuple(names))
    key = table.key(facts)
    assert key is not None
    table.keep(key, facts, [])
    others = tuple(reversed(names))  # another table, seated the other way round
    found = shared.table("rules", False, others).find(key)
    assert found is not None and found[2] is not None
    assert found[2] == to_json(found[0]) == json.dumps(found[0], sort_keys=True, ensure_ascii=False)
    assert found[0] == {"cards": {others[i]: counts[i] for i in range(len(names))}}
    assert table.find(key) == (facts, [], to_json(facts))


def test_no_text_is_made_for_facts_that_say_more_or_hold_other_types() -> None:
    shared = SharedScores()
    table = shared.table("rules", False, SEATS)
    for facts in ({"cards": {"Ann": 0, "Ben": 1, "Cat": 2, "Dan": 3}, "finish": "quads"},
                  {"cards": {"Ann": 0, "Ben": 1, "Cat": 2, "Dan": "3"}}):
        key = table.key(facts)
        assert key is not None
        table.keep(key, facts, [])
        found = table.find(key)
        assert found is not None and found[2] is None
