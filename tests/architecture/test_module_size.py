"""No module in ledger/ grows past 500 lines: a module that size does more than one
thing (the layers issue split a 1,378-line store into parts)."""

from __future__ import annotations

from helpers import ROOT

LIMIT = 500


def test_no_module_is_over_500_lines() -> None:
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in (ROOT / "ledger").rglob("*.py")}
    assert len(sizes) > 50  # the package was found
    over = {path: n for path, n in sizes.items() if n > LIMIT}
    assert not over, f"split these modules (over {LIMIT} lines): {over}"
