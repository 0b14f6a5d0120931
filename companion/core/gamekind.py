"""A game as the table layer sees it: one descriptor per game package (issue 23).

Each game package (``companion/ats``, ``companion/sse``) builds one :class:`GameKind` in
its own ``kind`` module and calls :func:`register` there.  The table layer
(``companion.table``: registry, store, history, stats, exports) never names a game: it
asks the registered kind of a record's ``format`` for what differs between games (the
class that replays it, the record check, the people's roles, the start player, the
statistics, the export fields, the store's data steps, the History tab's picture ...).
``companion.table.registry`` loads the built-in game packages by name; a test or a third
game calls :func:`register` itself.  See docs/architecture.md, "A third game".

This module is part of the base: it imports no game and nothing of the table layer.
"""
from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

from .jsontypes import JSON

__all__ = ["GameKind", "StoreStep", "StatTable", "register", "unregister", "kinds", "registered"]


@dataclass(frozen=True)
class StoreStep:
    """A one-off data step of the saved-games file for one game: run once per file on
    opening (remembered by ``name`` in the store's ``store_steps``); ``fix(setup)`` gets
    the stored setup of each of the game's saved games and returns the new setup, or
    None to leave it as it is.  Games it changes have their History rows derived again."""
    name: str
    fix: Callable[[Any], JSON | None]


@dataclass(frozen=True)
class StatTable:
    """One table of the History tab's statistics: its ``title`` and the function of
    ``companion.table.stats`` that computes it (``table``, by name) with its keyword
    arguments; ``fmt`` (the game's format) is added unless ``kwargs`` names it."""
    title: str
    table: str
    kwargs: dict[str, Any] = field(default_factory=dict)


def _no_game_roles(game: Any, setup: Any, players: list[str]) -> dict[str, Any]:
    return {}


def _nobody(setup: Any, players: list[str]) -> str | None:
    return None


def _mode_board(setup: Any) -> str:
    mode = setup.get("mode") if isinstance(setup, dict) else None
    return (mode if isinstance(mode, str) else "standard")[:100]


def _no_expansions(setup: Any, cards: list[Any], built: set[str], declared: list[str]) -> list[str]:
    return []


def _no_picture(game: Any) -> str:
    return ""


@dataclass(frozen=True)
class GameKind:
    """What the table layer needs to know of one game, by its record ``format``.

    Required: ``format`` (``record["format"]``), ``name`` (for people), ``game_class``
    (satisfies ``companion.table.registry.GameProtocol``: ``from_record``, ``to_record``,
    ``push``, ``pop``, ``check``, ``score`` ...) and ``validate_record`` (the record's
    shape checks, no replay; raises RecordError).  Every hook has a default that suits
    a game without the feature."""
    format: str
    name: str
    game_class: type
    validate_record: Callable[[Any], None]
    #: the names other loggers (BG Stats, BoardGameGeek) know the game and its
    #: expansions by: the first is the game's own; a BGG id is kept for each
    logger_names: tuple[str, ...] = ()
    #: the names matched (lower case) in another logger's file: the game's plays there
    import_names: tuple[str, ...] = ()
    #: each player's role (race, colour ...) from the stored setup, without replaying;
    #: None: the role history derived for each player (its ``race`` column)
    roles: Callable[[Any, list[str]], dict[str, str]] | None = None
    #: each player's role from the replayed game and its setup (history's derived
    #: tables): ``game_roles(game, setup, players)``
    game_roles: Callable[[Any, Any, list[str]], dict[str, Any]] = _no_game_roles
    #: who started, from the setup and the players in seat order (None: nobody did)
    start_player: Callable[[Any, list[str]], str | None] = _nobody
    #: the board / mode played, in a few words (the exports' ``board``)
    board: Callable[[Any], str] = _mode_board
    #: the expansions a play used, seen in its setup, card definitions, built cards
    #: and the ones the players declared (the exports' expansions)
    expansions: Callable[[Any, list[Any], set[str], list[str]], list[str]] = _no_expansions
    #: what history's derived tables get beyond the score: ``extra(game, score, out)``
    #: fills ``out["year_vp"]``, ``out["cards"]``, ``out["objectives"]``
    derive_extra: Callable[[Any, Any, dict[str, Any]], None] | None = None
    #: a finished game whose round-end entries are not made yet: the score so far,
    #: or None when ``error`` (an IllegalAction of ``score()``) is a real one
    pending_score: Callable[[Any, Exception], Any] | None = None
    #: two stored definitions of one card merged value by value (the store's
    #: ``merge_cards``); None: the new definition replaces the old one
    merge_card: Callable[[JSON, JSON], JSON] | None = None
    #: the player's own documents (companion.core.userdocs) a replay or a score of
    #: this game may read: names, and folders as ``"folder/"`` (history's worker
    #: processes get a copy of them: companion.table.history.sync)
    documents: tuple[str, ...] = ()
    #: the saved-games file's one-off data steps for this game
    store_steps: tuple[StoreStep, ...] = ()
    #: the statistics tables of this game (the History tab's list)
    statistics: tuple[StatTable, ...] = ()
    #: one stored action in words (the History tab's replay)
    describe_action: Callable[[JSON], str] = str
    #: the game's position as HTML/SVG (the History tab's replay and score sheet)
    picture: Callable[[Any], str] = _no_picture
    #: ``python -m companion score`` / ``check`` of a replayed game: the exit status
    cli_score: Callable[[Any, argparse.Namespace], int] | None = None
    cli_check: Callable[[Any, argparse.Namespace], int] | None = None
    #: the writers of the player's own documents of this game (``documents``), by what
    #: they do: ``companion.table.session.GameSession``'s method of that name checks the
    #: page's role, then calls the writer with its arguments and ``role=`` (Among the
    #: Stars: ``save_card``, ``import_catalogue``; Small Star Empires: ``save_map``,
    #: ``save_tile``, ``delete_tile``, ``import_tiles``, ``save_form``)
    user_writers: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    #: the ``source`` of a final-scoring entry that is one player's secret (a Qualeen's
    #: secret objective): a seat's page saves it for its own player only
    secret_sources: tuple[str, ...] = ()

    @property
    def family(self) -> str:
        """The format without its version (``"name/1"`` → ``"name"``)."""
        return self.format.rsplit("/", 1)[0]


_KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Make ``kind`` known by its format (a game package calls this in its ``kind``
    module); registering the same format again replaces it.  Returns ``kind``."""
    if not isinstance(kind, GameKind):
        raise TypeError(f"register takes a GameKind, not {type(kind).__name__}")
    _KINDS[kind.format] = kind
    return kind


def unregister(fmt: str) -> None:
    """Forget the game of format ``fmt`` (tests that register a game of their own)."""
    _KINDS.pop(fmt, None)


def kinds() -> list[GameKind]:
    """Every registered game, in the order they were registered."""
    return list(_KINDS.values())


def registered(fmt: Any) -> GameKind | None:
    """The registered game of a record format, or None."""
    return _KINDS.get(fmt) if isinstance(fmt, str) else None
