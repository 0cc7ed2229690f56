"""Bad input at the page's edge (issue 22): query values and JSON bodies that used to
answer 500 answer 400 with a message, and write nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from web.webhelpers import KEY, bearer, ledger_bytes

KEEP = bearer(KEY)


@pytest.mark.parametrize("path", ["/api/standings", "/api/settle", "/api/log", "/plot/net.svg"])
@pytest.mark.parametrize("value", ["²", "٣", "1e3", "-1"])
def test_a_session_query_that_is_not_a_number_is_400(client, path: str, value: str) -> None:
    answer = client.get(path, params={"session": value}, headers=KEEP)
    assert answer.status_code == 400, answer.text[:300]
    assert "is not a session number" in answer.json()["error"]


def test_a_full_width_session_number_is_read_as_typed(client) -> None:
    answer = client.get("/api/standings", params={"session": "１"}, headers=KEEP)
    assert answer.status_code == 200, answer.text[:300]


@pytest.mark.parametrize("path", ["/api/record", "/api/start"])  # the engine's writes
def test_a_deeply_nested_body_is_400_not_a_recursion_error(client, db: Path, path: str) -> None:
    before = ledger_bytes(db)
    raw = b"[" * 16_000  # unclosed: under the size limit, and Python recursed into it
    answer = client.post(path, content=raw, headers={**KEEP, "content-type": "application/json"})
    assert answer.status_code == 400, answer.text[:300]
    assert "nested 16000 levels deep; at most 64" in answer.json()["error"]
    assert ledger_bytes(db) == before
