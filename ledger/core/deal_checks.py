"""A deal's facts checked before it is scored (``ledger/core/scoring.py``): every fact
that cannot be, or that the session's rules do not score, refused with one message that
says why (docs/scoring.md), and the words the facts use (finishes, immediate wins).

Pure functions, no storage, no terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, TypeGuard, get_args

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.rule_set import IMMEDIATE_WINS, RuleSet
from ledger.core.seating import check_taker, hands, teams_of, twos_in_play
from ledger.core.seating import largest_hand as _largest

if TYPE_CHECKING:
    from ledger.core.scoring import Deal

Finish = Literal["two", "quads", "straight-flush"]  # the winner's last play, when it doubles
FINISHES: tuple[Finish, ...] = get_args(Finish)
IMMEDIATE = IMMEDIATE_WINS


def is_finish(text: str) -> TypeGuard[Finish]:
    """Whether ``text`` names a finish (narrows it to :data:`Finish` for the type checker)."""
    return text in FINISHES

MULTI_CARD_FINISHES = ("quads", "straight-flush")  # five cards: never an assisted single


# --- validation -------------------------------------------------------------


def _options_text(rules: RuleSet) -> str:
    from ledger.core.registry import extras as offered

    extras = offered(rules)
    return ", ".join(extras) if extras else _("none")


def _need_seated(name: str, seats: Sequence[str], what: str) -> None:
    if name not in seats:
        raise InputError(_("{what}: {name!r} is not seated; players: {players}").format(
            what=what, name=name, players=", ".join(seats)))


def validate(rules: RuleSet, seats: Sequence[str], deal: Deal, teams: bool = False) -> None:
    """Raise InputError for any fact that cannot be, or that these rules do not score."""
    if rules.mode == "places":
        _validate_places(rules, seats, deal)
        return
    if deal.order is not None:
        raise InputError(_(
            "a finishing order is only for places mode; rules {name!r} score cards left"
        ).format(name=rules.name))
    if deal.immediate is not None or deal.immediate_by is not None:
        _validate_immediate(rules, seats, deal)
    else:
        _validate_cards(rules, seats, deal)
    if deal.leftovers is not None:
        check_taker(rules, seats, deal.cards, deal.leftovers)
    _validate_extras(rules, seats, deal, teams)


def _validate_places(rules: RuleSet, seats: Sequence[str], deal: Deal) -> None:
    said = [
        (deal.immediate or k) if k == "immediate" else k
        for k in ("cards", "twos", "bombs", "finish", "assist", "missed_call", "immediate", "leftovers")
        if getattr(deal, k)
    ]
    if deal.order is None:
        if said:
            raise InputError(_(
                "rules {name!r} score finishing places: give --order with every player, "
                "first out first; remove: {facts}").format(name=rules.name, facts=", ".join(said)))
        raise InputError(_(
            "rules {name!r} score finishing places: give --order with every player, "
            "first out first").format(name=rules.name))
    if said:
        raise InputError(_(
            "places mode scores the finishing order only; remove: {facts}"
        ).format(facts=", ".join(said)))
    for name in deal.order:
        _need_seated(name, seats, "--order")
    if len(set(deal.order)) != len(deal.order):
        twice = sorted({n for n in deal.order if deal.order.count(n) > 1})
        raise InputError(_("--order names {names} more than once").format(names=", ".join(twice)))
    missing = [n for n in seats if n not in deal.order]
    if missing:
        raise InputError(_("--order must name every player; missing: {names}").format(
            names=", ".join(missing)))
    if len(seats) > len(rules.place_points):
        raise InputError(_(
            "rules {name!r} have place points for {count} players only"
        ).format(name=rules.name, count=len(rules.place_points)))


def _validate_immediate(rules: RuleSet, seats: Sequence[str], deal: Deal) -> None:
    kind, who = deal.immediate, deal.immediate_by
    if kind not in IMMEDIATE or who is None:
        raise InputError(_("an immediate win is one of {kinds} with a player").format(
            kinds=", ".join(IMMEDIATE)))
    if kind not in rules.immediate_wins:
        allowed = ", ".join(rules.immediate_wins) or _("none")
        raise InputError(_(
            "rules {name!r} do not allow the immediate win {kind!r}; allowed: {allowed}"
        ).format(name=rules.name, kind=kind, allowed=allowed))
    _need_seated(who, seats, f"--{kind}")
    said = [
        k for k in ("cards", "twos", "bombs", "finish", "assist", "missed_call", "hands")
        if getattr(deal, k)
    ]
    if said:
        raise InputError(_(
            "an immediate win ({kind}) scores every other player a full hand; "
            "do not also give: {facts}"
        ).format(kind=kind, facts=", ".join(said)))


def _validate_cards(rules: RuleSet, seats: Sequence[str], deal: Deal) -> None:
    if not deal.cards:
        raise InputError(_(
            "no cards given: name every player with the cards they hold, e.g. {example}"
        ).format(example=" ".join(f"{n}={0 if i == 0 else 5}" for i, n in enumerate(seats))))
    for name in deal.cards:
        _need_seated(name, seats, "cards")
    missing = [n for n in seats if n not in deal.cards]
    if missing:
        raise InputError(_(
            "no cards given for {names}; every seated player needs NAME=CARDS"
        ).format(names=", ".join(missing)))
    most = largest_hand(rules, seats)
    for name, count in deal.cards.items():
        if type(count) is not int or not 0 <= count <= most:
            raise InputError(_(
                "{player}={count}: cards left must be a whole number from 0 to "
                "{hand_size} (the hand size under rules {name!r})"
            ).format(player=name, count=count, hand_size=most, name=rules.name))
    dealt = hands(rules, len(seats))
    over = [n for n, c in deal.cards.items() if c > dealt.hand]
    if len(over) > 1:
        what = (_("{names} hold more than {hand_size} cards: only one player takes the 52nd card")
                if dealt.leftovers == 1 else
                _("{names} hold more than {hand_size} cards: only one player takes the leftover "
                  "cards"))
        raise InputError(what.format(names=", ".join(over), hand_size=dealt.hand))
    winners = [n for n, c in deal.cards.items() if c == 0]
    if not winners:
        raise InputError(_("no winner: exactly one player must have 0 cards (the one who went out)"))
    if len(winners) > 1:
        raise InputError(_(
            "{count} players have 0 cards ({names}); exactly one player goes out"
        ).format(count=len(winners), names=", ".join(winners)))


def largest_hand(rules: RuleSet, seats: Sequence[str]) -> int:
    """The most cards one player can hold (:func:`ledger.core.seating.largest_hand`)."""
    return _largest(rules, len(seats))


def _validate_counts(
    rules: RuleSet, seats: Sequence[str], deal: Deal, key: str, limit_per_card: int
) -> None:
    counts: Mapping[str, int] = getattr(deal, key)
    if not counts:
        return
    if getattr(rules, key) == "off":
        raise InputError(_(
            "rules {name!r} do not score {key}; options they score: {options}"
        ).format(name=rules.name, key=key, options=_options_text(rules)))
    winner = deal.winner
    for name, k in counts.items():
        _need_seated(name, seats, f"--{key}")
        if type(k) is not int or k < 0:
            raise InputError(_("--{key} {name}={count}: must be a whole number 0 or more").format(
                key=key, name=name, count=k))
        if k and name == winner:
            raise InputError(_("--{key} {name}: {name} went out and holds no cards").format(
                key=key, name=name))
        held = deal.cards.get(name, 0)
        if k * limit_per_card > held:
            if key == "twos" and k == 1:
                what = _("--twos {name}={count}: {count} two cannot fit in {held} cards")
            elif key == "twos":
                what = _("--twos {name}={count}: {count} twos cannot fit in {held} cards")
            elif k == 1:  # a bomb is four cards (limit_per_card)
                what = _("--bombs {name}={count}: {count} bomb (4 cards each) cannot fit in {held} cards")
            else:
                what = _("--bombs {name}={count}: {count} bombs (4 cards each) cannot fit in {held} cards")
            raise InputError(what.format(name=name, count=k, held=held))


def _validate_extras(rules: RuleSet, seats: Sequence[str], deal: Deal, teams: bool) -> None:
    _validate_counts(rules, seats, deal, "twos", 1)
    _validate_counts(rules, seats, deal, "bombs", 4)
    total_twos = sum(deal.twos.values())
    cap = twos_in_play(rules) - (1 if deal.finish == "two" else 0)
    if total_twos > cap:
        what = (_("--twos add up to {total}; the losers can hold at most {cap} (the winner's last "
                  "play held a two)") if deal.finish == "two"
                else _("--twos add up to {total}; the losers can hold at most {cap}"))
        raise InputError(what.format(total=total_twos, cap=cap))
    if deal.finish is not None:
        if deal.finish not in FINISHES:
            raise InputError(_("unknown finish {finish!r}; allowed: {allowed}").format(
                finish=deal.finish, allowed=", ".join(FINISHES)))
        if deal.finish == "two" and rules.finish_two == "forbidden":
            raise InputError(_(
                "--finish two: rules {name!r} do not allow going out on a two "
                "(finish_two = forbidden); record the deal as it was really won"
            ).format(name=rules.name))
        if not rules.finish_double:
            raise InputError(_(
                "rules {name!r} do not score the finish; options they score: {options}"
            ).format(name=rules.name, options=_options_text(rules)))
    if deal.assist is not None and deal.missed_call:
        raise InputError(_("give either --assist or --missed-call, not both, in one deal"))
    if deal.assist is not None:
        if not rules.assist:
            raise InputError(_(
                "rules {name!r} have no assist penalty; options they score: {options}"
            ).format(name=rules.name, options=_options_text(rules)))
        _need_seated(deal.assist, seats, "--assist")
        if deal.assist == deal.winner:
            raise InputError(_("--assist {name}: the winner cannot assist; name a loser").format(
                name=deal.assist))
        if rules.assist_single_only and deal.finish in MULTI_CARD_FINISHES:
            raise InputError(_(
                "--assist {player}: rules {name!r} count an assist only when the "
                "winner went out on a single card (assist_single_only), not on {finish}"
            ).format(player=deal.assist, name=rules.name, finish=deal.finish))
    if deal.missed_call and not rules.missed_call:
        raise InputError(_(
            "rules {name!r} have no missed-call penalty; options they score: {options}"
        ).format(name=rules.name, options=_options_text(rules)))
    if teams:
        if deal.assist is not None or deal.missed_call:
            raise InputError(_(
                "in teams mode a team pays together: assist and missed call do not apply"))
        _validate_shootout(seats, deal)
    elif deal.shootout is not None:
        raise InputError(_("--shootout is only for teams sessions (a tied team card count)"))


def _validate_shootout(seats: Sequence[str], deal: Deal) -> None:
    if deal.immediate is not None:
        if deal.shootout is not None:
            raise InputError(_("--shootout: an immediate win needs no shootout"))
        return
    team_a, team_b = teams_of(seats)
    count_a = sum(deal.cards[n] for n in team_a)
    count_b = sum(deal.cards[n] for n in team_b)
    if count_a == count_b:
        if deal.shootout is None:
            raise InputError(_(
                "the teams tie on {count} cards each: say which team won the shootout "
                "with --shootout NAME (a member of that team)"
            ).format(count=count_a))
        _need_seated(deal.shootout, seats, "--shootout")
    elif deal.shootout is not None:
        raise InputError(_(
            "--shootout: the teams do not tie ({a} against {b} cards), so there is no shootout"
        ).format(a=count_a, b=count_b))
