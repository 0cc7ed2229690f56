"""Checks that a text table lines up on a terminal, measured in display columns
(陳 takes two columns, a combining accent none), not in characters."""

from __future__ import annotations

import itertools
import re

from wcwidth import wcwidth

RULE = re.compile(r"^ *-+( +-+)* *$")


def columns(line: str) -> list[str]:
    """The line as one entry per display column ('' marks the right half of a wide character)."""
    out: list[str] = []
    for ch in line:
        w = wcwidth(ch)
        if w == 0 and out:
            out[-1] += ch  # a combining mark joins the character before it
        elif w == 2:
            out += [ch, ""]
        else:
            out.append(ch)
    return out


def tables(text: str) -> list[list[str]]:
    """Every tabulate-style table in ``text``: header, rule and rows up to a blank line."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        if RULE.match(line) and i > 0:
            block = [lines[i - 1], line]
            for row in lines[i + 1:]:
                if not row.strip() or RULE.match(row):
                    break
                block.append(row)
            found.append(block)
    return found


def assert_aligned(text: str, expect_tables: int = 1) -> None:
    """Every table's rows keep to the rule's columns: the gaps between the rule's dash
    runs are blank in every row and no row runs past the rule."""
    found = tables(text)
    assert len(found) >= expect_tables, text
    for block in found:
        rule = block[1]
        runs = [(m.start(), m.end()) for m in re.finditer(r"-+", rule)]
        gaps = [c for (_, end), (start, _) in itertools.pairwise(runs) for c in range(end, start)]
        for row in block[:1] + block[2:]:
            cells = columns(row.rstrip())
            assert len(cells) <= runs[-1][1], f"row wider than its table:\n{row}\n{rule}"
            for c in gaps:
                if c < len(cells):
                    assert cells[c] == " ", f"column gap {c} not blank:\n{row}\n{rule}\n{text}"
