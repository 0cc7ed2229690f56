"""The engine's ops, each declared once (:func:`ledger.engine.declare.op`): a function of
the open ledger and its JSON arguments, typed, whose answer is a view record's
``to_dict()`` from ``ledger.book.views`` — the same dict the command line's ``--json``
prints.  Pure Python, like the engine: it runs in Pyodide too.

Each op's docstring is its answer as docs/serve.md shows it (``scripts/make_ops.py``
writes the tables from them).  A new op is a function here and its test; the hub's
route, the phone's worker, the JavaScript op list and the docs follow.
"""

from __future__ import annotations

from typing import Annotated, Any

from ledger.book import actions as book
from ledger.book import reports
from ledger.core.errors import InputError, NotFound
from ledger.core.i18n import _
from ledger.engine.declare import MAX_KEY, Limit, op
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

Line = str  # a deal line, in the command line's grammar (at most 2000 characters)
Name = Annotated[str, Limit(200)]
Preset = Annotated[str, Limit(100)]
Uuid = Annotated[str, Limit(MAX_KEY)]
Word = Annotated[str, Limit(20)]
Cursor = Annotated[str, Limit(100)]
Amount = Annotated[str, Limit(40)]
File = Annotated[str, Limit(None)]  # a file's text: the request's size caps it


def parse_line(ledger: Ledger, s: SessionRow, line: str, deal: int | None = None) -> Any:
    """A deal line read against the players it names: the players now (a new deal) or
    those of deal ``deal`` (an amend)."""
    from ledger.core.deal_line import parse_deal_line

    return parse_deal_line(line, book.deal_seats(ledger, s, deal), book.session_rules(s))


def deal_no_of(ledger: Ledger, s: SessionRow, deal: int | None, deal_uuid: str | None) -> int:
    """The deal an op names: ``deal`` (its number) or ``deal_uuid`` (an entry of it)."""
    if deal_uuid is None:
        if deal is None:
            raise InputError(_('"{key}" must be a whole number, e.g. {example}').format(
                key="deal", example='{"deal": 3}'))
        return deal
    for e in ledger.journal.entries(s.id):
        if e.uuid == deal_uuid:
            return e.deal_no
    raise NotFound(_("no entry {uuid} in session {id}").format(uuid=deal_uuid, id=s.id))


def card(s: SessionRow) -> dict[str, Any]:
    from ledger.book.views import session_card

    return session_card(s).to_dict()


# --- reads ------------------------------------------------------------------------------


@op()
def sessions(ledger: Ledger, q: Name | None = None, before: Cursor | None = None,
             limit: int | None = None) -> Any:
    """`{"sessions": [ITEM, …], "total": 16686, "next": CURSOR}` (`SessionPage`): the table
    picker, one page newest first (by start, then id), `limit` sessions (50; 1 to 200), each
    as `bigtwo session list --json` gives it (the rule set's name, not its rules: `session`
    has them) with `open`; `total` counts every session the search finds; `next` is the
    cursor to give as `before` for the next page (null: the last page); `q` finds a text
    in the session's name or a player's name, or its number."""
    from ledger.book import views

    return views.session_page(ledger, q, before, limit).to_dict()


@op()
def session(ledger: Ledger, session: SessionRow) -> Any:
    """SESSION: the session's card (`SessionCard`)."""
    return card(session)


@op()
def board(ledger: Ledger, session: SessionRow) -> Any:
    """BOARD (`Board`): everything the main screen shows — the session's card, its rules,
    standings and money, who deals and leads next, the next deal's number, the deal facts
    these rules score (FACT: the registry's offers), the last 10 live deals, newest first
    (`deals` has them all), and what `undo` would take back now."""
    from ledger.book import views

    return views.board(ledger, session).to_dict()


@op()
def standings(ledger: Ledger, session: SessionRow) -> Any:
    """STANDINGS, exactly `bigtwo standings --json --session ID`."""
    return reports.standings(ledger, [session]).to_dict()


@op()
def log(ledger: Ledger, session: SessionRow) -> Any:
    """Every entry, then the players' renames and merges (`Log`), exactly `bigtwo log
    --json --session ID`."""
    from ledger.book import views

    return views.log(ledger, session).to_dict()


