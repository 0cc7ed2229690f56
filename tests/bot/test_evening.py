"""An evening at two tables in two chats at once, through ``bigtwo bot telegram`` and
the fake Bot API: the ledger ends as the command line makes it; a duplicate update, a
second press, an edited message, a non-member and a bad line write nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.conftest import Run
from helpers import forked_bigtwo

A, B = -100111, -100222  # two group chats
ANN, BEN, CAT, STRANGER = 11, 12, 21, 99


def cli(db: Path, *args: str) -> str:
    done = forked_bigtwo(["--db", str(db), *args], env={**os.environ, "BIGTWO_LANG": "en"})
    done.check_returncode()
    return done.stdout


def masked(log: str) -> Any:
    """``bigtwo log --json`` with what differs between two ledgers cut out: uuids, times, ids."""
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UUID", log)
    text = re.sub(r"\d{4}-\d\d-\d\dT[0-9:.+\-]+", "TIME", text)
    return json.loads(text)


def board_of(run: Run, chat: int) -> Any:
    """The chat's scoreboard (the first message the bot sent with a Settle button)."""
    return run.fake.wait(lambda: next((s for s in run.fake.in_chat(chat)
                                       if ("Settle", "s") in s.buttons), None))


def reply_to(run: Run, chat: int, mid: int) -> Any:
    return run.fake.wait(lambda: next((s for s in run.fake.in_chat(chat) if s.reply_to == mid), None))


def deals_in(run: Run, session: int) -> int:
    return len(json.loads(cli(run.db, "log", "--json", "--session", str(session))))


def test_an_evening_in_two_chats(run: Run) -> None:
    fake = run.fake
    fake.chat(A, [ANN, BEN], admin=True)
    fake.chat(B, [CAT])
    run.start("--allow-chat", str(A), "--allow-chat", str(B))

    fake.say(A, ANN, "/new 陳大文 李小明 José Dan classic 0.5 HKD")
    fake.say(B, CAT, "/new@bigtwo_test_bot 張三 李四 王五 趙六")
    board_a, board_b = board_of(run, A), board_of(run, B)
    assert "陳大文" in board_a.text and "張三" in board_b.text
    assert (A, board_a.message_id) in fake.pins and not [p for p in fake.pins if p[0] == B]

    first = fake.say(A, ANN, "/d 0 3 8 12")
    fake.say(B, CAT, "/d 張三=0 李四=5 王五=7 趙六=13 --assist 趙六")  # a fact too
    assert reply_to(run, A, first).text.startswith("deal 1 recorded: 陳大文 +35")
    counts = fake.say(A, BEN, "5 0 3 9", reply_to=board_a.message_id)  # a reply to the scoreboard
    assert "deal 2 recorded" in reply_to(run, A, counts).text
    now = fake.message(A, board_a.message_id)
    assert "Deal 2:" in now.text and "李小明 deals" in now.text.replace("next: ", "")

    # Undo asks first, naming what it takes back; a second press does nothing.
    undo = next(d for label, d in now.buttons if label == "Undo")
    fake.press(A, ANN, board_a.message_id, undo)
    question = fake.wait(lambda: next((s for s in fake.in_chat(A)
                                       if s.text.startswith("Undo deal 2?")), None))
    assert "陳大文=5 李小明=0 José=3 Dan=9" in question.text
    yes = next(d for label, d in question.buttons if label == "Undo deal 2")
    fake.press(A, ANN, question.message_id, yes)
    fake.wait(lambda: fake.message(A, question.message_id).text.startswith("deal 2 taken back"))
    fake.press(A, BEN, question.message_id, yes)
    fake.wait(lambda: any(text and "already taken back" in text for _, text in fake.answers))

    paid = fake.say(A, BEN, "/paid Dan 李小明 10")
    assert "Dan paid 李小明 HKD 10.00" in reply_to(run, A, paid).text
    settle = fake.say(A, ANN, "/settle")
    assert "Fewest payments:" in reply_to(run, A, settle).text
    end = fake.say(A, ANN, "/end")
    assert "This session has ended." in reply_to(run, A, end).text

    b2 = fake.say(B, CAT, "/d 3 0 13 1")
    reply_to(run, B, b2)
    assert "Deal 2:" in fake.message(B, board_b.message_id).text

    # The same evening at the command line makes the same ledger.
    other = run.tmp / "cli.db"
    cli(other, "session", "start", "--players", "陳大文,李小明,José,Dan", "--stake", "0.5",
        "--currency", "HKD")
    cli(other, "session", "start", "--players", "張三,李四,王五,趙六")
    cli(other, "session", "use", "1")
    cli(other, "deal", "0", "3", "8", "12")
    cli(other, "deal", "5", "0", "3", "9")
    cli(other, "undo")
    cli(other, "paid", "Dan", "李小明", "10", "--session", "1")
    cli(other, "session", "end")
    cli(other, "deal", "張三=0", "李四=5", "王五=7", "趙六=13", "--assist", "趙六", "--session", "2")
    cli(other, "deal", "3", "0", "13", "1", "--session", "2")
    for session in ("1", "2"):
        bot_log = cli(run.db, "log", "--json", "--session", session)
        assert masked(bot_log) == masked(cli(other, "log", "--json", "--session", session))
    assert masked(cli(run.db, "owed", "--json")) == masked(cli(other, "owed", "--json"))


