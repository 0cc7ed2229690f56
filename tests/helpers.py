"""Helpers shared by the tests (fixtures live in conftest.py)."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
from collections import Counter
from pathlib import Path

from ledger.core.scoring import Deal
from ledger.formats.sheet import read_sheet

ROOT = Path(__file__).resolve().parent.parent
"""The repository's root folder."""
DATA = ROOT / "tests" / "data"
"""Fixture files kept with the tests."""


def file_digest(path: Path) -> str:
    """A fingerprint of the ledger's content (all tables), to prove nothing changed."""
    import sqlite3

    if not path.exists():
        return "absent"
    conn = sqlite3.connect(path)
    try:
        dump = "\n".join(conn.iterdump())
    finally:
        conn.close()
    return hashlib.sha256(dump.encode()).hexdigest()


def to_deal(rules: dict, facts: dict) -> Deal:
    """The reference's facts as the engine's Deal, without options these rules do not score."""
    twos = facts["twos"] if rules["twos"] != "off" else {}
    bombs = facts["bombs"] if rules["bombs"] != "off" else {}
    finish = facts["finish"] if rules["finish_double"] else None
    if twos and finish != "two" and sum(twos.values()) > 4:
        twos = {}
    return Deal(
        cards=facts["cards"] or {}, twos=twos, bombs=bombs, finish=finish,
        assist=facts["assist"], missed_call=facts["missed_call"],
        immediate=facts["immediate"], immediate_by=facts["immediate_by"],
        order=tuple(facts["order"]) if facts["order"] else None, shootout=facts["shootout"],
    )


def write_sheet(path: Path, deals: int, seed: int = 7) -> dict[str, int]:
    """A club's score sheet: evenings of 40-80 games; returns games per session uuid."""
    rng = random.Random(seed)
    club = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
    lines, written, day = [], 0, 1
    while written < deals:
        lines.append(f"2024-{(day // 28) % 12 + 1:02d}-{day % 28 + 1:02d}")
        if rng.random() < 0.2:
            lines.append(f"F={rng.choice((10, 11, 12))}")
        lines.append(" ".join(rng.sample(club, 4)))
        for _ in range(min(deals - written, rng.randrange(40, 81))):
            cells = [0] + [rng.randrange(1, 14) for _ in range(3)]
            rng.shuffle(cells)
            text = [str(c) for c in cells]
            if rng.random() < 0.03:
                text[rng.randrange(4)] += "t"
            lines.append(" ".join(text))
            written += 1
        day += 1
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return dict(Counter(g.session.uuid for g in read_sheet(lines)))


JOSE = "Jose\u0301"
"""José typed with a combining accent (decomposed): one name with the composed José."""
CJK_SEATS = ["陳大文", "李小明", JOSE, "🐉Dragon"]
"""A Hong Kong table: Chinese names, a decomposed accent and an emoji."""
CJK_DEALS = (("0", "3", "11", "8"), ("5", "0", "2", "13"), ("9", "1", "0", "4"))


def chinese_evening(cli, deals: int = 3):
    """A session of :data:`CJK_SEATS` at 0.5 HKD a point with the first ``deals`` deals."""
    cli.ok("session", "start", "--players", ",".join(CJK_SEATS), "--stake", "0.5",
           "--currency", "HKD")
    for cards in CJK_DEALS[:deals]:
        cli.ok("deal", *cards)
    return cli


def forked_bigtwo(args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None,
                  stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m ledger ARGS`` as a process forked from one that imported the command
    line once (scripts/bigtwo_forks.py, one per test worker): for the tests that read what
    `bigtwo` prints and its exit status, not how a process starts, stops or is limited.
    ``env`` is the child's whole environment (``os.environ`` by default)."""
    import bigtwo_forks  # scripts/, on the tests' path (pyproject.toml)

    done = bigtwo_forks.shared().run(args, dict(os.environ if env is None else env),
                                     Path.cwd() if cwd is None else cwd, stdin, timeout)
    return subprocess.CompletedProcess(["bigtwo", *args], done.returncode, done.stdout,
                                       done.stderr)