@op()
def deals(ledger: Ledger, session: SessionRow) -> Any:
    """`[DEAL, …]` (`Deals`): every live deal, newest first, as the board gives the last 10
    (the Deals screen lists them all, to fix or void any)."""
    from ledger.book import views

    return views.deal_lines(ledger, session).to_dict()


@op()
def settle(ledger: Ledger, session: SessionRow, round: Word | None = None,
           pay_codes: bool = False) -> Any:
    """`SettleView`, exactly `bigtwo settle --json --session ID [--round COIN]` (`round`: a
    coin, `"1"`, `"0.5"`), with what is paid: `"progress"` (each of the fewest payments,
    how much of it is paid), `"recorded"` (the session's payments), and once the ledger
    holds payments `"paid"`, `"outstanding"`, `"still_to_pay"` (money.md); with
    `pay_codes` (the hub sets it from the token: the scorekeeper's alone, never a
    viewer's) each payment's `pay_code`."""
    from ledger.book import views
    from ledger.book.owed import recorded_for, with_payments
    from ledger.book.pay_ids import pay_ids
    from ledger.book.scope import Scope

    st = with_payments(ledger, reports.settle(ledger, [session]), Scope([session], False))
    if round:
        from ledger.core.settlement import parse_coin

        st = st.rounded(parse_coin(round))
    ids = pay_ids(ledger) if pay_codes else None
    return views.settle_view(st, recorded_for(ledger, [session]), ids).to_dict()


@op()
def history(ledger: Ledger, player: Name | None = None) -> Any:
    """`History`, every session oldest first (the History screen's charts), exactly `bigtwo
    history --all --json [--player NAME]`."""
    from ledger.book import views
    from ledger.book.scope import select

    if not ledger.journal.session_ids():
        return []
    scope = select(ledger, None, True, player=player, default_all=True)
    return views.history(ledger, scope).to_dict()


@op()
def presets(ledger: Ledger) -> Any:
    """`[{"name": "classic", "title": "Classic (pairwise)", "description": "…in the request's
    language…", "source": "…in the request's language…", "hand_size": 13, "mode": "cards",
    "settlement": "pairwise", "extras": ["assist", "missed call"], "rule_set": {…}}, …]`: the
    presets a new session may start with."""
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
    return out


@op()
def last_setup(ledger: Ledger) -> Any:
    """`LastSetup`, `{"session": 1, "players": […], "rules": "classic", "rule_set": {…},
    "stake": "0.5", "currency": "HKD", "teams": false, "name": "Friday"}`, or `null`: the last session's
    players and rules, to pass back to `start` for "the same as last time"."""
    from ledger.book import views

    found = views.last_setup(ledger)
    return None if found is None else found.to_dict()


@op()
def preview(ledger: Ledger, session: SessionRow, line: Line) -> Any:
    """PREVIEW (`DealPreview`): the deal scored, nothing written."""
    from ledger.book import views

    deal = book.with_players(session, parse_line(ledger, session, line), book.deal_seats(ledger, session))
    return views.deal_preview(session, deal).to_dict()


@op()
def undo_preview(ledger: Ledger, session: SessionRow) -> Any:
    """UNDO or `null`: what `undo` would take back now (as the board's `undo`)."""
    from ledger.book import views

    found = views.undo_preview(ledger, ledger.journal.session(session.id), session_start=False)
    return None if found is None else found.to_dict()


@op()
def export(ledger: Ledger, session: SessionRow | None = None, pay_ids: bool = False) -> Any:
    """`{"name": "bigtwo-all.json", "text": "…", "sessions": 3}`: `text` is exactly
    `bigtwo export --format json` of the session, or of every session without one (the
    phone's download or share sheet, and the hub's half of a sync; `bigtwo import` reads
    it, merged by uuid); with `pay_ids`, as `export --with-pay-ids`: the pay ids of the
    players seated in them, for a sync between the scorekeeper's own devices (the hub
    takes it from the scorekeeper's token only, never a viewer's)."""
    import io

    from ledger.formats import exchange
    from ledger.formats.payments_io import exported_rows

    chosen = [session] if session is not None else list(ledger.journal.sessions())
    own = ledger.pay_ids.rows([s.id for s in chosen]) if pay_ids else []
    out = io.StringIO()  # the payments too, as bigtwo export writes them: a sync carries them
    exchange.export_json(ledger, chosen, out, exported_rows(ledger, chosen, everything=session is None),
                         own)
    stamp = "all" if session is None else f"session-{session.id}"
    return {"name": f"bigtwo-{stamp}.json", "text": out.getvalue(), "sessions": len(chosen)}


