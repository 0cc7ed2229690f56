// Compile Pyodide's standard library to bytecode inside Pyodide itself (its CPython, its
// magic number) under Node: scripts/vendor_pyodide.py runs it when it vendors.
//
//   node scripts/compile_stdlib.mjs PYODIDE_DIR OUT_ZIP
//
// The release's python_stdlib.zip holds only sources, so every start of the phone's
// engine compiled each module it imports (most of a start's time). OUT_ZIP holds every
// member of the release's zip in the same order and with the same dates, each X.py
// replaced by its X.pyc: "unchecked hash-based" (PEP 552: the source's hash is inside,
// which scripts/vendor_pyodide.py --check compares with the release's source), compiled
// under the name its source has when imported (/lib/python3NN.zip/…), so a traceback
// names the same file. Without the sources the zip grows by 2 MB, not 4.5 MB.

import { loadPyodide } from "../ledger/web/static/vendor/pyodide/pyodide.mjs";
import fs from "node:fs";
import path from "node:path";

const [pyodideDir, outZip] = process.argv.slice(2);
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep });
pyodide.FS.writeFile("/tmp/release.zip", new Uint8Array(fs.readFileSync(path.join(pyodideDir, "python_stdlib.zip"))));
pyodide.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

where = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"
with zipfile.ZipFile("/tmp/release.zip") as release, \\
        zipfile.ZipFile("/tmp/compiled.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for info in release.infolist():
        source = release.read(info)
        if not info.filename.endswith(".py"):
            out.writestr(info, source, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
        else:
            code = compile(source, where + info.filename, "exec", dont_inherit=True)
            compiled = zipfile.ZipInfo(info.filename + "c", info.date_time)
            compiled.external_attr = info.external_attr
            data = _code_to_hash_pyc(code, importlib.util.source_hash(source), False)
            out.writestr(compiled, bytes(data), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
`);
fs.writeFileSync(outZip, pyodide.FS.readFile("/tmp/compiled.zip"));
