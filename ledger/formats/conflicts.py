"""A conflict of an import: a session or entry the file says otherwise than the
ledger (the same uuid, other facts), with what differs as phrases.

The import (:mod:`ledger.formats.merge`) reports them for whole sessions and
:mod:`ledger.formats.session_merge` for the entries of one session.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ledger.core.i18n import _
from ledger.core.phrase import local


@dataclass(frozen=True)
class Conflict:
    where: str
    uuid: str
    differences: tuple[str, ...]

    def text(self) -> str:
        """The conflict in the interface's language (``to_dict`` keeps English)."""
        return _("{where} ({uuid}): {differences}").format(
            where=local(self.where), uuid=self.uuid,
            differences=_("; ").join(local(d) for d in self.differences))

    def to_dict(self) -> dict[str, Any]:
        return {"where": self.where, "uuid": self.uuid, "differences": list(self.differences)}
