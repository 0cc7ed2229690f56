"""Money after the evening: a season of three sessions with payments, worked by hand.

Three sessions in HKD at a stake of 1, classic pairwise rules, one deal each:

    session  date        deal (cards left)          penalties   nets (Σs − 4·s)
    1        2024-01-05  Ann 0 Ben 3 Cat 5 Dan 8      0 3 5 8     +16  +4  -4 -16
    2        2024-01-12  Ann 2 Ben 0 Cat 1 Dan 5      2 0 1 5       0  +8  +4 -12
    3        2024-01-19  Ann 4 Ben 6 Cat 0 Dan 2      4 6 0 2      -4 -12 +12  +4
    total                                                          +12   0 +12 -24

Payments (all dated the day the test runs, inside the season ``since 2024-01-01``):

    P1  Dan pays Ann 16, for session 1
    P2  Dan pays Ben 10, against the balance as a whole: oldest debt first — session 1
        is square for Dan after P1; in session 2 Dan owes 12 and Ben is owed 8, so 8
        goes there; in session 3 Dan owes nothing; 2 stays on account
    P3  Ben pays Cat 5, for session 3 — then taken back (undo)
    P4  Ann pays Cat 4, for session 3

    player  net   paid (P1 P2 P4)       outstanding   (owed = settle --all)
    Ann     +12   -16 +4      = -12        0
    Ben       0   -10         = -10      -10
    Cat     +12   -4          =  -4       +8
    Dan     -24   +16 +10     = +26       +2
    fewest payments to clear it: Ben pays Cat 8, Ben pays Dan 2

    settle --session 2: nets 0 +8 +4 -12, paid Ben -8 Dan +8 -> outstanding 0 0 +4 -4
    settle --session 3: nets -4 -12 +12 +4, paid Ann +4 Cat -4 -> outstanding 0 -12 +8 +4
"""

from __future__ import annotations

import json

import pytest
from history_ledger import add_session

from ledger.storage.store import open_ledger

OUTSTANDING = {"Ann": "0.00", "Ben": "-10.00", "Cat": "8.00", "Dan": "2.00"}
PLAN = [{"from": "Ben", "to": "Cat", "amount": "8.00"}, {"from": "Ben", "to": "Dan", "amount": "2.00"}]


@pytest.fixture
def season(cli, ledger_path):
    with open_ledger(str(ledger_path)) as led:
        for lines, day in ((["Ann=0 Ben=3 Cat=5 Dan=8"], "2024-01-05"),
                           (["Ann=2 Ben=0 Cat=1 Dan=5"], "2024-01-12"),
                           (["Ann=4 Ben=6 Cat=0 Dan=2"], "2024-01-19")):
            add_session(led, ["Ann", "Ben", "Cat", "Dan"], lines, day, currency="HKD")
    cli.ok("season", "add", "winter", "--since", "2024-01-01")
    cli.ok("paid", "Dan", "Ann", "16", "--session", "1")
    cli.ok("paid", "Dan", "Ben", "10", "--note", "cash at the door")
    cli.ok("paid", "Ben", "Cat", "5", "--session", "3")
    assert cli.ok("payments", "undo").startswith("took back: Ben paid Cat 5.00 HKD")
    cli.ok("paid", "Ann", "Cat", "4", "--session", "3")
    return ledger_path


def owed(cli, *args):
    data = json.loads(cli.ok("owed", *args, "--json"))
    (block,) = data["currencies"]
    return block


def outstanding(cli, *args):
    return json.loads(cli.ok("settle", *args, "--json"))


def test_owed_and_settle_agree_with_the_hand_worked_table(cli, season):
    block = owed(cli)
    assert block["balances"] == OUTSTANDING
    assert block["plan"] == PLAN
    assert (block["sessions"], block["payments"]) == (3, 3)  # the undone payment left out
    assert block["paid"] == {"Ann": "-12.00", "Ben": "-10.00", "Cat": "-4.00", "Dan": "26.00"}
    assert owed(cli, "--season", "winter") == block
    for args in (["--all"], ["--season", "winter"]):
        st = outstanding(cli, *args)
        assert st["nets"] == {"Ann": "12.00", "Cat": "12.00", "Ben": "0.00", "Dan": "-24.00"}
        assert st["paid"] == block["paid"]
        assert st["outstanding"] == {"Cat": "8.00", "Dan": "2.00", "Ann": "0.00", "Ben": "-10.00"}
        assert st["still_to_pay"] == PLAN


