"""Every `$ bigtwo …` example in README.md and docs/*.md runs and prints what the doc shows.

The rules (which blocks run, `<!-- no-run: reason -->`, `$ cat FILE`, `NAME=VALUE`,
`< FILE`, here-documents, masking) live in scripts/update_doc_examples.py, which also
rewrites the shown outputs after a change.
"""

import datetime as dt
import importlib.util
import re
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
TODAY = {dt.date.today().isoformat()}


def test_the_tour_and_docs_have_examples() -> None:
    names = {p.name for p in FILES}
    assert {"README.md", "at-the-table.md", "i18n.md", "import-export.md", "paper-check.md",
            "sharing.md"} <= names
    assert len(docex.examples(ROOT / "README.md")) >= 15


@pytest.mark.parametrize("path", docex.doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bigtwo_example_runs_or_says_why_not(path: Path) -> None:
    rel = path.relative_to(ROOT)
    problems = docex.unrun(path)
    assert not problems, "\n".join(f"{rel}:{line}: {why}" for line, why in problems)
    for line, reason, _ in docex.excluded(path):
        assert len(reason) >= 10, f"{rel}:{line}: say why the block does not run"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_examples_print_what_is_shown(path: Path) -> None:
    results = docex.run_file(path)
    bad = [r for r in results if r.problem]
    rel = path.relative_to(ROOT)
    assert not bad, (
        f"{len(bad)} of {len(results)} examples in {rel} drifted; if the new output is right, "
        f"run: python scripts/update_doc_examples.py {rel}\n" + docex.report(path, results))


def test_only_what_cannot_run_is_excluded() -> None:
    left_out = [cmd for p in docex.doc_files() for _, _, cmds in docex.excluded(p) for cmd in cmds]
    assert left_out, "the README shows bigtwo serve and the interactive table"
    for cmd in left_out:
        words = cmd.split()
        assert words[:2] in (["bigtwo", "serve"], ["bigtwo", "table"]) \
            or "--install-completion" in words, cmd
        if words[:2] == ["bigtwo", "table"]:
            assert "<" not in cmd, "a piped table runs"


def test_a_drift_in_the_readme_is_reported_with_file_and_line(tmp_path: Path) -> None:
    """A planted change in a copy of README.md fails, naming the file and the line;
    a different timestamp in the log (the only volatile value there) does not."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    started = next(i for i, s in enumerate(lines) if s.startswith('started session 1 "Friday'))
    lines[started] = lines[started].replace("0 deals", "9 deals")
    stamps = [i for i, s in enumerate(lines) if re.search(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$", s)]
    assert stamps, "the README's log shows when each entry was made"
    lines[stamps[0]] = re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$", "1999-01-02 03:04:05",
                              lines[stamps[0]])
    copy = tmp_path / "README.md"
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")

    results = docex.run_file(copy)
    bad = [r for r in results if r.problem]
    assert [r.example.line for r in bad] == [started]   # the `$` line just above it
    message = docex.report(copy, results, "README.md")
    assert message.startswith(f"README.md:{started}: $ bigtwo session start --players Ann,Ben")
    assert "-started session 1 \"Friday at Ann's\"" in message and "9 deals" in message

    assert docex.rewrite(copy, results)
    again = copy.read_text(encoding="utf-8").splitlines()
    assert again[started].endswith("0 deals") and "1999-01-02 03:04:05" in again[stamps[0]]
    assert again[:started] + again[started + 1:] == lines[:started] + lines[started + 1:]


def test_only_timestamps_of_the_run_and_temporary_paths_are_masked() -> None:
    log = "1    1       deal     Ann=0 Ben=3   amended    {}"
    now = dt.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    assert docex.matches(log.format("2001-02-03 04:05:06"), log.format(now), TODAY)
    assert not docex.matches(log.format("2001-02-03 04:05"), log.format(now), TODAY)  # width
    # a date that is data (an imported sheet's session) is compared as it is
    row = "3   2024-03-01  Ann, Ben, Cat, Dan   classic   12"
    assert docex.matches(row, row, TODAY)
    assert not docex.matches(row.replace("03-01", "03-02"), row, TODAY)
    assert docex.matches("wrote /tmp/bigtwo-doc-abc/ledger.db",
                         "wrote /tmp/bigtwo-doc-x1y2/ledger.db", TODAY)
    assert not docex.matches("bigtwo 0.9.0", "bigtwo 1.0.0", TODAY)
    assert not docex.matches("Ann +5", "Ann +6", TODAY)


def test_what_a_command_line_may_be(tmp_path: Path) -> None:
    """Any fence language, a fence inside a list item, `NAME=VALUE` before bigtwo,
    `< FILE`, a here-document and the shipped sample files all run; outputs are filled."""
    doc = tmp_path / "forms.md"
    doc.write_text(
        "```sh\n$ BIGTWO_LANG=zh_Hant bigtwo compare 3S 4S\n?\n```\n\n"
        "- in a list:\n\n  ```\n  $ bigtwo session start --players Ann,Ben,Cat,Dan\n  ?\n  ```\n\n"
        "```text\n$ bigtwo table <<EOF\n0 3 11 8\nstandings\nEOF\n?\n"
        "$ cat more.txt\nvoid 9\n$ bigtwo table < more.txt\n?\n"
        "$ bigtwo --db other.db import sample_sessions/example6.txt\n?\n"
        "$ COLUMNS=40 bigtwo standings\n?\n```\n", encoding="utf-8")
    first = docex.run_file(doc)
    assert [r.example.command.split(" <")[0] for r in first] == [
        "BIGTWO_LANG=zh_Hant bigtwo compare 3S 4S", "bigtwo session start --players Ann,Ben,Cat,Dan",
        "bigtwo table", "cat more.txt", "bigtwo table", "bigtwo --db other.db import "
        "sample_sessions/example6.txt", "COLUMNS=40 bigtwo standings"]
    assert docex.rewrite(doc, first)
    text = doc.read_text(encoding="utf-8")
    assert "單張 3♠" in text and "規則 classic" in text                  # BIGTWO_LANG=zh_Hant
    assert "  started session 1: Ann, Ben, Cat, Dan" in text          # kept in the list item
    assert "<<EOF\n0 3 11 8\nstandings\nEOF\n" in text                  # the input stays as typed
    assert "deal 1: Ann* 0 (+33)" in text
    assert "error: line 1: cannot void deal 9: session 1 has deals 1 to 1" in text
    assert "example6.txt: 4 deals added (2 new sessions" in text
    narrow = first[-1].actual                                           # COLUMNS=40
    assert narrow[0] == "session 1: Ann, Ben, Cat, Dan — rules" and max(map(len, narrow)) <= 40
    assert all(not r.problem for r in docex.run_file(doc))


def test_an_example_that_is_not_run_must_say_why(tmp_path: Path) -> None:
    doc = tmp_path / "unrun.md"
    doc.write_text(
        "Try `$ bigtwo standings` now.\n\n"                       # prose: line 1
        "    $ bigtwo settle\n    nothing\n\n"                      # indented block: line 3
        "<!-- no-run -->\n```text\n$ bigtwo serve\n```\n\n"        # no reason: marker, fence 7
        "<!-- no-run: bigtwo serve runs until Ctrl-C -->\n```text\n$ bigtwo serve --lan\nnever\n```\n",
        encoding="utf-8")
    assert [line for line, _ in docex.unrun(doc)] == [1, 3, 7]
    assert "<!-- no-run: REASON -->" in docex.unrun(doc)[0][1]
    assert docex.excluded(doc) == [(12, "bigtwo serve runs until Ctrl-C", ["bigtwo serve --lan"])]
    assert docex.examples(doc) == []
    assert docex.main(["--check", str(doc)]) == 1


def test_a_command_shown_without_output_must_succeed(tmp_path: Path) -> None:
    doc = tmp_path / "quiet.md"
    doc.write_text("```text\n$ bigtwo void 1\n$ bigtwo compare 3S 4S\n```\n", encoding="utf-8")
    results = docex.run_file(doc)
    assert results[0].problem.startswith("exit 2 (no output is shown, so it must exit 0)")
    assert "error: no current session" in results[0].problem
    assert results[1].problem == ""


EVENING = [
    (["session", "start", "--players", "陳大文,李小明,José,Ann"], ""),
    (["deal", "0", "5", "7", "13"], ""),
    (["--lang", "zh_Hant", "standings"], ""),
    (["log", "--wide"], ""),
    (["nosuchcommand"], ""),
    (["import", "-"], "not, a, sheet\n"),
]


def test_a_forked_example_prints_what_its_own_process_prints(tmp_path: Path) -> None:
    """The examples run forked from one Python (scripts/bigtwo_forks.py): each prints and
    exits as `python -m ledger` in a process of its own does, with the same folder,
    environment (a time zone and a language of their own) and input."""
    import os
    import subprocess

    env = {"PATH": os.environ.get("PATH", ""), "TZ": "Asia/Kathmandu", "LANG": "C.UTF-8",
           "COLUMNS": "200", "NO_COLOR": "1"}
    seen: dict[str, list[tuple[int, str, list[str]]]] = {}
    for name in ("forked", "process"):
        folder = tmp_path / name
        folder.mkdir()
        env["BIGTWO_DB"] = str(folder / "ledger.db")
        for args, stdin in EVENING:
            if name == "forked":
                code, output, _ = docex.FORKS.run(args, dict(env), folder, stdin, merge=True)
            else:
                proc = subprocess.run([sys.executable, "-m", "ledger", *args], cwd=folder,
                                      env={**env, "PYTHONPATH": str(ROOT)}, input=stdin,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True, encoding="utf-8", timeout=120)
                code, output = proc.returncode, proc.stdout
            # (the two runs are seconds apart, maybe either side of a minute or a day)
            output = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?", "DATE HH:MM",
                            output.replace(str(folder), "FOLDER"))
            seen.setdefault(name, []).append((code, output, sorted(p.name for p in folder.iterdir())))
    assert seen["forked"] == seen["process"]
    assert [code for code, _, _ in seen["forked"]] == [0, 0, 0, 0, 2, 2]
    assert "+0545" in seen["forked"][3][1]  # the log's times in the example's own time zone
    assert "淨分" in seen["forked"][2][1] and "陳大文" in seen["forked"][2][1]
