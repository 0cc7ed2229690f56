"""Fitting text to the screen: the one home of display width (:func:`width`: 陳 takes
two columns, a combining accent none), padding, wrapping and shortening by it, the
terminal's width (``COLUMNS``), and tables that drop their least needed columns or
shorten long text to fit.  Nothing of ``ledger.present.text`` is imported here (text
imports this), and no tabulate: the deal path uses it for standings."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from typing import Any


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal: 陳 takes two, a combining accent none.
    ASCII (the usual case at the table) is measured without importing wcwidth."""
    if text.isascii():
        return len(text)
    from wcwidth import wcswidth, wcwidth

    total = wcswidth(text)
    # wcswidth gives -1 for a string with a non-printable character; count the rest.
    return total if total >= 0 else sum(max(wcwidth(c), 0) for c in text)


def ljust(text: str, columns: int) -> str:
    return text + " " * (columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * (columns - width(text)) + text


_GLUE = frozenset({"=", "−", "-", "+", "·", "→"})


def _glued(words: list[str]) -> list[str]:
    """Words with an operator between two of them kept on one line: ``Σs = 79`` is
    not broken as ``Σs =`` / ``79``."""
    out: list[str] = []
    glue = False
    for word in words:
        if out and (glue or word in _GLUE):
            out[-1] += " " + word
        else:
            out.append(word)
        glue = word in _GLUE
    return out


def wrap(text: str, columns: int) -> str:
    """``text`` broken at spaces into lines of at most ``columns`` display columns."""
    lines: list[str] = []
    line = ""
    words: list[str] = []
    for word in _glued(text.split(" ")):
        while width(word) > columns:  # Chinese has no spaces: a long run breaks anywhere
            cut = ""
            for ch in word:
                if width(cut + ch) > columns:
                    break
                cut += ch
            words.append(cut)
            word = word[len(cut):]
        words.append(word)
    for word in words:
        if line and width(line) + 1 + width(word) > columns:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line])


def hanging(left: str, text: str, column: int, columns: int) -> str:
    """``left`` padded to ``column`` display columns, then ``text`` wrapped to what the
    screen leaves, its later lines under its first (a help line on a narrow terminal).
    Where too little is left (under 20 columns), ``text`` goes under ``left`` instead.

    >>> print(hanging("  undo", "take back the last action (a deal, amend or void)", 8, 30))
      undo   take back the last
             action (a deal, amend
             or void)
    """
    room = columns - column - 1
    if room < 20:
        return "\n".join([left, *("    " + line for line in wrap(text, columns - 4).split("\n"))])
    lines = wrap(text, room).split("\n")
    return "\n".join([f"{ljust(left, column)} {lines[0]}",
                      *(" " * (column + 1) + line for line in lines[1:])])


NARROW = 40  # a phone held upright: standings and settle fit this
DEFAULT = 80  # stats, history and log fit this unless --wide
GAP = 2  # spaces between columns (tabulate's "simple" layout)


def screen_width() -> int:
    """The terminal's width in columns: ``COLUMNS`` if set, else the terminal's, else 80."""
    return max(shutil.get_terminal_size((DEFAULT, 24)).columns, 20)


def report_width(wide: bool) -> int | None:
    """How wide a long report may be: None (no limit) with ``--wide``."""
    return None if wide else screen_width()


def truncate(text: str, columns: int) -> str:
    """``text`` cut to ``columns`` display columns, ending in … when cut.

    >>> truncate("陳大文 +33.50, 李小明 +29.50", 12)
    '陳大文 +33.…'
    """
    if width(text) <= columns:
        return text
    out, used = "", 0
    for ch in text:
        w = width(ch)
        if used + w > columns - 1:
            break
        out += ch
        used += w
    return out + "…"


def _widest_line(text: str) -> int:
    return max(width(line) for line in text.split("\n"))


def table_width(rows: Sequence[Sequence[str]], headers: Sequence[str], header_pad: int = 2) -> int:
    """The width tabulate's "simple" layout gives the table (it pads each heading by
    two; :func:`ledger.present.text.quick_table` does not: ``header_pad`` 0)."""
    cols = [max([width(h) + header_pad] + [width(r[i]) for r in rows]) for i, h in enumerate(headers)]
    return sum(cols) + GAP * (len(cols) - 1)


def fold(text: str, columns: int) -> str:
    """``text`` on lines of at most ``columns`` display columns (a table cell of
    several lines), broken at spaces only: a word longer than that keeps its line
    whole (``🐉Dragon=8`` is never split).  Nothing is cut.

    >>> print(fold("陳大文=0 李小明=3", 9))
    陳大文=0
    李小明=3
    """
    lines: list[str] = []
    for word in text.split(" "):
        if lines and width(lines[-1]) + 1 + width(word) <= columns:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


def fit_columns(
    rows: Sequence[Sequence[Any]], headers: Sequence[str], limit: int | None,
    drop: Sequence[int] = (), shrink: Sequence[int] = (), header_pad: int = 2,
    cut: bool = True,
) -> tuple[list[list[str]], list[str], list[str]]:
    """Rows and headers that fit ``limit`` columns, and the headers left out.

    Columns in ``drop`` (indexes, least needed first) go one by one until the
    table fits; then the text columns in ``shrink`` are shortened with … (to no
    fewer than 6 columns each), or with ``cut`` False folded onto more lines (no
    value is cut: the row takes more lines).  ``limit`` None keeps everything.
    """
    if not cut:  # escaped first: the lines a fold makes are the only line breaks in a cell
        from ledger.core.text import shown

        rows = [[shown(str(c)) for c in r] for r in rows]
    cells = [[str(c) for c in r] for r in rows]
    heads = [str(h) for h in headers]
    keep = list(range(len(heads)))
    hidden: list[str] = []

    def current() -> tuple[list[list[str]], list[str]]:
        return [[r[i] for i in keep] for r in cells], [heads[i] for i in keep]

    if limit is None:
        return cells, heads, hidden
    for index in drop:
        if table_width(*current(), header_pad) <= limit:
            break
        if index not in keep:  # a column this table does not have (e.g. best session)
            continue
        keep.remove(index)
        hidden.append(heads[index])
    body, top = current()
    over = table_width(body, top, header_pad) - limit
    for index in shrink:
        if over <= 0 or index not in keep:
            continue
        at = keep.index(index)
        head = width(top[at]) + header_pad
        col = max([head] + [width(r[at]) for r in body])
        target = max(6, head, col - over)
        for r in body:
            r[at] = truncate(r[at], target) if cut else fold(r[at], target)
        over -= col - max([head] + [_widest_line(r[at]) for r in body])
    return body, top, hidden


def hidden_note(hidden: Sequence[str]) -> str:
    from ledger.core.i18n import _

    if not hidden:
        return ""
    return _("(not shown to fit the screen: {columns}; --wide shows every column)").format(
        columns=_(", ").join(hidden))