def test_settle_shows_what_of_each_session_is_paid(cli, season):
    two = outstanding(cli, "--session", "2")
    assert two["paid"] == {"Ben": "-8.00", "Dan": "8.00"}
    assert two["outstanding"] == {"Cat": "4.00", "Ann": "0.00", "Ben": "0.00", "Dan": "-4.00"}
    assert two["still_to_pay"] == [{"from": "Dan", "to": "Cat", "amount": "4.00"}]
    three = outstanding(cli, "--session", "3")
    assert three["outstanding"] == {"Cat": "8.00", "Dan": "4.00", "Ann": "0.00", "Ben": "-12.00"}
    text = cli.ok("settle", "--session", "3")
    assert "paid so far (bigtwo payments) and still outstanding, exactly:" in text
    assert "still to pay (2):" in text


def test_undo_takes_a_payment_back_and_is_listed_nowhere(cli, season):
    listed = json.loads(cli.ok("payments", "list", "--json"))
    assert [(p["from"], p["to"], p["amount"], p["session"]) for p in listed] == [
        ("Dan", "Ann", "16.00", 1), ("Dan", "Ben", "10.00", None), ("Ann", "Cat", "4.00", 3)]
    assert listed[1]["note"] == "cash at the door"
    cli.ok("payments", "undo", listed[0]["uuid"][:8])  # by the start of its uuid
    assert owed(cli)["balances"] == {"Ann": "16.00", "Cat": "8.00", "Ben": "-10.00", "Dan": "-14.00"}
    with open_ledger(str(season)) as led:  # nothing updated or deleted: rows appended
        kinds = [r[0] for r in led.conn.execute("SELECT kind FROM payments ORDER BY id")]
        assert kinds == ["payment", "payment", "payment", "undo", "payment", "undo"]
        with pytest.raises(Exception, match="append-only"):
            led.conn.execute("UPDATE payments SET amount = '1'")
    assert "no payment" in cli.fails("payments", "undo", listed[0]["uuid"], code=2)


def test_export_and_import_keep_the_payments_by_uuid(cli, season, tmp_path):
    out = tmp_path / "all.json"
    cli.ok("export", "--all", "--out", str(out))
    exported = json.loads(out.read_text())["payments"]
    assert [p["kind"] for p in exported] == ["payment", "payment", "payment", "undo", "payment"]
    other = tmp_path / "other.db"
    report = json.loads(cli.ok("--db", str(other), "import", str(out), "--json"))
    assert (report["payments_added"], report["payments_present"]) == (5, 0)
    assert owed(cli, "--db", str(other)) == owed(cli)
    again = json.loads(cli.ok("--db", str(other), "import", str(out), "--json"))
    assert (again["payments_added"], again["payments_present"]) == (0, 5)
    # the same uuid with other facts is refused before anything is written
    data = json.loads(out.read_text())
    data["payments"][0]["amount"] = "17.00"
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    err = cli.fails("--db", str(other), "import", str(changed), code=2)
    assert "payment" in err and "other facts" in err and len(err.strip().splitlines()) == 1
    # an export of one session carries that session's payments only
    one = json.loads(cli.ok("export", "--session", "3"))
    assert [(p["kind"], p.get("amount")) for p in one["payments"]] == [
        ("payment", "5.00"), ("undo", None), ("payment", "4.00")]


