"""The wheels the phone's worker imports from as they are (ledger/web/offline.py,
WHOLE_WHEELS: tzdata, ~200 ms of every start to unpack) still work where it runs:
Pyodide, here under Node as scripts/pyodide_tests.py runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ledger.web import offline

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "ledger" / "web" / "static" / "vendor" / "pyodide"
# What engine-worker-thread.js does with a wheel kept whole: written to /wheels, put on
# sys.path; then a zone read from it as the phone's Python would (ledger/book/clock.py).
SCRIPT = """
import { loadPyodide } from %(pyodide)s;
import { readFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: %(index)s });
py.FS.mkdirTree("/wheels");
const path = "/wheels/" + %(name)s;
py.FS.writeFile(path, readFileSync(%(wheel)s));
py.runPython(`import sys; sys.path.extend(${JSON.stringify([path])})`);
console.log(py.runPython(`
import tzdata
from datetime import UTC, datetime
from zoneinfo import ZoneInfo
datetime(2026, 12, 3, tzinfo=UTC).astimezone(ZoneInfo("Asia/Kathmandu")).isoformat() + " " + tzdata.__file__
`));
"""


def test_the_site_keeps_tzdata_whole_and_unpacks_the_other_wheels() -> None:
    files = offline.site()
    engine = json.loads(files["static/engine.json"])
    vendored = sorted(rel.removeprefix("static/") for rel in files if rel.endswith(".whl"))
    assert [w.rsplit("/", 1)[-1].split("-")[0] for w in engine["whole"]] == ["tzdata"]
    assert sorted(engine["wheels"] + engine["whole"]) == vendored
    assert not set(engine["wheels"]) & set(engine["whole"])


def test_a_zone_is_read_from_the_tzdata_wheel_kept_whole_in_pyodide(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is missing: .ci/run installs nodejs")
        pytest.skip("needs node (apt-get install nodejs)")
    engine = json.loads(offline.site()["static/engine.json"])
    (wheel,) = engine["whole"]
    script = tmp_path / "tz.mjs"
    script.write_text(SCRIPT % {
        "pyodide": json.dumps((PYODIDE / "pyodide.mjs").as_uri()),
        "index": json.dumps(str(PYODIDE) + "/"),
        "name": json.dumps(wheel.rsplit("/", 1)[-1]),
        "wheel": json.dumps(str(ROOT / "ledger" / "web" / "static" / wheel)),
    }, encoding="utf-8")
    done = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2026-12-03T05:45:00+05:45",
                                   "/wheels/" + wheel.rsplit("/", 1)[-1] + "/tzdata/__init__.py"]
