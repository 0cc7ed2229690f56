"""The ranking steps behind a verdict of :mod:`ledger.core.plays`, one line each (``bigtwo
compare --explain``): the order of kinds, straights or flushes used, and the suits compared."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import pairwise

from ledger.core.cards import (
    JOKER,
    NO_SUIT_ORDER,
    RANK_NAMES,
    SUIT_SYMBOLS,
    Run,
    format_card,
    straight_runs,
)
from ledger.core.i18n import N_, _
from ledger.core.plays import (
    ACE_LOW,
    DEFAULT_RULES,
    KIND_NAMES,
    Play,
    PlayRules,
    card_value,
    classify,
    is_big_two,
    is_bomb,
    is_smack,
    kind_name,
    kind_order,
    special_verdict,
    top_run,
)


def explain(a: Play, b: Play, rules: PlayRules = DEFAULT_RULES, said: bool = False) -> list[str]:
    """The ranking steps that decide whether ``a`` may be played on ``b``, one line each:
    the order of kinds, straights or flushes used, and the suits compared.  In English
    (for JSON), or with ``said`` in the interface's language.

    >>> from ledger.core.cards import parse_cards
    >>> from ledger.core.plays import PLAY_PRESETS
    >>> hk = PLAY_PRESETS["hong-kong"]
    >>> a, b = (classify(parse_cards(t), hk) for t in ("AS 2S 3S 4S 5H", "2D 3D 4D 5D 6C"))
    >>> explain(a, b, hk)[-1]
    'A-2-3-4-5 is straight 10 of 10, 2-3-4-5-6 is 9: A-2-3-4-5 ranks higher'
    """
    t = _ if said else _english
    a, b = classify(a.cards, rules), classify(b.cards, rules)
    steps: list[str] = []
    if a.stands_for or b.stands_for or JOKER in (a.top.rank, b.top.rank):
        steps.append(t(N_("jokers (Wikipedia): a joker alone ranks above 2♠, the black above the "
                          "red; in a combination it stands for the card that makes the strongest "
                          "play")))
        if JOKER in (a.top.rank, b.top.rank):
            return steps
        a, b = (classify(p.stands_for, rules) if p.stands_for else p for p in (a, b))
    rule = _own_rule(a, b, rules)
    if rule is not None:
        steps.append(t(rule))
        if special_verdict(a, b, rules) is not None and (a.kind, len(a.cards)) != (
                b.kind, len(b.cards)):
            return steps
    if len(a.cards) != len(b.cards):
        size = t(N_("sizes: {a} card against {b}; a play is beaten only by one with as many cards")
                 if len(a.cards) == 1 else
                 N_("sizes: {a} cards against {b}; a play is beaten only by one with as many cards"))
        steps.append(size.format(a=len(a.cards), b=len(b.cards)))
        if rules.bombs == "beat-anything":
            steps.append(t(N_("bombs beat-anything: four of a kind + 1 or a straight flush beats any "
                              "single, pair or triple (A is one)") if is_bomb(a) else
                           N_("bombs beat-anything: four of a kind + 1 or a straight flush beats any "
                              "single, pair or triple (A is none)")))
        return steps
    if len(a.cards) == 5 and rules.five_card_order == "by-value":
        steps.append(t(N_("five-card plays (by-value): the card value decides first, whatever "
                          "the kind: a straight's or a flush's top card, a full house's triple, "
                          "the four of a four of a kind")))
        va, vb = (RANK_NAMES[p.top.rank] for p in (a, b))
        if card_value(a, rules) != card_value(b, rules):
            steps.append(t(N_("card values {a} against {b}: the value decides")).format(a=va, b=vb))
            return steps
        steps.append(t(N_("card values {a} against {b}: equal, so the usual order decides")).format(
            a=va, b=vb))
    if len(a.cards) == 5:
        order = kind_order(rules)
        steps.append(t(N_("five-card kinds ({order}), low to high: {kinds}")).format(
            order=rules.five_card_order, kinds=" < ".join(t(KIND_NAMES[k]) for k in order)))
        if a.key[0] != b.key[0]:
            steps.append(t(N_("{a} against {b}: the kind decides")).format(
                a=t(kind_name(a, rules)), b=t(kind_name(b, rules))))
            return steps
    if a.kind in ("straight", "straight-flush", "straight-flush-plus-two"):
        runs = straight_runs(rules.straights)
        steps.append(t(N_("straights ({style}), low to high: {runs}")).format(
            style=rules.straights, runs=_run_ladder(runs)))
        run_a, run_b = top_run(a, rules), top_run(b, rules)
        if len(a.cards) > 5:
            steps.append(t(N_("a straight of more than five cards ranks by the five at its top: "
                              "{x} against {y}")).format(x=run_a, y=run_b))
        top = max(run.level for run in runs) + 1
        place = t(N_("{a} is straight {n} of {top}, {b} is {m}")).format(
            a=run_a, n=run_a.level + 1, top=top, b=run_b, m=run_b.level + 1)
        if run_a.level == run_b.level:
            steps.append(t(N_("{places}: the same place")).format(places=place))
        else:
            higher = run_a if run_a.level > run_b.level else run_b
            steps.append(t(N_("{places}: {run} ranks higher")).format(places=place, run=higher))
            return steps
    elif a.kind == "flush":
        steps.append(t(N_("flushes ({style}): {how}")).format(style=rules.flushes, how=t({
            "suit-first": N_("the suit first, then the ranks from the top down"),
            "top-card-first": N_("the top card's rank first, then the suit"),
            "poker": N_("all five ranks from the top down, then the suit"),
        }[rules.flushes])))
        ranks_a, ranks_b = (tuple(c.rank for c in reversed(p.cards)) for p in (a, b))  # high first
        steps.append(t(N_("ranks {a} against {b}; suits {x} against {y}")).format(
            a="-".join(RANK_NAMES[r] for r in ranks_a), b="-".join(RANK_NAMES[r] for r in ranks_b),
            x=SUIT_SYMBOLS[a.top.suit], y=SUIT_SYMBOLS[b.top.suit]))
        steps.append(_suit_step(rules, t))
        return steps
    elif a.kind in ("full-house", "four-of-a-kind", "triple-plus-two"):
        big_a, big_b = (Counter(c.rank for c in p.cards).most_common(1)[0][0] for p in (a, b))
        kind = "four-of-a-kind" if a.kind == "four-of-a-kind" else "full-house"  # a triple decides
        what = {(False, "full-house"): N_("the triple decides: {a} against {b} (2 high, 3 low)"),
                (False, "four-of-a-kind"): N_("the four decides: {a} against {b} (2 high, 3 low)"),
                (True, "full-house"): N_("the triple decides: {a} against {b} (K high, A low)"),
                (True, "four-of-a-kind"): N_("the four decides: {a} against {b} (K high, A low)"),
                }[rules.rank_order == ACE_LOW, kind]
        steps.append(t(what).format(a=RANK_NAMES[big_a], b=RANK_NAMES[big_b]))
        return steps
    else:
        ranks = (N_("ranks, high to low: K Q J 10 9 8 7 6 5 4 3 2 A; {a} against {b}")
                 if rules.rank_order == ACE_LOW else
                 N_("ranks, high to low: 2 A K Q J 10 9 8 7 6 5 4 3; {a} against {b}"))
        steps.append(t(ranks).format(a=RANK_NAMES[a.top.rank], b=RANK_NAMES[b.top.rank]))
        if a.top.rank != b.top.rank:
            return steps
    steps.append(t(N_("{suits}; compared: {a} against {b}")).format(
        suits=_suit_step(rules, t), a=format_card(a.top, True), b=format_card(b.top, True)))
    if a.cards == b.cards:
        steps.append(t(N_("the same cards (two decks): an identical play beats (identical_beats)")
                       if rules.identical_beats else
                       N_("the same cards (two decks): an identical play does not beat")))
    return steps


def _own_rule(a: Play, b: Play, rules: PlayRules) -> str | None:
    """The line naming an option that plays by its own rule, where one of the plays is its."""
    kinds = {a.kind, b.kind}
    fours = any(p.kind == "four-of-a-kind" and len(p.cards) == 4 for p in (a, b))
    if rules.smack_down and ("pairs-run" in kinds or fours or (
            is_smack(a) and is_big_two(b, rules))):
        return N_("smack_down (Wikipedia): four of a kind or a run of three or more pairs beats "
                  "a single 2♠; only a higher four of a kind, or a higher run of pairs as long, "
                  "beats that (the smack back)")
    if rules.straight_flush_plus_two and ("straight-flush-plus-two" in kinds or any(
            p.kind == "four-of-a-kind" and len(p.cards) == 5 for p in (a, b))):
        return N_("straight_flush_plus_two (pagat, Todd Latta): four of a kind plus a card, or a "
                  "straight flush plus two, beats any other play; the first only by a higher one "
                  "or a straight flush plus two, the second only by a higher one")
    if "dragon" in kinds:
        return N_("dragon_play (Wikipedia): the 13-card dragon is led once you have control; only "
                  "a dragon whose 2 is of a higher suit beats it")
    return None


def _english(message: str) -> str:
    return message


def _suit_step(rules: PlayRules, t: Callable[[str], str]) -> str:
    if rules.suit_order == NO_SUIT_ORDER:
        return t(N_("suits (suit_order none) never break a tie: equal ranks do not beat each other"))
    return t(N_("suits (suit_order {order}), high to low: {suits}")).format(
        order=rules.suit_order, suits=" ".join(SUIT_SYMBOLS[s] for s in rules.suit_order))


def _run_ladder(runs: tuple[Run, ...]) -> str:
    """``3-4-5-6-7 < … < 10-J-Q-K-A < 2-3-4-5-6 = A-2-3-4-5``: the lowest run, the runs
    holding an ace or a two (where the styles differ) and the highest; ``=`` joins
    runs of one level."""
    shown = [i for i, run in enumerate(runs)
             if i in (0, len(runs) - 1) or {14, 15} & set(run.ranks)]
    out = str(runs[0])
    for before, i in pairwise(shown):
        if i > before + 1:
            out += " < …"
        out += (" = " if runs[i].level == runs[i - 1].level else " < ") + str(runs[i])
    return out
