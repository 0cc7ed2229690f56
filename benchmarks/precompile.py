"""Compile the ledger package's bytecode before a benchmark times it.

An installed `bigtwo` runs from compiled `.pyc` files: pip writes them when it
installs the package, and so does Python on a package's first import.  A checkout
run with PYTHONDONTWRITEBYTECODE set (or from a read-only folder) never gets them,
so every command would recompile each of our modules from source (~35 ms on the
deal path) while the floor's dependencies (Typer, pydantic) load compiled.  The
benchmarks compile first, so both sides load compiled code, as they do when
installed.
"""

from __future__ import annotations

import compileall
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "ledger"


def compile_ledger() -> None:
    """Write (or refresh) the ``__pycache__`` of every module of ``ledger/``."""
    if not compileall.compile_dir(str(PACKAGE), quiet=1):
        raise SystemExit(f"could not compile {PACKAGE}")
