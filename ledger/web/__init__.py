"""``bigtwo serve``: the phone app for the table (``static/app/``), over the same ledger.

An ASGI app (Starlette, run by uvicorn) serving the one client app (static files that
draw every screen from the engine's JSON), its JSON API and a server-sent-events
feed.  Every write calls the same ``ledger.book`` actions as
the command line (one ``BEGIN IMMEDIATE`` transaction each) and every deal is read by
the command line's deal grammar (``ledger.core.deal_line``): there is no second
scoring path.

Imports ``ledger.core``, ``ledger.storage``, ``ledger.book``, ``ledger.formats`` and
``ledger.present``; never ``ledger.cli``.  Starlette and uvicorn are imported only
here, so no other command pays for them; the QR codes ``serve`` prints are drawn by
``ledger.present.qr`` (segno).
"""
