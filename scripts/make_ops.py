"""Write what follows from the engine's op declarations (ledger/engine/ops.py), so no op
list is ever kept in step by hand:

- ``ledger/web/static/app/ops.js``: every op, read or write, and its arguments in order —
  the phone app's engine interface (engine.js, engine-hub.js, engine-worker.js) makes
  one method per op from it;
- docs/serve.md, between its ``<!-- ops -->`` markers: the tables of reads and writes
  (each op's arguments from its signature, its answer from its docstring) and the
  pieces of the answers, each the ``to_dict()`` of a real view record of a sample
  evening (uuids and times shown as ``…``).

    python scripts/make_ops.py          # rewrite both
    python scripts/make_ops.py --check  # exit 1 if either is out of date

tests/engine/test_declared.py fails when either is stale.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "ledger" / "web" / "static" / "app" / "ops.js"
DOC = ROOT / "docs" / "serve.md"
BEGIN, END = "<!-- ops: written by scripts/make_ops.py -->", "<!-- /ops -->"

sys.path.insert(0, str(ROOT))


def ops() -> list[Any]:
    from ledger.engine.dispatch import OPS

    return list(OPS.values())


def js() -> str:
    lines = ["// The engine's ops, written by scripts/make_ops.py from their declarations in",
             "// ledger/engine/ops.py: do not edit (a test fails when this file is stale).",
             "// Each op: its name, GET (a read) or POST (a write), and its arguments in",
             "// order (the idempotency key of a write travels apart).",
             "export const OPS = ["]
    for op in ops():
        found = op.to_dict()
        found["args"] = [a for a in found["args"] if a["kind"] != "key"]
        lines.append("  " + json.dumps(found, ensure_ascii=False) + ",")
    lines.append("];")
    return "\n".join(lines) + "\n"


def argument(p: Any) -> str:
    from ledger.engine.declare import KINDS

    notes = [] if p.kind in ("session", "text") else [KINDS[p.kind]]
    if not p.required:
        notes.append("optional" if p.default in (None, False) else f"default `{p.default}`")
    return f"`{p.name}`" + (f" ({', '.join(notes)})" if notes else "")


def table(write: bool) -> list[str]:
    out = ["| op | arguments | answer |", "|---|---|---|"]
    for op in ops():
        if op.write == write:
            args = ", ".join(argument(p) for p in op.params if p.kind != "key") or "—"
            out.append(f"| `{op.name}` | {args} | {op.doc.replace('|', '&#124;')} |")
    return out


TIME = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?")
DATE = re.compile(r"\d{4}-\d\d-\d\d")
UUID = re.compile(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}")


class Piece:
    """A name standing for a piece inside another (``STANDINGS``, ``[SCORE, …]``)."""

    def __init__(self, text: str) -> None:
        self.text = text


def masked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: masked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [masked(v) for v in value]
    if isinstance(value, str) and (TIME.fullmatch(value) or UUID.fullmatch(value)
                                     or DATE.fullmatch(value)):
        return "…"
    return value


def shown(value: Any) -> str:
    if isinstance(value, Piece):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {shown(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def wrapped(name: str, value: dict[str, Any], width: int = 92) -> list[str]:
    """``NAME = {…}`` broken between its keys at about ``width`` columns."""
    head = f"{name:<9} = {{"
    items = [f"{json.dumps(k, ensure_ascii=False)}: {shown(v)}" for k, v in value.items()]
    lines, line = [], head
    for i, item in enumerate(items):
        piece = item + ("}" if i == len(items) - 1 else ",")
        if len(line) + len(piece) + 1 > width and line not in (head,):
            lines.append(line.rstrip())
            line = " " * len(head)
        line += piece + " "
    lines.append(line.rstrip())
    return lines


def records() -> dict[str, dict[str, Any]]:
    """The pieces of the answers, each a real record's ``to_dict()`` from a sample evening."""
    from ledger.book import actions as book
    from ledger.book import views
    from ledger.book.payments import record_payment
    from ledger.core.deal_line import parse_deal_line
    from ledger.core.i18n import using
    from ledger.core.registry import offered_facts
    from ledger.core.rules import load_preset
    from ledger.core.settlement import parse_currency, parse_stake
    from ledger.storage.store import open_ledger

    seats = ["陳大文", "李小明", "Cat", "Dan"]
    with tempfile.TemporaryDirectory() as folder, using("en"), \
            open_ledger(Path(folder) / "sample.db") as ledger:
        rules = load_preset("doubling")
        s = book.start_session(ledger, seats, rules, parse_stake("0.5"), parse_currency("HKD"),
                               "Friday", False)
        line = "陳大文=0 李小明=3 Cat=11 Dan=8"
        first = views.after_deal(ledger, s, book.record_deal(ledger, s, parse_deal_line(
            line, s.seats, rules)))
        book.record_deal(ledger, s, parse_deal_line("陳大文=5 李小明=0 Cat=2 Dan=9", s.seats, rules))
        s = ledger.journal.session(s.id)
        fixed = book.amend_deal(ledger, s, 2, parse_deal_line("陳大文=5 李小明=0 Cat=3 Dan=9",
                                                                s.seats, rules))
        preview = views.deal_preview(s, parse_deal_line(line, s.seats, rules))
        board = views.board(ledger, s)
        undone = views.undone_view(ledger, book.undo(ledger, ledger.journal.session(s.id)))
        del fixed
        paid = record_payment(ledger, "Dan", "陳大文", "21", None, s.id, None)
        shown_board = board.to_dict()
        shown_board["rules"]["description"] = "…in the request's language…"
        found = {
            "SESSION": views.session_card(ledger.journal.session(s.id)).to_dict(),
            "TURN": first.to_dict()["next"],
            "FACT": offered_facts(rules)[-1].to_dict(),
            "DEAL": board.to_dict()["deals"][0],
            "SCORE": first.to_dict()["players"][0],
            "PREVIEW": preview.to_dict(),
            "UNDO": board.to_dict()["undo"],
            "AFTER": first.to_dict(),
            "UNDONE": undone.to_dict(),
            "BOARD": shown_board,
            "PAYMENT": paid.to_dict(),
        }
    return masked(found)  # type: ignore[no-any-return]


