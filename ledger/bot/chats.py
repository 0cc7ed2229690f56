"""Which session each chat holds, its scoreboard message and its language: a small JSON
file beside the ledger (``LEDGER.bot-chats.json``, owner-only), written whole and renamed
into place, so a restart finds every chat's table again.

The ledger itself is the truth: every write the bot makes carries a key made from the
message it came from, so losing this file loses nothing but the scoreboard's message id
(the next deal posts a new scoreboard) and a chat's link to its session (``/new`` again).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class ChatState:
    """One chat's table: its session number, the scoreboard's message id, its language,
    and who each member is at the table (``/iam``: a Telegram user's id as text -> a
    player's name), so a payment's code goes privately to its payer."""

    session: int | None = None
    board: int | None = None
    lang: str | None = None
    people: dict[str, str] = field(default_factory=dict)

    def user_of(self, name: str) -> int | None:
        """The Telegram user who said they are ``name`` here, if one did."""
        return next((int(user) for user, said in self.people.items() if said == name), None)


@dataclass
class Chats:
    """Every chat's state and the chats allowed to keep score, kept in ``path``."""

    path: Path
    chats: dict[int, ChatState] = field(default_factory=dict)
    allowed: set[int] = field(default_factory=set)

    @classmethod
    def load(cls, path: Path) -> Chats:
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(path)
        chats = {int(k): ChatState(**v) for k, v in data.get("chats", {}).items()}
        return cls(path, chats, {int(c) for c in data.get("allowed", [])})

    def get(self, chat: int) -> ChatState:
        return self.chats.setdefault(chat, ChatState())

    def save(self) -> None:
        data = {"chats": {str(k): asdict(v) for k, v in sorted(self.chats.items())},
                "allowed": sorted(self.allowed)}
        temp = self.path.with_name(self.path.name + ".new")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, self.path)
