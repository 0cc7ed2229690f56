"""Narrow terminals (issue 22): at 40 columns log, history and settle cut no value;
rows may take more lines."""

from __future__ import annotations

import pytest

from tests.helpers import CJK_SEATS, chinese_evening


@pytest.fixture
def evening(cli, monkeypatch):
    chinese_evening(cli)
    monkeypatch.setenv("COLUMNS", "40")


def joined(text: str) -> str:
    """The text with every line's padding gone, as one string of words."""
    return " ".join(" ".join(text.split()).split())


def test_log_at_40_columns_cuts_no_deal(cli, evening) -> None:
    out = cli.ok("log")
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 40 + 10  # rows fold, not run on
    words = out.split()
    for name in ("陳大文=0", "李小明=3", "José=11", "🐉Dragon=8"):
        assert name in words


def test_history_at_40_columns_cuts_no_money(cli, evening) -> None:
    out = cli.ok("history")
    assert "…" not in out
    for name in CJK_SEATS[:2]:
        assert name in out
    assert "HKD" in out


def test_settle_title_at_40_columns_keeps_the_formula_together(cli, evening) -> None:
    out = cli.ok("settle")
    assert "…" not in out
    assert any("Σs = " in line and line.split("Σs = ")[1][:1].isdigit() for line in out.splitlines())
    assert not any(line.rstrip().endswith("Σs =") for line in out.splitlines())
