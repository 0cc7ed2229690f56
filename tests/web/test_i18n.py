"""The page in the players' language: which language a request gets (``?lang=``, the
cookie, ``Accept-Language`` with q-values, the server's), every page's visible words in
Traditional and Simplified Chinese, error messages in the page's language, and a JSON
API that is the same in every language."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from web.conftest import start
from web.webhelpers import KEY, PLAYERS, bearer, keyed

from ledger.core.rules import preset_names
from ledger.web.auth import viewer_token
from ledger.web.lang import COOKIE, WORDS, from_accept, negotiate

KEEP = bearer(KEY)
VIEW = bearer(viewer_token(KEY))
HK = {"accept-language": "zh-HK,zh;q=0.9,en;q=0.8"}


def app_for(db: Path, lang: str | None = None) -> Any:
    from ledger.web.app import create_app
    from ledger.web.auth import Tokens
    from ledger.web.site import Config

    return create_app(Config(db=str(db), tokens=Tokens.from_key(KEY), lang=lang))


@pytest.fixture
def client_for(db: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    opened: list[Any] = []

    def make(lang: str | None = None, path: Path = db) -> Any:
        c = TestClient(app_for(path, lang))
        c.__enter__()
        opened.append(c)
        return c

    yield make
    for c in opened:
        c.__exit__(None, None, None)


class Visible(HTMLParser):
    """The words a person sees or hears: text (not scripts), titles, labels, hints."""

    SHOWN = ("title", "aria-label", "placeholder", "alt", "data-out")  # data-out: CSS shows it

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.html_lang = ""
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.html_lang = values.get("lang") or ""
        if tag in ("script", "style"):
            self._skip += 1
        self.parts += [v for k, v in attrs if k in self.SHOWN and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible(html: str) -> tuple[str, str]:
    """(<html lang>, the visible text)."""
    parser = Visible()
    parser.feed(html)
    return parser.html_lang, " ".join(" ".join(parser.parts).split())


def words_json(html: str) -> dict[str, str]:
    found = re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S)
    assert found, "the page carries its scripts' words"
    return json.loads(found.group(1))


# Words on the page that are data, not interface: players, the session's name, currency
# and rule set names, the language switcher's own "English", the brand and file type.
DATA = {*PLAYERS, "Friday", "HKD", "PTS", "bigtwo", "English", "PNG", "HTTP", "serve", "Wi", "Fi", "https",
        *(part for name in preset_names() for part in name.split("-"))}


def english_words(text: str) -> set[str]:
    text = re.sub(r"\{\w+\}", " ", text)  # a placeholder the page fills in
    return {w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w not in DATA}


# --- choosing the language ------------------------------------------------------------


@pytest.mark.parametrize(("header", "expected"), [
    ("zh-HK", "zh_Hant"), ("zh-TW,en;q=0.5", "zh_Hant"), ("zh-Hant", "zh_Hant"), ("zh-MO", "zh_Hant"),
    ("zh-CN", "zh_Hans"), ("zh-SG", "zh_Hans"), ("zh", "zh_Hans"), ("zh-Hans-HK", "zh_Hans"),
    ("en-GB,zh-HK;q=0.9", "en"),
    ("fr-FR, zh-HK;q=0.8, zh-CN;q=0.9", "zh_Hans"),  # by q-value, not by order
    ("zh-CN;q=0.5, zh-TW;q=0.5", "zh_Hans"),  # a tie: the order given
    ("de, fr;q=0.9", None), ("zh-HK;q=0, *", None), ("", None), ("zh-HK;q=abc, en;q=0.1", "en"),
])
def test_accept_language_with_q_values(header: str, expected: str | None) -> None:
    assert from_accept(header) == expected


def test_the_order_of_the_sources() -> None:
    assert negotiate("zh_Hans", "zh_Hant", "en", "en") == "zh_Hans"
    assert negotiate(None, "zh_Hant", "zh-CN", "en") == "zh_Hant"
    assert negotiate(None, "bogus", "zh-CN", "en") == "zh_Hans"
    assert negotiate(None, None, "fr", "zh_Hant") == "zh_Hant"


def test_query_sets_a_cookie_that_later_pages_follow(client_for) -> None:
    client = client_for()
    page = client.get("/settle?lang=zh_Hans", headers=KEEP)
    assert page.status_code == 200
    assert f"{COOKIE}=zh_Hans" in page.headers["set-cookie"]
    assert "Path=/" in page.headers["set-cookie"]
    assert visible(page.text)[0] == "zh-Hans-CN" and "计分" in page.text
    # The cookie is kept: it beats the browser's Accept-Language.
    again = client.get("/settle", headers={**KEEP, **HK})
    assert visible(again.text)[0] == "zh-Hans-CN" and "结算" in visible(again.text)[1]
    assert "set-cookie" not in again.headers
    assert again.headers["content-language"] == "zh-Hans-CN"
    assert "Accept-Language" in again.headers["vary"]
    # And the API's messages follow it too.
    bad = client.post("/api/record", content=b"{", headers=KEEP)
    assert bad.status_code == 400 and bad.json()["error"].startswith("请求内容不是 JSON")
    back = client.get("/settle?lang=en", headers={**KEEP, **HK})
    assert visible(back.text)[0] == "en" and "Score" in visible(back.text)[1]


def test_accept_language_then_the_servers_language(client_for, monkeypatch) -> None:
    client = client_for()
    assert visible(client.get("/settle", headers={**KEEP, **HK}).text)[0] == "zh-Hant-HK"
    cn = {**KEEP, "accept-language": "zh-CN"}
    assert visible(client.get("/settle", headers=cn).text)[0] == "zh-Hans-CN"
    assert visible(client.get("/settle", headers={**KEEP, "accept-language": "fr"}).text)[0] == "en"
    # Nothing from the browser: the language bigtwo serve was started with.
    served = client_for("zh_Hant")
    page = served.get("/settle", headers={**KEEP, "accept-language": "fr, de;q=0.5"})
    assert visible(page.text)[0] == "zh-Hant-HK"
    assert visible(served.get("/settle", headers={**KEEP, "accept-language": "en"}).text)[0] == "en"
    # No --lang: BIGTWO_LANG (or the locale) as on the command line.
    monkeypatch.setenv("BIGTWO_LANG", "zh_Hans")
    from_env = client_for(None)
    assert visible(from_env.get("/settle", headers=KEEP).text)[0] == "zh-Hans-CN"


def test_an_unknown_language_is_one_clear_400(client_for, db: Path) -> None:
    client = client_for()
    page = client.get("/settle?lang=fr", headers={**KEEP, **HK})
    assert page.status_code == 400
    lang, text = visible(page.text)
    assert lang == "zh-Hant-HK" and "唔識 'fr' 呢種語言" in text and "zh_Hans" in text
    api = client.get("/api/standings?session=1&lang=xx", headers=KEEP)
    assert api.status_code == 400
    assert api.json()["error"] == "unknown language 'xx'; choose en, zh_Hant (繁體) or zh_Hans (简体)"
    assert "set-cookie" not in api.headers


def test_the_switcher_links_each_language(client_for) -> None:
    page = client_for().get("/settle", headers={**KEEP, **HK}).text
    for code, label in (("en", "English"), ("zh_Hant", "繁體"), ("zh_Hans", "简体")):
        assert re.search(rf'<a href="\?lang={code}"[^>]*>{label}</a>', page)
    assert re.search(r'href="\?lang=zh_Hant"[^>]*aria-current="true"', page)


# --- every page in Chinese ------------------------------------------------------------


def evening(client: Any, session: int = 1) -> None:
    for line in ("陳大文=0 Ben=3 Cat=10 Dan=8", "陳大文=5 Ben=0 Cat=2 Dan=13"):
        answer = client.post("/api/record", json={"session": session, "line": line}, headers=keyed(KEEP))
        assert answer.status_code == 200, answer.text
    assert client.post("/api/amend", json={"session": session, "deal": 2,
                                           "line": "陳大文=5 Ben=0 Cat=3 Dan=13"},
                       headers=keyed(KEEP)).status_code == 200


PAGES = ["/settle", "/history", "/history/session/1",
         "/history/player/%E9%99%B3%E5%A4%A7%E6%96%87", "/start", "/nowhere"]


@pytest.mark.parametrize("rules", ["classic", "doubling", "places", "pay-the-winner", "teams"])
@pytest.mark.parametrize(("lang", "html_lang"), [("zh_Hant", "zh-Hant-HK"), ("zh_Hans", "zh-Hans-CN")])
def test_every_page_has_no_english_words(ledger_path: Path, client_for, rules: str, lang: str,
                                         html_lang: str) -> None:
    from ledger.book import actions as book
    from ledger.core.rules import load_preset
    from ledger.storage.store import open_ledger

    with open_ledger(ledger_path) as ledger:
        book.start_session(ledger, PLAYERS, load_preset("classic" if rules == "teams" else rules),
                           __import__("decimal").Decimal("0.5"), "HKD", "Friday", rules == "teams")
    client = client_for(path=ledger_path)
    if rules != "places":
        evening(client, 2)
    else:
        assert client.post("/api/record", json={"session": 2, "line": "--order 陳大文,Ben,Cat,Dan"},
                           headers=keyed(KEEP)).status_code == 200
    seen: dict[str, str] = {}
    for path in PAGES:
        page = client.get(f"{path}?lang={lang}", headers=KEEP)
        assert page.status_code == (404 if path == "/nowhere" else 200), page.text
        found, text = visible(page.text)
        assert found == html_lang
        assert english_words(text) == set(), (path, text)
        if path != "/nowhere":
            assert all(not english_words(v) for v in words_json(page.text).values())
        seen[path] = text
    # A viewer's refusal, and the page of an ended session (with its undo button).
    refused = client.get("/start", headers=VIEW)
    assert refused.status_code == 403 and not english_words(visible(refused.text)[1])
    assert client.post("/api/end", json={"session": 2}, headers=keyed(KEEP)).status_code == 200
    ended = visible(client.get("/settle", headers=KEEP).text)[1]
    assert not english_words(ended), ended
    labels = {"zh_Hant": ("計分", "埋數", "陳大文"), "zh_Hans": ("计分", "结算", "陳大文")}
    assert all(word in seen["/settle"] for word in labels[lang])


def test_english_pages_are_english(client) -> None:
    evening(client)
    for path in ("/settle", "/history", "/start"):
        lang, text = visible(client.get(path, headers=KEEP).text)
        text = text.replace("陳大文", "").replace("繁體", "").replace("简体", "")  # names, switcher
        assert lang == "en" and not re.search(r"[\u4e00-\u9fff]", text)


def test_every_script_word_is_translated() -> None:
    from ledger.core.i18n import translator

    for lang in ("zh_Hant", "zh_Hans"):
        gettext, _n = translator(lang)
        for key, text in WORDS.items():
            shown = gettext(text)
            assert shown != text or not english_words(text), (lang, key)
            assert set(re.findall(r"\{\w+\}", shown)) == set(re.findall(r"\{\w+\}", text)), key


def test_dates_are_for_the_viewers_clock(client) -> None:
    page = client.get("/history", headers=KEEP).text
    stamp = re.search(r'<time datetime="([^"]+)">(\d{4}-\d\d-\d\d)</time>', page)
    assert stamp and stamp.group(1).startswith(stamp.group(2)[:4])
    assert '<script src="/static/time.js" defer></script>' in page


# --- errors and the API ---------------------------------------------------------------


def test_api_errors_are_in_the_pages_language(client) -> None:
    zh = {**KEEP, **HK}
    assert client.post("/api/record", content=b"[1]", headers=zh).json()["error"].startswith(
        "請求內容一定要係 JSON 物件")
    assert client.post("/api/void", json={"session": 1, "deal": "x"}, headers=keyed(zh)).json()["error"] == (
        '"deal" 一定要係整數，例如 {"deal": 3}')
    viewer = client.post("/api/record", json={"session": 1, "line": "0 3 11 8"},
                         headers=keyed({**VIEW, "accept-language": "zh-CN"}))
    assert viewer.status_code == 403 and viewer.json()["error"] == "观看链接只读；记分员链接才能写入"
    big = client.post("/api/record", content=b"x" * 20000, headers=zh)
    assert big.status_code == 413 and big.json()["error"] == "請求內容大過 16384 位元組"
    broken = client.post("/api/record", content=b'{"line": }', headers=zh).json()["error"]
    assert broken == "請求內容唔係 JSON：第 1 行第 10 欄：應該有一個值"
    hans = client.post("/api/record", content=b"\xff", headers={**KEEP, "accept-language": "zh-CN"})
    assert hans.json()["error"] == "请求内容不是 JSON：不是 UTF-8 文本"
    plot = client.get("/plot/pie.svg", headers=zh).json()["error"]
    assert "'pie'" in plot and "圖" in plot and not english_words(plot.split("：")[0].replace("'pie'", ""))


def normalized(value: Any) -> Any:
    """JSON with its clock times and session uuids replaced (three ledgers are written at
    three moments)."""
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?", value):
        return "<time>"
    if isinstance(value, str):  # "(ended 2026-11-30 21:25)" in the undo's text
        value = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "<minute>", value)
    if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", value):
        return "<uuid>"
    return value


def api_evening(client: Any, headers: dict[str, str]) -> list[Any]:
    """Every API call of an evening, reads and writes, as JSON."""
    h = {**KEEP, **headers}
    out = [client.get("/api/preview", params={"session": 1, "line": "陳大文=0 Ben=3 Cat=11 Dan=8"},
                      headers=h)]
    out.append(client.post("/api/record", json={"session": 1, "line": "陳大文=0 Ben=3 Cat=11 Dan=8"},
                           headers=keyed(h)))
    out.append(client.post("/api/record", json={"session": 1, "line": "陳大文=10 Ben=13 Cat=0 Dan=1"},
                           headers=keyed(h)))
    out.append(client.post("/api/amend", json={"session": 1, "deal": 2,
                                               "line": "陳大文=10 Ben=12 Cat=0 Dan=1"},
                           headers=keyed(h)))
    out.append(client.post("/api/undo", json={"session": 1}, headers=keyed(h)))
    out.append(client.post("/api/void", json={"session": 1, "deal": 1}, headers=keyed(h)))
    out.append(client.post("/api/undo", json={"session": 1}, headers=keyed(h)))
    for path in ("session", "board", "standings", "settle", "log", "undo_preview"):
        out.append(client.get(f"/api/{path}?session=1", headers=h))
    for path in ("sessions", "last_setup", "history"):  # presets: described in the language
        out.append(client.get(f"/api/{path}", headers=h))
    out.append(client.post("/api/end", json={"session": 1}, headers=keyed(h)))
    out.append(client.post("/api/undo", json={"session": 1}, headers=keyed(h)))
    assert all(r.status_code == 200 for r in out), [r.text for r in out]
    return [normalized(r.json()) for r in out]


def test_the_api_json_is_the_same_in_every_language(tmp_path: Path, client_for) -> None:
    answers = {}
    for lang, headers in (("en", {}), ("zh_Hant", HK), ("zh_Hans", {"cookie": f"{COOKIE}=zh_Hans"})):
        db = tmp_path / f"{lang}.db"
        start(db)
        answers[lang] = api_evening(client_for(lang if lang != "en" else None, db), headers)
    assert answers["zh_Hant"] == answers["en"]
    assert answers["zh_Hans"] == answers["en"]
    text = json.dumps(answers["zh_Hant"], ensure_ascii=False)
    assert not re.search(r"[\u4e00-\u9fff]", text.replace("陳大文", ""))
    # Undo says what it took back, of any kind: a fix, a void, the end of the session.
    undos = [a for a in answers["en"] if "undo" in a and "kind" in a]  # the undo op's answers
    assert [u["undo"]["action"] for u in undos] == ["amend", "void", "session end"]
    assert undos[0]["undo"] == {"action": "amend", "session": 1, "deal": 2,
                                "line": "陳大文=10 Ben=12 Cat=0 Dan=1",
                                "back": "陳大文=10 Ben=13 Cat=0 Dan=1"}
    assert undos[1]["undo"]["back"] == "陳大文=0 Ben=3 Cat=11 Dan=8"


def test_concurrent_requests_keep_their_own_language(db: Path) -> None:
    """Many requests in flight at once on one server, each in its own language."""
    import httpx

    app = app_for(db)
    asks = [("zh-HK", "zh-Hant-HK", "計分"), ("zh-CN", "zh-Hans-CN", "计分"), ("en", "en", "Score")] * 12

    async def run() -> list[tuple[str, str]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            async def one(header: str) -> tuple[str, str]:
                page = await c.get("/settle", headers={**KEEP, "accept-language": header})
                error = await c.post("/api/record", content=b"{", headers={**KEEP, "accept-language": header})
                return visible(page.text)[0] + " " + visible(page.text)[1], error.json()["error"]
            return await asyncio.gather(*(one(h) for h, _l, _w in asks))

    results = asyncio.run(run())
    errors = {"zh-Hant-HK": "請求內容唔係 JSON", "zh-Hans-CN": "请求内容不是 JSON",
              "en": "the request body is not JSON"}
    for (_h, lang, word), (page, error) in zip(asks, results, strict=True):
        assert page.startswith(lang + " ") and word in page
        assert error.startswith(errors[lang])


def test_the_live_feed_renders_each_language(client) -> None:
    from ledger.web.site import Site

    site: Site = client.app.starlette.state.site
    evening(client)
    hant, hans, en = (site.render("scoreboard", lang)["html"] for lang in ("zh_Hant", "zh_Hans", "en"))
    assert "下一鋪" in hant and "下一局" in hans and "Next:" in en

    async def both() -> tuple[bytes, bytes]:
        from ledger.web.feed import Feed

        feed = Feed(lambda: (1,), site.render, 0.05)  # the app's watcher stays on its thread
        feed.check()
        return (await feed.payload("scoreboard", "zh_Hant"))[1], (await feed.payload("scoreboard", "en"))[1]

    zh, english = asyncio.run(both())
    assert "最近幾鋪".encode() in zh and b"Last deals" in english


def test_bigtwo_serve_in_chinese(db: Path) -> None:
    """``bigtwo serve --lang zh_Hant``: the banner in Chinese, and the page's language
    for a phone that asks for none we have."""
    import httpx
    from web.webhelpers import Server

    served = Server(db, KEY, "--lang", "zh_Hant")
    try:
        text = "".join(served.lines)
        assert "記分員連結（可以寫；自己收好）：http://" in text and "觀看連結" in text
        assert "bigtwo serve：帳簿" in text and "Ctrl-C 停止伺服器。" in text
        token = {"authorization": "Bearer " + served.viewer_token}
        page = httpx.get(served.base + "/api/words", headers={**token, "accept-language": "fr"})
        assert page.json()["html_lang"] == "zh-Hant-HK"
        english = httpx.get(served.base + "/api/words", headers={**token, "accept-language": "en"})
        assert english.json()["html_lang"] == "en"
    finally:
        code, out = served.stop()
    assert code == 0 and "已停止" in out
