"""Clean text (ledger/core/text.py): what a stored name may hold, when two names are
one player, and how stored text reaches a terminal."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.errors import InputError
from ledger.core.text import (
    MAX_NAME,
    MAX_SESSION_NAME,
    clean_name,
    clean_session_name,
    name_key,
    problem,
    same_name,
    shown,
)

HOSTILE = [
    "\x1b[2J\x1b[H",  # clear the screen
    "\x1b]0;pwned\x07",  # set the window title
    "\x1b]52;c;ZXZpbA==\x07",  # OSC 52: write the clipboard
    "Ann\u200b",  # zero-width space
    "\u202eevil",  # right-to-left override
    "\u2066x\u2069",  # bidi isolates
    "a\u2028b",  # line separator
    "\ufeffAnn",  # byte-order mark
    "bad\ud800",  # lone surrogate
    "\x00",
    "\x7f",
    "\x9b31m",  # C1 CSI
]


@pytest.mark.parametrize("text", HOSTILE)
def test_control_format_and_surrogate_characters_are_refused(text):
    assert problem(text) is not None
    with pytest.raises(InputError, match="not allowed"):
        clean_name(text)
    with pytest.raises(InputError, match="not allowed"):
        clean_session_name(text)


@pytest.mark.parametrize("text", HOSTILE)
def test_shown_text_holds_no_refused_character(text):
    out = shown(text)
    assert problem(out) is None
    assert "\x1b" not in out and "\x07" not in out
    out.encode("utf-8")  # a lone surrogate is escaped too, so it can be printed


def test_shown_leaves_clean_text_alone_and_makes_escapes_visible():
    for text in ("李小明", "Zoë", "👩\u200d👩\u200d👧 family", "O'Brien", ""):
        assert shown(text) == text
    assert shown("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert shown("\u202eevil") == "\\u202eevil"


def test_names_are_nfc_and_trimmed():
    decomposed = "Zoe\u0308"
    assert clean_name(f"  {decomposed} ") == "Zo\u00eb"
    assert unicodedata.is_normalized("NFC", clean_name("e\u0301"))


def test_emoji_joiner_is_allowed_only_between_emoji():
    assert clean_name("👩\u200d👩\u200d👧") == "👩\u200d👩\u200d👧"
    assert clean_name("👍🏽\u200d👍") == "👍🏽\u200d👍"
    for text in ("Ann\u200dBen", "\u200d👩", "👩\u200d"):
        with pytest.raises(InputError, match="format character"):
            clean_name(text)


def test_length_limits():
    assert clean_name("名" * MAX_NAME) == "名" * MAX_NAME
    with pytest.raises(InputError, match=f"longer than {MAX_NAME}"):
        clean_name("名" * (MAX_NAME + 1))
    assert len(clean_session_name("x" * MAX_SESSION_NAME)) == MAX_SESSION_NAME
    with pytest.raises(InputError, match=f"longer than {MAX_SESSION_NAME}"):
        clean_session_name("x" * (MAX_SESSION_NAME + 1))
    with pytest.raises(InputError, match="longer than"):  # 200 MB: refused before any scan
        clean_session_name("x" * 50_000_000)


def test_non_text_and_empty_names_are_refused():
    with pytest.raises(InputError, match="must be text"):
        clean_name(3)
    with pytest.raises(InputError, match="empty"):
        clean_name("   ")
    assert clean_session_name("") == ""


def test_name_key_makes_look_alikes_one_player():
    assert same_name("é", "e\u0301")
    assert same_name("Ann", "ANN")
    assert same_name("STRASSE", "straße")
    assert not same_name("Ann", "Anne")
    assert not same_name("陳大文", "陈大文")  # traditional and simplified are different text


@given(st.text(max_size=30))
def test_shown_is_always_printable_and_clean(text):
    out = shown(text)
    assert problem(out) is None
    if problem(text) is None:
        assert out == text


@given(st.text(max_size=30))
def test_name_key_is_idempotent_and_respects_nfc(text):
    key = name_key(text)
    assert name_key(key) == key
    assert name_key(unicodedata.normalize("NFD", text)) == key


def test_every_refused_category_is_refused():
    """Every code point of the refused categories, in this Python's Unicode version."""
    cats = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        if unicodedata.category(ch) in cats:
            assert problem(f"a{ch}b") is not None, hex(code)
