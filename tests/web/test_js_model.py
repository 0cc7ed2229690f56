"""The phone app's model (ledger/web/static/app/model-*.js) tested without a browser,
by ``node --test tests/js``; the deal lines the phone writes read back by the engine's
grammar; and the app's JavaScript knows no deal option word (every word comes with
the offered facts, ledger/core/registry.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ledger.core.deal_line import parse_deal_line
from ledger.core.registry import FACTS, offered_facts
from ledger.core.rules import load_preset, preset_names

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "ledger" / "web" / "static" / "app"
SEATS = ["陳大文", "Ann Lee", "O'Neil", "Dan"]


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is not installed: the app's model tests need it (apt install nodejs)")
        pytest.skip("node is not installed")
    return found


def test_the_model_passes_its_node_tests() -> None:
    done = subprocess.run([node(), "--test", "tests/js"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", done.stdout, re.M)
    assert passed and int(passed.group(1)) >= 15, done.stdout[-2000:]


def test_the_apps_javascript_names_no_deal_option() -> None:
    words = {f.word for f in FACTS}
    assert {"--finish", "--assist", "--missed-call", "--shootout", "--dragon", "--four-twos",
            "--order", "--twos", "--bombs"} <= words
    files = sorted(APP.glob("*.js"))
    assert len(files) > 10
    found = [(f.name, w) for f in files for w in sorted(words)
             if re.search(re.escape(w) + r"(?![\w-])", f.read_text("utf-8"))]
    assert found == []


def _lines(offers: list[dict[str, Any]], hand: int) -> list[str]:
    """A deal line for each offer, written here with the offer's word: the facts the
    phone must carry through an amend."""
    a, b, c, d = (f"'{n}'" if " " in n else n.replace("'", "\\'") for n in SEATS)
    plain = f"{a}=1 {b}=0 {c}=7 {d}=4"
    out = [plain]
    for o in offers:
        kind, word = o["kind"], o["word"]
        if kind == "counts":
            out.append(f"{plain} {word} {a}=2 {word} {d}=1")
        elif kind == "choice":
            out += [f"{plain} {word} {v}" for v in o["values"]]
        elif kind in ("player", "loser"):
            out.append(f"{plain} {word} {c}")
        elif kind == "flag":
            out.append(f"{plain} {word}")
        elif kind == "win":
            out.append(f"{word} {c}")
        elif kind == "players":
            out = [f"{word} {c},{a},{d},{b}"]
        else:
            raise AssertionError(f"a fact of kind {kind} the phone cannot enter")
    return out


def test_amending_a_recorded_deal_on_the_phone_writes_the_same_facts() -> None:
    cases, expected = [], []
    for name in preset_names():
        rules = load_preset(name)
        for teams in (False, True):
            offers = [o.to_dict() for o in offered_facts(rules, teams)]
            for line in _lines(offers, rules.hand_size):
                stored = parse_deal_line(line, SEATS, rules).to_dict()
                cases.append({"seats": SEATS, "handSize": rules.hand_size, "offers": offers,
                              "stored": stored})
                expected.append((name, teams, line, stored))
    assert len(cases) > 40
    done = subprocess.run([node(), "tests/js/lines.mjs"], cwd=ROOT, input=json.dumps(cases),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    written = json.loads(done.stdout)
    for (name, teams, line, stored), again in zip(expected, written, strict=True):
        assert again is not None, (name, teams, line)
        rules = load_preset(name)
        assert parse_deal_line(again, SEATS, rules).to_dict() == stored, (name, teams, line, again)


def test_the_phone_says_who_deals_and_leads_next_as_the_engine_does() -> None:
    """The phone's sentence for the board's ``next`` (names.js ``turnText``, in the
    page's words) is the engine's own (``Turn.describe``) in every language: one deck and
    two (the holder of 3♦ first after the dealer leads), a first deal, a winner leading,
    a tie on most cards."""
    from ledger.book.views.deal import turn_dict
    from ledger.core.dealer import next_turn
    from ledger.core.i18n import using
    from ledger.core.rules import rules_from_mapping
    from ledger.core.scoring import Deal
    from ledger.engine.lang import words

    seats = ["陳大文", "李小明", "José", "Ann", "Ben"]
    one, two = rules_from_mapping({"name": "t"}), rules_from_mapping({"name": "t2", "decks": 2})
    loser = rules_from_mapping({"name": "t3", "next_lead": "loser"})
    turns = [next_turn(seats[:4], one, []), next_turn(seats, two, []),
             next_turn(seats[:4], one, [Deal(cards={"陳大文": 3, "李小明": 0, "José": 5, "Ann": 9})]),
             next_turn(seats[:4], loser, [Deal(cards={"陳大文": 9, "李小明": 0, "José": 9, "Ann": 2})])]
    assert turns[1].twin and not turns[0].twin
    cases, expected = [], []
    for lang in ("en", "zh_Hant", "zh_Hans"):
        with using(lang):
            table = words()
            for turn in turns:
                cases.append({"words": table, "next": turn_dict(turn)})
                expected.append(turn.describe())
    done = subprocess.run([node(), "tests/js/turns.mjs"], cwd=ROOT, input=json.dumps(cases),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == expected


def _imports(path: Path) -> set[str]:
    return set(re.findall(r'from\s*"\./([\w-]+\.js)"', path.read_text("utf-8")))


def test_the_app_is_an_engine_interface_a_model_and_screens() -> None:
    """The model touches no page; a screen reaches an engine only through the engine
    interface (``app.engine``), and no screen file is over 150 lines."""
    files = {f.name: f for f in APP.glob("*.js")}
    model = {n for n in files if n.startswith("model-")}
    engines = {n for n in files if n.startswith("engine")}
    screens = set(files) - model - engines - {"main.js"}
    assert {"model-draft.js", "model-outbox.js", "model-ids.js"} <= model
    assert {"board.js", "history.js", "log.js", "settle.js"} <= screens
    for name in model:
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", files[name].read_text("utf-8"), flags=re.S)
        assert not re.search(r"\b(document|window|localStorage|navigator)\b", text), name
        assert _imports(files[name]) <= model, name
    for name in screens | {"main.js"}:
        assert not {n for n in _imports(files[name]) if n.startswith("engine")} - {"engine.js"}, name
    long = {n: len(files[n].read_text("utf-8").splitlines()) for n in screens}
    assert {n: lines for n, lines in long.items() if lines > 150} == {}
