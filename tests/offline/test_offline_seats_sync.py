"""The offline app syncing seat changes with a hub over HTTP (issue 33): the phone's
engine (Pyodide in its worker, the app as the hub serves it at /app/) takes a join, a
sit-out, a back, a seat order and two deals with the network gone while the hub records a deal of its
own; one sync (the app's own ``syncWithHub``: push the phone's export, pull the hub's)
and both ledgers settle to the same payments and show the same seats, every seat entry
written once — a second sync adds nothing either way.

One Pyodide start: the test drives the worker engine directly, as the app's outbox
sends a seat change (the ``seat`` op with the key made at the tap); the app's screens
for seats are tested in tests/web/test_phone_seats.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from offline.offline_helpers import HARNESS_HTML, HARNESS_JS, SWITCHES, call, key, need_chromium, wait_ready
from web.phonekit import LiveServer, keeper_post
from web.webhelpers import bigtwo, cli_json

PLAYERS = ["陳大文", "Ben", "Cat", "Dan"]
SYNC = """(link) => import("./static/app/engine-worker-sync.js")
  .then((m) => m.syncWithHub(window.engine, link, "en"))"""


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[LiveServer]:
    db = tmp_path / "hub.db"
    bigtwo(db, "session", "start", "--players", ",".join(PLAYERS), "--stake", "1", "--currency", "HKD",
           "--name", "Friday")
    served = LiveServer(db)
    served.db = db  # type: ignore[attr-defined]
    yield served
    served.stop()


def open_harness(context: Any, hub: LiveServer, errors: list[str]) -> Any:
    """The engine page under the hub's /app/ (its origin, its site's files): the test's
    page and script answered by the browser, every other file by the hub."""
    app = hub.base() + "/app/"
    context.route(app + "harness.html", lambda r: r.fulfill(body=HARNESS_HTML, content_type="text/html"))
    context.route(app + "harness.js", lambda r: r.fulfill(body=HARNESS_JS, content_type="text/javascript"))
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(app + "harness.html")
    wait_ready(page)
    return page


def seat_entries(export_text: str) -> list[dict[str, Any]]:
    """The seat entries of an export (``bigtwo export``'s JSON), each as written."""
    data = json.loads(export_text)
    return [e for s in data["sessions"] for e in s.get("entries", []) if e.get("kind") == "seat"]


def test_seat_changes_made_offline_sync_with_the_hub_once(hub: LiveServer) -> None:
    from playwright.sync_api import sync_playwright

    db: Path = hub.db  # type: ignore[attr-defined]
    hub_sid = cli_json(db, "session", "list")[0]["id"]
    keeper_post(hub, "record", {"session": hub_sid, "line": "陳大文=0 Ben=3 Cat=5 Dan=8"})
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            errors: list[str] = []
            page = open_harness(context, hub, errors)
            first = page.evaluate(SYNC, hub.keeper())
            assert first["pulled"]["sessions_new"] == 1, first
            [mine] = call(page, "sessions", {})["sessions"]
            sid = mine["id"]

            # Apart: the phone with no network takes Eve in (sitting out: one deck deals
            # four), rests 陳大文, brings Eve in, sets the seat order and records two deals
            # among the four who play; the hub records one more among the four it knows.
            context.set_offline(True)
            for action, names, more in (("join", ["Eve"], {"sit_out": True}), ("sit-out", ["陳大文"], {}),
                                        ("back", ["Eve"], {}),
                                        ("order", ["Ben", "陳大文", "Cat", "Dan", "Eve"], {})):
                call(page, "seat", {"key": key(), "session": sid, "action": action, "players": names, **more})
            for line in ("Ben=0 Cat=2 Dan=4 Eve=6", "Ben=5 Cat=0 Dan=1 Eve=9"):
                call(page, "record", {"key": key(), "session": sid, "line": line})
            keeper_post(hub, "record", {"session": hub_sid, "line": "陳大文=3 Ben=7 Cat=0 Dan=2"})
            context.set_offline(False)

            # The import reports count deals (the phone's two, numbered after the hub's
            # third; the hub's one); the seat entries are counted in the exports below.
            synced = page.evaluate(SYNC, hub.keeper())
            assert synced["pushed"]["entries_added"] == 2 and synced["pushed"]["conflicts"] == [], synced
            assert synced["pulled"]["entries_added"] == 1 and synced["pulled"]["conflicts"] == [], synced
            again = page.evaluate(SYNC, hub.keeper())  # nothing new either way
            assert again["pushed"]["entries_added"] == 0 and again["pulled"]["entries_added"] == 0, again

            phone_settle = call(page, "settle", {"session": sid})
            phone_board = call(page, "board", {"session": sid})
            phone_seats = seat_entries(call(page, "export", {})["text"])
            assert errors == []
        finally:
            browser.close()

    where = ("--session", str(hub_sid))
    hub_settle = cli_json(db, "settle", *where)
    assert phone_settle["payments"] == hub_settle["payments"] and phone_settle["payments"]
    assert phone_settle["pairwise"] == hub_settle["pairwise"]
    shown = cli_json(db, "seat", "show", *where)
    assert {k: shown[k] for k in ("seated", "sitting_out", "playing")} == phone_board["seats"]
    assert phone_board["seats"]["seated"] == ["Ben", "陳大文", "Cat", "Dan", "Eve"]
    assert phone_board["seats"]["sitting_out"] == ["陳大文"]
    # Each seat change once on each side, the same uuids.
    hub_seats = seat_entries(bigtwo(db, "export", *where).stdout)
    assert len(phone_seats) == len(hub_seats) == 4
    assert sorted(e["uuid"] for e in phone_seats) == sorted(e["uuid"] for e in hub_seats)
    assert len(phone_board["deals"]) == 4
