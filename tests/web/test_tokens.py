"""The scorekeeper token survives a restart: kept beside the ledger (owner only), rotated
by --new-token, given by --token-file or the environment without showing in ``ps``."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import httpx
import pytest
from web.webhelpers import Server, bearer, bigtwo, keyed

from ledger.web import keys


def keeper_token(server: Server) -> str:
    return server.keeper.split("t=")[1]


def test_a_restart_shows_the_same_links(db: Path) -> None:
    first = Server(db, None)
    try:
        token = keeper_token(first)
        text = "".join(first.lines)
        assert "kept in" in text and "--new-token" in text
    finally:
        first.stop()
    kept = keys.beside(str(db))
    assert kept.read_text().strip() == token
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # its owner's only
    assert kept.parent == db.parent and not kept.name.endswith(".db")
    again = Server(db, None)
    try:
        assert keeper_token(again) == token and "the same links" in "".join(again.lines)
        answer = httpx.post(again.base + "/api/record", json={"session": 1, "line": "0 3 11 8"},
                            headers=keyed(bearer(token)))
        assert answer.status_code == 200  # a phone from before the restart still writes
    finally:
        again.stop()


def test_new_token_rotates_and_says_so(db: Path) -> None:
    old = Server(db, None)
    old_token = keeper_token(old)
    old.stop()
    new = Server(db, None, "--new-token")
    try:
        token = keeper_token(new)
        assert token != old_token and "no longer work" in "".join(new.lines)
        assert keys.beside(str(db)).read_text().strip() == token
        refused = httpx.get(new.base + "/api/sessions", headers=bearer(old_token))
        assert refused.status_code == 403
    finally:
        new.stop()


def test_token_file_and_environment(db: Path, tmp_path: Path) -> None:
    mine = tmp_path / "my-token"
    mine.write_text("from-a-file-0123456789\n")
    mine.chmod(0o600)
    server = Server(db, None, "--token-file", str(mine))
    try:
        assert keeper_token(server) == "from-a-file-0123456789"
    finally:
        server.stop()
    server = Server(db, None, env={keys.ENV: "from-the-environment-42"})
    try:
        assert keeper_token(server) == "from-the-environment-42"
    finally:
        server.stop()
    assert not keys.beside(str(db)).exists()  # neither was written beside the ledger


def test_bad_token_sources_are_one_clear_error(db: Path, tmp_path: Path) -> None:
    shared = tmp_path / "shared-token"
    shared.write_text("readable-by-all-0123456789\n")
    shared.chmod(0o644)
    bad = bigtwo(db, "serve", "--token-file", str(shared), check=False)
    assert bad.returncode != 0 and "other users" in bad.stderr and "Traceback" not in bad.stderr
    bad = bigtwo(db, "serve", "--token-file", str(tmp_path / "none"), check=False)
    assert bad.returncode != 0 and "no token file" in bad.stderr
    bad = bigtwo(db, "serve", "--token", "x" * 20, "--new-token", check=False)
    assert bad.returncode == 2 and "--new-token" in bad.stderr
    shared.chmod(0o600)
    shared.write_text("short\n")
    bad = bigtwo(db, "serve", "--token-file", str(shared), check=False)
    assert bad.returncode != 0 and "does not hold a token" in bad.stderr


def test_choose_without_a_server(tmp_path: Path) -> None:
    db = str(tmp_path / "l.db")
    made = keys.choose(db, None, None, False, environ={})
    assert made.how == "new" and keys.choose(db, None, None, False, environ={}).key == made.key
    assert keys.choose(db, None, None, True, environ={}).key != made.key
    with pytest.raises(Exception, match="not both"):
        keys.choose(db, "a" * 20, str(tmp_path / "f"), False, environ={})
    assert os.stat(keys.beside(db)).st_mode & 0o077 == 0
