"""One bounded undo stack for both games (issue 38: "an undo stack").

python-chess's ``Board`` keeps a stack of the states before each move, so ``pop`` needs no
replay.  A game here keeps the states before its last :data:`UNDO_DEPTH` actions, newest
last, and replays the record past them: a cache, never the truth (the record is).  A
stored state is never changed again (a game changes a copy), so two games may share one.
"""
from __future__ import annotations

from collections import deque
from typing import Callable, Generic, Iterable, TypeVar

__all__ = ["UNDO_DEPTH", "UndoStack"]

#: how many states before the last actions a game keeps for its ``pop`` (older ones are
#: the replay of the record)
UNDO_DEPTH = 32

S = TypeVar("S")


class UndoStack(Generic[S]):
    """The states before the last actions, newest last: at most ``depth`` of them (the
    oldest is dropped when one more is pushed).  :meth:`pop` gives the state before the
    last action, or the caller's replay of the record when it is no longer kept."""

    __slots__ = ("depth", "_states")

    def __init__(self, depth: int = UNDO_DEPTH, states: Iterable[S] = ()) -> None:
        if depth < 0:
            raise ValueError(f"an undo stack keeps 0 or more states, not {depth}")
        self.depth = depth
        self._states: deque[S] = deque(states, maxlen=depth)

    def push(self, state: S) -> None:
        """Keep ``state``, the state before the action just applied (never change it
        afterwards)."""
        self._states.append(state)

    def pop(self, replay: Callable[[], S]) -> S:
        """The state before the last action: the one kept, else ``replay()`` (the
        replay of the record without that action; the stack is then empty, so the
        next undo replays too until new states are pushed)."""
        if self._states:
            return self._states.pop()
        return replay()

    def clear(self) -> None:
        """Forget every kept state (the state was replayed another way)."""
        self._states.clear()

    def copy(self) -> "UndoStack[S]":
        """An independent stack holding the same states (shared: they never change)."""
        return UndoStack(self.depth, self._states)

    def __len__(self) -> int:
        return len(self._states)

    def __repr__(self) -> str:
        return f"UndoStack({len(self._states)} of {self.depth} states kept)"
