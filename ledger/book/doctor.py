"""``bigtwo doctor``: the ledger checks itself.

Like a balance assertion in beancount, every check names the entry, what was
expected, what is stored and the difference.  The checks:

- SQLite's own ``quick_check`` (``integrity_check`` with ``full``) of the file;
- every row belongs to something: no points without their entry, no entry or
  seat without its session, no reference to a missing player;
- replaying each session's entries in order, every entry's stored points equal
  a fresh derivation: a deal's from its facts and the session's frozen rule set,
  a void's the negation of the version it voids, an amend's that negation plus
  the new facts' points (a correction merged from another device that is older,
  in the one order, than the version it found is kept with no points);
- every entry's net points sum to zero;
- net of reversals, a live deal has exactly one row per seated player and a
  voided one none, and no row names a player who is not seated;
- the per-session totals the store keeps as a cache equal the sums of ``points``.

>>> f = Finding("derived", "session 1 deal 5 (entry 7, deal)", "Ben net", -9, -12)
>>> f.text()
'session 1 deal 5 (entry 7, deal): Ben net: expected -9, stored -12, difference -3'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger.book.derivations import Derivations, Key, Sums, derive, facts_of, played_by, sums
from ledger.core.i18n import N_, _, ngettext
from ledger.core.phrase import Phrase, local, said
from ledger.core.rules import RuleSet, rules_from_dict
from ledger.storage.raw_rows import CachedFlow, CachedTotal, RawEntry, RawPoints, SessionRows
from ledger.storage.rows import PointsRow
from ledger.storage.schema import POINT_COLUMNS, schema_item
from ledger.storage.store import Ledger

__all__ = ["Finding", "Key", "Report", "Sums", "check_ledger", "check_session", "sums"]
# The points columns and entry kinds as findings name them (translated when shown).
COLUMN_WORDS = {"deals": N_("deals"), "wins": N_("wins"), "fried": N_("fried"),
                "cards": N_("cards"), "penalty": N_("penalty"), "net": N_("net")}
KIND_WORDS = {"deal": N_("deal"), "void": N_("void"), "amend": N_("amend")}


def _word(words: dict[str, str], word: str) -> str:
    """A column or kind as a phrase (a damaged ledger's unknown one as it is)."""
    return Phrase(words[word]) if word in words else word


@dataclass(frozen=True)
class Finding:
    """One problem: where it is, what it is about, and the two values that disagree."""

    check: str
    where: str
    what: str
    expected: Any = None
    stored: Any = None

    @property
    def difference(self) -> int | None:
        if type(self.expected) is int and type(self.stored) is int:
            return self.stored - self.expected
        return None

    def text(self) -> str:
        """The finding in English (``--json`` keeps it; :meth:`shown` translates it)."""
        out = f"{self.where}: {self.what}"
        if self.expected is not None or self.stored is not None:
            out += f": expected {self.expected}, stored {self.stored}"
            if self.difference is not None:
                out += f", difference {self.difference:+d}"
        return out

    def shown(self) -> str:
        """The finding in the interface's language."""
        where, what = local(self.where), local(self.what)
        if self.expected is None and self.stored is None:
            return _("{where}: {what}").format(where=where, what=what)
        values = {"where": where, "what": what, "expected": self.expected, "stored": self.stored}
        if self.difference is None:
            return _("{where}: {what}: expected {expected}, stored {stored}").format(**values)
        return _("{where}: {what}: expected {expected}, stored {stored}, difference "
                 "{difference}").format(**values, difference=f"{self.difference:+d}")

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "where": self.where, "what": self.what,
                "expected": self.expected, "stored": self.stored,
                "difference": self.difference, "text": self.text()}


