"""``bigtwo app build DIR``: the offline phone app as a static site for any HTTPS host.

See docs/offline.md.  Only typer, the standard library and ledger.cli.common are
imported here at load time; the site is assembled by ledger.web.offline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.common import GIVEN_FOLDER, group
from ledger.core.i18n import _


def register(app: typer.Typer) -> None:
    app_app = group("The phone app that works with no laptop: build it as a static site.")
    app_app.command("build")(build_cmd)
    app.add_typer(app_app, name="app")


def build_cmd(
    folder: Annotated[Path, typer.Argument(
        callback=GIVEN_FOLDER, help="The folder to write the site into (made if missing).")],
    url: Annotated[str | None, typer.Option(
        "--url", help="The https address the site will be published at: the app then shows a QR "
                      "code of it on its tables screen.")] = None,
) -> None:
    """Write the offline phone app into FOLDER: the app, this engine for Pyodide, a manifest
    per language and a service worker, for any HTTPS host (GitHub Pages, a NAS).

    Publish the folder as it is (docs/offline.md); after the first visit the app opens
    with no network at all and keeps its ledger in the phone.
    """
    import re

    from ledger.core.errors import InputError, StoreError
    from ledger.web import offline

    if url is not None and not re.fullmatch(r"https?://[^\s/]+(/\S*)?", url.strip()):
        raise InputError(_("--url must be the address the site is published at, e.g. {example}")
                         .format(example="https://user.github.io/bigtwo-ledger/"))
    if folder.exists() and not folder.is_dir():
        raise StoreError(_("cannot build the app into {path}: it is a file, not a folder").format(
            path=folder))
    try:
        count, size = offline.build(folder, url=url.strip() if url else None)
    except OSError as exc:
        raise StoreError(_("cannot build the app into {path}: {reason}").format(
            path=folder, reason=exc.strerror or exc)) from None
    typer.echo(_("built the offline app in {path}: {n} files, {mb:.1f} MB; publish the folder "
                 "on an HTTPS host (docs/offline.md)").format(path=folder, n=count, mb=size / 1e6))
