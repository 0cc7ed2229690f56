"""What one ``undo`` took back, :class:`UndoneView` (see :mod:`ledger.book.views`)."""

from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.book.views.deal import AfterDeal, after_deal
from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.book.actions import Undone


class UndoneView(NamedTuple):
    """An undo: what it took back (``undone``: the action, the deal and its facts
    before and after) and, when it wrote a correction entry, the :class:`AfterDeal` of
    that entry (the deal as it stands now, the standings, who is next)."""

    undone: "Undone"
    after: AfterDeal | None

    def to_dict(self) -> dict[str, Any]:
        """``action`` (deal, amend, void, session end or session start), the session,
        the deal, ``line`` (the undone entry's facts as typed), ``back`` (what the deal
        counts again; None: it does not count now), ``current`` (after undoing a
        session's start: the current session now, or None) and ``after``."""
        from ledger.core.deal_line import facts_text

        u = self.undone
        seats = u.session.seats
        return {
            "action": u.action, "session": u.session.id, "deal": u.deal_no,
            "line": facts_text(u.facts, seats) if u.facts else None,
            "back": facts_text(u.restored, seats) if u.restored else None,
            "current": None if u.current is None else u.current.id,
            "after": None if self.after is None else self.after.to_dict(),
        }


def undone_view(ledger: Ledger, undone: "Undone") -> UndoneView:
    """The :class:`UndoneView` of ``undone`` (read after the undo was written)."""
    after = None if undone.recorded is None else after_deal(ledger, undone.session, undone.recorded)
    return UndoneView(undone, after)
