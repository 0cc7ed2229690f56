"""One Telegram update in, the engine's ops run, the chat answered.

:class:`Tables` reads an update (the Bot API's JSON, as a dict), finds the chat's table
(:mod:`ledger.bot.chats`), runs the engine's ops (``ledger.engine.dispatch.call``) and
answers through a :class:`Chat` (the Bot API's methods, ``ledger/bot/telegram.py``).
Every write's idempotency key is a uuid made from the message it came from
(:func:`key_of`: the chat's id and the message's id), so an update Telegram sends
again after a restart writes nothing new; a button carries the uuid of the entry it
acts on, so a second press finds it already taken back.  An edited message changes
nothing; only the chat's members write.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any, ClassVar, Protocol

from ledger.bot import words
from ledger.bot.chats import Chats, ChatState
from ledger.core import i18n
from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import _
from ledger.engine import dispatch
from ledger.storage.store import Ledger, open_ledger

CAPTION = 1024
"""The most characters a picture's caption holds (the Bot API's sendPhoto)."""
NAMESPACE = uuid.UUID("6f0c4e7a-3b1d-5c2e-9a84-2d7b1f0e5c31")
"""The fixed namespace of the bot's keys (uuid5): the same message, the same key, for ever."""

Buttons = list[tuple[str, str]]  # (label, callback data) in one row
MEMBERS = ("creator", "administrator", "member")


def key_of(*parts: object) -> str:
    """The uuid of the action a message (or a button) took: ``key_of("msg", chat, message)``."""
    return str(uuid.uuid5(NAMESPACE, ":".join(str(p) for p in parts)))


class Chat(Protocol):
    """What the bot asks of the Bot API (``ledger/bot/telegram.py``; a test's fake)."""

    async def send(self, chat: int, text: str, reply_to: int | None = None,
                   buttons: Buttons | None = None) -> int: ...

    async def edit(self, chat: int, message: int, text: str, buttons: Buttons | None = None) -> bool: ...

    async def pin(self, chat: int, message: int) -> None: ...

    async def photo(self, chat: int, png: bytes, caption: str | None = None,
                    reply_to: int | None = None) -> bool:
        """Send a picture; False where the chat cannot be written to (a user who never
        opened a private chat with the bot, or blocked it)."""
        ...

    async def answer(self, callback: str, text: str | None = None) -> None: ...

    async def is_member(self, chat: int, user: int) -> bool: ...


