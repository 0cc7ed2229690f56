"""The offline app's start (docs/offline.md, "While the engine loads"): the page names
every module of its first screen, draws the last state from the kept answers before the
engine is ready, and taps made while it loads are recorded once it is, each once."""

from __future__ import annotations

import re

from offline.offline_helpers import (
    call,
    key,
    phone_page,
    start_args,
    wait_cached,
    wait_ready,
)

# The engine's state on the root element when the board first holds a player's name.
SEEN = """(() => {
  const look = new MutationObserver(() => {
    const main = document.getElementById("main");
    if (!main || !main.textContent.includes("Ben")) return;
    look.disconnect();
    window.__engineWhenShown = document.documentElement.dataset.engine;
  });
  look.observe(document, { subtree: true, childList: true, characterData: true });
})();"""


def test_the_page_names_every_module_of_its_first_screen():
    from ledger.web import offline

    site = offline.site()
    page = site["index.html"].decode()
    named = re.findall(r'<link rel="modulepreload" href="static/app/([\w-]+\.js)">', page)
    assert {"main.js", "engine.js", "engine-worker.js", "board.js", "words.js", "dom.js"} <= set(named)
    assert "engine-hub.js" not in named and "engine-worker-thread.js" not in named
    assert all(f"static/app/{name}" in site for name in named)
    # Every module main.js reaches is named, so none waits for its importer to be read.
    for name in named:
        text = site[f"static/app/{name}"].decode()
        for imported in re.findall(r'from\s*"\./([\w-]+\.js)"', text):
            assert imported in named, (name, imported)


def test_the_kept_board_shows_before_the_engine_and_taps_meanwhile_are_recorded_once(site):
    with phone_page() as (context, page, errors):
        page.goto(site.url + "harness.html")
        wait_ready(page)
        wait_cached(page)
        sid = call(page, "start", start_args())["id"]
        call(page, "record", {"key": key(), "session": sid, "line": "0 3 11 8"})
        page.goto(site.url + f"#/t/{sid}")  # the app: its answers kept in this phone
        wait_ready(page)
        page.wait_for_selector("#main :text('Ben')")

        app = context.new_page()
        app.on("pageerror", lambda e: errors.append(str(e)))
        app.add_init_script(SEEN)
        page.close()  # one page holds the ledger
        app.goto(site.url + f"#/t/{sid}")
        app.wait_for_function("() => window.__engineWhenShown")
        assert app.evaluate("window.__engineWhenShown") == "loading"
        wait_ready(app)

        harness = context.new_page()
        app.close()
        harness.goto(site.url + "harness.html")
        harness.wait_for_function("() => window.engine")
        keys = [key(), key()]
        taps = harness.evaluate("""async ([session, keys]) => {
            const state = document.documentElement.dataset.engine;
            const lines = ["5 0 2 13", "9 4 0 1"];
            const answers = await Promise.all(keys.map((k, i) =>
                window.engine.record(k, {session, line: lines[i]})));
            return {state, deals: answers.map((a) => a.deal)}; }""", [sid, keys])
        assert taps == {"state": "loading", "deals": [2, 3]}
        again = call(harness, "record", {"key": keys[0], "session": sid, "line": "5 0 2 13"})
        assert again["deal"] == 2  # the same tap sent again: the same deal
        board = call(harness, "board", {"session": sid})
        assert sorted(d["deal"] for d in board["deals"]) == [1, 2, 3]
        assert errors == []
