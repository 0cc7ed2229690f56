"""Player names in typed input and stored facts.

Near misses when a name is typed: "did you mean" over name keys (NFC + casefold,
ledger.core.text), so ``chan dai man`` finds nothing but ``Ana`` suggests ``Anna``; and
deal facts read or written under other names (a renamed or merged player)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

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


NAME_KEYED_FACTS = ("cards", "twos", "bombs", "hands")  # facts keyed by player name
NAMED_FACTS = ("assist", "immediate_by", "shootout", "leftovers",  # facts whose value is a player
               "player")  # (a seat entry's: ``seat join NAME``)
NAME_LIST_FACTS = ("order", "players")  # facts listing players (a deal's, a seat entry's)


def rename_facts(facts: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """Deal facts (:meth:`Deal.to_dict`) with every player name mapped through
    ``names`` (names not in it kept): how a session's facts, stored with the names as
    typed, are read under the players' current names, and written back.  The same for
    a seat entry's facts (``player``, ``players`` of a swap, ``order``).

    >>> rename_facts({"cards": {"Ann": 0, "Ben": 3}, "assist": "Ben", "order": ["Ann", "Ben"]},
    ...              {"Ann": "Anna"})
    {'cards': {'Anna': 0, 'Ben': 3}, 'assist': 'Ben', 'order': ['Anna', 'Ben']}
    >>> rename_facts({"cards": {"Ann": 0, "陳大文": 3}, "players": ["Ann", "陳大文"]}, {"陳大文": "Chan"})
    {'cards': {'Ann': 0, 'Chan': 3}, 'players': ['Ann', 'Chan']}
    >>> rename_facts({"action": "join", "player": "陳大文"}, {"陳大文": "Chan"})
    {'action': 'join', 'player': 'Chan'}
    """
    out = dict(facts)
    for key in NAME_KEYED_FACTS:
        if isinstance(out.get(key), Mapping):
            out[key] = {names.get(k, k): v for k, v in out[key].items()}
    for key in NAMED_FACTS:
        if isinstance(out.get(key), str):
            out[key] = names.get(out[key], out[key])
    for key in NAME_LIST_FACTS:
        if isinstance(out.get(key), list | tuple):
            out[key] = [names.get(n, n) for n in out[key]]
    return out


class NamesNow(Mapping[str, str]):
    """A name in a file -> the name the ledger shows for that player now, for the names
    that differ; each name looked up once, when an entry first names it (a file is read
    as a stream: the players a seat entry joins are not known beforehand)."""

    def __init__(self, find: Callable[[str], str | None]) -> None:
        self.find = find
        self.seen: dict[str, str] = {}

    def __getitem__(self, name: str) -> str:
        if name not in self.seen:
            self.seen[name] = self.find(name) or name
        if self.seen[name] == name:
            raise KeyError(name)
        return self.seen[name]

    def __iter__(self) -> Iterator[str]:
        return (k for k, v in self.seen.items() if k != v)

    def __len__(self) -> int:
        return sum(k != v for k, v in self.seen.items())
