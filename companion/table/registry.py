"""The games the companion knows, by record format: the one place where the table layer
tells formats apart, and the only one that loads a game package.

A record names its game in ``format``; each game package defines its own once and
registers a descriptor (:class:`companion.core.gamekind.GameKind`) in its ``kind``
module.  This module loads the built-in game packages by name (:data:`BUILTIN_GAMES`,
with importlib: no module of the table layer imports a game).  Everything that must pick
a game for a record (the command line, history, the History tab's replay) asks here::

    game = load_game(record)            # the right engine, replayed
    cls = game_class(record["format"])  # the class itself
    kind = kind_of(record)              # the game's descriptor (its hooks)
    format_of(game)                     # the format a game writes

A record whose format is missing or unknown goes to the default game (the first
built-in), whose reader refuses it with a message naming the format it reads: the same
answer the companion gave before the registry existed.

:class:`GameProtocol` writes down what both engines already offer in common.  A third
game adds its package with a ``kind`` module that registers its descriptor, and its
package name to :data:`BUILTIN_GAMES` (see docs/architecture.md, "A third game").
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Protocol, runtime_checkable

from ..core.gamekind import GameKind, kinds, registered, register, unregister
from ..core.jsontypes import JSON

__all__ = ["GameProtocol", "GameKind", "BUILTIN_GAMES", "GAMES", "GAME_NAMES", "DEFAULT_FORMAT",
           "register", "unregister", "kinds", "kind_of", "game_class", "load_game",
           "validate_record", "format_of", "record_format"]

#: the built-in game packages, loaded by name: each registers its descriptor in its
#: ``kind`` module.  The first is the default game.  The one place a game is named here.
BUILTIN_GAMES = ("companion.ats", "companion.sse")
_BUILTIN_KINDS: list[GameKind] = [importlib.import_module(f"{_package}.kind").KIND
                                  for _package in BUILTIN_GAMES]
# the built-in games first, in BUILTIN_GAMES order, whichever game package a program
# happened to import before this module (a game registers itself on import)
for _kind in [*_BUILTIN_KINDS, *(k for k in kinds() if k not in _BUILTIN_KINDS)]:
    unregister(_kind.format)
    register(_kind)
#: what a record without a known ``format`` is read as (its reader then refuses it)
DEFAULT_FORMAT: str = kinds()[0].format


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
    actions: list[JSON]
    #: the entries typed at the end (``manual`` in the record)
    manual: list[JSON]

    @classmethod
    def from_record(cls, record: JSON, *, trusted: bool = False) -> GameProtocol:
        """Check the record's shape and replay it; raises RecordError / IllegalAction
        (the latter naming the action's index).  ``trusted``: a record this companion
        wrote (the store, memory) skips the shape checks; the replay checks the rules."""
        ...

    def to_record(self) -> JSON:
        """The record (format, setup, actions, manual, ...): from_record(to_record()) is
        the same game."""
        ...

    def push(self, action: JSON) -> JSON:
        """Apply ``action`` and return it normalised (as stored); raises IllegalAction
        and then nothing changes."""
        ...

    def pop(self) -> JSON:
        """Undo: drop the last action and return it."""
        ...

    def check(self, action: JSON) -> JSON:
        """The normalised action if it is legal now; raises IllegalAction if not.  A query."""
        ...

    def is_legal(self, action: JSON) -> bool:
        """Whether :meth:`check` would accept ``action``."""
        ...

    def may_act(self, player: str) -> bool:
        """Whether ``player`` has an entry to make now (whose turn it is, or who still has
        to act in it; a query)."""
        ...

    def why_illegal(self, action: JSON) -> str | None:
        """None if ``action`` is legal now, else the reason in words (with its rule code)."""
        ...

    def score(self) -> Any:
        """The score (final once the game is over; raises MissingEntry /
        UnknownCardValues while the players still have values to type)."""
        ...


class _Live(Mapping[str, Any]):
    """{format: one field of its descriptor} over the games registered now."""

    def __init__(self, attr: str):
        self._attr = attr

    def __getitem__(self, fmt: str) -> Any:
        kind = registered(fmt)
        if kind is None:
            raise KeyError(fmt)
        return getattr(kind, self._attr)

    def __iter__(self) -> Iterator[str]:
        return iter([k.format for k in kinds()])

    def __len__(self) -> int:
        return len(kinds())

    def __repr__(self) -> str:
        return repr(dict(self))


#: {record format: game class}: every game the companion knows
GAMES: Mapping[str, type[GameProtocol]] = _Live("game_class")
#: the games' names for people
GAME_NAMES: Mapping[str, str] = _Live("name")


def record_format(record: Any) -> str:
    """The format a record is read as: its own when the companion knows it, else the
    default (whose reader refuses it)."""
    fmt = record.get("format") if isinstance(record, dict) else None
    return fmt if isinstance(fmt, str) and fmt in GAMES else DEFAULT_FORMAT


def kind_of(record_or_format: Any) -> GameKind:
    """The descriptor of a record's game (a record, or its format); the default game's
    for a missing or unknown format."""
    fmt = record_or_format if isinstance(record_or_format, str) \
        else record_format(record_or_format)
    kind = registered(fmt) or registered(DEFAULT_FORMAT)
    assert kind is not None
    return kind


def game_class(fmt: str | None) -> type[GameProtocol]:
    """The game class of a record format (the default game's for an unknown one)."""
    cls: type[GameProtocol] = kind_of(fmt if isinstance(fmt, str) else DEFAULT_FORMAT).game_class
    return cls


def validate_record(record: Any) -> None:
    """The record's shape and limits, by its game's own checks (no replay)."""
    kind_of(record).validate_record(record)


def load_game(record: Any, *, trusted: bool = False) -> GameProtocol:
    """The engine game of a record, whichever game it is (replayed).  ``trusted=True``
    only for a record this companion wrote itself (the store, memory): it skips the
    bounded reader's checks; anything from outside goes through them (the default)."""
    cls: Any = kind_of(record).game_class
    game: GameProtocol = cls.from_record(record, trusted=trusted)
    return game


def format_of(game: Any) -> str:
    """The record format of a game object."""
    return str(type(game).format)
