"""The vendored Pyodide and wheels are exactly the pinned releases (scripts/vendor_pyodide.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("vendor_pyodide", ROOT / "scripts" / "vendor_pyodide.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["vendor_pyodide"] = module
    spec.loader.exec_module(module)
    return module


def test_committed_files_match_the_pins():
    assert _script().check() == []


def _copy(tmp_path, monkeypatch):
    """The script looking at a copy of the vendored files (which the test may change)."""
    vendor = _script()
    copy = tmp_path / "vendor"
    for path in vendor.VENDOR.rglob("*"):
        if path.is_file():
            target = copy / path.relative_to(vendor.VENDOR)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    monkeypatch.setattr(vendor, "MANIFEST", copy / "vendor.json")
    monkeypatch.setattr(vendor, "PYODIDE_DIR", copy / "pyodide")
    monkeypatch.setattr(vendor, "WHEELS_DIR", copy / "wheels")
    monkeypatch.setattr(vendor, "COMPILED", copy / "compiled" / "python_stdlib.zip")
    monkeypatch.setattr(vendor, "ROOT", tmp_path)
    return vendor, copy


def test_a_changed_file_is_found(tmp_path, monkeypatch):
    vendor, copy = _copy(tmp_path, monkeypatch)
    monkeypatch.setattr(vendor, "check_compiled", lambda recorded: [])  # its own tests below
    (copy / "pyodide" / "pyodide.mjs").write_text("export {}")
    (copy / "wheels" / "click-8.5.1-py3-none-any.whl").unlink()
    problems = vendor.check()
    assert any("pyodide.mjs differs" in p for p in problems)
    assert any("click-8.5.1-py3-none-any.whl is missing" in p for p in problems)


def test_the_pinned_pyodide_is_a_314_release():
    assert _script().PYODIDE_VERSION.startswith("314.")


def test_the_source_hash_is_cpythons():
    """The check's SipHash-1-3 agrees with this Python's own source hash (keyed by its
    magic number), so it can check the bytecode of Pyodide's other Python version."""
    from importlib.util import MAGIC_NUMBER, source_hash

    vendor = _script()
    for source in (b"", b"x = 1\n", "名 = '陳大文'\n".encode(), bytes(range(256)) * 3):
        assert vendor.source_hash(MAGIC_NUMBER, source) == source_hash(source)


def _rewrite(zip_path, change):
    """``zip_path`` written again with ``change(name, data)`` for each member's bytes."""
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(zip_path) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            new.writestr(info, change(info.filename, old.read(info)))
    zip_path.write_bytes(out.getvalue())


def test_bytecode_not_made_from_the_releases_source_is_found(tmp_path, monkeypatch):
    """A .pyc whose code was changed (a crafted stdlib) fails the check even where the
    recorded sha256 is updated to match it: its source hash is not the release's."""
    import hashlib
    import json
    import zipfile

    vendor, copy = _copy(tmp_path, monkeypatch)
    compiled = copy / "compiled" / "python_stdlib.zip"
    with zipfile.ZipFile(compiled) as z:  # the first module the check reaches
        first = next(n for n in z.namelist() if n.endswith(".pyc"))
    _rewrite(compiled, lambda name, data: data[:8] + bytes(8) + data[16:] if name == first else data)
    record = json.loads((copy / "vendor.json").read_text())
    record["compiled"]["python_stdlib.zip"] = hashlib.sha256(compiled.read_bytes()).hexdigest()
    assert vendor.check_compiled(record) == [
        f"{compiled.relative_to(tmp_path)}: {first} is not compiled from the release's {first[:-1]}"]


def test_a_compiled_stdlib_not_the_recorded_one_is_found(tmp_path, monkeypatch):
    import json

    vendor, copy = _copy(tmp_path, monkeypatch)
    compiled = copy / "compiled" / "python_stdlib.zip"
    record = json.loads((copy / "vendor.json").read_text())
    compiled.write_bytes(compiled.read_bytes() + b"\0")
    assert any("is not the one vendor.json records" in p for p in vendor.check_compiled(record))
    compiled.unlink()
    assert any("compiled/python_stdlib.zip is missing" in p for p in vendor.check_compiled(record))


def test_the_app_loads_the_compiled_stdlib_and_the_site_leaves_the_release_out():
    from ledger.web import offline

    files = offline.site()
    assert "static/vendor/compiled/python_stdlib.zip" in files
    assert "static/vendor/pyodide/python_stdlib.zip" not in files
    worker = files["static/app/engine-worker-thread.js"].decode()
    assert 'stdLibURL: new URL("vendor/compiled/python_stdlib.zip", STATIC)' in worker
