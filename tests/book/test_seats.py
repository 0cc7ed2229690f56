"""Seats that change during the evening (ledger/book/seats.py, ledger/core/lineup.py).

The evening worked by hand: a late arrival, a sit-out rotation among five, a seat swap
and a departure.  Settlement counts each pair over the deals both played; the nets sum
to zero; the same after an export and an import, and after a sync through the engine's
ops (the phone's half and the hub's half).  Property tests try random evenings, and
random evenings on two devices apart synced both ways (both must then agree)."""

from __future__ import annotations

import io
import json
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ledger.book import actions as book
from ledger.book import reports, views
from ledger.book.lineups import lineup
from ledger.book.seats import seat_change
from ledger.core.deal_line import parse_deal_line
from ledger.core.errors import Conflict, InputError, KeyReused
from ledger.core.rules import load_preset
from ledger.core.scoring import Deal, score_deal
from ledger.formats import exchange
from ledger.storage.store import open_ledger

FOUR = ["Ann", "Ben", "Cat", "Dan"]


def _start(ledger, seats=FOUR, rules: str = "classic"):
    return book.start_session(ledger, list(seats), load_preset(rules), Decimal("1"), "HKD", "", False)


def _deal(ledger, s, line: str):
    s = ledger.journal.session(s.id)
    deal = parse_deal_line(line, book.deal_seats(ledger, s), book.session_rules(s))
    return book.record_deal(ledger, s, deal)


def _seat(ledger, s, action: str, *names: str, **kw):
    return seat_change(ledger, ledger.journal.session(s.id), action, list(names), **kw)


def _evening(ledger):
    """The evening of the module's docstring (every count under 10: penalty = cards)."""
    s = _start(ledger)
    _deal(ledger, s, "Ann=0 Ben=3 Cat=5 Dan=8")           # 1: the four who started
    _seat(ledger, s, "join", "Eve", out=True)              # a late arrival: the table is full
    _seat(ledger, s, "sit-out", "Ann")
    _seat(ledger, s, "back", "Eve")
    _deal(ledger, s, "Ben=0 Cat=2 Dan=4 Eve=6")           # 2: Ann sits out
    _seat(ledger, s, "sit-out", "Ben")
    _seat(ledger, s, "back", "Ann")
    _deal(ledger, s, "Ann=7 Cat=0 Dan=1 Eve=3")           # 3: Ben sits out
    _seat(ledger, s, "swap", "Cat", "Dan")
    _deal(ledger, s, "Ann=2 Cat=9 Dan=0 Eve=5")           # 4: Dan and Cat swapped seats
    _seat(ledger, s, "leave", "Dan")
    _seat(ledger, s, "back", "Ben")
    _deal(ledger, s, "Ann=4 Ben=0 Cat=6 Eve=1")           # 5: Dan has gone home
    return ledger.journal.session(s.id)


# Worked by hand: net_i = Σ over the deals i played of (Σs − n·s_i); pair by pair, the
# difference of the two players' cards over the deals both played.
NETS = {"Ben": Decimal(27), "Dan": Decimal(3), "Ann": Decimal(2), "Eve": Decimal(-10),
        "Cat": Decimal(-22)}
PAIRS = {("Ann", "Ben"): 1, ("Cat", "Ann"): 7, ("Ann", "Eve"): 4, ("Cat", "Ben"): 10,
         ("Dan", "Ben"): 9, ("Eve", "Ben"): 7, ("Cat", "Dan"): 3, ("Cat", "Eve"): 2,
         ("Eve", "Dan"): 9}  # Ann and Dan: 9 cards each over deals 1, 3 and 4, nothing owed


