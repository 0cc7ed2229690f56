"""Seats that change in the chat: ``/join``, ``/sitout``, ``/back``, ``/swap``, ``/leave``
(the engine's ``seat`` op, as ``bigtwo seat``), the scoreboard saying who sits out, an
undo that names the seat change it takes back — and the ledger left as the command line
leaves it."""

from __future__ import annotations

from pathlib import Path

from bot.conftest import Run
from bot.test_evening import board_of, cli, masked, reply_to

A = -100444
ANN = 41


def typed(db: Path) -> None:
    """The same evening at the command line."""
    cli(db, "session", "start", "--players", "陳大文,李小明,José,Dan")
    cli(db, "deal", "0", "3", "8", "12")
    cli(db, "seat", "join", "Eve", "--sit-out")
    cli(db, "seat", "sit-out", "Dan")
    cli(db, "seat", "back", "Eve")
    cli(db, "deal", "0", "3", "8", "5")
    cli(db, "seat", "swap", "李小明", "José")
    cli(db, "seat", "leave", "Dan")
    cli(db, "undo")


def test_seats_in_the_chat_leave_the_ledger_as_the_command_line(run: Run, tmp_path: Path) -> None:
    fake = run.fake
    fake.chat(A, [ANN])
    run.start("--allow-chat", str(A))
    fake.say(A, ANN, "/new 陳大文 李小明 José Dan")
    board = board_of(run, A)
    reply_to(run, A, fake.say(A, ANN, "/d 0 3 8 12"))

    five = fake.say(A, ANN, "/join Eve")  # five cannot be dealt one deck: refused, nothing written
    assert reply_to(run, A, five).text.startswith("error: 5 players cannot be dealt")
    assert "Eve" not in cli(run.db, "seat", "show")
    bare = fake.say(A, ANN, "/swap")
    assert reply_to(run, A, bare).text == "error: write /swap NAME NAME"

    joined = reply_to(run, A, fake.say(A, ANN, "/join Eve --sit-out"))
    assert joined.text.startswith("recorded: seat join Eve\nseated: 陳大文, 李小明, José, Dan, Eve")
    assert "sitting out: Eve" in joined.text
    reply_to(run, A, fake.say(A, ANN, "/sitout Dan"))
    back = reply_to(run, A, fake.say(A, ANN, "/back Eve"))
    assert "sitting out: Dan" in back.text and "next deal: 陳大文, 李小明, José, Eve" in back.text
    assert "sitting out: Dan" in fake.message(A, board.message_id).text
    dealt = reply_to(run, A, fake.say(A, ANN, "/d 0 3 8 5"))  # the four who play, in seat order
    assert dealt.text.startswith("deal 2 recorded: 陳大文 +") and "Dan" not in dealt.text
    reply_to(run, A, fake.say(A, ANN, "/swap 李小明 José"))
    reply_to(run, A, fake.say(A, ANN, "/leave Dan"))

    # The undo names the seat change it takes back, not a deal.
    now = fake.message(A, board.message_id)
    undo = next(d for label, d in now.buttons if label == "Undo")
    fake.press(A, ANN, board.message_id, undo)
    question = fake.wait(lambda: next((s for s in fake.in_chat(A) if s.text == "Undo seat leave Dan?"), None))
    yes = next(d for label, d in question.buttons if label == "Undo: seat leave Dan")
    fake.press(A, ANN, question.message_id, yes)
    fake.wait(lambda: fake.message(A, question.message_id).text == "taken back: seat leave Dan")
    fake.press(A, ANN, question.message_id, yes)  # a second press takes back nothing more
    fake.wait(lambda: any(text and "already taken back" in text for _, text in fake.answers))

    other = tmp_path / "typed.db"
    typed(other)
    assert masked(cli(run.db, "log", "--json")) == masked(cli(other, "log", "--json"))
    assert cli(run.db, "settle") == cli(other, "settle")
    assert cli(run.db, "seat", "show") == cli(other, "seat", "show")
