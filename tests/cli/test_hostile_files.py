"""Files that are not what they should be (issue 22): deep or endless rule files, FIFOs
and devices named as rule files, ledgers or imports, a sample TOML given to import.
Each gets one `error:` line naming what the file is, and nothing is written."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, file_digest, forked_bigtwo

DEEP = "name = \"deep\"\nplays = " + "[" * 1000 + "]" * 1000 + "\n"


@pytest.fixture
def session(cli):
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")


@pytest.mark.parametrize("command", [("rules", "show"), ("session", "start", "--players",
                                                          "Ann,Ben,Cat,Dan", "--rules")])
def test_a_rule_file_nested_1000_deep_is_one_error_line(cli, tmp_path: Path, command) -> None:
    rule_file = tmp_path / "deep.toml"
    rule_file.write_text(DEEP, "utf-8")
    assert len(DEEP) < 2100  # a 2 KB file
    err = cli.fails(*command, str(rule_file))
    assert err.startswith("error: rule file ") and "nested 1000 levels deep; at most 64" in err


def test_a_rule_file_linked_to_dev_zero_is_refused_unread(tmp_path: Path, ledger_path: Path) -> None:
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    # In a child with 2 GiB of address space: reading /dev/zero to the end must not take
    # the machine's memory (the child dies with MemoryError instead).
    done = bigtwo("rules", "show", str(link), env=child_env(ledger_path), memory=2 << 30)
    assert done.returncode != 0
    assert done.stderr.startswith("error: rule file ") and "is a character device, not a file" in done.stderr


def test_a_rule_file_larger_than_a_mebibyte_is_refused(cli, tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20) + "\n", "utf-8")
    assert "is larger than 1024 KiB" in cli.fails("rules", "show", str(big))


def bigtwo(*args: str, env: dict[str, str], timeout: float = 20,
           memory: int | None = None) -> subprocess.CompletedProcess:
    """`bigtwo ARGS` as a child process: forked from one that imported the command line
    (tests/helpers.py), or started afresh when its address space is limited."""
    if memory is None:
        return forked_bigtwo(list(args), env=env, cwd=ROOT, timeout=timeout)

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-m", "ledger", *args], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=ROOT,
                          preexec_fn=limit if memory else None)


def child_env(db: Path) -> dict[str, str]:
    return {**os.environ, "BIGTWO_DB": str(db), "BIGTWO_LANG": "en", "COLUMNS": "100"}


@pytest.mark.no_ledger
def test_a_fifo_named_as_a_rule_file_does_not_hang(tmp_path: Path, ledger_path: Path) -> None:
    fifo = tmp_path / "x.toml"
    os.mkfifo(fifo)
    done = bigtwo("session", "start", "--players", "Ann,Ben,Cat,Dan", "--rules", str(fifo),
                  env=child_env(ledger_path))
    assert done.returncode != 0
    assert done.stderr.startswith("error: rule file ") and "is a FIFO (named pipe), not a file" in done.stderr
    assert not ledger_path.exists()


@pytest.mark.no_ledger
def test_a_fifo_named_as_the_ledger_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "ledger.db"
    os.mkfifo(fifo)
    done = bigtwo("--db", str(fifo), "session", "list", env=child_env(fifo))
    assert done.returncode == 1
    assert "it is a FIFO (named pipe), not a file" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ledger.db"]  # no -journal beside it


@pytest.mark.parametrize("command", [("session", "list"), ("log",),
                                     ("session", "start", "--players", "Ann,Ben,Cat,Dan")])
def test_dev_null_as_the_ledger_is_refused_and_leaves_no_journal(cli, command) -> None:
    journal = Path("/dev/null-journal")
    had = journal.exists()
    result = cli("--db", "/dev/null", *command)
    left = journal.exists() and not had
    if left:  # today's main wrote it: clean up what the bug left
        journal.unlink()
    assert result.exit_code == 1
    assert "error: cannot open the ledger /dev/null: it is a character device, not a file" in result.stderr
    assert not left


@pytest.mark.no_ledger
def test_import_of_a_fifo_says_what_it_is(cli, tmp_path: Path, ledger_path: Path) -> None:
    fifo = tmp_path / "export.json"
    os.mkfifo(fifo)
    err = cli.fails("import", str(fifo))
    assert "it is a FIFO (named pipe), not a file" in err and "no such file" not in err
    assert not ledger_path.exists()


@pytest.mark.no_ledger
def test_import_of_a_sample_toml_says_what_it_is_and_how_to_use_it(cli, ledger_path) -> None:
    err = cli.fails("import", str(ROOT / "sample_sessions" / "evening.toml"))
    assert err.startswith("error: evening.toml is a sample session file")
    assert "bigtwo demo" in err and "bigtwo table" in err
    assert "needs 4 players" not in err
    assert not ledger_path.exists()


@pytest.mark.no_ledger
def test_a_sample_file_nested_deep_is_one_error_line(tmp_path: Path, ledger_path: Path) -> None:
    from ledger.core.errors import InputError
    from ledger.formats.samples import read_sample

    deep = tmp_path / "deep.toml"
    deep.write_text("[[session]]\nplayers = " + "[" * 1000 + "]" * 1000 + "\n", "utf-8")
    with pytest.raises(InputError, match="nested 1000 levels deep"):
        read_sample(deep)
    assert file_digest(ledger_path) == "absent"


# --- every path option (issue 30) --------------------------------------------------------
# Each option or argument that names a file, with a command line around it: the target's
# name (its ending chosen so today's code would go on to read or write it) and whether it
# should be a folder.  A FIFO given to any of them once made the command wait for ever
# (`serve --cert`), and `backup --force` or `export --out` replaced a device node with a
# regular file.

PATH_OPTIONS: dict[str, tuple[str, Callable[[str], list[str]]]] = {
    "--db": ("l.db", lambda p: ["--db", p, "standings"]),
    "serve --cert": ("cert.pem", lambda p: ["serve", "--port", "0", "--cert", p, "--key", KEYFILE]),
    "serve --key": ("key.pem", lambda p: ["serve", "--port", "0", "--cert", KEYFILE, "--key", p]),
    "serve --token-file": ("token.txt", lambda p: ["serve", "--port", "0", "--token-file", p]),
    "backup FILE": ("b.db", lambda p: ["backup", p, "--force"]),
    "restore FILE": ("b.db", lambda p: ["restore", p]),
    "import FILE": ("e.json", lambda p: ["import", p]),
    "export --out": ("e.json", lambda p: ["export", "--all", "--out", p]),
    "plot --out": ("p.png", lambda p: ["plot", "--out", p]),
    "settle --out": ("s.png", lambda p: ["settle", "--format", "png", "--out", p]),
    "rules show NAME": ("r.toml", lambda p: ["rules", "show", p]),
    "session start --rules": ("r.toml", lambda p: ["session", "start", "--players", "A,B,C,D",
                                                   "--rules", p]),
    "compare --rules": ("r.toml", lambda p: ["compare", "3S", "4S", "--rules", p]),
    "redeal-check --rules": ("r.toml", lambda p: ["redeal-check", "3D", "--rules", p]),
    "app build FOLDER": ("site", lambda p: ["app", "build", p]),
    "bot telegram --token-file": ("token.txt", lambda p: ["bot", "telegram", "--token-file", p]),
    "bot telegram --db-per-chat": ("chats", lambda p: ["bot", "telegram", "--token-file", KEYFILE,
                                                       "--db-per-chat", p]),
}
FOLDER_OPTIONS = ("app build FOLDER", "bot telegram --db-per-chat")
KEYFILE = str(ROOT / "pyproject.toml")  # a regular file: the other of --cert and --key


@pytest.fixture(scope="module")
def small_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ledger") / "ledger.db"
    for args in (("session", "start", "--players", "Ann,Ben,Cat,Dan"), ("deal", "0", "3", "8", "12")):
        assert bigtwo(*args, env=child_env(path)).returncode == 0
    return path


def _make(target: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
        (target / "kept.txt").write_text("kept", "utf-8")
    elif kind == "file":
        target.write_text("kept", "utf-8")
    else:  # a character device of the test's own (the null device's numbers), never /dev/null
        try:
            os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("making a device node needs root (CI runs as root)")


def _same(target: Path, kind: str) -> bool:
    mode = os.lstat(target).st_mode
    return {"fifo": stat.S_ISFIFO, "folder": stat.S_ISDIR, "file": stat.S_ISREG,
            "device": stat.S_ISCHR}[kind](mode) and (
        kind != "folder" or sorted(p.name for p in target.iterdir()) == ["kept.txt"])


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
@pytest.mark.parametrize("option", list(PATH_OPTIONS))
def test_every_path_option_refuses_what_is_not_a_file_at_once(
        option: str, kind: str, tmp_path: Path, small_ledger: Path) -> None:
    name, argv = PATH_OPTIONS[option]
    wants_folder = option in FOLDER_OPTIONS
    if wants_folder and kind == "folder":
        kind = "file"  # a folder is what it wants: a plain file is what is not one
    target = tmp_path / name
    _make(target, kind)
    before = file_digest(small_ledger)
    try:
        done = bigtwo(*argv(str(target)), env=child_env(small_ledger), timeout=20)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{option} naming a {kind} made bigtwo wait") from None
    lines = done.stderr.splitlines()
    assert done.returncode != 0 and len(lines) == 1, done.stderr
    if option == "--db":
        assert lines[0].startswith(f"error: cannot open the ledger {target}: it is a ")
    elif option.endswith(("--rules", "NAME")):
        assert lines[0].startswith(f"error: rule file {target}: it is a ")
    else:
        shown = f"{option.split()[-1]} {target}" if option.split()[-1].startswith("--") else str(target)
        assert lines[0].startswith(f"error: {shown}: it is a ")
        assert lines[0].endswith("not a folder; give a folder" if wants_folder
                                 else "not a file; give a regular file"), lines[0]
    assert _same(target, kind), f"{option} changed the {kind}"
    assert file_digest(small_ledger) == before


@pytest.mark.no_ledger
@pytest.mark.parametrize("command", [("doctor",), ("backup", "{tmp}/b.db"), ("standings",)])
def test_bigtwo_db_naming_a_fifo_says_what_it_is(command: tuple[str, ...], tmp_path: Path) -> None:
    """$BIGTWO_DB is checked as --db is: ``doctor`` and ``backup`` once said "no ledger at
    … yet" of a FIFO."""
    fifo = tmp_path / "ledger.db"
    os.mkfifo(fifo)
    done = bigtwo(*(word.format(tmp=tmp_path) for word in command), env=child_env(fifo))
    assert done.returncode == 1
    assert done.stderr == (f"error: cannot open the ledger {fifo}: it is a FIFO (named pipe), not a file; "
                           "a ledger is a regular file (or a new name)\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("option", ["serve --cert", "serve --token-file", "restore FILE",
                                    "import FILE", "rules show NAME"])
