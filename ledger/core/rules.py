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

import json
import math
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, get_args

from ledger.core.errors import InputError, RuleError
from ledger.core.i18n import N_, _
from ledger.core.rule_values import fry_threshold_tiers, want_text
from ledger.core.text import MAX_SESSION_NAME, clean_name, clean_text, shown

if TYPE_CHECKING:
    from ledger.core.plays import PlayRules

# The fixed choices of a rule set: each a Literal type, and its values as a tuple.
Factor = Literal["off", "each", "once"]  # how unplayed twos / bombs multiply the penalty
Settlement = Literal["pairwise", "pay-the-winner", "ranked"]
Mode = Literal["cards", "places"]
ImmediateWin = Literal["dragon", "four-twos"]
NextDeal = Literal["rotate", "winner", "loser"]  # who deals the next deal (default first)
# Who leads it: the last winner, the holder of the lowest card under the suit order, or
# (sessions frozen before lowest-card existed) the holder of 3♦ whatever the suits.
# "loser": the player left with the most cards (pagat: "the 'loser' of each hand plays first").
NextLead = Literal["winner", "lowest-card", "three-of-diamonds", "loser"]
# The card whose holder opens: the lowest under the suit order, or 3♣ whatever the order
# (the French text's Philippine rule: "le jeu commence porte 3 clubs au lieu de 3 diamants").
Opener = Literal["lowest-card", "three-of-clubs"]
# Teams: a finish doubles whoever went out (sessions before this option), or only when the
# player who went out is on the winning side (the winner is the winning side).
FinishSide = Literal["finisher", "winning-side"]
FourTwos = Literal["tiers", "tripled"]  # a four-twos immediate win: by the tiers, or x3
FinishTwo = Literal["double", "plain", "forbidden"]  # going out on a two

FACTOR_CHOICES: tuple[Factor, ...] = get_args(Factor)
SETTLEMENTS: tuple[Settlement, ...] = get_args(Settlement)
MODES: tuple[Mode, ...] = get_args(Mode)
IMMEDIATE_WINS: tuple[ImmediateWin, ...] = get_args(ImmediateWin)
NEXT_DEALS: tuple[NextDeal, ...] = get_args(NextDeal)
NEXT_LEADS: tuple[NextLead, ...] = get_args(NextLead)
FOUR_TWOS: tuple[FourTwos, ...] = get_args(FourTwos)
FINISH_TWO: tuple[FinishTwo, ...] = get_args(FinishTwo)
OPENERS: tuple[Opener, ...] = get_args(Opener)
FINISH_SIDES: tuple[FinishSide, ...] = get_args(FinishSide)
MAX_HAND = 26  # two players splitting a whole pack
MAX_LOSERS = 3  # four players at most


class RuleSet(NamedTuple):
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
    plays: tuple[tuple[str, Any], ...] = ()
    # Who deals and who leads the next deal (docs/at-the-table.md); see ledger.core.dealer.
    next_deal: NextDeal = "rotate"
    next_lead: NextLead = "winner"
    # Wikipedia: assistance excludes "the case of more than one card played".
    assist_single_only: bool = False
    # Wikipedia scores four twos as the losers' count "tripled"; tiers: the rule set's own.
    four_twos: FourTwos = "tiers"
    # Going out on a two: doubles (with finish_double), counts plain, or is not allowed.
    finish_two: FinishTwo = "double"
    # settlement = "ranked" (a Taiwanese house rule): losers ranked by cards left pay
    # rank_payments units, x over_threshold_factor when one holds rank_threshold or more.
    rank_payments: tuple[int, ...] = (1, 2, 3)
    rank_threshold: int = 10
    over_threshold_factor: int = 2
    # pagat, Indonesia: rounds of ``round_deals`` deals, the first of each opened by the
    # lowest card, the others by the last winner (0: no rounds).
    round_deals: int = 0
    opener: Opener = "lowest-card"
    finish_side: FinishSide = "finisher"
    # Wikipedia, three players: the 52nd card goes to one of them, who holds hand_size + 1.
    odd_card: bool = False
    # The Russian article: a hand holding all four twos may ask for a reshuffle.
    redeal_four_twos: bool = False

    def tier(self, cards: int) -> int:
        """Multiplier of the highest tier whose lower bound is <= ``cards``."""
        multiplier = 1
        for lower, mult in self.tiers:
            if cards >= lower:
                multiplier = mult
        return multiplier

    @property
    def points_per_unit(self) -> int:
        """Points in one unit of the stake: 1, except under ``ranked`` settlement.

        Tied losers share their ranks' payments equally, so a share can be a fraction
        of a unit (1.5 for two losers tied on ranks 1 and 2 of ``[1, 2, 3]``).  Points
        are whole numbers, so a ranked rule set counts in the smallest fraction of a
        unit every share is a whole number of: half units for ``[1, 2, 3]``.

        >>> RuleSet("t", settlement="ranked").points_per_unit
        2
        >>> RuleSet("t", settlement="ranked", rank_payments=(1, 2, 4)).points_per_unit
        6
        """
        if self.settlement != "ranked":
            return 1
        pays = self.rank_payments
        shares = (
            Fraction(sum(pays[i:j]), j - i)
            for i in range(len(pays))
            for j in range(i + 1, len(pays) + 1)
        )
        return math.lcm(*(share.denominator for share in shares))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form; ``rules_from_dict(r.to_dict()) == r``."""
        data: dict[str, Any] = {}
        for key in self._fields:
            value: Any = getattr(self, key)
            if key == "tiers":
                value = [list(t) for t in value]
            elif key == "plays":
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            data[key] = value
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)

    def play_rules(self) -> "PlayRules":
        """The play options as :class:`ledger.core.plays.PlayRules` (unnamed ones at their defaults)."""
        from ledger.core.plays import PlayRules

        return PlayRules.from_mapping(dict(self.plays))

    @property
    def extras(self) -> list[str]:
        """Names of the optional facts this rule set scores (``twos each``, ``assist``): the
        registry's deal facts (ledger.core.registry) these rules offer."""
        from ledger.core.registry import extras

        return extras(self)

    def ranked_text(self) -> str:
        """``pay 1, 2, 3 x stake; x2 if one holds 10+``: the ranked payments as said."""
        pays = ", ".join(str(p) for p in self.rank_payments)
        return _("losers pay {pays} units by cards left; x{factor} if one holds {threshold}+").format(
            pays=pays, factor=self.over_threshold_factor, threshold=self.rank_threshold)

    def tiers_text(self) -> str:
        """``1-9 x1, 10-12 x2, 13 x3``: the tiers as players say them."""
        parts = []
        for i, (lower, mult) in enumerate(self.tiers):
            upper = self.tiers[i + 1][0] - 1 if i + 1 < len(self.tiers) else self.hand_size
            span = str(lower) if lower == upper else f"{lower}-{upper}"
            parts.append(f"{span} x{mult}")
        return ", ".join(parts)


