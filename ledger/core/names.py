"""Near misses when a name is typed: "did you mean" over name keys (NFC + casefold,
ledger.core.text), so ``chan dai man`` finds nothing but ``Ana`` suggests ``Anna``."""

from __future__ import annotations

from collections.abc import Iterable

from ledger.core.text import name_key, shown


def close_names(typed: str, names: Iterable[str], limit: int = 3) -> list[str]:
    """The names most like ``typed`` (difflib on name keys), best first.

    >>> close_names("lee siu ming", ["Lee Siu-ming", "Chan Tai-man", "Ann"])
    ['Lee Siu-ming']
    >>> close_names("陳大民", ["陳大文", "李小明"])
    ['陳大文']
    """
    import difflib

    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(name_key(name), name)
    found = difflib.get_close_matches(name_key(typed.strip()), list(by_key), n=limit, cutoff=0.6)
    return [by_key[k] for k in found]


def did_you_mean(typed: str, names: Iterable[str]) -> str:
    """``; did you mean 'Anna'?`` (or ``'Anna' or 'Ann'``), or "" when nothing is close."""
    found = close_names(typed, names)
    if not found:
        return ""
    from ledger.core.i18n import _

    return _("; did you mean {names}?").format(names=_(" or ").join(repr(shown(n)) for n in found))
