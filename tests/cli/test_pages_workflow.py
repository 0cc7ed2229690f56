"""The GitHub Pages workflow (.github/workflows/pages.yml): valid YAML, official actions
pinned by version, run on every push to main, and its build step a command anyone can
run — run here, into a folder, as the workflow does."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def _workflow() -> dict[Any, Any]:
    import yaml

    found = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(found, dict)
    return found


def _steps(flow: dict[Any, Any]) -> list[dict[str, Any]]:
    return [step for job in flow["jobs"].values() for step in job["steps"]]


def test_the_workflow_builds_on_every_push_to_main_and_deploys_to_pages() -> None:
    flow = _workflow()
    on = flow.get("on", flow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert on["push"]["branches"] == ["main"]
    assert flow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    uses = [step["uses"] for step in _steps(flow) if "uses" in step]
    for action in uses:
        assert re.fullmatch(r"actions/[a-z-]+@v\d+", action), action  # official, pinned by version
    names = [u.split("@")[0] for u in uses]
    assert names.index("actions/upload-pages-artifact") < names.index("actions/deploy-pages")
    assert flow["jobs"]["deploy"]["needs"] == "build"
    assert flow["jobs"]["deploy"]["environment"]["name"] == "github-pages"


def test_the_build_step_is_bigtwo_app_build_and_it_runs(tmp_path: Path) -> None:
    flow = _workflow()
    runs = [step["run"] for step in _steps(flow) if "run" in step]
    build = [r for r in runs if r.startswith("bigtwo app build")]
    assert len(build) == 1, runs
    words = shlex.split(build[0])
    folder = words[3]
    upload = [s for s in _steps(flow) if s.get("uses", "").startswith("actions/upload-pages-artifact")]
    assert upload[0]["with"]["path"] == folder  # what is built is what is published
    bigtwo = Path(sys.executable).with_name("bigtwo")
    # The address Pages publishes at, from the configure step, for the app's QR code.
    assert words[4:] == ["--url", "${{ steps.pages.outputs.base_url }}/"], words
    steps = _steps(flow)
    configure = next(i for i, st in enumerate(steps)
                     if st.get("uses", "").startswith("actions/configure-pages"))
    assert steps[configure]["id"] == "pages"
    assert configure < next(i for i, st in enumerate(steps) if st.get("run") == build[0])
    url = "https://user.github.io/bigtwo-ledger/"
    done = subprocess.run([str(bigtwo), *words[1:3], str(tmp_path / folder), "--url", url],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    site = tmp_path / folder
    for name in ("index.html", "sw.js", "static/engine.zip", "static/first.json", "manifest.en.webmanifest"):
        assert (site / name).is_file(), name
    first = json.loads((site / "static/first.json").read_text(encoding="utf-8"))
    assert set(first["langs"]) == {"en", "zh_Hant", "zh_Hans"}
    assert "classic" in first["langs"]["zh_Hant"]["facts"]
    address = json.loads((site / "static/app-address.json").read_text(encoding="utf-8"))
    assert address == {"url": url, "qr": "app-qr.svg"}
    assert (site / "static/app-qr.svg").read_text(encoding="utf-8").startswith("<svg")
    assert "static/app-qr.svg" in (site / "sw.js").read_text(encoding="utf-8")  # kept offline too


def test_a_url_that_is_not_an_address_is_refused(tmp_path: Path) -> None:
    bigtwo = Path(sys.executable).with_name("bigtwo")
    done = subprocess.run([str(bigtwo), "app", "build", str(tmp_path / "site"), "--url", "user.github.io"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and done.stderr.startswith("error: ") and "--url" in done.stderr
    assert not (tmp_path / "site").exists()
