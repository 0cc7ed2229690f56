"""The layers of ledger/ hold: every import points down (rule and reader in scripts/layers.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from helpers import ROOT


def _load_layers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layers", ROOT / "scripts" / "layers.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("layers", module)  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


layers = _load_layers()


def test_no_import_breaks_the_layer_rule() -> None:
    problems = layers.check(ROOT)
    assert not problems, "imports that break the layer rule (docs/architecture.md):\n" + "\n".join(problems)


def test_every_layer_package_is_known_and_documented() -> None:
    packages = {p.name for p in (ROOT / "ledger").iterdir() if (p / "__init__.py").exists()}
    assert packages <= set(layers.ORDER), packages - set(layers.ORDER)
    for name in packages:
        doc = (ROOT / "ledger" / name / "__init__.py").read_text()
        assert doc.startswith('"""'), f"ledger/{name}/__init__.py: say what the layer is and may import"


def test_reader_sees_the_real_graph() -> None:
    # Known facts of the tree, so a reader that finds nothing cannot pass the rule test.
    imports = layers.read_graph(ROOT)
    targets = {(i.module, i.target, i.at_import) for i in imports}
    assert ("ledger.storage.store", "sqlite3", True) in targets
    assert any(m == "ledger.present.text" and t == "tabulate" and not top for m, t, top in targets)
    assert any(m == "ledger.cli.commands" and t == "ledger.cli.commands" for m, t, _ in targets)
    assert ("book", "storage") in layers.layer_edges(ROOT)


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name in ("core", "storage", "book", "formats", "present", "engine", "bot", "web", "cli"):
        (tmp_path / "ledger" / name).mkdir(parents=True, exist_ok=True)
        (tmp_path / "ledger" / name / "__init__.py").write_text('"""A layer."""\n')
    (tmp_path / "ledger" / "__init__.py").write_text('"""Root."""\n')
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    return tmp_path


@pytest.mark.parametrize(("rel", "source", "line", "rule"), [
    ("ledger/core/x.py", "import os\n\ndef f():\n    from ledger.storage import store\n", 4,
     "ledger/core imports only itself"),
    ("ledger/core/x.py", "from ..book import actions\n", 1, "ledger/core imports only itself"),
    ("ledger/core/x.py", "import tabulate\n", 1, "only ledger/present imports tabulate"),
    ("ledger/book/x.py", "def f():\n    import sqlite3\n", 2, "only ledger/storage imports sqlite3"),
    ("ledger/book/x.py", "from ledger import formats\n", 1,
     "ledger/book may import only book, storage, core"),
    ("ledger/storage/x.py", "from ledger.present.text import table\n", 1,
     "ledger/storage may import only storage, core"),
    ("ledger/storage/x.py",
     "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ledger.book import x\n", 3,
     "ledger/storage may import only storage, core"),
    ("ledger/formats/x.py", "from ledger.present import text\n", 1,
     "ledger/formats may import only formats, book, storage, core"),
    ("ledger/present/x.py", "import importlib\nimportlib.import_module('ledger.cli.app')\n", 2,
     "ledger/present may import only present, formats, book, storage, core"),
    ("ledger/present/x.py", "from matplotlib import pyplot\n", 1,
     "matplotlib is imported only inside the functions that use it"),
    ("ledger/web/x.py", "class A:\n    import typer\n", 2, "only ledger/cli imports typer"),
    ("ledger/web/x.py", "from ..cli import app\n", 1, "ledger/web may import only web, engine, present"),
    ("ledger/web/x.py", "from ledger.bot import table\n", 1,  # two front ends side by side
     "ledger/web may import only web, engine, present"),
    ("ledger/bot/x.py", "from ledger.web import app\n", 1, "ledger/bot may import only bot, engine"),
    ("ledger/bot/x.py", "from ledger.cli import app\n", 1, "ledger/bot may import only bot, engine"),
    ("ledger/engine/x.py", "from ledger.bot import table\n", 1, "ledger/engine may import only engine"),
    ("ledger/bot/x.py", "import telegram\n", 1, "telegram is imported only inside the functions"),
    ("ledger/web/x.py", "def f():\n    import telegram\n", 2, "only ledger/bot imports telegram"),
    ("ledger/cli/x.py", "def f():\n    from ledger.bot import table\n", None, None),
    ("ledger/cli/x.py", "import click.testing\n", None, None),
    ("ledger/cli/x.py", "from ledger.web import x\nfrom ledger.core import y\n", None, None),
    ("ledger/present/x.py", "def f():\n    import matplotlib.pyplot\n", None, None),
    ("ledger/x.py", "", 1, "module outside the layers"),
    ("ledger/__init__.py", "from ledger.core import cards\n", 1,
     "ledger/__init__.py imports nothing of ours"),
])
def test_the_rule_names_file_line_and_rule(tmp_path: Path, rel: str, source: str,
                                          line: int | None, rule: str | None) -> None:
    problems = layers.check(_tree(tmp_path, {rel: source}))
    if rule is None:
        assert problems == []
    else:
        assert len(problems) == 1, problems
        assert problems[0].startswith(f"{rel}:{line}: "), problems
        assert rule in problems[0], problems


