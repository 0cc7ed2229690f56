"""The statements of bulk import (:mod:`ledger.storage.bulk`): multi-row inserts in a
few fixed sizes, and the SQL that makes scored games' points."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any


def insert_rows(conn: sqlite3.Connection, into: str, width: int, values: list[Any],
                 rows_per_statement: int = 256) -> None:
    """INSERT flat ``values`` (``width`` a row) as multi-row VALUES statements.

    Each statement holds a power of two of rows (``rows_per_statement`` at most), so an
    import prepares a few statements per table and reuses them from the connection's
    statement cache rather than one of every length a session has."""
    start, total = 0, len(values) // width
    rows = rows_per_statement
    while start < total:
        while rows > total - start:
            rows //= 2
        conn.execute(values_sql(into, width, rows), values[start * width:(start + rows) * width])
        start += rows


def insert_counted(conn: sqlite3.Connection, sql: Callable[[int], str], width: int,
                    values: Sequence[Any], shared: Callable[[int], list[Any]],
                    rows_per_statement: int = 256) -> None:
    """INSERT flat ``values`` (``width`` a row) with statements ``sql(rows)`` whose first
    parameters, ``shared(start)``, are those of the rows from ``start`` on (say, the first
    id, which the statement counts up), in a few fixed sizes as :func:`insert_rows`."""
    start, total = 0, len(values) // width
    rows = rows_per_statement
    while start < total:
        while rows > total - start:
            rows //= 2
        conn.execute(sql(rows), [*shared(start), *values[start * width:(start + rows) * width]])
        start += rows


@lru_cache(maxsize=16)
def scored_entries_sql(rows: int) -> str:
    """``rows`` deal entries: ?1 the first id, ?2 the session, ?3 the first seq, ?4 the
    time; then each row's uuid, deal number and facts."""
    values = ", ".join(
        f"(?1 + {k}, ?{5 + 3 * k}, ?2, ?3 + {k}, 'deal', ?{6 + 3 * k}, ?{7 + 3 * k}, ?4, NULL)"
        for k in range(rows))
    return ("INSERT INTO entries (id, uuid, session_id, seq, kind, deal_no, facts, created_at, "
            f"undoes) VALUES {values}")


@lru_cache(maxsize=16)
def scored_games_sql(rows: int) -> str:
    """``rows`` games' keys for temp.bulk_games: ?1 the first entry id, then each key."""
    values = ", ".join(f"(?1 + {k}, ?{2 + k})" for k in range(rows))
    return f"INSERT INTO temp.bulk_games (entry_id, key) VALUES {values}"


@lru_cache(maxsize=8)
def scored_sql(seats: int) -> str:
    """The points of the games in temp.bulk_games, from their scores: ?1 the session,
    ?2... the players of its seats.  In the order of the entries, then of the seats."""
    def player(column: str) -> str:
        return f"CASE {column} " + " ".join(
            f"WHEN {seat} THEN ?{seat + 2}" for seat in range(seats)) + " END"

    return ("INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, "
            f"penalty, net, payee_id) SELECT g.entry_id, ?1, {player('s.seat')}, s.deals, s.wins, "
            f"s.fried, s.cards, s.penalty, s.net, {player('s.payee')} "
            "FROM temp.bulk_games AS g JOIN temp.bulk_scores AS s ON s.key = g.key "
            "ORDER BY g.entry_id, s.seat")


@lru_cache(maxsize=64)
def values_sql(into: str, width: int, rows: int) -> str:
    one = "(" + ", ".join("?" * width) + ")"
    return f"INSERT INTO {into} VALUES " + ", ".join([one] * rows)


def quoted(name: str) -> str:
    """An SQL identifier (an index's name) quoted for a statement."""
    return '"' + name.replace('"', '""') + '"'
