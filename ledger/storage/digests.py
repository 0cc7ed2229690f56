"""Per-session digests of the ledger for the plain doctor, computed by SQLite.

The plain ``bigtwo doctor`` proves most sessions clean without reading their rows into
Python (``ledger/book/proofs.py``).  What it needs from the file, here, each as one
aggregate query in session order:

- every deal entry keyed by its facts seat by seat (:meth:`Digests.key_deals`): the
  facts text must be exactly what ``to_json`` writes for ``{"cards": {…}}`` (and
  ``{"assist": …, "cards": {…}}``) over the session's seated players, rebuilt from the
  values read back, so a key never stands for facts it does not say;
- the distinct keys, each with one entry that has it (:meth:`Digests.distinct_keys`), for
  the book to derive once and give back as expected points (:meth:`Digests.expect`);
- the sessions whose stored points, cached totals or flows do not match what their
  entries' derivations expect (:meth:`Digests.compare`): counts, and sums weighted
  by player and by entry and player (a digest: consistent changes made on purpose can
  keep it, which is why ``--full``, ``restore`` and a backup's import derive every deal).

Everything is kept in TEMP tables of the connection, dropped by :meth:`Digests.close`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import wraps
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple, ParamSpec, TypeVar

from ledger.storage.raw_rows import CachedFlow, CachedTotal, RawSession, SessionRows

SLOTS = 8  # seats a session may have and still be proven by SQL
# Column weights of a points row's digest (deals, wins, fried, cards, penalty, net).
WEIGHTS = (1, 3, 7, 19, 101, 1009)
W_SQL = " + ".join(f"{w} * {c}" for w, c in zip(
    WEIGHTS, ("deals", "wins", "fried", "cards", "penalty", "net"), strict=True))


class SessionContext(NamedTuple):
    """What a session's keys are read with: its rules context (rules text, teams and
    number of seats, numbered by the book), its seated players' names and ids."""

    session_id: int
    context: int
    names: tuple[str, ...]
    player_ids: tuple[int, ...]


class Expected(NamedTuple):
    """A key's derivation as the digests compare it: how many points rows, and each
    seat's row's weighted sum (``WEIGHTS``)."""

    context: int
    key: str
    rows: int
    seats: tuple[int, ...]


class DistinctKey(NamedTuple):
    """A key, with the seated players and facts text of one deal entry that has it."""

    context: int
    key: str
    seats: tuple[str, ...]
    facts: str


class Tally(NamedTuple):
    """A session as the digests found it: proven clean or not, its entries and points rows."""

    session_id: int
    exists: bool
    proven: bool
    entries: int
    points: int


class Unreadable(Exception):
    """This file's schema cannot be read by the digests (an older or damaged one): the
    doctor replays every session instead."""


P = ParamSpec("P")
T = TypeVar("T")


def _reading(method: Callable[P, T]) -> Callable[P, T]:
    """``method`` with SQLite's "no such table / column" as :class:`Unreadable`."""
    @wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return method(*args, **kwargs)
        except sqlite3.OperationalError as e:
            raise Unreadable(str(e)) from e

    return run


def plain(name: str) -> bool:
    """Whether a name can be read by a JSON path and a printf template as it is."""
    return not any(c in name for c in '"\\%') and all(c >= " " for c in name) and name != ""


def _templates(names: Sequence[str]) -> tuple[str, str, str, list[str], list[str]]:
    """The facts texts a cards-only, an assisted and a missed-call deal of these seats
    have, as printf templates (values in name order), and the paths of each name's cards
    in name order and in seat order."""
    ordered = sorted(names)
    cards = ", ".join(json.dumps(n, ensure_ascii=False) + ": %d" for n in ordered)
    return ("{\"cards\": {" + cards + "}}", "{\"assist\": %s, \"cards\": {" + cards + "}}",
            "{\"cards\": {" + cards + "}, \"missed_call\": true}",
            [f'$.cards."{n}"' for n in ordered], [f'$.cards."{n}"' for n in names])


