"""The game screens of the page, keyed by the game's format (issue 23): the shell
(:class:`companion.ui.shell.Shell`) builds one tab per game of the registry
(:func:`companion.table.registry.kinds`, in its order) that has a screen here, then
History; a saved game (``?game=ID``) opens in the screen of its record's format.

A screen is built by ``build(shell)`` and offers ``box`` (its tab's widget),
``setup_role_note``, ``game``, ``gid``, ``timer``, ``open_game(gid)``,
``set_view(seat, view)`` and ``live_tick()``.  The first tab's screen (the default
game's, built with the page) also offers ``start()``, ``view``, ``resume_latest()``,
``_reload(stale=...)``, ``_game_gone()`` and ``local_boxes`` (messages beside its entry).
Each screen has a driver, ``screen.driver()`` (:mod:`companion.ui.drivers`: what a
player does on it, as calls); ``shell.driver(fmt)`` gives a tab's.
A new game's screen: one :func:`register_screen` line below (the registry gives its
format and name)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..ats.kind import KIND as ATS_KIND
from ..sse.kind import KIND as SSE_KIND
from ..table import registry


@dataclass(frozen=True)
class ScreenEntry:
    """One game's screen: its format (the registry's) and how the shell builds it."""
    format: str
    build: Callable[[Any], Any]          # build(shell) -> the screen


#: {format: its screen}
SCREENS: dict[str, ScreenEntry] = {}


def register_screen(fmt: str, build: Callable[[Any], Any]) -> ScreenEntry:
    entry = ScreenEntry(fmt, build)
    SCREENS[fmt] = entry
    return entry


def unregister_screen(fmt: str) -> None:
    SCREENS.pop(fmt, None)


def tabs() -> list[tuple[str, str]]:
    """(format, title) of each registered game with a screen, in the registry's order."""
    return [(k.format, k.name) for k in registry.kinds() if k.format in SCREENS]


def format_of_record(fmt: str | None) -> str:
    """The format whose screen shows a saved game of format ``fmt`` (through the
    registry: an unknown format is the default game's)."""
    return registry.kind_of(fmt or registry.DEFAULT_FORMAT).format


def _ats_screen(shell: Any) -> Any:
    from .ats_screen import AtsScreen
    return AtsScreen(shell, shell.session)


def _sse_screen(shell: Any) -> Any:
    from .sse_screen import SseScreen
    return SseScreen(shell)


register_screen(ATS_KIND.format, _ats_screen)
register_screen(SSE_KIND.format, _sse_screen)
