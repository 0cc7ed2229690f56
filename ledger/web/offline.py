"""The offline phone app as a static site: ``bigtwo app build DIR`` and ``/app`` of ``bigtwo serve``.

The site holds the phone app (``static/app/``), this package's engine as a zip for
Pyodide (``static/engine.zip``: core, storage, book, formats, present's text parts,
the rule presets, the catalogs and the engine (``ledger/engine``) — no CLI, no server, no plots),
the vendored Pyodide and wheels (``static/vendor/``, see scripts/vendor_pyodide.py),
a web manifest per language and a service worker that caches every file of the site
(docs/offline.md).  Every path in it is relative, so it works from any folder of any
HTTPS host.  Pure file work: no network, no Node, nothing run.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # ledger/
STATIC = PACKAGE / "web" / "static"

# The engine's Python: every module of these packages (their data files too) …
ENGINE_PACKAGES = ("core", "storage", "book", "formats", "present", "engine")
# … but not these (matplotlib, fonts) …
ENGINE_LEFT_OUT = ("present/plots.py", "present/fonts.py", "present/share.py")
VENDOR_LEFT_OUT = ("README.md", "package.json", "vendor.json",
                   # the release's standard library, sources only: the engine loads the
                   # compiled one (vendor/compiled/, scripts/vendor_pyodide.py)
                   "pyodide/python_stdlib.zip")

NAMES = {  # the manifest's name and short name in each language
    "en": ("Big Two ledger", "Big Two"),
    "zh_Hant": ("鋤大D 計分簿", "鋤大D"),
    "zh_Hans": ("锄大地 记分簿", "锄大地"),
}
HTML_LANG = {"en": "en", "zh_Hant": "zh-Hant-HK", "zh_Hans": "zh-Hans"}
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
       "connect-src 'self' https:; img-src 'self' data: blob:; style-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'none'")

_STAMP = (2020, 1, 1, 0, 0, 0)  # zip entries dated alike: the same tree gives the same bytes


def engine_files() -> Iterator[tuple[str, Path]]:
    """(path inside the zip, file) of everything the phone's Python imports or reads."""
    yield "ledger/__init__.py", PACKAGE / "__init__.py"
    for package in ENGINE_PACKAGES:
        for path in sorted((PACKAGE / package).rglob("*")):
            rel = path.relative_to(PACKAGE).as_posix()
            if (path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
                    and rel not in ENGINE_LEFT_OUT):
                yield f"ledger/{rel}", path
    for path in sorted((PACKAGE / "locale").rglob("*.mo")):
        yield f"ledger/{path.relative_to(PACKAGE).as_posix()}", path


