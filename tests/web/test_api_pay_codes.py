"""Pay codes over the hub (issue 31): the scorekeeper's ``settle`` carries each
payment's code, a viewer's never does (not even when it asks), and the two answers are
kept apart by the live feed's cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from web.test_api import KEEP, VIEW, deal
from web.webhelpers import cli_json

from ledger.book.pay_ids import set_pay_id
from ledger.storage.store import open_ledger


@pytest.fixture
def evening(client, db: Path):
    for line in ["0 3 11 8", "5 0 2 13"]:
        assert deal(client, line).status_code == 200
    with open_ledger(db) as ledger:
        set_pay_id(ledger, "Ben", "fps", "+852 9123 4567")
    return client


def test_the_keeper_gets_pay_codes_and_a_viewer_never(evening, db: Path) -> None:
    keeper = evening.get("/api/settle?session=1", headers=KEEP).json()
    coded = [p for p in keeper["payments"] if "pay_code" in p]
    assert [p["to"] for p in coded] == ["Ben"] and coded[0]["pay_code"]["scheme"] == "fps"
    assert "+852-91234567" in coded[0]["pay_code"]["payload"]
    assert keeper == cli_json(db, "settle", "--session", "1")  # the CLI's own record
    for asked in ("", "&pay_codes=true", "&pay_codes=1"):
        viewer = evening.get(f"/api/settle?session=1{asked}", headers=VIEW)
        assert viewer.status_code == 200
        assert "91234567" not in viewer.text and "pay_code" not in viewer.text
        assert viewer.json()["payments"] == [
            {k: v for k, v in p.items() if k != "pay_code"} for p in keeper["payments"]]
    again = evening.get("/api/settle?session=1", headers=KEEP).json()
    assert again == keeper  # asked after the viewer: not the viewer's cached answer


def test_the_share_text_carries_no_pay_id(evening) -> None:
    text = evening.get("/share/settle.txt?session=1", headers=KEEP)
    assert text.status_code == 200 and "Ben" in text.text
    assert "91234567" not in text.text
