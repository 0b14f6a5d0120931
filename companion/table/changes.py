"""What another page changed while this page was not looking (issue 14, issue 39):
:class:`Change` (actions added and undone, anything else of the record) and
:class:`PageBehind`, the refusal of a write made on a page that had not seen it.  No
widgets; :mod:`companion.table.session` uses them (issue 38: moved here from
``companion/ui``, which re-exports them)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..core.errors import CompanionError
from ..core.jsontypes import JSON


@dataclass(frozen=True)
class Change:
    """What the store holds that the page had not seen: actions added and actions undone
    (in the order they were played), and whether anything else of the record changed
    (card values, manual VP, play details)."""
    added: tuple[JSON, ...] = ()
    undone: tuple[JSON, ...] = ()
    other: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.undone or self.other)

    def words(self, describe: Callable[[JSON], str], most: int = 4) -> str:
        """'added: Ana built Garden at [0, 1]; undone: …' (at most ``most`` items)."""
        items = [f"added: {describe(a)}" for a in self.added]
        items += [f"undone: {describe(a)}" for a in self.undone]
        if not items:
            return "nothing visible"
        return "; ".join(items[:most]) + (" …" if len(items) > most else "")


class PageBehind(CompanionError):
    """The page had not seen another page's change: nothing was recorded.  The session
    has replayed the store; ``change`` says what the other page did."""

    AGAIN = "choose the player and enter the action again"

    def __init__(self, change: Change, describe: Callable[[JSON], str],
                 again: str = AGAIN) -> None:
        self.change = change
        super().__init__(
            f"Not recorded: this game was changed on another page or tab "
            f"({change.words(describe)}). The board now shows the current game; {again}.")


def diff(before: list[JSON], after: list[JSON]) -> tuple[tuple[JSON, ...], tuple[JSON, ...]]:
    """(added, undone): the actions of ``after`` beyond the longest common beginning of
    the two lists, and those of ``before``."""
    same = 0
    while same < min(len(before), len(after)) and before[same] == after[same]:
        same += 1
    return tuple(after[same:]), tuple(before[same:])