def test_paying_a_rounded_amount_leaves_the_exact_remainder(cli, season):
    rounded = owed(cli, "--round", "5")
    assert rounded["balances"] == {"Cat": "10", "Ann": "0", "Dan": "0", "Ben": "-10"}
    assert rounded["plan"] == [{"from": "Ben", "to": "Cat", "amount": "10"}]
    assert rounded["remainder"] == {"Cat": "-2.00", "Ann": "0.00", "Dan": "2.00", "Ben": "0.00"}
    cli.ok("paid", "Ben", "Cat", "10")
    block = owed(cli)
    assert block["balances"] == {"Dan": "2.00", "Ann": "0.00", "Ben": "0.00", "Cat": "-2.00"}
    assert block["plan"] == [{"from": "Cat", "to": "Dan", "amount": "2.00"}]


@pytest.mark.parametrize(("args", "message"), [
    (["Dan", "Zed", "5"], "no player named 'Zed'"),
    (["Dan", "Dan", "5"], "the same player"),
    (["Dan", "Ann", "--", "-5"], "bad amount '-5'"),
    (["Dan", "Ann", "0"], "bad amount '0'"),
    (["Dan", "Ann", "1.234"], "HKD has 2 decimal places"),
    (["Dan", "Ann", "5", "--session", "1", "--currency", "USD"], "played in HKD, not USD"),
    (["Dan", "Ann", "5", "--session", "9"], "no session 9"),
])
def test_a_bad_payment_is_one_line_and_writes_nothing(cli, season, args, message):
    before = owed(cli)
    err = cli.fails("paid", *args, code=2)
    assert message in err and len(err.strip().splitlines()) == 1
    assert owed(cli) == before


def test_owed_refuses_a_reversed_range(cli, season):
    err = cli.fails("owed", "--since", "2024-05-01", "--until", "2024-04-01", code=2)
    assert err.strip().splitlines() == [
        "error: --since 2024-05-01 is after --until 2024-04-01; nothing is between them"]


def test_a_repeat_with_the_same_key_writes_once(season):
    from ledger.book.payments import record_payment
    from ledger.core.errors import KeyReused

    key = "5f0c2d4e-8a1b-4c3d-9e2f-1a2b3c4d5e6f"
    with open_ledger(str(season)) as led:
        first = record_payment(led, "Ben", "Cat", "3", entry_uuid=key)
        again = record_payment(led, "Ben", "Cat", "3", entry_uuid=key)
        assert first == again and first.uuid == key
        assert led.payments.count() == 6  # the season's five rows and this one
        with pytest.raises(KeyReused):
            record_payment(led, "Ben", "Cat", "4", entry_uuid=key)


def test_one_key_names_one_action_whether_payment_or_entry(season):
    """A key a deal took is refused for a payment, and a payment's key for any entry:
    the same key with another body is the 422 of the idempotency draft, whichever
    table holds it, and nothing is written."""
    import uuid

    from ledger.book import actions as book
    from ledger.book.actions import current_session
    from ledger.book.payments import record_payment, undo_payment
    from ledger.core.errors import KeyReused
    from ledger.core.scoring import Deal

    with open_ledger(str(season)) as led:
        s = current_session(led, None)
        seats = list(s.seats)
        paid_key, deal_key = str(uuid.uuid4()), str(uuid.uuid4())
        record_payment(led, seats[0], seats[1], "3", entry_uuid=paid_key)
        book.record_deal(led, s, Deal(cards=dict(zip(seats, [0, 3, 5, 7], strict=False))),
                         entry_uuid=deal_key)

        def counts() -> tuple[int, int]:
            return led.payments.count(), led.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]

        before = counts()
        deal = Deal(cards=dict(zip(seats, [0, 4, 5, 7], strict=False)))
        for attempt in (lambda: book.record_deal(led, current_session(led, None), deal, entry_uuid=paid_key),
                        lambda: book.undo(led, current_session(led, None), entry_uuid=paid_key),
                        lambda: book.end_session(led, current_session(led, None), entry_uuid=paid_key),
                        lambda: record_payment(led, seats[0], seats[1], "3", entry_uuid=deal_key),
                        lambda: undo_payment(led, entry_uuid=deal_key)):
            with pytest.raises(KeyReused, match="used already") as caught:
                attempt()
            assert caught.value.status == 422
        assert counts() == before