class Digests:
    """The digests of one pass of the plain doctor over an open connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.close()

    def close(self) -> None:
        """Drop the TEMP tables (a connection closed first dropped them itself)."""
        try:
            for table in ("ctx", "pids", "dk", "keys", "want", "have", "tot", "flo"):
                self.conn.execute(f"DROP TABLE IF EXISTS temp.doctor_{table}")
        except sqlite3.ProgrammingError:
            pass

    @_reading
    def sessions(self) -> Iterator[tuple[RawSession, tuple[int, ...]]]:
        """Every session with its seated players' names (as the replay names them) and
        ids, streamed in id order (nothing of them is kept here)."""
        rows = self.conn.execute(
            """SELECT s.id, s.rules, s.teams, COALESCE(p.name, '#' || t.player_id), t.player_id
               FROM sessions s LEFT JOIN seats t ON t.session_id = s.id
               LEFT JOIN players p ON p.id = t.player_id ORDER BY s.id, t.seat""")
        for sid, group in groupby(rows, key=itemgetter(0)):
            seated = [r for r in group if r[4] is not None]
            first = seated[0] if seated else self.conn.execute(
                "SELECT id, rules, teams FROM sessions WHERE id = ?", [sid]).fetchone()
            yield (RawSession(sid, first[1], bool(first[2]), tuple(r[3] for r in seated)),
                   tuple(r[4] for r in seated))

    def session_of(self, session_id: int) -> RawSession | None:
        """One session as :meth:`sessions` gives it, or None if there is none."""
        row = self.conn.execute("SELECT rules, teams FROM sessions WHERE id = ?",
                                [session_id]).fetchone()
        if row is None:
            return None
        seats = tuple(r[0] for r in self.conn.execute(
            """SELECT COALESCE(p.name, '#' || t.player_id) FROM seats t
               LEFT JOIN players p ON p.id = t.player_id WHERE t.session_id = ? ORDER BY t.seat""",
            [session_id]))
        return RawSession(session_id, row[0], bool(row[1]), seats)

    @_reading
    def key_deals(self, contexts: Iterable[SessionContext]) -> None:
        """Key every deal entry of the sessions given (the others stay unproven)."""
        cols = ", ".join(f"s{i} TEXT, p{i} TEXT, n{i} TEXT, q{i} INTEGER" for i in range(SLOTS))
        self.conn.execute(f"CREATE TEMP TABLE doctor_ctx (session_id INTEGER PRIMARY KEY, "
                          f"rc INTEGER, tpl TEXT, tpla TEXT, tplm TEXT, ktpl TEXT, {cols})")
        marks = ", ".join("?" * (6 + 4 * SLOTS))

        def rows() -> Iterator[list[object]]:
            for c in contexts:
                tpl, tpla, tplm, by_name, by_seat = _templates(c.names)
                slots: list[object] = []
                for i in range(SLOTS):
                    inside = i < len(c.names)
                    slots += [by_name[i] if inside else None, by_seat[i] if inside else None,
                              c.names[i] if inside else None, c.player_ids[i] if inside else 0]
                yield [c.session_id, c.context, tpl, tpla, tplm, ",".join(["%d"] * len(c.names)), *slots]

        self.conn.executemany(f"INSERT INTO doctor_ctx VALUES ({marks})", rows())
        self.conn.execute(f"""CREATE TEMP TABLE doctor_pids AS SELECT session_id,
                              {', '.join(f'q{i}' for i in range(SLOTS))} FROM doctor_ctx""")
        self.conn.execute("CREATE TEMP TABLE doctor_dk (entry_id INTEGER, session_id INTEGER, "
                          "kind TEXT, deal_no INTEGER, rc INTEGER, key TEXT)")
        for seats in sorted({r[0] for r in self.conn.execute(
                "SELECT length(ktpl) FROM doctor_ctx")}):  # as many values read as seats
            n = (seats + 1) // 3
            by_name = ", ".join(f"json_extract(e.facts, c.s{i})" for i in range(n))
            by_seat = ", ".join(f"json_extract(e.facts, c.p{i})" for i in range(n))
            assist = " ".join(f"WHEN c.n{i} THEN '{i}'" for i in range(n))
            self.conn.execute(f"""
                INSERT INTO doctor_dk
                SELECT e.id, e.session_id, e.kind, e.deal_no, c.rc,
                       CASE WHEN e.kind != 'deal' OR NOT json_valid(e.facts) THEN NULL
                            WHEN e.facts = printf(c.tpl, {by_name}) THEN printf(c.ktpl, {by_seat})
                            WHEN e.facts = printf(c.tpla, json_quote(json_extract(e.facts, '$.assist')),
                                                  {by_name})
                            THEN (CASE json_extract(e.facts, '$.assist') {assist} END)
                                 || ':' || printf(c.ktpl, {by_seat})
                            WHEN e.facts = printf(c.tplm, {by_name})
                            THEN 'm:' || printf(c.ktpl, {by_seat})
                       END
                FROM doctor_ctx c JOIN entries e ON e.session_id = c.session_id AND e.seq IS NOT NULL
                WHERE length(c.ktpl) = ?""", [seats])

    @_reading
    def expect(self, derive: Callable[[DistinctKey], Expected | None]) -> None:
        """Each distinct key, with one deal entry that has it, derived by ``derive`` and
        kept (a key it gives None for is not proven), one at a time."""
        seats = ", ".join(f"m{i} INTEGER NOT NULL DEFAULT 0" for i in range(SLOTS))
        self.conn.execute(f"""CREATE TEMP TABLE doctor_keys (rc INTEGER, key TEXT, n INTEGER,
            w INTEGER, {seats}, PRIMARY KEY (rc, key))""")
        keys = self.conn.execute(  # each seat's name as key_deals keyed it (doctor_ctx)
            f"""SELECT g.rc, g.key, e.facts, {', '.join(f'c.n{i}' for i in range(SLOTS))}
               FROM (SELECT rc, key, min(entry_id) AS first FROM doctor_dk
                     WHERE key IS NOT NULL GROUP BY rc, key) g
               JOIN entries e ON e.id = g.first JOIN doctor_ctx c ON c.session_id = e.session_id""")
        self.conn.executemany(
            f"INSERT INTO doctor_keys VALUES ({', '.join('?' * (4 + SLOTS))})",
            ([x.context, x.key, x.rows, sum(x.seats), *x.seats, *[0] * (SLOTS - len(x.seats))]
             for x in (derive(DistinctKey(rc, key, tuple(n for n in names if n is not None), facts))
                       for rc, key, facts, *names in keys) if x is not None))

    @_reading
    def compare(self, cached: bool) -> Iterator[Tally]:
        """Every session (and every session id the cached totals or flows name) in id
        order: proven clean by the digests or not, with its entries and points rows (the
        aggregates are made here, the sessions read as they are taken)."""
        x = " + ".join(f"c.q{i} * k.m{i}" for i in range(SLOTS))
        # (LIMIT -1: the inner query is not folded into the sums, so x is worked out once)
        self.conn.execute(f"""
            CREATE TEMP TABLE doctor_want AS
            SELECT session_id, count(*) AS entries, count(rc) AS keyed,
                   count(DISTINCT deal_no) AS deal_nos, sum(n) AS n,
                   sum(x) AS a, sum(entry_id * (x + 7 * w)) AS d
            FROM (SELECT d.session_id, d.deal_no, d.entry_id, k.rc, k.n, k.w, {x} AS x
                  FROM doctor_dk d JOIN doctor_pids c ON c.session_id = d.session_id
                  LEFT JOIN doctor_keys k ON k.rc = d.rc AND k.key = d.key LIMIT -1)
            GROUP BY session_id""")
        w = f"({W_SQL})"
        self.conn.execute(f"""
            CREATE TEMP TABLE doctor_have AS
            SELECT session_id, count(*) AS n, count(payee_id) AS payees,
                   sum({w} * player_id) AS a, sum({w} * entry_id * (player_id + 7)) AS d
            FROM points GROUP BY session_id""")
        if cached:
            self.conn.execute(f"""
                CREATE TEMP TABLE doctor_tot AS
                SELECT session_id, sum({w} * player_id) AS a
                FROM session_totals GROUP BY session_id""")
            self.conn.execute("""
                CREATE TEMP TABLE doctor_flo AS
                SELECT session_id, sum(net != 0) AS moved FROM session_flows GROUP BY session_id""")
        else:
            self.conn.execute("CREATE TEMP TABLE doctor_tot (session_id INTEGER PRIMARY KEY, "
                              "a)")
            self.conn.execute("CREATE TEMP TABLE doctor_flo (session_id INTEGER PRIMARY KEY, moved)")
        same = " AND ".join(f"w.{c} = h.{c}" for c in ("n", "a", "d"))
        totals = " AND ".join(f"coalesce(t.{c}, 0) = coalesce(h.{c}, 0)"
                              for c in ("a",))
        proven = (f"(c.session_id IS NOT NULL AND w.entries = w.keyed AND w.entries = w.deal_nos "
                  f"AND coalesce(h.payees, 0) = 0 AND coalesce(f.moved, 0) = 0 "
                  f"AND (({same}) OR (w.n = 0 AND h.n IS NULL))"
                  + (f" AND {totals})" if cached else ")"))
        return (Tally(sid, bool(there), bool(ok), entries, points)
                for sid, there, ok, entries, points in self.conn.execute(f"""
            SELECT s.id, 1, coalesce({proven}, c.session_id IS NOT NULL AND w.session_id IS NULL
                                  AND h.session_id IS NULL AND coalesce(f.moved, 0) = 0
                                  AND t.session_id IS NULL),
                   coalesce(w.entries, 0), coalesce(h.n, 0)
            FROM sessions s LEFT JOIN doctor_ctx c ON c.session_id = s.id
            LEFT JOIN doctor_want w ON w.session_id = s.id
            LEFT JOIN doctor_have h ON h.session_id = s.id
            LEFT JOIN doctor_tot t ON t.session_id = s.id
            LEFT JOIN doctor_flo f ON f.session_id = s.id
            UNION ALL
            SELECT session_id, 0, 0, 0, 0 FROM (SELECT session_id FROM doctor_tot
                                             UNION SELECT session_id FROM doctor_flo)
            WHERE session_id NOT IN (SELECT id FROM sessions)
            ORDER BY 1"""))

    def session(self, session_id: int, session: RawSession | None, cached: bool) -> SessionRows:
        """One session's rows, as ``Inspection.session_rows`` gives them (for the replay
        of a session the digests did not prove)."""
        from ledger.storage.raw_rows import RawEntry, RawPoints
        from ledger.storage.rows import PointsRow

        entries = [RawEntry(*r) for r in self.conn.execute(
            "SELECT id, seq, kind, deal_no, facts, created_at, uuid FROM entries "
            "WHERE session_id = ? AND seq IS NOT NULL ORDER BY seq", [session_id])] if session else []
        points = [RawPoints(r[0], PointsRow(*r[1:])) for r in self.conn.execute(
            """SELECT q.entry_id, COALESCE(p.name, '#' || q.player_id), q.deals, q.wins,
                      q.fried, q.cards, q.penalty, q.net, y.name
               FROM points q LEFT JOIN players p ON p.id = q.player_id
               LEFT JOIN players y ON y.id = q.payee_id
               WHERE q.session_id = ? ORDER BY q.id""", [session_id])] if session else []
        totals = [CachedTotal(*r) for r in self.conn.execute(
            """SELECT t.session_id, COALESCE(p.name, '#' || t.player_id), t.deals, t.wins,
                      t.fried, t.cards, t.penalty, t.net
               FROM session_totals t LEFT JOIN players p ON p.id = t.player_id
               WHERE t.session_id = ? ORDER BY t.player_id""", [session_id])] if cached else []
        flows = [CachedFlow(*r) for r in self.conn.execute(
            """SELECT f.session_id, COALESCE(p.name, '#' || f.player_id),
                      COALESCE(y.name, '#' || f.payee_id), f.net
               FROM session_flows f LEFT JOIN players p ON p.id = f.player_id
               LEFT JOIN players y ON y.id = f.payee_id
               WHERE f.session_id = ? ORDER BY f.player_id, f.payee_id""", [session_id])] if cached else []
        return SessionRows(session_id, session, entries, points, totals, flows)
