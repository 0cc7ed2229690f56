"""Help text in Chinese, wrapped as Chinese is written: by terminal columns, between any
two characters, with no space where a translated paragraph was broken across lines.

The framework wraps help by counting characters and breaking only at spaces, and it
joins a paragraph's lines with a space: right for English, but a Chinese line is twice
as wide as its character count and has no spaces to break at.  Used only when the
interface language is not English (:func:`ledger.cli.common.localize`).
"""

from __future__ import annotations

import re
from typing import Any

from ledger.present.fit import width

# A run of characters that takes two columns each (CJK, fullwidth punctuation), or a run
# of anything else: the former may break between any two characters, the latter at spaces.
_WIDE = "\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f" \
        "\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6"
_PIECES = re.compile(f"[{_WIDE}]|[^{_WIDE}]+")
_NO_LINE_START = set("，。、；：！？）」』》〉】,.;:!?)")  # punctuation kept with what it ends


def _wide(char: str) -> bool:
    return bool(char) and re.fullmatch(f"[{_WIDE}]", char) is not None


def joined(text: str) -> str:
    """A translated help text with its paragraphs' line breaks removed where Chinese meets
    Chinese (the framework would turn each into a space); paragraphs, indented lines and
    ``\\b`` blocks stay as written.

    >>> joined("一行就是這樣，\\n或者那樣。\\n\\nsecond\\nparagraph")
    '一行就是這樣，或者那樣。\\n\\nsecond\\nparagraph'
    """
    out = []
    for paragraph in text.split("\n\n"):
        lines = paragraph.split("\n")
        if lines[0].strip() == "\b":
            out.append(paragraph)
            continue
        merged = lines[0]
        for line in lines[1:]:
            glue = "" if line[:1] != " " and (_wide(merged[-1:]) or _wide(line[:1])) else "\n"
            merged += glue + line
        out.append(merged)
    return "\n\n".join(out)


def wrapper_class(base: Any) -> Any:
    """The framework's TextWrapper, measuring by terminal columns and breaking between
    wide characters too."""

    class ColumnWrapper(base):  # type: ignore[misc,valid-type,unused-ignore]
        def _split(self, text: str) -> list[str]:
            chunks: list[str] = []
            for chunk in super()._split(text):
                chunks.extend(_PIECES.findall(chunk) if any(map(_wide, chunk)) else [chunk])
            # punctuation that may not start a line travels with the character before it
            out: list[str] = []
            for chunk in chunks:
                if out and chunk in _NO_LINE_START and out[-1].strip():
                    out[-1] += chunk
                else:
                    out.append(chunk)
            return out

        def _wrap_chunks(self, chunks: list[str]) -> list[str]:
            lines: list[str] = []
            chunks = list(reversed(chunks))
            while chunks:
                current: list[str] = []
                used = 0
                indent = self.subsequent_indent if lines else self.initial_indent
                room = self.width - width(indent)
                if self.drop_whitespace and lines and not chunks[-1].strip():
                    chunks.pop()
                while chunks and used + width(chunks[-1]) <= room:
                    used += width(chunks[-1])
                    current.append(chunks.pop())
                if chunks and width(chunks[-1]) > room:  # one word longer than the line
                    self._handle_long_word(chunks, current, used, room)
                if self.drop_whitespace and current and not current[-1].strip():
                    current.pop()
                if current:
                    lines.append(indent + "".join(current))
            return lines

    return ColumnWrapper


def install() -> None:
    """Make the framework measure help by terminal columns (so ``--players <文字>`` lines
    up with the options below it) and wrap it with :func:`wrapper_class` (idempotent)."""
    try:
        from typer._click import _compat, _textwrap, formatting  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from click import _compat, _textwrap, formatting  # type: ignore[import-not-found,no-redef,unused-ignore]
    base: Any = _textwrap.TextWrapper
    if getattr(base, "_bigtwo_columns", False):
        return

    def term_len(x: str) -> int:
        return width(_compat.strip_ansi(x))

    formatting.term_len = term_len  # type: ignore[attr-defined]
    wrapper = wrapper_class(base)
    wrapper._bigtwo_columns = True
    setattr(_textwrap, "TextWrapper", wrapper)  # noqa: B010 (the framework's own module)


def short_help(text: str, room: int = 60) -> str:
    """A command's line in a list of commands: the first sentence of its (translated)
    help, cut to ``room`` terminal columns with "…" (the framework's own cut counts
    characters and breaks at spaces, so a Chinese help became just "...").

    >>> short_help("撤回上一個動作：一鋪、修改或作廢。再打一次再往回退。")
    '撤回上一個動作：一鋪、修改或作廢。'
    >>> short_help("一二三四五六七八九十", room=9)
    '一二三四…'
    """
    first = text.split("\n\n")[0].replace("\n", " ").strip()
    end = first.find("。")
    if end != -1:
        first = first[:end + 1]
    if width(first) <= room:
        return first
    out = ""
    for char in first:
        if width(out + char) > room - 1:
            break
        out += char
    return out.rstrip() + "…"
