"""Fixtures of the web tests: a ledger with a session and the app over it."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from web.webhelpers import KEY, PLAYERS

from ledger.book import actions as book
from ledger.core.rules import load_preset
from ledger.storage.store import open_ledger


def start(db: Path, name: str = "Friday", rules: str = "classic", players: list[str] | None = None,
          stake: str = "0.5", currency: str = "HKD") -> None:
    with open_ledger(db) as ledger:
        book.start_session(ledger, players or PLAYERS, load_preset(rules), Decimal(stake), currency,
                           name, False)


@pytest.fixture
def db(ledger_path: Path) -> Path:
    start(ledger_path)
    return ledger_path


@pytest.fixture
def client(db: Path) -> Iterator[object]:
    from starlette.testclient import TestClient

    from ledger.web.app import create_app
    from ledger.web.auth import Tokens
    from ledger.web.site import Config

    app = create_app(Config(db=str(db), tokens=Tokens.from_key(KEY)))
    with TestClient(app) as c:
        yield c
