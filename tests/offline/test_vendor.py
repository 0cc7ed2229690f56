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


def test_a_changed_file_is_found(tmp_path, monkeypatch):
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
    monkeypatch.setattr(vendor, "ROOT", tmp_path)
    (copy / "pyodide" / "pyodide.mjs").write_text("export {}")
    (copy / "wheels" / "click-8.5.1-py3-none-any.whl").unlink()
    problems = vendor.check()
    assert any("pyodide.mjs differs" in p for p in problems)
    assert any("click-8.5.1-py3-none-any.whl is missing" in p for p in problems)


def test_the_pinned_pyodide_is_a_314_release():
    assert _script().PYODIDE_VERSION.startswith("314.")
