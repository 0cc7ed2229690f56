"""The list of sessions by pages (ledger/book/views/listing.py, the ``sessions`` op): the
pages, read one after another, are the whole list, newest first, even when a session is
added between two of them; the search; the cursor refused when crafted."""

from __future__ import annotations

import shutil
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from history_ledger import add_session, build
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.book import actions as book
from ledger.book import players, views
from ledger.book.views.listing import read_cursor, write_cursor
from ledger.core.errors import InputError
from ledger.engine import dispatch
from ledger.storage.store import Ledger, open_ledger

SEATS = (["Ann", "Ben", "Cat", "Dan"], ["Ann", "Eve"], ["陳大文", "Ben", "Cat"])
made = count()


def full_list(ledger: Ledger) -> list[dict[str, Any]]:
    """Every session as ``session list --json`` gives it, with ``open``, newest first: the
    list the pages must add up to."""
    rows = sorted(ledger.journal.sessions(), key=lambda s: (s.started_at, s.id), reverse=True)
    return [{**s.to_dict(), "open": s.ended_at is None} for s in rows]


def read_pages(ledger: Ledger, limit: int, q: str | None = None,
               between: Any = None) -> list[dict[str, Any]]:
    """Every page, one after another; ``between(cursor)`` runs after the first."""
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        args: dict[str, Any] = {"limit": limit, **({"q": q} if q else {}),
                                **({"before": cursor} if cursor else {})}
        page = dispatch.call(ledger, "sessions", args)
        assert len(page["sessions"]) <= limit
        found += page["sessions"]
        if page["next"] is None:
            return found
        if between is not None and cursor is None:
            between(page["next"])
        cursor = page["next"]


@settings(max_examples=25, deadline=None)
@given(days=st.lists(st.integers(1, 6), min_size=0, max_size=9), limit=st.integers(1, 4),
       added=st.integers(0, 8), ended=st.sets(st.integers(0, 8)))
def test_pages_add_up_to_the_list_even_when_a_session_is_added_meanwhile(
        tmp_path_factory: pytest.TempPathFactory, template_ledger: Path, days: list[int], limit: int,
        added: int, ended: set[int]) -> None:
    path = tmp_path_factory.mktemp("pages") / f"{next(made)}.db"
    shutil.copyfile(template_ledger, path)
    with open_ledger(path) as ledger:
        for i, day in enumerate(days):  # days repeat: starts tie, the id decides
            s = add_session(ledger, SEATS[i % 3], [], f"2024-03-{day:02d}", name=f"evening {i}")
            if i in ended:
                book.end_session(ledger, s)
        before = full_list(ledger)
        assert read_pages(ledger, limit) == before
        assert dispatch.call(ledger, "sessions", {})["total"] == len(days)

        late: list[tuple[str, int]] = []

        def add(cursor: str) -> None:
            s = add_session(ledger, SEATS[0], [], f"2024-03-{added:02d}" if added else "2024-04-01")
            late.append(((s.started_at, s.id), read_cursor(cursor)))

        got = read_pages(ledger, limit, between=add)
        after = full_list(ledger)
        if late:  # pages already read do not move: the new session shows only if it is further on
            (key, at), = late
            newest = [s for s in after if (s["started_at"], s["id"]) == key]
            expected = [s for s in after if s not in newest or key < at]
            assert got == expected
        else:
            assert got == before


def test_the_first_page_is_the_newest_and_asks_no_rule_set(ledger_path: Path) -> None:
    with open_ledger(ledger_path) as ledger:
        build(ledger)
        page = views.session_page(ledger, limit=2)
        assert [s.id for s in page.sessions] == [3, 2] and page.total == 3
        assert page.to_dict()["sessions"][0] == {**ledger.journal.session(3).to_dict(), "open": True}
        assert "rule_set" not in page.to_dict()["sessions"][0]
        rest = views.session_page(ledger, before=page.next)
        assert [s.id for s in rest.sessions] == [1] and rest.next is None


def test_search_by_name_player_or_number(ledger_path: Path) -> None:
    with open_ledger(ledger_path) as ledger:
        build(ledger)

        def found(q: str) -> list[int]:
            return [s.id for s in views.session_page(ledger, q).sessions]

        assert found("first") == [1] and found("FIRST") == [1]  # any case
        assert found("eve") == [3] and found("Cat") == [2, 1]
        assert found("3") == [3]  # its number
        assert found("%") == [] and found("_") == []  # typed as they are, not patterns
        assert found("  ") == [3, 2, 1]  # nothing to search: every session
        players.rename(ledger, "Eve", "Evelyn")
        assert found("Evelyn") == [3] and found("eve") == [3]  # the name shown, and as typed
        assert views.session_page(ledger, "Cat").total == 2
        assert views.session_page(ledger, player="Dan").total == 1


def test_a_session_taken_back_is_not_listed_or_counted(ledger_path: Path) -> None:
    with open_ledger(ledger_path) as ledger:
        build(ledger)
        s = add_session(ledger, SEATS[0], [], "2024-05-01")
        book.undo(ledger, s)
        page = views.session_page(ledger)
        assert [x.id for x in page.sessions] == [3, 2, 1] and page.total == 3


@pytest.mark.parametrize("cursor", ["", "x", "MjAyNC0wMy0wMSAx=", "bm90IGEgZGF0ZSAx",
                                    "MjAyNC0wMy0wMSAtMQ", "MjAyNC0wMy0wMSAx\n", "////", "é"])
def test_a_crafted_cursor_is_refused(ledger_path: Path, cursor: str) -> None:
    with open_ledger(ledger_path) as ledger, pytest.raises(InputError, match="not a cursor"):
        views.session_page(ledger, before=cursor)


def test_a_cursor_reads_back_what_it_wrote() -> None:
    key = ("2024-03-01T19:00:00.000000+00:00", 12)
    assert read_cursor(write_cursor(key)) == key


@pytest.mark.parametrize("limit", [0, -1, 201])
def test_a_page_holds_1_to_200(ledger_path: Path, limit: int) -> None:
    with open_ledger(ledger_path) as ledger, pytest.raises(InputError, match="1 to 200"):
        views.session_page(ledger, limit=limit)