# Where one piece holds another: shown by its name.
INSIDE = {
    "SESSION": {"rule_set": "{…the frozen rules…}"},
    "PREVIEW": {"facts": "{…}", "players": "[SCORE, …]"},
    "DEAL": {"facts": "{…}"},
    "AFTER": {"facts": "{…}", "players": "[SCORE, …]", "standings": "STANDINGS", "next": "TURN"},
    "UNDONE": {"after": "AFTER or null"},
    "BOARD": {"session": "SESSION", "standings": "STANDINGS",
              "next": "TURN", "facts": "[FACT, …]", "deals": "[DEAL, …]", "undo": "UNDO or null"},
}


def pieces() -> list[str]:
    out = ["```text"]
    for name, value in records().items():
        value = {k: Piece(INSIDE[name][k]) if INSIDE.get(name, {}).get(k) else v
                 for k, v in value.items()}
        out.extend(wrapped(name, value))
    out.append("```")
    return out


def block() -> str:
    return "\n".join([BEGIN, "", "### Reads", "", *table(False), "",
                      "### Writes (scorekeeper, each with its `Idempotency-Key`)", "",
                      *table(True), "", "The pieces, each a view record's `to_dict()` "
                      "(`STANDINGS` is `bigtwo standings --json`'s):", "", *pieces(), "", END])


def doc(text: str) -> str:
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + block() + text[end:]


def main(argv: list[str]) -> int:
    wanted = {JS: js(), DOC: doc(DOC.read_text("utf-8"))}
    stale = [p for p, text in wanted.items() if p.read_text("utf-8") != text] if JS.exists() else [JS]
    if "--check" in argv:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is stale: run python scripts/make_ops.py")
        return 1 if stale else 0
    for p, text in wanted.items():
        p.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
