"""Vendor Pyodide and the pure-Python wheels the phone's engine imports, pinned and checksummed.

The offline phone app (docs/offline.md) runs this package in Pyodide inside a Web
Worker.  Nothing is downloaded at install or run time: this script is run by a
developer when the pins below change, and its output is committed under
``ledger/web/static/vendor/``.

    python scripts/vendor_pyodide.py           # fetch the pins, check their sha256, extract
    python scripts/vendor_pyodide.py --check   # the committed files match the pins (CI)
    python scripts/vendor_pyodide.py --compile # only the compiled standard library, again

Pyodide comes from the npm registry (``npm pack pyodide@VERSION``: the release tarball,
whose sha256 is pinned here); only the files the engine loads are kept.  The wheels
come from PyPI (``pip download --no-deps``), each pinned by version and sha256:
opening a new ledger runs its migrations through sqlite-utils, which imports click,
click-default-group, dateutil (→ tzdata), pluggy, tabulate and sqlite-fts4; segno draws
a payment's QR code (the ``qr`` op of ``ledger/engine/phone.py``, as the hub's ``POST /qr``).

The release's standard library (``python_stdlib.zip``) holds sources only, so each start
of the engine compiled every module it imported: about three quarters of a start.
``compiled/python_stdlib.zip`` is the same zip with each module's source replaced by its
bytecode, compiled by Pyodide's own CPython under Node (``scripts/compile_stdlib.mjs``),
hash-based (PEP 552: the source's hash is in each ``.pyc``).  The compile is
reproducible; its sha256 is recorded, and ``--check`` also finds every other member of
the release's zip in it unchanged and each ``.pyc`` made from the release's source.  The
app loads that one (``stdLibURL``); the release's zip stays as the check's reference
and is not served.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "ledger" / "web" / "static" / "vendor"
PYODIDE_DIR = VENDOR / "pyodide"
WHEELS_DIR = VENDOR / "wheels"
MANIFEST = VENDOR / "vendor.json"
COMPILED = VENDOR / "compiled" / "python_stdlib.zip"

PYODIDE_VERSION = "314.0.7"
PYODIDE_TARBALL_SHA256 = "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"
# What the engine loads: the loader, the runtime, the standard library, the lock file
# (loadPyodide reads it even when no package is loaded).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json", "README.md")

# (file name, sha256) of each wheel, as on PyPI.
WHEELS = (
    ("sqlite_utils-4.2.1-py3-none-any.whl",
     "7fbaee670713b25eceba05779b844f0895efaf680d9a226fa5ba7dfe165721c5"),
    ("click-8.5.1-py3-none-any.whl",
     "8bb5376d2006950386f8c6427613334a2acadc5f559cb80e638d00b4df957e37"),
    ("click_default_group-1.2.4-py2.py3-none-any.whl",
     "9b60486923720e7fc61731bdb32b617039aba820e22e1c88766b1125592eaa5f"),
    ("python_dateutil-4.0.0-py3-none-any.whl",
     "a5e246f79eb80475e691bf93862cead98decd8a498cf53ba0516fcdc0f50dc1c"),
    ("tzdata-2026.6-py2.py3-none-any.whl",
     "0a10eec6e13ef16b627fabed9a5f2ba61a62b1c67f327305f4e7e412a70b4aec"),
    ("pluggy-1.7.0-py3-none-any.whl",
     "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec"),
    ("tabulate-0.10.0-py3-none-any.whl",
     "f0b0622e567335c8fabaaa659f1b33bcb6ddfe2e496071b743aa113f8774f2d3"),
    ("sqlite_fts4-1.0.3-py3-none-any.whl",
     "0359edd8dea6fd73c848989e1e2b1f31a50fe5f9d7272299ff0e8dbaa62d035f"),
    # A payment's QR code (ledger/present/qr.py), drawn on the phone as on the hub:
    # segno, pure Python, BSD-3-Clause (its LICENSE in the wheel's .dist-info).
    ("segno-1.6.6-py3-none-any.whl",
     "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7"),
)

LICENCE = """Pyodide {version} (https://github.com/pyodide/pyodide), from the npm package
pyodide@{version}, is distributed under the Mozilla Public License 2.0
(https://www.mozilla.org/en-US/MPL/2.0/); its source is at
https://github.com/pyodide/pyodide/tree/{version}.  It contains CPython (Python
Software Foundation License, https://docs.python.org/3/license.html) and SQLite
(public domain).  These files are unmodified copies of the release's files.

The wheels in ../wheels/ are unmodified copies from PyPI; each carries its licence
in its .dist-info folder (segno: BSD-3-Clause).
"""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def wheel_spec(filename: str) -> str:
    """``click-8.5.1-py3-none-any.whl`` → ``click==8.5.1`` (pip's requirement)."""
    name, version = filename.split("-")[:2]
    return f"{name.replace('_', '-')}=={version}"


def manifest() -> dict[str, object]:
    """What --check compares: every vendored file's sha256, from the pins."""
    return {"pyodide": PYODIDE_VERSION, "tarball_sha256": PYODIDE_TARBALL_SHA256,
            "wheels": dict(WHEELS)}


def fetch(work: Path) -> None:
    subprocess.run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=work,
                   check=True, stdout=subprocess.DEVNULL)
    tarball = (work / f"pyodide-{PYODIDE_VERSION}.tgz").read_bytes()
    if sha256(tarball) != PYODIDE_TARBALL_SHA256:
        sys.exit(f"error: pyodide@{PYODIDE_VERSION}: sha256 {sha256(tarball)} is not the pinned "
                 f"{PYODIDE_TARBALL_SHA256}")
    if PYODIDE_DIR.exists():
        shutil.rmtree(PYODIDE_DIR)
    PYODIDE_DIR.mkdir(parents=True)
    hashes: dict[str, str] = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                sys.exit(f"error: pyodide@{PYODIDE_VERSION} has no {name}")
            data = member.read()
            (PYODIDE_DIR / name).write_bytes(data)
            hashes[name] = sha256(data)
    (PYODIDE_DIR / "LICENSE.txt").write_text(LICENCE.format(version=PYODIDE_VERSION))

    if WHEELS_DIR.exists():
        shutil.rmtree(WHEELS_DIR)
    WHEELS_DIR.mkdir(parents=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                    "--only-binary=:all:", "-d", str(work / "wheels"),
                    *(wheel_spec(name) for name, _ in WHEELS)], check=True)
    for name, pinned in WHEELS:
        data = (work / "wheels" / name).read_bytes()
        if sha256(data) != pinned:
            sys.exit(f"error: {name}: sha256 {sha256(data)} is not the pinned {pinned}")
        (WHEELS_DIR / name).write_bytes(data)
    record = manifest() | {"files": hashes}
    MANIFEST.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    compile_stdlib()


def compile_stdlib() -> None:
    """``compiled/python_stdlib.zip`` from the vendored release, by Pyodide under Node
    (a developer's step, as fetching is: nothing runs Node at install or run time)."""
    COMPILED.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["node", str(ROOT / "scripts" / "compile_stdlib.mjs"), str(PYODIDE_DIR), str(COMPILED)],
                   check=True)
    record = json.loads(MANIFEST.read_text())
    record["compiled"] = {"python_stdlib.zip": sha256(COMPILED.read_bytes())}
    MANIFEST.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")


