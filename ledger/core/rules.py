"""Rule sets: every house-rule variant is data, never an ``if`` somewhere else.

Presets ship as TOML files in ``ledger/core/presets``; a user rule file is TOML too
and starts from a preset (``base``, default ``classic``) and overrides options.
A session freezes the resulting :class:`RuleSet` (``to_dict``) when it starts, so
editing a preset later never changes recorded history.

>>> classic = load_preset("classic")
>>> [classic.tier(c) for c in (9, 10, 12, 13)]
[1, 2, 2, 3]
>>> rules_from_mapping({"fry_threshold": 11}).tiers
((1, 1), (11, 2), (13, 3))
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

from ledger.core.errors import InputError, RuleError
from ledger.core.text import clean_name, shown

if TYPE_CHECKING:
    from ledger.core.plays import PlayRules

# The fixed choices of a rule set: each a Literal type, and its values as a tuple.
Factor = Literal["off", "each", "once"]  # how unplayed twos / bombs multiply the penalty
Settlement = Literal["pairwise", "pay-the-winner"]
Mode = Literal["cards", "places"]
ImmediateWin = Literal["dragon", "four-twos"]
NextDeal = Literal["rotate", "winner", "loser"]  # who deals the next deal (default first)
NextLead = Literal["winner", "three-of-diamonds"]  # who leads it

FACTOR_CHOICES: tuple[Factor, ...] = get_args(Factor)
SETTLEMENTS: tuple[Settlement, ...] = get_args(Settlement)
MODES: tuple[Mode, ...] = get_args(Mode)
IMMEDIATE_WINS: tuple[ImmediateWin, ...] = get_args(ImmediateWin)
NEXT_DEALS: tuple[NextDeal, ...] = get_args(NextDeal)
NEXT_LEADS: tuple[NextLead, ...] = get_args(NextLead)
MAX_HAND = 26  # two players splitting a whole pack


@dataclass(frozen=True)
class RuleSet:
    """Everything that decides a deal's points.  See docs/scoring.md."""

    name: str
    description: str = ""
    source: str = ""
    hand_size: int = 13
    tiers: tuple[tuple[int, int], ...] = ((1, 1), (10, 2), (13, 3))
    twos: Factor = "off"
    bombs: Factor = "off"
    finish_double: bool = False
    assist: bool = False
    missed_call: bool = False
    immediate_wins: tuple[ImmediateWin, ...] = IMMEDIATE_WINS
    settlement: Settlement = "pairwise"
    mode: Mode = "cards"
    place_points: tuple[int, ...] = (0, 1, 2, 3)
    # Play options (docs/plays.md), kept as validated plain data; see ledger.core.plays.
    plays: tuple[tuple[str, Any], ...] = field(default=())
    # Who deals and who leads the next deal (docs/at-the-table.md); see ledger.core.dealer.
    next_deal: NextDeal = "rotate"
    next_lead: NextLead = "winner"

    def tier(self, cards: int) -> int:
        """Multiplier of the highest tier whose lower bound is <= ``cards``."""
        multiplier = 1
        for lower, mult in self.tiers:
            if cards >= lower:
                multiplier = mult
        return multiplier

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form; ``rules_from_dict(r.to_dict()) == r``."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "tiers":
                value = [list(t) for t in value]
            elif f.name == "plays":
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)

    def play_rules(self) -> PlayRules:
        """The play options as :class:`ledger.core.plays.PlayRules` (unnamed ones at their defaults)."""
        from ledger.core.plays import PlayRules

        return PlayRules.from_mapping(dict(self.plays))

    @property
    def extras(self) -> list[str]:
        """Names of the optional facts this rule set scores (for help and docs)."""
        out = []
        if self.twos != "off":
            out.append(f"twos {self.twos}")
        if self.bombs != "off":
            out.append(f"bombs {self.bombs}")
        if self.finish_double:
            out.append("finish_double")
        if self.assist:
            out.append("assist")
        if self.missed_call:
            out.append("missed call")
        return out

    def tiers_text(self) -> str:
        """``1-9 x1, 10-12 x2, 13 x3``: the tiers as players say them."""
        parts = []
        for i, (lower, mult) in enumerate(self.tiers):
            upper = self.tiers[i + 1][0] - 1 if i + 1 < len(self.tiers) else self.hand_size
            span = str(lower) if lower == upper else f"{lower}-{upper}"
            parts.append(f"{span} x{mult}")
        return ", ".join(parts)


# --- validation -----------------------------------------------------------

OPTION_KEYS = tuple(f.name for f in fields(RuleSet))
FILE_KEYS = (*OPTION_KEYS, "base", "fry_threshold")


