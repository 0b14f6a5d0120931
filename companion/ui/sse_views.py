"""The Small Star Empires screen on many devices (issue 14): the live update, a player's
seat (``?seat=Ann``) and the read-only table view (``?view=table``).  A part of
:class:`companion.ui.sse_screen.SseScreen` (the mirror of :mod:`companion.ui.ats_views`): it
holds the live line, the seat's line and switch and the join panel, and reads the screen
it is given (its session, game, seat and view)."""
from __future__ import annotations


import ipywidgets as w

from ..core.htmlsafe import escape
from .joinpanel import Reissue, join_panel_html, links_stamp, public_url
from .live import live_widgets, show, show_live, show_note
from .seatswitch import SeatSwitch
from .session import Change
from .tableview import TV_CLASS, sse_display
from .sse_protocol import SseScreenProtocol



class SseViews:
    """The live line, the seat's line and switch, the join panel of ``screen``."""

    def __init__(self, screen: SseScreenProtocol):
        self.screen = screen
        self.live_state, self.live_note = live_widgets()
        self.seat_score = w.HTML(layout=w.Layout(display="none"))
        self.seat_score.add_class("seat-score")
        self.join_box = w.HTML()
        self.join_box.add_class("sse-join-box")
        self.join_for: tuple | None = None
        # under --lan, the host's New link for a seat (issue 35)
        self.reissue = Reissue(screen.session, screen.guarded, screen.app.say, self._rejoin)
        self.join_panel = w.VBox([self.join_box, self.reissue.box])
        # a seat moves only its own ships (issue 20): "waiting for Bob" and the explicit
        # switch "Enter Bob's move (no phone)"
        self.seat_switch = SeatSwitch(self.act_for, lambda: self.act_for(None),
                                      screen.guarded)
        # the table view's display (issue 37): the map and the scores, large
        self.display = w.HTML(layout=w.Layout(display="none"))
        self.display.add_class("tv-display")

    def _rejoin(self) -> None:
        """The panel again (a seat's link re-issued)."""
        self.join_for = None
        self.refresh()

    # -- a seat stays its player (issue 20) ---------------------------------------------
    def act_for(self, player: str | None) -> None:
        s = self.screen
        s.session.act_for(player)
        s.app.status.value = ""          # a refused tap's message is answered now
        s.forget_selection()
        s.refresh()

    def may_enter(self) -> bool:
        """Does this page enter the move of the player to move?  Anywhere but a seat page;
        there, only the seat's own moves (or the one player the switch names)."""
        s = self.screen
        g = s.game
        if not s.seat or g.state.finished:
            return True
        return g.current in (s.seat, s.session.acting_for)

    def waiting_words(self) -> str:
        s = self.screen
        g = s.game
        last = g.actions[-1].get("player") if g.actions else None
        done = "done, " if last == s.seat else ""
        return f"{s.seat}: {done}waiting for {g.current}"

    def check_acting_for(self) -> None:
        """Before a refresh: another game opened here has the session's seat (the player
        of the seat's name there, or none: the page is a view of it, issue 35); the player
        the switch names has moved meanwhile (on another page): the page is its seat's
        again."""
        s = self.screen
        g = s.game
        if s.view is None:
            s.seat = s.session.seat
        who = s.session.acting_for
        if who is not None and (g.state.finished or who != g.current):
            s.session.act_for(None)

    def refresh_seat_bar(self) -> None:
        s = self.screen
        g = s.game
        if not s.seat or g.state.finished or s.view == "table":
            self.seat_switch.show(None, None, [])
            return
        cur = g.current
        others = [cur] if cur is not None and cur != s.seat else []
        note = ""
        if others and s.session.acting_for is None:
            last = g.actions[-1].get("player") if g.actions else None
            done = "done, " if last == s.seat else ""
            note = (f"<div class='seat-done' style='font-size:1.15em;padding:4px 0'>"
                    f"<b>{escape(s.seat)}</b>: {done}waiting for <b>{escape(cur)}</b></div>")
        self.seat_switch.show(s.seat, s.session.acting_for, others, note,
                              switch_label=f"Enter {cur}'s move (no phone)")

    def set_view(self, seat: str | None, view: str | None) -> None:
        s = self.screen
        s.view_of(seat, view)
        # the controls that write are hidden by the role, in every tab (ui/writes.py)
        s.app.apply_role()
        if s.game is not None:
            s.refresh()

    def live_tick(self) -> None:
        change = self.screen.poll()
        if change:
            self.live_changed(change)

    def live_changed(self, change: Change) -> None:
        """Another page moved: the selection and a half-made move are kept only while the
        same player is still to move and the move is still legal."""
        s = self.screen
        note = f"Updated from another page: {change.words(s.session.describe)}."
        g = s.game
        pending = s.reveal_part.pending
        if pending is not None and (pending.get("player") != g.current
                                    or not g.is_legal(pending)):
            s.reveal_part.clear()
            note += " The move you were making is no longer possible; choose again."
        if s.selected is not None and (change.added or change.undone):
            s.selected = None
        s.timer.bind(s.gid, s.session.meta)
        s.refresh()
        if change.added or change.undone:
            # a refusal shown here spoke of the game as it was (issue 35)
            s.app.forget_refusal(s)
            show_note(self.live_note, note)

    def refresh(self) -> None:
        s = self.screen
        g = s.game
        show_live(self.live_state, len(g.actions), s.gid, s.session.trouble)
        key = (s.gid, s.app.token, public_url(), s.session.role, links_stamp())
        if key != self.join_for:
            self.join_for = key
            self.join_box.value = join_panel_html(public_url(), token=s.app.token,
                                                  gid=s.gid, players=list(g.setup.players),
                                                  role=s.session.role, store=s.store)
        self.reissue.update(s.gid, list(g.setup.players))
        if s.view == "table":             # the play timer is a control: not shown here
            s.timer.button.layout.display = "none"
            s.entry.layout.display = "none"
        self.refresh_seat_bar()
        self.refresh_display()
        if s.seat and s.seat in s.lay_part.still_to_lay():     # issue 39: no numbers yet
            show(self.seat_score, f"<div class='seat-line'><b>{escape(s.seat)}</b> · lay your "
                                  "pieces below</div>")
        elif s.seat:
            st = g.state
            totals = g.score(project=False).totals()
            ps = st.players[s.seat]
            left = g.pieces_left(s.seat)
            to_move = " · your move" if g.current == s.seat else ""
            show(self.seat_score,
                 f"<div class='seat-line'><b>{escape(s.seat)}</b> · "
                 f"{totals.get(s.seat, 0)} VP now · {left.get('city', 0)} Cities and "
                 f"{left.get('trade_station', 0)} Trade Stations left"
                 f"{' · passed' if ps.passed else ''}{to_move}</div>")
        else:
            show(self.seat_score, "")

    def refresh_display(self) -> None:
        """The table view's display, first on the play screen (companion/ui/tableview.py);
        elsewhere it takes no room."""
        s = self.screen
        box = getattr(s, "play_screen", None)
        tv = s.view == "table"
        if box is not None:
            if tv and self.display not in box.children:
                box.children = [self.display, *box.children]
            (box.add_class if tv else box.remove_class)(TV_CLASS)
        show(self.display, sse_display(s.game) if tv else "")
