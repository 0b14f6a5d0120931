"""What both games' engines share by inheritance (the protocol itself, and the registry of
formats, are in :mod:`companion.table.registry`, which imports the games; this module imports
neither game, so each engine can build on it).

python-chess answers "is this move legal?" from one place: ``Board.is_legal`` on top of the
move generator.  Here each engine implements :meth:`check` (the normalised action, or
:class:`~companion.core.errors.IllegalAction`), and the two questions a page asks are
answered once, from it.

An action is a value of the game's own action type (issue 38: "typed actions as the
currency"; :class:`ActionValue`: ``companion.ats.actions.AtsAction``,
``companion.sse.actions.SseAction``), or its dict as the record stores it, read at the
record's edge (:func:`companion.core.notation.read_entry`).
"""
from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from .errors import IllegalAction
from .jsontypes import JSON

__all__ = ["ActionValue", "LegalityQueries"]


class ActionValue(Protocol):
    """A game's action as a value (a frozen dataclass): ``str(value)`` is its notation,
    ``to_dict()`` the record's JSON, and the game's ``from_dict`` / ``parse`` read it
    back."""

    def to_dict(self) -> JSON:
        ...


A = TypeVar("A", bound=ActionValue)


class LegalityQueries(Generic[A]):
    """``is_legal`` and ``why_illegal`` from the engine's ``check`` (queries: the game is
    not changed); ``A`` is the game's action type."""

    def check(self, action: A | JSON) -> A | JSON:      # pragma: no cover - each engine's own
        raise NotImplementedError

    def is_legal(self, action: A | JSON) -> bool:
        """Whether :meth:`check` accepts ``action`` (a value or its dict) now."""
        try:
            self.check(action)
            return True
        except IllegalAction:
            return False

    def why_illegal(self, action: A | JSON) -> str | None:
        """None if ``action`` (a value or its dict) is legal now, else the reason in words
        (with its rule code)."""
        try:
            self.check(action)
            return None
        except IllegalAction as e:
            return str(e)