def engine_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, path in engine_files():
            info = zipfile.ZipInfo(name, _STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return out.getvalue()


def first_answers(loads: int) -> bytes:
    """``static/first.json``: what the app shows before its engine is ready on a first
    open, answered by the same engine from the same records: in each language the
    ``words`` and ``presets`` answers and every preset's offered deal facts (the board's
    ``facts``, alone and in teams), and ``bytes``, what the engine downloads once."""
    import tempfile

    from ledger.core import i18n
    from ledger.core.registry import offered_facts
    from ledger.core.rules import load_preset, preset_names
    from ledger.engine.phone import Phone

    langs: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        phone = Phone(str(Path(folder) / "bigtwo.db"))
        try:
            for lang in NAMES:
                def ask(op: str, lang: str = lang) -> object:
                    return json.loads(phone.answer(op, "{}", lang))["ok"]

                with i18n.using(lang):
                    facts = {name: {"alone": [o.to_dict() for o in offered_facts(load_preset(name))],
                                    "teams": [o.to_dict() for o in offered_facts(load_preset(name), True)]}
                             for name in preset_names()}
                langs[lang] = {"words": ask("words"), "presets": ask("presets"), "facts": facts}
        finally:
            phone.ledger.close()
    return json.dumps({"bytes": loads, "langs": langs}, ensure_ascii=False,
                      separators=(",", ":"), default=str).encode()


def manifest(lang: str) -> bytes:
    name, short = NAMES[lang]
    return json.dumps({
        "name": name, "short_name": short, "lang": HTML_LANG[lang], "id": "./",
        "start_url": f"./?lang={lang}", "scope": "./", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#b00020",
        "icons": [
            {"src": "static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": "static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }, ensure_ascii=False, indent=1).encode()


_IMPORT = re.compile(r'(?:\bfrom\s*|\bimport\s*\(\s*)"\./([\w-]+\.js)"')


ENGINES = ("engine-worker.js", "engine-hub.js")
# Wheels the worker puts on sys.path as they are (Python imports from a zip) instead of
# unpacking them at every start: tzdata's ~600 small files took ~200 ms of each start
# (docs/performance.md, run H), for a time zone the phone may never ask for; zoneinfo
# reads it through importlib.resources, which reads inside a zip.
WHOLE_WHEELS = ("tzdata-",)


def start_modules(entry: str = "main.js", engine: str = "engine-worker.js") -> list[str]:
    """The app's modules the page loads before its first screen: ``entry`` and what it
    imports, and the chosen ``engine`` (``engine.js`` imports it by name once it is
    chosen; never the other one) with its imports — every ``"./name.js"`` import, read
    from the files."""
    seen: list[str] = []
    todo = [entry, engine]
    while todo:
        name = todo.pop(0)
        if name in seen or (name in ENGINES and name != engine):
            continue
        seen.append(name)
        todo.extend(_IMPORT.findall((STATIC / "app" / name).read_text(encoding="utf-8")))
    return seen


def preloads(prefix: str, modules: list[str]) -> str:
    """``<link rel="modulepreload">`` lines for ``modules`` under ``prefix``."""
    return "".join(f'<link rel="modulepreload" href="{prefix}{name}">\n' for name in modules)


def index_html() -> bytes:
    """The phone app's page with relative paths, the worker engine, the manifest, the
    service worker's script and a content security policy (no host sends headers).

    Every module of the first screen is named in the page (``modulepreload``), so the
    browser fetches and compiles them side by side while it parses the page, instead of
    one level of imports after the other (docs/performance.md, "The offline phone app")."""
    page = (STATIC / "app" / "index.html").read_text(encoding="utf-8")
    page = page.replace('"/static/', '"static/')
    page = re.sub(r'data-engine-kind="[a-z]+"', 'data-engine-kind="worker"', page)
    preload = preloads("static/app/", start_modules())
    head = (f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<link rel="manifest" href="manifest.en.webmanifest">\n'
            '<link rel="apple-touch-icon" href="static/icons/icon-192.png">\n'
            '<script type="module" src="static/offline/offline.js"></script>\n')
    main = '<script type="module" src="static/app/main.js"></script>'
    page = page.replace(main, preload + main, 1)
    return page.replace("<head>\n", "<head>\n" + head, 1).encode()


@lru_cache(maxsize=1)
def _vendor() -> tuple[tuple[str, Path], ...]:
    found = []
    for path in sorted((STATIC / "vendor").rglob("*")):
        rel = path.relative_to(STATIC / "vendor").as_posix()
        if path.is_file() and path.name not in VENDOR_LEFT_OUT and rel not in VENDOR_LEFT_OUT:
            found.append((f"static/{path.relative_to(STATIC).as_posix()}", path))
    return tuple(found)


def address_files(url: str) -> dict[str, bytes]:
    """For a site built for a known address (``bigtwo app build --url``): a QR code of it
    (``static/app-qr.svg``) and the address it encodes (``static/app-address.json``); the
    tables screen shows the code where the app is opened at that address."""
    from ledger.present.qr import qr_svg

    return {"static/app-qr.svg": qr_svg(url),
            "static/app-address.json": json.dumps({"url": url, "qr": "app-qr.svg"}).encode()}


def site(extra: dict[str, bytes] | None = None, url: str | None = None) -> dict[str, bytes]:
    """Every file of the site by its relative path (sw.js last: it lists the others);
    ``extra`` files (a club's own page, say) are added and cached like the rest; ``url``,
    the address it will be published at, adds a QR code of it (:func:`address_files`)."""
    files: dict[str, bytes] = {"index.html": index_html()}
    for folder in ("app", "offline", "icons"):
        for path in sorted((STATIC / folder).rglob("*")):
            if path.is_file():
                files[f"static/{path.relative_to(STATIC).as_posix()}"] = path.read_bytes()
    files["static/icon.svg"] = (STATIC / "icon.svg").read_bytes()
    files["static/app/index.html"] = index_html()  # never the hub's page inside the site
    for rel, path in _vendor():
        files[rel] = path.read_bytes()
    files["static/engine.zip"] = engine_zip()
    wheels = sorted(rel.removeprefix("static/") for rel in files if rel.endswith(".whl"))
    whole = [w for w in wheels if w.rsplit("/", 1)[-1].startswith(WHOLE_WHEELS)]
    files["static/engine.json"] = json.dumps({
        "zip": "engine.zip", "wheels": [w for w in wheels if w not in whole], "whole": whole,
    }, indent=1).encode()
    loads = sum(len(data) for rel, data in files.items()
                if rel.startswith("static/vendor/") or rel == "static/engine.zip")
    files["static/first.json"] = first_answers(loads)
    for lang in NAMES:
        files[f"manifest.{lang}.webmanifest"] = manifest(lang)
    files.pop("static/offline/sw.js")
    if url:
        files.update(address_files(url))
    files.update(extra or {})
    listed = ["./", *sorted(files)]
    version = hashlib.sha256(b"".join(hashlib.sha256(files[f]).digest() for f in sorted(files)))
    worker = (STATIC / "offline" / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace('const VERSION = "unbuilt";', f'const VERSION = "{version.hexdigest()[:16]}";', 1)
    worker = worker.replace("const FILES = [];", f"const FILES = {json.dumps(listed)};", 1)
    files["sw.js"] = worker.encode()
    return files


def build(folder: Path, extra: dict[str, bytes] | None = None,
          url: str | None = None) -> tuple[int, int]:
    """Write the site into ``folder`` (made if missing); (files, bytes) written."""
    files = site(extra, url)
    for rel, data in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return len(files), sum(len(d) for d in files.values())


TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".json": "application/json", ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm", ".zip": "application/zip", ".whl": "application/zip",
    ".png": "image/png", ".svg": "image/svg+xml", ".txt": "text/plain; charset=utf-8",
}


@lru_cache(maxsize=1)
def served() -> dict[str, bytes]:
    """The site as ``bigtwo serve`` answers it at ``/app/`` (built once per process)."""
    return site()


def content_type(rel: str) -> str:
    return TYPES.get(Path(rel).suffix, "application/octet-stream")
