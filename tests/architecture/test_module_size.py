"""No module in ledger/ grows past 500 lines — a module that size usually does more than
one thing — except the few named in docs/architecture.md ("Modules that read better
whole"), each with the reason it is one module and the size it may reach."""

from __future__ import annotations

import re

from helpers import ROOT

LIMIT = 500
MOST_ALLOWED = 5  # the list stays short: a long one would mean the limit means nothing
ROW = re.compile(r"^\| `(ledger/[\w/]+\.py)` \| (\d+) \| (.+) \|$")


def allowed() -> dict[str, tuple[int, str]]:
    """The allow-list as docs/architecture.md writes it: module -> (lines at most, why)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("### Modules that read better whole", 1)[1].split("\n#", 1)[0]
    return {m[1]: (int(m[2]), m[3].strip()) for line in section.splitlines()
            if (m := ROW.match(line.strip()))}


def sizes() -> dict[str, int]:
    return {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
            for p in (ROOT / "ledger").rglob("*.py")}


def test_no_module_is_over_500_lines_unless_the_architecture_says_why() -> None:
    found = sizes()
    assert len(found) > 50  # the package was found
    listed = allowed()
    over = {path: n for path, n in found.items()
            if n > (listed[path][0] if path in listed else LIMIT)}
    assert not over, (f"split these modules along what they do (over {LIMIT} lines, or over "
                      f"the size docs/architecture.md allows them): {over}")


def test_the_allow_list_is_short_and_every_entry_earns_its_place() -> None:
    found = sizes()
    listed = allowed()
    assert len(listed) <= MOST_ALLOWED, listed
    for path, (most, why) in listed.items():
        assert path in found, f"{path} is allowed past {LIMIT} lines but does not exist"
        assert found[path] > LIMIT, f"{path} is {found[path]} lines: take it off the allow-list"
        assert most <= 2 * LIMIT, f"{path}: allowed {most} lines; split it"
        assert len(why.split()) >= 8, f"{path}: say why it reads better whole"
