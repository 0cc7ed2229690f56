"""bigtwo stats: numbers on a small hand-computed ledger (tests/history_ledger.py),
the derived caches (digests, ratings) against a rebuild, and clean errors."""

from __future__ import annotations

import json
import sqlite3
from decimal import Decimal

import pytest
from history_ledger import add_session, build

from ledger.book import digest, ratings, stats
from ledger.book.scope import select
from ledger.formats import samples
from ledger.storage.cache_rows import RatingDeal
from ledger.storage.store import open_ledger


@pytest.fixture
def ledger(ledger_path):
    with open_ledger(ledger_path) as led:
        build(led)
        yield led


def everything(led):
    return stats.build(led, select(led, None, True))


def by_name(st):
    return {p.name: p for p in st.players}


def forget_caches(path):
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM derived_marks")
    conn.commit()
    conn.close()


# --- numbers --------------------------------------------------------------------


def test_totals_rates_and_money(ledger):
    st = everything(ledger)
    p = by_name(st)
    assert st.deals == 8
    assert (p["Ann"].deals, p["Ann"].wins, p["Ann"].fried, p["Ann"].penalty) == (8, 6, 0, 3)
    assert p["Ann"].win_rate == 0.75
    assert p["Ann"].money == {"USD": Decimal("78.00")}
    assert (p["Ben"].deals, p["Ben"].wins, p["Ben"].fried, p["Ben"].penalty) == (7, 2, 1, 28)
    assert p["Ben"].avg_penalty == 4.0 and p["Ben"].fry_rate == round(1 / 7, 4)
    assert p["Ben"].money == {"USD": Decimal("0.00")}
    assert p["Cat"].money == {"USD": Decimal("34.00")}
    assert (p["Dan"].fried, p["Dan"].fry_rate, p["Dan"].assists) == (2, 0.5, 1)
    assert p["Dan"].money == {"USD": Decimal("-107.00")}
    assert p["Eve"].money == {"USD": Decimal("-5")}
    assert [x.name for x in st.players] == ["Ann", "Cat", "Ben", "Eve", "Dan"]  # by money


def test_best_and_worst_session_and_biggest_loss(ledger):
    p = by_name(everything(ledger))
    assert (p["Ann"].best.session, p["Ann"].best.money) == (1, Decimal("41.00"))
    assert (p["Ann"].worst.session, p["Ann"].worst.money) == (3, Decimal("5"))
    assert (p["Ben"].worst.session, p["Ben"].worst.money) == (2, Decimal("-37"))
    assert p["Ann"].biggest_loss is None  # Ann never lost points on a deal
    loss = p["Ben"].biggest_loss
    assert (loss.session, loss.deal, loss.net, loss.money) == (2, 2, -43, Decimal("-43"))
    loss = p["Cat"].biggest_loss  # -9 in session 2 beats -1 x 0.50 in session 1
    assert (loss.session, loss.deal, loss.net) == (2, 4, -9)
    loss = p["Dan"].biggest_loss
    assert (loss.session, loss.deal, loss.net, loss.money) == (1, 3, -114, Decimal("-57.00"))


def test_streaks_run_across_sessions_in_date_order(ledger):
    p = by_name(everything(ledger))
    # Ann: W W - W | W W - (voided deal 3 is no deal) | W
    assert (p["Ann"].runs.win_max, p["Ann"].runs.loss_max, p["Ann"].runs.current) == (3, 1, 1)
    assert (p["Ben"].runs.win_max, p["Ben"].runs.loss_max, p["Ben"].runs.current) == (1, 3, 1)
    assert (p["Cat"].runs.win_max, p["Cat"].runs.loss_max, p["Cat"].runs.current) == (0, 7, -7)


def test_regulars_play_a_quarter_of_the_deals(ledger):
    assert everything(ledger).regulars == ["Ann", "Ben", "Cat", "Dan"]  # Eve: 1 of 8


def test_head_to_head_money(ledger):
    h2h = everything(ledger).head_to_head
    usd = {k: v["USD"] for k, v in h2h.items()}
    assert usd[("Ann", "Ben")] == Decimal("24.00")  # 1.00 (s1) + 23 (s2)
    assert usd[("Ben", "Ann")] == Decimal("-24.00")
    assert usd[("Ann", "Cat")] == Decimal("12.00")
    assert usd[("Ann", "Dan")] == Decimal("37.00")
    assert usd[("Ann", "Eve")] == Decimal("5")
    assert usd[("Ben", "Cat")] == Decimal("-12.00")  # +2.00 in s1, -14 in s2
    assert usd[("Cat", "Dan")] == Decimal("34.00")
    for name in ("Ann", "Ben", "Cat", "Dan", "Eve"):  # head to head adds up to the money
        won = sum(v for (a, _b), v in usd.items() if a == name)
        assert won == by_name(everything(ledger))[name].money["USD"]


