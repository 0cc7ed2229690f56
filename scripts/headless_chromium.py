"""Headless Chromium as the tests, the benchmarks and the screenshot scripts start it:
one path and one set of switches, so a phone's page is measured and tested alone.

``PATH`` is Debian's ``/usr/bin/chromium`` (``apt-get install chromium``) or
``$BIGTWO_CHROMIUM``. ``SWITCHES`` go on every launch (Playwright's ``launch(args=…)``
and the tests' own ``--headless=new`` processes alike):

- ``--no-sandbox``: the suite runs as root in CI, where Chromium's sandbox refuses to
  start.
- ``--disable-features=WebUIOmniboxPopup,…``: since Chromium 156 every new window (every
  page Playwright opens) loads the address bar's popup as a WebUI page of its own
  (``chrome://omnibox-popup.top-chrome``: lit, the compose box) in a renderer of its own,
  even headless, where no address bar is ever shown. On this two-core machine that is
  about 1.3 s of CPU per page (ten blank pages: 19 s of CPU with it, 6 s without), spent
  at the very moment the test's page starts, so a cached open of the phone app painted
  its board at a median 1,541 ms at 4x instead of 896 ms (docs/performance.md, "Run G").
  No phone runs that popup beside the app; the tests and benchmarks should not either.
"""

from __future__ import annotations

import os

PATH = os.environ.get("BIGTWO_CHROMIUM", "/usr/bin/chromium")
SWITCHES = ["--no-sandbox",
            "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup"]
