"""``bigtwo rules list`` and ``rules show`` as text: which options each preset sets,
and every option of a rule set explained in one line with its source."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.core.i18n import N_
from ledger.core.registry import OPTIONS, extras, play_options
from ledger.core.rules import RuleSet

# Shown in their own columns of ``rules list`` (scoring, extras, settlement): the
# registry says which column each option belongs to.
_OWN_COLUMNS = frozenset(key for key, option in OPTIONS.items() if option.column != "also")


def scoring_text(rules: RuleSet) -> str:
    """The scoring column: tiers, places or ranked payments."""
    from ledger.core.i18n import _

    if rules.mode == "places":
        return _("places {points}").format(points=", ".join(str(p) for p in rules.place_points))
    if rules.settlement == "ranked":
        return rules.ranked_text()
    return rules.tiers_text()


def setting_text(key: str, value: Any) -> str:
    """``next_deal winner``, ``assist_single_only`` (true), ``plays.suit_order SHDC``."""
    if value is True:
        return key
    if value is False:
        return f"{key} false"
    return f"{key} {value}"


def rules_list_text(presets: Sequence[RuleSet], settings: Mapping[str, Mapping[str, Any]]) -> str:
    """One row per preset; ``also sets``: the options its file sets beyond the other columns."""
    from ledger.present.text import table

    rows = []
    for r in presets:
        also = [
            setting_text(k, v) for k, v in settings[r.name].items()
            if k not in _OWN_COLUMNS and not (k == "hand_size" and v == 13)
        ]
        rows.append([r.name, scoring_text(r), ", ".join(extras(r)) or "-", r.settlement,
                     ", ".join(also) or "-"])
    from ledger.core.i18n import _

    headers = [_("preset"), _("scoring"), _("extras"), _("settlement"), _("also sets")]
    return table(rows, headers, align_right=False)


def rules_show_lines(rules: RuleSet, sources: Mapping[str, str] | None = None) -> list[str]:
    """The rule set's name, source and scoring, then every option as
    ``key = value: what it decides (source)``; play options as ``plays.key``.

    ``sources`` (a preset's, :func:`ledger.core.rules.preset_sources`) name where the
    value of each option it sets comes from; the others show the texts the option is
    found in (the registry's)."""
    from ledger.core.i18n import _

    sources = sources or {}
    # A shipped rule set's description is in the catalogs; a file's own stays as written.
    lines = [f"{rules.name}: {description(rules.description)}"]
    if rules.source:  # a shipped rule set's sources are in the catalogs too
        lines.append(_("source: {source}").format(source=_(rules.source)))
    if rules.mode == "places":
        points = ", ".join(str(p) for p in rules.place_points)
        lines.append(_("places: {points}").format(points=points))
    elif rules.settlement == "ranked":
        lines.append(_("ranked: {payments}").format(payments=rules.ranked_text()))
    else:
        lines.append(_("tiers: {tiers}").format(tiers=rules.tiers_text()))
    plays = play_options()
    for key, value in rules.to_dict().items():
        if key in ("name", "description", "source"):
            continue
        if key == "plays":  # every play option, the ones not named at their defaults
            for play_key, play_value in rules.play_rules().to_dict().items():
                option = plays[f"plays.{play_key}"]
                lines.append(_option_line(option.name, play_value, option.help,
                                          sources.get(option.name, option.source)))
            continue
        option = OPTIONS[key]
        lines.append(_option_line(key, value, option.help, sources.get(key, option.source)))
    return lines


# Each shipped preset's name as a player says it (the phone's start form shows these; the
# slug stays the preset's name in files, the command line and the JSON).
PRESET_TITLES = {
    "classic": N_("Classic (pairwise)"),
    "pay-the-winner": N_("Pay the winner"),
    "doubling": N_("Doubling"),
    "hong-kong": N_("Hong Kong"),
    "hong-kong-online": N_("Hong Kong online / mainland"),
    "da-lao-er": N_("Da Lao Er (大老二)"),
    "choi-dai-di": N_("Choi Dai Di (French rules)"),
    "taiwan": N_("Taiwan (ranked)"),
    "three-player": N_("Three players"),
    "places": N_("By finishing place"),
}


def title(name: str) -> str:
    """A rule set's name in the interface's language: a shipped preset's title, else
    its own name as written."""
    from ledger.core.i18n import _

    return _(PRESET_TITLES[name]) if name in PRESET_TITLES else name


def source(text: str) -> str:
    """A rule set's source in the interface's language (the public names stay)."""
    from ledger.core.i18n import _

    return _(text) if text else ""


def description(text: str) -> str:
    """A rule set's description in the interface's language: a shipped one from the
    catalogs, a file's "based on …" as made for it; a file's own as written."""
    import re

    from ledger.core.i18n import _
    from ledger.core.rules import BASED_ON

    made = re.fullmatch(r"based on (?P<base>\S+); this file sets (?P<keys>[\w, ]+)", text)
    if made:
        return _(BASED_ON).format(**made.groupdict())
    return _(text) if text else ""


def _option_line(key: str, value: Any, what: str, source: str) -> str:
    """``  key = value: what it decides (source)``, the words in the interface's language."""
    from ledger.core.i18n import _

    return "  " + _("{key} = {value}: {what} ({source})").format(
        key=key, value=_value(value), what=_(what), source=_(source))


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value).replace("'", '"').replace("(", "[").replace(")", "]")
