"""The app in the players' language: which language a request gets (``?lang=``, the
cookie, ``Accept-Language`` with q-values, the server's), every word the app shows
(``/api/words``) in Traditional and Simplified Chinese, error messages in the request's
language, and a JSON API (and live feed) that is the same in every language."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web.conftest import start
from web.webhelpers import KEY, PLAYERS, bearer, keyed

from ledger.core.rules import preset_names
from ledger.engine.lang import COOKIE, WORDS, from_accept, negotiate
from ledger.web.auth import viewer_token

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


def words(client: Any, query: str = "", headers: dict[str, str] | None = None) -> Any:
    """``GET /api/words`` (the app's words in the request's language)."""
    answer = client.get("/api/words" + query, headers={**KEEP, **(headers or {})})
    assert answer.status_code == 200, answer.text
    return answer


# Words on the page that are data, not interface: players, the session's name, currency
# and rule set names, the language switcher's own "English", the brand and file type.
DATA = {*PLAYERS, "Friday", "HKD", "PTS", "bigtwo", "English", "PNG", "HTTP", "serve", "Wi", "Fi", "https",
        "FPS", "PayNow", "PromptPay",  # the payment schemes' own names
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


def test_query_sets_a_cookie_that_later_requests_follow(client_for) -> None:
    client = client_for()
    page = words(client, "?lang=zh_Hans")
    assert f"{COOKIE}=zh_Hans" in page.headers["set-cookie"]
    assert "Path=/" in page.headers["set-cookie"]
    assert page.json()["html_lang"] == "zh-Hans-CN" and page.json()["words"]["tab_settle"] == "结算"
    # The cookie is kept: it beats the browser's Accept-Language.
    again = words(client, headers=HK)
    assert again.json()["lang"] == "zh_Hans" and again.json()["words"]["tab_settle"] == "结算"
    assert "set-cookie" not in again.headers
    assert again.headers["content-language"] == "zh-Hans-CN"
    assert "Accept-Language" in again.headers["vary"]
    # And the API's messages follow it too.
    bad = client.post("/api/record", content=b"{", headers=KEEP)
    assert bad.status_code == 400 and bad.json()["error"].startswith("请求内容不是 JSON")
    back = words(client, "?lang=en", HK)
    assert back.json()["html_lang"] == "en" and back.json()["words"]["tab_settle"] == "Settle"
    # The app's page itself (static: the app asks for its words) sets it as well.
    assert f"{COOKIE}=zh_Hant" in client.get("/?lang=zh_Hant").headers["set-cookie"]


def test_accept_language_then_the_servers_language(client_for, monkeypatch) -> None:
    client = client_for()
    assert words(client, headers=HK).json()["html_lang"] == "zh-Hant-HK"
    assert words(client, headers={"accept-language": "zh-CN"}).json()["html_lang"] == "zh-Hans-CN"
    assert words(client, headers={"accept-language": "fr"}).json()["html_lang"] == "en"
    # Nothing from the browser: the language bigtwo serve was started with.
    served = client_for("zh_Hant")
    assert words(served, headers={"accept-language": "fr, de;q=0.5"}).json()["html_lang"] == "zh-Hant-HK"
    assert words(served, headers={"accept-language": "en"}).json()["html_lang"] == "en"
    # No --lang: BIGTWO_LANG (or the locale) as on the command line.
    monkeypatch.setenv("BIGTWO_LANG", "zh_Hans")
    assert words(client_for(None)).json()["html_lang"] == "zh-Hans-CN"


def test_an_unknown_language_is_one_clear_400(client_for, db: Path) -> None:
    client = client_for()
    for path in ("/api/words?lang=fr", "/?lang=fr", "/settle?lang=fr"):
        page = client.get(path, headers={**KEEP, **HK}, follow_redirects=False)
        assert page.status_code == 400, path
        assert "唔識 'fr' 呢種語言" in page.json()["message"] and "zh_Hans" in page.json()["message"]
        assert page.headers["content-security-policy"].startswith("default-src 'self'")
    api = client.get("/api/standings?session=1&lang=xx", headers=KEEP)
    assert api.status_code == 400
    assert api.json()["error"] == "unknown language 'xx'; choose en, zh_Hant (繁體) or zh_Hans (简体)"
    assert "set-cookie" not in api.headers


def test_the_switcher_names_each_language_in_its_own(client_for) -> None:
    answer = words(client_for(), headers=HK).json()
    assert answer["languages"] == {"en": "English", "zh_Hant": "繁體", "zh_Hans": "简体"}


# --- every page in Chinese ------------------------------------------------------------


def evening(client: Any, session: int = 1) -> None:
    for line in ("陳大文=0 Ben=3 Cat=10 Dan=8", "陳大文=5 Ben=0 Cat=2 Dan=13"):
        answer = client.post("/api/record", json={"session": session, "line": line}, headers=keyed(KEEP))
        assert answer.status_code == 200, answer.text
    assert client.post("/api/amend", json={"session": session, "deal": 2,
                                           "line": "陳大文=5 Ben=0 Cat=3 Dan=13"},
                       headers=keyed(KEEP)).status_code == 200


@pytest.mark.parametrize(("lang", "html_lang"), [("zh_Hant", "zh-Hant-HK"), ("zh_Hans", "zh-Hans-CN")])
def test_every_word_of_the_app_has_no_english(client, lang: str, html_lang: str) -> None:
    """Every word the app shows, and the refusals it shows, in the request's Chinese."""
    evening(client)
    answer = words(client, f"?lang={lang}").json()
    assert answer["html_lang"] == html_lang
    assert all(not english_words(v) for v in answer["words"].values()), answer["words"]
    labels = {"zh_Hant": ("埋數", "鋤大D"), "zh_Hans": ("结算", "锄大地")}
    assert all(any(word in v for v in answer["words"].values()) for word in labels[lang])
    missing = client.get(f"/nowhere?lang={lang}", headers=KEEP)
    assert missing.status_code == 404 and not english_words(missing.json()["message"])
    refused = client.post(f"/api/record?lang={lang}", json={"session": 1, "line": "0 3 11 8"},
                          headers=keyed(VIEW))
    assert refused.status_code == 403 and not english_words(refused.json()["message"])


