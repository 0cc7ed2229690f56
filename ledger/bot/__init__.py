"""The chat bot (``bigtwo bot telegram``): one more front end over the engine.

A chat's messages become the engine's ops (``ledger.engine.dispatch.call``) and the
ops' answers (view records' ``to_dict()``) become the chat's text: no scoring, parsing
or money code of its own.  ``table.py`` turns one Telegram update into ops and the
chat's answers (through a small :class:`~ledger.bot.table.Chat` interface);
``words.py`` renders the answers as text; ``chats.py`` keeps which session each chat
holds; ``telegram.py`` speaks the Bot API (python-telegram-bot, imported only there,
only when the bot runs).  It imports the engine, the storage's ``open_ledger`` and
``ledger.core`` (i18n, errors), never ``ledger.web`` or ``ledger.cli``.
"""
