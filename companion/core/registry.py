"""The games the companion knows, by record format: the one place where formats are
told apart.

A record names its game in ``format`` (``"among-the-stars/1"``,
``"small-star-empires/1"``); each game's package defines its own once, in its
``record`` module, beside the shape checks.  Everything that must pick a game for a
record (the command line, history, the History tab's replay) asks here::

    game = load_game(record)            # the right engine, replayed
    cls = game_class(record["format"])  # the class itself
    format_of(game)                     # the format a game writes

A record whose format is missing or unknown goes to the default game (Among the
Stars), whose reader refuses it with a message naming the format it reads: the same
answer the companion gave before the registry existed.

:class:`GameProtocol` writes down what both engines already offer in common.  A
third game adds its package (``companion/<game>/``, with ``record.FORMAT``,
``record.validate_record`` and a game class that satisfies the protocol) and one line
to :data:`GAMES` (see docs/architecture.md).
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol, runtime_checkable

from ..ats.game import Game
from ..ats.record import FORMAT as ATS_FORMAT
from ..ats.record import validate_record as _validate_ats
from ..sse.game import SseGame
from ..sse.record import FORMAT as SSE_FORMAT
from ..sse.record import validate_record as _validate_sse

__all__ = ["GameProtocol", "GAMES", "GAME_NAMES", "ATS_FORMAT", "SSE_FORMAT", "DEFAULT_FORMAT",
           "game_class", "load_game", "validate_record", "format_of", "record_format"]


@runtime_checkable
class GameProtocol(Protocol):
    """What both game engines (``companion.ats.game.Game``, ``companion.sse.game.SseGame``)
    offer today, in python-chess's words: a game is its setup plus the list of actions,
    and its state is derived by replaying them.

    Only what the two classes truly share is listed.  Known differences, left as they
    are for now (issue 13's later steps):

    - ``from_record``: Among the Stars also takes an optional ``catalogue``;
    - ``push``: Small Star Empires also takes ``strict=`` (replay's checks);
    - ``pop`` on a game with no action raises ``IllegalAction("nothing-to-undo")`` in both;
    - ``score``: Small Star Empires also takes ``project=``; the two result classes differ;
    - ``trial`` exists in both with different signatures and results, and ``finished``
      is a property only in Among the Stars (both have ``state.finished``), so neither
      is part of the protocol yet.
    """

    #: the record format this game reads and writes (``record["format"]``)
    format: ClassVar[str]
    #: the game's setup (``Setup`` / ``SseSetup``), from the record's ``setup``
    setup: Any
    #: the state after every action; ``state.finished`` once the game is over
    state: Any
    #: the normalised actions so far (what ``to_record`` writes)
    actions: list[dict]
    #: the entries typed at the end (``manual`` in the record)
    manual: list[dict]

    @classmethod
    def from_record(cls, record: dict, *, trusted: bool = False) -> GameProtocol:
        """Check the record's shape and replay it; raises RecordError / IllegalAction
        (the latter naming the action's index).  ``trusted``: a record this companion
        wrote (the store, memory) skips the shape checks; the replay checks the rules."""
        ...

    def to_record(self) -> dict:
        """The record (format, setup, actions, manual, ...): from_record(to_record()) is
        the same game."""
        ...

    def push(self, action: dict) -> dict:
        """Apply ``action`` and return it normalised (as stored); raises IllegalAction
        and then nothing changes."""
        ...

    def pop(self) -> dict:
        """Undo: drop the last action and return it."""
        ...

    def check(self, action: dict) -> dict:
        """The normalised action if it is legal now; raises IllegalAction if not.  A query."""
        ...

    def is_legal(self, action: dict) -> bool:
        """Whether :meth:`check` would accept ``action``."""
        ...

    def why_illegal(self, action: dict) -> str | None:
        """None if ``action`` is legal now, else the reason in words (with its rule code)."""
        ...

    def score(self) -> Any:
        """The score (final once the game is over; raises MissingEntry /
        UnknownCardValues while the players still have values to type)."""
        ...


#: {record format: game class}: every game the companion knows
GAMES: dict[str, type[GameProtocol]] = {
    Game.format: Game,
    SseGame.format: SseGame,
}
#: the games' names for people
GAME_NAMES: dict[str, str] = {ATS_FORMAT: "Among the Stars", SSE_FORMAT: "Small Star Empires"}
#: what a record without a known ``format`` is read as (its reader then refuses it)
DEFAULT_FORMAT = ATS_FORMAT
#: each format's shape checks (no rules, no replay): ``validate(record)`` raises RecordError
_VALIDATORS = {ATS_FORMAT: _validate_ats, SSE_FORMAT: _validate_sse}


def record_format(record: Any) -> str:
    """The format a record is read as: its own when the companion knows it, else the
    default (whose reader refuses it)."""
    fmt = record.get("format") if isinstance(record, dict) else None
    return fmt if isinstance(fmt, str) and fmt in GAMES else DEFAULT_FORMAT


def game_class(fmt: str | None) -> type[GameProtocol]:
    """The game class of a record format (the default game's for an unknown one)."""
    return GAMES[fmt if isinstance(fmt, str) and fmt in GAMES else DEFAULT_FORMAT]


def validate_record(record: Any) -> None:
    """The record's shape and limits, by its game's own checks (no replay)."""
    _VALIDATORS[record_format(record)](record)


def load_game(record: Any, *, trusted: bool = False) -> GameProtocol:
    """The engine game of a record, whichever game it is (replayed).  ``trusted=True``
    only for a record this companion wrote itself (the store, memory): it skips the
    bounded reader's checks; anything from outside goes through them (the default)."""
    return GAMES[record_format(record)].from_record(record, trusted=trusted)


def format_of(game: Any) -> str:
    """The record format of a game object."""
    return type(game).format