# --- writes -----------------------------------------------------------------------------


@op(write=True)
def record(ledger: Ledger, session: SessionRow, line: Line, key: str) -> Any:
    """AFTER (`AfterDeal`): the deal written, exactly `bigtwo deal LINE --json`."""
    from ledger.book import views

    done = book.record_deal(ledger, session, parse_line(ledger, session, line), entry_uuid=key)
    return views.after_deal(ledger, session, done).to_dict()


@op(write=True)
def amend(ledger: Ledger, session: SessionRow, line: Line, key: str, deal: int | None = None,
          deal_uuid: Uuid | None = None) -> Any:
    """AFTER, `kind` `"amend"`, exactly `bigtwo amend N LINE --json`: the deal named by
    `deal` (its number) or `deal_uuid` (the uuid of any entry of it) corrected."""
    from ledger.book import views

    number = deal_no_of(ledger, session, deal, deal_uuid)
    done = book.amend_deal(ledger, session, number, parse_line(ledger, session, line, number),
                           entry_uuid=key)
    return views.after_deal(ledger, session, done).to_dict()


@op(write=True)
def void(ledger: Ledger, session: SessionRow, key: str, deal: int | None = None,
         deal_uuid: Uuid | None = None) -> Any:
    """AFTER, `kind` `"void"`, `players` null, exactly `bigtwo void N --json`."""
    from ledger.book import views

    number = deal_no_of(ledger, session, deal, deal_uuid)
    done = book.void_deal(ledger, session, number, entry_uuid=key)
    return views.after_deal(ledger, session, done).to_dict()


@op(write=True)
def undo(ledger: Ledger, session: SessionRow, key: str) -> Any:
    """UNDONE (`UndoneView`), exactly `bigtwo undo --json`: what it took back and the AFTER
    of the correction entry it wrote (`after`; null for a session's end or reopening).
    Never takes back a session's start."""
    from ledger.book import views

    done = book.undo(ledger, session, session_start=False, entry_uuid=key)
    return views.undone_view(ledger, done).to_dict()


@op(write=True)
def seat(ledger: Ledger, session: SessionRow, action: Word, players: list[str] | str, key: str,
         sit_out: bool = False, from_deal: int | None = None) -> Any:
    """SEAT (`SeatChange`), exactly `bigtwo seat ACTION … --json`: `{"session", "entry",
    "action": "seat join Eve", "facts", "lineup": {"seated", "sitting_out", "playing"}}`.
    `action`: `join` (`sit_out`: joins sitting out), `leave`, `sit-out`, `back` (one name
    in `players`), `swap` (two), `order` (every seated player, `from_deal` N: the order
    counts from deal N)."""
    from ledger.book.seats import seat_change

    names = players.split(",") if isinstance(players, str) else list(players)
    done = seat_change(ledger, session, action, [n for n in names if n.strip()], out=sit_out,
                       from_deal=from_deal, entry_uuid=key)
    return done.to_dict()


@op(write=True)
def start(ledger: Ledger, players: list[str] | str, key: str, rules: Preset = "classic",
          house: dict[str, Any] | None = None, rule_set: dict[str, Any] | None = None,
          stake: Amount = "1", currency: Word = "PTS", name: str | None = None,
          teams: bool = False) -> Any:
    """SESSION, the new session. `players`: a list of names, or `"Ann,Ben,Cat"`; `rules`:
    a preset (default `classic`) with optional `house` (rule options over it, e.g.
    `{"assist": false}`), or `rule_set` (a whole rule set, as `last_setup` gives it);
    `stake` (`"0.5"`), `currency` (`"HKD"`), `name`, `teams`."""
    from ledger.core.settlement import parse_currency, parse_stake

    chosen = _rules(rules, house, rule_set)
    # The key is the session's uuid; its start entry's uuid is made from it (storage).
    s = book.start_session(ledger, players, chosen, parse_stake(stake or "1"),
                           parse_currency(currency or "PTS"), name or None, teams,
                           session_uuid=key)
    return card(ledger.journal.session(s.id))


