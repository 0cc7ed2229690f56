"""Run the core's and storage's tests inside Pyodide too: two Pythons, one result.

    python scripts/pyodide_tests.py            # the tests below, under Node
    python scripts/pyodide_tests.py tests/core/test_text.py -k nfc

The phone runs this package in Pyodide (CPython 3.14 in WebAssembly, newer Unicode
tables than the laptop's 3.11); these tests prove the phone and the laptop score,
clean names and order entries alike.  Node runs the vendored Pyodide
(scripts/pyodide_tests.mjs); pytest comes from this environment, hypothesis as the
last release that is pure Python (this environment's has a compiled part), fetched by
``pip download`` into a temporary folder (a test-time need, like the test extras).
.ci/run calls it after the main test run.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the phone must agree with the laptop on: scoring's worked examples and the
# independent reference scorer, the deal grammar, cards and plays, name cleaning and
# NFC, rules and presets, the dealer; the ledger's entries, undo and standings; the
# doctests of the pure core.
TESTS = (
    "tests/core",
    "tests/book/test_next_turn.py",
    "tests/book/test_settle_all.py",
    "ledger/core",
)
# The command line is not in the phone: tests of it stay on the laptop (the runner
# deselects those that use the `cli` fixture).
OPTIONS = ("-p", "no:cacheprovider", "-q", "--runslow", "-rfE")
TEST_WHEELS = ("hypothesis==6.139.3", "attrs==26.1.0")  # pure Python (and what it needs that is not here)


def main(argv: list[str]) -> int:
    node = shutil.which("node")
    if node is None:
        print("error: pyodide_tests: node is not installed (apt-get install nodejs)", file=sys.stderr)
        return 1
    site = sysconfig.get_paths()["purelib"]
    args = [*OPTIONS, *(argv or TESTS)]
    with tempfile.TemporaryDirectory(prefix="pyodide-test-wheels-") as wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "-d", wheels, *TEST_WHEELS], check=True, stderr=subprocess.DEVNULL)
        return subprocess.call([node, str(ROOT / "scripts" / "pyodide_tests.mjs"), str(ROOT), site,
                                wheels, *args])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
