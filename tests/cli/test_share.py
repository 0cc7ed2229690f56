"""settle --round COIN and --format text|markdown|png; standings and settle on a
40-column screen (issue 12)."""

from __future__ import annotations

import json
import unicodedata
from decimal import Decimal

import pytest
from aligned import assert_aligned
from helpers import CJK_SEATS, chinese_evening
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.settlement import payment_plan, round_to_coin
from ledger.present.fit import width

SEATS = CJK_SEATS
COINS = [Decimal(c) for c in ("1", "5", "10", "0.5", "0.05", "0.01", "0.2", "2")]


@st.composite
def nets_summing_to_zero(draw):
    cents = draw(st.lists(st.integers(-10**7, 10**7), min_size=1, max_size=9))
    cents.append(-sum(cents))
    return {f"p{i}": Decimal(c) / 100 for i, c in enumerate(cents)}


@given(nets_summing_to_zero(), st.sampled_from(COINS))
def test_rounded_nets_are_whole_coins_and_sum_to_zero(nets, coin):
    rounded = round_to_coin(nets, coin)
    assert sum(rounded.values(), Decimal(0)) == 0
    for name, value in rounded.items():
        assert value % coin == 0, (value, coin)
        assert abs(value - nets[name]) < coin  # never more than one coin away
    for p in payment_plan(rounded):
        assert p.amount % coin == 0 and p.amount > 0


@pytest.fixture
def evening(cli):
    return chinese_evening(cli)


def test_round_json_carries_coin_and_whole_coin_payments(evening):
    plain = json.loads(evening.ok("settle", "--json"))
    data = json.loads(evening.ok("settle", "--round", "5", "--json"))
    assert data["round"] == "5"
    assert data["exact_nets"] == plain["nets"]
    nets = {k: Decimal(v) for k, v in data["nets"].items()}
    assert sum(nets.values()) == 0
    assert all(v % 5 == 0 for v in nets.values())
    assert data["payments"] and all(Decimal(p["amount"]) % 5 == 0 for p in data["payments"])
    paid: dict[str, Decimal] = dict.fromkeys(nets, Decimal(0))
    for p in data["payments"]:
        paid[p["from"]] -= Decimal(p["amount"])
        paid[p["to"]] += Decimal(p["amount"])
    assert paid == nets  # the plan settles the rounded nets exactly
    rounding = {k: Decimal(v) for k, v in data["rounding"].items()}
    assert all(nets[k] - Decimal(plain["nets"][k]) == rounding[k] for k in nets)
    assert "round" not in plain


def test_round_text_shows_the_remainder(evening):
    out = evening.ok("settle", "--round", "1")
    assert "rounded to coins of 1 HKD" in out and "rounding" in out
    assert_aligned(out, expect_tables=3)


@pytest.mark.parametrize("bad", ["abc", "0", "-5", "1e3", "", "0.0000001"])
def test_bad_coin_is_one_error_line(evening, bad):
    err = evening.fails("settle", "--round", bad)
    assert err.startswith("error: bad --round") and err.count("\n") == 1


def test_chat_text_needs_no_alignment(evening):
    out = unicodedata.normalize("NFC", evening.ok("settle", "--format", "text", "--round", "0.5"))
    assert "  " not in out.replace("\n\n", "\n")  # no padding that a proportional font would break
    for name in ("陳大文", "李小明", "José", "🐉Dragon"):
        assert name in out
    assert "→" in out and "coins of 0.5" in out


def test_markdown_is_pipe_tables(evening):
    out = evening.ok("settle", "--format", "markdown")
    assert "| 陳大文 |" in out and "|:--|--:|" in out


def test_png_card(evening, tmp_path):
    out = tmp_path / "card.png"
    printed = evening.ok("settle", "--format", "png", "--round", "5", "--out", str(out))
    assert printed.strip() == str(out.resolve())
    from matplotlib.image import imread

    pixels = imread(out)
    assert pixels.shape[0] > 300 and pixels[..., :3].std() > 0.05


@pytest.mark.parametrize("args", [["--format", "pdf"], ["--out", "x.png"],
                                  ["--format", "png", "--out", "card.svg"]])
def test_bad_share_options(evening, args):
    err = evening.fails("settle", *args)
    assert err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize("command", [["standings"], ["settle"], ["settle", "--round", "5"],
                                     ["session", "show"]])
def test_forty_columns(evening, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "40")
    out = evening.ok(*command)
    too_wide = [line for line in out.splitlines() if width(line) > 40]
    assert not too_wide, out
    assert_aligned(out)
    assert "陳大文" in out and "🐉Dragon" in out


def test_forty_columns_shortens_a_long_name(cli, monkeypatch):
    long = "Grandmaster " * 4 + "陳"
    cli.ok("session", "start", "--players", f"{long},李小明,Ann,Ben")
    cli.ok("deal", "0", "3", "11", "8")
    monkeypatch.setenv("COLUMNS", "40")
    out = cli.ok("standings")
    assert all(width(line) <= 40 for line in out.splitlines()), out
    assert "Grandmaster Gr" in out and "…" in out
    out = cli.ok("settle")  # settle cuts no value (issue 22): the name takes more lines
    assert all(width(line) <= 40 for line in out.splitlines()), out
    assert "…" not in out and out.count("Grandmaster") >= 4 and "陳" in out