# The description of a rule file that gives none: stored in English, shown translated.
BASED_ON = N_("based on {base}; this file sets {keys}")


# --- validation -----------------------------------------------------------

OPTION_KEYS = RuleSet._fields
FILE_KEYS = (*OPTION_KEYS, "base", "fry_threshold")


def rules_from_mapping(
    data: Mapping[str, Any], *, base: RuleSet | None = None, origin: str = "rules",
    checked_text: bool = True,
) -> RuleSet:
    """Build a validated RuleSet from ``data`` laid over ``base`` (default: ``classic``).

    ``data`` may name ``base`` (a preset), any option and ``fry_threshold``.
    Every problem raises :class:`RuleError` naming the key and what is allowed.
    """
    unknown = sorted(set(data) - set(FILE_KEYS))
    if unknown:
        raise RuleError(_("{origin}: unknown rule '{key}'; allowed keys: {keys}").format(
            origin=origin, key=unknown[0], keys=", ".join(FILE_KEYS)))
    if "base" in data:
        if base is not None:
            raise RuleError(_("{origin}: 'base' cannot be used here").format(origin=origin))
        base = load_preset(want_text("base", data["base"]))
    if base is None:
        base = load_preset("classic")
    if "tiers" in data and "fry_threshold" in data:
        raise RuleError(_("{origin}: give either 'tiers' or 'fry_threshold', not both").format(
            origin=origin))

    from ledger.core.registry import OPTIONS, Checking

    values: dict[str, Any] = {}
    hand_size = OPTIONS["hand_size"].check(data.get("hand_size", base.hand_size),
                                           Checking(base.hand_size, base, origin))
    values["hand_size"] = hand_size
    checking = Checking(hand_size, base, origin)
    for key in ("name", "description", "source"):
        if key in data:
            values[key] = want_text(key, data[key])
            if key != "name" and checked_text:  # free text reaches the terminal: no escapes
                try:
                    values[key] = clean_text(values[key], _("rule '{key}'").format(key=key),
                                             MAX_SESSION_NAME)
                except InputError as exc:
                    raise RuleError(f"{origin}: {exc}") from None
    if "name" in data:
        try:
            values["name"] = clean_name(values["name"], N_("rule name"))
        except InputError as exc:
            raise RuleError(f"{origin}: {exc}") from None
    if "fry_threshold" in data:
        if hand_size != 13:
            raise RuleError(_("{origin}: 'fry_threshold' needs hand_size 13, not {hand_size}").format(
                origin=origin, hand_size=hand_size))
        values["tiers"] = fry_threshold_tiers(data["fry_threshold"])
    else:  # the base's tiers are checked again against the hand size set here
        values["tiers"] = OPTIONS["tiers"].check(data.get("tiers", base.tiers), checking)
    for key, option in OPTIONS.items():  # every other option: its registry entry checks it
        if key in data and key not in ("hand_size", "tiers"):
            values[key] = option.check(data[key], checking)
    changed = sorted(set(data) - {"base", "name", "description", "source"})
    if changed and "description" not in data:
        # The base's description speaks of the base's rules (its tiers, its extras): a file
        # that changes them gets a description saying what it is, never the stale one.
        values["description"] = BASED_ON.format(base=base.name, keys=", ".join(changed))
    rules = base._replace(**values)
    if rules.points_per_unit not in (1, 2):
        raise RuleError(_(
            "{origin}: rule 'rank_payments' {payments} would make tied losers "
            "pay 1/{parts} units; choose payments whose tied shares are whole "
            "or half units (three tied losers: a sum that divides by 3), e.g. [1, 2, 3]"
        ).format(origin=origin, payments=list(rules.rank_payments), parts=rules.points_per_unit))
    if rules.settlement == "ranked" and rules.mode != "cards":
        raise RuleError(_(
            "{origin}: ranked settlement ranks the losers by cards left; it needs mode = \"cards\""
        ).format(origin=origin))
    if rules.mode == "places" and (rules.assist or rules.missed_call or rules.immediate_wins):
        raise RuleError(_(
            "{origin}: places mode scores finishing order only; "
            "set assist = false, missed_call = false and immediate_wins = []"
        ).format(origin=origin))
    return rules


