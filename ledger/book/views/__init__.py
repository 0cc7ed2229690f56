"""View records: what each screen shows, built once here and only rendered elsewhere.

The command line's ``--json`` prints a record's ``to_dict()``, its text tables render
the same record (``ledger/present``), and the hub's JSON and the phone app are the
same ``to_dict()``: no query, grouping or sorting happens in ``cli/``, ``present/``
or ``web/``.  ``to_dict()`` gives plain JSON: money as decimal strings, points as
ints, keys in English whatever the interface language (a ``label`` or ``text`` value
is the one thing said in the language).

- :class:`AfterDeal` (``views/deal.py``) — what a recorded deal (or amend, void,
  undo) changed, the standings after it and who deals and leads next (``bigtwo deal``).
- :class:`Board` (``views/scoreboard.py``) — a session's scoreboard: the session's
  card, its standings and money, who is next, the hand size, the next deal's number,
  the deal facts its rules score, the last deals and what ``undo`` would take back now
  (the phone's main screen); :class:`SessionCard` (a session in the table picker),
  :class:`Deals` (every live deal, :class:`DealLine` each), :class:`LastSetup` (the
  last session's players and rules, to start the same again).
- :class:`DealPreview` (``views/deal.py``) — a deal scored and not written.
- :class:`SettleView` (``views/settlement.py``) — a settlement with each session's own
  working (pairwise ``Σs − n·s``, pay-the-winner, ranked, teams), the coins of
  ``--round``, how much of each of the fewest payments is paid and what is
  outstanding (:class:`PaymentProgress`), and the payments recorded for its sessions.
- :class:`UndoneView` (``views/undo.py``) — what an ``undo`` took back, with the
  :class:`AfterDeal` of the correction it wrote.
- :class:`AfterPayment` (``views/payment.py``) — a payment recorded and what is
  outstanding after it (``bigtwo paid``).
- :class:`SessionPage` (``views/listing.py``) — one page of the sessions, newest first,
  with the total and the cursor of the next (the table picker, ``bigtwo history``).
- :class:`Log` (``views/entries.py``), :class:`History` (``views/periods.py``); the
  league table of ``standings --by month|year`` is :class:`ledger.book.league.League`.

Every name is importable from here (``from ledger.book.views import Board``); each
module is loaded only when one of its names is first used, so ``bigtwo deal`` loads
``deal.py`` alone.  Named tuples, not dataclasses: a named tuple is the cheaper class
to make on the deal path.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ledger.book.views.deal import (
        AfterDeal,
        DealPreview,
        PlayerPoints,
        after_deal,
        deal_points,
        deal_preview,
        turn_dict,
    )
    from ledger.book.views.entries import Log, LogLine, log
    from ledger.book.views.listing import SessionPage, session_page
    from ledger.book.views.payment import AfterPayment, after_payment
    from ledger.book.views.periods import (
        History,
        HistoryLine,
        HistoryPage,
        history,
        history_page,
    )
    from ledger.book.views.scoreboard import (
        Board,
        DealLine,
        Deals,
        LastSetup,
        SessionCard,
        UndoPreview,
        board,
        deal_lines,
        last_setup,
        session_card,
        undo_preview,
    )
    from ledger.book.views.settlement import (
        PaymentProgress,
        SessionWorking,
        SettleView,
        WorkingRow,
        session_working,
        settle_view,
    )
    from ledger.book.views.undo import UndoneView, undone_view

HOMES = {
    "deal": ("AfterDeal", "DealPreview", "PlayerPoints", "after_deal", "deal_points",
             "deal_preview", "turn_dict"),
    "scoreboard": ("Board", "DealLine", "Deals", "LastSetup", "SessionCard", "UndoPreview",
                   "board", "deal_lines", "last_setup", "session_card", "undo_preview"),
    "settlement": ("PaymentProgress", "SessionWorking", "SettleView", "WorkingRow",
                   "session_working", "settle_view"),
    "entries": ("Log", "LogLine", "log"),
    "undo": ("UndoneView", "undone_view"),
    "periods": ("History", "HistoryLine", "HistoryPage", "history", "history_page"),
    "payment": ("AfterPayment", "after_payment"),
    "listing": ("SessionPage", "session_page"),
}
_HOME = {name: module for module, names in HOMES.items() for name in names}
# every name of HOMES (a test checks)
__all__ = ["AfterDeal", "AfterPayment", "Board", "DealLine", "DealPreview", "Deals", "History", "HistoryLine",
           "HistoryPage", "LastSetup", "Log", "LogLine", "PaymentProgress", "PlayerPoints", "SessionCard",
           "SessionPage", "SessionWorking", "SettleView", "UndoPreview", "UndoneView", "WorkingRow",
           "after_deal", "after_payment", "board", "deal_lines", "deal_points", "deal_preview", "history",
           "history_page", "last_setup", "log", "session_card", "session_page", "session_working",
           "settle_view", "turn_dict", "undo_preview", "undone_view"]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
