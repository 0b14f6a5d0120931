"""The table companion dashboard (ipywidgets).  Calls the engine and nothing else.

:class:`App` is the page (:class:`companion.ui.shell.Shell`: tabs, status line,
``guarded``, address, live poll) with its Among the Stars screen
(:class:`companion.ui.ats_screen.AtsScreen`, built from its setup, entry, final and
views parts).  The names the notebook and the tests use on ``App`` (``app.game``,
``app.entry_card``, ``app.clicked`` …) are properties that read the screen or its
part that owns them.
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
from .sse_tab import SseTab

#: what App reads from its Among the Stars screen: the screen's own names, then each
#: part's (``ats.<part>``)
_FROM_SCREEN = {
    "": ("game", "gid", "rev", "seat", "view", "body", "play_screen", "turn_info",
         "objectives_panel", "scoreboard", "entry_player", "entry_card", "entry_action",
         "discard_btn", "hint", "entry_msg", "grid", "extra", "form_box", "undo_btn",
         "undo_box", "new_btn", "stations", "score_details", "more", "final_msg", "final_box",
         "timer", "final_details", "final_details_box", "exports", "explorer", "mode_panel",
         "kinds", "pending", "open_game", "refresh", "push_entry", "push", "undo",
         "ask_undo", "reload", "save_final_details", "refresh_entry", "card_name",
         "entry", "undo_row", "form_for", "details_for", "tap_timer", "stop_timer",
         "fill_final_details", "refresh_exports", "stored_record_b64", "entry_again",
         "game_gone", "open_latest", "waiting", "player_changed", "entry_changed",
         "entry_part", "setup_part", "final_part", "views_part"),
    "entry_part": ("clicked", "discard", "confirm", "cancel_pending", "save_values",
                   "ask_values", "close_form", "school", "manual_vp", "energy_choice",
                   "ships", "buttons"),
    "final_part": ("refresh_final", "manual_form"),
    "setup_part": ("name_boxes", "mode", "supply", "limited", "bounds", "use_races",
                   "race_boxes", "race_box", "use_objectives", "objective_pick", "start_btn",
                   "saved", "resume_btn", "upload", "cat_upload", "cat_export",
                   "catalogue_screen", "catalogue_panel", "drawn", "mode_setup",
                   "setup_details", "setup_screen", "new_game_box", "setup_role_note",
                   "show_setup", "start_game", "resume_selected", "import_record",
                   "import_catalogue"),
    "views_part": ("set_view", "seat_switch", "seat_score", "seat_station", "table_stations",
                   "join_box", "setup_join", "seat_done", "act_for"),
}


class App(Shell):
    """The dashboard page (see the module docstring)."""

    @property
    def ats(self) -> AtsScreen:
        """The Among the Stars screen (the first game's: built with the page)."""
        return self.screens[ATS_KIND.format]

    @property
    def sse(self) -> SseTab | None:
        """The Small Star Empires screen, once its tab was opened."""
        return self.screens.get(SSE_KIND.format)


for _part, _names in _FROM_SCREEN.items():
    for _name in _names:
        setattr(App, _name, Via("ats" + ("." + _part if _part else ""), _name))


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
