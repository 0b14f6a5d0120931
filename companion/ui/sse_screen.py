"""The Small Star Empires tab of the dashboard (ipywidgets).  Calls the SSE engine only.

Screens: *setup* (new game, saved games, the map editor) and *play* (the hex board,
ship selection with the legal destinations highlighted, City / Trade Station, unexplored
tiles, undo, live score, what-if, final table).  Every accepted action is written to the
same SQLite store as Among the Stars, at once; the game shown is the replay of the stored
record.

:class:`SseScreen` is one screen composed of parts, each a plain class given the screen in
its constructor (no inheritance among them, every attribute made in ``__init__``):
:class:`~companion.ui.sse_setup.SseSetupForm` (the new-game form and saved games),
:class:`~companion.ui.sse_setup.SseEditor` (the map editor),
:class:`~companion.ui.sse_board.SseBoard` (the board and its clicks),
:class:`~companion.ui.sse_reveal.SseReveal` (an exploring move waiting for its tile),
:class:`~companion.ui.sse_final.SseFinal` (what-if, final table, epic table, campaign) and
:class:`~companion.ui.sse_views.SseViews` (live line, seat, join panel).  The screen keeps
the play screen's entry (ship, piece, hint), the turn line and the score, the undo, and
what every part shares: the session, the selected ship, the play timer.  The names the
app and the tests use (``tab.names``, ``tab.clicked`` …) are the parts' (:class:`Via`).
"""
from __future__ import annotations

from ..core.htmlsafe import colour, escape

import ipywidgets as w

from .playdetails import PlayDetailsPart, PlayTimer
from .common import Via, ask_undo  # noqa: F401 (Via: re-exported)
from .live import show
from .quiet import Quiet
from ..core.errors import CompanionError
from ..sse.game import FORMAT, PIECE_NAMES, SseGame
from ..sse.offer import may_damage, rule_text, usual_piece
from ..sse.render import legend_html
from .session import GameSession, PageBehind, SessionPart
from .writes import writes
from .sse_reveal import SseReveal
from .sse_final import SseFinal
from .sse_setup import SseEditor, SseSetupForm
from .sse_views import SseViews
from .sse_lay import SseLay
from .sayline import SayLine
from .sse_board import (COL_PX, HEX_H, HEX_W, KIND_LABEL, LEGAL, MIN_COL_PX, MIN_HEX_H, PALETTE,  # noqa: F401
                        ROW_PX, HexBoard, SseBoard, col_css, hex_class, system_cell)
from .drivers import SseDriver

PLURAL = {"city": "Cities", "trade_station": "Trade Stations"}
STYLE = """<style>
.sse-root .sse-board { padding-bottom: 18px; }
.sse-root .sse-hex { clip-path: polygon(50% 0%, 100% 25%, 100% 75%, 50% 100%, 0% 75%, 0% 25%);
  border-radius: 0 !important; padding: 0 !important; margin: 0 !important; font-size: 11px;
  line-height: 1.05; white-space: normal !important; overflow: hidden; box-shadow: none !important; }
.sse-root .sse-hex.legal { font-size: 15px; font-weight: bold; }
.sse-root .sse-hex.selected { font-weight: bold; text-decoration: underline; }
.sse-root .sse-hex.ghost { opacity: 0.35; }
.sse-root .sse-piece button.mod-active, .sse-root .sse-ship-pick button.mod-active {
  background-color: #1e3a8a !important; color: white !important; font-weight: bold; }
.sse-root .sse-score td, .sse-root .sse-score th,
.sse-root .sse-final-table td, .sse-root .sse-final-table th,
.sse-root .sse-whatif-table td, .sse-root .sse-whatif-table th { padding: 2px 8px; text-align: left; }
</style>"""