def test_what_writes_nothing(run: Run) -> None:
    fake = run.fake
    fake.chat(A, [ANN])
    run.start("--allow-chat", str(A))
    fake.say(A, ANN, "/new 陳大文 李小明 José Dan")
    board = board_of(run, A)
    deal = fake.say(A, ANN, "/d 0 3 8 12")
    reply_to(run, A, deal)
    update = fake.sent_updates[-1]["update_id"]

    fake.again(update)  # Telegram sends the update again
    fake.edit_by_user(A, ANN, deal, "/d 13 0 0 0")  # an edited message
    stranger = fake.say(A, STRANGER, "/d 0 1 2 3")
    assert "only the members" in reply_to(run, A, stranger).text
    bad = fake.say(A, ANN, "/d 0 3")
    answer = reply_to(run, A, bad)
    assert answer.text.startswith("error: ") and "\n" not in answer.text
    fake.wait(lambda: fake.pending() == 0)
    last = fake.say(A, ANN, "/log")
    assert reply_to(run, A, last).text == "#1 陳大文=0 李小明=3 José=8 Dan=12"
    assert deals_in(run, 1) == 1
    assert "Deal 1:" in fake.message(A, board.message_id).text
    assert len([s for s in fake.in_chat(A) if s.reply_to == bad]) == 1


def test_a_restart_between_writing_and_answering(run: Run) -> None:
    fake = run.fake
    fake.chat(A, [ANN])
    run.start("--allow-chat", str(A))
    fake.say(A, ANN, "/new 陳大文 李小明 José Dan")
    board = board_of(run, A)
    fake.stall = "sendMessage"  # the deal is written, the board edited, the reply never goes
    deal = fake.say(A, ANN, "/d 0 3 8 12")
    fake.wait(lambda: fake.message(A, board.message_id).edits >= 1)
    run.stop()
    fake.stall = None
    run.start("--allow-chat", str(A))
    assert "deal 1 recorded" in reply_to(run, A, deal).text
    assert deals_in(run, 1) == 1
    fake.say(A, ANN, "/d 1 0 2 3")
    fake.wait(lambda: "Deal 2:" in fake.message(A, board.message_id).text)


def test_a_chat_is_confirmed_with_the_terminals_code(run: Run) -> None:
    fake = run.fake
    fake.chat(A, [ANN])
    bot = run.start()
    asked = fake.say(A, ANN, "/new 陳大文 李小明 José Dan")
    assert "/confirm" in reply_to(run, A, asked).text
    line = fake.wait(lambda: next((x for x in bot.lines if "its code:" in x), None))
    code = line.rsplit(" ", 1)[1]
    assert str(A) in line
    wrong = fake.say(A, ANN, "/confirm 000000" if code != "000000" else "/confirm 111111")
    assert "not the code" in reply_to(run, A, wrong).text
    fake.say(A, ANN, "/new 陳大文 李小明 José Dan")
    code = fake.wait(lambda: [x for x in bot.lines if "its code:" in x][1:]).pop().rsplit(" ", 1)[1]
    ok = fake.say(A, ANN, f"/confirm {code}")
    assert "keeps score here now" in reply_to(run, A, ok).text
    fake.say(A, ANN, "/new 陳大文 李小明 José Dan")
    assert "陳大文" in board_of(run, A).text
    assert all(fake.token not in x and fake.token.split(":")[1] not in x for x in bot.lines)
    assert {t for _, t in fake.calls} == {fake.token}


def test_a_token_file_others_may_read_is_refused(run: Run) -> None:
    run.token_file.chmod(0o644)
    done = subprocess.run([sys.executable, "-m", "ledger", "--db", str(run.db), "bot", "telegram",
                           "--token-file", str(run.token_file), "--api-url", run.url],
                          capture_output=True, text=True, env={**os.environ, "BIGTWO_LANG": "en"})
    assert done.returncode != 0
    assert done.stderr.startswith("error: the token file") and "chmod 600" in done.stderr
    assert run.fake.token not in done.stderr + done.stdout
    assert run.fake.calls == []


def test_a_token_the_server_refuses(run: Run) -> None:
    other = "987654321:ANOTHER-token_abcdefghijklmnopqrstu"
    run.token_file.write_text(other, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ledger", "--db", str(run.db), "bot", "telegram",
                           "--token-file", str(run.token_file), "--api-url", run.url],
                          capture_output=True, text=True, env={**os.environ, "BIGTWO_LANG": "en"},
                          timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("error: the Bot API at ") and "Traceback" not in done.stderr
    assert other.split(":")[1] not in done.stderr + done.stdout
    assert [m for m, _ in run.fake.calls] == ["getMe"]


def test_without_the_bot_extra_one_error_line(run: Run) -> None:
    code = ("import runpy, sys; sys.modules['telegram'] = None; "  # python-telegram-bot missing
            "sys.argv = ['bigtwo', *sys.argv[1:]]; runpy.run_module('ledger', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code, "--db", str(run.db), "bot", "telegram",
                           "--token-file", str(run.token_file), "--api-url", run.url],
                          capture_output=True, text=True, env={**os.environ, "BIGTWO_LANG": "en"})
    assert done.returncode != 0
    assert done.stderr.strip() == ("error: the bot needs python-telegram-bot: "
                                   "pip install 'bigtwo-ledger[bot]'")
    assert run.fake.calls == []
