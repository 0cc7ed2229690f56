"""Sample session files: a recorded evening, replayed through the real actions.

Format (TOML, documented in docs/sample-format.md)::

    [[session]]
    name = "Friday at Ann's"
    players = ["Ann", "Ben", "Cat", "Dan"]
    rules = "classic"          # a preset name, or a table of rule options
    stake = "0.25"             # optional, default 1
    currency = "USD"           # optional, default PTS (points)
    teams = false              # optional
    deals = [
      "Ann=0 Ben=3 Cat=11 Dan=8",
      "Ann=5 Ben=0 Cat=2 Dan=13 --twos Dan=1",
      "undo",                   # also: "void N", "amend N <deal>"
    ]

Each line is exactly what follows ``bigtwo deal`` (or ``undo``/``void``/``amend``).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from ledger.book import actions as book
from ledger.core.deal_line import parse_deal_line
from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.numbers import is_whole_number, whole_number
from ledger.core.rules import load_preset, rules_from_mapping
from ledger.core.settlement import parse_currency, parse_stake
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

SESSION_KEYS = ("name", "players", "rules", "stake", "currency", "teams", "deals", "expect")


def samples_dir() -> Path:
    """sample_sessions/ shipped in the package, or beside it in a source checkout."""
    packaged = resources.files("ledger").joinpath("sample_sessions")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "sample_sessions"


def read_sample(path: str | Path) -> list[dict[str, Any]]:
    from ledger.core.limits import check_depth, read_limited

    what = _("sample file {path}").format(path=path)
    try:
        text = read_limited(path, what).decode("utf-8")
        check_depth(text, what, toml=True)
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(_("cannot read sample file {path}: {reason}").format(
            path=path, reason=exc)) from None
    sessions = data.get("session")
    if not isinstance(sessions, list) or not sessions:
        raise InputError(_("{path}: no [[session]] tables").format(path=path))
    for i, s in enumerate(sessions, 1):
        unknown = sorted(set(s) - set(SESSION_KEYS))
        if unknown:
            raise InputError(_("{path}: session {number}: unknown key {key!r}; allowed: {allowed}")
                             .format(path=path, number=i, key=unknown[0],
                                     allowed=", ".join(SESSION_KEYS)))
    return sessions


def load_session(ledger: Ledger, spec: dict[str, Any], origin: str = "sample") -> SessionRow:
    """Start the session and replay its lines; errors name the line."""
    rules_spec = spec.get("rules", "classic")
    rules = (
        load_preset(rules_spec) if isinstance(rules_spec, str)
        else rules_from_mapping(rules_spec, origin=f"{origin} rules")
    )
    session = book.start_session(
        ledger,
        spec.get("players", []),
        rules,
        parse_stake(str(spec.get("stake", "1"))),
        parse_currency(str(spec.get("currency", "PTS"))),
        spec.get("name"),
        bool(spec.get("teams", False)),
    )
    for number, line in enumerate(spec.get("deals", []), 1):
        try:
            apply_line(ledger, session, line)
        except InputError as exc:
            raise InputError(_("{origin}: deal line {number} ({line!r}): {problem}").format(
                origin=origin, number=number, line=line, problem=exc)) from None
    return ledger.journal.session(session.id)


def apply_line(ledger: Ledger, session: SessionRow, line: str) -> book.Recorded | book.Undone:
    words = line.split(maxsplit=2)
    if not words:
        raise InputError(_("empty line"))
    if words[0] == "undo" and len(words) == 1:
        return book.undo(ledger, session, session_start=False)
    if words[0] in ("void", "amend"):
        if len(words) < 2 or not is_whole_number(words[1]):
            raise InputError(_("{command} needs a deal number").format(command=words[0]))
        number = whole_number(words[1])
        if words[0] == "void":
            return book.void_deal(ledger, session, number)
        rules = book.session_rules(session)
        deal = parse_deal_line(words[2] if len(words) > 2 else "", book.deal_seats(ledger, session, number),
                               rules)
        return book.amend_deal(ledger, session, number, deal)
    deal = parse_deal_line(line, book.deal_seats(ledger, session), book.session_rules(session))
    return book.record_deal(ledger, session, deal)


def load_file(ledger: Ledger, path: str | Path) -> list[SessionRow]:
    return [
        load_session(ledger, spec, origin=_("{file} session {number}").format(
            file=Path(path).name, number=i))

        for i, spec in enumerate(read_sample(path), 1)
    ]


def refuse_sample(path: Path) -> None:
    """A sample session file (TOML ``[[session]]`` tables, docs/sample-format.md) is
    neither an export nor a score sheet: say what it is and how it is used."""
    import re

    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return  # said by the import's own read
    sample = path.suffix.lower() == ".toml" and not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
    if sample or re.search(rb"^\s*\[\[\s*session\s*\]\]", head, re.M):
        raise InputError(_(
            "{name} is a sample session file (TOML with [[session]] tables, see "
            "docs/sample-format.md), not an export or a score sheet: `bigtwo demo` plays "
            "sample_sessions/evening.toml in a demo ledger; to keep such an evening, start its "
            "session (bigtwo session start --players ...) and give its deal lines to "
            "`bigtwo table`").format(name=path.name))
