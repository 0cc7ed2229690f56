"""The engine's ops (ledger/engine/dispatch.py runs them): each reads its arguments from a
JSON object and answers a JSON-ready dict built by ``ledger.book``.  Pure Python, like
the engine: it runs in Pyodide too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ledger.book import actions as book
from ledger.book import reports
from ledger.core import i18n
from ledger.core.errors import InputError, NotFound
from ledger.core.i18n import _
from ledger.storage.rows import EntryRow, SessionRow
from ledger.storage.store import Ledger

MAX_TEXT = 2000  # characters of a deal line, a name list
MAX_KEY = 100
KEY_RE = re.compile(r"[A-Za-z0-9-]{8,100}")

Args = Mapping[str, Any]


# --- arguments ----------------------------------------------------------------------


def _text(args: Args, key: str, required: bool = True, limit: int = MAX_TEXT) -> str | None:
    value = args.get(key)
    if value is None:
        if required:
            raise InputError(_('missing "{key}" in the request').format(key=key))
        return None
    if not isinstance(value, str):
        raise InputError(_('"{key}" must be a string').format(key=key))
    if len(value) > limit:
        raise InputError(_('"{key}" is longer than {limit} characters').format(key=key, limit=limit))
    return value


def _int(args: Args, key: str) -> int:
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(_('"{key}" must be a whole number, e.g. {example}').format(
            key=key, example=f'{{"{key}": 3}}'))
    return value


def _bool(args: Args, key: str) -> bool:
    value = args.get(key, False)
    if value in ("true", "false"):
        return bool(value == "true")
    if not isinstance(value, bool):
        raise InputError(_('"{key}" must be true or false').format(key=key))
    return value


def session_of(ledger: Ledger, args: Args) -> SessionRow:
    """The session the op names (``session``: its number); every session op names one."""
    if args.get("session") is None:
        raise InputError(_('missing "session" in the request: every table is named by its '
                           'session number'))
    return book.current_session(ledger, _int(args, "session"))


def key_of(args: Args) -> str:
    """The write's idempotency key: the entry's uuid made where the action was taken."""
    key = _text(args, "key", limit=MAX_KEY)
    assert key is not None
    if not KEY_RE.fullmatch(key):
        raise InputError(_("the idempotency key must be 8 to 100 letters, digits and dashes "
                           "(a uuid such as 0f8b…-…)"))
    return key.lower()


def parse_line(args: Args, s: SessionRow) -> Any:
    from ledger.core.deal_line import parse_deal_line

    return parse_deal_line(_text(args, "line") or "", s.seats, book.session_rules(s))


def deal_no_of(ledger: Ledger, s: SessionRow, args: Args) -> int:
    """The deal an op names: ``deal`` (its number) or ``deal_uuid`` (an entry of it)."""
    uuid = _text(args, "deal_uuid", required=False, limit=MAX_KEY)
    if uuid is None:
        return _int(args, "deal")
    for e in ledger.journal.entries(s.id):
        if e.uuid == uuid:
            return e.deal_no
    raise NotFound(_("no entry {uuid} in session {id}").format(uuid=uuid, id=s.id))


# --- pieces of the answers ------------------------------------------------------------


def score_dict(seats: list[str], score: Any) -> list[dict[str, Any]]:
    return [{"name": n, "cards": score.cards[n], "win": score.wins[n], "fried": score.fried[n],
             "penalty": score.penalty[n], "net": score.net[n]} for n in seats]


def turn_dict(turn: Any) -> dict[str, Any]:
    """Who deals and leads next; ``text`` in English in every language, like every value
    of the answers (the page says it in its own words from ``dealers`` and ``leader``)."""
    with i18n.using("en"):
        text = turn.describe()
    return {"dealers": list(turn.dealers), "leader": turn.leader, "opener": turn.opener,
            "leaders": list(turn.leaders), "text": text}


def session_dict(ledger: Ledger, s: SessionRow) -> dict[str, Any]:
    rules = book.session_rules(s)
    return {**s.to_dict(), "rule_set": s.rules, "hand_size": rules.hand_size,
            "mode": rules.mode, "settlement": rules.settlement, "open": s.ended_at is None}


def deal_facts(s: SessionRow) -> list[dict[str, Any]]:
    """The deal facts these rules score, as the registry offers them (``{name, word,
    kind, values, label}``): the phone builds its keypad and the deal line from these."""
    from ledger.core.registry import offered_facts

    return [o.to_dict() for o in offered_facts(book.session_rules(s), bool(s.teams))]


def entry_answer(ledger: Ledger, s: SessionRow, entry: EntryRow, score: Any) -> dict[str, Any]:
    """What a deal, amend or void wrote, the standings after it and who is next."""
    s = ledger.journal.session(s.id)
    out: dict[str, Any] = {
        "session": s.id, "deal": entry.deal_no, "uuid": entry.uuid, "kind": entry.kind,
        "facts": entry.facts, "players": None if score is None else score_dict(list(s.seats), score),
        "next": turn_dict(book.next_turn(ledger, s)),
        "standings": reports.standings(ledger, [s]).to_dict(),
    }
    return out


def undo_preview_dict(ledger: Ledger, s: SessionRow) -> dict[str, Any] | None:
    """What ``undo`` would take back now (None: nothing), as :func:`op_undo` says it:
    the book's :class:`~ledger.book.undo.UndoPreview` with its facts as deal lines."""
    from ledger.core.deal_line import facts_text

    s = ledger.journal.session(s.id)
    preview = book.undo_preview(ledger, s, session_start=False)
    if preview is None:
        return None
    return {**preview.to_dict(), "uuid": preview.target,
            "line": facts_text(preview.facts, s.seats) if preview.facts else None,
            "back": facts_text(preview.restored, s.seats) if preview.restored else None}