@dataclass
class Report:
    integrity: list[str]
    findings: list[Finding] = field(default_factory=list)
    sessions: int = 0
    entries: int = 0
    live_deals: int = 0
    points: int = 0

    @property
    def ok(self) -> bool:
        return self.integrity == ["ok"] and not self.findings

    def problems(self) -> list[str]:
        """Every problem as one line in the interface's language (empty when the ledger
        is sound)."""
        bad = [] if self.integrity == ["ok"] else [_("integrity: {problem}").format(problem=x)
                                                   for x in self.integrity]
        return bad + [f.shown() for f in self.findings]

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "integrity": self.integrity, "sessions": self.sessions,
                "entries": self.entries, "live_deals": self.live_deals, "points": self.points,
                "findings": [f.to_dict() for f in self.findings]}

    def text(self) -> str:
        """The report in the interface's language."""
        if self.ok:

            return _("ok: {checked}; integrity ok, every deal re-derives, nets sum to zero").format(
                checked=self._checked())
        lines = self.problems()
        lines.append(ngettext("{count} problem found in {checked}",
                              "{count} problems found in {checked}", len(lines)).format(
                                  count=len(lines), checked=self._checked()))
        return "\n".join(lines)

    def _checked(self) -> str:
        """What was checked: ``2 sessions, 9 entries, 7 live deals, 28 points rows``."""
        return _("{sessions}, {entries}, {live}, {points}").format(
            sessions=ngettext("{count} session", "{count} sessions", self.sessions).format(
                count=self.sessions),
            entries=ngettext("{count} entry", "{count} entries", self.entries).format(
                count=self.entries),
            live=ngettext("{count} live deal", "{count} live deals", self.live_deals).format(
                count=self.live_deals),
            points=ngettext("{count} points row", "{count} points rows", self.points).format(
                count=self.points))




# --- pure parts -----------------------------------------------------------------


def _combine(a: Sums, b: Sums, sign: int = 1) -> Sums:
    out = {k: list(v) for k, v in a.items()}
    for k, v in b.items():
        acc = out.setdefault(k, [0] * len(POINT_COLUMNS))
        for i, x in enumerate(v):
            acc[i] += sign * x
    return {k: tuple(v) for k, v in out.items() if any(v)}


def compare(where: str, expected: Sums, stored: Sums, check: str = "derived") -> list[Finding]:
    """A finding per player (and payee) and column where the two disagree."""
    zero = (0,) * len(POINT_COLUMNS)
    found = []
    for key in sorted(set(expected) | set(stored), key=lambda k: (k[0], k[1] or "")):
        want, have = expected.get(key, zero), stored.get(key, zero)
        for i, column in enumerate(POINT_COLUMNS):
            if want[i] != have[i]:
                player, payee = key
                what = (Phrase(N_("{player} {column} (with {payee})"), player=player,
                               column=_word(COLUMN_WORDS, column), payee=payee)
                        if payee and column == "net" else
                        Phrase(N_("{player} {column}"), player=player,
                               column=_word(COLUMN_WORDS, column)))
                found.append(Finding(check, where, what, want[i], have[i]))
    return found


@dataclass
class SessionCheck:
    findings: list[Finding] = field(default_factory=list)
    live_deals: int = 0


