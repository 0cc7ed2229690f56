"""Crafted exports: an import is as strict as `deal` (exact JSON types, seated players,
real cards, numbers in range, corrections of live deals only), any file gets one
`error:` line and writes nothing, and whatever is accepted passes `doctor --full`."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.core.rules import load_preset
from tests.helpers import file_digest

SEATS = ["Ann", "Ben", "Cat", "Dan"]
UUIDS = iter(f"00000000-0000-4000-8000-{n:012d}" for n in range(1, 10**6))


def _rules(preset: str, **changes) -> dict:
    return {**load_preset(preset).to_dict(), **changes}


def _export(entries: list[dict], **session) -> dict:
    head = {"uuid": "11111111-1111-4111-8111-111111111111", "name": "", "players": SEATS,
            "rules": _rules("classic"), "stake": "1", "currency": "PTS", "teams": False}
    head.update(session)
    return {"format": "bigtwo-ledger", "version": 1, "sessions": [{**head, "entries": entries}]}


def _entry(kind: str, deal: int, facts: dict | None, seq: int) -> dict:
    return {"uuid": next(UUIDS), "seq": seq, "kind": kind, "deal": deal, "facts": facts}


GOOD = {"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}}


def _import(cli, tmp_path, data, name="in.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return cli("import", str(path), "--format", "json")


def _refused(cli, tmp_path, ledger_path, data, fragment):
    if not ledger_path.exists():  # a ledger with a session in it, to prove nothing changes
        cli.ok("session", "start", "--players", "Eve,Fay")
    before = file_digest(ledger_path)
    result = _import(cli, tmp_path, data)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in result.output
    assert file_digest(ledger_path) == before


@pytest.mark.parametrize(("facts", "fragment"), [
    ({**GOOD, "missed_call": "false"}, "missed_call must be true or false"),
    ({**GOOD, "missed_call": 0}, "missed_call must be true or false"),
    ({"cards": {"Ann": 0, "Ben": 3.0, "Cat": 5, "Dan": 9}}, "not a whole number"),
    ({"cards": {"Ann": False, "Ben": 3, "Cat": 5, "Dan": 9}}, "not a whole number"),
    ({"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}, "hands": ["2S"]}, "hands must be"),
    ({"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}, "hands": {"Ben": 3}}, "must be text"),
    ({"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}, "hands": {"Zed": "2S 3S 4S"}},
     "'Zed' is not seated"),
    ({"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}, "hands": {"Ben": "2S 2S 2S"}},
     "named twice"),
    ({"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}, "hands": {"Ben": "2S 3H"}},
     "is 2 cards, but cards says 3"),
    ({"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}, "twos": {"Ben": 10**30}},
     "not a whole number"),
    ({"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}, "order": "Ann"}, "order must be a list"),
    ({"cards": {"Ann": 0, "Ben": 3, "Cat": 5, "Dan": 9}, "evil": 1}, "unknown deal fact"),
    (["cards"], "facts"),
])
def test_facts_are_typed_exactly(cli, tmp_path, ledger_path, facts, fragment):
    _refused(cli, tmp_path, ledger_path, _export([_entry("deal", 1, facts, 1)]), fragment)


@pytest.mark.parametrize("deal", [2**63 - 1, 2**63, 10**9 + 1, 0, -1, True])
def test_deal_numbers_out_of_range_are_refused(cli, tmp_path, ledger_path, deal):
    _refused(cli, tmp_path, ledger_path, _export([_entry("deal", deal, GOOD, 1)]),
             "deal must be a deal number from 1 to 1,000,000,000")


def test_a_void_of_a_void_deal_is_refused(cli, tmp_path, ledger_path):
    entries = [_entry("deal", 1, GOOD, 1), _entry("void", 1, None, 2), _entry("void", 1, None, 3)]
    _refused(cli, tmp_path, ledger_path, _export(entries), "already voided")


def test_an_amend_brings_a_void_deal_back_like_the_cli(cli, tmp_path, ledger_path):
    entries = [_entry("deal", 1, GOOD, 1), _entry("void", 1, None, 2),
               _entry("amend", 1, GOOD, 3), _entry("void", 1, None, 4)]
    assert _import(cli, tmp_path, _export(entries)).exit_code == 0
    assert cli.ok("doctor", "--full").startswith("ok:")


def test_a_void_of_a_deal_the_ledger_already_voided_is_a_conflict(cli, tmp_path, ledger_path):
    cli.ok("session", "start", "--players", ",".join(SEATS))
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=5", "Dan=9")
    cli.ok("void", "1")
    data = json.loads(cli.ok("export"))
    before = [e for e in data["sessions"][0]["entries"]]
    data["sessions"][0]["entries"].append(
        {"uuid": next(UUIDS), "seq": 3, "kind": "void", "deal": 1, "facts": None})
    # the file alone is refused; against the ledger, its own check would be the same:
    _refused(cli, tmp_path, ledger_path, data, "already voided")
    data["sessions"][0]["entries"] = [before[0], data["sessions"][0]["entries"][-1]]
    data["sessions"][0]["entries"][1]["seq"] = 2
    result = _import(cli, tmp_path, data)
    assert result.exit_code == 1 and "already void in the ledger" in result.stderr
    assert cli.ok("doctor", "--full").startswith("ok:")


@pytest.mark.parametrize(("text", "fragment"), [
    ("[" * 100_000 + "]" * 100_000, "must be a JSON object"),
    ('{"format": "bigtwo-ledger", "version": 1, "sessions": [' + "[" * 100_000 + "]" * 100_000
     + "]}", "nested too deeply"),
    ('{"format": "bigtwo-ledger", "version": ' + "9" * 5000 + ', "sessions": []}',
     "a number that is too long"),
    ('{"format": "bigtwo-ledger", "version": 1, "sessions": [{"uuid": "x", "stake": '
     + "1" * 5000 + "}]}", "too long"),
    ("", "is empty: not a bigtwo export"),
    ("{", "is not valid JSON"),
    ('{"format": "bigtwo-ledger", "version": 1, "sessions": []} trailing', "extra text"),
    ('{"format": "bigtwo-ledger", "version": 1, "sessions": [{"uuid": "\\ud800"}]}',
     "lone surrogate"),
])
def test_hostile_json_is_one_error_line(cli, tmp_path, ledger_path, text, fragment):
    _refused(cli, tmp_path, ledger_path, text, fragment)


def test_lone_surrogate_in_stored_rule_text_is_refused(cli, tmp_path, ledger_path):
    data = _export([_entry("deal", 1, GOOD, 1)], rules=_rules("classic", description="@"))
    text = json.dumps(data).replace('"description": "@"', '"description": "\\udc00"')
    _refused(cli, tmp_path, ledger_path, text, "lone surrogate")


@pytest.mark.parametrize(("session", "fragment"), [
    ({"name": "evening\x1b]0;pwned\x07"}, "session name"),
    ({"name": "x" * 1001}, "longer than 1000"),
    ({"players": ["Ann", "ANN", "Cat", "Dan"]}, "more than once"),
    ({"players": ["Ann", "Ben\u200b", "Cat", "Dan"]}, "format character"),
    ({"rules": _rules("classic", name="house\x1b[2J")}, "rule name"),
    ({"rules": _rules("classic", description="x\x1b]52;c;aGk=\x07y")}, "rule 'description'"),
    ({"rules": _rules("classic", source="pagat\u202e")}, "rule 'source'"),
    ({"players": ["Ann", "Ben", "Cat", "#Dan"]}, "cannot start with #"),
    ({"teams": "false"}, "teams must be true or false"),
])
def test_session_fields_are_clean(cli, tmp_path, ledger_path, session, fragment):
    _refused(cli, tmp_path, ledger_path, _export([_entry("deal", 1, GOOD, 1)], **session), fragment)


def test_an_error_in_the_last_session_writes_nothing(cli, tmp_path, ledger_path):
    cli.ok("session", "start", "--players", "Eve,Fay")
    data = _export([_entry("deal", 1, GOOD, 1)])
    bad = copy.deepcopy(data["sessions"][0])
    bad["uuid"] = "22222222-2222-4222-8222-222222222222"
    bad["entries"] = [_entry("deal", 1, {**GOOD, "missed_call": "yes"}, 1)]
    data["sessions"].append(bad)
    _refused(cli, tmp_path, ledger_path, data, "sessions[1]")


# --- property: whatever an import accepts passes the full self-check ---------------------

VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.sampled_from(["Ann", "Ben", "2S 3S", "two", "x"]),
    st.lists(st.sampled_from(SEATS), max_size=4),
    st.dictionaries(st.sampled_from([*SEATS, "Zed"]), st.integers(-1, 14) | st.text(max_size=6),
                    max_size=4),
)
KEYS = st.sampled_from(["cards", "twos", "bombs", "hands", "finish", "assist", "missed_call",
                        "immediate", "immediate_by", "order", "shootout"])
ENTRY = st.tuples(st.sampled_from(["deal", "void", "amend"]), st.integers(1, 4),
                  st.dictionaries(KEYS, VALUES, max_size=3))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ENTRY, min_size=1, max_size=6),
       st.sampled_from(["classic", "hong-kong", "doubling", "pay-the-winner"]))
def test_any_import_that_exits_0_leaves_doctor_full_clean(cli, tmp_path, ledger_path, raw, rules):
    entries = []
    for seq, (kind, deal, changes) in enumerate(raw, 1):
        facts = None if kind == "void" else {**GOOD, **changes}
        entries.append(_entry(kind, deal, facts, seq))
    data = _export(entries, rules=_rules(rules), uuid=f"33333333-3333-4333-8333-{len(entries):012d}")
    data["sessions"][0]["uuid"] = next(UUIDS)
    result = _import(cli, tmp_path, data)
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        doctor = cli("doctor", "--full")
        assert doctor.exit_code == 0, doctor.output
    else:
        assert result.stderr.startswith("error: ")


@pytest.mark.parametrize("content", [b"", b"\n\n", b" \t\r\n  \n", b"\xef\xbb\xbf\n"])
@pytest.mark.parametrize("fmt", [None, "json", "sheet"])
def test_an_empty_file_is_refused(cli, tmp_path, ledger_path, content, fmt):
    cli.ok("session", "start", "--players", "Eve,Fay")
    before = file_digest(ledger_path)
    path = tmp_path / "e.json"
    path.write_bytes(content)
    result = cli("import", str(path), *(["--format", fmt] if fmt else []))
    assert result.exit_code == 2, result.output
    assert result.stderr == "error: e.json is empty: not a bigtwo export or score sheet\n"
    assert file_digest(ledger_path) == before


@pytest.mark.no_ledger
def test_an_empty_file_creates_no_ledger(cli, tmp_path, ledger_path):
    (tmp_path / "e.txt").write_bytes(b"")
    cli.fails("import", str(tmp_path / "e.txt"), code=2)
    assert not ledger_path.exists()
