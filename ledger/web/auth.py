"""Tokens and access levels.

The scorekeeper token (the *key*) may write; the viewer token, derived from the key
by HMAC so that it reveals nothing about it, may only read.  The phone app takes its
token once from the link (``?t=TOKEN``), keeps it in its origin's ``localStorage`` and
sends it as ``Authorization: Bearer TOKEN``, as scripts do; no cookie carries a token
(cookies are not kept apart by port).  Every comparison is constant-time
(:func:`hmac.compare_digest`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from ledger.core.errors import InputError

KEEPER = "keeper"
VIEWER = "viewer"
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{16,128}")


def new_key() -> str:
    """A fresh scorekeeper token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def check_key(key: str) -> str:
    """A ``--token`` given by the user: long enough and safe in a URL."""
    if not TOKEN_RE.fullmatch(key):
        raise InputError(
            "--token must be 16 to 128 characters of A-Z, a-z, 0-9, - and _ "
            "(leave it out to get a random one)"
        )
    return key


def viewer_token(key: str) -> str:
    """The read-only token that goes with ``key`` (the key cannot be worked back from it)."""
    return hmac.new(key.encode(), b"bigtwo viewer link", hashlib.sha256).hexdigest()[:32]


@dataclass(frozen=True)
class Tokens:
    key: str
    viewer: str

    @classmethod
    def from_key(cls, key: str) -> Tokens:
        return cls(key, viewer_token(key))

    def level(self, given: str | None) -> str | None:
        """``keeper``, ``viewer`` or None for an unknown or missing token."""
        if not given:
            return None
        raw = given.encode("utf-8", "replace")
        # Both compared every time, so timing says nothing about which one matched.
        is_key = hmac.compare_digest(raw, self.key.encode())
        is_viewer = hmac.compare_digest(raw, self.viewer.encode())
        if is_key:
            return KEEPER
        return VIEWER if is_viewer else None