def check_session(
    session_id: int,
    rules_json: str,
    teams: bool,
    seats: Sequence[str],
    entries: Sequence[RawEntry],
    points: Sequence[RawPoints],
    derivations: Derivations | None = None,
) -> SessionCheck:
    """Replay one session's entries (as stored, by seq) against its points; with
    ``derivations``, a deal derived before in the same pass is not derived again."""
    out = SessionCheck()
    findings = out.findings
    here = Phrase(N_("session {id}"), id=session_id)

    def at(deal_no: int, seq: int, kind: str) -> Phrase:  # where a finding is (made only for one)
        return Phrase(N_("{session} deal {deal} (entry {seq}, {kind})"), session=here,
                      deal=deal_no, seq=seq, kind=_word(KIND_WORDS, kind))

    rules: RuleSet | None = None
    try:
        rules = (rules_from_dict(json.loads(rules_json)) if derivations is None
                 else derivations.rules(rules_json))
    except Exception:  # any damage to the stored text is a finding, not a crash
        error = said(lambda: rules_from_dict(json.loads(rules_json)))
        findings.append(Finding("rules", here, Phrase(
            N_("its frozen rule set does not load: {error}"), error=error)))
    if len(seats) < 2:
        findings.append(Finding("seats", here, Phrase(N_("seated players")), ">= 2", len(seats)))
    bound = None if derivations is None or rules is None else derivations.bind(
        rules, seats, teams, rules_json)
    by_entry: dict[int, list[PointsRow]] = {}
    for entry_id, row in points:
        rows = by_entry.get(entry_id)
        if rows is None:
            by_entry[entry_id] = [row]
        else:
            rows.append(row)
    # deal number -> the live version's points (fresh derivation; the stored sum when
    # the facts cannot be derived), or None once voided
    live: dict[int, Sums | None] = {}
    stored_so_far: dict[int, Sums] = {}
    version: dict[int, tuple[str, str]] = {}  # deal: (created_at, uuid) of its version
    net_col = POINT_COLUMNS.index("net")
    players: dict[int, Sequence[str]] = {}  # deal: who played its version
    for entry_id, seq, kind, deal_no, facts_json, created_at, uuid in entries:
        stored = sums(by_entry.get(entry_id, ()))
        derived: Sums | None = None
        if kind in ("deal", "amend"):
            derived = _derive_entry(findings, (deal_no, seq, kind), at, rules, seats, teams,
                                    facts_json, bound)
        expected: Sums | None
        if kind == "deal":
            if deal_no in live:
                findings.append(Finding("replay", at(deal_no, seq, kind), Phrase(N_(
                    "a second 'deal' entry for this deal number (corrections are amend or "
                    "void)"))))
            expected = derived
        elif kind in ("void", "amend"):
            if deal_no in version and (created_at, uuid) < version[deal_no]:
                # merged from a device that corrected the deal while apart: older than
                # the version it found, it is kept with no points (docs/import-export.md)
                findings.extend(compare(at(deal_no, seq, kind), {}, stored))
                continue
            if deal_no not in live:
                findings.append(Finding("replay", at(deal_no, seq, kind), Phrase(
                    N_("corrects a deal never recorded"))))
            elif kind == "void" and live[deal_no] is None:
                findings.append(Finding("replay", at(deal_no, seq, kind), Phrase(
                    N_("voids a deal already void"))))
            before = live.get(deal_no) or {}
            expected = None if derived is None and kind == "amend" else _combine(
                derived or {}, before, sign=-1)
        else:
            findings.append(Finding("replay", at(deal_no, seq, kind), Phrase(
                N_("unknown entry kind {kind!r}"), kind=kind)))
            continue
        if expected is not None and expected != stored:
            findings.extend(compare(at(deal_no, seq, kind), expected, stored))
        net = sum(v[net_col] for v in stored.values())
        if net:
            findings.append(Finding("net", at(deal_no, seq, kind),
                                    Phrase(N_("net points summed over players")), 0, net))
        prior = stored_so_far.get(deal_no)
        so_far = stored_so_far[deal_no] = stored if prior is None else _combine(prior, stored)
        version[deal_no] = (created_at, uuid)
        if kind == "void":
            live[deal_no] = None
        else:
            live[deal_no] = derived if derived is not None else so_far
            players[deal_no] = played_by(seats, facts_json)
    deals_col = POINT_COLUMNS.index("deals")
    for deal_no in sorted(stored_so_far):
        counted: dict[str, int] = {}
        for (player, _payee), v in stored_so_far[deal_no].items():
            counted[player] = counted.get(player, 0) + v[deals_col]
        is_live = live.get(deal_no) is not None
        out.live_deals += is_live
        want = int(is_live)
        played = players.get(deal_no, seats) if is_live else seats
        if all(counted.get(player, 0) == want for player in played) and set(played).issuperset(counted):
            continue
        where = Phrase(N_("{session} deal {deal} (live, net of reversals)") if is_live else
                       N_("{session} deal {deal} (void, net of reversals)"),
                       session=here, deal=deal_no)
        for player in played:
            if counted.get(player, 0) != want:
                findings.append(Finding("seats", where, Phrase(N_("{player} rows"),
                                                               player=player),
                                        want, counted.get(player, 0)))
        for player in sorted(set(counted) - set(played)):
            findings.append(Finding("seats", where, Phrase(
                N_("points for {player}, who is not seated"), player=player), 0, counted[player]))
    known = {e.id for e in entries}
    for entry_id in sorted(set(by_entry) - known):
        findings.append(Finding("orphan", here, Phrase(
            N_("points rows of entry {entry}, which is not one of this session's entries"),
            entry=entry_id)))
    return out


