"""`bigtwo` processes forked from one Python that has already imported the command line.

``scripts/update_doc_examples.py`` runs a hundred `$ bigtwo …` examples; as separate
processes each paid Python's start and the imports of Typer and the package (about
0.4 s of CPU) before doing its work.  This server pays them once: for each request it
forks a child that takes the example's working folder, environment, standard input and
output file, then runs ``python -m ledger ARGS`` as a new process would (``runpy``, the
same ``sys.argv``, ``SystemExit`` giving the exit status, ``atexit`` run at the end).
Every module the package reads the environment in reads it when a command runs, not
when it is imported (``TZ`` is applied with ``time.tzset``), so a child's output is
what a process of its own prints; the examples' test would show any difference.

The tests that run `bigtwo` only to read what it prints (tests/web/webhelpers.py,
tests/cli/test_hostile_files.py) use it too, through :class:`Forks`; the tests of the
process itself (its start, crashes, signals, limits) start real processes.

Protocol, on this process's standard input and output (both kept apart from the
children's, which are ``/dev/null`` here): a request is one line of JSON
``{"argv", "env", "cwd", "stdin", "out", "err", "timeout"}`` (``stdin``, ``out`` and
``err`` name files; without ``err`` the standard error goes to ``out``); the answer is
one line, the child's exit status as a number (negative: the signal that ended it; a
child still running after ``timeout`` seconds is killed).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


def child(request: dict[str, object]) -> None:
    """In the forked child: become the example's process, run bigtwo; never returns."""
    os.chdir(str(request["cwd"]))
    sys.path[0] = os.getcwd()  # as `python -m` puts its working folder first
    env = request["env"]
    assert isinstance(env, dict)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in env.items()})
    time.tzset()
    stdin = os.open(str(request["stdin"]), os.O_RDONLY)
    out = os.open(str(request["out"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(str(request["err"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) \
        if request.get("err") else os.dup(out)
    os.dup2(stdin, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in (stdin, out, err):
        os.close(fd)
    argv = request["argv"]
    assert isinstance(argv, list)
    sys.argv = ["-m", *map(str, argv)]
    import runpy

    runpy.run_module("ledger", run_name="__main__", alter_sys=True)
    raise SystemExit(0)


def wait(pid: int, timeout: float) -> int:
    """The child's exit status; past ``timeout`` seconds it is killed (once), then reaped."""
    deadline = time.monotonic() + timeout
    while time.monotonic() <= deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.002)
    os.kill(pid, signal.SIGKILL)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


# Not loaded before the fork: the hub and the bot (Starlette, uvicorn, their threads),
# the charts (matplotlib and its font cache), and ``python -m ledger`` itself.
NOT_PRELOADED = ("ledger.web", "ledger.bot", "ledger.present.plots", "ledger.__main__")


def preload() -> None:
    """Import, once, what a child would import again for each example: the command line,
    pydantic (Typer 0.29 imports it as it reads any command's options, about 0.12 s of
    CPU a process here) and the package's modules but those of :data:`NOT_PRELOADED`.
    What a child prints is unchanged (``tests/architecture/test_doc_examples.py`` compares
    a forked example with one run as a process of its own)."""
    import importlib
    import pkgutil

    import typer._adapters  # noqa: F401  (pydantic, as the first option read would)

    import ledger
    import ledger.cli.app  # what every example imports

    for module in pkgutil.walk_packages(ledger.__path__, "ledger."):
        if not module.name.startswith(NOT_PRELOADED):
            importlib.import_module(module.name)


def serve() -> None:
    sys.path[0] = os.getcwd()  # not this script's folder: what `python -m` would have
    preload()

    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()
            answers.close()
            child(request)
        code = wait(pid, float(request.get("timeout", 120)))
        answers.write(f"{code}\n")
        answers.flush()


class Done(NamedTuple):
    """What a forked `bigtwo` left: its exit status and what it printed."""

    returncode: int
    stdout: str
    stderr: str


class Forks:
    """The client: ``python -m ledger ARGS`` forked from a server started with the first
    call (one per process that uses it; a thread at a time, as the answers are in
    order).  ``env`` is the child's whole environment, as ``subprocess.run``'s is; the
    standard streams are UTF-8, as the server's are (a test of another encoding, of
    the start itself, of signals or limits starts a process of its own)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.lock = threading.Lock()
        self.spool = Path(tempfile.mkdtemp(prefix="bigtwo-forks-"))  # input, output
        atexit.register(shutil.rmtree, self.spool, ignore_errors=True)

    def run(self, args: list[str], env: dict[str, str], cwd: Path | str, stdin: str = "",
            timeout: float = 120, merge: bool = False) -> Done:
        """``bigtwo ARGS`` (``merge``: its standard error into its standard output)."""
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                self.proc = subprocess.Popen(
                    [sys.executable, str(Path(__file__).resolve())],
                    env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
                    cwd=ROOT,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                    encoding="utf-8")
            feed, out, err = (self.spool / name for name in ("stdin", "stdout", "stderr"))
            feed.write_text(stdin, encoding="utf-8")
            request = {"argv": args, "env": env, "cwd": str(cwd), "stdin": str(feed),
                       "out": str(out), "err": "" if merge else str(err), "timeout": timeout}
            assert self.proc.stdin and self.proc.stdout
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline()
            if not answer:
                raise RuntimeError(f"scripts/bigtwo_forks.py stopped (exit {self.proc.wait()})")
            try:
                return Done(int(answer), out.read_text(encoding="utf-8"),
                            "" if merge else err.read_text(encoding="utf-8"))
            finally:
                for file in (feed, out, err):
                    file.unlink(missing_ok=True)


_SHARED: list[Forks] = []


def shared() -> Forks:
    """This process's one client (its server starts with the first call)."""
    if not _SHARED:
        _SHARED.append(Forks())
    return _SHARED[0]


if __name__ == "__main__":
    serve()
