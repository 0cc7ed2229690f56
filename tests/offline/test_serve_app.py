"""``bigtwo serve`` serves the offline site at /app/ (docs/offline.md), with the site's own
content security policy (the hub's forbids the WebAssembly the engine runs)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def client(ledger_path: Path):
    from starlette.testclient import TestClient

    from ledger.storage.store import open_ledger
    from ledger.web.app import create_app
    from ledger.web.auth import Tokens
    from ledger.web.site import Config

    open_ledger(ledger_path).close()
    with TestClient(create_app(Config(db=str(ledger_path), tokens=Tokens.from_key("k" * 24)))) as c:
        yield c


def test_app_is_the_offline_site_with_its_own_policy(client):
    moved = client.get("/app", follow_redirects=False)
    assert moved.status_code == 308 and moved.headers["location"] == "/app/"
    page = client.get("/app/")
    assert page.status_code == 200
    assert 'data-engine-kind="worker"' in page.text
    policies = page.headers.get_list("content-security-policy")
    assert len(policies) == 1 and "'wasm-unsafe-eval'" in policies[0]
    assert page.headers["x-content-type-options"] == "nosniff"  # the hub's other headers stay
    wasm = client.get("/app/static/vendor/pyodide/pyodide.asm.wasm")
    assert wasm.headers["content-type"] == "application/wasm" and wasm.content[:4] == b"\0asm"
    worker = client.get("/app/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript") and "const FILES = [" in worker.text
    manifest = client.get("/app/manifest.zh_Hant.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["short_name"] == "鋤大D"


def test_a_file_not_in_the_site_is_404_and_the_hub_keeps_its_policy(client):
    assert client.get("/app/static/nothing.js").status_code == 404
    assert client.get("/app/../ledger.db").status_code == 404
    hub = client.get("/static/icon.svg")
    assert "'wasm-unsafe-eval'" not in hub.headers["content-security-policy"]