def test_head_to_head_in_teams_and_pay_the_winner(ledger):
    s = add_session(ledger, ["Ann", "Ben", "Cat", "Dan"], ["Ann=0 Ben=3 Cat=1 Dan=2"],
                    "2024-05-02", teams=True)
    st = stats.build(ledger, select(ledger, s.id, False))
    # Ann+Cat win (1 card vs 5); Ben+Dan pay 3 + 2 = 5 points: each member 1.25 to each other
    usd = {k: v["USD"] for k, v in st.head_to_head.items()}
    assert usd[("Ann", "Ben")] == usd[("Cat", "Dan")] == Decimal("1.25")
    assert by_name(st)["Ben"].money == {"USD": Decimal("-2.50")}
    s = add_session(ledger, ["Ann", "Ben", "Cat"], ["Ann=0 Ben=3 Cat=11"], "2024-05-03",
                    rules="pay-the-winner")
    st = stats.build(ledger, select(ledger, s.id, False))
    usd = {k: v["USD"] for k, v in st.head_to_head.items()}
    assert usd == {("Ann", "Ben"): 3, ("Ben", "Ann"): -3, ("Ann", "Cat"): 22, ("Cat", "Ann"): -22}


def test_mixed_currencies_are_kept_apart(ledger):
    add_session(ledger, ["Ann", "Ben"], ["Ann=0 Ben=4"], "2024-06-01", currency="EUR")
    st = everything(ledger)
    ann = by_name(st)["Ann"]
    assert ann.money == {"USD": Decimal("78.00"), "EUR": Decimal("4")}
    assert st.scope.currencies == ["EUR", "USD"]
    assert st.head_to_head[("Ann", "Ben")] == {"USD": Decimal("24.00"), "EUR": Decimal("4")}


# --- filters ----------------------------------------------------------------------


def test_since_until_and_player(ledger):
    scope = select(ledger, None, False, "2024-03-02", "2024-03-31")
    assert [s.id for s in scope.sessions] == [2]
    st = stats.build(ledger, scope, "Ben")
    assert [p.name for p in st.players] == ["Ben"]
    assert st.players[0].money == {"USD": Decimal("-37")}
    assert set(st.head_to_head) == {("Ben", "Ann"), ("Ben", "Cat")}
    scope = select(ledger, None, False, "2024-03-08", "2024-03-08")  # inclusive
    assert [s.id for s in scope.sessions] == [2]


def test_current_session_is_the_default(ledger):
    st = stats.build(ledger, select(ledger, None, False))
    assert [s.id for s in st.scope.sessions] == [3]
    assert st.deals == 1


# --- caches -----------------------------------------------------------------------


def test_ratings_the_player_who_always_wins_rises_and_sigma_shrinks(ledger_path):
    with open_ledger(ledger_path) as led:
        add_session(led, ["Ann", "Ben", "Cat", "Dan"],
                    [f"Ann=0 Ben={1 + i % 5} Cat={6 + i % 3} Dan={9 + i % 4}" for i in range(5)],
                    "2024-01-01")
        early = {n: ratings.current(led)[led.player_id(n)] for n in ("Ann", "Ben", "Cat", "Dan")}
        s = led.journal.session(1)
        for i in range(25):
            samples.apply_line(led, s, f"Ann=0 Ben={1 + i % 5} Cat={6 + i % 3} Dan={9 + i % 4}")
        late = {n: ratings.current(led)[led.player_id(n)] for n in ("Ann", "Ben", "Cat", "Dan")}
    assert max(late, key=lambda n: late[n].mu) == "Ann"
    assert late["Ann"].mu > early["Ann"].mu > 25
    assert late["Ann"].sigma < early["Ann"].sigma < 25 / 3
    assert late["Ann"].deals == 30
    assert late["Ben"].mu > late["Dan"].mu  # Ben always holds fewest cards of the losers


def test_ratings_rank_ties_and_immediate_wins():
    def deal(*rows):
        return [RatingDeal(1, *r) for r in rows]

    _teams, ranks = ratings._ranks(deal((1, 1, 0, None), (2, 0, 13, None), (3, 0, 13, None)), {})
    assert ranks == [0, 13, 13]  # the rest tie
    rows = deal((1, 0, 0, '["Cat", "Ann", "Ben"]'), (2, 0, 0, None), (3, 0, 0, None))
    assert ratings._ranks(rows, {"Ann": 1, "Ben": 2, "Cat": 3})[1] == [1, 2, 0]
    rows = deal((1, 1, 0, None), (2, 0, 3, None), (3, 1, 2, None), (4, 0, 5, None))
    assert ratings._ranks(rows, {}) == ([[1, 3], [2, 4]], [0, 1])  # teams