def test_no_circle_and_no_private_import_in_the_real_tree() -> None:
    imports = layers.read_graph(ROOT)
    known = set(layers.modules(ROOT))
    assert layers.circles(imports, known) == []
    assert layers.private_imports(imports) == []
    # Known edges inside packages, so a reader that finds none cannot pass: module level,
    # inside a function, and `from package import module`.
    edges = layers.module_edges(imports, known)
    assert ("ledger.book.undo", "ledger.book.writes") in edges
    assert ("ledger.formats.sheet_import", "ledger.formats.sheet_reader") in edges
    assert ("ledger.book.actions", "ledger.book.undo") in edges  # inside a function
    assert ("ledger.formats.sheet_import", "ledger.book.actions") not in edges  # another layer


def _one_problem(root: Path) -> str:
    problems = layers.check(root)
    assert len(problems) == 1, problems
    return str(problems[0])


def test_a_planted_circle_fails_with_each_import_in_it(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "ledger/book/a.py": "from ledger.book.b import shared\n",
        "ledger/book/b.py": '"""B."""\n\n\ndef f():\n    from ledger.book import a\n    return a\n',
    })
    problem = _one_problem(root)
    assert problem.startswith("ledger/book/a.py:1: import circle inside ledger/book: "
                              "book.a → book.b → book.a"), problem
    assert "    ledger/book/a.py:1: ledger.book.a imports ledger.book.b" in problem
    assert "    ledger/book/b.py:5: ledger.book.b imports ledger.book.a" in problem
    assert "a circle means a missing module" in problem


def test_a_longer_circle_through_a_package_names_every_module(tmp_path: Path) -> None:
    (tmp_path / "ledger" / "core" / "sub").mkdir(parents=True)
    root = _tree(tmp_path, {
        "ledger/core/sub/__init__.py": "from .c import x\n",
        "ledger/core/sub/c.py": "import ledger.core.d\n",
        "ledger/core/d.py": "from ledger.core import sub\n",
        "ledger/core/e.py": "from ledger.core.d import y\n",  # imports into the circle, not in it
    })
    problem = _one_problem(root)
    assert "import circle inside ledger/core: core.d → core.sub → core.sub.c → core.d (3 modules" \
        in problem, problem
    for edge in ("ledger/core/d.py:1: ledger.core.d imports ledger.core.sub\n",
                 "ledger/core/sub/__init__.py:1: ledger.core.sub imports ledger.core.sub.c\n",
                 "ledger/core/sub/c.py:1: ledger.core.sub.c imports ledger.core.d"):
        assert edge in problem + "\n", problem
    assert "core/e.py" not in problem


@pytest.mark.parametrize("files", [
    # one way only
    {"ledger/book/a.py": "from ledger.book.b import x\n", "ledger/book/b.py": "import os\n"},
    # the way back only for the type checker: a facade named in a signature
    {"ledger/storage/store.py": "def f():\n    from ledger.storage.bulk import Bulk\n",
     "ledger/storage/bulk.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                               "    from ledger.storage.store import Ledger\n"},
    # across layers it is the layer rule's to say (here: allowed one way)
    {"ledger/book/a.py": "from ledger.core.c import x\n", "ledger/core/c.py": "import os\n"},
])
def test_no_circle_is_no_problem(tmp_path: Path, files: dict[str, str]) -> None:
    assert layers.check(_tree(tmp_path, files)) == []


@pytest.mark.parametrize(("source", "name"), [
    ("from ledger.formats.y import public, _hidden\n", "_hidden"),
    ("from .y import _SheetScorer\n", "_SheetScorer"),
    ("def f():\n    from ledger.core.y import _run_of\n", "_run_of"),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ledger.formats.y import _T\n", "_T"),
])
def test_a_private_name_imported_from_another_module_fails(tmp_path: Path, source: str,
                                                           name: str) -> None:
    root = _tree(tmp_path, {"ledger/formats/x.py": source, "ledger/formats/y.py": "import os\n"})
    line = source.count("\n")
    problem = _one_problem(root)
    assert problem.startswith(f"ledger/formats/x.py:{line}: from "), problem
    assert f"import {name}: a private name is not imported from another module" in problem


@pytest.mark.parametrize("source", [
    "from ledger.core.i18n import _, N_\n",  # gettext's _ is no private name
    "from ledger.core.y import __version__\n",
    "from click import _compat\n",  # a third-party package's: not ours to police here
])
def test_public_and_dunder_names_pass(tmp_path: Path, source: str) -> None:
    rel = "ledger/cli/x.py" if "click" in source else "ledger/core/x.py"
    assert layers.check(_tree(tmp_path, {rel: source})) == []
