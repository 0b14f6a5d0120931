"""One page's laying drafts (issue 39), the same for both games' laying panels: a
player's draft is this page's, else the one kept in the store (a reload, a phone whose
kernel was culled, another device: companion.table.drafts through the page's session),
else a new one; it is kept in the store after each tap and forgotten once laid.  A store
that does not answer is said on the panel's message line; the draft stays on the page."""
from __future__ import annotations

from typing import Any, Callable

from ..core.errors import CompanionError
from ..core.htmlsafe import escape

KIND = "lay"


class Drafts:
    """``make()`` a new draft, ``make.from_json(data)`` one read back, ``draft.to_json()``
    what is kept; ``session()`` the page's GameSession; ``message`` an HTML widget."""

    def __init__(self, session: Callable[[], Any], make: Any, message: Any) -> None:
        self.session, self.make, self.message = session, make, message
        self.mine: dict[str, Any] = {}

    def get(self, player: str) -> Any:
        if player not in self.mine:
            kept = self.session().draft(KIND, player)
            self.mine[player] = self.make.from_json(kept) if kept is not None else self.make()
        return self.mine[player]

    def keep(self, player: str) -> None:
        try:
            self.session().save_draft(KIND, player, self.get(player).to_json())
        except CompanionError as e:
            self.message.value = (f"<div class='status-error' style='color:#b00020'>⚠ Your "
                                  f"taps are on this page but were not saved: "
                                  f"{escape(str(e))}</div>")

    def restore(self, entry: dict[str, Any]) -> str | None:
        """``entry`` was undone on this page: a lay is its player's draft again
        (``make.from_entry``), kept in the store as after a tap (other pages find it);
        its player, or None for any other entry."""
        player = entry.get("player")
        if entry.get("do") != "lay" or not isinstance(player, str):
            return None
        self.mine[player] = self.make.from_entry(entry)
        self.keep(player)
        return player

    def laid(self, player: str) -> None:
        """``player``'s entry is recorded: the draft is forgotten here and in the store."""
        self.mine.pop(player, None)
        self.session().drop_draft(KIND, player)

    def clear(self) -> None:
        self.mine.clear()
