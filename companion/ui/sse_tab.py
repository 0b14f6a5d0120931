"""The Small Star Empires tab of the dashboard (ipywidgets).  Calls the SSE engine only.

Screens: *setup* (new game, saved games, the map editor) and *play* (the hex board,
ship selection with the legal destinations highlighted, City / Trade Station, unexplored
tiles, undo, live score, what-if, final table).  Every accepted action is written to the
same SQLite store as Among the Stars, at once; the game shown is the replay of the stored
record.
"""
from __future__ import annotations

from ..core.htmlsafe import colour, escape

import ipywidgets as w

from .playdetails import DetailsForm, FinalExports, PlayDetailsScreen, PlayTimer
from .common import ask_undo
from .live import show
from .quiet import Quiet
from ..core.errors import CompanionError
from ..sse.game import FORMAT, PIECE_NAMES, SseGame
from ..sse.hexmap import EFFECT_NAMES
from ..sse.render import legend_html
from ..sse.scoring import CATEGORIES, CATEGORY_NAMES
from .session import GameSession, PageBehind, SessionScreen
from .writes import writes
from ..core.roles import Write
from .sse_reveal import reveal_form
from .sse_final import SseFinal
from .sse_setup import SseSetupScreen
from .sse_views import SseViews
from .sse_board import (COL_PX, HEX_H, HEX_W, KIND_LABEL, LEGAL, MIN_COL_PX, MIN_HEX_H, PALETTE,  # noqa: F401
                        ROW_PX, HexBoard, col_css, hex_class, system_cell)

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


