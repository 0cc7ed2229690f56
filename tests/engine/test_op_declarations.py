"""Each op declared once (ledger/engine/declare.py): the signature checks the arguments,
and the JavaScript op list and the docs' tables follow from it."""

from __future__ import annotations

import importlib.util
import re
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from ledger.book import actions as book
from ledger.core.errors import InputError, NotFound
from ledger.core.rules import load_preset
from ledger.engine import declare
from ledger.engine import dispatch as engine
from ledger.storage.store import Ledger, open_ledger

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "ledger" / "web" / "static" / "app"
LINE = "Ann=0 Ben=3 Cat=11 Dan=8"


def make_ops() -> Any:
    spec = importlib.util.spec_from_file_location("make_ops", ROOT / "scripts" / "make_ops.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def ledger(tmp_path: Path) -> Any:
    with open_ledger(tmp_path / "l.db") as opened:
        book.start_session(opened, ["Ann", "Ben", "Cat", "Dan"], load_preset("classic"),
                           Decimal("0.5"), "HKD", "Friday", False)
        yield opened


def test_ops_js_and_the_docs_follow_the_declarations() -> None:
    """ledger/web/static/app/ops.js and docs/serve.md's op tables and pieces are written
    from the declarations and real records: stale, this fails."""
    tool = make_ops()
    assert (APP / "ops.js").read_text("utf-8") == tool.js(), (
        "ops.js is stale: run python scripts/make_ops.py")
    doc = (ROOT / "docs" / "serve.md").read_text("utf-8")
    assert doc == tool.doc(doc), "docs/serve.md is stale: run python scripts/make_ops.py"
    for op in engine.OPS:
        assert f'"name": "{op}"' in tool.js() and f"| `{op}` |" in doc


def test_the_app_keeps_no_op_list_of_its_own() -> None:
    """engine.js, engine-hub.js and engine-worker.js make one method per op of ops.js:
    none of them names an op's route or defines an op's method by hand."""
    for name in ("engine.js", "engine-hub.js", "engine-worker.js"):
        text = (APP / name).read_text("utf-8")
        for op in engine.OPS:
            method = re.sub(r"_(\w)", lambda m: m.group(1).upper(), op)
            assert f'"/api/{op}"' not in text, (name, op)
            assert not re.search(rf"^\s*{method}\s*[:(]", text, re.M), (name, op)
        if name != "engine.js":
            assert "opMethods(" in text


def test_the_signature_is_the_argument_check(ledger: Ledger) -> None:
    call = lambda op, **args: engine.call(ledger, op, args)  # noqa: E731
    with pytest.raises(InputError, match="board does not take sesion; it takes: session"):
        call("board", sesion=1)
    with pytest.raises(InputError, match='missing "session" in the request: every table'):
        call("board")
    with pytest.raises(InputError, match='"session" must be a whole number'):
        call("board", session="1")
    with pytest.raises(InputError, match='"session" must be a whole number'):
        call("board", session=True)
    with pytest.raises(NotFound):
        call("board", session=9)
    with pytest.raises(InputError, match='"line" is longer than 2000 characters'):
        call("preview", session=1, line="x" * 2001)
    with pytest.raises(InputError, match='"line" must be a string'):
        call("preview", session=1, line=3)
    with pytest.raises(InputError, match='"round" is longer than 20 characters'):
        call("settle", session=1, round="1" * 21)
    with pytest.raises(InputError, match='"teams" must be true or false'):
        call("start", key=str(uuid.uuid4()), players="A,B,C,D", teams="yes")
    with pytest.raises(InputError, match='"house" must be an object'):
        call("start", key=str(uuid.uuid4()), players="A,B,C,D", house=[1])
    with pytest.raises(InputError, match='"players" must be a list of names'):
        call("start", key=str(uuid.uuid4()), players=[1, 2])
    with pytest.raises(InputError, match='"deal" must be a whole number'):
        call("void", key=str(uuid.uuid4()), session=1)
    # Defaults and conversions: a text "true" is true, a text of names is split.
    started = call("start", key=str(uuid.uuid4()), players="Eve，Fay,Gus,Hal", teams="false")
    assert started["players"] == ["Eve", "Fay", "Gus", "Hal"] and started["teams"] is False
    assert started["rules"] == "classic" and started["stake"] == "1"


def test_a_writes_key_is_checked_first_and_read_once(ledger: Ledger,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError, match="idempotency key must be 8 to 100"):
        engine.call(ledger, "record", {"session": 999, "line": LINE, "key": "no!"})
    with pytest.raises(InputError, match='missing "key"'):
        engine.call(ledger, "record", {"session": 1, "line": LINE})
    reads: list[str] = []
    real = declare.Param.read

    def counted(self: declare.Param, opened: Ledger, args: Any) -> Any:
        reads.append(self.name)
        return real(self, opened, args)

    monkeypatch.setattr(declare.Param, "read", counted)
    key = str(uuid.uuid4()).upper()
    answer = engine.call(ledger, "record", {"session": 1, "line": LINE, "key": key})
    assert reads.count("key") == 1 and reads[0] == "key"
    assert answer["entry"] == key.lower()


def test_a_declaration_that_cannot_be_served_is_refused() -> None:
    def keyless(ledger: Ledger, session: int) -> None:
        """A write with no idempotency key."""

    def keyed(ledger: Ledger, key: str) -> None:
        """A read that takes a key."""

    with pytest.raises(TypeError, match="a write takes key"):
        declare.op(write=True)(keyless)
    with pytest.raises(TypeError, match="a write takes key"):
        declare.op()(keyed)

    def odd(ledger: Ledger, when: float) -> None:
        """An argument JSON cannot carry exactly."""

    with pytest.raises(TypeError, match="cannot be"):
        declare.op()(odd)
    with pytest.raises(ValueError, match="declared twice"):
        declare.op()(engine.OPS["board"].func)
    assert not {"odd", "keyless", "keyed"} & set(engine.OPS)


def test_the_app_has_one_method_per_declared_op() -> None:
    """engine.js (run by Node, no browser) makes a method of every op of ops.js: a read
    sends its arguments by their declared names in order, a write its key and object."""
    import json
    import os
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is needed (Debian's nodejs)")
        pytest.skip("node is not installed")
    script = """
const m = await import(process.argv[1]);
const calls = {};
const methods = m.opMethods((op, args) => { calls[op] = args; },
  (op, key, args) => { calls[op] = [key, args]; });
for (const op of m.OPS) {
  const method = methods[m.camel(op.name)];
  if (op.write) method("k-" + op.name, { given: 1 });
  else method(...op.args.map((a, i) => a.name + i));
}
console.log(JSON.stringify({ calls, reads: m.READS, writes: m.WRITES }));
"""
    out = subprocess.run([node, "--input-type=module", "-e", script, (APP / "engine.js").as_uri()],
                         capture_output=True, text=True, check=True, timeout=60)
    found = json.loads(out.stdout)
    for op in engine.OPS.values():
        names = [p.name for p in op.params if p.kind != "key"]
        expected = (["k-" + op.name, {"given": 1}] if op.write
                    else {n: f"{n}{i}" for i, n in enumerate(names)})
        assert found["calls"][op.name] == expected, op.name
    camel = lambda name: re.sub(r"_(\w)", lambda m: m.group(1).upper(), name)  # noqa: E731
    assert found["writes"] == [camel(o) for o, d in engine.OPS.items() if d.write]
    assert found["reads"] == ["words", "access", *[camel(o) for o, d in engine.OPS.items() if not d.write]]
