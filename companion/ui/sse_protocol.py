"""What the Small Star Empires screen's parts read of their screen (issue 38): the parts
(``sse_setup``, ``sse_board``, ``sse_reveal``, ``sse_final``, ``sse_views``,
``sse_lay``) are typed against this protocol, not against
:class:`companion.ui.sse_screen.SseScreen`, so no part imports the screen that composes it.
``SseScreen`` is the one screen that offers it (``tests/test_sse_ui_compose.py`` checks).

The other parts a part reaches through the screen (``reveal_part``, ``views_part``,
``lay_part``) are typed ``Any``: naming their classes here would make the parts import
each other through this module.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    import ipywidgets as w

    from ..table.session import GameSession
    from ..table.store import Store
    from .playdetails import PlayTimer


class SseScreenProtocol(Protocol):
    """The screen as its parts see it."""

    app: Any                      # the page (companion.ui.shell.Shell)
    session: GameSession
    timer: PlayTimer
    body: w.VBox
    entry: w.VBox
    piece: w.ToggleButtons
    undo_btn: w.Button
    undo_box: w.HBox
    seat: str | None
    view: str | None
    selected: int | None
    reveal_part: Any
    views_part: Any
    lay_part: Any

    @property
    def store(self) -> Store: ...

    @property
    def game(self) -> Any: ...        # the SseGame shown (a part runs only once one is open)

    @property
    def gid(self) -> str | None: ...

    def guarded(self, fn: Callable[..., Any]) -> Callable[..., Any]: ...

    def push(self, action: dict) -> None: ...

    def refresh(self) -> None: ...

    def select(self, ship: int | None) -> None: ...

    def damage(self) -> None: ...

    def forget_selection(self) -> None: ...

    def open_game(self, gid: str) -> Any: ...

    def show_setup(self) -> None: ...

    def show_editor(self) -> None: ...

    def swatch(self, p: str) -> str: ...

    def poll(self) -> Any: ...

    def view_of(self, seat: str | None, view: str | None) -> Any: ...

    def stop_timer(self) -> None: ...

    def fill_final_details(self) -> None: ...

    def save_final_details(self) -> None: ...

    def refresh_exports(self) -> None: ...

    def stored_record_b64(self, game: Any) -> str: ...
