"""Where the scorekeeper token of ``bigtwo serve`` comes from, and where it is kept.

By default the token is kept beside the ledger, in ``LEDGER.serve-token`` (say
``ledger.db.serve-token``), a file only its owner may read: a restart shows the same
links and QR codes, and phones already at the table keep working. It is not inside the
ledger, so an export or a backup of the ledger never carries it.
``--new-token`` makes a new one (the old links stop working). ``--token-file FILE``
reads it from a file of the user's own, ``BIGTWO_SERVE_TOKEN`` from the environment
(neither shows in ``ps``, unlike ``--token TOKEN``, kept for scripts and tests).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import NamedTuple

from ledger.core.errors import InputError, LedgerError
from ledger.core.i18n import _
from ledger.web.auth import check_key, new_key

ENV = "BIGTWO_SERVE_TOKEN"
SUFFIX = ".serve-token"


class Key(NamedTuple):
    """The token and where it came from: ``kept`` (the file beside the ledger, or
    ``--token-file``), ``new`` (made now and kept), ``rotated`` (``--new-token``),
    ``given`` (``--token``), ``env`` (``BIGTWO_SERVE_TOKEN``)."""

    key: str
    how: str
    path: Path | None = None


def beside(db: str) -> Path:
    """The token file of the ledger ``db``."""
    return Path(db).with_name(Path(db).name + SUFFIX)


def read(path: Path) -> str:
    """The token in ``path``: refused if other users may read it, or if it is not one."""
    try:
        st = path.stat()
        if stat.S_IMODE(st.st_mode) & 0o077:
            raise LedgerError(_(
                "the token file {path} can be read by other users; make it yours only "
                "(chmod 600 {path}) or make a new token with --new-token").format(path=path))
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise LedgerError(_("cannot read the token file {path}: {problem}").format(
            path=path, problem=exc.strerror or exc)) from None
    except UnicodeDecodeError:
        raise LedgerError(_("the token file {path} does not hold a token").format(path=path)) from None
    try:
        return check_key(text)
    except InputError:
        raise LedgerError(_("the token file {path} does not hold a token (16 to 128 characters of "
                            "A-Z, a-z, 0-9, - and _)").format(path=path)) from None


def write(path: Path, key: str) -> None:
    """Keep ``key`` in ``path``, readable and writable by its owner only (mode 600), in
    one step: a new file renamed over the old one."""
    temp = path.with_name(path.name + ".new")
    try:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(key + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except OSError as exc:
        raise LedgerError(_("cannot keep the token in {path}: {problem}").format(
            path=path, problem=exc.strerror or exc)) from None


def choose(db: str, token: str | None, token_file: str | None, new: bool,
           environ: dict[str, str] | None = None) -> Key:
    """The scorekeeper token for serving ``db``, from the options."""
    env = (os.environ if environ is None else environ).get(ENV)
    given = [name for name, value in (("--token", token), ("--token-file", token_file)) if value]
    if len(given) > 1:
        raise InputError(_("give --token or --token-file, not both"))
    if token is not None:
        if new:
            raise InputError(_("--new-token makes a token: give it without --token"))
        return Key(check_key(token), "given")
    if token_file is None and env and not new:
        try:
            return Key(check_key(env.strip()), "env")
        except InputError:
            raise InputError(_("{env} must be 16 to 128 characters of A-Z, a-z, 0-9, - and _").format(
                env=ENV)) from None
    path = Path(token_file) if token_file else beside(db)
    if new:
        key = new_key()
        write(path, key)
        return Key(key, "rotated", path)
    if path.exists():
        return Key(read(path), "kept", path)
    if token_file:
        raise LedgerError(_("no token file {path}; write a token of 16 to 128 characters of A-Z, "
                            "a-z, 0-9, - and _ in it, or leave --token-file out").format(path=path))
    key = new_key()
    write(path, key)
    return Key(key, "new", path)


def said(found: Key) -> str | None:
    """The line ``bigtwo serve`` prints about its token (None for ``--token``)."""
    if found.how == "rotated":
        return _("new scorekeeper token, kept in {path}: the old links and QR codes no longer "
                 "work; scan the new ones").format(path=found.path)
    if found.how == "new":
        return _("scorekeeper token kept in {path} (owner only): the same links after a restart; "
                 "bigtwo serve --new-token makes a new one").format(path=found.path)
    if found.how == "kept":
        return _("scorekeeper token from {path}: the same links as before; bigtwo serve "
                 "--new-token makes a new one").format(path=found.path)
    if found.how == "env":
        return _("scorekeeper token from {env}").format(env=ENV)
    return None
