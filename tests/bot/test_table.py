"""The bot's table without a network: :class:`ledger.bot.table.Tables` answering updates
through an in-memory chat — a chat's language, a ledger per chat, the keys."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ledger.bot.table import Buttons, Tables, key_of
from ledger.engine import dispatch
from ledger.storage.store import open_ledger


class Memory:
    """What the bot sent, by chat: ``(message id, text, buttons)``."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int, str, Buttons | None]] = []
        self.members: set[int] = {1}

    async def send(self, chat: int, text: str, reply_to: int | None = None,
                   buttons: Buttons | None = None) -> int:
        self.sent.append((chat, 1000 + len(self.sent), text, buttons))
        return 1000 + len(self.sent) - 1

    async def edit(self, chat: int, message: int, text: str, buttons: Buttons | None = None) -> bool:
        for i, (c, m, _t, _b) in enumerate(self.sent):
            if (c, m) == (chat, message):
                self.sent[i] = (c, m, text, buttons)
                return True
        return False

    async def pin(self, chat: int, message: int) -> None:
        pass

    async def answer(self, callback: str, text: str | None = None) -> None:
        pass

    async def is_member(self, chat: int, user: int) -> bool:
        return user in self.members


def message(chat: int, mid: int, text: str, user: int = 1) -> dict[str, Any]:
    return {"message": {"message_id": mid, "chat": {"id": chat, "type": "group"},
                        "from": {"id": user}, "text": text}}


def test_a_chats_language_and_a_ledger_per_chat(tmp_path: Path) -> None:
    tables = Tables(None, tmp_path / "chats", "en", {-1, -2}, print)
    chat = Memory()

    async def evening() -> None:
        await tables.handle(message(-1, 1, "/lang 繁體"), chat)
        await tables.handle(message(-1, 2, "/new 陳大文 李小明 José Dan"), chat)
        await tables.handle(message(-1, 3, "/d 0 3 8 12"), chat)
        await tables.handle(message(-2, 1, "/new Ann Ben Cat Dan"), chat)
        await tables.handle(message(-2, 2, "/d 陳大文=0"), chat)  # a bad line, in English

    asyncio.run(evening())
    tables.close()
    texts = [t for c, _m, t, _b in chat.sent if c == -1]
    assert texts[0] == "這個群組的語言：繁體中文"
    assert any(t.startswith("第 1 場") and "第 1 鋪：陳大文 +35" in t for t in texts)
    assert texts[-1].startswith("已記錄第 1 鋪：")
    assert [t for c, _m, t, _b in chat.sent if c == -2][-1].startswith("error: ")
    for own, deals in ((-1, 1), (-2, 0)):  # each chat its own ledger
        with open_ledger(tmp_path / "chats" / f"chat{own}.db") as ledger:
            (s,) = dispatch.call(ledger, "sessions", {})["sessions"]
            assert s["deals"] == deals
    with open_ledger(tmp_path / "chats" / "chat-1.db") as ledger:
        log = dispatch.call(ledger, "log", {"session": 1})
        assert log and log[0]["uuid"] == key_of("msg", -1, 3)


def test_keys_are_fixed_by_the_message() -> None:
    assert key_of("msg", -100111, 7) == key_of("msg", -100111, 7)
    assert key_of("msg", -100111, 7) != key_of("msg", -100222, 7)
    # The namespace never changes: a message sent again after an upgrade has the same key.
    assert key_of("msg", -100111, 7) == "8bb142f4-da37-542d-9a3b-ca3c9dc72850"


def test_twenty_chats_at_once_each_its_own_table(tmp_path: Path) -> None:
    chats = [-1000 - i for i in range(20)]
    tables = Tables(tmp_path / "ledger.db", None, "en", set(chats), print)
    chat = Memory()

    async def evening() -> None:
        for c in chats:
            await tables.handle(message(c, 1, f"/new 陳大文{c} 李小明 José Dan"), chat)
        for mid in (2, 3):  # the chats' deals interleaved, as they arrive
            for i, c in enumerate(chats):
                await tables.handle(message(c, mid, f"/d 0 {1 + i % 12} 3 {mid}"), chat)

    asyncio.run(evening())
    tables.close()
    with open_ledger(tmp_path / "ledger.db") as ledger:
        cards = dispatch.call(ledger, "sessions", {})["sessions"]
        assert sorted(s["id"] for s in cards) == list(range(1, 21))
        for s in cards:
            (chat_id,) = [c for c in chats if s["players"][0] == f"陳大文{c}"]
            assert s["deals"] == 2
            assert [e["uuid"] for e in dispatch.call(ledger, "log", {"session": s["id"]})] == [
                key_of("msg", chat_id, 2), key_of("msg", chat_id, 3)]


def test_a_strangers_button_does_nothing(tmp_path: Path) -> None:
    tables = Tables(tmp_path / "ledger.db", None, "en", {-1}, print)
    chat = Memory()
    answers: list[str | None] = []

    async def answer(callback: str, text: str | None = None) -> None:
        answers.append(text)

    chat.answer = answer  # type: ignore[method-assign]

    def press(user: int, message_id: int, data: str) -> dict[str, Any]:
        return {"callback_query": {"id": "q", "data": data, "from": {"id": user},
                                   "message": {"message_id": message_id,
                                               "chat": {"id": -1, "type": "group"}}}}

    async def evening() -> None:
        await tables.handle(message(-1, 1, "/new 陳大文 李小明 José Dan"), chat)
        await tables.handle(message(-1, 2, "/d 0 3 8 12"), chat)
        board = tables.chats.chats[-1].board
        assert board is not None
        undo = next(d for label, d in chat.sent[0][3] or [] if label == "Undo")
        await tables.handle(press(99, board, undo.replace("u?", "u!")), chat)  # a stranger
        await tables.handle(press(1, board, "u!:" + key_of("msg", -1, 1)), chat)  # a stale button

    asyncio.run(evening())
    tables.close()
    assert answers == ["only the members of this chat keep its score", "already taken back: nothing done"]
    with open_ledger(tmp_path / "ledger.db") as ledger:
        assert dispatch.call(ledger, "sessions", {})["sessions"][0]["deals"] == 1


def test_new_alone_is_the_same_as_last_time(tmp_path: Path) -> None:
    tables = Tables(tmp_path / "ledger.db", None, "en", {-1, -2}, print)
    chat = Memory()

    async def evening() -> None:
        await tables.handle(message(-2, 1, "/new"), chat)  # nothing to repeat yet
        await tables.handle(message(-1, 1, "/new 陳大文 李小明 José Dan doubling 0.5 HKD"), chat)
        await tables.handle(message(-2, 2, "/new Ann Ben Cat Dan"), chat)  # another chat's table
        await tables.handle(message(-1, 2, "/new"), chat)

    asyncio.run(evening())
    tables.close()
    assert next(t for c, _m, t, _b in chat.sent if c == -2).startswith("error: no table in this chat yet")
    with open_ledger(tmp_path / "ledger.db") as ledger:
        first, _other, again = (dispatch.call(ledger, "session", {"session": n}) for n in (1, 2, 3))
    assert again["players"] == ["陳大文", "李小明", "José", "Dan"]
    assert (again["rules"], again["stake"], again["currency"]) == ("doubling", "0.5", "HKD")
    assert again["rule_set"] == first["rule_set"] and again["uuid"] == key_of("msg", -1, 2)
