"""The Among the Stars screen on many devices (issue 14): the live update, a player's
seat (``?seat=Ana``) and the read-only table view (``?view=table``).  A mixin of
:class:`companion.ui.app.App`; the polling itself is :mod:`companion.ui.live`."""
from __future__ import annotations

import ipywidgets as w

from ..ats import render
from ..core.errors import CompanionError
from ..core.htmlsafe import escape
from .joinpanel import join_panel_html, public_url
from .live import (Heartbeat, Poller, live_widgets, page_token, parse_query, query_string,
                   show, show_live, show_note)
from ..core.roles import role_of_page
from .seatswitch import SeatSwitch
from .session import Change


class AtsViews:
    """Methods of :class:`App` (app.py); see the module docstring."""

    def _build_views(self):
        self.seat: str | None = None
        self.view: str | None = None
        self.query: dict[str, str] = {}
        self.poller = Poller(self.live_tick)
        self.live_state, self.live_note = live_widgets()
        # the page's heartbeat (issue 20): answers the page watchdog's pings
        self.heartbeat = Heartbeat(self._shown_game, on_beat=self._tick_clocks)
        self.root.children = (*self.root.children, self.heartbeat.box)
        self.seat_score = w.HTML(layout=w.Layout(display="none"))
        self.seat_score.add_class("seat-score")
        self.seat_station = w.HTML()
        self.seat_station.add_class("seat-station")
        self.table_stations = w.HTML()
        self.table_stations.add_class("table-stations")
        # a seat stays its player (issue 20): "done, waiting for …" and the explicit switch
        self.seat_switch = SeatSwitch(self._act_for, lambda: self._act_for(None),
                                      self.guarded)
        # QR codes: the table view and every seat (play screen: this game; setup screen:
        # the saved game chosen in the list)
        self.token: str | None = None
        self.join_box = w.HTML()
        self.join_box.add_class("join-box")
        self._join_for: tuple | None = None
        self.setup_join = w.HTML()
        self.setup_join.add_class("setup-join")
        self.setup_join_panel = w.Accordion(children=[self.setup_join], selected_index=None)
        self.setup_join_panel.set_title(0, "Join from other devices (QR codes)")
        self.setup_join_panel.add_class("setup-join-panel")

    # -- the page address -------------------------------------------------------------
    def apply_query(self, qs: str | None = None) -> None:
        """Open what the page address asks for (``seat``, ``view``, ``game``); ``qs``
        defaults to the page's own query (a preheated kernel waits for it here)."""
        raw = query_string() if qs is None else qs
        lost = raw is None
        if lost:            # the address never reached this kernel: the table view's role
            raw = "view=table"
        q = parse_query(raw)
        self.query = q
        # the page's role first (companion.core.roles): nothing below may write what the
        # address does not allow, not even a resume of a finished game
        self.session.set_role(role_of_page(q.get("seat"), q.get("view")))
        self.view = "table" if q.get("view") == "table" else None
        self.token = page_token(raw)
        gid = q.get("game")
        info = None
        if gid and gid != self.gid:
            info = next((g for g in self.store.games(format=None) if g["id"] == gid), None)
        if gid and info is None and gid != self.gid:
            self._resume_latest()
            self.error("The game in this page's address is not in the saved-games file; "
                       "showing the most recent game instead.")
        elif not gid:
            self._resume_latest()
        if info is not None:
            if info.get("format", "").startswith("small-star-empires"):
                self.tabs.selected_index = 1          # builds the tab
                if self.sse is not None:
                    self.sse.open_game(q["game"])
                    self.sse.set_view(q.get("seat"), q.get("view"))
                return
            self.open_game(gid)
        self.set_view(q.get("seat"), q.get("view"))
        self.live_tick()                 # a preheated page is never stale
        if lost:
            self.error("This page did not receive its address (seat, table view, game) from "
                       "the server, so it shows the table view and records nothing: "
                       "reload the page.")

    def _resume_latest(self) -> None:
        """Show what a page built now would: the most recent game, or the setup screen
        with the saved games as they are now.  A preheated kernel built its page when the
        server started, before the games the table has played since."""
        games = self.store.games()
        if (games[0]["id"] if games else None) != self.gid:
            self._start()

    def set_view(self, seat: str | None, view: str | None) -> None:
        self._view_of(seat, view)
        self.root.remove_class("view-table")
        self.root.remove_class("view-seat")
        if self.view:
            self.root.add_class("view-table")
        elif self.seat:
            self.root.add_class("view-seat")
        # the controls that write are hidden by the role (ui/writes.py); the what-if
        # explorer and the folded panels are for the players' pages
        self._apply_role()
        for wd in (self.explorer.box, self.more):
            wd.layout.display = "none" if self.view == "table" else ""
        self.table_stations.layout.display = "" if self.view == "table" else "none"
        # a seat page's entry is its own player's (or the one chosen with the switch): no
        # Player list to pick from (issue 20)
        self.entry_player.layout.display = "none" if self.seat else ""
        if self.game is not None:
            opts = self._entry_options(self._waiting())
            with self._hush(), self.entry_player.hold_sync():   # this seat's entry first
                self.entry_player.options = opts
                self.entry_player.value = self._default_player(self._waiting())
            self.refresh()

    def join_html(self, gid: str | None) -> str:
        """The QR panel of saved game ``gid`` (its table view and every seat)."""
        players: list[str] = []
        if gid:
            try:
                players = list(self.store.load(gid)["setup"].get("players") or [])
            except CompanionError:
                gid = None
        return join_panel_html(public_url(), token=self.token, gid=gid, players=players)

    def _refresh_join(self) -> None:
        key = (self.gid, self.token, public_url())
        if key != self._join_for:
            self._join_for = key
            self.join_box.value = self.join_html(self.gid)

    def _refresh_setup_join(self) -> None:
        self.setup_join.value = self.join_html(self.saved.value or None)

    def _default_player(self, waiting: list[str]) -> str | None:
        """The entry's player after a change: on a seat page always the seat's (or the
        player the switch names); elsewhere the first still to act."""
        if self.seat:
            return self.session.acting_for or self.seat
        return waiting[0] if waiting else None

    def _entry_options(self, waiting: list[str]) -> list[str]:
        """Whom the entry may be for: a seat page, its player only (or the one the switch
        names, for one action); the host page, everyone still to act."""
        if self.seat:
            return [self.session.acting_for or self.seat]
        return list(waiting)

    # -- a seat stays its player (issue 20) ---------------------------------------------
    def _act_for(self, player: str | None) -> None:
        """The switch: the next entry is ``player``'s (None: back to the seat's)."""
        self.session.act_for(player)
        self._pending = None
        self.extra.children = []
        with self._hush():
            self.entry_card.value = ""
            self.entry_action.value = "build"
        self.entry_msg.value = self.status.value = ""
        self.refresh()

    def _seat_done(self) -> bool:
        """A seat page whose own player has acted this turn (and no switch is on)."""
        st = self.game.state
        return bool(self.seat and self.session.acting_for is None and not st.finished
                    and self.seat not in st.waiting)

    def _done_words(self) -> str:
        waiting = self._waiting()
        return (f"{self.seat}: done, waiting for {', '.join(waiting)}" if waiting
                else f"{self.seat}: done")

    def _check_acting_for(self) -> None:
        """Before a refresh: another game opened on this page is no seat of it; the
        player the switch names has acted meanwhile (on another page): the page is its
        seat's again."""
        if self.seat and self.seat not in self.game.setup.players:
            self.seat = self.session.seat = None
            self.entry_player.layout.display = ""
        who = self.session.acting_for
        if who is not None and (self.game.state.finished or who not in self.game.state.waiting):
            self.session.act_for(None)

    def _refresh_seat_bar(self) -> None:
        g = self.game
        if not self.seat or g.state.finished:
            self.seat_switch.show(None, None, [])
            return
        waiting = self._waiting()
        others = [p for p in waiting if p != self.seat]
        note = ""
        if self._seat_done():
            note = (f"<div class='seat-done' style='font-size:1.15em;padding:4px 0'>"
                    f"<b>{escape(self.seat)}</b>: done, waiting for "
                    f"<b>{escape(', '.join(waiting)) or 'nobody'}</b></div>")
        self.seat_switch.show(self.seat, self.session.acting_for, others, note)

    # -- live ---------------------------------------------------------------------------
    def _shown_game(self) -> tuple[str | None, int | None]:
        """The game this page shows (the game tab selected) and its number of actions:
        what a page that reloads itself opens again (``?game=``)."""
        sse = self.sse
        if self.tabs.selected_index == 1 and sse is not None and sse.game is not None:
            return sse.gid, len(sse.game.actions)
        if self.game is not None:
            return self.gid, len(self.game.actions)
        return None, None

    def _tick_clocks(self) -> None:
        """The play timers' clocks advance on screen (issue 21) with each heartbeat of
        the page: only the words change, nothing is written to the store."""
        if self.game is not None:
            self.timer.tick()
        if self.sse is not None and getattr(self.sse, "game", None) is not None:
            self.sse.timer.tick()

    def start_live(self) -> bool:
        return self.poller.start()

    def live_tick(self) -> None:
        """One poll of the store (both game tabs)."""
        change = self._poll()
        if change:
            self._live_changed(change)
        if self.sse is not None:
            self.sse.live_tick()

    def _live_changed(self, change: Change) -> None:
        """Another page changed the game: show it, keep what is being typed, check it."""
        note = f"Updated from another page: {change.words(self.session.describe)}."
        if self._pending is not None:
            why = self.game.why_illegal(self._pending)
            if why:
                self._pending = None
                self.extra.children = []
                note += f" The build you were confirming is no longer legal: {why}"
        self.timer.bind(self.gid, self.session.meta)
        self.refresh()
        if change.added or change.undone:
            show_note(self.live_note, note)

    def _refresh_views(self) -> None:
        """The parts of the screen that depend on the seat or the table view."""
        g = self.game
        show_live(self.live_state, len(g.actions), self.gid)
        st = g.state
        self._refresh_join()
        if self.view == "table":             # the play timer is a control: not shown here
            self.timer.button.layout.display = "none"
        self._refresh_seat_bar()
        if self.seat:
            ps = st.players[self.seat]
            to_act = (" · your turn to act" if self.seat in st.waiting else
                      " · done" if not st.finished else "")
            show(self.seat_score,
                f"<div class='seat-line'><b>{escape(self.seat)}</b> · {ps.vp} VP · "
                f"{ps.credits} credits · {ps.station.cubes()} cubes · "
                f"{len(ps.station.locations(reactors=False))} locations{to_act}</div>")
            show(self.seat_station,
                "<div class='seat-station-svg' style='max-width:100%;overflow-x:auto'>"
                + render.station_svg(ps.station, title=self.seat, cell_size=64) + "</div>")
        else:
            show(self.seat_score, "")
            show(self.seat_station, "")
        if self.view == "table":
            parts = [f"<div class='station' style='display:inline-block;vertical-align:top;"
                     f"margin:6px 14px 6px 0;max-width:100%'>"
                     f"{render.station_svg(st.players[p].station, title=p, cell_size=48)}</div>"
                     for p in st.setup.players]
            show(self.table_stations, render.legend_html() + "".join(parts))
        else:
            show(self.table_stations, "")