def _want_int(key: str, value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise RuleError(f"rule '{key}' must be a whole number from {low} to {high}, not {value!r}")
    return value


def _want_bool(key: str, value: object) -> bool:
    if type(value) is not bool:
        raise RuleError(f"rule '{key}' must be true or false, not {value!r}")
    return value


def _want_choice(key: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise RuleError(f"rule '{key}' must be one of {', '.join(choices)}; got {value!r}")
    return str(value)


def _want_text(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise RuleError(f"rule '{key}' must be text, not {value!r}")
    return value


def _tiers(value: object, hand_size: int, origin: str = "rules") -> tuple[tuple[int, int], ...]:
    allowed = (
        f"{origin}: rule 'tiers' must be a list of [lowest card count, multiplier] pairs starting at 1 "
        "with rising card counts, e.g. [[1, 1], [10, 2], [13, 3]]"
    )
    if not isinstance(value, (list, tuple)) or not value:
        raise RuleError(f"{allowed}; got {value!r}")
    out: list[tuple[int, int]] = []
    for pair in value:
        if (
            not isinstance(pair, (list, tuple))
            or len(pair) != 2
            or any(type(x) is not int for x in pair)
        ):
            raise RuleError(f"{allowed}; got {pair!r}")
        lower, mult = pair
        if out and lower <= out[-1][0]:
            raise RuleError(f"{allowed}; {lower} does not rise above {out[-1][0]}")
        if not 1 <= lower <= hand_size:
            raise RuleError(f"{allowed}; card count {lower} is outside 1-{hand_size}")
        if not 1 <= mult <= 100:
            raise RuleError(f"{allowed}; multiplier {mult} is outside 1-100")
        out.append((lower, mult))
    if out[0][0] != 1:
        raise RuleError(f"{allowed}; the first tier starts at {out[0][0]}, not 1")
    return tuple(out)


def fry_threshold_tiers(threshold: object) -> tuple[tuple[int, int], ...]:
    """The ``big-two-scorer`` shorthand: 1..F-1 x1, F..12 x2, 13 x3 (F from 10 to 13)."""
    f = _want_int("fry_threshold", threshold, 10, 13)
    return ((1, 1), (f, 2), (13, 3)) if f < 13 else ((1, 1), (13, 3))


def rules_from_mapping(
    data: Mapping[str, Any], *, base: RuleSet | None = None, origin: str = "rules"
) -> RuleSet:
    """Build a validated RuleSet from ``data`` laid over ``base`` (default: ``classic``).

    ``data`` may name ``base`` (a preset), any option and ``fry_threshold``.
    Every problem raises :class:`RuleError` naming the key and what is allowed.
    """
    unknown = sorted(set(data) - set(FILE_KEYS))
    if unknown:
        raise RuleError(
            f"{origin}: unknown rule '{unknown[0]}'; allowed keys: {', '.join(FILE_KEYS)}"
        )
    if "base" in data:
        if base is not None:
            raise RuleError(f"{origin}: 'base' cannot be used here")
        base = load_preset(_want_text("base", data["base"]))
    if base is None:
        base = load_preset("classic")
    if "tiers" in data and "fry_threshold" in data:
        raise RuleError(f"{origin}: give either 'tiers' or 'fry_threshold', not both")

    values: dict[str, Any] = {}
    hand_size = _want_int("hand_size", data.get("hand_size", base.hand_size), 1, MAX_HAND)
    values["hand_size"] = hand_size
    for key in ("name", "description", "source"):
        if key in data:
            values[key] = _want_text(key, data[key])
    if "name" in data:
        try:
            values["name"] = clean_name(values["name"], "rule name")
        except InputError as exc:
            raise RuleError(f"{origin}: {exc}") from None
    if "fry_threshold" in data:
        if hand_size != 13:
            raise RuleError(f"{origin}: 'fry_threshold' needs hand_size 13, not {hand_size}")
        values["tiers"] = fry_threshold_tiers(data["fry_threshold"])
    else:
        values["tiers"] = _tiers(data.get("tiers", base.tiers), hand_size, origin)
    for key in ("twos", "bombs"):
        if key in data:
            values[key] = _want_choice(key, data[key], FACTOR_CHOICES)
    for key in ("finish_double", "assist", "missed_call"):
        if key in data:
            values[key] = _want_bool(key, data[key])
    if "settlement" in data:
        values["settlement"] = _want_choice("settlement", data["settlement"], SETTLEMENTS)
    if "mode" in data:
        values["mode"] = _want_choice("mode", data["mode"], MODES)
    if "immediate_wins" in data:
        wins = data["immediate_wins"]
        if not isinstance(wins, (list, tuple)):
            raise RuleError(f"rule 'immediate_wins' must be a list of {', '.join(IMMEDIATE_WINS)}")
        values["immediate_wins"] = tuple(
            sorted({_want_choice("immediate_wins", w, IMMEDIATE_WINS) for w in wins})
        )
    if "place_points" in data:
        points = data["place_points"]
        if not isinstance(points, (list, tuple)) or not 2 <= len(points) <= 4:
            raise RuleError(
                "rule 'place_points' must be a list of 2 to 4 whole numbers, first place first, "
                f"e.g. [0, 1, 2, 3]; got {points!r}"
            )
        values["place_points"] = tuple(_want_int("place_points", p, 0, 10_000) for p in points)
    if "plays" in data:
        values["plays"] = _plays(data["plays"], base.plays)
    if "next_deal" in data:
        values["next_deal"] = _want_choice("next_deal", data["next_deal"], NEXT_DEALS)
    if "next_lead" in data:
        values["next_lead"] = _want_choice("next_lead", data["next_lead"], NEXT_LEADS)
    changed = sorted(set(data) - {"base", "name", "description", "source"})
    if changed and "description" not in data:
        # The base's description speaks of the base's rules (its tiers, its extras): a file
        # that changes them gets a description saying what it is, never the stale one.
        values["description"] = f"based on {base.name}; this file sets {', '.join(changed)}"
    rules = replace(base, **values)
    if rules.mode == "places" and (rules.assist or rules.missed_call or rules.immediate_wins):
        raise RuleError(
            f"{origin}: places mode scores finishing order only; "
            "set assist = false, missed_call = false and immediate_wins = []"
        )
    return rules


def _plays(value: object, base: tuple[tuple[str, Any], ...] = ()) -> tuple[tuple[str, Any], ...]:
    """The options a [plays] table names, laid over the base's (a file on ``hong-kong``
    that sets only ``suit_order`` keeps the Hong Kong straights and flushes)."""
    if not isinstance(value, Mapping):
        raise RuleError("rule 'plays' must be a table of play options, such as [plays] suit_order = \"DHSC\"")
    if not value:
        return base  # nothing named: no need to load the play rules
    from ledger.core.plays import PlayRules  # the play options validate themselves

    checked = PlayRules.from_mapping(value).to_dict()
    named = {str(k).replace("-", "_") for k in value}
    merged = dict(base) | {k: v for k, v in checked.items() if k in named}
    return tuple(sorted(merged.items()))


def rules_from_dict(data: Mapping[str, Any]) -> RuleSet:
    """Rebuild a frozen rule set stored by :meth:`RuleSet.to_dict` (no base applied)."""
    # The stored name is kept as it is (an old ledger's may predate the clean-text
    # rules; it is only ever shown through ledger.core.text.shown).
    name = str(data.get("name", ""))
    rest = {k: v for k, v in data.items() if k != "name"}
    return rules_from_mapping(rest, base=RuleSet(name=name), origin=f"stored rules {shown(name)!r}")


# --- presets and files ----------------------------------------------------

def preset_names() -> list[str]:
    """Every preset shipped with the tool, ``classic`` first."""
    from importlib import resources

    names = sorted(
        p.name.removesuffix(".toml")
        for p in resources.files("ledger.core.presets").iterdir()
        if p.name.endswith(".toml")
    )
    return sorted(names, key=lambda n: n != "classic")


def load_preset(name: str) -> RuleSet:
    """A shipped preset by name; unknown names list the allowed ones."""
    names = preset_names()
    if name not in names:
        import difflib

        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise RuleError(f"unknown rule set '{name}'{hint}; presets: {', '.join(names)}")
    import tomllib
    from importlib import resources

    text = resources.files("ledger.core.presets").joinpath(f"{name}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return rules_from_mapping(data, base=RuleSet(name=name), origin=f"preset {name}")


def load_rules(spec: str) -> RuleSet:
    """``spec`` is a preset name or a path to a ``.toml`` rule file."""
    if not spec.endswith(".toml"):
        return load_preset(spec)
    import tomllib

    path = Path(spec)
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise RuleError(f"cannot read rule file {spec}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RuleError(f"rule file {spec} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"rule file {spec} is not valid TOML: {exc}") from None
    rules = rules_from_mapping(data, origin=f"rule file {spec}")
    if "name" not in data:
        rules = replace(rules, name=path.stem)
    try:
        return replace(rules, name=clean_name(rules.name, "rule name"))
    except InputError as exc:
        raise RuleError(f"rule file {spec}: {exc}") from None
