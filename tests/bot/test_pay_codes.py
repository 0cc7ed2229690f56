"""``/settle`` in a chat: the settlement card as a picture with the fewest payments, and
each payment's code (the payee's pay id inside) sent privately to its payer, never to
the group; ``/iam`` says who a member is at the table."""

from __future__ import annotations

import json
from typing import Any

from bot.conftest import Run
from bot.test_evening import board_of, cli, reply_to

from ledger.present.qr import qr_png

A = -100333  # the group
ANN, BEN = 31, 32  # Ann opened a private chat with the bot; Ben never did
FPS_ID = "1234567"


def group_texts(run: Run) -> list[str]:
    return [s.text for s in run.fake.in_chat(A)]


def test_the_card_in_the_group_and_each_code_to_its_payer_only(run: Run) -> None:
    fake = run.fake
    fake.chat(A, [ANN, BEN])
    fake.chat(ANN, [ANN], kind="private")
    run.start("--allow-chat", str(A))

    fake.say(A, ANN, "/new 陳大文 李小明 José Dan classic 1 HKD")
    board_of(run, A)
    cli(run.db, "player", "pay-id", "陳大文", "fps", FPS_ID)  # the winner is paid by FPS
    first = fake.say(A, ANN, "/d 0 10 11 12")  # three pay the winner
    reply_to(run, A, first)

    wrong = fake.say(A, ANN, "/iam 王五")
    assert reply_to(run, A, wrong).text.startswith("error: 王五 does not play at this table")
    mine = fake.say(A, ANN, "/iam 李小明")
    assert "You are 李小明 at this table" in reply_to(run, A, mine).text
    fake.say(A, BEN, "/iam José")  # Ben has no private chat with the bot

    asked = fake.say(A, BEN, "/settle")
    card = reply_to(run, A, asked)
    assert card.photo is not None and card.photo.startswith(b"\x89PNG")
    keeper: Any = json.loads(cli(run.db, "settle", "--json"))
    assert card.text.startswith("Fewest payments:")
    assert all(f"{p['from']} → 陳大文  HKD {p['amount']}" in card.text for p in keeper["payments"])
    assert {p["from"] for p in keeper["payments"]} == {"李小明", "José", "Dan"}

    unreached = fake.wait(lambda: next((t for t in group_texts(run) if "payment code is ready" in t), None))
    assert "José" in unreached and "Dan" in unreached and "李小明" not in unreached
    assert "@bigtwo_test_bot" in unreached

    private = fake.wait(lambda: next(iter(fake.in_chat(ANN)), None))
    code, amount = next((p["pay_code"], p["amount"]) for p in keeper["payments"] if p["from"] == "李小明")
    assert private.photo == qr_png(code["payload"])  # the keeper's own code, drawn as the card shows it
    assert private.text.startswith(f"Pay 陳大文 HKD {amount}: scan this code")
    assert f"/paid 李小明 陳大文 {amount}" in private.text
    assert all(FPS_ID not in t and code["payload"] not in t for t in group_texts(run))
    assert not [s for s in fake.sent if s.chat not in (A, ANN)]  # nobody else was written to


def test_the_session_ends_with_the_money_first(run: Run) -> None:
    fake = run.fake
    fake.chat(A, [ANN])
    run.start("--allow-chat", str(A))
    fake.say(A, ANN, "/new 陳大文 李小明 José Dan")
    board = board_of(run, A)
    reply_to(run, A, fake.say(A, ANN, "/d 0 3 8 12"))
    end = fake.say(A, ANN, "/end")
    money = reply_to(run, A, end)
    assert money.photo is not None
    assert money.text.startswith("Fewest payments:") and money.text.endswith("This session has ended.")
    fake.wait(lambda: "This session has ended." in fake.message(A, board.message_id).text)
