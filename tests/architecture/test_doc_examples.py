"""Every `$ bigtwo …` transcript in README.md and docs/*.md prints what the doc shows.

The rules (which blocks run, `$ cat FILE`, `<!-- no-run -->`, masking) live in
scripts/update_doc_examples.py, which also rewrites the shown outputs after a change.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("update_doc_examples",
                                               ROOT / "scripts" / "update_doc_examples.py")
assert _spec and _spec.loader
docex = importlib.util.module_from_spec(_spec)
sys.modules["update_doc_examples"] = docex
_spec.loader.exec_module(docex)

FILES = [p for p in docex.doc_files() if docex.examples(p)]


def test_the_tour_and_docs_have_examples() -> None:
    names = {p.name for p in FILES}
    assert "README.md" in names
    assert len(docex.examples(ROOT / "README.md")) >= 15


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_examples_print_what_is_shown(path: Path) -> None:
    results = docex.run_file(path)
    bad = [r for r in results if r.problem]
    rel = path.relative_to(ROOT)
    assert not bad, (
        f"{len(bad)} of {len(results)} examples in {rel} drifted; if the new output is right, "
        f"run: python scripts/update_doc_examples.py {rel}\n"
        + "\n".join(f"{rel}:{r.example.line}: $ {r.example.command}\n{r.problem}" for r in bad)
    )


def test_masking_keeps_columns_and_hides_volatile_values() -> None:
    line = "1    1       deal     Ann=0 Ben=3   amended    2026-11-29 21:11:41"
    masked = docex.mask(line)
    assert len(masked) == len(line)
    assert "2026" not in masked and "21:11" not in masked
    assert docex.mask("wrote /tmp/bigtwo-doc-x1/ledger.db") == "wrote <tmp>"


def test_a_drifted_output_is_reported(tmp_path: Path) -> None:
    doc = tmp_path / "drift.md"
    doc.write_text("```text\n$ bigtwo compare \"3S\" \"4S\"   # singles\nno: nonsense\n```\n"
                   "<!-- no-run -->\n```text\n$ bigtwo serve\nnever run\n```\n", encoding="utf-8")
    results = docex.run_file(doc)
    assert len(results) == 1
    assert results[0].problem.startswith("output differs")
    assert docex.rewrite(doc, results)
    assert docex.run_file(doc)[0].problem == ""
    assert "never run" in doc.read_text(encoding="utf-8")