def rules_from_dict(data: Mapping[str, Any], *, checked_text: bool = False) -> RuleSet:
    """Rebuild a frozen rule set stored by :meth:`RuleSet.to_dict` (no base applied).

    ``checked_text``: refuse control characters in the description and source (for a
    file being imported; text already in the ledger is kept as it is)."""
    # The stored name is kept as it is (an old ledger's may predate the clean-text
    # rules; it is only ever shown through ledger.core.text.shown).
    name = str(data.get("name", ""))
    rest = {k: v for k, v in data.items() if k != "name"}
    origin = _("stored rules {name!r}").format(name=shown(name))
    return rules_from_mapping(rest, base=RuleSet(name=name), origin=origin,
                              checked_text=checked_text)


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
        hint = _(" (did you mean {name}?)").format(name=close[0]) if close else ""
        raise RuleError(_("unknown rule set '{name}'{hint}; presets: {names}").format(
            name=name, hint=hint, names=", ".join(names)))
    import tomllib
    from importlib import resources

    text = resources.files("ledger.core.presets").joinpath(f"{name}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    data.pop("sources", None)  # what each option's value is from: preset_sources
    return rules_from_mapping(data, base=RuleSet(name=name), origin=_("preset {name}").format(name=name))


def preset_sources(name: str) -> dict[str, str]:
    """Where each option a preset sets comes from (its file's ``[sources]`` table, play
    options as ``plays.KEY``): one option can come from different texts in different
    presets.  English, as in the catalogs."""
    import tomllib
    from importlib import resources

    load_preset(name)  # an unknown name lists the presets
    text = resources.files("ledger.core.presets").joinpath(f"{name}.toml").read_text("utf-8")
    return {str(k): str(v) for k, v in tomllib.loads(text).get("sources", {}).items()}


def preset_settings(name: str) -> dict[str, Any]:
    """The options a preset's file sets (play options as ``plays.KEY``), in file order,
    without its name, description and source."""
    import tomllib
    from importlib import resources

    load_preset(name)  # an unknown name lists the presets
    text = resources.files("ledger.core.presets").joinpath(f"{name}.toml").read_text("utf-8")
    out: dict[str, Any] = {}
    for key, value in tomllib.loads(text).items():
        if key == "plays":
            out |= {f"plays.{k}": v for k, v in value.items()}
        elif key not in ("name", "description", "source", "sources"):
            out[key] = value
    return out


def load_rules(spec: str) -> RuleSet:
    """``spec`` is a preset name or a path to a ``.toml`` rule file."""
    if not spec.endswith(".toml"):
        return load_preset(spec)
    import tomllib

    from ledger.core.limits import check_depth, read_limited

    path = Path(spec)
    what = _("rule file {spec}").format(spec=spec)
    try:  # a regular file of at most 1 MiB: never a FIFO, a device or /dev/zero
        text = read_limited(path, what).decode("utf-8")
        check_depth(text, what, toml=True)
    except OSError as exc:
        raise RuleError(_("cannot read rule file {spec}: {reason}").format(
            spec=spec, reason=exc.strerror or exc)) from None
    except UnicodeDecodeError:
        raise RuleError(_("rule file {spec} is not UTF-8 text").format(spec=spec)) from None
    except InputError as exc:
        raise RuleError(str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(_("rule file {spec} is not valid TOML: {reason}").format(
            spec=spec, reason=exc)) from None
    rules = rules_from_mapping(data, origin=_("rule file {spec}").format(spec=spec))
    if "name" not in data:
        rules = rules._replace(name=path.stem)
    try:
        return rules._replace(name=clean_name(rules.name, N_("rule name")))
    except InputError as exc:
        raise RuleError(_("rule file {spec}: {reason}").format(spec=spec, reason=exc)) from None
