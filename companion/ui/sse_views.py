"""The Small Star Empires screen on many devices (issue 14): the live update, a player's
seat (``?seat=Ann``) and the read-only table view (``?view=table``).  A mixin of
:class:`companion.ui.sse_tab.SseTab`, the mirror of :mod:`companion.ui.ats_views`."""
from __future__ import annotations

import ipywidgets as w

from ..core.htmlsafe import escape
from .joinpanel import join_panel_html, public_url
from .live import live_widgets, show, show_live, show_note
from .seatswitch import SeatSwitch
from .session import Change


class SseViews:
    """Methods of :class:`SseTab` (sse_tab.py); see the module docstring."""

    def _build_views(self):
        self.seat: str | None = None
        self.view: str | None = None
        self.live_state, self.live_note = live_widgets()
        self.seat_score = w.HTML(layout=w.Layout(display="none"))
        self.seat_score.add_class("seat-score")
        self.join_box = w.HTML()
        self.join_box.add_class("sse-join-box")
        self._join_for: tuple | None = None
        # a seat moves only its own ships (issue 20): "waiting for Bob" and the explicit
        # switch "Enter Bob's move (no phone)"
        self.seat_switch = SeatSwitch(self._act_for, lambda: self._act_for(None),
                                      self.guarded)

    # -- a seat stays its player (issue 20) ---------------------------------------------
    def _act_for(self, player: str | None) -> None:
        self.session.act_for(player)
        self.app.status.value = ""          # a refused tap's message is answered now
        self.selected = None
        self._pending = None
        self.extra.children = []
        self.refresh()

    def _may_enter(self) -> bool:
        """Does this page enter the move of the player to move?  Anywhere but a seat page;
        there, only the seat's own moves (or the one player the switch names)."""
        g = self.game
        if not self.seat or g.state.finished:
            return True
        return g.current in (self.seat, self.session.acting_for)

    def _waiting_words(self) -> str:
        g = self.game
        last = g.actions[-1].get("player") if g.actions else None
        done = "done, " if last == self.seat else ""
        return f"{self.seat}: {done}waiting for {g.current}"

    def _check_acting_for(self) -> None:
        """Before a refresh: another game opened here is no seat of it; the player the
        switch names has moved meanwhile (on another page): the page is its seat's again."""
        g = self.game
        if self.seat and self.seat not in g.setup.players:
            self.seat = self.session.seat = None
        who = self.session.acting_for
        if who is not None and (g.state.finished or who != g.current):
            self.session.act_for(None)

    def _refresh_seat_bar(self) -> None:
        g = self.game
        if not self.seat or g.state.finished or self.view == "table":
            self.seat_switch.show(None, None, [])
            return
        cur = g.current
        others = [cur] if cur is not None and cur != self.seat else []
        note = ""
        if others and self.session.acting_for is None:
            last = g.actions[-1].get("player") if g.actions else None
            done = "done, " if last == self.seat else ""
            note = (f"<div class='seat-done' style='font-size:1.15em;padding:4px 0'>"
                    f"<b>{escape(self.seat)}</b>: {done}waiting for <b>{escape(cur)}</b></div>")
        self.seat_switch.show(self.seat, self.session.acting_for, others, note,
                              switch_label=f"Enter {cur}'s move (no phone)")

    def set_view(self, seat: str | None, view: str | None) -> None:
        self._view_of(seat, view)
        # the controls that write are hidden by the role, in every tab (ui/writes.py)
        self.app._apply_role()
        if self.game is not None:
            self.refresh()

    def live_tick(self) -> None:
        change = self._poll()
        if change:
            self._live_changed(change)

    def _live_changed(self, change: Change) -> None:
        """Another page moved: the selection and a half-made move are kept only while the
        same player is still to move and the move is still legal."""
        note = f"Updated from another page: {change.words(self.session.describe)}."
        g = self.game
        if self._pending is not None and (self._pending.get("player") != g.current
                                          or not g.is_legal(self._pending)):
            self._pending = None
            self.extra.children = []
            note += " The move you were making is no longer possible; choose again."
        if self.selected is not None and (change.added or change.undone):
            self.selected = None
        self.timer.bind(self.gid, self.session.meta)
        self.refresh()
        if change.added or change.undone:
            show_note(self.live_note, note)

    def _refresh_views(self) -> None:
        g = self.game
        show_live(self.live_state, len(g.actions), self.gid)
        key = (self.gid, self.app.token, public_url())
        if key != self._join_for:
            self._join_for = key
            self.join_box.value = join_panel_html(public_url(), token=self.app.token,
                                                  gid=self.gid, players=list(g.setup.players))
        if self.view == "table":             # the play timer is a control: not shown here
            self.timer.button.layout.display = "none"
        if self.view == "table":
            self.entry.layout.display = "none"
        self._refresh_seat_bar()
        if self.seat:
            st = g.state
            totals = g.score(project=False).totals()
            ps = st.players[self.seat]
            left = g.pieces_left(self.seat)
            to_move = " · your move" if g.current == self.seat else ""
            show(self.seat_score,
                f"<div class='seat-line'><b>{escape(self.seat)}</b> · "
                f"{totals.get(self.seat, 0)} VP now · {left.get('city', 0)} Cities and "
                f"{left.get('trade_station', 0)} Trade Stations left"
                f"{' · passed' if ps.passed else ''}{to_move}</div>")
        else:
            show(self.seat_score, "")
