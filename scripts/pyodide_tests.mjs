// Run this repository's tests inside Pyodide (CPython 3.14 compiled to WebAssembly,
// the vendored release the phone runs) under Node: scripts/pyodide_tests.py starts it.
//
//   node scripts/pyodide_tests.mjs REPO HOST_SITE_PACKAGES TEST_WHEELS_DIR [pytest args…]
//
// The repository is mounted read-write at /repo (pytest's tmp_path lives in Pyodide's
// memory); the engine's wheels are the vendored ones, exactly as in the phone; pytest
// is read from the host's test environment (after Pyodide's own packages), the wheels
// of TEST_WHEELS_DIR (hypothesis, pure Python) are installed first. Exit status: pytest's.

import { loadPyodide } from "../ledger/web/static/vendor/pyodide/pyodide.mjs";
import fs from "node:fs";
import path from "node:path";

const [repo, hostSite, testWheels, ...args] = process.argv.slice(2);
const vendor = path.join(repo, "ledger", "web", "static", "vendor");
// The standard library compiled as the phone loads it (scripts/vendor_pyodide.py).
const pyodide = await loadPyodide({ indexURL: path.join(vendor, "pyodide") + path.sep,
                                    stdLibURL: path.join(vendor, "compiled", "python_stdlib.zip") });
const site = pyodide.runPython("import site; site.getsitepackages()[0]");
for (const folder of [path.join(vendor, "wheels"), testWheels]) {
  for (const wheel of fs.readdirSync(folder).filter((f) => f.endsWith(".whl")).sort()) {
    pyodide.unpackArchive(new Uint8Array(fs.readFileSync(path.join(folder, wheel))), "wheel", { extractDir: site });
  }
}
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
pyodide.FS.mkdirTree("/host-site");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: hostSite }, "/host-site");
pyodide.globals.set("pytest_args", pyodide.toPy(args));
const status = pyodide.runPython(`
import os, sys
sys.path.insert(0, "/repo")
sys.path.append("/host-site")
os.chdir("/repo")
os.environ.setdefault("TZ", "UTC")
print(f"pyodide: Python {sys.version.split()[0]} on {sys.platform}", flush=True)
import pytest

class LaptopOnly:
    """The command line is not in the phone: tests that drive it (fixture \`cli\`) stay on the laptop."""

    @staticmethod
    def pytest_collection_modifyitems(config, items):
        kept = [i for i in items if "cli" not in getattr(i, "fixturenames", ())]
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept

int(pytest.main(list(pytest_args), plugins=[LaptopOnly()]))
`);
process.exit(status);