def source_hash(magic: bytes, source: bytes) -> bytes:
    """CPython's hash of a source in a hash-based ``.pyc`` (``importlib.util.source_hash``
    of the Python whose magic number is ``magic``): SipHash-1-3 keyed by that number, so
    this Python can check another version's ``.pyc``."""
    mask = (1 << 64) - 1
    key = int.from_bytes(magic, "little")
    v0, v1 = key ^ 0x736F6D6570736575, 0x646F72616E646F6D
    v2, v3 = key ^ 0x6C7967656E657261, 0x7465646279746573
    end = len(source) - len(source) % 8
    words = list(struct.unpack_from(f"<{end // 8}Q", source))
    words.append(((len(source) & 0xFF) << 56) | int.from_bytes(source[end:], "little"))
    rounds = [1] * len(words) + [3]
    words.append(0)
    for word, n in zip(words, rounds, strict=True):
        if n == 3:
            v2 ^= 0xFF
        else:
            v3 ^= word
        for _ in range(n):  # SipRound
            v0 = (v0 + v1) & mask
            v1 = ((v1 << 13) | (v1 >> 51)) & mask ^ v0
            v0 = ((v0 << 32) | (v0 >> 32)) & mask
            v2 = (v2 + v3) & mask
            v3 = ((v3 << 16) | (v3 >> 48)) & mask ^ v2
            v0 = (v0 + v3) & mask
            v3 = ((v3 << 21) | (v3 >> 43)) & mask ^ v0
            v2 = (v2 + v1) & mask
            v1 = ((v1 << 17) | (v1 >> 47)) & mask ^ v2
            v2 = ((v2 << 32) | (v2 >> 32)) & mask
        v0 ^= word
    return (v0 ^ v1 ^ v2 ^ v3).to_bytes(8, "little")


