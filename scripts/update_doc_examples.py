"""Run the `$ bigtwo …` examples of README.md and docs/*.md; check or rewrite their outputs.

Which examples run (the rule is in the docs themselves, nothing is listed here):

- every ```` ```text ```` block that holds lines starting with ``$ `` is a transcript and
  runs, top to bottom, one fresh temporary ledger per file (``BIGTWO_DB`` points at a
  file in a temporary folder, which is also the working directory);
- a block preceded by the line ``<!-- no-run -->``, and every block fenced as ```` ```sh ````
  or with no language, is shown but never run (``bigtwo serve``, the interactive
  ``bigtwo table``, ``--install-completion``, examples that need a big file);
- ``$ cat FILE`` followed by lines writes those lines to FILE in the working folder, so
  the next example can use it (``our-house.toml``);
- a ``# comment`` at the end of a command is stripped (shell rules, via ``shlex``);
- the lines after a command up to the next ``$`` line are its output (stdout and
  stderr together); a command shown without output must still exit 0.

Volatile values (dates, times, temporary paths, the version) are masked before comparing
(``mask``). ``python scripts/update_doc_examples.py`` rewrites the shown outputs in place
with what the commands print now (an output that only differs in masked values is kept);
``--check`` only reports the differences and exits 1 if there are any (the test
``tests/architecture/test_doc_examples.py`` does the same).
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NO_RUN = "<!-- no-run -->"
ENV = {"COLUMNS": "100", "TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
       "BIGTWO_LANG": "en", "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1", "TERM": "dumb"}

# Same width replacements, so tables keep their alignment when masked.
_MASKS = [
    (re.compile(r"\d{4}-\d{2}-\d{2}"), "YYYY-MM-DD"),
    (re.compile(r"\b\d{2}:\d{2}(:\d{2})?\b"), lambda m: "hh:mm:ss"[: len(m.group(0))]),
    (re.compile(r"(/private)?/(tmp|var/folders)/\S*"), "<tmp>"),
    (re.compile(r"(bigtwo(-ledger)?,? (version )?)\d+\.\d+(\.\d+)?\S*"), r"\1<version>"),
]


def mask(text: str) -> str:
    """Hide what changes from run to run (timestamps, temporary paths, the version)."""
    for pattern, repl in _MASKS:
        text = pattern.sub(repl, text)  # type: ignore[arg-type]
    return text


@dataclass
class Example:
    path: Path
    line: int                     # 1-based line of the `$` command in the file
    command: str                  # as written, without the leading "$ "
    output: list[str] = field(default_factory=list)   # lines shown after it
    out_start: int = 0            # 0-based index of the first output line
    out_end: int = 0              # 0-based index after the last output line (blank tail excluded)


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def examples(path: Path) -> list[Example]:
    """The runnable examples of one Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if not fence.startswith("```"):
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith("```"):
            end += 1
        prev = next((lines[k].strip() for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        if fence == "```text" and prev != NO_RUN:
            current: Example | None = None
            for k in range(i + 1, end):
                text = lines[k]
                if text.startswith("$ "):
                    current = Example(path, k + 1, text[2:], out_start=k + 1, out_end=k + 1)
                    found.append(current)
                elif current is not None:
                    current.output.append(text)
                    if text.strip():
                        current.out_end = k + 1
            for ex in found:
                ex.output = lines[ex.out_start:ex.out_end] if ex.out_end > ex.out_start else []
        i = end + 1
    return found


@dataclass
class Result:
    example: Example
    actual: list[str]
    code: int
    problem: str = ""             # empty when the example holds


def _argv(command: str) -> list[str]:
    return shlex.split(command, comments=True)


def run_file(path: Path) -> list[Result]:
    """Run one file's examples in order on a fresh ledger in a temporary folder."""
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="bigtwo-doc-") as tmp:
        env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT),
               "BIGTWO_DB": str(Path(tmp) / "ledger.db"), "HOME": tmp}
        for ex in examples(path):
            argv = _argv(ex.command)
            if argv[:1] == ["cat"] and len(argv) == 2:
                Path(tmp, argv[1]).write_text("\n".join(ex.output) + "\n", encoding="utf-8")
                results.append(Result(ex, list(ex.output), 0))
                continue
            if argv[:1] != ["bigtwo"]:
                results.append(Result(ex, [], 2, f"only `bigtwo` and `cat FILE` run: {ex.command}"))
                continue
            proc = subprocess.run([sys.executable, "-m", "ledger", *argv[1:]], cwd=tmp,
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, encoding="utf-8", timeout=120)
            actual = proc.stdout.rstrip("\n").splitlines() if proc.stdout.strip() else []
            actual = [line.rstrip() for line in actual]
            problem = ""
            if not ex.output:
                if proc.returncode != 0:
                    problem = f"exit {proc.returncode} (no output is shown, so it must exit 0):\n" \
                              + "\n".join(actual)
            elif [mask(s.rstrip()) for s in ex.output] != [mask(s) for s in actual]:
                diff = difflib.unified_diff([mask(s.rstrip()) for s in ex.output],
                                            [mask(s) for s in actual],
                                            "shown", "printed now", lineterm="")
                problem = "output differs:\n" + "\n".join(diff)
            results.append(Result(ex, actual, proc.returncode, problem))
    return results


def rewrite(path: Path, results: list[Result]) -> bool:
    """Put the printed outputs in place of the shown ones; True when the file changed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    changed = False
    for res in reversed(results):
        ex = res.example
        if not ex.output or not res.problem.startswith("output differs"):
            continue
        lines[ex.out_start:ex.out_end] = res.actual
        changed = True
    if changed:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


def main(argv: list[str]) -> int:
    check = "--check" in argv
    wanted = [Path(a).resolve() for a in argv if not a.startswith("--")]
    failed = 0
    for path in wanted or doc_files():
        results = run_file(path)
        if not results:
            continue
        bad = [r for r in results if r.problem]
        rel = path.relative_to(ROOT)
        print(f"{rel}: {len(results)} examples, {len(results) - len(bad)} hold")
        for r in bad:
            print(f"  {rel}:{r.example.line}: $ {r.example.command}\n    "
                  + r.problem.replace("\n", "\n    "))
        if check:
            failed += len(bad)
        elif rewrite(path, results):
            print(f"  rewrote {rel}")
            failed += sum(1 for r in bad if not r.problem.startswith("output differs"))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