def _derive_entry(findings: list[Finding], entry: tuple[int, int, str],
                  at: Callable[[int, int, str], Phrase], rules: RuleSet | None,
                  seats: Sequence[str], teams: bool, facts_json: str | None,
                  bound: Callable[[str | None], Sums] | None) -> Sums | None:
    if rules is None:
        return None
    def derived() -> Sums:
        return derive(rules, seats, teams, facts_of(facts_json))

    try:
        return derived() if bound is None else bound(facts_json)
    except Exception:  # damaged or no longer valid facts: report them, keep going
        findings.append(Finding("derived", at(*entry), Phrase(N_("its facts do not score: {error}"),
                                                               error=said(derived))))
        return None


def check_cached_totals(
    points: Mapping[int, Sequence[RawPoints]],
    totals: Sequence[CachedTotal],
    flows: Sequence[CachedFlow],
) -> tuple[list[Finding], list[Finding]]:
    """The store's per-session totals and pay-the-winner flows against ``points``: the
    findings of the totals, and those of the flows (a pass over the sessions keeps the
    second apart, to give all of them after the first)."""
    want_totals: dict[tuple[int, str], list[int]] = {}
    want_flows: dict[tuple[int, str, str], int] = {}
    for sid, rows in points.items():
        for _entry, p in rows:
            acc = want_totals.get((sid, p.player))
            if acc is None:
                acc = want_totals[sid, p.player] = [0] * len(POINT_COLUMNS)
            acc[0] += p.deals
            acc[1] += p.wins
            acc[2] += p.fried
            acc[3] += p.cards
            acc[4] += p.penalty
            acc[5] += p.net
            if p.payee is not None:
                want_flows[sid, p.player, p.payee] = want_flows.get((sid, p.player, p.payee),
                                                                    0) + p.net
    have_totals = {(t.session_id, t.player): tuple(t[2:]) for t in totals}
    have_flows = {(f.session_id, f.player, f.payee): f.net for f in flows}
    zero = (0,) * len(POINT_COLUMNS)
    found: list[Finding] = []
    for key in sorted(set(want_totals) | set(have_totals)):
        want, have = tuple(want_totals.get(key, zero)), have_totals.get(key, zero)
        if want == have:
            continue
        found.extend(
            Finding("totals", Phrase(N_("session {id} cached totals"), id=key[0]),
                    Phrase(N_("{player} {column}"), player=key[1],
                           column=_word(COLUMN_WORDS, column)), want[i], have[i])
            for i, column in enumerate(POINT_COLUMNS) if want[i] != have[i]
        )
    flow_found: list[Finding] = []
    for flow in sorted(set(want_flows) | set(have_flows)):
        if want_flows.get(flow, 0) != have_flows.get(flow, 0):
            flow_found.append(Finding("totals", Phrase(N_("session {id} cached flows"), id=flow[0]),
                                      Phrase(N_("{player} net with {payee}"), player=flow[1],
                                             payee=flow[2]), want_flows.get(flow, 0),
                                      have_flows.get(flow, 0)))
    return found, flow_found


# --- the ledger -------------------------------------------------------------------