def check_compiled(recorded: dict[str, object]) -> list[str]:
    """The compiled standard library is the recorded one and is the release's zip with
    each source replaced by its bytecode: every other member the same bytes, each
    ``X.pyc`` hash-based (PEP 552) on exactly the release's ``X.py``, one magic number."""
    name = COMPILED.relative_to(ROOT)
    if not COMPILED.exists():
        return [f"{name} is missing: run scripts/vendor_pyodide.py --compile"]
    compiled_record = recorded.get("compiled")
    digest = compiled_record.get("python_stdlib.zip") if isinstance(compiled_record, dict) else None
    if sha256(COMPILED.read_bytes()) != digest:
        return [f"{name} is not the one vendor.json records: run scripts/vendor_pyodide.py --compile"]
    release = PYODIDE_DIR / "python_stdlib.zip"
    if not release.exists():
        return []  # reported with the release's files
    with zipfile.ZipFile(release) as original, zipfile.ZipFile(COMPILED) as compiled:
        held = set(compiled.namelist())
        expected = {n + "c" if n.endswith(".py") else n for n in original.namelist()}
        if held != expected:
            return [f"{name}: its members are not the release's ({sorted(held ^ expected)[:3]})"]
        magics = set()
        for info in original.infolist():
            data = original.read(info)
            if not info.filename.endswith(".py"):
                if compiled.read(info.filename) != data:
                    return [f"{name}: {info.filename} is not the release's"]
                continue
            pyc = compiled.read(info.filename + "c")
            magics.add(pyc[:4])
            if int.from_bytes(pyc[4:8], "little") & 0b1 == 0 or pyc[8:16] != source_hash(pyc[:4], data):
                return [f"{name}: {info.filename}c is not compiled from the release's {info.filename}"]
        if len(magics) != 1:
            return [f"{name}: its bytecode is of {len(magics)} Python versions"]
    return []


def check() -> list[str]:
    """Problems with the committed files: missing, changed, or pins not matching."""
    problems: list[str] = []
    if not MANIFEST.exists():
        return [f"{MANIFEST.relative_to(ROOT)} is missing: run scripts/vendor_pyodide.py"]
    recorded = json.loads(MANIFEST.read_text())
    for key, value in manifest().items():
        if recorded.get(key) != value:
            problems.append(f"vendor.json's {key} is not the script's pin: run scripts/vendor_pyodide.py")
    files: dict[str, str] = recorded.get("files", {})
    if sorted(files) != sorted(PYODIDE_FILES):
        problems.append("vendor.json does not list exactly the Pyodide files the script keeps")
    for name, digest in files.items():
        path = PYODIDE_DIR / name
        if not path.exists():
            problems.append(f"{path.relative_to(ROOT)} is missing")
        elif sha256(path.read_bytes()) != digest:
            problems.append(f"{path.relative_to(ROOT)} differs from pyodide@{PYODIDE_VERSION}")
    for name, digest in WHEELS:
        path = WHEELS_DIR / name
        if not path.exists():
            problems.append(f"{path.relative_to(ROOT)} is missing")
        elif sha256(path.read_bytes()) != digest:
            problems.append(f"{path.relative_to(ROOT)} differs from its pinned sha256")
    extra = {p.name for p in WHEELS_DIR.glob("*")} - {name for name, _ in WHEELS}
    extra |= {p.name for p in PYODIDE_DIR.glob("*")} - {*PYODIDE_FILES, "LICENSE.txt"}
    problems += [f"{name}: vendored but not pinned" for name in sorted(extra)]
    return problems + check_compiled(recorded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="verify the committed files only")
    parser.add_argument("--compile", action="store_true",
                        help="compile the vendored standard library again (Node), nothing fetched")
    args = parser.parse_args()
    if args.compile:
        compile_stdlib()
    if args.check or args.compile:
        problems = check()
        for problem in problems:
            print(f"error: {problem}", file=sys.stderr)
        sys.exit(1 if problems else 0)
    with tempfile.TemporaryDirectory() as work:
        fetch(Path(work))
    problems = check()
    if problems:
        sys.exit("error: " + "; ".join(problems))
    print(f"vendored pyodide {PYODIDE_VERSION} and {len(WHEELS)} wheels into "
          f"{VENDOR.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