def test_english_words_are_english(client) -> None:
    shown = words(client, "?lang=en").json()["words"]
    names = [v.replace("陳大文", "") for v in shown.values()]  # an example name stays as typed
    assert not [v for v in names if re.search(r"[\u4e00-\u9fff]", v)]


def test_every_script_word_is_translated() -> None:
    from ledger.core.i18n import translator

    for lang in ("zh_Hant", "zh_Hans"):
        gettext, _n = translator(lang)
        for key, text in WORDS.items():
            shown = gettext(text)
            assert shown != text or not english_words(text), (lang, key)
            assert set(re.findall(r"\{\w+\}", shown)) == set(re.findall(r"\{\w+\}", text)), key


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


def fact_labels(answers: list[Any]) -> list[str]:
    """The labels of the deal facts a board offers (the registry's words, to be read) —
    cut out of the answers, which are otherwise the same in every language."""
    labels = []
    for answer in answers:
        for fact in (answer.get("facts") or []) if isinstance(answer, dict) else []:
            if isinstance(fact, dict) and "label" in fact:  # an offered fact (a deal's own are words)
                labels.append(fact.pop("label"))
    return labels


def test_the_api_json_is_the_same_in_every_language(tmp_path: Path, client_for) -> None:
    answers, labels = {}, {}
    for lang, headers in (("en", {}), ("zh_Hant", HK), ("zh_Hans", {"cookie": f"{COOKIE}=zh_Hans"})):
        db = tmp_path / f"{lang}.db"
        start(db)
        answers[lang] = api_evening(client_for(lang if lang != "en" else None, db), headers)
        labels[lang] = fact_labels(answers[lang])
    assert answers["zh_Hant"] == answers["en"]
    assert answers["zh_Hans"] == answers["en"]
    # A fact's label is in the request's language, however busy the server's read threads.
    assert "the winner did not call \"last card\"" in labels["en"]
    assert "贏家冇叫「最後一張」" in labels["zh_Hant"]
    assert all(re.search(r"[\u4e00-\u9fff]", x) for x in labels["zh_Hant"] + labels["zh_Hans"])
    assert labels["zh_Hant"] != labels["zh_Hans"]
    text = json.dumps(answers["zh_Hant"], ensure_ascii=False)
    assert not re.search(r"[\u4e00-\u9fff]", text.replace("陳大文", ""))
    # Undo says what it took back, of any kind: a fix, a void, the end of the session.
    undos = [a for a in answers["en"] if "action" in a and "after" in a]  # the undo op's answers
    assert [u["action"] for u in undos] == ["amend", "void", "session end"]
    assert {k: undos[0][k] for k in ("action", "session", "deal", "line", "back")} == {
        "action": "amend", "session": 1, "deal": 2, "line": "陳大文=10 Ben=12 Cat=0 Dan=1",
        "back": "陳大文=10 Ben=13 Cat=0 Dan=1"}
    assert undos[0]["after"]["kind"] == "amend" and undos[2]["after"] is None
    assert undos[1]["back"] == "陳大文=0 Ben=3 Cat=11 Dan=8"


def test_concurrent_requests_keep_their_own_language(db: Path) -> None:
    """Many requests in flight at once on one server, each in its own language."""
    import httpx

    app = app_for(db)
    asks = [("zh-HK", "zh-Hant-HK", "埋數"), ("zh-CN", "zh-Hans-CN", "结算"), ("en", "en", "Settle")] * 12

    async def run() -> list[tuple[str, str]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            async def one(header: str) -> tuple[str, str]:
                page = (await c.get("/api/words", headers={**KEEP, "accept-language": header})).json()
                error = await c.post("/api/record", content=b"{", headers={**KEEP, "accept-language": header})
                return page["html_lang"] + " " + page["words"]["tab_settle"], error.json()["error"]
            return await asyncio.gather(*(one(h) for h, _l, _w in asks))

    results = asyncio.run(run())
    errors = {"zh-Hant-HK": "請求內容唔係 JSON", "zh-Hans-CN": "请求内容不是 JSON",
              "en": "the request body is not JSON"}
    for (_h, lang, word), (page, error) in zip(asks, results, strict=True):
        assert page.startswith(lang + " ") and word in page
        assert error.startswith(errors[lang])


def test_the_live_feed_is_the_same_in_every_language(client) -> None:
    """``/api/events``: a session's board, English keys and values, the same bytes for a
    phone in Hong Kong Chinese as for one in English."""
    evening(client)

    def first(headers: dict[str, str]) -> str:
        with client.stream("GET", "/api/events?session=1", headers={**VIEW, **headers}) as stream:
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    return line
        raise AssertionError("no event")

    hant, hans, english = first(HK), first({"accept-language": "zh-CN"}), first({})
    assert hant == hans == english and '"next: ' in english


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
