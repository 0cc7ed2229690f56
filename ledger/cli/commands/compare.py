"""``bigtwo compare``: may play A be played on play B, under the table's house options.

See docs/plays.md.  Only typer, the standard library and ledger.cli.common are imported
here at load time; the rest is imported by the command that needs it.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from ledger.cli.common import GIVEN_RULES, JsonOpt, SessionOpt, db_path, open_db
from ledger.core.i18n import _

RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules", callback=GIVEN_RULES,
        help="Preset name or rule file .toml (default: the current session's rules, else classic).",
    ),
]


def register(app: typer.Typer) -> None:
    app.command("compare")(compare_cmd)



def compare_cmd(
    ctx: typer.Context,
    a: Annotated[str, typer.Argument(help='The play you want to make, e.g. "3S 4S 5S 6S 7D".')],
    b: Annotated[str, typer.Argument(help='The play on the table, e.g. "3D 4D 5D 6D 7C".')],
    rules: RulesOpt = None,
    session: SessionOpt = None,
    json_out: JsonOpt = False,
    explain_steps: Annotated[
        bool,
        typer.Option("--explain", help="Also print the ranking steps that decided: the order "
                     "of kinds, straights or flushes used and the suits compared."),
    ] = False,
) -> None:
    """May play A be played on play B?  bigtwo compare "2D 3D 4D 5D 6C" "AS 2S 3S 4S 5H"

    Judged under --rules, else the session's frozen rules, else classic.  A play that is
    not a play (unknown or repeated card, no legal combination) exits 2 naming the problem.
    """
    from ledger.core.play_steps import explain
    from ledger.core.plays import compare

    rule_set = _rules_for_compare(ctx, rules, session)
    house = rule_set.play_rules()
    first, second = _play("A", a, house), _play("B", b, house)
    verdict = compare(first, second, house)
    if json_out:
        steps = explain(first, second, house) if explain_steps else []  # English
        from ledger.present.text import dumps

        typer.echo(dumps({
            "beats": verdict.beats,
            "a": _play_dict(first),
            "b": _play_dict(second),
            "reason": verdict.reason,
            "rules": rule_set.name,
            "plays": house.to_dict(),
            **({"steps": steps} if explain_steps else {}),
        }))
        return
    answer = _("yes: {reason}") if verdict.beats else _("no: {reason}")
    typer.echo(answer.format(reason=verdict.said or verdict.reason))
    for step in explain(first, second, house, said=True) if explain_steps else []:
        typer.echo(f"  {step}")
    typer.echo(_("rules {name}: {options}").format(name=rule_set.name, options=_options_text(house)))


def _rules_for_compare(ctx: typer.Context, spec: str | None, session: int | None) -> Any:
    """--rules, else --session's or the current session's frozen rules, else classic.

    A ledger that does not exist yet is not created just to answer a question.
    """
    from ledger.core.errors import InputError
    from ledger.core.rules import load_preset, load_rules

    if spec is not None:
        if session is not None:
            raise InputError(_("give --rules or --session, not both"))
        return load_rules(spec)
    path = db_path(ctx)[0]
    if session is None and not os.path.exists(path):
        return load_preset("classic")
    from ledger.book import actions as book

    with open_db(ctx) as ledger:
        if session is None and ledger.journal.get_setting(book.CURRENT_KEY) is None:
            return load_preset("classic")
        return book.session_rules(book.current_session(ledger, session))


def _play(label: str, text: str, house: Any) -> Any:
    from ledger.core.cards import parse_cards
    from ledger.core.errors import InputError
    from ledger.core.plays import classify, copies

    try:
        return classify(parse_cards(text, copies(house), house.jokers), house)
    except InputError as exc:
        raise InputError(_("play {label} ({text!r}): {reason}").format(
            label=label, text=text.strip(), reason=exc)) from None


def _play_dict(play: Any) -> dict[str, Any]:
    from ledger.core.cards import format_card

    return {
        "kind": play.kind,
        "cards": [format_card(c) for c in play.cards],
        "top": format_card(play.top),
        "text": play.describe(),
    }


def _options_text(house: Any) -> str:
    from ledger.core.plays import DEFAULT_RULES

    changed = [
        f"{key} {value}" for key, value in house.to_dict().items()
        if value != DEFAULT_RULES.to_dict()[key]
    ]
    return ", ".join(changed) if changed else _("default play options")