# --- reads ------------------------------------------------------------------------------


def op_sessions(ledger: Ledger, args: Args) -> dict[str, Any]:
    return {"sessions": [session_dict(ledger, s) for s in reversed(ledger.journal.sessions())]}


def op_session(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = session_of(ledger, args)
    return {**session_dict(ledger, s), "next": turn_dict(book.next_turn(ledger, s)),
            "last_entry_id": ledger.derived.last_entry_id()}


BOARD_DEALS = 10  # the board's last deals; the log op has them all


def deals_list(ledger: Ledger, s: SessionRow, last: int | None = BOARD_DEALS) -> list[dict[str, Any]]:
    """The last live deals, newest first: number, the uuid of its live entry, facts, net."""
    from ledger.core.deal_line import facts_text

    live = ledger.journal.live_deals(s.id)
    out = []
    for e in reversed(live if last is None else live[-last:]):
        net: dict[str, int] = {}
        for p in ledger.journal.deal_points(s.id, e.deal_no):
            net[p.player] = net.get(p.player, 0) + p.net
        out.append({"deal": e.deal_no, "uuid": e.uuid, "kind": e.kind,
                    "line": facts_text(e.facts or {}, s.seats), "facts": e.facts, "net": net})
    return out


def op_board(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = session_of(ledger, args)
    return {
        "session": session_dict(ledger, s),
        "standings": reports.standings(ledger, [s]).to_dict(),
        "next": turn_dict(book.next_turn(ledger, s)),
        "next_deal": ledger.journal.next_deal_no(s.id),
        "facts": deal_facts(s),
        "deals": deals_list(ledger, s),
        "undo": undo_preview_dict(ledger, s),
    }


def op_standings(ledger: Ledger, args: Args) -> dict[str, Any]:
    return reports.standings(ledger, [session_of(ledger, args)]).to_dict()


def op_log(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = session_of(ledger, args)
    from ledger.book import views

    return {"session": s.id, "entries": views.log(ledger, s).to_dict(),
            "deals": deals_list(ledger, s, last=None)}


def op_settle(ledger: Ledger, args: Args) -> dict[str, Any]:
    from ledger.book.owed import recorded_for, with_payments
    from ledger.book.scope import Scope

    s = session_of(ledger, args)
    st = with_payments(ledger, reports.settle(ledger, [s]), Scope([s], False))
    coin = _text(args, "round", required=False, limit=20)
    if coin:
        from ledger.core.settlement import parse_coin

        st = st.rounded(parse_coin(coin))
    from ledger.book import views

    # The SettleView, as settle --json --session ID prints it: with what is paid.
    return views.settle_view(st, recorded_for(ledger, [s])).to_dict()


def op_history(ledger: Ledger, args: Args) -> dict[str, Any]:
    from ledger.book import stats
    from ledger.book.scope import select

    player = _text(args, "player", required=False, limit=200)
    if not ledger.journal.session_ids():
        return {"sessions": []}
    scope = select(ledger, None, True, player=player, default_all=True)
    return {"sessions": [r.to_dict() for r in reversed(stats.history(ledger, scope))]}


def op_presets(ledger: Ledger, args: Args) -> dict[str, Any]:
    from ledger.core.registry import extras
    from ledger.core.rules import load_preset, preset_names
    from ledger.present.rules_text import description, source, title

    out = []
    for name in preset_names():
        r = load_preset(name)
        out.append({"name": name, "title": title(name), "description": description(r.description),
                    "source": source(r.source),
                    "hand_size": r.hand_size, "mode": r.mode, "settlement": r.settlement,
                    "extras": extras(r), "rule_set": r.to_dict()})
    return {"presets": out}


def op_last_setup(ledger: Ledger, args: Args) -> dict[str, Any]:
    """The last session's players and rules, to start "the same as last time"."""
    sessions = ledger.journal.sessions()
    if not sessions:
        return {"last": None}
    s = max(sessions, key=lambda x: (x.started_at, x.id))
    rules = book.session_rules(s)
    stake = Decimal(s.stake) * rules.points_per_unit
    from ledger.core.settlement import format_amount

    return {"last": {"session": s.id, "players": list(s.seats), "rules": s.rules_name,
                     "rule_set": s.rules, "stake": format_amount(stake.normalize()),
                     "currency": s.currency or "PTS", "teams": s.teams, "name": s.name}}


def op_preview(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = session_of(ledger, args)
    deal = parse_line(args, s)
    score = book.score(s, deal)
    return {"session": s.id, "facts": deal.to_dict(), "players": score_dict(list(s.seats), score)}


def op_undo_preview(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = session_of(ledger, args)
    return {"session": s.id, "undo": undo_preview_dict(ledger, s)}


# --- writes -----------------------------------------------------------------------------


def op_record(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = session_of(ledger, args)
    recorded = book.record_deal(ledger, s, parse_line(args, s), entry_uuid=key_of(args))
    return entry_answer(ledger, s, recorded.entry, recorded.score)


def op_amend(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = session_of(ledger, args)
    recorded = book.amend_deal(ledger, s, deal_no_of(ledger, s, args), parse_line(args, s),
                                entry_uuid=key_of(args))
    return entry_answer(ledger, s, recorded.entry, recorded.score)


def op_void(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = session_of(ledger, args)
    recorded = book.void_deal(ledger, s, deal_no_of(ledger, s, args), entry_uuid=key_of(args))
    return entry_answer(ledger, s, recorded.entry, None)


def op_undo(ledger: Ledger, args: Args) -> dict[str, Any]:
    """Take back the session's last action (never the session's start)."""
    from ledger.core.deal_line import facts_text

    s = session_of(ledger, args)
    undone = book.undo(ledger, s, session_start=False, entry_uuid=key_of(args))
    out: dict[str, Any] = (
        {"session": s.id, "kind": undone.action} if undone.recorded is None
        else entry_answer(ledger, s, undone.recorded.entry, undone.recorded.score))
    out["undo"] = {
        "action": undone.action, "session": undone.session.id, "deal": undone.deal_no,
        "line": facts_text(undone.facts, s.seats) if undone.facts else None,
        "back": facts_text(undone.restored, s.seats) if undone.restored else None,
    }
    return out


def _rules(args: Args) -> Any:
    from ledger.core.rules import load_preset, preset_names, rules_from_mapping

    stored = args.get("rule_set")
    if stored is not None:  # "the same rules as last time": a frozen rule set
        if not isinstance(stored, dict):
            raise InputError(_('"rule_set" must be an object (a session\'s rule_set)'))
        return rules_from_mapping(stored, origin="rule_set")
    name = _text(args, "rules", required=False, limit=100) or "classic"
    if name not in preset_names():
        raise InputError(_("unknown rules {name!r}; the page offers the presets: {presets}").format(
            name=name, presets=", ".join(preset_names())))
    house = args.get("house")
    if house is None:
        return load_preset(name)
    if not isinstance(house, dict):
        raise InputError(_('"house" must be an object of rule options, e.g. {example}').format(
            example='{"assist": true}'))
    return rules_from_mapping({k: v for k, v in house.items() if k != "base"},
                              base=load_preset(name), origin="house")


def op_start(ledger: Ledger, args: Args) -> dict[str, Any]:
    from ledger.core.settlement import parse_currency, parse_stake

    players = args.get("players")
    if isinstance(players, str):
        if len(players) > MAX_TEXT:
            raise InputError(_('"{key}" is longer than {limit} characters').format(
                key="players", limit=MAX_TEXT))
        players = players.replace("，", ",").split(",")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InputError(_('"players" must be a list of names, e.g. {example}').format(
            example='["陳大文", "Ben", "Cat", "Dan"]'))
    rules = _rules(args)
    stake = parse_stake(_text(args, "stake", required=False, limit=40) or "1")
    currency = parse_currency(_text(args, "currency", required=False, limit=20) or "PTS")
    name = _text(args, "name", required=False)
    # The key is the session's uuid; its start entry's uuid is made from it (storage).
    s = book.start_session(ledger, players, rules, stake, currency, name or None,
                           _bool(args, "teams"), session_uuid=key_of(args))
    return op_session(ledger, {"session": s.id})


def op_end(ledger: Ledger, args: Args) -> dict[str, Any]:
    s = book.end_session(ledger, session_of(ledger, args), entry_uuid=key_of(args))
    return op_session(ledger, {"session": s.id})


def op_reopen(ledger: Ledger, args: Args) -> dict[str, Any]:
    """An ended session takes deals again."""
    s = book.reopen_session(ledger, session_of(ledger, args), entry_uuid=key_of(args))
    return op_session(ledger, {"session": s.id})


def op_export(ledger: Ledger, args: Args) -> dict[str, Any]:
    """``{"name", "text", "sessions"}``: the CLI's JSON export (``bigtwo export``) of one
    session (``session``) or of every session in the ledger: the phone's download or share
    sheet, and the hub's half of a sync; ``bigtwo import`` reads it (merged by uuid)."""
    import io

    from ledger.formats import exchange
    from ledger.formats.payments_io import exported_rows

    one = args.get("session") is not None
    sessions = [session_of(ledger, args)] if one else list(ledger.journal.sessions())
    out = io.StringIO()  # the payments too, as bigtwo export writes them: a sync carries them
    exchange.export_json(ledger, sessions, out, exported_rows(ledger, sessions, everything=not one))
    stamp = "all" if args.get("session") is None else f"session-{args['session']}"
    return {"name": f"bigtwo-{stamp}.json", "text": out.getvalue(), "sessions": len(sessions)}


def op_import(ledger: Ledger, args: Args) -> dict[str, Any]:
    """Import ``text`` — a JSON export or a big-two-scorer score sheet, as ``bigtwo
    import`` does (merged by uuid: importing it twice writes nothing new); ``name`` is
    the file's name, shown in the report.  A phone's sync pushes its export here and
    imports the hub's ``export`` answer: each half writes once however often it is sent."""
    import os
    import tempfile
    from pathlib import Path

    from ledger.formats import exchange

    text = args.get("text")
    if not isinstance(text, str):
        raise InputError(_('missing "{key}" in the request').format(key="text"))
    name = os.path.basename(str(args.get("name") or "import.json")) or "import.json"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        report = exchange.import_file(ledger, path)
    answer = {**report.to_dict(), "summary": report.summary()}
    if report.conflicts:
        answer["conflict_text"] = report.conflict_text()
    return answer


def op_pay(ledger: Ledger, args: Args) -> dict[str, Any]:
    """A payment between two players (``bigtwo paid FROM TO AMOUNT --session ID``):
    ``amount`` as text (``"12.50"``: money is never a float); the currency is the
    session's.  The answer is ``bigtwo paid --json``'s."""
    from ledger.book.owed import owed
    from ledger.book.payments import record_payment
    from ledger.book.scope import Range

    s = session_of(ledger, args)
    payer = _text(args, "from", limit=200)
    payee = _text(args, "to", limit=200)
    amount = _text(args, "amount", limit=40)
    assert payer is not None and payee is not None and amount is not None
    done = record_payment(ledger, payer, payee, amount, _text(args, "currency", required=False,
                                                              limit=20),
                          s.id, _text(args, "note", required=False, limit=400),
                          entry_uuid=key_of(args))
    after = owed(ledger, ledger.journal.sessions(), Range())
    block = next(b for b in after.blocks if b.currency == done.currency)
    return {"payment": done.to_dict(), "owed": block.to_dict()}


def op_unpay(ledger: Ledger, args: Args) -> dict[str, Any]:
    """Take back a payment of the session (``bigtwo payments undo UUID``): ``payment``
    its uuid.  The answer is the payment taken back."""
    from ledger.book.payments import undo_payment

    s = session_of(ledger, args)
    uuid = _text(args, "payment", limit=MAX_KEY)
    assert uuid is not None
    found = ledger.payments.by_uuid(uuid.strip().lower())
    if found is None or found.kind != "payment" or found.session_id != s.id:
        raise NotFound(_("no payment {uuid} to take back").format(uuid=uuid))
    return {"undone": undo_payment(ledger, found.uuid, entry_uuid=key_of(args)).to_dict()}