def check_ledger(ledger: Ledger, full: bool = False, schema: bool = True,
                 derive_all: bool | None = None) -> Report:
    """Run every check on an open ledger (reads only); ``schema``: compare the whole
    schema (tables, indexes, triggers, views, by their SQL) with this program's.

    ``full``: SQLite's full ``integrity_check`` rather than ``quick_check``, and every
    deal derived on its own (``derive_all``, which defaults to ``full``); otherwise a
    deal whose facts, seat by seat and under the same rules, were derived earlier in the
    pass is checked against that derivation (:mod:`ledger.book.derivations`).

    One pass: the sessions are read one at a time (``ledger.inspection.session_rows``),
    and nothing of a session but its findings is kept once it is checked.
    """
    report = Report(integrity=ledger.inspection.integrity(full))
    if schema:
        report.findings.extend(
            Finding("schema", what, how) for what, how in ledger.inspection.schema_differences()
        )
    else:
        report.findings.extend(
            Finding("schema", schema_item("trigger", name), Phrase(N_(
                "is missing: recorded entries are no longer protected from being changed")))
            for name in ledger.inspection.missing_guards()
        )
    report.findings.extend(
        Finding("orphan", row, problem) for row, problem in ledger.inspection.orphans()
    )
    derivations = None if (full if derive_all is None else derive_all) else Derivations()
    cached = ledger.inspection.cached_tables()  # an old schema keeps no totals to check
    totals: list[Finding] = []
    flows: list[Finding] = []
    for sid, session, entries, points, cached_totals, cached_flows in _sessions(
            ledger, report, derivations, cached):
        if session is not None:
            result = check_session(sid, session.rules, session.teams, session.seats, entries, points,
                                   derivations)
            report.findings.extend(result.findings)
            report.sessions += 1
            report.entries += len(entries)
            report.points += len(points)
            report.live_deals += result.live_deals
        if cached and (cached_totals or cached_flows or points):
            found, flow_found = check_cached_totals({sid: points} if session else {}, cached_totals,
                                                    cached_flows)
            totals += found
            flows += flow_found
    report.findings.extend(totals + flows)
    report.findings.extend(check_payments(ledger))
    report.findings.extend(check_keys(ledger))
    return report


def _sessions(ledger: Ledger, report: Report, derivations: Derivations | None,
              cached: bool) -> Iterator[SessionRows]:
    """The sessions to replay, in id order: with ``derivations`` (the plain doctor) only
    those the digests do not prove clean (:mod:`ledger.book.proofs`), the others counted
    into ``report`` here; without, every session."""
    from ledger.book.proofs import proofs

    proven = None if derivations is None else proofs(ledger, derivations, cached)
    if proven is None:
        yield from ledger.inspection.session_rows()
        return
    for proof in proven:
        if proof.rows is not None:
            yield proof.rows
        else:
            report.sessions += 1
            report.entries += proof.entries
            report.points += proof.points
            report.live_deals += proof.entries  # only deals, one per deal number


def check_payments(ledger: Ledger) -> list[Finding]:
    """Every payment no undo took back, through the gate's checks (an older version let
    some in): each refused one named, with the reversal that makes it harmless."""
    from ledger.book.gate import PaySession, payment_damage

    if not ledger.inspection.has_table("payments"):
        return []
    live = ledger.payments.live()
    if not live:
        return []
    sessions = {sid: PaySession(str(sid), tuple(seats), currency or "PTS")
                for sid, (currency, seats) in ledger.inspection.session_money(
                    {row.session_id for row in live if row.session_id is not None}).items()}
    out = []
    for row in live:
        session = None if row.session_id is None else sessions.get(row.session_id)
        problem = payment_damage(row.payer, row.payee, row.amount, row.currency, session,
                                 row.created_at, row.note)
        if problem is not None:
            out.append(Finding("payment", Phrase(N_("payment {uuid}"), uuid=row.uuid),
                               Phrase(N_("{problem}; bigtwo payments undo {uuid} takes it back"),
                                      problem=problem, uuid=row.uuid)))
    return out


def check_keys(ledger: Ledger) -> list[Finding]:
    """One uuid, one action: a uuid two tables hold (an older version let one in)."""
    return [Finding("key", Phrase(N_("uuid {uuid}"), uuid=uuid),
                    Phrase(N_("names actions of {count} kinds ({tables}): one uuid names one "
                              "action"), count=len(tables), tables=", ".join(tables)))
            for uuid, tables in ledger.keys.shared()]


def problems(ledger: Ledger) -> list[str]:
    """Every problem of an open ledger, one line each."""
    return check_ledger(ledger).problems()


def full_problems(ledger: Ledger) -> list[str]:
    """Every problem ``doctor --full`` finds, one line each: ``restore`` refuses any,
    whatever the plain doctor checks."""
    return check_ledger(ledger, full=True).problems()


def data_problems(ledger: Ledger) -> list[str]:
    """The problems of a backup's rows as they are stored (its schema is not compared:
    ``restore`` rebuilds it, and an older release's backup has an older one)."""
    report = check_ledger(ledger, schema=False, derive_all=True)
    return [f.shown() for f in report.findings if f.check != "schema"] + (
        [] if report.integrity == ["ok"] else [_("integrity: {problem}").format(problem=x)
                                               for x in report.integrity])

