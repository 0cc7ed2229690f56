"""The layers of ``ledger/``, the import rule between them, and the import graph read from the code.

    python scripts/layers.py check   # every import that breaks the rule (exit 1 if any)
    python scripts/layers.py graph   # which layer imports which, with counts
    python scripts/layers.py draw    # the picture in docs/img/architecture.png

The rule: a module imports only modules of its own layer and of the layers below it in
:data:`LAYERS` (top to bottom).  Third-party packages that tie a layer to one technology
are allowed in one layer each (:data:`ONLY_IN`).  Imports are read with :mod:`ast` from
every ``.py`` file, at module level and inside functions and ``if TYPE_CHECKING:`` blocks
alike, plus ``importlib.import_module("ledger…")`` calls with a literal name.

Inside a layer package (subpackages included) the modules import each other in one
direction only: :func:`circles` finds every import circle among them, counting the imports
that run (module level and inside functions; an import under ``if TYPE_CHECKING:`` never
runs, so a type named for a signature, such as ``Ledger``, makes no edge), and names each
import in it with its file and line.  A circle means a missing module: the part both
sides need gets a public home of its own.  And no module imports a private name (``_x``)
of another of ours (:func:`private_imports`).  The test ``tests/architecture/test_layers.py``
runs :func:`check` on the real tree.
"""

from __future__ import annotations

import argparse
import ast
import sys
import textwrap
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "ledger"

LAYERS: tuple[tuple[str, str], ...] = (
    ("cli", "the bigtwo command line (typer/click)"),
    ("web", "bigtwo serve: the hub (server, protocol, auth, feed) and the phone app's files"),
    ("bot", "bigtwo bot telegram: the chat bot, one more front end over the engine"),
    ("engine", "the ops every front end calls (hub, phone worker, bot), answering view records"),
    ("present", "text tables (tabulate) and plots (matplotlib)"),
    ("formats", "files in and out: export/import, score sheets, samples"),
    ("book", "use cases as plain data: actions, reports, stats, ratings, doctor"),
    ("storage", "the SQLite ledger file (sqlite3/sqlite_utils)"),
    ("core", "pure: cards, plays, rules, scoring, settlement, dealer, deal grammar"),
)
"""Every layer package under ``ledger/``, top to bottom, with what it holds."""
ORDER: dict[str, int] = {name: rank for rank, (name, _) in enumerate(LAYERS)}
APART: dict[str, frozenset[str]] = {"web": frozenset({"bot"})}
"""Front ends side by side: the hub never imports the bot (nor the bot the hub, which is above it)."""

ONLY_IN: dict[str, str] = {
    "sqlite3": "storage", "sqlite_utils": "storage",
    "typer": "cli", "click": "cli",
    "tabulate": "present", "matplotlib": "present",
    "starlette": "web", "uvicorn": "web", "httptools": "web", "jinja2": "web", "segno": "present",
    "telegram": "bot",
}
"""Third-party (and stdlib) top-level packages that only one layer may import."""
LAZY = ("tabulate", "matplotlib", "segno", "telegram")
"""Heavy packages imported only inside the functions that use them, never at module level."""
ENTRY_POINTS = ("__main__",)
"""Modules directly in ``ledger/`` besides ``__init__``: they start the CLI and may import anything."""


@dataclass(frozen=True)
class Import:
    """One import statement's target, where it is, and whether it runs at module level."""

    path: Path  # the importing file, relative to the repository root
    line: int
    module: str  # the importing module, dotted
    target: str  # the imported module, dotted (``ledger.core.cards``, ``sqlite3``)
    at_import: bool  # runs when the module is imported (False inside a function or TYPE_CHECKING)
    names: tuple[str, ...] = ()  # the names of ``from target import a, b`` (empty for ``import target``)
    typing_only: bool = False  # under ``if TYPE_CHECKING:``: read by the type checker, never run

    @property
    def where(self) -> str:
        return f"{self.path.as_posix()}:{self.line}"


