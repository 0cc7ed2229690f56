"""The Tables tab by pages, in a real browser (headless Chromium) against the hub: the
newest page first, More (labelled, and reached by scrolling) for the next, the search box
(labelled), a live update that keeps the pages read; in English and in Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from history_ledger import add_session
from web.phonekit import LiveServer, Phone, keeper_post, launch

from ledger.storage.store import open_ledger

CLUB = (["Ann", "Ben", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"], ["陳大文", "Ben", "Zed", "Ivy"])
SESSIONS = 120  # 50 a page: two pages and 20


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("tables") / "hub.db"
    with open_ledger(db) as ledger:
        for i in range(SESSIONS):  # one evening a day, 1 January on; every third with Zed
            day = f"2024-{1 + i // 28:02d}-{1 + i % 28:02d}"
            add_session(ledger, CLUB[i % 3], [], day, name=f"evening {i + 1}")
    served = LiveServer(db)
    yield served
    served.stop()


def shown(phone: Phone) -> list[str]:
    return phone.page.locator("ul.tables li strong").all_inner_texts()


def test_the_tables_tab_shows_a_page_and_the_next_by_more_or_by_scrolling(browser: Any,
                                                                          hub: LiveServer) -> None:
    from playwright.sync_api import expect

    phone = Phone(browser, hub.keeper())
    try:
        phone.show("#/tables")
        items = phone.page.locator("ul.tables li")
        expect(items).to_have_count(50)
        assert shown(phone)[:2] == [f"evening {SESSIONS}", f"evening {SESSIONS - 1}"]  # newest first
        expect(phone.page.locator(".tables-shown")).to_have_text(
            phone.w("{shown} of {total} sessions", shown=50, total=SESSIONS))
        more = phone.page.get_by_role("button", name=phone.w("More sessions"), exact=True)
        more.dispatch_event("click")  # a tap (or Enter) on More, where the page stands
        expect(items).to_have_count(100)
        assert phone.page.evaluate("scrollY") == 0  # More was off screen: nothing loaded itself
        more.scroll_into_view_if_needed()  # scrolled to: the next page comes by itself
        expect(items).to_have_count(SESSIONS)
        expect(more).to_have_count(0)
        assert shown(phone) == [f"evening {n}" for n in range(SESSIONS, 0, -1)]
        # A live update (a new table) reads the newest page again and keeps the others.
        keeper_post(hub, "start", {"players": ["Ann", "Ben", "Cat", "Dan"], "name": "tonight"})
        expect(items).to_have_count(SESSIONS + 1)
        assert shown(phone)[0] == "tonight" and shown(phone)[-1] == "evening 1"
        # The search box: by a player; the page and its count are the search's.
        search = phone.page.get_by_role("searchbox", name=phone.w("Search: a player, a name or a number"))
        search.fill("zed")
        expect(items).to_have_count(SESSIONS // 3)
        assert shown(phone)[0] == f"evening {SESSIONS}"
        expect(search).to_be_focused()  # the answer redraws the list, not the box typed in
        search.fill("nobody")
        expect(phone.page.get_by_text(phone.w("No session matches “{q}”.", q="nobody"))).to_be_visible()
        assert not phone.errors and not phone.csp_violations()
    finally:
        phone.close()


@pytest.mark.parametrize("locale", ["zh-HK", "zh-CN"])
def test_more_and_the_search_box_are_said_in_chinese(browser: Any, hub: LiveServer, locale: str) -> None:
    from playwright.sync_api import expect

    phone = Phone(browser, hub.viewer(), locale=locale)
    try:
        phone.show("#/tables")
        expect(phone.page.get_by_role("button", name=phone.w("More sessions"), exact=True)).to_be_visible()
        expect(phone.page.get_by_role("searchbox", name=phone.w("Search: a player, a name or a number"))
               ).to_be_visible()
        assert phone.w("More sessions") != "More sessions"
    finally:
        phone.close()


def test_the_hub_answers_the_tables_a_page_at_a_time(hub: LiveServer, tmp_path: Path) -> None:
    import httpx
    from web.webhelpers import KEY

    from ledger.web.auth import viewer_token

    answer = httpx.get(f"{hub.base()}/api/sessions", timeout=10,
                       headers={"authorization": f"Bearer {viewer_token(KEY)}"})
    page = answer.json()
    assert len(page["sessions"]) == 50 and page["total"] >= SESSIONS and page["next"]
    assert len(answer.content) < 64 * 1024
