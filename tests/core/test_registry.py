"""The registry of rule options and deal facts: complete, documented, and the one
place the checks, the help, `rules show` and the docs read (datasette's
test_settings_are_documented is the model)."""

from __future__ import annotations

import importlib.util
from dataclasses import fields

import pytest
from helpers import ROOT

from ledger.core.deal_line import VALUE_OPTIONS, parse_deal_line
from ledger.core.errors import InputError, RuleError
from ledger.core.fact_help import deal_help
from ledger.core.plays import PlayRules
from ledger.core.registry import (
    FACTS,
    OPTIONS,
    STORED_FACTS,
    TEXT_FIELDS,
    offered_facts,
    play_options,
)
from ledger.core.rules import (
    RuleSet,
    load_preset,
    preset_names,
    preset_settings,
    preset_sources,
    rules_from_mapping,
)
from ledger.core.scoring import Deal
from ledger.present.rules_text import rules_show_lines


def _make_options_doc():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "make_options_doc", ROOT / "scripts" / "make_options_doc.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_rule_set_field_is_a_registry_option() -> None:
    assert set(OPTIONS) | set(TEXT_FIELDS) == set(RuleSet._fields)
    assert list(OPTIONS) == [f for f in RuleSet._fields if f not in TEXT_FIELDS]


def test_every_play_option_is_in_the_registry() -> None:
    assert set(play_options()) == {f"plays.{f.name}" for f in fields(PlayRules)}


def test_every_option_has_prose_a_source_and_the_rule_that_makes_it_matter() -> None:
    for option in [*OPTIONS.values(), *play_options().values()]:
        assert option.help.strip() and option.source.strip() and option.matters.strip(), option.name
        assert option.form in ("number", "switch", "select", "checkboxes", "numbers", "tiers",
                               "group"), option.name


def test_defaults_are_the_rule_sets_own() -> None:
    assert OPTIONS["tiers"].default == RuleSet("x").tiers
    assert play_options()["plays.straights"].default == PlayRules().straights


def test_the_committed_reference_table_is_current() -> None:
    doc = ROOT / "docs" / "options.md"
    assert doc.read_text("utf-8") == _make_options_doc().build(), (
        "docs/options.md is stale: run python scripts/make_options_doc.py")


def test_every_deal_fact_is_stored_as_a_deal_field() -> None:
    assert set(STORED_FACTS) == set(Deal._fields)
    assert set(VALUE_OPTIONS) | {"--missed-call"} == {f.word for f in FACTS}
    for fact in FACTS:
        assert fact.help.strip() and fact.matters.strip(), fact.name
        assert fact.word in deal_help()


@pytest.mark.parametrize("name", preset_names())
def test_each_preset_names_the_source_of_every_option_it_sets(name: str) -> None:
    assert set(preset_sources(name)) == set(preset_settings(name)), name
    lines = rules_show_lines(load_preset(name), preset_sources(name))
    for key, source in preset_sources(name).items():
        assert any(line.startswith(f"  {key} = ") and line.endswith(f"({source})")
                   for line in lines), (name, key)


def test_offered_facts_follow_the_rules() -> None:
    doubling = load_preset("doubling")
    words = [o.word for o in offered_facts(doubling)]
    assert words == ["--twos", "--bombs", "--finish", "--assist", "--dragon", "--four-twos"]
    finish = next(o for o in offered_facts(doubling) if o.name == "finish")
    assert finish.to_dict() == {"name": "finish", "word": "--finish", "kind": "choice",
                                "values": ["two", "quads", "straight-flush"],
                                "label": "the winner's last play: two, quads or straight-flush"}
    teams = [o.name for o in offered_facts(load_preset("classic"), teams=True)]
    assert "shootout" in teams and "assist" not in teams and "missed_call" not in teams
    assert [o.name for o in offered_facts(load_preset("places"))] == ["order"]
    # An immediate win is its own kind: an entry screen writes WORD WINNER and no cards.
    assert {o.name: o.kind for o in offered_facts(doubling)}["dragon"] == "win"
    # Assist names a loser (never the winner); a shoot-out any member of the team that won it.
    assert {o.name: o.kind for o in offered_facts(doubling)}["assist"] == "loser"
    assert {o.name: o.kind for o in offered_facts(load_preset("classic"), True)}["shootout"] == "player"
    forbidden = RuleSet("t", finish_double=True, finish_two="forbidden")
    assert next(o for o in offered_facts(forbidden) if o.name == "finish").values == (
        "quads", "straight-flush")


def test_offered_facts_are_what_the_grammar_and_scoring_accept() -> None:
    from ledger.core.scoring import score_deal

    seats = ["Ann", "Ben", "Cat", "Dan"]
    examples = {"twos": "--twos Ben=1", "bombs": "--bombs Cat=1", "finish": "--finish quads",
                "assist": "--assist Ben", "missed_call": "--missed-call"}
    for name in ("classic", "doubling", "pay-the-winner"):
        rules = load_preset(name)
        offered = {o.name for o in offered_facts(rules)}
        for fact, words in examples.items():
            deal = parse_deal_line(f"Ann=0 Ben=5 Cat=9 Dan=4 {words}", seats, rules)
            if fact in offered:
                if fact == "assist" and rules.assist_single_only:
                    deal = deal._replace(finish=None)
                score_deal(rules, seats, deal)
            else:
                with pytest.raises(InputError, match=r"do not score|have no"):
                    score_deal(rules, seats, deal)


def test_a_bad_value_names_the_key_and_what_is_allowed() -> None:
    with pytest.raises(RuleError, match="rule 'next_deal' must be one of rotate, winner, loser"):
        rules_from_mapping({"next_deal": "left"})
    with pytest.raises(RuleError, match="rule 'rank_threshold' must be a whole number from 1"):
        rules_from_mapping({"rank_threshold": 0})