class SseTab(SseSetupScreen, SseFinal, SseViews, SessionScreen, PlayDetailsScreen):
    def __init__(self, app):
        self.app = app
        # the page's role (the app's: one address, one role for every tab), before the
        # latest game is opened below
        self.session = GameSession(app.store, again="enter the action again",
                                   role=app.session.role)
        self.selected: int | None = None        # the current player's selected ship
        self._pending: dict | None = None        # an unexplored move waiting for its tile
        self.title = w.HTML("<h3 style='margin:4px 0'>Small Star Empires</h3>")
        self.body = w.VBox()
        # the page title names this tab (App._tab_opened): no second title here (issue 15)
        self.box = w.VBox([w.HTML(STYLE), self.body])
        self.box.add_class("sse-root")
        self._build_views()
        self.view = app.view
        self._build_setup()
        self._build_play()
        self._build_editor()
        games = self.store.games(format=FORMAT)
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

    # ================================================================== play
    def _build_play(self):
        self.turn = w.HTML()
        self.turn.add_class("sse-turn")
        self.scoreboard = w.HTML()
        self.scoreboard.add_class("sse-score")
        # the options are the pieces the engine says the player to move can place, with how
        # many are left (see _refresh_piece); every new situation starts again from City
        self.piece = w.ToggleButtons(options=[], description="Colonise with")
        self.piece.add_class("sse-piece")
        self.piece_note = w.HTML()
        self.piece_note.add_class("sse-piece-note")
        self.ship_pick = w.ToggleButtons(options=[], description="Ship")
        self.ship_pick.add_class("sse-ship-pick")
        self._quiet = False
        self.ship_pick.observe(self.guarded(lambda _: self._quiet or self._ship_changed()), "value")
        self.piece.observe(self.guarded(lambda _: self._quiet or self._piece_changed()), "value")
        self.hint = w.HTML()
        self.hint.add_class("sse-hint")
        self.board = HexBoard(self.guarded(self._clicked))
        self.extra = w.VBox()
        self.extra.add_class("sse-extra")
        undo = w.Button(description="Undo last action", icon="undo", layout=w.Layout(width="auto"))
        undo.add_class("sse-undo")
        writes(undo)
        undo.on_click(self.guarded(lambda _: self._ask_undo()))
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
        self.damage_btn = w.Button(description="Damage the selected ship (expansion effect)",
                                   layout=w.Layout(width="auto"))
        self.damage_btn.add_class("sse-damage")
        writes(self.damage_btn)
        self.damage_btn.on_click(self.guarded(lambda _: self._damage()))
        self.whatif = w.HTML()
        self.whatif.add_class("sse-whatif")
        self.final = w.HTML()
        self.final.add_class("sse-final")
        # the play timer (issue 16), the final screen's play details and exports
        # compact, beside the turn line: the entry and the board stay on the first screen
        self.timer = PlayTimer(self.store, "sse-timer", compact=True)
        writes(self.timer.button)
        self.timer.button.on_click(self.guarded(lambda _: self._tap_timer()))
        self.final_details = DetailsForm("sse-final")
        save = w.Button(description="Save the play details", icon="save",
                        layout=w.Layout(width="auto"))
        save.add_class("sse-final-details-save")
        writes(save)
        save.on_click(self.guarded(lambda _: self._save_final_details()))
        self.exports = FinalExports(self.store, "sse-final-exports", "small-star-empires",
                                    self.guarded)
        # the details form writes (hidden in the table view); the exports only read
        self.final_extra = w.VBox([
            writes(w.HTML("<h4 style='margin:8px 0 2px'>Play details</h4>")),
            writes(self.final_details.box), save, self.exports.panel])
        self.final_extra.add_class("sse-final-extra")
        self.timer_row = w.HBox([self.turn, self.timer.button])
        # "live · actions: N" (issue 14) sits beside undo: the board keeps the first screen
        self.undo_row = w.HBox([undo, self.damage_btn, self.live_state])
        self.timer_row.add_class("timer-row")
        self._details_for = None
        self.epic_box = w.VBox()
        self.campaign_box = w.VBox()
        self.campaign_box.add_class("sse-campaign")
        # the message of this tab next to the entry (a copy of the status line while the
        # tab is shown): a refused click's rule stays in view above the board
        self.msg = w.HTML(layout=w.Layout(display="none"))
        self.msg.add_class("sse-message")
        self.app.status.observe(self._mirror_status, "value")
        self.entry = w.VBox([self.ship_pick, w.HBox([self.piece, self.piece_note]),
                             self.hint, self.extra])
        self.entry.add_class("sse-entry")
        writes(self.entry)
        self.score_details = w.HTML()
        self.score_details.add_class("sse-score-details")
        # folded (widgets keep their open state across refreshes, unlike <details>)
        self.score_more = w.Accordion(children=[self.score_details], selected_index=None)
        self.score_more.set_title(0, "Ships and the score if the game ended now")
        self.score_more.add_class("sse-score-more")
        self.more = w.Accordion(children=[self.whatif, w.HTML(legend_html()), self.join_box],
                                selected_index=None)
        self.more.set_title(0, "What-if: every destination of the selected ship")
        self.more.set_title(1, "Legend")
        self.more.set_title(2, "Join from other devices (QR codes)")
        self.more.add_class("sse-more")
        # top to bottom as a hand on a phone needs it (issue 15): where we are, the entry and
        # its message, the board, undo; then the scores, and the rest folded
        self.play_screen = w.VBox([
            self.timer_row, self.seat_score, self.live_note, self.seat_switch.box, self.entry,
            self.msg, self.board.box, self.final, self.final_extra, self.epic_box,
            self.campaign_box, self.undo_row, self.undo_box,
            self.scoreboard, self.score_more, self.more, new])
        self.play_screen.add_class("sse-play")

    def open_game(self, gid: str):
        self._open_session(gid, SseGame, "a Small Star Empires")
        self.selected = None
        self._pending = None
        self.extra.children = []
        self.undo_box.children = []
        self.body.children = [self.play_screen]
        self.refresh()

    def _behind(self):
        """The session shows another page's change: the page forgets its selection."""
        self.timer.bind(self.gid, self.session.meta)
        self.selected = None
        self._pending = None
        self.extra.children = []
        self.undo_box.children = []
        self.refresh()

    def _reload(self):
        if self.gid:
            self.session.reload()
            self.timer.bind(self.gid, self.session.meta)
            self.selected = None
            self._pending = None
            self.refresh()

    # -- refresh -----------------------------------------------------------------------
    def refresh(self):
        g = self.game
        st = g.state
        self.damage_btn.layout.display = "" if g.setup.variant("damaged_ships") and not st.finished else "none"
        self._check_acting_for()
        # a seat page moves only its own ships (or the one player the switch names)
        self.entry.layout.display = "none" if st.finished or not self._may_enter() else ""
        # at the end the final panel draws the board (once)
        self.board.box.layout.display = "none" if st.finished else ""
        self._refresh_turn()
        self.timer.over = st.finished
        self.timer.show()               # the clock as of now (the heartbeat ticks it: tick())
        self._refresh_score()
        self._refresh_piece()
        self._refresh_ships()
        self._refresh_board()
        self._refresh_whatif()
        self._refresh_final()
        self._refresh_views()
        self.app._apply_role()

    def _swatch(self, p: str) -> str:
        return (f"<span style='display:inline-block;width:12px;height:12px;border-radius:6px;"
                f"background:{colour(self.game.setup.colour(p))};vertical-align:middle'></span>")

    def _mirror_status(self, change):
        """The status line's message, next to the entry, while this tab is shown."""
        tabs = getattr(self.app, "tabs", None)
        if tabs is not None and tabs.selected_index != 1:
            return
        self.msg.value = change["new"] or ""
        self.msg.layout.display = "" if self.msg.value else "none"

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
        if st.finished:
            self.turn.value = (f"<div class='sse-turn-line sse-turn-over'><b>The game is over: "
                               f"{escape(st.end_reason)}.</b></div>")
            return
        self.turn.value = (f"<div class='sse-turn-line' title='{last[3:]}'>"
                           f"{self._swatch(st.current)} "
                           f"<b class='sse-current'>{escape(st.current)}</b> to move · move "
                           f"{st.moves + 1}{last}{tail}</div>")

    def _refresh_score(self):
        g = self.game
        st = g.state
        try:
            proj = g.score(project=True).table.set_index("player")
        except CompanionError:
            proj = None
        rows, details = [], []
        cats = [c for c in CATEGORIES if proj is not None and c in proj.columns]
        for p in st.setup.players:
            ps = st.players[p]
            # one ship a line, never cut inside "at [q, r]"
            ships = "<br>".join(f"<span style='white-space:nowrap'>{'▶' if s.damaged else '▲'} "
                                f"{s.id} at [{s.at[0]}, {s.at[1]}]</span>" for s in ps.ships)
            ended = int(proj.loc[p].total) if proj is not None else "?"
            # short, so the compact table fits a phone: ▶ = to move
            status = ("<small>passed</small>" if ps.passed else
                      ("<span title='to move'>▶</span>" if p == st.current else ""))
            # compact (issue 15): who, VP, the score if it ended now, the reserves
            rows.append(
                f"<tr class='sse-score-row' data-player='{escape(p)}'><td>{self._swatch(p)} "
                f"<b>{escape(p)}</b></td><td class='vp'>{ps.vp}</td>"
                f"<td class='if-ended'>{ended}</td>"
                f"<td class='cities'>{ps.cities}</td><td class='trade'>{ps.trade_stations}</td>"
                f"<td class='status'>{status}</td></tr>")
            parts = "".join(f"<td>{int(proj.loc[p][c])}</td>" for c in cats)
            details.append(f"<tr><td><b>{escape(p)}</b></td><td class='ships'>{ships}</td>"
                           f"{parts}</tr>")
        self.scoreboard.value = (
            "<div class='scroll-x'><table class='sse-score' style='border-collapse:collapse'>"
            "<tr style='border-bottom:1px solid #999'><th>Player</th>"
            "<th title='VP on the track'>VP</th>"
            "<th title='the final score if the game ended now'>If ended</th>"
            "<th title='Cities left in the reserve'>Cities</th>"
            "<th title='Trade Stations left in the reserve'>Trade St.</th><th></th></tr>"
            + "".join(rows) + "</table></div>")
        self.score_details.value = (
            "<div class='scroll-x'><table class='sse-score-more-table'><tr><th>Player</th>"
            "<th>Ships (▶ damaged)</th>" + "".join(f"<th>{escape(CATEGORY_NAMES[c])}</th>"
                                                  for c in cats)
            + "</tr>" + "".join(details) + "</table></div>"
            "<div><small>The categories: the end scoring as if the game ended now.</small></div>")

    def _refresh_ships(self):
        g = self.game
        st = g.state
        if st.finished or st.current is None:
            self.selected = None
            with self._hush():
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
        with self._hush():
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
            n = len(self._legal())
            piece = PIECE_NAMES.get(self.piece.value)
            what = f" for a {piece}" if piece else ""
            self.hint.value = (f"Ship {self.selected}: {n} legal destination(s){what} in green; "
                               "tap one to move there." if n else
                               f"Ship {self.selected}: no legal destination{what}; choose another "
                               "piece or another ship.")

    def _refresh_piece(self):
        """The piece choice of the player to move, back to City (the usual piece).

        Called on every new situation (a move, undo, reload, a new or resumed game, another
        ship selected), so a Trade Station is only ever placed on purpose.  The options are
        the pieces the engine says the player can place, each with how many are left; a
        kind with none left is not offered."""
        g = self.game
        st = g.state
        player = st.current
        can = g.placeable_pieces(player) if player is not None else ()
        left = g.pieces_left(player) if player is not None else {}
        opts = [(f"{PIECE_NAMES[p]} ({left[p]} left)", p) for p in can]
        with self._hush():
            with self.piece.hold_sync():
                self.piece.options = opts
                self.piece.tooltips = [f"{left[p]} {PLURAL[p] if left[p] != 1 else PIECE_NAMES[p]} "
                                       f"left in {player}'s reserve" for p in can]
                self.piece.value = "city" if "city" in can else (can[0] if can else None)
        gone = [PLURAL[p] for p in left if left[p] == 0]
        self.piece_note.value = (f"<span style='color:#8a4b00'>{escape(player)} has no "
                                 f"{' and no '.join(gone)} left</span>" if gone else "")

    def _piece_changed(self):
        self._refresh_hint()
        self._refresh_board()

    def _hush(self):
        return Quiet(self)

    def _ship_changed(self):
        self.selected = self.ship_pick.value
        self._pending = None
        self.extra.children = []
        self._refresh_piece()
        self._refresh_ships()
        self._refresh_board()
        self._refresh_whatif()

    def _legal(self) -> dict:
        """The green destinations: legal for the selected ship *and* the selected piece
        (with no piece left to choose, the engine's moves are the repairs at home)."""
        g = self.game
        if self.selected is None or g.state.finished:
            return {}
        return {m.to: m for m in g.legal_moves(g.state.current, self.selected,
                                               piece=self.piece.value)}

    def _refresh_board(self):
        g = self.game
        st = g.state
        legal = self._legal()
        sel_at = st.players[st.current].ships[self.selected].at if (
            self.selected is not None and st.current) else None
        cells = {}
        seats = {i + 1: p for i, p in enumerate(st.setup.players)}
        for h, s in st.map.systems.items():
            c = system_cell(s)
            tip = f"[{h[0]}, {h[1]}] {s.describe()}"
            state = []
            if s.kind == "homeworld":
                owner = seats.get(s.home)
                c = {"label": f"{owner} home" if owner else f"home {s.home}",
                     "fill": st.setup.colour(owner) if owner else "#fff", "text": "white"}
            if h in st.revealed:
                rv = st.revealed[h]
                c = {"label": EFFECT_NAMES[rv["effect"]] if rv["effect"] != "planetary"
                     else "●" * rv["planets"], "fill": "#c7ccd6"}
                tip += f" — revealed: {EFFECT_NAMES[rv['effect']]}"
            col = st.colonies.get(h)
            if col is not None:
                letter = "T" if col.piece == "trade_station" else "C"
                base = c["label"] if s.kind != "nebula" else f"{s.colour}"
                c = {"label": f"{letter} {base}".strip(), "fill": st.setup.colour(col.owner),
                     "text": "white"}
                tip += f" — {col.owner}'s {PIECE_NAMES[col.piece]}"
                state.append("colony")
            if h in st.blocked:
                c = {"label": st.blocked[h], "fill": "#6b7280", "text": "white"}
            if h in st.conquered:
                c = {"label": "conquered", "fill": "#4b5563", "text": "white"}
            ships = st.ships_at(h)
            if ships:
                marks = "".join("▶" if sh.damaged else "▲" for _, sh in ships)
                c["label"] = f"{marks} {c['label']}".strip()
                tip += " — ships: " + ", ".join(f"{p} {sh.id}" + (" (damaged)" if sh.damaged else "")
                                                for p, sh in ships)
                state.append("ship")
                if h in st.blocked:          # a ship on an asteroid field: its owner's colour
                    c["fill"] = st.setup.colour(ships[0][0])
            if h in legal:
                m = legal[h]
                c = {"label": "home ⟲" if m.kind == "repair" else ("? explore" if m.kind == "explore"
                                                                    else "+ " + c["label"]),
                     "fill": LEGAL, "text": "white"}
                tip += " — legal destination" + (" (wormhole jump)" if m.via == "wormhole" else "")
                state.append("legal")
            if h == sel_at:
                state.append("selected")
                c["label"] = "◆" + c["label"]
            c["tip"] = tip
            c["state"] = " ".join(state)
            cells[h] = c
        self.board.draw(cells)

    # -- clicks --------------------------------------------------------------------------
    def _clicked(self, h):
        g = self.game
        st = g.state
        if st.finished:
            return
        self.session.require(Write.ACTION)      # the table view's board shows, records nothing
        if not self._may_enter():
            raise CompanionError(f"{self._waiting_words()}: this page moves only "
                                 f"{self.seat}'s ships. To enter {st.current}'s move here, tap "
                                 f"'Enter {st.current}'s move (no phone)'.")
        me = st.players[st.current]
        mine = [s for s in me.ships if s.at == h]
        legal = self._legal()
        if h in legal:
            self._move_to(h, legal[h])
            return
        if mine:
            movable = [s for s in mine if g.legal_moves(me.name, s.id)]
            self.selected = (movable or mine)[0].id
            self._pending = None
            self.extra.children = []
            self._refresh_piece()
            self._refresh_ships()
            self._refresh_board()
            self._refresh_whatif()
            return
        if self.selected is None:
            raise CompanionError(f"Select one of {me.name}'s ships first (click it on the board).")
        # an illegal destination: say which rule forbids it
        g.check({"player": me.name, "ship": self.selected, "to": list(h), "piece": self.piece.value})

    def _move_to(self, h, m):
        g = self.game
        player = g.state.current
        action = {"player": player, "ship": self.selected, "to": list(h)}
        if m.kind == "repair":
            action["piece"] = None
            self._push(action)
        elif m.kind == "colonise":
            action["piece"] = self.piece.value
            self._push(action)
        else:
            self._ask_reveal(action)

    def _ask_reveal(self, action):
        """The tile's form (companion/ui/sse_reveal.py): the Nordinn Empire's Cities and the
        Refuelling Station's extra moves are the engine's (nordinn_choices, refuel_choices),
        under the game's setup.options; it asks only when there is a choice."""
        self._pending = action
        to = tuple(action["to"])
        self.reveal = form = reveal_form(self.game, action, guard=self.guarded)
        ok = w.Button(description="Confirm", button_style="success", icon="check")
        ok.add_class("sse-confirm")
        writes(ok)
        cancel = w.Button(description="Cancel")
        ok.on_click(self.guarded(lambda _: self._push(form.action())))
        cancel.on_click(self.guarded(lambda _: self._cancel()))
        self.extra.children = [w.HTML(f"<b>{escape(action['player'])} explores [{to[0]}, {to[1]}]:</b> "
                                      "turn the tile face-up and enter it (colonised with a City)."),
                               *form.children, w.HBox([ok, cancel])]

    def _cancel(self):
        self._pending = None
        self.extra.children = []

    def _damage(self):
        g = self.game
        if self.selected is None:
            raise CompanionError("Select the ship to damage first.")
        self._push({"do": "damage", "player": g.state.current, "ship": self.selected})

    def _push(self, action: dict):
        g = self.game
        try:
            # the store first: another page's change refuses it (PageBehind: the session
            # shows the current game); a file that cannot be written keeps the selection
            # and the form (pressing again retries)
            norm = self.session.push(action)
        except PageBehind:
            self._behind()
            raise
        self._pending = None
        self.extra.children = []
        self.selected = None
        show(self.live_note, "")
        st = g.state
        msg = f"{g.describe(norm)}."
        if st.finished:
            msg += f" The game is over ({st.end_reason}): see the final table."
        else:
            newly = [p for p in st.setup.players if st.players[p].passed
                     and st.players[p].passed_at == st.index]
            if newly:
                msg += f" {', '.join(newly)} cannot move and pass{'es' if len(newly) == 1 else ''} for the rest of the game."
            msg += f" {st.current} to move."
        self.app.say(msg)
        self.refresh()

    # -- undo ------------------------------------------------------------------------------
    def _ask_undo(self):
        ask_undo(self, lambda last: f"Undo: {self.game.describe(last)}?", "sse-undo", self._undo)

    def _undo(self):
        try:
            last = self.session.undo()
        except PageBehind:
            self._behind()
            raise
        self.undo_box.children = []
        self.selected = None
        self._pending = None
        self.extra.children = []
        show(self.live_note, "")
        self.app.say(f"Undone: {self.game.describe(last)}.")
        self.refresh()

    # -- play details (issue 16) -----------------------------------------------------------
    def _gone(self):
        self.session.close()
        self.show_setup()
        self.app.error("Not recorded: this Small Star Empires game was deleted on another page "
                       "or tab. Start a new game or open a saved one.")

    def _details_players(self) -> list:
        return list(self.game.setup.players)

    def _details_said(self, text: str) -> None:
        self.app.say(text)

    def error(self, text: str) -> None:
        self.app.error(text)

    def _details_error(self, text: str) -> None:
        self.app.error(text)

    def _details_gone(self) -> None:
        self._gone()

    def _details_saved(self) -> None:
        self.game.meta = {k: v for k, v in self.timer.meta.items() if k != "title"}