def snapshot(led):
    st = everything(led)
    return json.dumps(st.to_dict(), sort_keys=True)


def test_caches_extend_and_rebuild_to_the_same_numbers(ledger, ledger_path):
    snapshot(ledger)  # caches filled
    s2 = ledger.journal.session(2)
    samples.apply_line(ledger, ledger.journal.session(3), "Ann=3 Eve=0")  # new deal: extended
    assert ledger.derived.mark(digest.CACHE).last_entry_id < ledger.derived.last_entry_id()
    after_extend = snapshot(ledger)
    samples.apply_line(ledger, s2, "amend 2 Ann=0 Ben=12 Cat=1")  # reaches back: rebuilt
    samples.apply_line(ledger, ledger.journal.session(1), "void 1")
    after_fix = snapshot(ledger)
    assert ledger.derived.mark(ratings.CACHE).last_entry_id == ledger.derived.last_entry_id()
    forget_caches(ledger_path)
    assert snapshot(ledger) == after_fix  # same as from scratch
    assert after_extend != after_fix
    p = by_name(everything(ledger))
    assert p["Ben"].biggest_loss.net == -47  # the amended deal 2: 25 - 3 x 24
    assert p["Eve"].runs.current == 1


def test_incremental_ratings_equal_a_rebuild(ledger, ledger_path):
    first = ratings.current(ledger)
    samples.apply_line(ledger, ledger.journal.session(2), "Ann=5 Ben=0 Cat=7")
    incremental = ratings.current(ledger)
    assert incremental != first
    forget_caches(ledger_path)
    assert ratings.current(ledger) == incremental


def test_runs_merge_like_one_sequence():
    seq = [True, False, False, True, True, True, False, True, True]
    for cut in range(len(seq) + 1):
        a, b, whole = digest.Runs(), digest.Runs(), digest.Runs()
        for won in seq[:cut]:
            a.add(won)
        for won in seq[cut:]:
            b.add(won)
        for won in seq:
            whole.add(won)
        assert a.merge(b) == whole


# --- command line -------------------------------------------------------------------


def test_stats_command_text(cli, ledger):
    out = cli.ok("stats", "--all")
    assert "3 sessions, 2024-03-01 to 2024-04-02: 8 deals, money in USD" in out
    assert "regular players (in at least a quarter of the 8 deals): Ann, Ben, Cat, Dan" in out
    assert "-114 pts, -57.00 USD (session 1 deal 3)" in out
    assert "head to head" in out and "skill rating" in out


def test_stats_json_shape(cli, ledger):
    data = json.loads(cli.ok("stats", "--all", "--json"))
    assert set(data) == {"scope", "players", "regulars", "head_to_head"}
    assert data["scope"]["deals"] == 8 and data["scope"]["sessions"] == 3
    dan = next(p for p in data["players"] if p["name"] == "Dan")
    assert dan["money"] == {"USD": "-107.00"}
    assert dan["biggest_loss"] == {"session": 1, "deal": 3, "date": "2024-03-01", "net": -114,
                                   "money": "-57.00", "currency": "USD"}
    assert dan["streaks"] == {"longest_win": 0, "longest_without_win": 4, "current": -4}
    assert set(dan["rating"]) == {"mu", "sigma", "conservative", "deals"}
    assert {"player": "Ann", "opponent": "Dan", "won": {"USD": "37.00"}} in data["head_to_head"]


def test_stats_player_filter(cli, ledger):
    data = json.loads(cli.ok("stats", "--all", "--player", "Eve", "--json"))
    assert [p["name"] for p in data["players"]] == ["Eve"]
    assert data["head_to_head"] == [{"player": "Eve", "opponent": "Ann", "won": {"USD": "-5.00"}}]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "Zed", "--all"], "no player named 'Zed'"),
        (["--since", "2024-13-01"], "YYYY-MM-DD"),
        (["--until", "yesterday"], "YYYY-MM-DD"),
        (["--since", "2024-05-01", "--until", "2024-04-01"], "is after"),
        (["--session", "1", "--all"], "not both"),
        (["--session", "99"], "no session 99"),
        (["--since", "2030-01-01"], "no sessions"),
        (["--session", "1", "--player", "Eve"], "Eve did not play"),
    ],
)
def test_stats_bad_input_is_one_clean_line(cli, ledger, args, message):
    err = cli.fails("stats", *args, code=2)
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_stats_on_an_empty_ledger(cli):
    assert "no current session" in cli.fails("stats")
    assert "no sessions yet" in cli.fails("stats", "--all")