def layer_of(module: str) -> str | None:
    """The layer of a dotted ``ledger`` module name: ``ledger.core.cards`` -> ``core``; None for the root."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != PACKAGE or parts[1] in ENTRY_POINTS:
        return None
    return parts[1]


def module_name(path: Path, root: Path) -> str:
    """``ledger/core/cards.py`` -> ``ledger.core.cards``; a package's ``__init__.py`` -> the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _import_module_name(node: ast.Call) -> str | None:
    """The literal (or literal-prefix) name passed to ``importlib.import_module``."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name != "import_module" or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values:
        first = arg.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value.rstrip(".") or None
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def read_file(path: Path, root: Path) -> list[Import]:
    """Every import in one file, module-level and nested."""
    module = module_name(path, root)
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    rel = path.relative_to(root)
    found: list[Import] = []

    def visit(node: ast.AST, at_import: bool, typing_only: bool) -> None:
        targets: list[tuple[str, tuple[str, ...]]] = []
        if isinstance(node, ast.Import):
            targets = [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, is_package, node)
            names = tuple(alias.name for alias in node.names)
            # from ledger import book -> ledger.book
            targets = [(f"{PACKAGE}.{n}", ()) for n in names] if source == PACKAGE else [(source, names)]
        elif isinstance(node, ast.Call):
            name = _import_module_name(node)
            targets = [(name, ())] if name else []
        for target, names in targets:
            line = getattr(node, "lineno", 1)
            found.append(Import(rel, line, module, target, at_import, names, typing_only))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            at_import = False  # runs when called
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:  # never runs
                visit(child, False, True)
            for child in node.orelse:
                visit(child, at_import, typing_only)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, at_import, typing_only)

    visit(tree, True, False)
    return found


def read_graph(root: Path = ROOT) -> list[Import]:
    """Every import in every module of ``ledger/`` under ``root``."""
    imports: list[Import] = []
    for path in sorted((root / PACKAGE).rglob("*.py")):
        imports.extend(read_file(path, root))
    return imports


def modules(root: Path = ROOT) -> list[str]:
    """Every module of ``ledger/`` under ``root``, dotted."""
    return [module_name(p, root) for p in sorted((root / PACKAGE).rglob("*.py"))]


def rule_for(layer: str) -> str:
    below = [name for name, _ in LAYERS[ORDER[layer] + 1:] if name not in APART.get(layer, ())]
    allowed = ", ".join([layer, *below])
    return f"ledger/{layer} may import only {allowed}" if below else f"ledger/{layer} imports only itself"


def problem(imp: Import) -> str | None:
    """Why ``imp`` breaks the rule, or None when it is allowed."""
    source = layer_of(imp.module)
    top = imp.target.split(".")[0]
    if source is None:  # ledger/__init__.py or an entry point such as ledger/__main__.py
        leaf = imp.module.split(".")[-1] if "." in imp.module else "__init__"
        if top == PACKAGE and leaf == "__init__":
            return "ledger/__init__.py imports nothing of ours (importing any layer runs it first)"
        return None
    if source not in ORDER:
        return f"ledger/{source} is not a layer: every module lives in one of {', '.join(ORDER)}"
    if top == PACKAGE:
        target = layer_of(imp.target)
        if target is None or target == source:
            return None
        if target not in ORDER:
            return f"{imp.target} is not in a layer package"
        if ORDER[target] <= ORDER[source] or target in APART.get(source, ()):
            return f"{rule_for(source)} — not ledger/{target} (imports point down: {' → '.join(ORDER)})"
        return None
    owner = ONLY_IN.get(top)
    if owner is not None and owner != source:
        return f"only ledger/{owner} imports {top}"
    if top in LAZY and imp.at_import:
        return f"{top} is imported only inside the functions that use it, never at module level"
    return None


def is_private(name: str) -> bool:
    """``_rebuilt`` is private; ``_`` (gettext) and ``__version__`` are not."""
    return name.startswith("_") and name != "_" and not (name.startswith("__") and name.endswith("__"))


def private_imports(imports: list[Import]) -> list[str]:
    """One message per private name of ours imported from another module."""
    out = []
    for imp in imports:
        if imp.target.split(".")[0] != PACKAGE:
            continue
        for name in imp.names:
            if is_private(name):
                out.append(f"{imp.where}: from {imp.target} import {name}: a private name is not "
                           f"imported from another module (give the shared part a public name in "
                           f"the module where it belongs)")
    return out


def module_edges(imports: list[Import], known: set[str]) -> dict[tuple[str, str], list[Import]]:
    """The runtime imports between two modules of the same layer package, with the statements behind each.

    ``from ledger.book import undo`` is an edge to ``ledger.book.undo``; ``from ledger.book.undo import x``
    too.  Imports under ``if TYPE_CHECKING:`` never run and make no edge; imports inside functions do.
    """
    edges: dict[tuple[str, str], list[Import]] = {}
    for imp in imports:
        layer = layer_of(imp.module)
        if imp.typing_only or layer is None or imp.target.split(".")[0] != PACKAGE:
            continue
        subs = {f"{imp.target}.{name}" for name in imp.names} & known
        rest = [name for name in imp.names if f"{imp.target}.{name}" not in known]
        dests = subs | ({imp.target} if rest or not imp.names else set())
        for dest in sorted(dests):
            if dest in known and dest != imp.module and layer_of(dest) == layer:
                edges.setdefault((imp.module, dest), []).append(imp)
    return edges


def _strongly_connected(nodes: list[str], graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph``, each with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, []):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in nodes:
        if node not in index:
            visit(node)
    return sorted(found)


def _cycle(start: str, members: set[str], graph: dict[str, list[str]]) -> list[str]:
    """A shortest way from ``start`` back to itself through ``members``: ``[a, b, a]``."""
    came: dict[str, str] = {}
    queue = [start]
    for node in queue:
        for nxt in graph.get(node, []):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return [*reversed(path), start]
            if nxt in members and nxt not in came:
                came[nxt] = node
                queue.append(nxt)
    return [start]


def circles(imports: list[Import], known: set[str]) -> list[str]:
    """One message per import circle inside a layer package: its modules and every import between them."""
    edges = module_edges(imports, known)
    graph: dict[str, list[str]] = {}
    for source, dest in sorted(edges):
        graph.setdefault(source, []).append(dest)
    out = []
    for part in _strongly_connected(sorted(known), graph):
        members = set(part)
        inner = [(a, b) for a, b in sorted(edges) if a in members and b in members]
        cycle = _cycle(part[0], members, graph)
        way = " → ".join(name.split(".", 1)[1] for name in cycle)
        first = min(edges[cycle[0], cycle[1]], key=lambda imp: imp.line)
        found = sorted(((imp, a, b) for a, b in inner for imp in edges[a, b]),
                       key=lambda x: (x[0].path.as_posix(), x[0].line))
        lines = [f"    {imp.where}: {a} imports {b}" for imp, a, b in found]
        out.append(f"{first.where}: import circle inside ledger/{layer_of(part[0])}: {way} "
                   f"({len(part)} modules; a circle means a missing module: give the shared part "
                   f"a public home)\n" + "\n".join(lines))
    return out


def check(root: Path = ROOT) -> list[str]:
    """One message per import that breaks the rule (``file:line: import x: rule``), per private name
    imported from another module, and per import circle inside a package (with every import in it)."""
    out = []
    for path in sorted((root / PACKAGE).glob("*.py")):
        name = path.stem
        if name != "__init__" and name not in ENTRY_POINTS:
            out.append(f"{path.relative_to(root).as_posix()}:1: module outside the layers: "
                       f"every module lives in one of {', '.join(ORDER)}")
    imports = read_graph(root)
    for imp in imports:
        why = problem(imp)
        if why:
            out.append(f"{imp.where}: import {imp.target}: {why}")
    out.extend(private_imports(imports))
    out.extend(circles(imports, set(modules(root))))
    return out


def layer_edges(root: Path = ROOT) -> Counter[tuple[str, str]]:
    """How many imports run from one layer to another (within a layer not counted)."""
    edges: Counter[tuple[str, str]] = Counter()
    for imp in read_graph(root):
        source, target = layer_of(imp.module), layer_of(imp.target)
        if imp.target.split(".")[0] == PACKAGE and source and target and source != target:
            edges[source, target] += 1
    return edges


def third_party(root: Path = ROOT) -> dict[str, set[str]]:
    """The :data:`ONLY_IN` packages each layer imports."""
    out: dict[str, set[str]] = {}
    for imp in read_graph(root):
        top = imp.target.split(".")[0]
        source = layer_of(imp.module)
        if source and top in ONLY_IN:
            out.setdefault(source, set()).add(top)
    return out


def draw(path: Path, root: Path = ROOT) -> None:
    """The layers as boxes (top to bottom) holding their modules, and arrows for the imports between them."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    present = [name for name, _ in LAYERS if (root / PACKAGE / name).is_dir()]
    about = dict(LAYERS)
    members: dict[str, list[str]] = {name: [] for name in present}
    for dotted in modules(root):
        layer = layer_of(dotted)
        if layer in members and dotted != f"{PACKAGE}.{layer}":
            members[layer].append(dotted.split(".", 2)[2])
    edges = layer_edges(root)
    libs = third_party(root)

    box_w, box_h, gap, lane_gap = 9.0, 1.5, 0.7, 0.32
    rows = {name: i for i, name in enumerate(present)}
    top_y = len(present) * (box_h + gap)
    y = {name: top_y - i * (box_h + gap) for i, name in enumerate(present)}  # box tops
    drawn = {e: n for e, n in edges.items() if e[0] in rows and e[1] in rows}
    lanes = sorted((e for e in drawn if abs(rows[e[1]] - rows[e[0]]) > 1),
                   key=lambda e: (abs(rows[e[1]] - rows[e[0]]), rows[e[0]]))
    width = box_w + 0.6 + lane_gap * len(lanes)
    fig, ax = plt.subplots(figsize=(width * 0.9, (top_y + 0.9) * 0.9))
    for name in present:
        top = y[name]
        ax.add_patch(FancyBboxPatch((0, top - box_h), box_w, box_h,
                                    boxstyle="round,pad=0.02,rounding_size=0.12",
                                    facecolor="#eef3fb", edgecolor="#35588c", linewidth=1.4))
        ax.text(0.2, top - 0.18, f"ledger/{name}", fontsize=13, fontweight="bold", va="top", color="#1d3557")
        if libs.get(name):
            ax.text(box_w - 0.2, top - 0.2, "imports " + ", ".join(sorted(libs[name])), fontsize=9.5,
                    ha="right", va="top", color="#9b2226", family="monospace")
        ax.text(0.2, top - 0.62, about[name], fontsize=9.5, va="top", color="#444444", style="italic")
        shown = ", ".join(m.replace("commands.", "commands/") for m in members[name])
        ax.text(0.2, top - 1.0, textwrap.fill(shown, 95), fontsize=8.5, va="top", family="monospace",
                color="#222222")

    arrow = {"arrowstyle": "-|>", "color": "#35588c", "lw": 1.3, "shrinkA": 0, "shrinkB": 0}
    for (src, dst), count in drawn.items():
        if (src, dst) in lanes:
            continue
        up = rows[dst] < rows[src]  # an import pointing up breaks the rule: drawn in red
        x = box_w * (0.3 if up else 0.5)
        start, end = (y[src], y[dst] - box_h) if up else (y[src] - box_h, y[dst])
        ax.annotate("", xy=(x, end), xytext=(x, start),
                    arrowprops={**arrow, "color": "#d00000"} if up else arrow)
        ax.text(x + 0.1, (start + end) / 2, str(count), fontsize=9, va="center",
                color="#d00000" if up else "#35588c")
    for k, (src, dst) in enumerate(lanes):
        up = rows[dst] < rows[src]
        color = "#d00000" if up else "#6d83a8"
        lane_x = box_w + 0.3 + lane_gap * k
        y0 = y[src] - box_h * 0.25 - 0.12 * (k % 4)
        y1 = y[dst] - box_h * 0.75 + 0.12 * (k % 4)
        ax.plot([box_w, lane_x, lane_x], [y0, y0, y1], color=color, lw=1.0)
        ax.annotate("", xy=(box_w, y1), xytext=(lane_x, y1), arrowprops={**arrow, "color": color, "lw": 1.0})
        ax.text(lane_x + 0.04, y0 + 0.04, str(drawn[src, dst]), fontsize=7.5, color=color, va="bottom")
    ax.set_xlim(-0.2, width)
    ax.set_ylim(-0.2, top_y + 0.4)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("The layers of ledger/ and the imports between them (arrows point down; "
                 "numbers count import statements)", fontsize=11)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["check", "graph", "draw"])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "architecture.png")
    args = parser.parse_args(argv)
    if args.command == "check":
        problems = check()
        print("\n".join(problems) if problems else
              "layers: no import breaks the rule, no private name is imported, no circle inside a package")
        return 1 if problems else 0
    if args.command == "graph":
        edges = layer_edges()
        for src, dst in sorted(edges, key=lambda e: (ORDER[e[0]], ORDER[e[1]])):
            print(f"{src:>8} -> {dst:<8} {edges[src, dst]}")
        return 0
    draw(args.out)
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
