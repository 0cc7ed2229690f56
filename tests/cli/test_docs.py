"""The documentation that is generated from the code is current."""

from __future__ import annotations

import importlib.util

from helpers import ROOT


def test_cli_reference_is_current() -> None:
    spec = importlib.util.spec_from_file_location("make_cli_docs", ROOT / "scripts" / "make_cli_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "docs" / "cli.md").read_text() == module.render(), (
        "docs/cli.md is stale: run python scripts/make_cli_docs.py"
    )


def test_readme_links_exist() -> None:
    text = (ROOT / "README.md").read_text()
    for part in text.split("](")[1:]:
        target = part.split(")", 1)[0]
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