class SseScreen:
    # -- what the session and play-details parts hold (SessionPart, PlayDetailsPart) -----
    store = Via("live")
    role = Via("live")
    game = Via("live")
    gid = Via("live")
    rev = Via("live")
    open_session = Via("live", "open")
    view_of = Via("live", "view_of")
    poll = Via("live", "poll")
    details_for = Via("details", "shown_for")
    tap_timer = Via("details", "tap_timer")
    stop_timer = Via("details", "stop_timer")
    fill_final_details = Via("details", "fill_final_details")
    save_final_details = Via("details", "save_final_details")
    stored_record_b64 = Via("details", "stored_record_b64")
    refresh_exports = Via("details", "refresh_exports")
    # -- what the shell and PlayDetailsPart read of every game's screen (companion.ui.screens)
    setup_role_note = Via("setup_part")
    live_state, live_note = Via("views_part", "live_state"), Via("views_part", "live_note")
    final_details, exports = Via("final_part", "final_details"), Via("final_part", "exports")

    def __init__(self, app):
        self.app = app
        # the page's role (the app's: one role for every tab), before the latest game opens
        self.session = GameSession(app.store, again="enter the action again",
                                   role=app.session.role, seat_name=app.session.seat_name,
                                   cap_id=app.session.cap_id,
                                   seat_game=app.session.seat_game)
        self.live = SessionPart(self, self.session)   # store, game, gid, rev; open, poll
        self.details = PlayDetailsPart(self)          # the play timer, details, exports
        self.seat: str | None = None            # the seat's player (SessionPart.view_of)
        self.view: str | None = app.ats.view
        self.selected: int | None = None        # the current player's selected ship
        # the entry's observers hushed (Quiet); (game, player, actions) of the piece chosen
        self._quiet, self._piece_for = False, None
        self.title = w.HTML("<h3 style='margin:4px 0'>Small Star Empires</h3>")
        self.body = w.VBox()
        # the page title names this tab (App._tab_opened): no second title here (issue 15)
        self.box = w.VBox([w.HTML(STYLE), self.body])
        self.box.add_class("sse-root")
        # the play timer (issue 16), compact, beside the turn line (entry, board: 1st screen)
        self.timer = PlayTimer(self.session, "sse-timer", compact=True)
        writes(self.timer.button)
        self.timer.button.on_click(self.guarded(lambda _: self.tap_timer()))
        # the parts, each given this screen
        self.views_part = SseViews(self)
        self.reveal_part = SseReveal(self)
        self.board_part = SseBoard(self)
        self.final_part = SseFinal(self)
        self.setup_part = SseSetupForm(self)
        self.lay_part = SseLay(self)              # pieces laid as they lie (issue 39)
        self.editor_part = SseEditor(self, self.setup_part)
        self._build_play()
        games = self.store.games(format=FORMAT, table=self.store.table)
        if games:
            try:
                self.open_game(games[0]["id"])
                self.app.say(f"Small Star Empires: resumed '{games[0]['title']}'.")
                return
            except CompanionError as e:
                self.app.error(f"Could not resume the last Small Star Empires game: {e}")
        self.show_setup()

    def guarded(self, fn):
        return self.app.guarded(fn)

    # -- the parts' screens and the app's calls -------------------------------------------
    def show_setup(self) -> None:
        self.setup_part.show()

    def start_game(self) -> None:
        self.setup_part.start_game()

    def show_editor(self) -> None:
        self.editor_part.show()

    def set_view(self, seat: str | None, view: str | None) -> None:
        self.views_part.set_view(seat, view)

    def driver(self) -> SseDriver:
        """What a player does on this screen, as calls (:mod:`companion.ui.drivers`)."""
        return SseDriver(self)

    def live_tick(self) -> None:
        self.views_part.live_tick()

    # ================================================================== play
    def _build_play(self):
        self.turn = w.HTML()
        self.turn.add_class("sse-turn")
        # the engine's pieces for the player to move, how many left (_refresh_piece)
        self.piece = w.ToggleButtons(options=[], description="Colonise with")
        self.piece.add_class("sse-piece")
        self.piece_note = w.HTML()
        self.piece_note.add_class("sse-piece-note")
        self.ship_pick = w.ToggleButtons(options=[], description="Ship")
        self.ship_pick.add_class("sse-ship-pick")
        self.ship_pick.observe(self.guarded(lambda _: self._quiet or self._ship_changed()), "value")
        self.piece.observe(self.guarded(lambda _: self._quiet or self._piece_changed()), "value")
        self.hint = w.HTML()
        self.hint.add_class("sse-hint")
        undo = w.Button(description="Undo last action", icon="undo", layout=w.Layout(width="auto"))
        undo.add_class("sse-undo")
        writes(undo)
        undo.on_click(self.guarded(lambda _: self.ask_undo()))
        self.undo_btn = undo
        self.undo_box = w.HBox()
        self.undo_box.add_class("sse-undo-confirm")
        writes(self.undo_box)
        # width auto: the whole label shown (the default width cut it)
        new = w.Button(description="New game / saved games / maps", icon="plus",
                       layout=w.Layout(width="auto"))
        new.add_class("sse-new")
        writes(new, host_only=True)
        new.on_click(self.guarded(lambda _: self.show_setup()))
        self.new_btn = new
        # the rule it needs, quoted (companion.core.rules.Rule: damaged)
        self.damage_btn = w.Button(description="Damage the selected ship (expansion effect)",
                                   tooltip=rule_text("damaged"), layout=w.Layout(width="auto"))
        self.damage_btn.add_class("sse-damage")
        writes(self.damage_btn)
        self.damage_btn.on_click(self.guarded(lambda _: self.damage()))
        self.timer_row = w.HBox([self.turn, self.timer.button])
        # "live · actions: N" (issue 14) sits beside undo: the board keeps the first screen
        self.undo_row = w.HBox([undo, self.damage_btn, self.views_part.live_state])
        self.timer_row.add_class("timer-row")
        # the status line copied next to the entry: a refused click's rule stays in view
        self.msg = w.HTML(layout=w.Layout(display="none"))
        self.msg.add_class("sse-message")
        self.app.status.observe(self._mirror_status, "value")
        # the line of entry (issue 40): a sentence staged on the board, confirmed by a tap
        # a seat's line is its player's (or the one the switch names): another player's
        # sentence is refused before any question (issue 52)
        self.say_line = SayLine(self, self.board_part.stage, "sse", who=lambda: (
            self.session.acting_for or self.seat) if self.seat else None)
        self.say_line.box.layout.flex = "1 1 320px"     # in a row: at least 320 px wide
        # the line and the ship choice share a row where it is wide enough (a laptop: the
        # whole board stays on the first screen); a phone puts the ships under the line
        self.entry = w.VBox([w.HBox([self.say_line.box, self.ship_pick],
                                    layout=w.Layout(flex_flow="row wrap", align_items="flex-start")),
                             self.board_part.said_box,
                             w.HBox([self.piece, self.piece_note]),
                             self.hint, self.reveal_part.extra])
        self.entry.add_class("sse-entry")
        writes(self.entry)
        self.more = w.Accordion(children=[self.final_part.whatif, w.HTML(legend_html()),
                                          self.views_part.join_panel],
                                selected_index=None)
        self.more.set_title(0, "What-if: every destination of the selected ship")
        self.more.set_title(1, "Legend")
        self.more.set_title(2, "Join from other devices (QR codes)")
        self.more.add_class("sse-more")
        # top to bottom as a hand on a phone needs it (issue 15); the rest folded
        self.play_screen = w.VBox([
            self.timer_row, self.views_part.seat_score, self.views_part.live_note,
            self.views_part.seat_switch.box, self.entry,
            self.lay_part.box, self.msg, self.board_part.board.box, self.final_part.final, self.final_part.final_extra,
            self.final_part.epic_box, self.final_part.campaign_box, self.undo_row, self.undo_box,
            self.final_part.scoreboard, self.final_part.score_more, self.more, new])
        self.play_screen.add_class("sse-play")

    def open_game(self, gid: str):
        self.open_session(gid, SseGame, "a Small Star Empires")
        self.forget_selection()
        self.undo_box.children = []
        self.body.children = [self.play_screen]
        self.refresh()

    def forget_selection(self) -> None:
        """No ship selected, no move waiting for its tile."""
        self.selected = None
        self.reveal_part.clear()
        self.board_part.said = None
        self.board_part.said_box.children = []

    def _behind(self):
        """The session shows another page's change: the page forgets its selection (and
        a sentence's staged move: the line says so, its sentence kept)."""
        self.timer.bind(self.gid, self.session.meta)
        if self.board_part.said is not None:
            self.say_line.stale()
        self.forget_selection()
        self.undo_box.children = []
        self.refresh()

    def reload(self):
        if self.gid:
            self.session.reload()
            self.timer.bind(self.gid, self.session.meta)
            self.selected = None
            self.reveal_part.pending = None
            self.refresh()

    # -- refresh -----------------------------------------------------------------------
    def refresh(self):
        g = self.game
        st = g.state
        self.damage_btn.layout.display = "" if may_damage(st) else "none"
        self.views_part.check_acting_for()
        # a seat page moves only its own ships (or the one player the switch names); while
        # pieces are laid (issue 39) the laying panel, not the entry; at the end the final
        # panel draws the board (once)
        laying = self.lay_part.refresh()
        self.entry.layout.display = ("none" if st.finished or laying
                                     or not self.views_part.may_enter() else "")
        self.board_part.board.box.layout.display = "none" if st.finished or laying else ""
        self._refresh_turn()
        self.lay_part.show_timer(self.timer)   # the clock now; none while laying (issue 39)
        self.final_part.refresh_score()
        self._refresh_piece()
        self._refresh_ships()
        self.board_part.refresh()
        self.final_part.refresh_whatif()
        self.final_part.refresh()
        self.views_part.refresh()
        self.app.apply_role()
        self.lay_part.show_undo()   # *Undo last action* where the session allows it

    def refresh_final(self):
        """PlayDetailsPart's call after the play details are saved."""
        self.final_part.refresh()

    def swatch(self, p: str) -> str:
        return (f"<span style='display:inline-block;width:12px;height:12px;border-radius:6px;"
                f"background:{colour(self.game.setup.colour(p))};vertical-align:middle'></span>")

    def _mirror_status(self, change):
        """The status line's message, next to the entry, while this tab is shown."""
        if self.app.tabs.selected_index != 1:
            return
        self.msg.value = change["new"] or ""
        self.msg.layout.display = "" if self.msg.value and not self.lay_part.laying() else "none"

    def _refresh_turn(self):
        """One line (issue 15): who is to move, the move number, the last move, who passed."""
        g = self.game
        st = g.state
        passed = [p for p in st.setup.players if st.players[p].passed]
        tail = f" · passed: {escape(', '.join(passed))}" if passed else ""
        last = ""
        if g.actions:
            a = g.actions[-1]
            last = f" · last: {escape(g.describe(a))}"
        if self.lay_part.turn_line(self.turn):
            return
        if st.finished:
            self.turn.value = (f"<div class='sse-turn-line sse-turn-over'><b>The game is over: "
                               f"{escape(st.end_reason)}.</b></div>")
            return
        self.turn.value = (f"<div class='sse-turn-line' title='{last[3:]}'>"
                           f"{self.swatch(st.current)} "
                           f"<b class='sse-current'>{escape(st.current)}</b> to move · move "
                           f"{st.moves + 1}{last}{tail}</div>")

    def _refresh_ships(self):
        g = self.game
        st = g.state
        if st.finished or st.current is None:
            self.selected = None
            with self.hush():
                self.ship_pick.options = []
            self._refresh_hint()
            return
        ps = st.players[st.current]
        opts = []
        for s in ps.ships:
            n = len(g.legal_moves(ps.name, s.id))
            opts.append((f"{s.id} at [{s.at[0]}, {s.at[1]}]" + (" (damaged)" if s.damaged else "")
                         + ("" if n else " – stuck"), s.id))
        if self.selected is not None and not (0 <= self.selected < len(ps.ships)):
            self.selected = None
        with self.hush():
            with self.ship_pick.hold_sync():
                self.ship_pick.options = opts
                self.ship_pick.value = self.selected
        self._refresh_hint()

    def _refresh_hint(self):
        g = self.game
        st = g.state
        if st.finished or st.current is None:
            self.hint.value = ""
        elif self.selected is None:
            # short (issue 15): on a phone every line here pushes the board down
            self.hint.value = (f"{escape(st.current)}: tap one of your ships (or pick it above), "
                               "then a green system.")
        elif not g.legal_moves(st.current, self.selected):
            self.hint.value = f"Ship {self.selected} cannot move: choose another ship."
        else:
            n = len(self.board_part.legal())
            piece = PIECE_NAMES.get(self.piece.value)
            what = f" for a {piece}" if piece else ""
            self.hint.value = (f"Ship {self.selected}: {n} legal destination(s){what} in green; "
                               "tap one to move there." if n else
                               f"Ship {self.selected}: no legal destination{what}; choose another "
                               "piece or another ship.")

    def _refresh_piece(self):
        """The piece choice of the player to move: City on a new situation (a move, an undo,
        a game opened), else kept (issue 37: "tap Trade Station, then tap a ship: the choice
        silently goes back to City"); the pieces the engine offers, with how many left."""
        g = self.game
        st = g.state
        player = st.current
        can = g.placeable_pieces(player) if player is not None else ()
        left = g.pieces_left(player) if player is not None else {}
        opts = [(f"{PIECE_NAMES[p]} ({left[p]} left)", p) for p in can]
        situation = (self.gid, player, len(g.actions))
        keep = self.piece.value if self._piece_for == situation else None
        self._piece_for = situation
        with self.hush():
            with self.piece.hold_sync():
                self.piece.options = opts
                self.piece.tooltips = [f"{left[p]} {PLURAL[p] if left[p] != 1 else PIECE_NAMES[p]} "
                                       f"left in {player}'s reserve" for p in can]
                self.piece.value = keep if keep in can else usual_piece(can)
        gone = [PLURAL[p] for p in left if left[p] == 0]
        # the rule quoted on the note (companion.core.rules.Rule: no-pieces)
        self.piece_note.value = (f"<span style='color:#8a4b00' title='{escape(rule_text('no-pieces'))}'>"
                                 f"{escape(player)} has no {' and no '.join(gone)} left</span>"
                                 if gone else "")

    def _piece_changed(self):
        self._refresh_hint()
        self.board_part.refresh()

    def hush(self):
        return Quiet(self)

    def _ship_changed(self):
        self.select(self.ship_pick.value)

    def select(self, ship: int | None) -> None:
        """Ship ``ship`` selected: its legal destinations in green, its what-if (the piece stays)."""
        self.selected = ship
        self.reveal_part.clear()
        self._refresh_piece()
        self._refresh_ships()
        self.board_part.refresh()
        self.final_part.refresh_whatif()

    def damage(self):
        g = self.game
        if self.selected is None:
            raise CompanionError("Select the ship to damage first.")
        self.push({"do": "damage", "player": g.state.current, "ship": self.selected})

    def push(self, action: dict):
        g = self.game
        try:
            # the store first: another page's change refuses it (PageBehind); a file that
            # cannot be written keeps the selection and the form (pressing again retries)
            norm = self.session.push(action)
        except PageBehind:
            self._behind()
            raise
        self.forget_selection()
        self.say_line.text.value = ""          # recorded: the line is free for the next
        self.say_line.clear()
        show(self.views_part.live_note, "")
        st = g.state
        msg = f"{g.describe(norm)}."
        if st.finished:
            msg += f" The game is over ({st.end_reason}): see the final table."
        else:
            newly = [p for p in st.setup.players if st.players[p].passed
                     and st.players[p].passed_at == st.index]
            if newly:
                msg += f" {', '.join(newly)} cannot move and pass{'es' if len(newly) == 1 else ''} for the rest of the game."
            msg += f" {st.current} to move." if st.current else self.lay_part.still_words()
        self.app.say(msg)
        self.refresh()


    # -- undo ------------------------------------------------------------------------------
    def ask_undo(self):
        ask_undo(self, lambda last: f"Undo: {self.game.describe(last)}?", "sse-undo", self.undo)

    def undo(self):
        try:
            last = self.session.undo()
        except PageBehind:
            self._behind()
            raise
        self.undo_box.children = []
        self.forget_selection()
        self.lay_part.undone(last)              # a lay undone is its draft again (issue 39)
        show(self.views_part.live_note, "")
        self.app.say(f"Undone: {self.game.describe(last)}.")
        self.refresh()

    # -- play details (issue 16) -----------------------------------------------------------
    def gone(self):
        self.session.close()
        self.show_setup()
        self.app.error("Not recorded: this Small Star Empires game was deleted on another page "
                       "or tab. Start a new game or open a saved one.")

    def details_players(self) -> list:
        return list(self.game.setup.players)

    def details_said(self, text: str) -> None:
        self.app.say(text)

    def error(self, text: str) -> None:
        self.app.error(text)

    def details_error(self, text: str) -> None:
        self.app.error(text)

    def details_gone(self) -> None:
        self.gone()

    def details_saved(self) -> None:
        self.game.meta = {k: v for k, v in self.timer.meta.items() if k != "title"}
