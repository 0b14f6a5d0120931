"""What both games' engines share by inheritance (the protocol itself, and the registry of
formats, are in :mod:`companion.table.registry`, which imports the games; this module imports
neither game, so each engine can build on it).

python-chess answers "is this move legal?" from one place: ``Board.is_legal`` on top of the
move generator.  Here each engine implements :meth:`check` (the normalised action, or
:class:`~companion.core.errors.IllegalAction`), and the two questions a page asks are
answered once, from it.
"""
from __future__ import annotations

from .errors import IllegalAction
from .jsontypes import JSON


class LegalityQueries:
    """``is_legal`` and ``why_illegal`` from the engine's ``check`` (queries: the game is
    not changed)."""

    def check(self, action: JSON) -> JSON:           # pragma: no cover - each engine's own
        raise NotImplementedError

    def is_legal(self, action: JSON) -> bool:
        """Whether :meth:`check` accepts ``action`` now."""
        try:
            self.check(action)
            return True
        except IllegalAction:
            return False

    def why_illegal(self, action: JSON) -> str | None:
        """None if ``action`` is legal now, else the reason in words (with its rule code)."""
        try:
            self.check(action)
            return None
        except IllegalAction as e:
            return str(e)
