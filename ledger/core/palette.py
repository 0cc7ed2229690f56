"""Each player's look in every chart: a colour, a marker and a line style.

Players are numbered in the order they first appeared in the ledger (their id), and
keep one look in every chart, on the command line (matplotlib, ledger/present/plots.py)
and on the phone (its SVG charts read :func:`palette_json`).  Twelve colours far apart
(Paul Tol's "muted" and "bright" schemes, chosen to stay apart for colour-blind
readers too) and two markers with two line styles give 24 distinct looks: the first
twelve players draw solid lines with round markers, the next twelve dashed lines with
square ones, so two players never share a colour *and* a marker up to 24 players.

>>> style(1), style(13)
(Style(colour='#332288', marker='o', dashed=False), Style(colour='#332288', marker='s', dashed=True))
>>> len({style(i) for i in range(1, 25)})
24
"""

from __future__ import annotations

from typing import Any, NamedTuple

COLOURS = (
    "#332288", "#EE7733", "#117733", "#CC3311", "#88CCEE", "#AA3377",
    "#999933", "#0077BB", "#DDAA33", "#44AA99", "#882255", "#555555",
)
MARKERS = ("o", "s")  # matplotlib's names; the phone draws a circle and a square
DISTINCT = len(COLOURS) * len(MARKERS)  # players with a look of their own


class Style(NamedTuple):
    colour: str
    marker: str
    dashed: bool

    def to_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "marker": "circle" if self.marker == "o" else "square",
                "dashed": self.dashed}


def style(player_id: int) -> Style:
    """The look of player ``player_id`` (1, 2, 3 ...); it repeats after :data:`DISTINCT`."""
    k = (player_id - 1) % DISTINCT
    second = k >= len(COLOURS)
    return Style(COLOURS[k % len(COLOURS)], MARKERS[int(second)], second)


def palette_json() -> list[dict[str, Any]]:
    """The 24 looks in order, for the phone's charts (index = player id - 1, modulo 24)."""
    return [style(i).to_dict() for i in range(1, DISTINCT + 1)]
