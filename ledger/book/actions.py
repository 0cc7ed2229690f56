"""The scorekeeper's actions: start a session, record, void and amend deals.

Each action checks everything first (pure core), then writes in one
transaction, so a rejected action leaves the ledger exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from ledger.book import keys

# Shared with undo, so kept in ledger.book.writes; named here too, since the front ends
# reach every action through this module (``from ledger.book import actions as book``).
from ledger.book.writes import CURRENT_KEY as CURRENT_KEY
from ledger.book.writes import Recorded as Recorded
from ledger.book.writes import points_rows as points_rows
from ledger.book.writes import rebuilt, reversal
from ledger.book.writes import score as score
from ledger.book.writes import session_rules as session_rules
from ledger.core.errors import Conflict, InputError, NotFound
from ledger.core.i18n import N_, _
from ledger.core.rules import RuleSet
from ledger.core.scoring import Deal
from ledger.core.seating import check_table
from ledger.core.text import clean_name, clean_session_name, name_key
from ledger.storage.rows import EntryRow, SessionRow
from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.core.dealer import Turn


MAX_ID = 2**63 - 1  # largest SQLite INTEGER; a bigger number cannot name a session or deal


def check_player_names(players: Sequence[str]) -> list[str]:
    """Names as typed (trimmed, NFC: see :mod:`ledger.core.text`); rejects what could
    not be typed back in a deal, and two names for one player."""
    names = []
    for raw in players:
        if not str(raw).strip():
            raise InputError(_("a player name is empty; write a name such as Ann or 陳大文"))
        name = clean_name(raw)
        # Quotes are allowed (O'Brien): a deal names players as NAME=CARDS words, and a
        # typed line (table, sample files) can quote them like a shell: "O'Brien=0".
        bad = [ch for ch in "=," if ch in name]
        if bad or name.startswith("-"):
            raise InputError(_("player name {name!r} cannot contain = or , or start with -: "
                               "they are used to write deals").format(name=name))
        if name.startswith("#"):
            raise InputError(_(
                "player name {name!r} cannot start with #: a line starting with # is a comment "
                "in bigtwo table and sample files, so the name could never be typed there").format(
                    name=name))
        if name.isdigit():
            raise InputError(_("player name {name!r} is a number; numbers are cards left").format(
                name=name))
        names.append(name)
    keys = [name_key(n) for n in names]
    twice = [n for n, k in zip(names, keys, strict=True) if keys.count(k) > 1]
    if twice:
        raise InputError(_("player {name!r} is seated more than once ({names} are the same name); "
                           "each player sits once").format(name=twice[0], names=", ".join(twice)))
    for i, name in enumerate(names):
        refuse_look_alike(name, names[:i])
    return names


def refuse_look_alike(name: str, others: Iterable[str], in_ledger: bool = False) -> None:
    """InputError when ``name`` prints like one of ``others`` in another alphabet
    (``Аnn`` with a Cyrillic А beside ``Ann``: :mod:`ledger.core.confusables`), naming it."""
    from ledger.core.confusables import look_alikes, scripts

    found = look_alikes(name, others)
    if not found:
        return
    other = found[0]
    values = {"name": name, "other": other, "letters": "/".join(sorted(scripts(name))),
              "other_letters": "/".join(sorted(scripts(other)))}
    if in_ledger:
        raise InputError(_("player {name!r} looks like {other!r}, a player already in this "
                           "ledger, but is written in other letters ({letters}, not "
                           "{other_letters}); type {other!r} for that player, or choose a name "
                           "that looks different").format(**values))
    raise InputError(_("players {name!r} and {other!r} look the same but are written in "
                       "different letters ({letters}, {other_letters}); seat one player once, "
                       "or give one a name that looks different").format(**values))


def check_session(rules: RuleSet, seats: Sequence[str], teams: bool) -> None:
    n = len(seats)
    check_table(rules, n)
    if rules.mode == "places" and n > len(rules.place_points):
        raise InputError(_("rules {rules!r} have place points for {count} players only").format(
            rules=rules.name, count=len(rules.place_points)))
    if teams and n != 4:
        raise InputError(_("teams need exactly 4 players (partners sit opposite), not {count}")
                         .format(count=n))
    if teams and rules.mode == "places":
        raise InputError(_("teams are scored by cards left; places mode has no teams"))
    if teams and rules.settlement == "ranked":
        raise InputError(_("ranked settlement ranks single losers; it has no teams (use pairwise)"))
    if rules.settlement == "ranked" and n - 1 > len(rules.rank_payments):
        raise InputError(_(
            "rules {rules!r} give rank payments for {count} losers only (rank_payments = "
            "{payments}); {players} players leave {losers}").format(
                rules=rules.name, count=len(rules.rank_payments),
                payments=list(rules.rank_payments), players=n, losers=n - 1))


def start_session(
    ledger: Ledger,
    players: Sequence[str],
    rules: RuleSet,
    stake: Decimal,
    currency: str,
    name: str | None,
    teams: bool,
    *,
    session_uuid: str | None = None,
    entry_uuid: str | None = None,
) -> SessionRow:
    """Start a session (and make it the current one).  ``session_uuid`` and
    ``entry_uuid`` (its start entry's) are made where the action was taken; a repeat
    with the same ``session_uuid`` writes nothing and returns the session."""
    seats = check_player_names(players)
    check_session(rules, seats, teams)
    stake = stake_per_point(rules, stake)
    name = clean_session_name(name or "")
    session_uuid = keys.checked(session_uuid)
    entry_uuid = keys.checked(entry_uuid)
    with ledger.writing():
        if session_uuid is not None:
            again = keys.repeated_start(ledger, session_uuid, entry_uuid, seats, rules,
                                        str(stake), currency, name or "", teams)
            if again is not None:
                return again
        keys.refuse_taken(ledger, entry_uuid)
        # A player already in the ledger keeps the ledger's spelling (ann is Ann).
        shown = [ledger.find_player(n) or n for n in seats]
        new = [n for n in seats if ledger.find_player(n) is None]
        if new:  # Аnn (a Cyrillic А) is refused where Ann is a player already
            known = {n for p in ledger.players.names().values() for n in (p.name, p.typed_name)}
            for n in new:
                refuse_look_alike(n, known, in_ledger=True)
        for i, n in enumerate(shown):
            if n in shown[:i]:  # two names of one player (merged)
                raise InputError(_("{a} and {b} are one player, {name} (merged); each player "
                                   "sits once").format(a=repr(seats[shown.index(n)]),
                                                       b=repr(seats[i]), name=repr(n)))
        seats = shown
        sid = ledger.journal.add_session(
            seats=seats, name=name or "", rules=rules.to_dict(), stake=str(stake),
            currency=currency, teams=teams, session_uuid=session_uuid, start_uuid=entry_uuid,
        )
        ledger.journal.set_setting(CURRENT_KEY, str(sid))
    return ledger.journal.session(sid)


def current_session_id(ledger: Ledger) -> int | None:
    """The current session's id, or None when there is none."""
    value = ledger.journal.get_setting(CURRENT_KEY)
    return None if value is None else int(value)


STAKE_PLACES = 6  # as parse_stake: a stored stake reads back through it (export/import)


def stake_per_point(rules: RuleSet, stake: Decimal) -> Decimal:
    """The stake the ledger stores: money per point.  Under ranked settlement the stake
    is said per unit and a point is ``1 / points_per_unit`` of a unit (half a unit with
    payments 1, 2, 3), so ``money = net points x stake`` holds everywhere.

    >>> from ledger.core.rules import load_preset
    >>> stake_per_point(load_preset("taiwan"), Decimal("10"))
    Decimal('5')
    """
    per_unit = rules.points_per_unit
    if per_unit == 1:
        return stake
    per_point = stake / per_unit
    if -per_point.normalize().as_tuple().exponent > STAKE_PLACES:  # type: ignore[operator]
        raise InputError(_(
            "bad stake {stake}: rules {rules!r} count points of 1/{per_unit} unit, so the stake "
            "per unit must divide by {per_unit} within {places} decimal places").format(
                stake=stake, rules=rules.name, per_unit=per_unit, places=STAKE_PLACES))
    return per_point.normalize() if per_point == per_point.to_integral() else per_point


def current_session(ledger: Ledger, session_id: int | None = None) -> SessionRow:
    """The session named by ``--session``, or the current one."""
    if session_id is not None:
        return _session(ledger, session_id)
    value = ledger.journal.get_setting(CURRENT_KEY)
    if value is None:
        raise NotFound(_("no current session"), advice=_(
            "start one with bigtwo session start --players Ann,Ben,Cat,Dan "
            "(or pick one with bigtwo session use ID)"))
    return _session(ledger, int(value))


def _session(ledger: Ledger, session_id: int) -> SessionRow:
    """The session ``session_id``; a missing one says where to find the sessions there are."""
    try:
        if abs(session_id) > MAX_ID:
            raise NotFound(_("no session {id} in this ledger").format(id=session_id))
        return ledger.journal.session(session_id)
    except NotFound as exc:
        raise NotFound(str(exc), advice=_("see: bigtwo session list")) from None


def use_session(ledger: Ledger, session_id: int) -> SessionRow:
    session = _session(ledger, session_id)
    with ledger.writing():
        ledger.journal.set_setting(CURRENT_KEY, str(session_id))
    return session


def end_session(ledger: Ledger, session: SessionRow, *, entry_uuid: str | None = None
                ) -> SessionRow:
    """End the session: an ``end`` entry (a repeat of ``entry_uuid`` writes nothing)."""
    entry_uuid = keys.checked(entry_uuid)
    with ledger.writing():
        if keys.repeated_action(ledger, entry_uuid, session, "end"):
            return ledger.journal.session(session.id)
        s = ledger.journal.session(session.id)  # fresh: another terminal may have acted
        if s.ended_at is not None:
            from ledger.book.clock import local_minute

            raise Conflict(_("session {id} already ended at {at}").format(
                id=s.id, at=local_minute(s.ended_at)))
        ledger.journal.end_session(s.id, entry_uuid=entry_uuid)
    return ledger.journal.session(session.id)


def reopen_session(ledger: Ledger, session: SessionRow, *, entry_uuid: str | None = None
                   ) -> SessionRow:
    """Open an ended session again, to take more deals: a ``reopen`` entry (``undo``
    takes it back; a repeat of ``entry_uuid`` writes nothing)."""
    entry_uuid = keys.checked(entry_uuid)
    with ledger.writing():
        if keys.repeated_action(ledger, entry_uuid, session, "reopen"):
            return ledger.journal.session(session.id)
        s = ledger.journal.session(session.id)
        if s.ended_at is None:
            raise Conflict(_("session {id} is open; only an ended session can be reopened")
                             .format(id=s.id))
        ledger.journal.add_action(s.id, "reopen", entry_uuid=entry_uuid)
    return ledger.journal.session(session.id)


def next_turn(ledger: Ledger, session: SessionRow) -> Turn:
    """Who deals and leads next in ``session`` (as read after its last change: its
    ``deals`` is the number of live deals): from that count and the live deal recorded
    last in the one order of entries, not by re-reading every deal of a long evening."""
    from ledger.core.dealer import next_turn_after

    rules = session_rules(session)
    seats, count = session.seats, session.deals
    if ledger.journal.seat_entries(session.id):  # the seats changed: the line-up now
        from ledger.book.lineups import lineup

        now = lineup(ledger, session)
        seats, count = now.playing, max(session.deals - (now.base - 1), 0)
    found = ledger.journal.latest_deal(session.id)  # in the one order: never by number, which
    last = None if found is None else found[0]      # is each ledger's own after a sync
    if last is None or last.facts is None:
        return next_turn_after(seats, rules, 0, None)
    deal = Deal.from_dict(last.facts)
    if deal.winner not in seats:  # the last deal's winner has left or sits out: the seats go round
        return next_turn_after(seats, rules, count, None)._replace(dealers=(seats[count % len(seats)],))
    return next_turn_after(seats, rules, count, deal)


def deal_seats(ledger: Ledger, session: SessionRow, deal_no: int | None = None) -> tuple[str, ...]:
    """The players a deal line names: for a new deal the players now (the seated not
    sitting out, in seat order: :mod:`ledger.book.seats`), for deal ``deal_no`` (an
    amend) the players of its version now."""
    if deal_no is not None:
        current = ledger.journal.current_version(session.id, deal_no) if 1 <= deal_no <= MAX_ID else None
        players = None if current is None or current.facts is None else current.facts.get("players")
        if players:
            return tuple(players)
        return session.started_seats
    if not ledger.journal.seat_entries(session.id):
        return session.seats
    from ledger.book.lineups import players_now

    return players_now(ledger, session)


def with_players(session: SessionRow, deal: Deal, players: tuple[str, ...]) -> Deal:
    """``deal`` recording who played it, when not the session's starting seats."""
    if deal.players is not None or players == tuple(session.started_seats):
        return deal
    return deal._replace(players=players)


def _refuse_ended(session: SessionRow) -> None:
    if session.ended_at is not None:
        from ledger.book.clock import local_minute

        raise Conflict(_(
            "session {id} ended at {at}; start a new session to record more deals (corrections "
            "with void/amend are still allowed)").format(id=session.id,
                                                         at=local_minute(session.ended_at)))


def record_deal(ledger: Ledger, session: SessionRow, deal: Deal, *,
                entry_uuid: str | None = None) -> Recorded:
    """Record the next deal of ``session``.  A repeat of ``entry_uuid`` (the id made
    where the deal was entered) writes nothing and returns the deal recorded then."""
    entry_uuid = keys.checked(entry_uuid)
    if entry_uuid is None:
        _refuse_ended(session)
    with ledger.writing():
        again = keys.repeated_entry(ledger, entry_uuid, session, "deal", None, deal.to_dict(),
                                    own_players=deal.players is None)
        if again is not None:
            return rebuilt(session, again)
        _refuse_ended(ledger.journal.session(session.id) if entry_uuid else session)
        deal = with_players(session, deal, deal_seats(ledger, session))
        result = score(session, deal)
        deal_no = ledger.journal.next_deal_no(session.id)
        entry = ledger.journal.add_entry(
            session.id, "deal", deal_no, deal.to_dict(), points_rows(session.seats, result),
            entry_uuid=entry_uuid)
    return Recorded(entry, result)


def _live(ledger: Ledger, session: SessionRow, deal_no: int, action: str) -> EntryRow | None:
    current = ledger.journal.current_version(session.id, deal_no) if 1 <= deal_no <= MAX_ID else None
    if current is None:
        last = ledger.journal.next_deal_no(session.id) - 1
        if action == "void":
            message = (N_("cannot void deal {deal}: session {id} has deals 1 to {last}") if last
                       else N_("cannot void deal {deal}: session {id} has no deals yet"))
        else:
            message = (N_("cannot amend deal {deal}: session {id} has deals 1 to {last}") if last
                       else N_("cannot amend deal {deal}: session {id} has no deals yet"))
        raise NotFound(_(message).format(deal=deal_no, id=session.id, last=last))
    return None if current.kind == "void" else current


def void_deal(ledger: Ledger, session: SessionRow, deal_no: int, *,
              entry_uuid: str | None = None) -> Recorded:
    """Void deal ``deal_no`` (a repeat of ``entry_uuid`` writes nothing)."""
    entry_uuid = keys.checked(entry_uuid)
    # Checked under the write lock: two terminals cannot both void the same version.
    with ledger.writing():
        again = keys.repeated_entry(ledger, entry_uuid, session, "void", deal_no, None)
        if again is not None:
            return rebuilt(session, again)
        return _void(ledger, session, deal_no, entry_uuid)


def _void(ledger: Ledger, session: SessionRow, deal_no: int, entry_uuid: str | None = None
          ) -> Recorded:
    """Append the void (inside :meth:`Ledger.writing`)."""
    live = _live(ledger, session, deal_no, "void")
    if live is None:
        raise Conflict(_("deal {deal} is already void").format(deal=deal_no),
                       advice=_("see: bigtwo log"))
    entry = ledger.journal.add_entry(session.id, "void", deal_no, None, reversal(ledger, live),
                                     entry_uuid=entry_uuid)
    return Recorded(entry, None)


def amend_deal(ledger: Ledger, session: SessionRow, deal_no: int, deal: Deal, *,
               entry_uuid: str | None = None) -> Recorded:
    """Replace deal ``deal_no``'s facts (restores it if it was voided; a repeat of
    ``entry_uuid`` writes nothing)."""
    entry_uuid = keys.checked(entry_uuid)
    with ledger.writing():  # under the write lock, like void_deal
        again = keys.repeated_entry(ledger, entry_uuid, session, "amend", deal_no,
                                    deal.to_dict(), own_players=deal.players is None)
        if again is not None:
            return rebuilt(session, again)
        live = _live(ledger, session, deal_no, "amend")
        deal = with_players(session, deal, deal_seats(ledger, session, deal_no))
        result = score(session, deal)
        rows = points_rows(session.seats, result)
        if live is not None:
            rows = reversal(ledger, live) + rows
        entry = ledger.journal.add_entry(session.id, "amend", deal_no, deal.to_dict(), rows,
                                         entry_uuid=entry_uuid)
    return Recorded(entry, result)


def undo_marks(ledger: Ledger, session_id: int) -> dict[int, int]:
    """Entry id -> seq of the entry it undid, for the deal entries an undo wrote."""
    return ledger.journal.undo_marks(session_id)


if TYPE_CHECKING:
    from ledger.book.undo import Undone as Undone
    from ledger.book.undo import UndoPreview as UndoPreview


def undo(ledger: Ledger, session: SessionRow, *, session_start: bool = True,
         entry_uuid: str | None = None) -> Undone:
    """Take back the last action on ``session`` (:func:`ledger.book.undo.undo`)."""
    from ledger.book.undo import undo as undo_last

    return undo_last(ledger, session, session_start=session_start, entry_uuid=entry_uuid)


def undo_preview(ledger: Ledger, session: SessionRow, *, session_start: bool = True
                 ) -> UndoPreview | None:
    """What :func:`undo` would take back now (:func:`ledger.book.undo.undo_preview`)."""
    from ledger.book.undo import undo_preview as preview

    return preview(ledger, session, session_start=session_start)


