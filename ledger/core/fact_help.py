"""The deal facts' help, written from the registry (:data:`ledger.core.registry.FACTS`):
the ``deal``/``amend`` epilog and the ``table`` loop's lines of deal options."""

from __future__ import annotations

from ledger.core.registry import FACTS

# The deal help's first lines: the cards left (always taken, so not a Fact).
_DEAL_HELP_HEAD = (
    ("NAME=CARDS ...", "every seated player once, the winner with 0;"),
    ("", "or counts in seat order: 0 3 11 8;"),
    ("", "a loser's cards may be typed: Ben=\"2S 2H 5D\""),
)


def deal_help() -> str:
    """The ``deal``/``amend`` epilog: every deal option with what it records (English;
    the command line's help is translated as a whole)."""
    lines = ["", "\b", "Deal options (the same words work in `bigtwo table` and sample files):"]
    for words, what in _DEAL_HELP_HEAD:
        lines.append(f"  {words:<24} {what}".rstrip() if words else f"  {'':<24} {what}")
    for fact in FACTS:
        words = f"{fact.word} {fact.metavar}".strip()
        lines.append(f"  {words:<24} {fact.help}")
    return "\n".join(lines) + "\n"


def table_options(room: int = 76) -> list[str]:
    """The ``table`` loop's help lines of deal options, each at most ``room`` columns
    where one option fits: ``--twos NAME=K --bombs NAME=K --finish two|quads|…``; an
    option and its value are never parted."""
    words = [f"{f.word} {'|'.join(f.values) if f.values else f.metavar}".strip() for f in FACTS]
    lines: list[str] = [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + len(word) + 1 > room:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}".strip()
    return lines
