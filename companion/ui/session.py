"""A game screen's session: :class:`GameSession` (the store, the open game and the
revision this page has seen; every write of a page) lives in the table layer (issue 38,
:mod:`companion.table.session`) and is re-exported here with :class:`Change` and
:class:`PageBehind`; :class:`SessionPart`, a screen's part ``screen.live`` (its session,
the address's seat and view, one poll of the store), is the screens'."""
from __future__ import annotations

from typing import Any

from ..core.errors import CompanionError
from ..core.roles import Role, role_of_page
from ..table.changes import Change as Change, PageBehind as PageBehind
from ..table.session import GameSession as GameSession
from ..table.store import Store
from .live import poll_store

__all__ = ["GameSession", "Change", "PageBehind", "SessionPart"]


class SessionPart:
    """A game screen's part ``screen.live``: ``store``, ``game``, ``gid``, ``rev`` are the
    session's (a screen keeps no copy); open a saved game, the address's seat and view,
    one poll.  The screen has ``timer``, ``details``, ``seat``, ``view``, ``error``, ``_gone``."""

    def __init__(self, screen: Any, session: GameSession) -> None:
        self.screen = screen
        self.session = session

    @property
    def store(self) -> Store:
        return self.session.store

    @property
    def role(self) -> Role:      # the page's role (companion.core.roles), the session's
        return self.session.role

    @property
    def game(self) -> Any:
        return self.session.game

    @property
    def gid(self) -> str | None:
        return self.session.gid

    @property
    def rev(self) -> int | None:
        return self.session.rev

    def open(self, gid: str, cls: type, name: str) -> Any:
        """Open saved game ``gid``, which must be a ``cls`` game (``name`` in words)."""
        game = self.session.open(gid)
        if not isinstance(game, cls):
            self.session.close()
            raise CompanionError(f"that saved game is not {name} game")
        self.screen.timer.bind(gid, self.session.meta)
        self.screen.details.shown_for = None
        return game

    def view_of(self, seat: str | None, view: str | None) -> str | None:
        """Set the page's role from its address (companion.core.roles: ``view=table`` is
        the table view, any ``seat`` a seat, else the host) and find the seat's player
        (case-insensitive); an unknown seat is said, and the page is no player's seat
        (but keeps a seat's role).  Returns the seat's player."""
        s = self.screen
        s.view = "table" if view == "table" else None
        self.session.set_role(role_of_page(seat, view))
        s.seat = self.session.set_seat(seat if s.view is None else None)
        if seat and self.game is not None and s.view is None and s.seat is None:
            s.error(f"No player called '{seat}' in this game: this page is not a seat, a "
                    "view that records nothing (players: "
                    + ", ".join(self.game.setup.players) + ").")
        return s.seat

    def poll(self) -> Change:
        """One poll of the store (companion.ui.live.poll_store)."""
        return poll_store(self.session, self.screen) or Change()
