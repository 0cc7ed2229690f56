"""Scoring: a deal's facts + the session's rule set -> penalties and net points.

Pure functions, no storage, no terminal.  Numbers follow docs/scoring.md:

    p_i = c_i x tier(c_i) x twos_factor x bombs_factor x finish_factor

then the penalty transfers (assist, missed call), then net points (pairwise
``net_i = sum(p') - n*p'_i`` or pay-the-winner).

>>> from ledger.core.rules import load_preset
>>> seats = ["North", "East", "West", "South"]
>>> deal = Deal(cards={"North": 0, "East": 3, "West": 11, "South": 8})
>>> score_deal(load_preset("pay-the-winner"), seats, deal).net
{'North': 33, 'East': -3, 'West': -22, 'South': -8}
"""

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, TypeGuard, get_args

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.rule_set import IMMEDIATE_WINS, ImmediateWin, RuleSet
from ledger.core.seating import check_taker, hands, own_hands, twos_in_play
from ledger.core.seating import largest_hand as _largest
from ledger.core.seating import teams_of as teams_of  # read here by the reports and money

Finish = Literal["two", "quads", "straight-flush"]  # the winner's last play, when it doubles
FINISHES: tuple[Finish, ...] = get_args(Finish)
IMMEDIATE = IMMEDIATE_WINS


def is_finish(text: str) -> TypeGuard[Finish]:
    """Whether ``text`` names a finish (narrows it to :data:`Finish` for the type checker)."""
    return text in FINISHES

MULTI_CARD_FINISHES = ("quads", "straight-flush")  # five cards: never an assisted single


# The default of a fact nobody stated: an empty mapping that cannot be changed (one,
# shared by every Deal that leaves the fact out).
NOTHING: Mapping[str, Any] = MappingProxyType({})


