"""The dealer's helpers: who receives the first card (``cut``) and may a hand be redealt
(``redeal-check``).

See docs/at-the-table.md.  Only typer, the standard library and ledger.cli.common are
imported here at load time; the rest is imported by the command that needs it.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ledger.cli.common import GIVEN_RULES, JsonOpt, SessionOpt, open_db
from ledger.core.i18n import _


def register(app: typer.Typer) -> None:
    app.command("cut")(cut_cmd)
    app.command("redeal-check")(redeal_check_cmd)



def cut_cmd(
    ctx: typer.Context,
    card: Annotated[str, typer.Argument(help="The exposed card, e.g. 7H or 10♠.")],
    dealer: Annotated[
        str | None,
        typer.Option("--dealer", help="Who deals (default: who deals next in the session)."),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", help="Seats in playing order, Ann,Ben,Cat,Dan (default: the session's)."),
    ] = None,
    session: SessionOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Who receives the first card: count from the dealer by the exposed card's rank."""
    from ledger.core.cards import format_card
    from ledger.core.deal_line import match_player
    from ledger.core.dealer import cut
    from ledger.core.errors import InputError

    exposed = _one_card(card)
    seats, next_dealers = _seating(ctx, players, session)
    if dealer is not None:
        who = match_player(dealer, seats, "--dealer")
    elif len(next_dealers) == 1:
        who = next_dealers[0]
    else:
        raise InputError(_("{players} deal next (tied on most cards): say who with --dealer NAME")
                         .format(players=_(" or ").join(next_dealers)))
    result = cut(exposed, seats, who)
    if json_out:
        from ledger.present.text import dumps

        typer.echo(dumps({"card": format_card(exposed), "count": result.count,
                          "dealer": result.dealer, "receiver": result.receiver,
                          "players": list(seats)}))
        return
    start = seats.index(result.dealer)
    lap = min(result.count, len(seats))
    counted = ", ".join(f"{seats[(start + i) % len(seats)]} {i + 1}" for i in range(lap))
    if result.count > lap:
        counted += f", … {result.receiver} {result.count}"
    typer.echo(_("{card} counts {count} from the dealer, {dealer}: {counted}").format(
        card=format_card(exposed, symbols=True), count=result.count, dealer=result.dealer,
        counted=counted))
    typer.echo(_("{player} receives the first card").format(player=result.receiver))


def _one_card(text: str) -> Any:
    from ledger.core.cards import parse_cards
    from ledger.core.errors import InputError

    cards = parse_cards(text)
    if len(cards) != 1:
        raise InputError(_("give the one exposed card, e.g. 7H; got {count} cards in {text!r}")
                         .format(count=len(cards), text=text))
    return cards[0]


def _seating(
    ctx: typer.Context, players: str | None, session: int | None
) -> tuple[list[str], tuple[str, ...]]:
    """Seats and who would deal: --players (the first one deals), else the session's seats
    and who deals next there (ledger.core.dealer.next_turn; several on a tie)."""
    from ledger.core.errors import InputError

    if players is not None:
        if session is not None:
            raise InputError(_("give --players or --session, not both"))
        from ledger.book.actions import check_player_names

        seats = check_player_names(players.split(","))
        from ledger.core.seating import MAX_SEATS, MIN_SEATS

        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise InputError(_("a table seats {least} to {most} players, not {count}").format(
                least=MIN_SEATS, most=MAX_SEATS, count=len(seats)))
        return seats, (seats[0],)
    from ledger.book import actions as book
    from ledger.core.dealer import next_turn_from_facts

    with open_db(ctx) as ledger:
        s = book.current_session(ledger, session)
        facts = [e.facts for e in ledger.journal.live_deals(s.id) if e.facts is not None]
    turn = next_turn_from_facts(s.seats, book.session_rules(s), facts)
    return list(s.seats), turn.dealers


def redeal_check_cmd(
    cards: Annotated[str, typer.Argument(help='The hand as dealt, e.g. "3D 4S 7H JC QD ...".')],
    rules_name: Annotated[str, typer.Option(
        "--rules", callback=GIVEN_RULES,
        help="A preset or rule file (.toml): may four twos ask too.")] = "classic",
    json_out: JsonOpt = False,
) -> None:
    """May this hand ask for a redeal?  J=1 Q=2 K=3 A=4 2=5; 3 points or fewer may."""
    from ledger.core.cards import format_card, parse_cards
    from ledger.core.dealer import HAND_POINTS, REDEAL_MAX, REDEAL_SIZES, redeal_check
    from ledger.core.errors import InputError
    from ledger.core.rules import load_rules

    rules = load_rules(rules_name)

    hand = parse_cards(cards)
    if not hand:
        raise InputError(_('no cards given: type the hand as dealt, e.g. "3D 4S 7H JC QD ..."'))
    if len(hand) not in REDEAL_SIZES:
        raise InputError(_('a hand as dealt has 13 cards (17 or 18 with three players), not '
                           '{count}: type all of them, e.g. '
                           '"3D 4S 7H JC QD 5C 6C 8C 9C 10S 3S 4S 5S"').format(count=len(hand)))
    check = redeal_check(hand, rules)
    if json_out:
        from ledger.present.text import dumps

        typer.echo(dumps(check.to_dict()))
        return
    scored = [c for c in hand if c.rank in HAND_POINTS]
    sums = " + ".join(f"{format_card(c, symbols=True)} {HAND_POINTS[c.rank]}" for c in scored)
    working = f"{sums} = {check.points}" if scored else _("0 (no J, Q, K, A or 2)")
    if check.points <= REDEAL_MAX:
        verdict = _("{most} or fewer, so the holder may ask for a redeal").format(most=REDEAL_MAX)
    elif check.may_redeal:  # all four twos, under redeal_four_twos
        verdict = _("more than {most}, but all four twos: the holder may ask for a reshuffle "
                    "(rules {name})").format(most=REDEAL_MAX, name=rules.name)
    else:
        verdict = _("more than {most}, so no redeal").format(most=REDEAL_MAX)
    typer.echo(_("{count} cards, hand points {working} — {verdict}").format(
        count=len(hand), working=working, verdict=verdict))
    if not check.may_redeal and check.face_cards == 0:
        typer.echo(_("(no J, Q or K: where the no-face-cards variant is played, a redeal may be "
                     "asked)"))