class Tables:
    """Every chat's table over one ledger, or one ledger per chat (``per_chat``)."""

    def __init__(self, db: Path | None, per_chat: Path | None, lang: str | None,
                 allow: set[int], notice: Callable[[str], None]) -> None:
        if (db is None) == (per_chat is None):
            raise ValueError("one ledger, or a folder of one ledger per chat")
        self.db, self.per_chat, self.lang, self.allow_given = db, per_chat, lang, set(allow)
        if per_chat is not None:
            per_chat.mkdir(parents=True, exist_ok=True)
        home = per_chat / "bot-chats.json" if per_chat else Path(f"{db}.bot-chats.json")
        self.chats = Chats.load(home)
        self.notice = notice
        self.codes: dict[int, str] = {}  # a chat asking to keep score here -> its code
        self.ledgers: dict[str, Ledger] = {}
        self.me = 0  # the bot's own user id (getMe), to know a reply to its scoreboard
        self.username = ""  # the bot's @name (getMe), for "open a private chat with @…"

    def close(self) -> None:
        for ledger in self.ledgers.values():
            ledger.close()
        self.ledgers.clear()

    def ledger(self, chat: int) -> Ledger:
        path = str(self.per_chat / f"chat{chat}.db") if self.per_chat else str(self.db)
        found = self.ledgers.get(path)
        if found is None:
            found = self.ledgers[path] = open_ledger(path, create_folder=self.per_chat is not None)
        return found

    def allowed(self, chat: int) -> bool:
        return chat in self.allow_given or (not self.allow_given and chat in self.chats.allowed)

    def language(self, chat: int) -> str:
        state = self.chats.chats.get(chat)
        return (state.lang if state and state.lang else None) or self.lang or i18n.language()

    # --- one update -------------------------------------------------------------------

    async def handle(self, update: dict[str, Any], api: Chat) -> None:
        """Answer one update; edited messages and anything else are left alone."""
        if "callback_query" in update:
            q = update["callback_query"]
            message = q.get("message") or {}
            chat = int((message.get("chat") or {}).get("id", 0))
            with i18n.using(self.language(chat)):
                await self.button(q, chat, int(message.get("message_id", 0)), api)
            return
        m = update.get("message")  # an edited_message changes nothing
        if not m or not isinstance(m.get("text"), str):
            return
        chat = int(m["chat"]["id"])
        with i18n.using(self.language(chat)):
            try:
                await self.message(m, chat, api)
            except LedgerError as exc:
                await api.send(chat, _("error: {message}").format(message=dispatch.message_of(exc)),
                               reply_to=m["message_id"])

    async def message(self, m: dict[str, Any], chat: int, api: Chat) -> None:
        text = i18n_nfc(m["text"]).strip()
        reply = m.get("reply_to_message") or {}
        state = self.chats.chats.get(chat)
        command, _sep, rest = text.partition(" ")
        if command.startswith("/"):
            command = command[1:].split("@", 1)[0].lower()
        elif (state and state.board and reply.get("message_id") == state.board
              and (reply.get("from") or {}).get("id") == self.me):
            command, rest = "d", text  # a reply to the scoreboard: just the counts
        else:
            return
        rest = rest.strip()
        if command in ("help", "start"):
            await api.send(chat, words.help_text(), reply_to=m["message_id"])
            return
        if command == "lang":
            await self.set_lang(chat, rest, m, api)
            return
        if command == "confirm":
            await self.confirm(chat, rest, m, api)
            return
        handler = self.COMMANDS.get(command)
        if handler is None:
            return
        if not self.allowed(chat):
            await self.ask_to_confirm(chat, m, api)
            return
        if handler[1] and not await self.member(m, chat, api):
            await api.send(chat, _("only the members of this chat keep its score"), reply_to=m["message_id"])
            return
        if command == "new":
            await self.new(chat, rest, m, api)
            return
        if state is None or state.session is None:
            raise InputError(_("no table in this chat yet: start one with /new and the players' names"))
        await handler[0](self, chat, state, rest, m, api)

    async def member(self, m: dict[str, Any], chat: int, api: Chat) -> bool:
        if m["chat"].get("type") == "private":
            return True
        sender = m.get("sender_chat")
        if sender is not None:  # an anonymous admin writes as the group itself
            return int(sender.get("id", 0)) == chat
        return await api.is_member(chat, int(m["from"]["id"]))

    # --- asking to keep score in a chat ------------------------------------------------

    async def ask_to_confirm(self, chat: int, m: dict[str, Any], api: Chat) -> None:
        if self.allow_given:
            await api.send(chat, _("this bot keeps score only in the chats its owner allowed"),
                           reply_to=m["message_id"])
            return
        code = self.codes.setdefault(chat, f"{secrets.randbelow(10**6):06d}")
        title = m["chat"].get("title") or m["chat"].get("username") or ""
        self.notice(_("chat {title} ({id}) asks to keep its score here; its code: {code}").format(
            title=title, id=chat, code=code))
        await api.send(chat, _("to keep score in this chat, send /confirm and the code printed "
                               "on the bot's terminal"), reply_to=m["message_id"])

    async def confirm(self, chat: int, code: str, m: dict[str, Any], api: Chat) -> None:
        if self.allowed(chat):
            return
        expected = self.codes.get(chat)
        if expected is None or not secrets.compare_digest(code, expected):
            await api.send(chat, _("that is not the code; send /new for a new one"), reply_to=m["message_id"])
            self.codes.pop(chat, None)
            return
        self.codes.pop(chat)
        self.chats.allowed.add(chat)
        self.chats.save()
        await api.send(chat, _("this chat keeps score here now: send /new and the players' names"),
                       reply_to=m["message_id"])

    async def set_lang(self, chat: int, given: str, m: dict[str, Any], api: Chat) -> None:
        found = {"繁體": "zh_Hant", "繁体": "zh_Hant", "简体": "zh_Hans", "簡體": "zh_Hans"}.get(given) \
            or i18n.normalize(given)
        if found is None:
            raise InputError(_("unknown language {lang!r}; choose en, zh_Hant (繁體) or zh_Hans (简体)")
                             .format(lang=given))
        self.chats.get(chat).lang = found
        self.chats.save()
        with i18n.using(found):
            await api.send(chat, _("this chat's language: English"), reply_to=m["message_id"])

    # --- the commands ------------------------------------------------------------------

    async def new(self, chat: int, rest: str, m: dict[str, Any], api: Chat) -> None:
        ledger = self.ledger(chat)
        if not rest:  # "the same as last time": this chat's last table's players and rules
            state = self.chats.chats.get(chat)
            if state is None or state.session is None:
                raise InputError(_("no table in this chat yet: start one with /new and the players' names"))
            last = self.call(chat, state, "session")
            args = {"players": last["players"], "rule_set": last["rule_set"], "stake": last["stake"],
                    "currency": last["currency"], "teams": last["teams"]}
            await self.started(chat, dispatch.call(ledger, "start", {
                **args, "key": key_of("msg", chat, m["message_id"])}), api)
            return
        presets = {p["name"] for p in dispatch.call(ledger, "presets", {})}
        names, args = [], {}
        tokens = rest.split()
        for i, token in enumerate(tokens):
            if token in presets and "rules" not in args:
                args["rules"] = token
            elif token[:1].isdigit() and "stake" not in args:
                args["stake"] = token
                if i + 1 < len(tokens):
                    args["currency"] = tokens[i + 1]
                break
            else:
                names.append(token)
        s = dispatch.call(ledger, "start", {"players": names, "key": key_of("msg", chat, m["message_id"]),
                                            **args})
        await self.started(chat, s, api)

    async def started(self, chat: int, s: dict[str, Any], api: Chat) -> None:
        state = self.chats.get(chat)
        state.session, state.board = s["id"], None
        self.chats.save()
        await self.show_board(chat, state, api)

    async def deal(self, chat: int, state: ChatState, line: str, m: dict[str, Any], api: Chat) -> None:
        after = self.call(chat, state, "record", line=line, key=key_of("msg", chat, m["message_id"]))
        await self.show_board(chat, state, api)
        await api.send(chat, words.after_deal(after), reply_to=m["message_id"])

    async def settle(self, chat: int, state: ChatState, rest: str, m: dict[str, Any] | None,
                     api: Chat, after: str = "") -> None:
        """The settlement card (PNG) with the fewest payments beside it; then each payment's
        code, privately to its payer (never to the chat: it holds the payee's pay id)."""
        st = self.call(chat, state, "settle")
        text = words.payments(st) + (("\n" + after) if after else "")
        reply = m["message_id"] if m else None
        card = await self.card(chat, state)
        if card is not None and len(text) <= CAPTION:
            await api.photo(chat, card, caption=text, reply_to=reply)
        else:
            if card is not None:
                await api.photo(chat, card, reply_to=reply)
            await api.send(chat, text, reply_to=reply)
        await self.send_codes(chat, state, api)

    async def card(self, chat: int, state: ChatState) -> bytes | None:
        """The settlement card the hub draws (``ledger/present/share.py``), drawn off the
        event loop; None where it cannot be drawn (the payments still go as text)."""
        import asyncio
        import tempfile

        from ledger.book import actions as book
        from ledger.book import reports
        from ledger.present import share

        ledger = self.ledger(chat)
        settlement = reports.settle(ledger, [book.current_session(ledger, state.session)])

        def draw() -> bytes:  # in a thread, in this update's language (to_thread copies the context)
            with tempfile.TemporaryDirectory(prefix="bigtwo-card-") as folder:
                out = Path(folder) / "settle.png"
                share.card(settlement, out, self.notice)
                return out.read_bytes()

        try:
            return await asyncio.to_thread(draw)
        except (LedgerError, OSError, ValueError) as exc:
            self.notice(_("the settlement card could not be drawn: {problem}").format(problem=exc))
            return None

    async def send_codes(self, chat: int, state: ChatState, api: Chat) -> None:
        """Each outstanding payment's code (FPS, PayNow, PromptPay) to its payer in a private
        chat; the chat is told only who could not be reached, never a pay id."""
        from ledger.present.qr import qr_png

        st = self.call(chat, state, "settle", pay_codes=True)
        left = {(p["from"], p["to"]): p["outstanding"] for p in st.get("progress") or []}
        unreached: list[str] = []
        for p in st["payments"]:
            code = p.get("pay_code")
            outstanding = left.get((p["from"], p["to"]), p["amount"])
            if code is None or Decimal(outstanding) <= 0:
                continue
            user = state.user_of(p["from"])
            sent = user is not None and await api.photo(
                user, qr_png(code["payload"]), caption=words.pay_code(p, st["currency"], outstanding))
            if not sent and p["from"] not in unreached:
                unreached.append(p["from"])
        if unreached:
            await api.send(chat, words.codes_unreached(unreached, self.username))

    async def iam(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        """``/iam 陳大文``: the sender is this player at this chat's table (their payment
        codes come to them privately)."""
        sender = m.get("from") or {}
        if m.get("sender_chat") is not None or not sender.get("id"):
            raise InputError(_("write /iam as yourself, not as the group"))
        players = self.call(chat, state, "session")["players"]
        name = " ".join(rest.split())
        if not name:
            raise InputError(_("write /iam and your name at this table, one of: {players}").format(
                players=", ".join(players)))
        if name not in players:
            raise InputError(_("{name} does not play at this table; its players: {players}").format(
                name=name, players=", ".join(players)))
        user = str(int(sender["id"]))
        state.people = {u: n for u, n in state.people.items() if n != name and u != user}
        state.people[user] = name
        self.chats.save()
        await api.send(chat, words.iam(name, self.username), reply_to=m["message_id"])

    async def owed(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        await api.send(chat, words.owed(self.call(chat, state, "settle")), reply_to=m["message_id"])

    async def paid(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        parts = rest.split()
        if len(parts) != 3:
            raise InputError(_("write /paid FROM TO AMOUNT, e.g. /paid Dan 李小明 30.5"))
        done = self.call(chat, state, "pay", **{"from": parts[0], "to": parts[1], "amount": parts[2]},
                         key=key_of("msg", chat, m["message_id"]))
        await api.send(chat, words.paid(done), reply_to=m["message_id"])

    async def log(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        await api.send(chat, words.deal_list(self.call(chat, state, "deals")), reply_to=m["message_id"])

    async def end(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        self.call(chat, state, "end", key=key_of("msg", chat, m["message_id"]))
        await self.settle(chat, state, "", m, api, after=_("This session has ended."))  # the money first
        await self.show_board(chat, state, api)

    async def seat(self, chat: int, state: ChatState, action: str, rest: str, m: dict[str, Any],
                   api: Chat) -> None:
        """A seat change (the engine's ``seat`` op, as ``bigtwo seat ACTION``): ``/join NAME``
        (``--sit-out``: joins sitting out), ``/leave``, ``/sitout``, ``/back`` (one name),
        ``/swap A B``, ``/order`` (every seated name, in the order of play)."""
        names = [n for n in rest.split() if n != "--sit-out"]
        if not names:
            raise InputError(words.seat_usage(action))
        done = self.call(chat, state, "seat", action=action, players=names,
                         sit_out="--sit-out" in rest.split(), key=key_of("msg", chat, m["message_id"]))
        await self.show_board(chat, state, api)
        await api.send(chat, words.seated(done), reply_to=m["message_id"])

    async def join(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        await self.seat(chat, state, "join", rest, m, api)

    async def leave(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        await self.seat(chat, state, "leave", rest, m, api)

    async def sitout(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        await self.seat(chat, state, "sit-out", rest, m, api)

    async def back(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        await self.seat(chat, state, "back", rest, m, api)

    async def swap(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        await self.seat(chat, state, "swap", rest, m, api)

    async def order(self, chat: int, state: ChatState, rest: str, m: dict[str, Any], api: Chat) -> None:
        await self.seat(chat, state, "order", rest, m, api)

    COMMANDS: ClassVar[dict[str, tuple[Callable[..., Any], bool]]] = {  # name -> (handler, writes)
        "new": (new, True), "d": (deal, True), "deal": (deal, True), "settle": (settle, False),
        "owed": (owed, False), "paid": (paid, True), "log": (log, False), "end": (end, True),
        "iam": (iam, True), "join": (join, True), "leave": (leave, True), "sitout": (sitout, True),
        "back": (back, True), "swap": (swap, True), "order": (order, True),
    }

    # --- the buttons -------------------------------------------------------------------

    async def button(self, q: dict[str, Any], chat: int, message: int, api: Chat) -> None:
        data = str(q.get("data") or "")
        state = self.chats.chats.get(chat)
        if state is None or state.session is None or not self.allowed(chat):
            await api.answer(q["id"])
            return
        if data == "s":
            await api.answer(q["id"])
            await self.settle(chat, state, "", None, api)
            return
        if data == "k":  # keep: the question withdrawn
            await api.answer(q["id"])
            await api.edit(chat, message, _("nothing taken back"))
            return
        kind, _sep, target = data.partition(":")
        if kind not in ("u?", "u!"):
            await api.answer(q["id"])
            return
        private = q["message"]["chat"].get("type") == "private"
        if not private and not await api.is_member(chat, int(q["from"]["id"])):
            await api.answer(q["id"], _("only the members of this chat keep its score"))
            return
        preview = self.call(chat, state, "undo_preview")
        if preview is None or preview["target"] != target:
            await api.answer(q["id"], _("already taken back: nothing done"))
            return
        if kind == "u?":
            await api.answer(q["id"])
            await api.send(chat, words.undo_question(preview),
                           buttons=[(words.undo_button(preview), f"u!:{target}"), (_("Keep it"), "k")])
            return
        done = self.call(chat, state, "undo", key=key_of("undo", target))
        await api.answer(q["id"])
        await api.edit(chat, message, words.undone(done))
        await self.show_board(chat, state, api)

    # --- the scoreboard ----------------------------------------------------------------

    def call(self, chat: int, state: ChatState, op: str, **args: Any) -> Any:
        return dispatch.call(self.ledger(chat), op, {"session": state.session, **args})

    async def show_board(self, chat: int, state: ChatState, api: Chat) -> None:
        """Edit the chat's one scoreboard message; post (and pin) a new one when there is none."""
        b = self.call(chat, state, "board")
        buttons: Buttons = [(_("Settle"), "s")]
        if b["undo"] is not None and not b["session"]["ended_at"]:
            buttons.insert(0, (_("Undo"), f"u?:{b['undo']['target']}"))
        text = words.board(b)
        if state.board is not None and await api.edit(chat, state.board, text, buttons):
            return
        state.board = await api.send(chat, text, buttons=buttons)
        self.chats.save()
        await api.pin(chat, state.board)


def i18n_nfc(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFC", text)