class Deal(NamedTuple):
    """The facts of one deal, as entered at the table (see docs/scoring.md)."""

    cards: Mapping[str, int] = NOTHING
    twos: Mapping[str, int] = NOTHING
    bombs: Mapping[str, int] = NOTHING
    finish: Finish | None = None
    assist: str | None = None
    missed_call: bool = False
    immediate: ImmediateWin | None = None
    immediate_by: str | None = None
    order: tuple[str, ...] | None = None
    shootout: str | None = None
    # Cards typed for a loser instead of a count ("2S 2H 5D"): kept as entered.
    hands: Mapping[str, str] = NOTHING
    leftovers: str | None = None  # who took the leftover cards (ledger.core.seating)
    players: tuple[str, ...] | None = None  # who played, when not the starting seats (lineup.py)

    def to_dict(self) -> dict[str, Any]:
        """Compact JSON-ready facts: only what was said."""
        out: dict[str, Any] = {}
        if self.cards:
            out["cards"] = dict(self.cards)
        for key in ("twos", "bombs", "hands"):
            value = {k: v for k, v in getattr(self, key).items() if v}
            if value:
                out[key] = value
        for key in ("finish", "assist", "immediate", "immediate_by", "shootout", "leftovers"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.missed_call:
            out["missed_call"] = True
        out.update({k: list(v) for k in ("order", "players") if (v := getattr(self, k)) is not None})
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Deal":
        known = set(cls._fields)
        unknown = set(data) - known
        if unknown:
            raise InputError(_("unknown deal fact(s): {facts}").format(facts=", ".join(sorted(unknown))))
        values = dict(data)
        for key in ("order", "players"):
            values[key] = None if values.get(key) is None else tuple(values[key])
        return cls(**values)

    @property
    def winner(self) -> str:
        """Who won the deal: went out, the immediate winner, or first place."""
        if self.immediate_by is not None:
            return self.immediate_by
        if self.order:
            return self.order[0]
        return next(name for name, c in self.cards.items() if c == 0)


class DealScore(NamedTuple):
    """Derived points of one deal.  ``net`` sums to zero.

    In teams mode ``net`` is the team's net for each member (a member's money
    share is half of it) and ``wins`` marks both members of the winning team.
    """

    cards: dict[str, int]
    wins: dict[str, bool]
    fried: dict[str, bool]
    base_penalty: dict[str, int]
    penalty: dict[str, int]
    net: dict[str, int]
    payee: dict[str, str | None]  # who each player's pay-the-winner flow is with


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


# --- scoring ------------------------------------------------------------------


def _factor(option: str, count: int) -> int:
    if option == "each":
        return int(2**count)
    if option == "once" and count > 0:
        return 2
    return 1


def base_penalties(
    rules: RuleSet, seats: Sequence[str], deal: Deal, finish_counts: bool = True,
    cards: Mapping[str, int] | None = None, own: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Each player's penalty before transfers (docs/scoring.md, "A loser's penalty");
    ``finish_counts`` False: the finish doubles nobody (teams, the side that went out lost).
    ``cards`` and ``own``, when given, are ``effective_cards`` and ``own_hands`` of them,
    worked out once by the caller."""
    if rules.mode == "places":
        assert deal.order is not None
        return {n: rules.place_points[deal.order.index(n)] for n in seats}
    if cards is None:
        cards = effective_cards(rules, seats, deal)
    if rules.settlement == "ranked":
        from ledger.core.ranked import ranked_penalties

        return ranked_penalties(rules, cards, deal.winner)
    if deal.immediate is not None:
        return {n: c * immediate_multiplier(rules, deal, c) for n, c in cards.items()}
    finish = 2 if finish_counts and rules.finish_double and _doubling_finish(rules, deal.finish) else 1
    if own is None:
        own = own_hands(rules, cards, deal.leftovers)
    capped = rules.draw_from_stock and rules.stock_scoring == "full-hand"
    twos, bombs = deal.twos, deal.bombs
    out = {}
    for name in seats:
        c = cards[name]
        if capped:
            c = min(c, rules.hand_size)  # Wikipedia is silent above a full hand
        out[name] = (
            c
            * rules.tier_for(c, own[name])
            * (_factor(rules.twos, twos[name]) if name in twos else 1)
            * (_factor(rules.bombs, bombs[name]) if name in bombs else 1)
            * finish
        )
    return out


def _doubling_finish(rules: RuleSet, finish: str | None) -> bool:
    """Quads and straight flushes double; a two only under finish_two = "double"."""
    if finish == "two":
        return rules.finish_two == "double"
    return finish in FINISHES


def immediate_multiplier(rules: RuleSet, deal: Deal, cards: int) -> int:
    """The tier of a full hand, or x3 for four twos under four_twos = "tripled"
    (Wikipedia: "The score (card count) of the losing players is tripled")."""
    if deal.immediate == "four-twos" and rules.four_twos == "tripled" and cards:
        return 3
    if deal.immediate == "four-twos" and rules.four_twos == "draw":
        return 0  # Wikipedia: "an automatic draw when 1 player has all 4 twos"
    return rules.tier_for(cards, cards)  # a full hand: all your cards


def is_fried(rules: RuleSet, deal: Deal, cards: int, name: str = "",
             own: Mapping[str, int] | None = None) -> bool:
    """A loser multiplied by the card count: a tier above x1, four twos tripled, or
    (ranked) holding the threshold or more.  ``own``, when given, is ``own_hands`` of the
    deal's cards, worked out once by the caller."""
    if rules.mode != "cards" or cards == 0:
        return False
    if rules.settlement == "ranked":
        return cards >= rules.rank_threshold
    if deal.immediate is not None:
        return immediate_multiplier(rules, deal, cards) > 1
    if own is None:
        own = own_hands(rules, deal.cards, deal.leftovers)
    return rules.tier_for(cards, own.get(name, cards)) > 1


def effective_cards(rules: RuleSet, seats: Sequence[str], deal: Deal) -> dict[str, int]:
    """Cards scored for each player: an immediate win scores a full hand for the others."""
    if deal.immediate is not None:
        full = own_hands(rules, dict.fromkeys(seats, 0), deal.leftovers)  # the taker's: + leftovers
        return {n: 0 if n == deal.immediate_by else full[n] for n in seats}
    if rules.mode == "places":
        return {n: 0 for n in seats}
    return {n: deal.cards[n] for n in seats}


def score_deal(
    rules: RuleSet, seats: Sequence[str], deal: Deal, teams: bool = False
) -> DealScore:
    """Validate and score one deal; raises InputError for impossible facts."""
    validate(rules, seats, deal, teams)
    cards = effective_cards(rules, seats, deal)
    # Every seat's own hand, once: the played cards name every seat (validated above), so
    # own_hands of them is what base_penalties and is_fried each work out.
    own = (own_hands(rules, deal.cards, deal.leftovers)
           if rules.mode == "cards" and rules.settlement != "ranked" and deal.immediate is None
           else None)
    base = base_penalties(rules, seats, deal, cards=cards, own=own)
    fried = {n: is_fried(rules, deal, cards[n], n, own) for n in seats}
    if teams:
        return _score_teams(rules, seats, deal, cards, base, fried)
    winner = deal.winner
    total = sum(base.values())
    penalty = dict(base)
    if deal.assist is not None:
        penalty = {n: total if n == deal.assist else 0 for n in seats}
    elif deal.missed_call:
        penalty = {n: total if n == winner else 0 for n in seats}
    net: dict[str, int]
    payee: dict[str, str | None] = {n: None for n in seats}
    if rules.settlement == "pairwise":
        n_players = len(seats)
        net = {n: total - n_players * penalty[n] for n in seats}
    elif deal.missed_call:
        # The flows reverse: the winner pays each player their own penalty.
        net = {n: base[n] for n in seats}
        net[winner] = -total
        payee = {n: (winner if n != winner else None) for n in seats}
    else:
        net = {n: -penalty[n] for n in seats}
        net[winner] = sum(penalty.values())
        payee = {n: (winner if n != winner else None) for n in seats}
    drawn = deal.immediate == "four-twos" and rules.four_twos == "draw"
    wins = {n: n == winner and not drawn for n in seats}
    return DealScore(cards, wins, fried, base, penalty, net, payee)


def _score_teams(
    rules: RuleSet,
    seats: Sequence[str],
    deal: Deal,
    cards: dict[str, int],
    base: dict[str, int],
    fried: dict[str, bool],
) -> DealScore:
    """Fewer team cards wins; the losing team pays the sum of its members' penalties."""
    team_a, team_b = teams_of(seats)
    if deal.immediate is not None:
        winners = team_a if deal.immediate_by in team_a else team_b
    else:
        count_a = sum(cards[n] for n in team_a)
        count_b = sum(cards[n] for n in team_b)
        if count_a != count_b:
            winners = team_a if count_a < count_b else team_b
        else:
            winners = team_a if deal.shootout in team_a else team_b
    if rules.finish_side == "winning-side" and deal.finish is not None and deal.immediate is None:
        went_out = next(n for n in seats if cards[n] == 0)
        if went_out not in winners:  # the winner is the winning side, which did not finish
            base = base_penalties(rules, seats, deal, finish_counts=False)
    penalty = {n: 0 if n in winners else base[n] for n in seats}
    owed = sum(penalty.values())
    net = {n: owed if n in winners else -owed for n in seats}
    wins = {n: n in winners for n in seats}
    payee: dict[str, str | None] = {n: None for n in seats}
    return DealScore(cards, wins, fried, base, penalty, net, payee)