def _rules(name: str, house: dict[str, Any] | None, stored: dict[str, Any] | None) -> Any:
    from ledger.core.rules import load_preset, preset_names, rules_from_mapping

    if stored is not None:  # "the same rules as last time": a frozen rule set
        return rules_from_mapping(stored, origin="rule_set")
    name = name or "classic"
    if name not in preset_names():
        raise InputError(_("unknown rules {name!r}; the page offers the presets: {presets}").format(
            name=name, presets=", ".join(preset_names())))
    if house is None:
        return load_preset(name)
    return rules_from_mapping({k: v for k, v in house.items() if k != "base"},
                              base=load_preset(name), origin="house")


@op(write=True)
def end(ledger: Ledger, session: SessionRow, key: str) -> Any:
    """SESSION, `ended_at` set."""
    s = book.end_session(ledger, session, entry_uuid=key)
    return card(ledger.journal.session(s.id))


@op(write=True)
def reopen(ledger: Ledger, session: SessionRow, key: str) -> Any:
    """SESSION, `ended_at` null again: an ended session takes deals again."""
    s = book.reopen_session(ledger, session, entry_uuid=key)
    return card(ledger.journal.session(s.id))


@op(write=True)
def import_(ledger: Ledger, text: File, key: str, name: Name | None = None) -> Any:
    """The import's report as `bigtwo import --json` gives it, with `summary` (one line in
    the request's language) and, where something conflicts, `conflict_text`. `text`: a
    JSON export or a score sheet; `name`: the file's name, for the report. Merged by
    uuid, so sending it again writes nothing; its body may be 8 MiB (every other write:
    16 KB)."""
    import os

    from ledger.formats.keyed_import import import_keyed

    file = os.path.basename(name or "import.json") or "import.json"
    report = import_keyed(ledger, text, file, key)  # one key, one import
    answer = {**report.to_dict(), "summary": report.summary()}
    if report.conflicts:
        answer["conflict_text"] = report.conflict_text()
    return answer


@op(write=True)
def pay(ledger: Ledger, session: SessionRow, from_: Name, to: Name, amount: Amount, key: str,
        currency: Word | None = None, note: Annotated[str, Limit(400)] | None = None) -> Any:
    """`AfterPayment`, `{"payment": PAYMENT, "owed": {…}}`, exactly `bigtwo paid FROM TO AMOUNT --session ID
    --json`: a payment between two players of the session; `amount` as text (`"12.50"`:
    money is never a JSON number; no finer than the currency's smallest unit), the
    currency the session's (money.md)."""
    from ledger.book import views
    from ledger.book.payments import record_payment

    done = record_payment(ledger, from_, to, amount, currency, session.id, note, entry_uuid=key)
    return views.after_payment(ledger, done).to_dict()


@op(write=True)
def unpay(ledger: Ledger, session: SessionRow, payment: Uuid, key: str) -> Any:
    """`{"undone": PAYMENT}`: the payment of the session with that uuid taken back
    (`bigtwo payments undo UUID`); 404 for a payment already taken back."""
    from ledger.book.payments import undo_payment

    found = ledger.payments.by_uuid(payment.strip().lower())
    if found is None or found.kind != "payment" or found.session_id != session.id:
        raise NotFound(_("no payment {uuid} to take back").format(uuid=payment))
    return {"undone": undo_payment(ledger, found.uuid, entry_uuid=key).to_dict()}


@op(write=True)
def set_pay_id(ledger: Ledger, player: Name, scheme: Word, id: Annotated[str, Limit(400)],
               key: str) -> Any:
    """`{"player": NAME, "scheme": SCHEME, "kind": KIND, "replaced": BOOL}`: the player's way
    to be paid in that scheme (`fps`, `paynow`, `promptpay` or `text`), as `bigtwo player
    pay-id NAME SCHEME ID` sets it (checked per scheme; replaces the scheme's old one).
    The scorekeeper's alone (a write); the answer never repeats the id (money.md)."""
    from ledger.book.pay_ids import set_pay_id as set_id

    done = set_id(ledger, player, scheme, id, uuid=key)
    return {"player": done.player, "scheme": done.scheme,
            "kind": done.pay_id.kind if done.pay_id else None, "replaced": done.replaced}
