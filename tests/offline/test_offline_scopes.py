"""Two offline apps under one origin (issue 30), as GitHub Pages project sites share
``USER.github.io``: builds published at /club-a/ and /club-b/ of one static server each
keep their own ledger (the origin private file system), their own localStorage and their
own cache, and each still opens with no network after the other was installed. Before,
the second build's service worker deleted the first's cache and both read one ledger.
And a ledger kept before storage was named by its app becomes the first app's, once."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from offline.offline_helpers import (
    StaticServer,
    build_site,
    call,
    fresh_dir,
    key,
    need_chromium,
    phone_page,
    start_args,
    wait_cached,
    wait_ready,
)

# What an origin's storage holds, from a page of it: the caches, the ledger folders in
# the origin private file system, the localStorage keys.
STORAGE = """async () => {
  const folders = [];
  for await (const [name, handle] of (await navigator.storage.getDirectory()).entries()) {
    if (handle.kind === "directory") folders.push(name);
  }
  return {caches: (await caches.keys()).sort(), folders: folders.sort(),
          keys: Object.keys(localStorage).sort()};
}"""
# A ledger as a build before scoped storage kept it: the bytes of ``from`` put in the one
# folder every app of the origin used, "bigtwo-ledger", and a bare localStorage key.
OLD_LEDGER = """async ([from]) => {
  const root = await navigator.storage.getDirectory();
  const file = await (await (await root.getDirectoryHandle(from)).getFileHandle("ledger.db")).getFile();
  const old = await root.getDirectoryHandle("bigtwo-ledger", { create: true });
  const out = await (await old.getFileHandle("ledger.db", { create: true })).createWritable();
  await out.write(await file.arrayBuffer());
  await out.close();
  localStorage.setItem("bigtwo.offline.hub", "https://hub.example.org/entry?t=kept");
}"""


@pytest.fixture(scope="module")
def origin() -> Iterator[StaticServer]:
    """One static server; under it two builds that differ by a file (two versions)."""
    need_chromium()
    top = fresh_dir("bigtwo-origin-")
    for club in ("club-a", "club-b"):
        build_site(top / club)
        (top / club / "club.txt").write_text(club, "utf-8")  # a file of its own
    shutil.copytree(top / "club-b", top / "club-c")  # a third app, opened last
    server = StaticServer(top)
    yield server
    server.close()
    shutil.rmtree(top, ignore_errors=True)


def sessions(page: Any) -> list[str]:
    return [s["name"] for s in call(page, "sessions", {})["sessions"]]


def open_app(context: Any, url: str, errors: list[str]) -> Any:
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "harness.html")
    wait_ready(page)
    return page


def test_two_apps_under_one_origin_keep_their_own_ledger_storage_and_cache(origin) -> None:
    a, b = origin.url + "club-a/", origin.url + "club-b/"
    with phone_page() as (context, first, errors):
        first.close()
        for url, name in ((a, "Club A"), (b, "Club B")):
            page = open_app(context, url, errors)
            wait_cached(page)  # this app's service worker is installed and active
            session = call(page, "start", {**start_args(), "name": name})["id"]
            call(page, "record", {"key": key(), "session": session, "line": "0 3 11 8"})
            assert sessions(page) == [name]
            page.close()  # one page at a time holds a ledger, as on a phone

        held = open_app(context, a, errors).evaluate(STORAGE)
        assert [c.rsplit("#", 1)[0] for c in held["caches"]] == ["bigtwo@/club-a/", "bigtwo@/club-b/"]
        assert held["folders"] == ["bigtwo-ledger@%2Fclub-a%2F", "bigtwo-ledger@%2Fclub-b%2F"]
        answers = {f"bigtwo.offline.answers.v2@/club-{c}/" for c in "ab"}
        assert answers <= set(held["keys"])
        assert not any("@" not in k for k in held["keys"] if k.startswith("bigtwo")), held["keys"]
        context.pages[-1].close()

        context.set_offline(True)  # no network: each app opens from its own cache
        for url, name in ((a, "Club A"), (b, "Club B")):
            page = open_app(context, url, errors)
            page.reload()  # offline, as a phone reopens it
            wait_ready(page)
            assert sessions(page) == [name]
            page.close()
        app = context.new_page()
        app.goto(a)  # the app itself, not only the test's page
        app.wait_for_selector("html[data-screen]", state="attached", timeout=60_000)
        assert errors == []


def test_a_ledger_kept_before_scoped_storage_is_taken_over_once(origin) -> None:
    a, b, c = (origin.url + club for club in ("club-a/", "club-b/", "club-c/"))
    with phone_page() as (context, first, errors):
        first.close()
        page = open_app(context, a, errors)
        call(page, "start", {**start_args(), "name": "Before"})
        page.close()
        page = open_app(context, b, errors)  # club-b has a ledger of its own: it never takes over
        page.evaluate(OLD_LEDGER, ["bigtwo-ledger@%2Fclub-a%2F"])
        page.close()

        page = open_app(context, c, errors)  # the first app with no ledger of its own takes it
        assert sessions(page) == ["Before"]
        call(page, "start", {**start_args(), "name": "After"})
        held = page.evaluate(STORAGE)
        page.close()
        assert "bigtwo-ledger" not in held["folders"]  # taken over: gone from the old place
        assert "bigtwo.offline.hub" in held["keys"]  # a bare key waits for its first reader
        page = open_app(context, c, errors)
        assert page.evaluate("import('./static/app/engine-worker-sync.js').then((m) => m.keptLink())") == (
            "https://hub.example.org/entry?t=kept")
        keys = page.evaluate(STORAGE)["keys"]
        assert "bigtwo.offline.hub@/club-c/" in keys and "bigtwo.offline.hub" not in keys
        assert sorted(sessions(page)) == ["After", "Before"]
        page.close()
        page = open_app(context, b, errors)
        assert sessions(page) == []  # its own, empty: nothing of the others'
        assert errors == []
