"""The engine: the ops every front end calls — the hub (``bigtwo serve``), the phone's
Pyodide worker and the chat bot — each answering a view record's ``to_dict()`` from
``ledger.book.views``.

Each op is one function declared in ``ops.py`` with ``@op`` (``declare.py``): its
signature checks the arguments and gives the hub's routes, the worker's dispatch
(``dispatch.call``, ``phone.py``), the app's op list and the docs' op tables.

Pure Python that runs in the hub and in Pyodide alike: it imports ``ledger.present``,
``ledger.formats``, ``ledger.book``, ``ledger.storage`` and ``ledger.core``, never
``ledger.web``, ``ledger.cli``, a bot, starlette, uvicorn, typer or matplotlib.
"""
