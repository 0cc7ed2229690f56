"""Rule sets: every house-rule variant is data, never an ``if`` somewhere else.

Presets ship as TOML files in ``ledger/core/presets``; a user rule file is TOML too
and starts from a preset (``base``, default ``classic``) and overrides options.
A session freezes the resulting :class:`RuleSet` (``to_dict``) when it starts, so
editing a preset later never changes recorded history.  The type itself and the
choices of its fields are :mod:`ledger.core.rule_set`; here a rule set is built from a
mapping (a rule file, a stored dict, a preset) and checked against the registry of
options (:mod:`ledger.core.registry`).

>>> classic = load_preset("classic")
>>> [classic.tier(c) for c in (9, 10, 12, 13)]
[1, 2, 2, 3]
>>> rules_from_mapping({"fry_threshold": 11}).tiers
((1, 1), (11, 2), (13, 3))
"""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ledger.core.errors import InputError, RuleError
from ledger.core.i18n import N_, _
from ledger.core.rule_set import RuleSet as RuleSet  # the type, named here for its users
from ledger.core.rule_values import fry_threshold_tiers, want_text
from ledger.core.text import MAX_SESSION_NAME, clean_name, clean_text, shown

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
