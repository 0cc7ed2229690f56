"""Run the `$ bigtwo …` examples of README.md and docs/*.md; check or rewrite their outputs.

Which examples run (the rule is in the docs themselves, nothing is listed here):

- every fenced block (```` ```text ````, ```` ```sh ````, no language, indented under a
  list item …) that holds lines starting with ``$ `` is a transcript and runs, top to
  bottom, one fresh temporary ledger per file (``BIGTWO_DB`` points at a file in a
  temporary folder, which is also the working directory and ``HOME``);
- a block preceded by ``<!-- no-run: REASON -->`` is shown but never run; the reason is
  required (``bigtwo serve`` runs until Ctrl-C, ``bigtwo table`` at a terminal is
  interactive, ``--install-completion`` changes the shell's files);
- any other ``$ bigtwo`` (an indented code block, a line of prose, a bare
  ``<!-- no-run -->``) is an error of its own (``unrun``): an example is run or says
  why not.

What a command line may be:

- ``bigtwo ARGS``, with a ``# comment`` at the end stripped (shell rules, via ``shlex``);
- ``NAME=VALUE … bigtwo ARGS``: environment for that run (``BIGTWO_LANG=zh_Hant``,
  ``COLUMNS=40``, ``TZ=Asia/Hong_Kong``); the defaults are ``ENV`` below;
- ``bigtwo ARGS < FILE`` reads FILE as standard input; ``bigtwo ARGS <<EOF`` reads the
  block's next lines up to ``EOF`` (a here-document, shown in the doc as typed);
- ``cat FILE`` followed by lines writes those lines to FILE in the working folder, so
  the next example can use it (``our-house.toml``);
- files named relative to the repository root under ``SHIPPED`` (``sample_sessions/…``,
  ``docs/examples/…``) are there: they are copied into the working folder first.

The lines after a command up to the next ``$`` line are its output (stdout and stderr
together, in the order they were written); a command shown without output must still
exit 0. To add an example, write ``?`` as its output and run this script on the file:
the real output replaces it.

Only volatile values are masked when comparing (``matches``): a timestamp of the run
itself (a date within a day of the run, with its time of day if any) and a temporary
path. A date that is data (an imported sheet's 2024-03-01) must match.
``python scripts/update_doc_examples.py`` rewrites the shown outputs in place with what
the commands print now (a line that only differs in masked values is kept as shown);
``--check`` only reports the differences and exits 1 if there are any (the test
``tests/architecture/test_doc_examples.py`` does the same).
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import re
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import bigtwo_forks  # this folder: first on the path of a script, on pytest's too (pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent
NO_RUN = re.compile(r"<!--\s*no-run(?::\s*(?P<reason>.*?))?\s*-->")
SHIPPED = ("sample_sessions", "docs/examples")
ENV = {"COLUMNS": "100", "TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
       "BIGTWO_LANG": "en", "PYTHONIOENCODING": "utf-8", "PYTHONUNBUFFERED": "1",
       "NO_COLOR": "1", "TERM": "dumb"}
# A `$ bigtwo` command anywhere in a line: what must run or say why not.
BIGTWO_LINE = re.compile(r"\$ (?:[A-Za-z_][A-Za-z0-9_]*=\S* )*bigtwo\b")
_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_VOLATILE = re.compile(
    r"(?P<ts>(?P<date>\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)?)"
    r"|(?P<tmp>(?:/private)?/(?:tmp|var/folders)/\S*)")


@dataclass
class Example:
    path: Path
    line: int                     # 1-based line of the `$` command in the file
    command: str                  # as written, without the leading "$ "
    output: list[str] = field(default_factory=list)   # lines shown after it
    out_start: int = 0            # 0-based index of the first output line
    out_end: int = 0              # 0-based index after the last output line (blank tail excluded)
    stdin: str | None = None      # a here-document's lines
    indent: int = 0               # the block's indentation (a fence inside a list item)


@dataclass
class Block:
    path: Path
    start: int                    # 0-based index of the opening fence
    end: int                      # 0-based index of the closing fence (or len(lines))
    indent: int
    no_run: str | None            # None: runs; "": a bare marker; else the reason
    lines: list[str]              # the file's lines, for the block's contents


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """Every fenced code block of a Markdown file, with its no-run marker if any."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        if not stripped.startswith(("```", "~~~")):
            i += 1
            continue
        fence = stripped[:3]
        end = i + 1
        while end < len(lines) and not lines[end].lstrip().startswith(fence):
            end += 1
        prev = next((lines[k].strip() for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        marker = NO_RUN.fullmatch(prev)
        no_run = None if marker is None else (marker.group("reason") or "").strip()
        found.append(Block(path, i, end, len(lines[i]) - len(stripped), no_run, lines))
        i = end + 1
    return found


def _dedent(text: str, indent: int) -> str:
    return text[indent:] if text[:indent].strip() == "" else text.lstrip()


def _heredoc(command: str) -> str | None:
    """The terminator of `… <<EOF` / `<< 'EOF'`, if the command has one."""
    m = re.search(r"<<-?\s*(['\"]?)(\w+)\1\s*(#.*)?$", command)
    return m.group(2) if m else None


def _block_examples(block: Block) -> list[Example]:
    found: list[Example] = []
    current: Example | None = None
    k = block.start + 1
    while k < block.end:
        text = _dedent(block.lines[k], block.indent)
        if text.startswith("$ "):
            current = Example(block.path, k + 1, text[2:], indent=block.indent)
            found.append(current)
            word = _heredoc(current.command)
            if word is not None:
                body: list[str] = []
                k += 1
                while k < block.end and _dedent(block.lines[k], block.indent) != word:
                    body.append(_dedent(block.lines[k], block.indent))
                    k += 1
                current.stdin = "\n".join(body) + "\n"
            current.out_start = current.out_end = k + 1
        elif current is not None and text.strip():
            current.out_end = k + 1
        k += 1
    for ex in found:
        ex.output = [_dedent(s, ex.indent) for s in block.lines[ex.out_start:ex.out_end]]
    return found


def _is_transcript(block: Block) -> bool:
    return any(_dedent(block.lines[k], block.indent).startswith("$ ")
               for k in range(block.start + 1, block.end))


def examples(path: Path) -> list[Example]:
    """The runnable examples of one Markdown file, in order."""
    return [ex for b in blocks(path) if b.no_run is None and _is_transcript(b)
            for ex in _block_examples(b)]


def unrun(path: Path) -> list[tuple[int, str]]:
    """(line, problem) for every `$ bigtwo` that neither runs nor says why it does not."""
    lines = path.read_text(encoding="utf-8").splitlines()
    covered: set[int] = set()
    problems: list[tuple[int, str]] = []
    for b in blocks(path):
        if b.no_run == "":
            problems.append((b.start + 1, "<!-- no-run --> needs a reason: <!-- no-run: why -->"))
        if b.no_run or _is_transcript(b):
            covered.update(range(b.start, b.end + 1))
    for k, text in enumerate(lines):
        if k not in covered and BIGTWO_LINE.search(text):
            problems.append((k + 1, "a `$ bigtwo` example that is not run: put it in a fenced "
                                    "block (with `?` as its output, then run python "
                                    "scripts/update_doc_examples.py FILE to fill it in), or say "
                                    "why not with <!-- no-run: REASON -->"))
        if text.strip().startswith("<!--") and NO_RUN.search(text) and not NO_RUN.fullmatch(text.strip()):
            problems.append((k + 1, "a no-run marker goes on its own line before the block"))
    return sorted(problems)


def excluded(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, reason, commands) of the blocks kept from running on purpose."""
    out = []
    for b in blocks(path):
        if b.no_run:
            cmds = [t[2:] for t in (_dedent(s, b.indent) for s in b.lines[b.start + 1:b.end])
                    if t.startswith("$ ")]
            out.append((b.start + 1, b.no_run, cmds))
    return out


@dataclass
class Result:
    example: Example
    actual: list[str]
    code: int
    problem: str = ""             # empty when the example holds
    shown_as: list[str] = field(default_factory=list)  # actual, with masked values as shown


def _run_window(start: dt.datetime, end: dt.datetime) -> set[str]:
    """Dates a timestamp of this run may carry, in any time zone."""
    days = set()
    day = (start - dt.timedelta(days=1)).date()
    while day <= (end + dt.timedelta(days=1)).date():
        days.add(day.isoformat())
        day += dt.timedelta(days=1)
    return days


def line_pattern(actual: str, window: set[str]) -> re.Pattern[str]:
    """A pattern for a shown line that matches `actual` with its volatile values masked."""
    parts: list[str] = []
    pos = 0
    for m in _VOLATILE.finditer(actual):
        if m.group("ts") and m.group("date") not in window:
            continue
        parts.append(re.escape(actual[pos:m.start()]))
        if m.group("tmp"):
            parts.append(r"(?:/private)?/(?:tmp|var/folders)/\S*")
        else:   # same shape: digits for digits, so columns keep their width
            parts.append("".join(r"\d" if c.isdigit() else re.escape(c) for c in m.group(0)))
        pos = m.end()
    parts.append(re.escape(actual[pos:]))
    return re.compile("".join(parts))


def matches(shown: str, actual: str, window: set[str]) -> bool:
    return line_pattern(actual, window).fullmatch(shown.rstrip()) is not None


def _command(command: str) -> tuple[dict[str, str], list[str], str | None]:
    """(environment, argv, stdin file) of a `$` line."""
    words = shlex.split(command, comments=True)
    env: dict[str, str] = {}
    while words and _ASSIGN.match(words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    stdin_file = None
    if "<" in words:
        k = words.index("<")
        stdin_file = words[k + 1] if k + 1 < len(words) else ""
        del words[k:k + 2]
    for k, w in enumerate(words):
        if w.startswith("<<"):
            del words[k:k + (1 if len(w) > 2 else 2)]
            break
        if w.startswith("<") and len(w) > 1:
            stdin_file = w[1:]
            del words[k]
            break
    return env, words, stdin_file


FORKS = bigtwo_forks.shared()
"""Each example runs as ``python -m ledger`` forked from one Python (scripts/bigtwo_forks.py):
in a process of its own, with its folder, environment and input, without paying
Python's start and the imports a hundred times."""


def run_file(path: Path) -> list[Result]:
    """Run one file's examples in order on a fresh ledger in a temporary folder."""
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="bigtwo-doc-") as tmp:
        for name in SHIPPED:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, Path(tmp, name))
        base = {**os.environ, **ENV, "PYTHONPATH": str(ROOT),
                "BIGTWO_DB": str(Path(tmp) / "ledger.db"), "HOME": tmp}
        for key in ("LANGUAGE", "LC_MESSAGES"):
            base.pop(key, None)
        for ex in examples(path):
            try:
                extra, argv, stdin_file = _command(ex.command)
            except ValueError as exc:
                results.append(Result(ex, [], 2, f"cannot read the command: {exc}"))
                continue
            if argv[:1] == ["cat"] and len(argv) == 2 and not extra:
                Path(tmp, argv[1]).write_text("\n".join(ex.output) + "\n", encoding="utf-8")
                results.append(Result(ex, list(ex.output), 0, shown_as=list(ex.output)))
                continue
            if argv[:1] != ["bigtwo"]:
                results.append(Result(ex, [], 2, f"only `bigtwo` and `cat FILE` run: {ex.command}"))
                continue
            stdin = ex.stdin
            if stdin_file is not None:
                try:
                    stdin = Path(tmp, stdin_file).read_text(encoding="utf-8")
                except OSError as exc:
                    results.append(Result(ex, [], 2, f"cannot read {stdin_file!r}: {exc}"))
                    continue
            start = dt.datetime.now(dt.UTC)
            code, output, _ = FORKS.run(argv[1:], {**base, **extra}, Path(tmp),
                                        stdin if stdin is not None else "", merge=True)
            window = _run_window(start, dt.datetime.now(dt.UTC))
            actual = output.rstrip("\n").splitlines() if output.strip() else []
            actual = [line.rstrip() for line in actual]
            shown = [s.rstrip() for s in ex.output]
            shown_as = [shown[i] if i < len(shown) and matches(shown[i], a, window) else a
                        for i, a in enumerate(actual)]
            problem = ""
            if not ex.output:
                if code != 0:
                    problem = f"exit {code} (no output is shown, so it must exit 0):\n" \
                              + "\n".join(actual)
            elif shown_as != shown:
                diff = difflib.unified_diff(shown, shown_as, "shown", "printed now", lineterm="")
                problem = "output differs:\n" + "\n".join(diff)
            results.append(Result(ex, actual, code, problem, shown_as))
    return results


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def report(path: Path, results: list[Result], name: str | None = None) -> str:
    """`FILE:LINE: $ command` and the problem, for every example that does not hold."""
    rel = name or _name(path)
    return "\n".join(f"{rel}:{r.example.line}: $ {r.example.command}\n    "
                     + r.problem.replace("\n", "\n    ") for r in results if r.problem)


def rewrite(path: Path, results: list[Result]) -> bool:
    """Put the printed outputs in place of the shown ones; True when the file changed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    changed = False
    for res in reversed(results):
        ex = res.example
        if not ex.output or not res.problem.startswith("output differs"):
            continue
        pad = " " * ex.indent
        lines[ex.out_start:ex.out_end] = [pad + s if s else s for s in res.shown_as]
        changed = True
    if changed:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


def main(argv: list[str]) -> int:
    check = "--check" in argv
    wanted = [Path(a).resolve() for a in argv if not a.startswith("--")]
    failed = 0
    for path in wanted or doc_files():
        rel = _name(path)
        for line, problem in unrun(path):
            print(f"{rel}:{line}: {problem}")
            failed += 1
        results = run_file(path)
        if not results:
            continue
        bad = [r for r in results if r.problem]
        print(f"{rel}: {len(results)} examples, {len(results) - len(bad)} hold")
        if bad:
            print("  " + report(path, results).replace("\n", "\n  "))
        if check:
            failed += len(bad)
        elif rewrite(path, results):
            print(f"  rewrote {rel}")
            failed += sum(1 for r in bad if not r.problem.startswith("output differs"))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
