"""Charts draw Chinese names (issue 12): a CJK font from the fallback list, SVG text
kept as text, and at most one line of advice instead of matplotlib's glyph warnings."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from decimal import Decimal

import numpy as np
import pytest

from ledger.present import fonts, plots

NAME = "陳大文"


def need_cjk_font() -> None:
    if not fonts.installed_fonts(fonts.CJK_FONTS):
        if os.environ.get("CI") == "true":
            pytest.fail("no CJK font installed: CI must install fonts-noto-cjk")
        pytest.skip("no CJK font installed (apt-get install fonts-noto-cjk)")


def render(text: str, family: list[str]) -> np.ndarray:
    """``text`` drawn alone in ``family``, as an array of grey levels."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"font.family": family}), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the box-only rendering warns; that is the point
        figure = Figure(figsize=(3, 1), dpi=100)
        figure.text(0.05, 0.3, text, fontsize=28)
        canvas = FigureCanvasAgg(figure)
        canvas.draw()
        return np.asarray(canvas.buffer_rgba())[..., :3].mean(axis=2)


def test_a_cjk_label_is_drawn_not_boxed() -> None:
    need_cjk_font()
    drawn = render(NAME, fonts.font_family())
    boxes = render(NAME, [fonts.BASE_FONT])  # DejaVu Sans has no Han: three missing-glyph boxes
    assert (drawn < 128).sum() > 300, "the label drew almost nothing"
    differ = np.abs(drawn - boxes) > 64
    assert differ.sum() > 0.25 * (boxes < 128).sum(), "the label looks like the missing-glyph boxes"
    # and each character is different from the next one (boxes all look the same)
    assert not np.array_equal(render("陳", fonts.font_family()), render("李", fonts.font_family()))


def test_the_family_puts_a_cjk_font_behind_dejavu() -> None:
    need_cjk_font()
    family = fonts.font_family()
    assert family[0] == fonts.BASE_FONT
    assert family[1] in fonts.CJK_FONTS
    assert "TC" in family[1] or "HK" in family[1] or "Jheng" in family[1]
    simplified = fonts.font_family(simplified=True)
    assert "SC" in simplified[1] or "YaHei" in simplified[1]


def start_evening(tmp_path, players: str) -> dict[str, str]:
    env = {**os.environ, "BIGTWO_DB": str(tmp_path / "l.db")}
    run = [sys.executable, "-m", "ledger"]
    subprocess.run([*run, "session", "start", "--players", players], env=env, check=True,
                   capture_output=True)
    for cards in (["0", "3", "11", "8"], ["5", "0", "2", "13"]):
        subprocess.run([*run, "deal", *cards], env=env, check=True, capture_output=True)
    return env


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_plot_with_chinese_names_prints_no_warning(tmp_path, suffix) -> None:
    need_cjk_font()
    env = start_evening(tmp_path, "陳大文,李小明,Jose\u0301,Dan")
    out = tmp_path / f"chart{suffix}"
    done = subprocess.run([sys.executable, "-m", "ledger", "plot", "--out", str(out)], env=env,
                          capture_output=True, text=True, check=True)
    assert done.stderr == ""
    assert out.stat().st_size > 5000
    if suffix == ".svg":
        text = out.read_text(encoding="utf-8")
        assert "陳大文" in text and "李小明" in text  # text stays text (svg.fonttype none)


def test_an_undrawable_glyph_gives_one_line(tmp_path) -> None:
    env = start_evening(tmp_path, "陳大文,李小明,🐉Dragon,Dan")
    done = subprocess.run([sys.executable, "-m", "ledger", "plot", "--out", str(tmp_path / "c.png")],
                          env=env, capture_output=True, text=True, check=True)
    if fonts.installed_fonts(fonts.EMOJI_FONTS):
        assert done.stderr == ""
    else:
        assert done.stderr.count("\n") == 1 and "🐉" in done.stderr, done.stderr
    assert "Glyph" not in done.stderr


def test_without_a_cjk_font_one_line_says_how_to_get_one(monkeypatch, ledger_path, tmp_path) -> None:
    from ledger.book import actions as book
    from ledger.book.scope import select
    from ledger.core.deal_line import build_deal, split_words
    from ledger.core.rules import load_preset
    from ledger.storage.store import open_ledger

    monkeypatch.setattr(fonts, "CJK_FONTS", ())
    heard: list[str] = []
    with open_ledger(ledger_path) as ledger:
        s = book.start_session(ledger, ["陳大文", "李小明", "Ann", "Ben"], load_preset("classic"),
                               Decimal("1"), "HKD", None, False)
        deal = build_deal(split_words(["0", "3", "11", "8"]), s.seats, book.session_rules(s))
        book.record_deal(ledger, s, deal)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            plots.plot(ledger, select(ledger, s.id, False), "net", tmp_path / "c.png", heard.append)
    assert heard == [fonts.NO_CJK_FONT.format(what="plot")]
    assert "apt-get install fonts-noto-cjk" in heard[0]
    assert not [w for w in caught if "Glyph" in str(w.message)]


@pytest.mark.parametrize(("lang", "cjk_word", "glyph_word"), [
    ("zh_Hant", "中文", "格仔"), ("zh_Hans", "中文", "方框")])
def test_the_missing_font_notice_speaks_the_interface_language(monkeypatch, lang, cjk_word,
                                                               glyph_word) -> None:
    from ledger.core import i18n

    heard: list[str] = []
    with i18n.using(lang):
        no_cjk = fonts.Fonts(heard.append, what="settle")
        no_cjk.has_cjk, no_cjk.missing = False, {"陳"}
        no_cjk.say()
        no_emoji = fonts.Fonts(heard.append, what="plot")
        no_emoji.has_cjk, no_emoji.missing = True, {"🐉"}
        no_emoji.say()
    assert heard[0].startswith("settle：") and cjk_word in heard[0], heard
    assert "apt-get install fonts-noto-cjk" in heard[0]
    assert heard[1].startswith("plot：") and "'🐉'" in heard[1] and glyph_word in heard[1], heard
    assert "no installed font" not in "".join(heard)
