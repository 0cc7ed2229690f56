"""A fake Telegram Bot API for the bot's tests: a small Starlette app on a local port,
speaking the methods the bot calls (``/bot<TOKEN>/METHOD``), driven by the test.

The test pushes updates (a member's message, a button pressed) and reads what the bot
sent: every message in every chat, as the chat shows it now (edits applied), pins, the
answers to buttons.  ``getUpdates`` is long polling with offsets, as Telegram's: an
update is given again until a later call's ``offset`` confirms it, so a bot stopped
before it confirmed an update gets it again when it starts.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

TOKEN = "123456789:TEST-token_abcdefghijklmnopqrstuvwxyz"
BOT = {"id": 999000, "is_bot": True, "first_name": "Big Two", "username": "bigtwo_test_bot"}
TEXT_KEYS = {"text", "callback_data", "callback_query_id", "data"}


@dataclass
class Sent:
    """A message in a chat, as it reads now."""

    chat: int
    message_id: int
    text: str
    buttons: list[tuple[str, str]]
    reply_to: int | None
    edits: int = 0
    photo: bytes | None = None  # a picture's bytes (sendPhoto), its caption as the text


@dataclass
class FakeApi:
    token: str = TOKEN
    updates: list[dict[str, Any]] = field(default_factory=list)
    next_update: int = 1000
    next_message: dict[int, int] = field(default_factory=dict)
    chat_types: dict[int, str] = field(default_factory=dict)
    members: dict[int, set[int]] = field(default_factory=dict)
    admin_in: set[int] = field(default_factory=set)  # chats where the bot may pin
    sent: list[Sent] = field(default_factory=list)
    pins: list[tuple[int, int]] = field(default_factory=list)
    answers: list[tuple[str, str | None]] = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)  # (method, token seen)
    stall: str | None = None  # a method that never answers (a bot stopped mid-answer)
    lock: threading.Lock = field(default_factory=threading.Lock)

    # --- driving it ----------------------------------------------------------------

    def chat(self, chat: int, members: list[int], kind: str = "group", admin: bool = False) -> None:
        self.chat_types[chat] = kind
        self.members[chat] = set(members)
        if admin:
            self.admin_in.add(chat)

    def _message_id(self, chat: int) -> int:
        self.next_message[chat] = self.next_message.get(chat, 0) + 1
        return self.next_message[chat]

    def _chat(self, chat: int) -> dict[str, Any]:
        kind = self.chat_types.get(chat, "group")
        return {"id": chat, "type": kind, "title": f"table {chat}"} if kind != "private" else \
            {"id": chat, "type": "private", "first_name": "Ann"}

    def push(self, update: dict[str, Any]) -> int:
        with self.lock:
            self.next_update += 1
            self.updates.append({"update_id": self.next_update, **update})
            return self.next_update

    def again(self, update_id: int) -> None:
        """Telegram sends an update's message again, under a new update id (update ids
        are not unique for ever; the message's chat and id are what name it)."""
        with self.lock:
            found = next(u for u in self.sent_updates if u["update_id"] == update_id)
        self.push({k: v for k, v in found.items() if k != "update_id"})

    sent_updates: list[dict[str, Any]] = field(default_factory=list)

    def say(self, chat: int, user: int, text: str, reply_to: int | None = None,
            name: str = "Ann") -> int:
        """A message from ``user`` in ``chat``: its message id."""
        with self.lock:
            mid = self._message_id(chat)
        msg: dict[str, Any] = {"message_id": mid, "date": int(time.time()), "chat": self._chat(chat),
                               "from": {"id": user, "is_bot": False, "first_name": name}, "text": text}
        if reply_to is not None:
            original = self.message(chat, reply_to)
            msg["reply_to_message"] = {"message_id": reply_to, "date": int(time.time()),
                                       "chat": self._chat(chat), "from": BOT, "text": original.text}
        self.push({"message": msg})
        return mid

    def edit_by_user(self, chat: int, user: int, message_id: int, text: str) -> None:
        self.push({"edited_message": {"message_id": message_id, "date": int(time.time()),
                                      "edit_date": int(time.time()), "chat": self._chat(chat),
                                      "from": {"id": user, "is_bot": False, "first_name": "Ann"},
                                      "text": text}})

    def press(self, chat: int, user: int, message_id: int, data: str) -> None:
        original = self.message(chat, message_id)
        self.push({"callback_query": {
            "id": f"cb{self.next_update}", "chat_instance": str(chat), "data": data,
            "from": {"id": user, "is_bot": False, "first_name": "Ann"},
            "message": {"message_id": message_id, "date": int(time.time()), "chat": self._chat(chat),
                        "from": BOT, "text": original.text}}})

    def message(self, chat: int, message_id: int) -> Sent:
        with self.lock:
            return next(s for s in self.sent if s.chat == chat and s.message_id == message_id)

    def in_chat(self, chat: int) -> list[Sent]:
        with self.lock:
            return [s for s in self.sent if s.chat == chat]

    def pending(self) -> int:
        with self.lock:
            return len(self.updates)

    def wait(self, until: Callable[[], Any], timeout: float = 30) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = until()
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError("the bot did not answer in time")

    # --- the methods -----------------------------------------------------------------

    async def endpoint(self, request: Request) -> JSONResponse:
        token, method = request.path_params["token"], request.path_params["method"]
        with self.lock:
            self.calls.append((method, token))
        if token != self.token:
            return JSONResponse({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        params = await self.read(request)
        while method == self.stall:  # held until the test lets it go (its client long gone)
            await asyncio.sleep(0.05)
        handler = getattr(self, "m_" + method, None)
        if handler is None:
            return JSONResponse({"ok": False, "error_code": 404, "description": "Not Found"}, 404)
        result = await handler(params)
        if isinstance(result, JSONResponse):
            return result
        return JSONResponse({"ok": True, "result": result})

    @staticmethod
    async def read(request: Request) -> dict[str, Any]:
        kind = request.headers.get("content-type", "")
        if kind.startswith("application/json"):
            data: dict[str, Any] = await request.json()
            return data
        if kind.startswith("multipart/form-data"):  # a picture sent (sendPhoto)
            from email.parser import BytesParser
            from email.policy import HTTP

            body = await request.body()
            parsed = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {kind}\r\n\r\n".encode() + body)
            parts: dict[str, Any] = {}
            for part in parsed.iter_parts():
                field_name = part.get_param("name", header="content-disposition")
                value = part.get_payload(decode=True)
                parts[str(field_name)] = value if part.get_filename() else value.decode("utf-8")
            return {k: (v if isinstance(v, bytes) or k in TEXT_KEYS | {"caption"} else FakeApi.json_or(v))
                    for k, v in parts.items()}
        from urllib.parse import parse_qsl

        form = parse_qsl((await request.body()).decode("utf-8"))  # the bot sends no files
        out: dict[str, Any] = {}
        for k, v in form:
            if k in TEXT_KEYS:
                out[k] = v
                continue
            try:
                out[k] = json.loads(v)
            except ValueError:
                out[k] = v
        return out

    @staticmethod
    def json_or(value: str) -> Any:
        try:
            return json.loads(value)
        except ValueError:
            return value

    async def m_getMe(self, p: dict[str, Any]) -> Any:
        return BOT

    async def m_getUpdates(self, p: dict[str, Any]) -> Any:
        offset = int(p.get("offset") or 0)
        end = time.monotonic() + min(float(p.get("timeout") or 0), 2.0)
        while True:
            with self.lock:
                if offset:
                    self.updates = [u for u in self.updates if u["update_id"] >= offset]
                ready = list(self.updates)
                for u in ready:
                    if u not in self.sent_updates:
                        self.sent_updates.append(u)
            if ready or time.monotonic() >= end:
                return ready
            await asyncio.sleep(0.02)

    def _buttons(self, p: dict[str, Any]) -> list[tuple[str, str]]:
        markup = p.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        if not markup:
            return []
        return [(b["text"], b["callback_data"]) for row in markup["inline_keyboard"] for b in row]

    def _as_message(self, s: Sent) -> dict[str, Any]:
        return {"message_id": s.message_id, "date": int(time.time()), "chat": self._chat(s.chat),
                "from": BOT, "text": s.text}

    async def m_sendMessage(self, p: dict[str, Any], photo: bytes | None = None) -> Any:
        chat = int(p["chat_id"])
        if chat > 0 and chat not in self.chat_types:  # a user who never opened a chat with the bot
            return JSONResponse({"ok": False, "error_code": 403, "description":
                                 "Forbidden: bot can't initiate conversation with a user"}, 403)
        reply = p.get("reply_parameters") or {}
        with self.lock:
            s = Sent(chat, self._message_id(chat), str(p["text"]), self._buttons(p),
                     reply.get("message_id") if isinstance(reply, dict) else None, photo=photo)
            self.sent.append(s)
        return self._as_message(s)

    async def m_editMessageText(self, p: dict[str, Any]) -> Any:
        chat, mid = int(p["chat_id"]), int(p["message_id"])
        with self.lock:
            found = next((s for s in self.sent if s.chat == chat and s.message_id == mid), None)
            if found is None:
                return JSONResponse({"ok": False, "error_code": 400,
                                     "description": "Bad Request: message to edit not found"}, 400)
            buttons = self._buttons(p)
            if found.text == p["text"] and found.buttons == buttons:
                return JSONResponse({"ok": False, "error_code": 400, "description":
                                     "Bad Request: message is not modified"}, 400)
            found.text, found.buttons, found.edits = str(p["text"]), buttons, found.edits + 1
        return self._as_message(found)

    async def m_pinChatMessage(self, p: dict[str, Any]) -> Any:
        chat = int(p["chat_id"])
        if chat not in self.admin_in:
            return JSONResponse({"ok": False, "error_code": 400,
                                 "description": "Bad Request: not enough rights to pin a message"}, 400)
        with self.lock:
            self.pins.append((chat, int(p["message_id"])))
        return True

    async def m_answerCallbackQuery(self, p: dict[str, Any]) -> Any:
        with self.lock:
            self.answers.append((str(p["callback_query_id"]), p.get("text")))
        return True

    async def m_sendPhoto(self, p: dict[str, Any]) -> Any:
        photo = p.get("photo")
        assert isinstance(photo, bytes) and photo.startswith(b"\x89PNG"), "a picture is a PNG file"
        return await self.m_sendMessage({**p, "text": p.get("caption") or ""}, photo=photo)

    async def m_getChatMember(self, p: dict[str, Any]) -> Any:
        chat, user = int(p["chat_id"]), int(p["user_id"])
        status = "member" if user in self.members.get(chat, set()) else "left"
        return {"status": status, "user": {"id": user, "is_bot": False, "first_name": "x"}}


def serve(fake: FakeApi) -> tuple[str, Callable[[], None]]:
    """Serve ``fake`` on a free local port: its root URL and a function that stops it."""
    app = Starlette(routes=[Route("/bot{token}/{method}", fake.endpoint, methods=["GET", "POST"])])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)

    def stop() -> None:
        server.should_exit = True
        thread.join(5)
        sock.close()

    return f"http://127.0.0.1:{port}/", stop
