"""The docs stand alone: every repository file they name exists, every link lands, and
nothing points at files outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import ROOT

TOP = ("ledger", "docs", "scripts", "benchmarks", "tests", "sample_sessions", ".ci")
# A repository path as prose names it: `ledger/core/rules.py`, docs/plays.md, tests/cli/ …
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(re.escape(t) for t in TOP) + r")/[\w./-]*)")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _texts() -> list[Path]:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return [*docs, *sorted((ROOT / "ledger").rglob("*.py"))]


def named_paths(text: str) -> list[str]:
    """Repository paths named in ``text``, trailing punctuation dropped.

    >>> named_paths("see `ledger/core/rules.py`, docs/plays.md. and tests/…")
    ['ledger/core/rules.py', 'docs/plays.md', 'tests/']
    """
    return [m.rstrip(".") for m in PATH.findall(text)]


def slug(heading: str) -> str:
    """A Markdown heading's anchor, as GitHub makes it.

    >>> slug("Reading a loser's hand")
    'reading-a-losers-hand'
    >>> slug("`bigtwo cut CARD` — who receives the first card")
    'bigtwo-cut-card--who-receives-the-first-card'
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


@pytest.mark.parametrize("path", _texts(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_named_file_exists(path: Path) -> None:
    missing = sorted({p for p in named_paths(path.read_text(encoding="utf-8")) if not (ROOT / p).exists()})
    assert not missing, f"{path.relative_to(ROOT)} names files that do not exist: {', '.join(missing)}"


@pytest.mark.parametrize("path", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_lands(path: Path) -> None:
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in anchors(dest)):
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)}: links that land nowhere: {', '.join(broken)}"


FOREIGN = re.compile(r"SCORING\.md|PLAYS\.md|\bseeds?[ /]0\d\d\b|\bseeds/|/work/")
"""Names of files that are not in the repository (the project's private notes), or this
machine's folders: a reader of the repository cannot open them."""


TEXT = {".py", ".md", ".toml", ".txt", ".cfg", ""}


def test_no_file_names_what_is_not_in_the_repository() -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    this = Path(__file__).resolve().relative_to(ROOT).as_posix()
    offenders = []
    for name in files:
        path = ROOT / name
        if name == this or path.suffix not in TEXT or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if FOREIGN.search(line):
                offenders.append(f"{name}:{number}: {line.strip()}")
    assert not offenders, "cite sources by their public name instead:\n" + "\n".join(offenders)


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    assert named_paths("moved to ledger/storage/nowhere.py") == ["ledger/storage/nowhere.py"]
    assert not (ROOT / "ledger/storage/nowhere.py").exists()
    assert FOREIGN.search("classic (seed 000)") and FOREIGN.search("see SCORING.md §7")
    assert not FOREIGN.search("a seeded random generator (seed 7)")
    page = tmp_path / "page.md"
    page.write_text("# Who deals next\n")
    assert "who-deals-next" in anchors(page)
