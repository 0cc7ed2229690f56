"""Ranked settlement (the Taiwanese way, ``settlement = "ranked"``): the losers pay the
winner by their rank, fewest cards first (docs/rules.md, "Ranked settlement")."""

from collections.abc import Mapping
from fractions import Fraction

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.rules import RuleSet


def ranked_penalties(rules: RuleSet, cards: Mapping[str, int], winner: str) -> dict[str, int]:
    """Points each player pays the winner under ranked settlement.

    The losers, fewest cards first, pay ``rank_payments`` units; all of them pay
    ``over_threshold_factor`` times as much when any holds ``rank_threshold`` cards or
    more; tied losers share their ranks' payments equally.  Points are
    ``units x points_per_unit``, whole numbers by construction.

    >>> from ledger.core.rules import RuleSet
    >>> taiwan = RuleSet("taiwan", settlement="ranked")
    >>> ranked_penalties(taiwan, {"A": 0, "B": 5, "C": 5, "D": 9}, "A")  # 1.5, 1.5, 3 units
    {'A': 0, 'B': 3, 'C': 3, 'D': 6}
    """
    losers = sorted((n for n in cards if n != winner), key=lambda n: cards[n])
    pays = rules.rank_payments
    if len(losers) > len(pays):
        raise InputError(_(
            "rules {name!r} give rank payments for {count} losers only "
            "(rank_payments = {payments}); this deal has {losers}"
        ).format(name=rules.name, count=len(pays), payments=list(pays), losers=len(losers)))
    over = any(cards[n] >= rules.rank_threshold for n in losers)
    factor = rules.over_threshold_factor if over else 1
    out = {n: 0 for n in cards}
    start = 0
    while start < len(losers):
        end = start
        while end < len(losers) and cards[losers[end]] == cards[losers[start]]:
            end += 1
        share = Fraction(sum(pays[start:end]), end - start) * factor * rules.points_per_unit
        assert share.denominator == 1, share  # points_per_unit makes every share whole
        for name in losers[start:end]:
            out[name] = int(share)
        start = end
    return out
