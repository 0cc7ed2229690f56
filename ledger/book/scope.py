"""Which sessions a report covers, chosen in one place for every report.

``--session ID``, ``--all``, the current session, or a range of dates
(``--since``/``--until`` by a session's start date, or ``--season NAME``), narrowed
by ``--player``.  ``standings``, ``settle``, ``stats``, ``plot``, ``history``,
``export`` and ``owed`` all choose through :func:`select`, so they take the same
options, refuse the same mistakes with the same words, and say "no sessions from
… to …" the same way.

When nothing is chosen and no session is current (after ``bigtwo import``, or once
the current session's start was undone) a report covers every session and the
scope says so (:attr:`Scope.fallback`); a range is a choice, so it never does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from ledger.book.days import checked_range, parse_day
from ledger.core.errors import InputError
from ledger.core.i18n import N_, _
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

NO_SESSIONS = N_("the ledger has no sessions yet; start one with bigtwo session start")
ALL_NOTICE = N_("no current session: showing all sessions (--all); pick one with bigtwo session "
                "use ID")


def day_of(s: SessionRow) -> str:
    """The session's start date, YYYY-MM-DD, in the user's time zone (ledger.book.clock)."""
    from ledger.book.clock import local_day

    return local_day(s.started_at)


@dataclass(frozen=True)
class Range:
    """A range of calendar days, both ends included; either end may be open."""

    since: date | None = None
    until: date | None = None
    season: str | None = None  # the named season it came from, if any

    def __bool__(self) -> bool:
        return self.since is not None or self.until is not None

    def holds(self, day: str) -> bool:
        """Is ``day`` (YYYY-MM-DD) inside the range?"""
        return ((self.since is None or day >= self.since.isoformat())
                and (self.until is None or day <= self.until.isoformat()))

    def words(self) -> str:
        """``from 2024-01-01 to 2024-02-01`` (or one end only)."""
        return " ".join(x for x in (self.since and _("from {day}").format(day=self.since),
                                    self.until and _("to {day}").format(day=self.until)) if x)

    def to_dict(self) -> dict[str, Any]:
        return {"since": self.since and self.since.isoformat(),
                "until": self.until and self.until.isoformat(), "season": self.season}


def date_range(ledger: Ledger, since: str | None = None, until: str | None = None,
               season: str | None = None) -> Range:
    """The range given by ``--since``/``--until`` or ``--season NAME`` (not both)."""
    first, last = parse_day(since, "--since"), parse_day(until, "--until")
    checked_range(first, last)
    if season is None:
        return Range(first, last)
    if first or last:
        raise InputError(_("give --season NAME or --since/--until, not both"))
    from ledger.book.seasons import find_season

    found = find_season(ledger, season)
    return Range(found.since, found.until, found.name)


def no_sessions_text(player: str | None, within: Range) -> str:
    """``no sessions with Ann from 2024-01-01 to 2024-02-01`` (the command line adds
    :data:`SEE_ALL`, see :func:`no_sessions`)."""
    between = within.words()
    if player:
        text = _("no sessions with {player} {between}").format(player=player, between=between)
    else:
        text = _("no sessions {between}").format(between=between)
    return text.strip()


SEE_ALL = N_("see: bigtwo history --all")


def no_sessions(player: str | None, within: Range) -> InputError:
    """The refusal of a range (and player) with no sessions, its advice apart."""
    return InputError(no_sessions_text(player, within), advice=_(SEE_ALL))


@dataclass
class Scope:
    """The sessions a report covers, oldest first."""

    sessions: list[SessionRow]
    everything: bool  # every session of the ledger
    since: date | None = None
    until: date | None = None
    fallback: bool = False  # nothing was chosen and no session is current: every session
    season: str | None = None

    @property
    def ids(self) -> list[int] | None:
        """Session ids for store queries; None means all of them."""
        return None if self.everything else [s.id for s in self.sessions]

    @property
    def range(self) -> Range:
        return Range(self.since, self.until, self.season)

    @property
    def currencies(self) -> list[str]:
        return sorted({s.currency or "PTS" for s in self.sessions})

    @property
    def notice(self) -> str | None:
        """The line a report prints on stderr when it fell back to every session."""
        return _(ALL_NOTICE) if self.fallback else None

    def describe(self) -> str:
        from ledger.core.i18n import ngettext

        if len(self.sessions) == 1 and not self.range:
            s = self.sessions[0]
            return _("session {id}{name} ({date})").format(
                id=s.id, name=f' "{s.name}"' if s.name else "", date=day_of(s))
        first, last = day_of(self.sessions[0]), day_of(self.sessions[-1])
        span = first if first == last else _("{first} to {last}").format(first=first, last=last)
        text = ngettext("{count} session, {span}", "{count} sessions, {span}",
                        len(self.sessions)).format(count=f"{len(self.sessions):,}", span=span)
        if self.season:
            text = _("season {name}: {sessions}").format(name=self.season, sessions=text)
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "sessions": len(self.sessions),
            "first": day_of(self.sessions[0]), "last": day_of(self.sessions[-1]),
            "since": self.since and self.since.isoformat(),
            "until": self.until and self.until.isoformat(),
            "season": self.season,
            "currencies": self.currencies,
        }


def select(
    ledger: Ledger,
    session: int | None,
    all_sessions: bool,
    since: str | None = None,
    until: str | None = None,
    *,
    season: str | None = None,
    player: str | None = None,
    default_all: bool = False,
) -> Scope:
    """--session ID, --all or the current session (every session for ``default_all``,
    when a range is given, or when none is current), narrowed by the range and --player."""
    from ledger.book import actions as book

    if all_sessions and session is not None:
        raise InputError(_("give --session ID or --all, not both"))
    within = date_range(ledger, since, until, season)
    if session is not None and within:
        raise InputError(_("give --session ID or a range of dates, not both"))
    if player is not None:  # the ledger's spelling; an unknown name is an InputError
        player = ledger.player_name(player)
    fallback = False
    if not (session is not None or all_sessions or within):
        fallback = (ledger.journal.get_setting(book.CURRENT_KEY) is None
                    and bool(ledger.journal.session_ids()))
    if session is not None or not (all_sessions or default_all or within or fallback):
        sessions = [book.current_session(ledger, session)]
        everything = len(sessions) == len(ledger.journal.session_ids())
    else:
        sessions = ledger.journal.sessions()
        if not sessions:
            from ledger.book.reports import NO_SESSIONS as NONE_YET
            from ledger.book.reports import START_ONE

            raise InputError(_(NONE_YET), advice=_(START_ONE))  # the advice: the CLI's only
        everything = not (within or player)
    if within:
        sessions = [s for s in sessions if within.holds(day_of(s))]
    if player is not None:
        sessions = [s for s in sessions if player in s.seats]
    if not sessions:
        raise no_sessions(player, within)
    sessions.sort(key=lambda s: (s.started_at, s.id))
    return Scope(sessions, everything, within.since, within.until, fallback, within.season)
