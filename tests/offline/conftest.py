"""The built offline site on 127.0.0.1, shared by the offline app's browser tests of a
module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from offline.offline_helpers import StaticServer, build_site, fresh_dir, need_chromium, remove


@pytest.fixture(scope="module")
def site() -> Iterator[StaticServer]:
    need_chromium()
    folder = fresh_dir("bigtwo-site-")
    server = StaticServer(build_site(folder))
    yield server
    server.close()
    remove(folder)
