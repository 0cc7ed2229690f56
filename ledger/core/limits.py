"""How much of a structured input is read, and from what: size and nesting limits for
JSON and TOML, and the check that a file named by the user is a regular file.

Python's JSON and TOML readers recurse once per level of nesting: a 2 KB rule file
``plays = [[[[…]]]]`` 1,000 deep, or a 16,000-deep JSON body, ends in
``RecursionError``.  Nothing the ledger reads needs more than a few levels, so text
nested deeper than :data:`MAX_DEPTH` is refused before it is parsed.  A path that names
a FIFO would make a read wait for ever, and ``/dev/zero`` never ends: a file is read
only when it is a regular file, and never more than its limit.

>>> nesting_depth('{"a": [1, {"b": "[[["}]}')
3
>>> nesting_depth("plays = [[1, 2], [3]]  # [[[[", toml=True)
2
"""

from __future__ import annotations

import os
import re
import stat

from ledger.core.errors import InputError
from ledger.core.i18n import N_, _

MAX_DEPTH = 64
"""Deepest nesting of arrays and tables (objects) read from any JSON or TOML input."""
MAX_RULE_FILE = 1 << 20
"""Largest rule or sample file read (1 MiB; the presets are under 2 KB)."""

# Strings and comments, whose brackets do not nest: TOML's multi-line strings first.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_TOML_SKIP = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
                        re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def nesting_depth(text: str, toml: bool = False) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text``, outside strings (and TOML
    comments).  A TOML table header ``[[plays]]`` counts as two."""
    plain = (_TOML_SKIP if toml else _JSON_STRING).sub("", text)
    depth = deepest = 0
    for found in _BRACKETS.finditer(plain):
        if found.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


def check_depth(text: str, what: str, toml: bool = False) -> None:
    """:class:`InputError` when ``text`` (``what``: already translated, e.g. "rule file
    x.toml") nests deeper than :data:`MAX_DEPTH`."""
    depth = nesting_depth(text, toml)
    if depth > MAX_DEPTH:
        raise InputError(_("{what} is nested {depth} levels deep; at most {most} are "
                           "allowed").format(what=what, depth=depth, most=MAX_DEPTH))


_KINDS = (
    (stat.S_ISDIR, N_("a folder")),
    (stat.S_ISFIFO, N_("a FIFO (named pipe)")),
    (stat.S_ISCHR, N_("a character device")),
    (stat.S_ISBLK, N_("a block device")),
    (stat.S_ISSOCK, N_("a socket")),
)


def not_a_file(mode: int) -> str | None:
    """What a file of ``mode`` (``os.stat().st_mode``) is when it is not a regular file,
    translated ("a FIFO (named pipe)"), else None."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in _KINDS:
        if test(mode):
            return _(kind)
    return _("not a regular file")


def path_kind(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` names when it exists and is not a regular file (symbolic links
    followed: a link to ``/dev/zero`` is a character device), else None."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return not_a_file(mode)


def refuse_not_a_file(path: str | os.PathLike[str], what: str, folder: bool = False) -> None:
    """:class:`InputError` at once when ``path`` exists and is not a regular file (with
    ``folder``: not a folder); symbolic links followed, nothing opened (``os.stat`` never
    waits on a FIFO).  ``what`` names it in the message ("--cert x.pem").  A path that does
    not exist passes: the caller says what a missing one means (a new file to write, or
    "no such file").  Every path the command line is given goes through here."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if folder:
        if not stat.S_ISDIR(mode):
            raise InputError(_("{what}: it is {kind}, not a folder; give a folder").format(
                what=what, kind=not_a_file(mode) or _("a file")))
        return
    kind = not_a_file(mode)
    if kind is not None:
        raise InputError(_("{what}: it is {kind}, not a file; give a regular file").format(
            what=what, kind=kind))


def read_limited(path: str | os.PathLike[str], what: str, limit: int = MAX_RULE_FILE) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Opened without waiting (a FIFO would block an ordinary open until a writer came)
    and checked on the open file, so a path swapped between check and read is caught.
    ``what`` names the file in messages ("rule file x.toml"); :class:`OSError` is left
    to the caller, which knows how to say it."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        kind = not_a_file(os.fstat(fd).st_mode)
        if kind is not None:
            raise InputError(_("{what} is {kind}, not a file; give a regular file").format(
                what=what, kind=kind))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise InputError(_("{what} is larger than {most} KiB; is it the right file?").format(
            what=what, most=limit // 1024))
    return b"".join(chunks)
