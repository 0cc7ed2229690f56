"""The Bot API over python-telegram-bot (imported only here, only when the bot runs):
long polling (``getUpdates`` with offsets) and the few methods the bot answers with.

Methods are called as ``URL/bot<TOKEN>/METHOD`` on the ``--api-url`` given
(``https://api.telegram.org`` by default, or a self-hosted ``telegram-bot-api``, or a
test's server).  The token is never printed or logged: httpx's request log (which
names the URL, token included) is silenced, and any error text has the token cut out.
An update's offset is confirmed only after it is answered, so an update taken when the
bot stopped is sent again, and its key (from the message) writes it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ledger.bot.table import Buttons, Tables

if TYPE_CHECKING:
    from telegram import Bot

ALLOWED = ["message", "callback_query"]  # edited messages are not asked for: they change nothing
POLL = 25  # seconds a getUpdates waits for news


class Api:
    """:class:`ledger.bot.table.Chat` over a python-telegram-bot ``Bot``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @staticmethod
    def markup(buttons: Buttons | None) -> Any:
        from telegram import InlineKeyboardButton, InlineKeyboardMarkup

        if not buttons:
            return None
        return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=data)
                                      for label, data in buttons]])

    async def send(self, chat: int, text: str, reply_to: int | None = None,
                   buttons: Buttons | None = None) -> int:
        from telegram import ReplyParameters

        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        sent = await self.bot.send_message(chat, text, reply_parameters=reply,
                                           reply_markup=self.markup(buttons))
        return sent.message_id

    async def edit(self, chat: int, message: int, text: str, buttons: Buttons | None = None) -> bool:
        from telegram.error import BadRequest

        try:
            await self.bot.edit_message_text(text, chat_id=chat, message_id=message,
                                             reply_markup=self.markup(buttons))
        except BadRequest as exc:
            return "not modified" in str(exc)  # the same text again is no failure
        return True

    async def pin(self, chat: int, message: int) -> None:
        from telegram.error import TelegramError

        with contextlib.suppress(TelegramError):  # not an admin here: it works unpinned
            await self.bot.pin_chat_message(chat, message, disable_notification=True)

    async def photo(self, chat: int, png: bytes, caption: str | None = None,
                    reply_to: int | None = None) -> bool:
        from telegram import InputFile, ReplyParameters
        from telegram.error import BadRequest, Forbidden

        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        try:
            await self.bot.send_photo(chat, InputFile(png, filename="bigtwo.png"), caption=caption,
                                      reply_parameters=reply)
        except Forbidden:  # a user who never opened a chat with the bot, or blocked it
            return False
        except BadRequest as exc:
            if "chat not found" in str(exc).lower():
                return False
            raise
        return True

    async def answer(self, callback: str, text: str | None = None) -> None:
        await self.bot.answer_callback_query(callback, text=text)

    async def is_member(self, chat: int, user: int) -> bool:
        from telegram.error import TelegramError

        try:
            found = await self.bot.get_chat_member(chat, user)
        except TelegramError:
            return False
        return found.status in ("creator", "administrator", "member") or bool(
            getattr(found, "is_member", False))


def make_bot(token: str, api_url: str) -> Bot:
    from telegram import Bot
    from telegram.request import HTTPXRequest

    root = api_url.rstrip("/")
    polling = HTTPXRequest(read_timeout=POLL + 10, connect_timeout=10)
    return Bot(token, base_url=f"{root}/bot", base_file_url=f"{root}/file/bot",
               request=HTTPXRequest(connect_timeout=10, read_timeout=20), get_updates_request=polling)


async def run(token: str, api_url: str, tables: Tables, say: Callable[[str], None],
              poll: int = POLL) -> None:
    """Answer updates until cancelled (Ctrl-C)."""
    from telegram.error import NetworkError, TelegramError

    from ledger.core.errors import LedgerError
    from ledger.core.i18n import _

    logging.getLogger("httpx").setLevel(logging.WARNING)  # its log names the URL: the token
    logging.getLogger("httpcore").setLevel(logging.WARNING)

    def clean(exc: BaseException) -> str:
        return str(exc).replace(token, "<token>").replace(token.split(":", 1)[1], "<token>")

    bot = make_bot(token, api_url)
    api = Api(bot)
    try:
        await bot.initialize()
        me = await bot.get_me()
    except TelegramError as exc:  # a wrong token, no server: one line, the token cut out
        raise LedgerError(_("the Bot API at {url} refused the bot: {problem}").format(
            url=api_url, problem=clean(exc))) from None
    async with bot:
        tables.me, tables.username = me.id, me.username or ""
        say(f"@{me.username} ({me.id})")
        offset: int | None = None
        while True:
            try:
                updates = await bot.get_updates(offset=offset, timeout=poll, allowed_updates=ALLOWED)
            except NetworkError as exc:
                say(clean(exc))
                await asyncio.sleep(1)
                continue
            for update in updates:
                try:
                    await tables.handle(update.to_dict(), api)
                except Exception as exc:  # one bad update never stops the others; a
                    say(clean(exc))  # refused send keeps its write (keyed), and goes on
                offset = update.update_id + 1


def read_token(path: str) -> str:
    """The bot's token from ``path`` (as @BotFather gives it: ``123456:ABC…``), refused if
    other users may read the file; the token itself is never in a message."""
    import os
    import re
    import stat

    from ledger.core.errors import InputError
    from ledger.core.i18n import _

    try:
        if stat.S_IMODE(os.stat(path).st_mode) & 0o077:
            raise InputError(_("the token file {path} can be read by other users; make it yours "
                               "only (chmod 600 {path})").format(path=path))
        with open(path, encoding="utf-8") as f:
            text = f.read().strip()
    except OSError as exc:
        raise InputError(_("cannot read the token file {path}: {problem}").format(
            path=path, problem=exc.strerror or exc)) from None
    except UnicodeDecodeError:
        text = ""
    if not re.fullmatch(r"[0-9]{1,20}:[A-Za-z0-9_-]{20,100}", text):
        raise InputError(_("the token file {path} does not hold a bot token (as @BotFather gives "
                           "it: digits, a colon, then letters)").format(path=path))
    return text
