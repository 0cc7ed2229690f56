"""docs/scoring.md's worked examples: every worked example, through the core and through `bigtwo`."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ledger.book.reports import settle, standings
from ledger.core.rules import load_preset, rules_from_mapping
from ledger.core.scoring import Deal, score_deal
from ledger.core.settlement import net_flows
from ledger.formats.samples import load_file, samples_dir
from ledger.storage.store import open_ledger

NESW = ["North", "East", "West", "South"]


# --- through the pure core ----------------------------------------------------


def test_example_1_pairwise_from_totals() -> None:
    totals = {"A": 81, "B": 40, "C": 107, "D": 63}
    sum_s = sum(totals.values())
    assert sum_s == 291
    assert {k: sum_s - 4 * s for k, s in totals.items()} == {"A": -33, "B": 131, "C": -137, "D": 39}
    flows = [(a, b, Decimal(totals[a] - totals[b])) for a in totals for b in totals if a < b]
    pairs = {(p.payer, p.payee): p.amount for p in net_flows(flows)}
    assert pairs == {
        ("A", "B"): 41, ("A", "D"): 18, ("C", "A"): 26, ("C", "B"): 67, ("C", "D"): 44,
        ("D", "B"): 23,
    }


def test_example_2_pay_the_winner() -> None:
    deal = Deal(cards={"North": 0, "East": 3, "West": 11, "South": 8})
    score = score_deal(load_preset("pay-the-winner"), NESW, deal)
    assert score.net == {"North": 33, "East": -3, "West": -22, "South": -8}


def test_example_3_doubling() -> None:
    deal = Deal(
        cards={"North": 0, "East": 3, "West": 9, "South": 8},
        finish="two", bombs={"West": 1}, twos={"South": 1},
    )
    score = score_deal(load_preset("doubling"), NESW, deal)
    assert score.net == {"North": 74, "East": -6, "West": -36, "South": -32}


@pytest.mark.parametrize("preset", ["classic", "pay-the-winner"])
def test_example_4_dragon(preset: str) -> None:
    score = score_deal(load_preset(preset), NESW, Deal(immediate="dragon", immediate_by="North"))
    assert score.penalty == {"North": 0, "East": 39, "West": 39, "South": 39}
    assert score.net["North"] == 117
    assert score.fried == {"North": False, "East": True, "West": True, "South": True}


def test_example_5_hong_kong_money() -> None:
    # the online / mainland tiers (x2 from 8, x3 from 10, x4 at 13): hong-kong-online
    score = score_deal(load_preset("hong-kong-online"), list("ABCD"),
                       Deal(cards={"A": 0, "B": 1, "C": 8, "D": 12}))
    assert score.penalty == {"A": 0, "B": 1, "C": 16, "D": 36}
    assert {k: v * 10 for k, v in score.net.items()} == {"A": 530, "B": 490, "C": -110, "D": -910}


def test_example_5_andrew_white_tiers() -> None:
    # Andrew White: "with 10, 11, and 12 the points are doubled, and with 13 the points
    # are tripled" (hong-kong); 0 / 8 / 10 / 13 cards
    score = score_deal(load_preset("hong-kong"), list("ABCD"),
                       Deal(cards={"A": 0, "B": 8, "C": 10, "D": 13}))
    assert score.penalty == {"A": 0, "B": 8, "C": 20, "D": 39}
    assert score.net == {"A": 67, "B": 35, "C": -13, "D": -89}


EXAMPLE_6 = {  # games, wins, fried, penalty, net
    "a": (2, 1, 0, 1, 84), "x": (2, 1, 0, 9, -27), "b": (4, 1, 1, 23, 5),
    "c": (4, 0, 1, 25, -3), "d": (4, 1, 1, 39, -59),
}


def test_example_6_big_two_scorer_core() -> None:
    rules = rules_from_mapping({"fry_threshold": 10})
    sessions = [
        (list("abcd"), [Deal(cards=dict(zip("abcd", (0, 11, 12, 13), strict=True))),
                        Deal(cards=dict(zip("abcd", (1, 1, 1, 0), strict=True)))]),
        (list("xbcd"), [Deal(cards=dict(zip("xbcd", (3, 0, 1, 2), strict=True)), assist="x"),
                        Deal(cards=dict(zip("xbcd", (0, 1, 1, 1), strict=True)),
                             missed_call=True)]),
    ]
    table: dict[str, list[int]] = {}
    for seats, deals in sessions:
        for deal in deals:
            s = score_deal(rules, seats, deal)
            for n in seats:
                row = table.setdefault(n, [0, 0, 0, 0, 0])
                for i, v in enumerate((1, s.wins[n], s.fried[n], s.penalty[n], s.net[n])):
                    row[i] += int(v)
    assert {k: tuple(v) for k, v in table.items()} == EXAMPLE_6


# --- through the ledger (sample files) and through the CLI ---------------------------


def load(name: str, tmp_path):
    ledger = open_ledger(tmp_path / f"{name}.db")
    sessions = load_file(ledger, samples_dir() / name)
    return ledger, sessions


def nets_of(ledger, sessions) -> dict[str, int]:
    return {p.name: p.net for p in standings(ledger, sessions).players}


def test_example_1_through_ledger(tmp_path) -> None:
    ledger, sessions = load("example1_pairwise.toml", tmp_path)
    st = standings(ledger, sessions)
    assert {p.name: p.penalty for p in st.players} == {"A": 81, "B": 40, "C": 107, "D": 63}
    assert nets_of(ledger, sessions) == {"A": -33, "B": 131, "C": -137, "D": 39}
    money = settle(ledger, sessions)
    assert {(p.payer, p.payee): p.amount for p in money.pairwise} == {
        ("A", "B"): 41, ("A", "D"): 18, ("C", "A"): 26, ("C", "B"): 67, ("C", "D"): 44,
        ("D", "B"): 23,
    }
    assert len(money.payments) <= 3


@pytest.mark.parametrize(
    ("name", "nets"),
    [
        ("example2_pay_the_winner.toml", {"North": 33, "East": -3, "West": -22, "South": -8}),
        ("example3_doubling.toml", {"North": 74, "East": -6, "West": -36, "South": -32}),
    ],
)
def test_examples_2_3_through_ledger(name: str, nets: dict[str, int], tmp_path) -> None:
    ledger, sessions = load(name, tmp_path)
    assert nets_of(ledger, sessions) == nets


def test_example_4_through_ledger(tmp_path) -> None:
    ledger, sessions = load("example4_dragon.toml", tmp_path)
    for s in sessions:
        st = standings(ledger, [s])
        assert {p.name: p.penalty for p in st.players} == {
            "North": 0, "East": 39, "West": 39, "South": 39}
        assert {p.name: p.net for p in st.players}["North"] == 117


def test_example_5_through_ledger(tmp_path) -> None:
    ledger, sessions = load("example5_hong_kong.toml", tmp_path)
    money = settle(ledger, sessions)
    assert money.nets == {"A": 530, "B": 490, "C": -110, "D": -910}


def test_example_6_through_ledger(tmp_path) -> None:
    ledger, sessions = load("example6_big_two_scorer.toml", tmp_path)
    st = standings(ledger, sessions)
    got = {p.name: (p.deals, p.wins, p.fried, p.penalty, p.net) for p in st.players}
    assert got == EXAMPLE_6


def test_examples_through_cli(cli) -> None:
    cli.ok("session", "start", "--players", "North,East,West,South", "--rules", "pay-the-winner")
    cli.ok("deal", "North=0", "East=3", "West=11", "South=8")
    data = json.loads(cli.ok("standings", "--json"))
    assert {p["name"]: p["net"] for p in data["players"]} == {
        "North": 33, "East": -3, "West": -22, "South": -8}

    cli.ok("session", "start", "--players", "North,East,West,South", "--rules", "doubling")
    cli.ok("deal", "North=0", "East=3", "West=9", "South=8", "--finish", "two",
           "--bombs", "West=1", "--twos", "South=1")
    data = json.loads(cli.ok("standings", "--json"))
    assert {p["name"]: p["net"] for p in data["players"]} == {
        "North": 74, "East": -6, "West": -36, "South": -32}

    cli.ok("session", "start", "--players", "North,East,West,South", "--rules", "pay-the-winner")
    cli.ok("deal", "--dragon", "North")
    data = json.loads(cli.ok("settle", "--json"))
    assert data["nets"] == {"North": "117", "East": "-39", "South": "-39", "West": "-39"}

    cli.ok("session", "start", "--players", "A,B,C,D", "--rules", "hong-kong-online", "--stake", "10")
    cli.ok("deal", "A=0", "B=1", "C=8", "D=12")
    data = json.loads(cli.ok("settle", "--json"))
    assert data["nets"] == {"A": "530", "B": "490", "C": "-110", "D": "-910"}
    assert data["currency"] == "PTS"


def test_example_1_and_6_through_cli(cli, tmp_path) -> None:
    cli.ok("session", "start", "--players", "A,B,C,D")
    for line in ["A=0 B=1 C=13 D=13", "A=13 B=0 C=13 D=11", "A=12 B=12 C=0 D=2",
                 "A=9 B=9 C=12 D=0", "A=9 B=6 C=5 D=0"]:
        cli.ok("deal", *line.split())
    data = json.loads(cli.ok("settle", "--json"))
    assert data["nets"] == {"B": "131", "D": "39", "A": "-33", "C": "-137"}
    assert {(p["from"], p["to"], p["amount"]) for p in data["pairwise"]} == {
        ("A", "B", "41"), ("A", "D", "18"), ("C", "A", "26"), ("C", "B", "67"),
        ("C", "D", "44"), ("D", "B", "23")}
    text = cli.ok("settle")
    assert "Σs = 291" in text and "net = Σs − 4·s" in text

    rules = tmp_path / "f10.toml"
    rules.write_text('base = "classic"\nfry_threshold = 10\n')
    db = str(tmp_path / "ex6.db")
    cli.ok("--db", db, "session", "start", "--players", "a,b,c,d", "--rules", str(rules))
    cli.ok("--db", db, "deal", "a=0", "b=11", "c=12", "d=13")
    cli.ok("--db", db, "deal", "1", "1", "1", "0")
    cli.ok("--db", db, "session", "start", "--players", "x,b,c,d", "--rules", str(rules))
    cli.ok("--db", db, "deal", "x=3", "b=0", "c=1", "d=2", "--assist", "x")
    cli.ok("--db", db, "deal", "x=0", "b=1", "c=1", "d=1", "--missed-call")
    data = json.loads(cli.ok("--db", db, "standings", "--all", "--json"))
    got = {p["name"]: (p["deals"], p["wins"], p["fried"], p["penalty"], p["net"])
           for p in data["players"]}
    assert got == EXAMPLE_6
