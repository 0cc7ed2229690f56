"""Small pieces of English for messages: counts with the right plural."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None, *, grouped: bool = False) -> str:
    """``1 deal``, ``2 deals``, ``0 entries`` (give ``many`` when adding s is wrong).

    >>> plural(1, "session"), plural(2, "entry", "entries"), plural(1234, "deal", grouped=True)
    ('1 session', '2 entries', '1,234 deals')
    """
    number = f"{count:,}" if grouped else str(count)
    return f"{number} {word if count == 1 else (many or word + 's')}"
