"""Checking one rule option's value: whole numbers in range, true/false, a fixed
choice, text, the tiers table and the ``fry_threshold`` shorthand.  Each refusal is one
:class:`RuleError` naming the key and what is allowed.

>>> fry_threshold_tiers(11)
((1, 1), (11, 2), (13, 3))
"""

from __future__ import annotations

from ledger.core.errors import RuleError
from ledger.core.i18n import _


def want_int(key: str, value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise RuleError(_("rule '{key}' must be a whole number from {low} to {high}, not {value!r}").format(
            key=key, low=low, high=high, value=value))
    return value


def want_bool(key: str, value: object) -> bool:
    if type(value) is not bool:
        raise RuleError(_("rule '{key}' must be true or false, not {value!r}").format(key=key, value=value))
    return value


def want_choice(key: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise RuleError(_("rule '{key}' must be one of {choices}; got {value!r}").format(
            key=key, choices=", ".join(choices), value=value))
    return str(value)


def want_text(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise RuleError(_("rule '{key}' must be text, not {value!r}").format(key=key, value=value))
    return value


def tiers_value(value: object, hand_size: int, origin: str = "rules") -> tuple[tuple[int, int], ...]:
    allowed = _(
        "{origin}: rule 'tiers' must be a list of [lowest card count, multiplier] pairs starting "
        "at 1 with rising card counts, e.g. [[1, 1], [10, 2], [13, 3]]"
    ).format(origin=origin)
    if not isinstance(value, (list, tuple)) or not value:
        raise RuleError(_("{allowed}; got {value!r}").format(allowed=allowed, value=value))
    out: list[tuple[int, int]] = []
    for pair in value:
        if (
            not isinstance(pair, (list, tuple))
            or len(pair) != 2
            or any(type(x) is not int for x in pair)
        ):
            raise RuleError(_("{allowed}; got {value!r}").format(allowed=allowed, value=pair))
        lower, mult = pair
        if out and lower <= out[-1][0]:
            raise RuleError(_("{allowed}; {lower} does not rise above {previous}").format(
                allowed=allowed, lower=lower, previous=out[-1][0]))
        if not 1 <= lower <= hand_size:
            raise RuleError(_("{allowed}; card count {lower} is outside 1-{hand_size}").format(
                allowed=allowed, lower=lower, hand_size=hand_size))
        if not 1 <= mult <= 100:
            raise RuleError(_("{allowed}; multiplier {mult} is outside 1-100").format(
                allowed=allowed, mult=mult))
        out.append((lower, mult))
    if out[0][0] != 1:
        raise RuleError(_("{allowed}; the first tier starts at {first}, not 1").format(
            allowed=allowed, first=out[0][0]))
    return tuple(out)


def fry_threshold_tiers(threshold: object) -> tuple[tuple[int, int], ...]:
    """The ``big-two-scorer`` shorthand: 1..F-1 x1, F..12 x2, 13 x3 (F from 10 to 13)."""
    f = want_int("fry_threshold", threshold, 10, 13)
    return ((1, 1), (f, 2), (13, 3)) if f < 13 else ((1, 1), (13, 3))
