"""The table companion dashboard (ipywidgets).  Calls the engine and nothing else.

:class:`App` is the page (:class:`companion.ui.shell.Shell`: tabs, status line,
``guarded``, address, live poll) with its Among the Stars screen
(:class:`companion.ui.ats_screen.AtsScreen`, built from its setup, entry, final and
views parts).  The page forwards none of its screens' names: a notebook or a test
reaches a screen as ``app.ats`` / ``app.sse`` and acts on it through its driver,
``app.driver()`` / ``app.driver("sse")`` (:mod:`companion.ui.drivers`).
"""
from __future__ import annotations

import ipywidgets as w

from ..core.errors import CompanionError
from ..core.htmlsafe import escape
from ..core.roles import Role
from ..table.store import StoreError
from .common import CELL_PX, ERR, LEGAL, MAX_PLAYERS, OK, Via, cell_class, log, log_path  # noqa: F401 (re-exported)
from ..ats.kind import KIND as ATS_KIND
from ..sse.kind import KIND as SSE_KIND
from .ats_screen import AtsScreen
from .shell import STYLE, Shell  # noqa: F401 (re-exported)
from .sse_screen import SseScreen


class App(Shell):
    """The dashboard page (see the module docstring)."""

    @property
    def ats(self) -> AtsScreen:
        """The Among the Stars screen (the first game's: built with the page)."""
        return self.screens[ATS_KIND.format]

    @property
    def sse(self) -> SseScreen | None:
        """The Small Star Empires screen, once its tab was opened."""
        return self.screens.get(SSE_KIND.format)


def dashboard() -> w.DOMWidget:
    """Build the dashboard and return its root widget (the notebook displays it)."""
    try:
        # the table view's role (writes nothing) until the page's address is read: a
        # preheated kernel builds its page before it knows whose page it is
        app = App(role=Role.TABLE)
    except StoreError as e:      # busy, not ours, cannot be opened: say so, change nothing
        return w.HTML(f"<div class='status-error' style='color:{ERR};font-weight:600'>⚠ "
                      f"{escape(str(e))}</div>")
    dashboard.app = app  # type: ignore[attr-defined]  # handy in a notebook: dashboard.app.game
    # the page address (seat, table view, game): a preheated kernel waits for it here,
    # with every widget already built, then shows the store's latest state
    try:
        app.apply_query()
    except CompanionError as e:
        app.error(str(e))
    app.start_live()
    return app.root
