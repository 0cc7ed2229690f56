"""What one payment changed, :class:`AfterPayment` (see :mod:`ledger.book.views`)."""

from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.book.owed import OwedBlock
    from ledger.book.payments import Paid


class AfterPayment(NamedTuple):
    """A payment recorded and what is outstanding after it in its currency, over every
    session (``bigtwo paid --json``, the ``pay`` op)."""

    payment: "Paid"
    owed: "OwedBlock"

    def to_dict(self) -> dict[str, Any]:
        return {"payment": self.payment.to_dict(), "owed": self.owed.to_dict()}


def after_payment(ledger: Ledger, done: "Paid") -> AfterPayment:
    """The :class:`AfterPayment` of ``done`` (read after it was written)."""
    from ledger.book.owed import owed
    from ledger.book.scope import Range

    after = owed(ledger, ledger.journal.sessions(), Range())
    return AfterPayment(done, next(b for b in after.blocks if b.currency == done.currency))
