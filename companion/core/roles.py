"""What each kind of page may write: the one place of the policy (issue 20, "roles").

Every page of the dashboard has a role, read from its address
(:func:`role_of_page`):

- ``host``: the laptop, the plain address.  It may do everything.
- ``seat``: a player's phone, ``?seat=Ana``.  It may enter actions, undo, type card
  values, the final entries (VP typed at the table) and the play details, type Small
  Star Empires sector tiles from the box, and tap the timer; it may not delete a game, import (records, a catalogue) or start a new game.
  Within a game the session narrows it (issue 35, ``companion.table.seats``): only
  the game whose player it is, only its own player's last action to undo, no action
  of a finished game; a seat name that is no player of the game is a view of it.
- ``table``: the table view, ``?view=table``, on the TV in the middle.  It records
  nothing at all.

The policy is :data:`ALLOWED`.  The store (:class:`companion.table.store.Store`, its
``role``), the session (``GameSession.role``), the play details
(:func:`companion.table.history.set_play_details`) and the player's own files (the
catalogue, the maps) call :func:`check` before they write; a refused write raises
:class:`~companion.core.errors.RoleRefused`, whose message is one line.  What the
screens hide follows the same table (``companion.ui.writes``), but nothing relies on
the screen: a control shown by mistake is still refused here.

(Derived tables that History keeps in step with the records are a cache, not a write
of the user's: they are not checked.)
"""
from __future__ import annotations

from enum import StrEnum

from .errors import RoleRefused


class Role(StrEnum):
    """The role of a page: ``Role.TABLE == "table"``."""
    HOST = "host"
    SEAT = "seat"
    TABLE = "table"


class Write(StrEnum):
    """Every kind of write a page can ask for."""
    ACTION = "action"            # an action of the game (push)
    UNDO = "undo"                # take back the last action
    CARDS = "cards"              # printed values typed at the table (the game's and my-cards.yaml)
    FINAL = "final"              # final-scoring entries (manual VP, claims, the epic table)
    DETAILS = "details"          # play details: location, notes, new players
    TIMER = "timer"              # the play timer (start, pause, resume, stop)
    NEW_GAME = "new game"        # start a game (either game, a campaign's next game)
    DELETE = "delete"            # delete a saved game
    IMPORT = "import"            # records (History, *Open a record*) or a catalogue file
    MAP = "map"                  # save a Small Star Empires map from the map editor
    TILES = "tiles"              # save Small Star Empires sector tiles typed from the box


#: what each role may write (anything not listed is refused)
ALLOWED: dict[Role, frozenset[Write]] = {
    Role.HOST: frozenset(Write),
    Role.SEAT: frozenset({Write.ACTION, Write.UNDO, Write.CARDS, Write.FINAL,
                          Write.DETAILS, Write.TIMER, Write.TILES}),
    Role.TABLE: frozenset(),
}

#: the words of a write in a refusal ("... cannot <words>")
_WORDS = {
    Write.ACTION: "record an action", Write.UNDO: "undo an action",
    Write.CARDS: "save card values", Write.FINAL: "save final-scoring entries",
    Write.DETAILS: "save play details", Write.TIMER: "change the play timer",
    Write.NEW_GAME: "start a new game", Write.DELETE: "delete a game",
    Write.IMPORT: "import", Write.MAP: "save a map", Write.TILES: "save sector tiles",
}


def role_of_page(seat: str | None, view: str | None) -> Role:
    """The role a page's address gives it: ``view=table`` wins, then any ``seat``
    (even a name that is not a player of the game: the address is a phone's)."""
    if view == "table":
        return Role.TABLE
    if seat is not None and str(seat).strip():
        return Role.SEAT
    return Role.HOST


def may(role: Role | str, write: Write | str) -> bool:
    """Whether ``role`` may make ``write`` (a query: changes nothing)."""
    return Write(write) in ALLOWED[Role(role)]


def words_of(write: Write | str) -> str:
    """A write in words, for a refusal: ``"undo an action"``."""
    return _WORDS[Write(write)]


def refusal(role: Role | str, write: Write | str) -> str:
    """The one-line message of a refused write."""
    role, write = Role(role), Write(write)
    if role is Role.TABLE:
        if write in (Write.ACTION, Write.UNDO):
            return "The table view records nothing: enter actions on a player's page."
        # where it can be done: a seat may do some writes, the host every one (issue 37:
        # the refusal named a player's page for writes a seat cannot make either)
        where = ("a player's page or the host's page (the laptop)"
                 if write in ALLOWED[Role.SEAT] else "the host's page (the laptop)")
        return (f"The table view records nothing: it cannot {_WORDS[write]}; do it on "
                f"{where}.")
    return (f"A seat's page cannot {_WORDS[write]}: do it on the host's page (the laptop).")


def check(role: Role | str, write: Write | str) -> None:
    """Refuse ``write`` with :class:`RoleRefused` unless ``role`` may make it."""
    if not may(role, write):
        raise RoleRefused(str(Role(role)), str(Write(write)), refusal(role, write))
