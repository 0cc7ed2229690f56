"""Errors by type: each says its HTTP status, and command-line advice stays out of the
message (the hub and the phone show the message alone)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.core.errors import (
    Conflict,
    InputError,
    LedgerError,
    LedgerMoved,
    NotFound,
    RuleError,
    StoreError,
)


@pytest.mark.parametrize(("cls", "status", "exit_code"), [
    (LedgerError, 400, 1), (InputError, 400, 2), (RuleError, 400, 2), (NotFound, 404, 2),
    (Conflict, 409, 2), (StoreError, 503, 1), (LedgerMoved, 503, 1),
])
def test_each_kind_of_error_has_its_status_and_exit_code(cls: type[LedgerError], status: int,
                                                           exit_code: int) -> None:
    exc = cls("a whole sentence")
    assert (exc.status, exc.exit_code, exc.message, exc.advice) == (
        status, exit_code, "a whole sentence", None)


def test_advice_is_apart_from_the_message() -> None:
    exc = NotFound("no session 9 in this ledger", advice="see: bigtwo session list")
    assert str(exc) == exc.message == "no session 9 in this ledger"
    assert exc.advice == "see: bigtwo session list"


def test_no_message_below_the_command_line_glues_its_advice_on() -> None:
    """Every "see: bigtwo …" below the command line is an ``advice=``, never in a message."""
    root = Path(__file__).resolve().parents[2] / "ledger"
    glued = [f"{path}:{n}" for layer in ("core", "storage", "book", "formats")
             for path in sorted((root / layer).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "; see: bigtwo" in line or "(see: bigtwo" in line]
    assert glued == []
