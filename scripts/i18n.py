"""The interface's translation catalogs (Babel): extract, update, compile, check.

    .venv/bin/python scripts/i18n.py extract   # ledger/locale/bigtwo.pot from the code
    .venv/bin/python scripts/i18n.py update    # new messages into each .po (kept translations stay)
    .venv/bin/python scripts/i18n.py compile   # .po -> .mo (committed: pip install -e . needs no step)
    .venv/bin/python scripts/i18n.py check     # exit 1 if a message lacks a translation or a .mo is stale

Messages are the strings in ``_()``, ``N_()`` and ``ngettext()`` calls under ledger/
(the Python code; the phone app's scripts take their words from ``ledger/engine/lang.py``'s
``N_()`` table), plus every help
text of the command line (each command's and option's, the lazily
loaded feature commands included), read from the built click commands, and the shipped
rule sets' descriptions and sources, and each option's source
(``ledger/core/presets/*.toml``).
"""

from __future__ import annotations

import argparse
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "ledger" / "locale"
POT = LOCALE / "bigtwo.pot"
LANGS = ("zh_Hant", "zh_Hans")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
# The framework's own words: Typer's headings and the "[default: …; required]" of an option's
# help (looked up through gettext), click's usage prefix and help option
# (ledger.cli.common.localize puts them through ours).
# Fixed dates in the catalogs' headers: extracting twice changes no file (and no .mo).
STAMP = datetime(2026, 1, 1, tzinfo=UTC)
FRAMEWORK = ("Options", "Commands", "Arguments", "Usage: ", "Show this message and exit.",
             "default: {default}", "required", "env var: {var}")


def help_texts() -> list[str]:
    """Every help text of the command line, in the order the commands are listed."""
    sys.path.insert(0, str(ROOT))
    import typer.main

    from ledger.cli.app import app
    from ledger.cli.commands import LAZY, load

    root = typer.main.get_command(app)
    found: list[str] = []

    def walk(command: object, parent: typer.Context | None = None) -> None:
        for obj in [command, *getattr(command, "params", [])]:
            for attr in ("help", "short_help", "epilog"):
                text = getattr(obj, attr, None)
                if isinstance(text, str) and text and text not in found:
                    found.append(text)
        if hasattr(command, "list_commands"):  # a group: its commands may be built on demand
            ctx = typer.Context(command, parent=parent)  # type: ignore[arg-type]
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), ctx)

    walk(root)
    for name in LAZY:
        walk(load(name))
    return found


def build_template() -> Catalog:
    catalog = Catalog(project="bigtwo-ledger", charset="utf-8", creation_date=STAMP,
                      revision_date=STAMP)
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(ROOT / "ledger"), keywords=KEYWORDS, comment_tags=(),
        method_map=[("**.py", "python")],
    ):
        catalog.add(message, locations=[(f"ledger/{filename}", lineno)])
    for text in help_texts():
        catalog.add(text, locations=[("command-line help", 0)])
    for text in FRAMEWORK:
        catalog.add(text, locations=[("typer", 0)])
    for path, text in preset_descriptions():
        catalog.add(text, locations=[(path, 0)])
    return catalog


def preset_descriptions() -> list[tuple[str, str]]:
    """Each shipped rule set's description and sources (``bigtwo rules show`` translates
    them; the sources' public names stay as they are, the words around them are translated)."""
    import tomllib

    found = []
    for path in sorted((ROOT / "ledger" / "core" / "presets").glob("*.toml")):
        data = tomllib.loads(path.read_text("utf-8"))
        texts = [data.get("description"), data.get("source"), *data.get("sources", {}).values()]
        found += [(str(path.relative_to(ROOT)), text) for text in texts if text]
    return found


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "bigtwo.po"


def mo_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "bigtwo.mo"


def read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False, include_lineno=False)


def untranslated(template: Catalog, lang: str) -> list[str]:
    """Messages of ``template`` with no translation in ``lang``'s .po."""
    catalog = read(po_path(lang), lang) if po_path(lang).exists() else Catalog(locale=lang)
    missing = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id)
        text = found.string if found is not None else None
        ok = all(text) if isinstance(text, tuple) else bool(text)
        if not ok or (found is not None and found.fuzzy):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["extract", "update", "compile", "check"])
    args = parser.parse_args()
    template = build_template()
    if args.command == "extract":
        write(POT, template)
        print(f"{POT.relative_to(ROOT)}: {len(template)} messages")
    elif args.command == "update":
        for lang in LANGS:
            path = po_path(lang)
            catalog = read(path, lang) if path.exists() else Catalog(locale=lang, charset="utf-8")
            catalog.update(template, no_fuzzy_matching=True)
            catalog.revision_date = STAMP
            write(path, catalog)
            print(f"{path.relative_to(ROOT)}: {len(untranslated(template, lang))} untranslated")
    elif args.command == "compile":
        for lang in LANGS:
            mo_path(lang).write_bytes(mo_bytes(read(po_path(lang), lang)))
            print(mo_path(lang).relative_to(ROOT))
    else:
        bad = 0
        for lang in LANGS:
            missing = untranslated(template, lang)
            for text in missing:
                print(f"{lang}: untranslated: {text!r}")
            stale = not mo_path(lang).exists() or mo_path(lang).read_bytes() != mo_bytes(
                read(po_path(lang), lang))
            if stale:
                print(f"{lang}: {mo_path(lang).relative_to(ROOT)} is stale: run scripts/i18n.py compile")
            bad += len(missing) + stale
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
