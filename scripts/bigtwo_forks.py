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

Protocol, on this process's standard input and output (both kept apart from the
children's, which are ``/dev/null`` here): a request is one line of JSON
``{"argv", "env", "cwd", "stdin", "out", "timeout"}`` (``stdin`` and ``out`` name
files); the answer is one line, the child's exit status as a number (negative: the
signal that ended it; a child still running after ``timeout`` seconds is killed).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time


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
    os.dup2(stdin, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(stdin)
    os.close(out)
    argv = request["argv"]
    assert isinstance(argv, list)
    sys.argv = ["-m", *map(str, argv)]
    import runpy

    runpy.run_module("ledger", run_name="__main__", alter_sys=True)
    raise SystemExit(0)


def wait(pid: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.002)


def serve() -> None:
    sys.path[0] = os.getcwd()  # not this script's folder: what `python -m` would have
    import ledger.cli.app  # noqa: F401  (what every example imports, once)

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


if __name__ == "__main__":
    serve()
