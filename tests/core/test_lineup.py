"""The line-up (ledger/core/lineup.py): each seat change applied strictly, a replay lenient."""

from __future__ import annotations

import pytest

from ledger.core.errors import InputError
from ledger.core.lineup import Lineup, apply, check_facts, replay, seat_text

START = Lineup.starting(("Ann", "Ben", "Cat", "Dan"))


def test_each_change_and_what_plays_next() -> None:
    after = apply(START, {"action": "join", "player": "Eve", "out": True})
    assert (after.order[-1], after.playing) == ("Eve", START.order)
    after = apply(apply(after, {"action": "sit-out", "player": "Ann"}), {"action": "back", "player": "Eve"})
    assert after.playing == ("Ben", "Cat", "Dan", "Eve") and after.sitting_out == ("Ann",)
    after = apply(after, {"action": "swap", "players": ["Ben", "Eve"]})
    assert after.order == ("Ann", "Eve", "Cat", "Dan", "Ben")
    after = apply(after, {"action": "leave", "player": "Ann"})
    assert after.order == ("Eve", "Cat", "Dan", "Ben") and not after.out
    after = apply(after, {"action": "order", "order": ["Ben", "Cat", "Dan", "Eve"], "from_deal": 3},
                  next_deal=5)
    assert (after.order, after.base) == (("Ben", "Cat", "Dan", "Eve"), 3)


def test_a_join_that_the_rules_cannot_deal_is_refused_unless_sitting_out() -> None:
    def four(n: int) -> bool:  # the rules deal four at most
        return n <= 4

    with pytest.raises(InputError, match="--sit-out"):
        apply(START, {"action": "join", "player": "Eve"}, four)
    three = Lineup.starting(("Ann", "Ben", "Cat"))
    assert apply(three, {"action": "join", "player": "Eve"}, four).playing[-1] == "Eve"
    full = Lineup.starting(tuple("ABCDEFGH"))
    with pytest.raises(InputError, match="8 players at most"):
        apply(full, {"action": "join", "player": "Z", "out": True})


def test_a_replay_leaves_out_what_no_longer_fits() -> None:
    # two devices both took Dan's leave while apart: the second changes nothing
    changes = [{"action": "leave", "player": "Dan"}, {"action": "leave", "player": "Dan"},
               {"action": "back", "player": "Ann"}]
    assert replay(START, changes).order == ("Ann", "Ben", "Cat")


def test_the_words_of_each_change_and_a_files_facts_checked() -> None:
    assert seat_text({"action": "join", "player": "陳大文"}) == "seat join 陳大文"
    assert seat_text({"action": "swap", "players": ["A", "B"]}) == "seat swap A B"
    order = {"action": "order", "order": ["A", "B"], "from_deal": 2}
    assert seat_text(order) == "seat order A,B --from-deal 2"
    for bad in ([], {"action": "fly"}, {"action": "swap", "players": ["A"]},
                {"action": "join", "player": 3}, {"action": "order", "order": ["A"], "from_deal": 0}):
        with pytest.raises(InputError):
            check_facts(bad)
    assert check_facts({"action": "undo", "x": 1}) == {"action": "undo"}