def test_the_evening_settles_as_worked_by_hand(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _evening(ledger)
        assert s.seats == ("Ann", "Ben", "Cat", "Dan", "Eve") and s.started_seats == tuple(FOUR)
        assert s.deals == 5  # counted: no player played all five
        st_ = reports.settle(ledger, [s])
        assert st_.nets == NETS
        assert {(p.payer, p.payee): p.amount for p in st_.pairwise} == {
            k: Decimal(v) for k, v in PAIRS.items()}
        assert sum(st_.nets.values()) == 0
        work = views.settle_view(st_).to_dict()["working"][0]
        tables = {tuple(t["deals"]): (t["players"], t["sitting_out"], t["sum_s"], t["n"])
                  for t in work["tables"]}
        assert tables == {
            (1,): (FOUR, ["Eve"], 16, 4),
            (2,): (["Ben", "Cat", "Dan", "Eve"], ["Ann"], 12, 4),
            (3, 4): (["Ann", "Cat", "Dan", "Eve"], ["Ben"], 27, 4),  # one line-up, swap or not
            (5,): (["Ann", "Ben", "Cat", "Eve"], ["Dan"], 11, 4)}
        standings = {p.name: p.deals for p in reports.standings(ledger, [s]).players}
        assert standings == {"Ann": 4, "Ben": 3, "Cat": 5, "Dan": 4, "Eve": 4}
        # each deal records who played it, in seat order then (Cat and Dan swapped)
        played = [e.facts.get("players") for e in ledger.journal.live_deals(s.id)]
        assert played == [None, ["Ben", "Cat", "Dan", "Eve"], ["Ann", "Cat", "Dan", "Eve"],
                          ["Ann", "Dan", "Cat", "Eve"], ["Ann", "Ben", "Cat", "Eve"]]
        now = lineup(ledger, s)
        assert (now.order, now.playing) == (("Ann", "Ben", "Cat", "Eve"),) * 2


def test_settle_all_counts_each_pair_over_shared_deals_too(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _evening(ledger)
        fast = reports.settle_all(ledger, working_limit=0)  # the SQL path, summed per stake
        assert fast.nets == NETS
        assert {(p.payer, p.payee): p.amount for p in fast.pairwise} == {
            k: Decimal(v) for k, v in PAIRS.items()}
        assert [w.session.id for w in reports.settle(ledger, [s]).working] == [s.id]


def test_fixed_seats_settle_exactly_as_before(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _start(ledger)
        _deal(ledger, s, "Ann=0 Ben=3 Cat=11 Dan=8")
        work = views.settle_view(reports.settle(ledger, [ledger.journal.session(s.id)])).to_dict()
        assert "tables" not in work["working"][0] and work["working"][0]["n"] == 4
        facts = ledger.journal.live_deals(s.id)[0].facts
        assert facts == {"cards": {"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8}}  # no players: the seats


def test_undo_takes_back_a_seat_change_and_names_it(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _start(ledger, ["Ann", "Ben", "Cat"])
        _deal(ledger, s, "Ann=0 Ben=3 Cat=5")
        _seat(ledger, s, "join", "陳大文")
        s = ledger.journal.session(s.id)
        preview = views.undo_preview(ledger, s)
        assert preview is not None and preview.action == "seat join 陳大文" and preview.line is None
        undone = book.undo(ledger, s)
        assert undone.action == "seat join 陳大文"
        assert views.undone_view(ledger, undone).to_dict()["action"] == "seat join 陳大文"
        s = ledger.journal.session(s.id)
        assert lineup(ledger, s).order == ("Ann", "Ben", "Cat") and "陳大文" not in s.seats
        assert book.undo(ledger, s).action == "deal"  # then the deal before it


def test_a_seat_change_is_written_once_per_key_and_checked(tmp_path: Path) -> None:
    key = "0b3c6c1e-43ff-4d4b-8d6a-0d0d3f0a2a11"
    with open_ledger(tmp_path / "l.db") as ledger:
        s = _start(ledger)
        first = _seat(ledger, s, "sit-out", "Ann", entry_uuid=key)
        again = _seat(ledger, s, "sit-out", "Ann", entry_uuid=key)
        assert again.entry.uuid == first.entry.uuid
        assert len(ledger.journal.seat_entries(s.id)) == 1
        with pytest.raises(KeyReused):
            _seat(ledger, s, "sit-out", "Ben", entry_uuid=str(s.start_uuid))
        def refused(action: str, *names: str, said: str) -> None:
            before = ledger.journal.seat_entries(s.id)
            with pytest.raises(InputError, match=said):
                _seat(ledger, s, action, *names)
            assert ledger.journal.seat_entries(s.id) == before  # nothing written

        refused("sit-out", "Ann", said="sitting out already")
        refused("back", "Ben", said="not sitting out")
        refused("leave", "Zed", said="not seated")
        refused("join", "ann", said="seated already")
        refused("swap", "Ben", "Ben", said="two different")
        refused("order", "Ben", "Cat", said="every seated player")
        _seat(ledger, s, "back", "Ann")
        refused("join", "Eve", said="cannot be dealt")  # four play: a fifth joins sitting out
        _seat(ledger, s, "sit-out", "Ann")
        _seat(ledger, s, "sit-out", "Cat")  # two play now: Ben and Dan
        refused("sit-out", "Ben", said="cannot sit out")
        refused("leave", "Dan", said="cannot leave")
        with pytest.raises(InputError, match="from 1 to 1"):
            _seat(ledger, s, "order", "Dan", "Cat", "Ben", "Ann", from_deal=2)
        book.end_session(ledger, ledger.journal.session(s.id))
        with pytest.raises(Conflict, match="reopen"):
            _seat(ledger, s, "back", "Ann")


def test_the_order_from_a_deal_on_sets_who_deals_next(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        s = book.start_session(ledger, FOUR, load_preset("classic")._replace(next_deal="rotate"),
                               Decimal("1"), "HKD", "", False)
        for _ in range(3):
            _deal(ledger, s, "Ann=0 Ben=3 Cat=5 Dan=8")
        assert book.next_turn(ledger, ledger.journal.session(s.id)).dealers == ("Dan",)
        # entered wrong: the seats were Ann, Cat, Ben, Dan, and deal 2 was the first so dealt
        _seat(ledger, s, "order", "Ann", "Cat", "Ben", "Dan", from_deal=2)
        assert book.next_turn(ledger, ledger.journal.session(s.id)).dealers == ("Ben",)


def test_export_and_import_carry_the_seats(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "a.db") as ledger:
        s = _evening(ledger)
        _seat(ledger, s, "join", "Fay", out=True)
        book.undo(ledger, ledger.journal.session(s.id))  # an undone seat entry travels too
        out = io.StringIO()
        exchange.export_json(ledger, [ledger.journal.session(s.id)], out)
        text = out.getvalue()
        before = views.settle_view(reports.settle(ledger, [ledger.journal.session(s.id)])).to_dict()
    path = tmp_path / "evening.json"
    path.write_text(text, encoding="utf-8")
    session = json.loads(text)["sessions"][0]
    assert session["players"] == FOUR  # the seats at the start: the rest are entries
    assert sum(e["kind"] == "seat" for e in session["entries"]) == 10
    with open_ledger(tmp_path / "b.db") as other:
        for _ in range(2):  # a second import writes nothing
            exchange.import_json(other, path, str(path))
        (t,) = other.journal.sessions()
        assert views.settle_view(reports.settle(other, [t])).to_dict() == before
        assert lineup(other, t).order == ("Ann", "Ben", "Cat", "Eve")
        again = io.StringIO()
        exchange.export_json(other, [t], again)
        assert again.getvalue() == text


def test_a_sync_through_the_engine_refuses_nothing_when_seats_and_deals_cross(tmp_path: Path) -> None:
    """The phone and the hub each hold the session; the phone records a deal while the
    hub takes a seat change; a sync (the phone's export to the hub's import, then the
    hub's export to the phone's import, as engine-worker-sync.js does) merges both."""
    from ledger.engine import dispatch

    with open_ledger(tmp_path / "hub.db") as hub:
        s = _start(hub, ["Ann", "Ben", "Cat", "Dan"])
        _deal(hub, s, "Ann=0 Ben=3 Cat=5 Dan=8")
        first = dispatch.call(hub, "export", {})["text"]
    (tmp_path / "first.json").write_text(first, encoding="utf-8")
    with open_ledger(tmp_path / "phone.db") as phone:
        exchange.import_json(phone, tmp_path / "first.json", "first.json")
        (p,) = phone.journal.sessions()
        dispatch.call(phone, "record", {"session": p.id, "line": "Ann=2 Ben=0 Cat=1 Dan=4",
                                        "key": "5f0e4f8e-0f7e-4d8e-9a63-7b35c1b7a001"})
        mine = dispatch.call(phone, "export", {})["text"]
    with open_ledger(tmp_path / "hub.db") as hub:
        dispatch.call(hub, "seat", {"session": s.id, "action": "sit-out", "players": "Dan",
                                    "key": "5f0e4f8e-0f7e-4d8e-9a63-7b35c1b7a002"})
        _deal(hub, s, "Ann=0 Ben=1 Cat=6")  # Dan sits out
        (tmp_path / "phone.json").write_text(mine, encoding="utf-8")
        exchange.import_json(hub, tmp_path / "phone.json", "phone.json")
        theirs = dispatch.call(hub, "export", {})["text"]
        hub_settle = views.settle_view(reports.settle(hub, [hub.journal.session(s.id)])).to_dict()
    (tmp_path / "hub.json").write_text(theirs, encoding="utf-8")
    with open_ledger(tmp_path / "phone.db") as phone:
        exchange.import_json(phone, tmp_path / "hub.json", "hub.json")
        (p,) = phone.journal.sessions()
        phone_settle = views.settle_view(reports.settle(phone, [p])).to_dict()
    # deal numbers are each ledger's own (the two new deals 2 and 3 swap), the money is one
    assert {k: v for k, v in phone_settle.items() if k != "working"} == {
        k: v for k, v in hub_settle.items() if k != "working"}
    assert [sorted(t["deals"]) for t in hub_settle["working"][0]["tables"]] == [[1, 3], [2]]
    assert [sorted(t["deals"]) for t in phone_settle["working"][0]["tables"]] == [[1, 2], [3]]
    assert sum(Decimal(v) for v in hub_settle["nets"].values()) == 0
    assert hub_settle["nets"]["Dan"] == "-25.00"  # (16 − 4·8) + (7 − 4·4): two deals, not three


def _sync(a, b, folder: Path) -> None:
    """``a``'s export into ``b``'s import, through the engine's ops as the phone does."""
    from ledger.engine import dispatch

    text = dispatch.call(a, "export", {})["text"]
    dispatch.call(b, "import", {"text": text, "name": "sync.json",
                                "key": str(uuid.uuid5(uuid.NAMESPACE_URL, str(folder) + text))})


def _money(ledger) -> dict:
    """What both devices must agree on after a sync: the settlement (less the working,
    which names each ledger's own deal numbers), the seats now, the next deal's players
    and who deals and leads it."""
    from ledger.engine import dispatch

    (s,) = ledger.journal.sessions()
    settled = views.settle_view(reports.settle(ledger, [s])).to_dict()
    del settled["working"]
    board = dispatch.call(ledger, "board", {"session": s.id})
    return {**settled, "seats": board["seats"], "next": board["next"], "standings": sorted(
        json.dumps(p, sort_keys=True) for p in board["standings"]["players"])}


def test_a_seat_change_and_a_deal_on_two_devices_agree_after_a_sync(tmp_path: Path) -> None:
    """Issue 33: device A seats a late arrival (Eve, sitting out) and records a deal;
    device B, not yet synced, records a deal of the four.  Under the house rule
    ``sit_out = "winner"`` who sits out next followed the *last deal by number*, and deal
    numbers are each ledger's own after a sync (A's deal is 2 on A and 3 on B), so each
    device rested a different winner and the evening went on with different players
    (and who deals next, from the last deal's winner, differed too).  The deal recorded
    last in the one order of entries (B's, Ben won) decides, on both."""
    rules = load_preset("classic")._replace(sit_out="winner")
    with open_ledger(tmp_path / "a.db") as a, open_ledger(tmp_path / "b.db") as b:
        s = book.start_session(a, FOUR, rules, Decimal("1"), "HKD", "", False)
        _deal(a, s, "Ann=0 Ben=3 Cat=5 Dan=8")                 # 1, on both
        _sync(a, b, tmp_path)
        (t,) = b.journal.sessions()
        _seat(a, s, "join", "Eve", out=True)                   # A: Eve arrives, the table is full
        _deal(a, s, "Ann=0 Ben=2 Cat=4 Dan=6")                 # A: Ann won, Ann would rest
        _deal(b, t, "Ann=1 Ben=0 Cat=3 Dan=9")                 # B, later: Ben won
        _sync(b, a, tmp_path)
        _sync(a, b, tmp_path)
        assert _money(a) == _money(b)
        for ledger in (a, b):
            (u,) = ledger.journal.sessions()
            assert lineup(ledger, u).sitting_out == ("Ben",)  # the winner of the deal made last
            assert book.deal_seats(ledger, u) == ("Ann", "Cat", "Dan", "Eve")
        # by hand: Σs 16, 12, 13; net = Σs − 4·s
        assert _money(a)["nets"] == {"Ann": "37.00", "Ben": "21.00", "Cat": "-7.00",
                                     "Dan": "-51.00", "Eve": "0.00"}
        _deal(b, t, "Ann=2 Cat=0 Dan=5 Eve=1")                 # the next deal, as both say it
        _sync(b, a, tmp_path)
        assert _money(a) == _money(b)
        assert _money(a)["nets"] == {"Ann": "37.00", "Ben": "21.00", "Cat": "1.00",
                                     "Dan": "-63.00", "Eve": "4.00"}  # Σs 8: −0, +8, −12, +4


def test_a_file_written_before_a_joiner_was_renamed_merges_under_the_name_now(tmp_path: Path) -> None:
    """The hub renames 陳大文, who joined later, to Chan; the phone, synced before, records
    a deal with 陳大文 and syncs: its file names him as he was, as a file may name a seat,
    and merges under his name now (no conflict on the deal both hold)."""
    from ledger.book import players

    with open_ledger(tmp_path / "hub.db") as hub, open_ledger(tmp_path / "phone.db") as phone:
        s = _start(hub)
        _deal(hub, s, "Ann=0 Ben=3 Cat=5 Dan=8")
        _seat(hub, s, "sit-out", "Dan")
        _seat(hub, s, "join", "陳大文")
        _deal(hub, s, "Ann=2 Ben=0 Cat=4 陳大文=6")
        _sync(hub, phone, tmp_path)
        (p,) = phone.journal.sessions()
        players.rename(hub, "陳大文", "Chan")
        _deal(phone, p, "Ann=1 Ben=0 Cat=2 陳大文=3")
        _sync(phone, hub, tmp_path)
        (h,) = hub.journal.sessions()
        assert h.seats == ("Ann", "Ben", "Cat", "Dan", "Chan") and h.deals == 3
        settled = views.settle_view(reports.settle(hub, [h])).to_dict()
        # by hand: Σs 16, 12, 6; net = Σs − 4·s; Chan −12 then 6 − 12
        assert settled["nets"] == {"Ann": "22.00", "Ben": "22.00", "Cat": "-10.00",
                                   "Dan": "-16.00", "Chan": "-18.00"}
        assert "陳大文" not in json.dumps(settled, ensure_ascii=False)


# --- random evenings ------------------------------------------------------------------------

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
STEP = st.one_of(
    st.tuples(st.just("deal"), st.lists(st.integers(0, 13), min_size=8, max_size=8), st.integers(0, 7)),
    st.tuples(st.sampled_from(["join", "leave", "sit-out", "back"]), st.sampled_from(NAMES)),
    st.tuples(st.just("swap"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
)


def _pair_amounts(ledger, s) -> dict[tuple[str, str], int]:
    """Each pair's amount worked from the recorded facts alone: the difference of their
    penalties over the deals both played (positive: the first pays the second)."""
    rules = book.session_rules(s)
    out: dict[tuple[str, str], int] = {}
    for e in ledger.journal.live_deals(s.id):
        deal = Deal.from_dict(e.facts)
        players = deal.players or s.started_seats
        pen = score_deal(rules, players, deal).penalty
        for a in players:
            for b in players:
                if a < b:
                    out[(a, b)] = out.get((a, b), 0) + pen[a] - pen[b]
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, max_size=14))
def test_any_evening_settles_pair_by_pair_over_shared_deals(tmp_path_factory, steps) -> None:
    folder = tmp_path_factory.mktemp("evening")
    with open_ledger(folder / "l.db") as ledger:
        s = book.start_session(ledger, FOUR, load_preset("classic")._replace(deal_all=True),
                               Decimal("0.5"), "HKD", "", False)
        for step in steps:
            now = lineup(ledger, ledger.journal.session(s.id))
            try:
                if step[0] == "deal":
                    counts, winner = step[1], step[2] % len(now.playing)
                    hand = 52 // len(now.playing)
                    line = " ".join(f"{n}={0 if i == winner else max(1, counts[i] % (hand + 1))}"
                                    for i, n in enumerate(now.playing))
                    _deal(ledger, s, line)
                elif step[0] == "swap":
                    _seat(ledger, s, "swap", step[1], step[2])
                else:
                    _seat(ledger, s, step[0], step[1], out=step[0] == "join")
            except InputError:
                continue  # a change that does not fit is refused, and writes nothing
        s = ledger.journal.session(s.id)
        settled = reports.settle(ledger, [s])
        assert sum(settled.nets.values()) == 0
        pairs = {k: v for k, v in _pair_amounts(ledger, s).items() if v}
        got = {}
        for p in settled.pairwise:
            a, b = sorted((p.payer, p.payee))
            got[(a, b)] = p.amount / Decimal("0.5") * (1 if p.payer == a else -1)
        assert got == {k: Decimal(v) for k, v in pairs.items()}
        out = io.StringIO()
        exchange.export_json(ledger, [s], out)
        before = views.settle_view(settled).to_dict()
    (folder / "x.json").write_text(out.getvalue(), encoding="utf-8")
    with open_ledger(folder / "m.db") as other:
        exchange.import_json(other, folder / "x.json", "x.json")
        (t,) = other.journal.sessions()
        assert views.settle_view(reports.settle(other, [t])).to_dict() == before


def _step(ledger, s, step) -> None:
    """One step of a random evening on one device: a deal of the players now, or a seat
    change (one that does not fit is refused and writes nothing)."""
    now = lineup(ledger, ledger.journal.session(s.id))
    try:
        if step[0] == "deal":
            counts, winner = step[1], step[2] % len(now.playing)
            hand = 52 // len(now.playing)
            _deal(ledger, s, " ".join(f"{n}={0 if i == winner else max(1, counts[i] % (hand + 1))}"
                                      for i, n in enumerate(now.playing)))
        elif step[0] == "swap":
            _seat(ledger, s, "swap", step[1], step[2])
        else:
            _seat(ledger, s, step[0], step[1], out=step[0] == "join")
    except InputError:
        pass


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rule=st.sampled_from(["none", "winner", "loser", "in-turn"]),
       steps=st.lists(st.tuples(st.booleans(), STEP), max_size=10))
@example(rule="winner", steps=[(False, ("sit-out", "Ann")), (False, ("deal", [0] * 8, 0)),
                               (True, ("deal", [0] * 8, 0))])  # the one hypothesis found first
def test_two_devices_apart_agree_after_a_sync_both_ways(tmp_path_factory, rule, steps) -> None:
    """Seat changes and deals on two devices apart, in any interleaving, then a sync each
    way (as the phone's): the same settlement, seats and next players on both, the nets
    summing to zero."""
    folder = tmp_path_factory.mktemp("apart")
    with open_ledger(folder / "a.db") as a, open_ledger(folder / "b.db") as b:
        s = book.start_session(a, FOUR, load_preset("classic")._replace(deal_all=True, sit_out=rule),
                               Decimal("1"), "HKD", "", False)
        _sync(a, b, folder)
        (t,) = b.journal.sessions()
        for on_a, step in steps:
            _step(a, s, step) if on_a else _step(b, t, step)
        _sync(b, a, folder)
        _sync(a, b, folder)
        assert _money(a) == _money(b)
        assert sum(Decimal(v) for v in _money(a)["nets"].values()) == 0


@pytest.mark.parametrize("rule, out", [("in-turn", ["Eve", "Ann", "Ben", "Cat"]),
                                       ("winner", ["Eve", "Ann", "Ben", "Ann"]),
                                       ("loser", ["Eve", "Dan", "Ben", "Dan"]),
                                       ("none", ["Eve", "Eve", "Eve", "Eve"])])
def test_the_house_rule_says_who_sits_out_next(tmp_path: Path, rule: str, out: list[str]) -> None:
    """Five seated, four play: after each deal the rule picks who sits out the next one
    (the winner is the first who plays, Dan excepted; Dan holds 9, the others 2)."""
    with open_ledger(tmp_path / "l.db") as ledger:
        s = book.start_session(ledger, FOUR, load_preset("classic")._replace(sit_out=rule),
                               Decimal("1"), "HKD", "", False)
        _seat(ledger, s, "join", "Eve", out=True)
        seen = []
        for deal in range(4):
            now = lineup(ledger, ledger.journal.session(s.id))
            seen.append(now.sitting_out[0])
            if deal < 3:
                winner = next(n for n in now.playing if n != "Dan")
                counts = {n: 0 if n == winner else (9 if n == "Dan" else 2) for n in now.playing}
                _deal(ledger, s, " ".join(f"{n}={c}" for n, c in counts.items()))
        assert seen == out
        assert load_preset("classic").sit_out == "none"  # off in every preset
