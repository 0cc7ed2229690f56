"""``bigtwo bot telegram``: the chat bot over the same ledger and engine (docs/bot.md).

python-telegram-bot (the ``bot`` extra) is imported inside the command only.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cli.common import GIVEN_FILE, GIVEN_FOLDER, db_path, group


def register(app: typer.Typer) -> None:
    bot_app = group("Chat bots that keep the score where the group already talks.")
    bot_app.command("telegram")(telegram_cmd)
    app.add_typer(bot_app, name="bot")


def telegram_cmd(
    ctx: typer.Context,
    token_file: Annotated[str, typer.Option(
        "--token-file", metavar="FILE", callback=GIVEN_FILE,
        help="The bot's token from @BotFather, in a file only you may read (never printed).")],
    api_url: Annotated[str, typer.Option(
        "--api-url", metavar="URL",
        help="The Bot API server; methods are called as URL/bot<TOKEN>/METHOD.")] = "https://api.telegram.org",
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="LANG", help="The chats' language until /lang: en, zh_Hant or zh_Hans.")] = None,
    allow_chat: Annotated[list[int] | None, typer.Option(
        "--allow-chat", metavar="ID",
        help="Keep score only in this chat; repeatable (without it, a chat's /new asks for a code "
             "printed here).")] = None,
    db_per_chat: Annotated[str | None, typer.Option(
        "--db-per-chat", metavar="DIR", callback=GIVEN_FOLDER,
        help="Give each chat a ledger of its own in DIR (default: every chat in the one ledger).")] = None,
) -> None:
    """Keep the score in Telegram group chats: a bot, by long polling."""
    import asyncio
    import importlib.util
    from pathlib import Path

    from ledger.core import i18n
    from ledger.core.errors import InputError
    from ledger.core.i18n import _

    if importlib.util.find_spec("telegram") is None:
        raise InputError(_("the bot needs python-telegram-bot: pip install 'bigtwo-ledger[bot]'"))
    from ledger.bot import telegram
    from ledger.bot.table import Tables

    chosen = None
    if lang is not None:
        chosen = i18n.normalize(lang)
        if chosen is None:
            raise InputError(_("unknown language {lang!r}; choose en, zh_Hant (繁體) or zh_Hans (简体)")
                             .format(lang=lang))
    if not api_url.startswith(("https://", "http://")):
        raise InputError(_("--api-url must be an http:// or https:// address"))
    token = telegram.read_token(token_file)
    db = None if db_per_chat else Path(db_path(ctx)[0])
    if db is not None:
        db.parent.mkdir(parents=True, exist_ok=True)
    tables = Tables(db, Path(db_per_chat) if db_per_chat else None, chosen, set(allow_chat or ()),
                    lambda line: typer.echo(line, err=True))
    typer.echo(_("bot running; stop it with Ctrl-C"), err=True)
    try:
        asyncio.run(telegram.run(token, api_url, tables, lambda line: typer.echo(line, err=True)))
    except KeyboardInterrupt:
        pass
    finally:
        tables.close()
