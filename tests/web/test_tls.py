"""``bigtwo serve --cert FILE --key FILE`` (HTTPS) and ``--allow-origin`` (the installed
offline app calling the hub from its own origin, with the preflight its headers cause),
with a self-signed certificate made in the test."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from web.webhelpers import KEY, Server, bearer, bigtwo, keyed

from ledger.web.auth import Tokens

APP = "https://app.example.org"


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        raise AssertionError("these tests make their certificate with openssl (apt-get install openssl)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def trusting(cert: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(cert))
    return context


def test_https_with_the_apps_origin(db: Path, certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    verify = trusting(cert)
    server = Server(db, KEY, "--cert", str(cert), "--key", str(key), "--allow-origin", APP,
                    verify=verify)
    try:
        assert server.base.startswith("https://localhost:"), server.base
        with httpx.Client(base_url=server.base, verify=verify) as client:
            preflight = client.options("/api/record", headers={
                "Origin": APP, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"})
            assert preflight.status_code == 204
            assert preflight.headers["access-control-allow-origin"] == APP
            allowed = preflight.headers["access-control-allow-headers"]
            assert all(h in allowed for h in ("authorization", "idempotency-key", "content-type"))
            assert "access-control-allow-credentials" not in preflight.headers
            posted = client.post("/api/record", json={"session": 1, "line": "0 3 11 8"},
                                 headers=keyed({**bearer(KEY), "Origin": APP}))
            assert posted.status_code == 200 and posted.json()["deal"] == 1
            assert posted.headers["access-control-allow-origin"] == APP
            other = client.get("/api/sessions", headers={**bearer(KEY), "Origin": "https://evil.example"})
            assert "access-control-allow-origin" not in other.headers
        with pytest.raises(httpx.TransportError):  # plain http is not spoken on that port
            httpx.get(server.base.replace("https://", "http://") + "/api/sessions", timeout=5)
    finally:
        code, out = server.stop()
    assert code == 0 and "Traceback" not in out, out


def test_bad_tls_and_origin_options(db: Path, certificate: tuple[Path, Path]) -> None:
    cert, _key = certificate
    bad = bigtwo(db, "serve", "--cert", str(cert), check=False)
    assert bad.returncode == 2 and "--key" in bad.stderr
    bad = bigtwo(db, "serve", "--cert", str(cert), "--key", str(cert), check=False)
    assert bad.returncode != 0 and "cannot use them for HTTPS" in bad.stderr
    assert "Traceback" not in bad.stderr
    bad = bigtwo(db, "serve", "--allow-origin", "https://app.example.org/path", check=False)
    assert bad.returncode == 2 and "--allow-origin" in bad.stderr


@pytest.mark.parametrize("which", ["--cert", "--key"])
def test_a_fifo_as_certificate_or_key_is_refused_at_once(db: Path, certificate: tuple[Path, Path],
                                                         tmp_path: Path, which: str) -> None:
    """Once ``serve --cert FIFO`` waited for ever for a writer, silently (issue 30)."""
    cert, key = certificate
    fifo = tmp_path / "fifo.pem"
    os.mkfifo(fifo)
    files = {"--cert": str(cert), "--key": str(key), which: str(fifo)}
    try:
        bad = subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), "serve", "--port", "0",
                              *(w for pair in files.items() for w in pair)],
                             capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"serve {which} FIFO waited") from None
    assert bad.returncode == 2
    assert bad.stderr == (f"error: {which} {fifo}: it is a FIFO (named pipe), not a file; "
                          "give a regular file\n")


def test_cors_only_for_the_named_origin(db: Path) -> None:
    from starlette.testclient import TestClient

    from ledger.web.app import create_app
    from ledger.web.site import Config

    app: Any = create_app(Config(db=str(db), tokens=Tokens.from_key(KEY), origins=[APP]))
    with TestClient(app) as client:
        asked = {"Access-Control-Request-Method": "GET",
                 "Access-Control-Request-Headers": "authorization",
                 "Access-Control-Request-Private-Network": "true"}
        ok = client.options("/api/board?session=1", headers={"Origin": APP, **asked})
        assert ok.status_code == 204 and ok.headers["access-control-allow-private-network"] == "true"
        refused = client.options("/api/board?session=1", headers={"Origin": "http://evil.example", **asked})
        assert "access-control-allow-origin" not in refused.headers
        read = client.get("/api/board?session=1", headers={**bearer(KEY), "Origin": APP})
        assert read.status_code == 200 and read.headers["vary"].count("Origin") >= 1
        # The token is still needed: CORS lets the app read answers, it grants nothing.
        bare = client.post("/api/record", json={"session": 1, "line": "0 3 11 8"},
                           headers={"Origin": APP, "Idempotency-Key": str(uuid.uuid4())})
        assert bare.status_code == 401 and bare.headers["access-control-allow-origin"] == APP
