"""Charts for long-term results: 24 players each with a look of their own, dates in the
interface's language, labels that never overlap (measured on the drawn text), points as
whole numbers."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from history_ledger import add_session

from ledger.book.scope import select
from ledger.core import i18n
from ledger.core.palette import palette_json, style
from ledger.present import fonts, plots
from ledger.storage.store import open_ledger

NAMES = [f"P{i:02d}" for i in range(1, 25)]
ENGLISH_MONTHS = re.compile(r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec")


@pytest.fixture
def club(ledger_path):
    """24 players, four a session, one deal each, a session a week for a year."""
    with open_ledger(str(ledger_path)) as led:
        day = date(2024, 1, 5)
        for week in range(48):
            seats = [NAMES[(week * 4 + k) % 24] for k in range(4)]
            add_session(led, seats, [f"{seats[0]}=0 {seats[1]}=3 {seats[2]}={1 + week % 9} "
                                     f"{seats[3]}=12"], day.isoformat(), currency="PTS")
            day += timedelta(days=7)
        yield led


def test_24_players_have_24_distinct_colour_and_marker_pairs(club):
    figure = plots.draw(club, select(club, None, True), "timeline")
    lines = [ln for ln in figure.axes[0].get_lines() if ln.get_label() and
             not ln.get_label().startswith("_")]
    assert len(lines) == 24
    looks = {(ln.get_color(), ln.get_marker(), ln.get_linestyle()) for ln in lines}
    assert len(looks) == 24
    assert len({(s["colour"], s["marker"]) for s in palette_json()}) == 24
    assert style(1) == style(25)  # it repeats only after 24


def test_points_are_whole_numbers_in_the_legend(club):
    figure = plots.draw(club, select(club, None, True), "timeline")
    labels = [t.get_text() for t in figure.legends[0].get_texts()] if figure.legends else \
        [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert labels and all(re.fullmatch(r"P\d\d \([+-]?[\d,]+\)", t) for t in labels), labels


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_dates_are_in_the_interface_language(club, lang):
    i18n.choose(lang)
    try:
        with fonts.Fonts(None):  # the CJK font, as plot() takes it
            figure = plots.draw(club, select(club, None, True), "timeline")
            _draw(figure)
        ticks = [t.get_text() for t in figure.axes[0].get_xticklabels()]
        offset = figure.axes[0].xaxis.get_offset_text().get_text()
    finally:
        i18n.choose("en")
    shown = " ".join([*ticks, offset])
    assert ticks and not ENGLISH_MONTHS.search(shown), shown
    assert "月" in shown or "年" in shown, shown


def test_english_dates_stay_as_they_were(club):
    figure = plots.draw(club, select(club, None, True), "timeline")
    _draw(figure)
    ticks = " ".join(t.get_text() for t in figure.axes[0].get_xticklabels())
    assert ENGLISH_MONTHS.search(ticks), ticks


def _draw(figure):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure).draw()


def _overlaps(boxes):
    return [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:]
            if ba.overlaps(bb)]


def test_rating_labels_never_overlap_and_show_no_negative_zero(club):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = plots.draw(club, select(club, None, True), "rating")
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    ax = figure.axes[0]
    texts = [t for t in ax.texts if t.get_text()]
    assert len(texts) == 24
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    boxes += [(t.get_text(), t.get_window_extent(renderer)) for t in ax.get_yticklabels()]
    assert not _overlaps(boxes)
    inside = ax.get_window_extent(renderer)
    assert all(inside.x0 <= b.x0 and b.x1 <= inside.x1 for _t, b in boxes[:24])  # none cut off
    assert not any("-0.0" in t.get_text() for t in texts)


def test_fixed_never_writes_negative_zero():
    assert plots.fixed(-0.04) == "0.0" and plots.fixed(-0.06) == "-0.1" and plots.fixed(0.0) == "0.0"
