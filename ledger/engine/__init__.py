"""The engine: the ops every front end calls — the hub (``bigtwo serve``), the phone's
Pyodide worker and the chat bot — answering plain JSON built by ``ledger.book``.

Pure Python that runs in the hub and in Pyodide alike: it imports ``ledger.present``,
``ledger.formats``, ``ledger.book``, ``ledger.storage`` and ``ledger.core``, never
``ledger.web``, ``ledger.cli``, a bot, starlette, uvicorn, typer or matplotlib.
"""
