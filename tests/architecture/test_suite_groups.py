"""The suite runs in parallel (``pytest -n auto --dist loadgroup``): tests that start
Chromium, ``bigtwo serve`` or processes they kill run one at a time in their group, each
group on one worker (tests/conftest.py GROUPS; Chromium's groups are BROWSER), so their
timing margins hold.  A new test file of that kind must join a group: these tests find
such files by what they do."""

from __future__ import annotations

import re
from pathlib import Path

import conftest
import pytest
from helpers import ROOT

TESTS = sorted(p for p in (ROOT / "tests").rglob("test_*.py") if p != Path(__file__))  # not this one
CHROMIUM = re.compile(r"playwright|phone_page|KillableChromium|\blaunch\(\)|need_chromium"
                      r"|^from web\.phonekit import", re.M)
PROCESSES = re.compile(r"(?<![\w.])Server\(|SIGKILL|\bpty\.fork\(")  # `bigtwo serve`, kills, a terminal


def name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_grouped_file_exists() -> None:
    missing = [path for paths in conftest.GROUPS.values() for path in paths
               if not (ROOT / path).is_file()]
    assert not missing


def test_a_file_is_in_a_browser_group_exactly_when_it_starts_chromium() -> None:
    starts = {name(p) for p in TESTS if CHROMIUM.search(p.read_text(encoding="utf-8"))}
    assert starts == {path for group in conftest.BROWSER for path in conftest.GROUPS[group]}
    assert {conftest.group_of(ROOT / p) for p in starts} == set(conftest.BROWSER)


def test_every_file_that_starts_a_server_or_kills_a_process_is_in_a_group() -> None:
    found = {name(p) for p in TESTS if PROCESSES.search(p.read_text(encoding="utf-8"))}
    assert "tests/reliability/test_crash.py" in found  # the search sees what it is for
    assert [p for p in sorted(found) if conftest.group_of(ROOT / p) is None] == []


def test_the_hook_marks_the_tests_of_a_grouped_file(request: pytest.FixtureRequest,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The collection hook gives each test of a grouped file its ``xdist_group``
    marker, the one ``--dist loadgroup`` sends to a single worker; other tests get none."""
    item = request.node
    assert item.get_closest_marker("xdist_group") is None  # this file runs on any worker
    assert conftest.group_of(ROOT / "tests" / "web" / "test_phone.py") == "browser"
    monkeypatch.setitem(conftest.GROUP_OF, name(item.path), "probe")
    conftest.pytest_itemcollected(item)
    assert item.get_closest_marker("xdist_group").args == ("probe",)


LAUNCH = re.compile(r"chromium\.launch\((?P<call>[^\n]*)|\"--headless=new\",(?P<line>[^\n]*)")


def test_every_chromium_started_takes_the_shared_switches() -> None:
    """Each Chromium the tests, benchmarks and scripts start gets headless_chromium's
    switches (scripts/headless_chromium.py: without them Chromium 156 loads the address
    bar's popup, about 1.3 s of CPU, beside every page it opens); none passes its own."""
    files = [p for folder in ("tests", "benchmarks", "scripts") for p in (ROOT / folder).rglob("*.py")]
    launches = [(name(p), m) for p in files for m in LAUNCH.finditer(p.read_text(encoding="utf-8"))
                if p != Path(__file__)]
    assert len(launches) >= 10  # the search sees the launches it is for
    own = [(path, m.group(0)) for path, m in launches
           if not re.search(r"\bARGS\b|SWITCHES", m.group("call") or m.group("line") or "")]
    assert own == []
    import headless_chromium
    from web import phonekit
    assert set(headless_chromium.SWITCHES) <= set(phonekit.ARGS)
    assert any(s.startswith("--disable-features=") and "WebUIOmniboxPopup" in s
               for s in headless_chromium.SWITCHES)