def test_dev_null_is_refused_where_a_file_is_read(option: str, tmp_path: Path,
                                                  small_ledger: Path) -> None:
    name, argv = PATH_OPTIONS[option]
    link = tmp_path / name  # named as the option expects (a rule file ends in .toml)
    link.symlink_to("/dev/null")
    done = bigtwo(*argv(str(link)), env=child_env(small_ledger), timeout=20)
    assert done.returncode != 0
    assert done.stderr.startswith("error: ") and "it is a character device, not a file" in done.stderr


def _commands(group: Any, ctx: Any = None) -> Iterator[tuple[str, Any]]:
    """Every command under ``group`` (the feature commands loaded), with its words."""
    import typer

    ctx = typer.Context(group, parent=ctx)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if getattr(command, "commands", None):
            for sub, found in _commands(command, ctx):
                yield f"{name} {sub}", found
        else:
            yield name, command


def test_every_option_that_names_a_path_is_checked_and_tested() -> None:
    """A new path option cannot forget the check: a parameter named like a path (a file,
    a folder, ``--out``, ``--rules``…) without one of the checks fails here, and so does a
    checked one missing from the table the tests above run."""
    import typer

    from ledger.cli.app import app
    from ledger.cli.common import PATH_CHECKS

    root = typer.main.get_command(app)
    checked, unchecked = set(), set()
    for where, command in [("", root), *_commands(root)]:
        for param in command.params:
            option = param.opts[0] if param.opts[0].startswith("-") else None
            label = f"{where} {option or (param.metavar or param.name).upper()}".strip()
            if getattr(param.callback, "__wrapped__", param.callback) in PATH_CHECKS:
                checked.add(label)
            elif param.metavar in ("FILE", "FOLDER") or param.name in PATHLIKE:
                unchecked.add(label)
    assert not unchecked, f"path options without a check: {sorted(unchecked)}"
    assert checked == set(PATH_OPTIONS)


PATHLIKE = {"db", "file", "folder", "out", "rules", "rules_name", "cert", "key", "token_file"}
