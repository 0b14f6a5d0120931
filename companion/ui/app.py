"""The table companion dashboard (ipywidgets).  Calls the engine and nothing else.

Screens: *setup* (new game, saved games) and *play* (turn entry, live board,
undo, final table).  Every accepted action is written to the SQLite store at
once; the game shown is always the replay of the stored record.
"""
from __future__ import annotations

import logging
import traceback
from ..core.htmlsafe import escape

import ipywidgets as w

from ..ats import render
from ..core.errors import CompanionError, UnknownCardValues
from ..ats.game import Game, describe_action as describe  # the page's words are the engine's
from ..ats.scoring import objective_claims
from ..table.store import StaleGame, Store, StoreError
from .explorer import Explorer
from .modes import ModePanel
from .playdetails import CSS as DETAILS_CSS
from .playdetails import DetailsForm, FinalExports, PlayDetailsScreen, PlayTimer
from .live import show
from .quiet import Quiet
from .session import GameSession, PageBehind, SessionScreen
from .ats_entry import AtsEntry
from .ats_final import AtsFinal
from .ats_setup import AtsSetup
from .ats_views import AtsViews
from .style import CSS
from .writes import CSS as ROLE_CSS
from ..core.roles import Role
from .writes import apply_role, role_note, writes
from .common import ask_undo
from .common import CELL_PX, ERR, LEGAL, MAX_PLAYERS, OK, cell_class, log, log_path  # noqa: F401 (re-exported)

STYLE = """<style>
.companion-root .grid-cell { white-space: normal !important; line-height: 1.05;
  font-size: 10px; padding: 1px !important; overflow: hidden; }
.companion-root .grid-cell.legal { font-size: 20px; font-weight: bold; }
.companion-root a.export-link { display: inline-block; padding: 8px 14px; margin: 4px 6px 4px 0;
  background: #2f6fd6; color: white !important; border-radius: 4px; text-decoration: none;
  font-weight: 600; min-height: 20px; }
.companion-root a.export-link:hover { background: #1f55ad; }
.companion-root .entry-message:empty { display: none; }
.companion-root .objectives-panel { margin: 4px 0; }
.companion-root .score-table td, .companion-root .score-table th { padding: 2px 10px; }
.companion-root .final-table td, .companion-root .final-table th,
.companion-root .wi-rank-table td, .companion-root .wi-rank-table th,
.companion-root .wi-now-table td, .companion-root .wi-now-table th { padding: 2px 8px; text-align: left; }
</style>"""


class App(AtsSetup, AtsEntry, AtsFinal, AtsViews, SessionScreen, PlayDetailsScreen):
    def __init__(self, store: Store | None = None, *, role: Role | str = Role.HOST):
        """``role``: the page's until its address is read (:meth:`apply_query` sets the
        address's); :func:`dashboard` builds every page as the table view, so that a page
        writes nothing before it knows what it is."""
        logging.basicConfig(filename=str(log_path()), level=logging.INFO)
        self.session = GameSession(store or Store())
        self.session.set_role(role)
        self._pending: dict | None = None
        self._buttons: dict[tuple[int, int], w.Button] = {}

        self.title = w.HTML("<h2 style='margin:4px 0'>Among the Stars — table companion</h2>")
        self.title.add_class("companion-title")
        self.status = w.HTML()
        self.status.add_class("companion-status")
        self.body = w.VBox()
        # one tab per game; the other tabs are built when first opened
        self.sse_box = w.VBox()
        self.history_box = w.VBox()
        self.tabs = w.Tab(children=[self.body, self.sse_box, self.history_box],
                          titles=["Among the Stars", "Small Star Empires", "History"])
        self.tabs.add_class("game-tabs")
        self.tabs.observe(self.guarded(lambda _: self._tab_opened()), "selected_index")
        self.sse = None
        self.history = None
        self.root = w.VBox([w.HTML(STYLE + CSS + DETAILS_CSS + ROLE_CSS), self.title, self.status,
                            self.tabs])
        self.root.add_class("companion-root")
        self._build_views()
        self._build_setup()
        self._build_play()
        if self.store.notice:
            self.error(self.store.notice)
        self._start()
        self._apply_role()

    # -- status -----------------------------------------------------------------------
    def say(self, text: str, colour: str = OK):
        if getattr(self, "live_note", None) is not None:
            show(self.live_note, "")        # this page's own news replaces another page's
        html = f"<div style='color:{colour};font-weight:600;padding:4px 0'>{escape(text)}</div>"
        self.status.value = html
        self._local(html)

    def error(self, text: str):
        html = (f"<div class='status-error' style='color:{ERR};font-weight:600;"
                f"padding:4px 0'>⚠ {escape(text)}</div>")
        self.status.value = html
        self._local(html)

    def _local(self, html: str):
        """The same message next to where the person acts (turn entry, final screen), when
        it comes from this tab (the other tabs use the status line only)."""
        if getattr(self, "tabs", None) is not None and self.tabs.selected_index not in (0, None):
            return
        for box in (getattr(self, "entry_msg", None), getattr(self, "final_msg", None)):
            if box is not None:
                box.value = html

    def guarded(self, fn):
        """Wrap a callback: a rule message goes to the status area, never a traceback."""
        def run(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except StaleGame as e:
                try:
                    self._reload(stale=str(e))
                except CompanionError:
                    self._game_gone()
            except CompanionError as e:
                self.error(str(e))
            except Exception as e:   # a bug: log it, say plainly what may not be saved
                log.error("callback failed:\n%s", traceback.format_exc())
                self.error(f"Something went wrong ({type(e).__name__}: {e}). The actions "
                           "shown on the board are saved; check the board to see whether this "
                           f"entry was recorded. The details are in {log_path()}.")
        return run

    TITLES = ("Among the Stars", "Small Star Empires", "History")

    def _apply_role(self) -> None:
        """Hide, in every tab, the controls this page's role may not use (ui/writes.py;
        the session and the store refuse those writes anyway)."""
        apply_role(self.root, self.session.role)
        note = role_note(self.session.role)
        html = f"<div class='role-note'><i>{escape(note)}</i></div>" if note else ""
        for box in (getattr(self, "setup_role_note", None),
                    getattr(getattr(self, "sse", None), "setup_role_note", None)):
            if box is not None:
                box.value = html
                box.layout.display = "" if note else "none"

    def _tab_opened(self):
        i = self.tabs.selected_index
        if i is not None and 0 <= i < len(self.TITLES):
            # the title names the tab shown; a message about another tab is cleared
            self.title.value = (f"<h2 style='margin:4px 0'>{self.TITLES[i]} — table companion"
                                "</h2>")
            self.status.value = ""
        if self.tabs.selected_index == 2:
            if self.history is None:
                from .history_tab import HistoryTab
                # shown first, then filled: the first sync after an upgrade shows its
                # progress bar with counts
                self.history = HistoryTab(self, load=False)
                self.history_box.children = [self.history.box]
                self._apply_role()
                self.history.refresh()
            else:
                self.history.refresh()
            return
        if self.tabs.selected_index == 1 and self.sse is None:
            try:
                from .sse_tab import SseTab
            except ImportError:
                self.sse_box.children = [w.HTML("<i>Small Star Empires is coming soon.</i>")]
                return
            self.sse = SseTab(self)
            self.sse_box.children = [self.sse.box]
            # the tab has the page's role and view (SseTab.__init__); the address's seat
            # is this tab's too when it names one of its game's players
            seat = (self.query.get("seat") or "").strip().lower()
            if seat and self.sse.game is not None and seat in [
                    p.lower() for p in self.sse.game.setup.players]:
                self.sse.set_view(self.query.get("seat"), self.query.get("view"))
            self._apply_role()

    def _start(self):
        games = self.store.games()
        if games:
            try:
                self.open_game(games[0]["id"])
                self.say(f"Resumed '{games[0]['title']}'.")
                return
            except CompanionError as e:
                self.error(f"Could not resume the last game: {e}")
            except Exception as e:        # a bug must not keep the dashboard from opening
                log.error("resume failed:\n%s", traceback.format_exc())
                self.error(f"Could not resume the last game ({type(e).__name__}: {e}); it is "
                           f"kept. The details are in {log_path()}.")
        self.show_setup()

    def _game_gone(self):
        """The game this page showed no longer exists (deleted on another page)."""
        self.session.close()
        self.show_setup()
        self.error("Not recorded: this game was deleted on another page or tab. Start a new "
                   "game or open a saved one.")

    # ================================================================== play screen
    def _build_play(self):
        self.turn_info = w.HTML()
        self.turn_info.add_class("turn-info")
        self.objectives_panel = w.HTML()
        self.objectives_panel.add_class("objectives-panel")
        self.scoreboard = w.HTML()
        self.scoreboard.add_class("scoreboard")
        self.entry_player = w.Dropdown(description="Player")
        self.entry_player.add_class("entry-player")
        self.entry_card = w.Combobox(placeholder="type the card's name", description="Card",
                                     ensure_option=False,
                                     layout=w.Layout(width="340px", max_width="100%"))
        self.entry_card.add_class("entry-card")
        self.entry_action = w.ToggleButtons(options=[("Build location", "build"),
                                                     ("Build reactor", "reactor"),
                                                     ("Discard for 3 credits", "discard")],
                                            value="build")
        self.entry_action.add_class("entry-action")
        self.discard_btn = w.Button(description="Discard for 3 credits", button_style="warning",
                                    layout=w.Layout(width="auto"))
        self.discard_btn.add_class("do-discard")
        self.discard_btn.on_click(self.guarded(lambda _: self._discard()))
        writes(self.discard_btn)
        self.hint = w.HTML()
        self.hint.add_class("entry-hint")
        self.entry_msg = w.HTML()
        self.entry_msg.add_class("entry-message")
        self.grid = w.GridBox()
        self.grid.add_class("station-grid")
        self.extra = w.VBox()
        self.extra.add_class("entry-extra")
        self.form_box = w.VBox()
        self.form_box.add_class("values-form")
        self._form_for: str | None = None
        self.undo_btn = w.Button(description="Undo last action", icon="undo",
                                 layout=w.Layout(width="auto"))
        self.undo_btn.add_class("undo")
        writes(self.undo_btn)
        self.undo_btn.on_click(self.guarded(lambda _: self._ask_undo()))
        self.undo_box = w.HBox()
        self.undo_box.add_class("undo-confirm")
        writes(self.undo_box)
        self.new_btn = w.Button(description="New game / saved games", icon="plus",
                                layout=w.Layout(width="auto"))
        self.new_btn.add_class("new-game")
        writes(self.new_btn, host_only=True)
        self.new_btn.on_click(self.guarded(lambda _: self.show_setup()))
        self.stations = w.HTML()
        self.stations.add_class("stations")
        self.score_details = w.HTML()
        self.score_details.add_class("score-details")
        # folded: the player's own station is the grid of the entry; a tap opens the rest
        # (widgets keep their open state across refreshes, unlike <details> in HTML)
        self.more = w.Accordion(children=[self.score_details, self.stations, self.join_box],
                                selected_index=None)
        self.more.set_title(0, "Races and last actions")
        self.more.set_title(1, "All stations")
        self.more.set_title(2, "Join from other devices (QR codes)")
        self.more.add_class("more-panels")
        self.final_msg = w.HTML()
        self.final_msg.add_class("final-message")
        self.final_box = w.VBox()
        self.final_box.add_class("final")
        # the play timer (issue 16): one button in the status area; the final screen's
        # play details and the exports to other play loggers
        self.timer = PlayTimer(self.store, "ats-timer")
        writes(self.timer.button)
        self.timer.button.on_click(self.guarded(lambda _: self._tap_timer()))
        self.final_details = DetailsForm("final")
        save = w.Button(description="Save the play details", icon="save",
                        layout=w.Layout(width="auto"))
        save.add_class("final-details-save")
        writes(save)
        save.on_click(self.guarded(lambda _: self._save_final_details()))
        self.final_details_box = w.VBox([w.HTML("<h4 style='margin:8px 0 2px'>Play details</h4>"),
                                         self.final_details.box, save])
        self.final_details_box.add_class("final-details-box")
        writes(self.final_details_box)
        self.exports = FinalExports(self.store, "final-exports", "among-the-stars",
                                    self.guarded, log)
        self._details_for = None        # the game whose details the final form shows
        self._quiet = False      # set while the app itself resets the entry widgets
        self.entry_player.observe(self.guarded(lambda _: self._quiet or self._player_changed()),
                                  "value")
        self.entry_card.observe(self.guarded(lambda _: self._quiet or self._entry_changed()),
                                "value")
        self.entry_action.observe(self.guarded(lambda _: self._quiet or self._entry_changed()),
                                  "value")
        self.entry = w.VBox([self.seat_switch.box,
                             w.HBox([self.entry_player, self.entry_card]), self.entry_action,
                             # the message and the questions a click raises sit above the
                             # grid: in view while a long station is used (issue 15)
                             self.hint, self.entry_msg, self.form_box, self.extra, self.grid,
                             self.discard_btn])
        self.entry.add_class("turn-entry")
        writes(self.entry)
        self.explorer = Explorer(self)
        self.mode_panel = ModePanel(self)
        writes(self.mode_panel.box)
        # top to bottom as a hand on a phone needs it: where we are, the entry and its
        # grid, undo; then the scores, the objectives, and the rest folded
        # (a seat page adds its own score line and station; the table view hides every
        # control that writes and shows all stations: ats_views.py)
        self.undo_row = w.HBox([self.undo_btn, self.new_btn])
        writes(self.undo_row)             # undo and new game: both write
        self.play_screen = w.VBox([
            self.turn_info, self.timer.button, self.live_state, self.seat_score, self.live_note,
            self.mode_panel.box, self.entry, self.final_box, self.undo_row, self.undo_box,
            self.scoreboard, self.seat_station, self.objectives_panel, self.table_stations,
            self.more, self.explorer.box])
        self.play_screen.add_class("play-screen")

    def open_game(self, gid: str):
        game = self._open_session(gid, Game, "an Among the Stars")
        names = game.catalogue.names("location") + game.catalogue.names("conflict")
        self.entry_card.options = tuple(names)
        acts = [("Build location", "build"), ("Build reactor", "reactor"),
                ("Discard for 3 credits", "discard")]
        if game.setup.mode == "aggressive":
            acts.append(("Apply Conflict", "conflict"))
        if game.setup.options.get("spaceships"):
            acts.append(("Remove spaceships", "remove_spaceships"))
        with self._hush():
            self.entry_action.options = acts
            self.entry_action.value = "build"
            self.entry_card.value = ""
        self.explorer.reset(game)
        self._pending = None
        self._close_form()
        self.undo_box.children = []
        self.entry_msg.value = self.final_msg.value = ""
        self.body.children = [self.play_screen]
        self.refresh()

    def _reload(self, stale: str | None = None):
        """Replay the stored record.  With ``stale`` (another page changed the game
        and this page's entry was refused): the entry is rebuilt from the fresh
        state and nothing is sent until the person enters it again."""
        if not self.gid:
            return
        change = self.session.reload()
        self.timer.bind(self.gid, self.session.meta)
        self._pending = None
        if stale is None:
            self.refresh()
            return
        self._entry_again(PageBehind(change, self.session.describe))

    def _entry_again(self, behind: PageBehind):
        """Another page changed the game and this page's entry was refused (the session
        shows the current game): the entry is rebuilt from the fresh state and nothing is
        sent until the person enters it again."""
        self.timer.bind(self.gid, self.session.meta)
        self._pending = None
        with self._hush():
            self.entry_card.value = ""
            self.entry_action.value = "build"
        self._close_form()
        self.undo_box.children = []
        self.refresh()
        # the person chooses again: no player is picked for them (a seat page's entry
        # stays its player's)
        if not self.seat:
            with self._hush():
                self.entry_player.value = None
        self._refresh_entry()
        self.error(str(behind))

    # -- refresh ---------------------------------------------------------------------
    def refresh(self):
        g = self.game
        st = g.state
        self._refresh_info()
        self.timer.over = st.finished
        self.timer.show()               # the clock as of now (the heartbeat ticks it: tick())
        self._refresh_objectives()
        self._refresh_scoreboard()
        self.mode_panel.refresh()
        self._check_acting_for()
        waiting = self._waiting()
        opts = self._entry_options(waiting)
        if self.entry_player.options != tuple(opts):
            keep = self.entry_player.value if self.entry_player.value in opts else None
            # one message for options + selection: otherwise the browser briefly shows
            # the first name and a pick made in that instant is lost (index is synced)
            with self._hush(), self.entry_player.hold_sync():
                self.entry_player.options = opts
                self.entry_player.value = keep or self._default_player(waiting)
        self.entry.layout.display = "none" if st.finished or self.view == "table" else ""
        self._refresh_views()
        self._refresh_entry()
        self._refresh_stations()
        self._refresh_final()
        self.explorer.refresh()
        self._apply_role()

    def _waiting(self) -> list[str]:
        """Players still to act, in the order the rules ask for."""
        return self.game.waiting_in_order()

    def _hush(self):
        return Quiet(self)

    def _refresh_info(self):
        st = self.game.state
        if st.finished:
            self.turn_info.value = "<h3 style='margin:4px 0'>The game is over: final scoring</h3>"
            return
        arrow = "↻" if st.passing == "clockwise" else "↺"
        n = st.setup.turns_in_year(st.year)
        waiting = ", ".join(escape(p) for p in self._waiting())
        g = self.game
        if g.setup.options.get("timing_rules"):
            waiting += f" <small>(order this turn: {escape(', '.join(g.turn_order()))})</small>"
        active = g.setup.active_player(st.year)
        if active:
            waiting += f" <small>(active player this year: {escape(active)})</small>"
        if g.setup.consecutive:
            # Revival 2-player rules: no hands pass (R 2.2: "places them face-up between the
            # 2 players" ... "the active player draws the first 2 cards from the face-down
            # pile next to them and adds them face-up to the rest")
            cards = ("cards face up between the players; after each turn the active player "
                     "adds 2 from the face-down pile")
        else:
            cards = f"cards pass {st.passing} {arrow}"
        # one line: where we are and whose entry; the rest small underneath
        self.turn_info.value = (
            f"<div style='font-size:1.1em'><b>Year {st.year}</b> · <b>Turn {st.turn}</b> of {n}"
            f" · Waiting for: <b>{waiting}</b></div>"
            f"<div style='font-size:0.9em;color:#444'><span class='cards-flow'>{cards}</span>"
            f" · reactors left in supply: {st.reactor_supply}</div>")

    def _refresh_objectives(self):
        """The objectives in play, each with who leads it now (a query of the engine)."""
        g = self.game
        setup = g.setup
        if not setup.objectives and not setup.secret_objectives:
            self.objectives_panel.value = ""
            return
        parts = []
        try:
            claims = objective_claims(g)
        except UnknownCardValues as e:
            claims = None
            note = f" <small>(leaders not known: {escape(e.detail)})</small>"
        else:
            note = ""
        for name in setup.objectives:
            lead = ""
            if claims is not None:
                row = claims[claims.objective == g.catalogue.get(name).name]
                if len(row):
                    r = row.iloc[0]
                    if r.claimant == "(typed at the end)":
                        lead = "players say who claims it at the end"
                    else:
                        measures = ", ".join(f"{escape(p)} {int(r[p])}" for p in setup.players
                                             if p in r and r[p] == r[p])
                        lead = (f"leads: <b>{escape(str(r.claimant))}</b>" if
                                r.claimant != "nobody (tie)" else "tied: nobody leads")
                        lead += f" <small>({measures})</small>"
            parts.append(f"<li><b>{escape(name)}</b> — {lead}</li>")
        for p in setup.secret_objectives:
            parts.append(f"<li>{escape(p)} holds a secret objective (revealed at the end)</li>")
        self.objectives_panel.value = (f"<div><b>Objectives in play</b>{note}<ul style='margin:2px "
                                       f"0 2px 18px;padding:0'>{''.join(parts)}</ul></div>")

    def _refresh_scoreboard(self):
        st = self.game.state
        rows, details = [], []
        for p in st.setup.players:
            ps = st.players[p]
            last = ps.last
            if last:
                what = f"Y{last['year']}T{last['turn']}: {describe(last)[len(p) + 1:]}"
            else:
                what = "—"
            acted = " ✓" if p in st.acted else ""
            race = st.setup.races.get(p, "")
            rows.append(
                f"<tr class='score-row' data-player='{escape(p)}'><td class='who'><b>{escape(p)}"
                f"</b>{acted}</td><td class='vp'>{ps.vp}</td><td class='credits'>{ps.credits}</td>"
                f"<td class='cubes'>{ps.station.cubes()}</td>"
                f"<td class='locations'>{len(ps.station.locations(reactors=False))}</td></tr>")
            details.append(f"<tr><td><b>{escape(p)}</b></td><td>{escape(race) or '—'}</td>"
                           f"<td>{escape(what)}</td></tr>")
        self.scoreboard.value = (
            "<table class='score-table' style='border-collapse:collapse'>"
            "<tr style='text-align:left;border-bottom:1px solid #999'><th>Player</th><th>VP</th>"
            "<th>Credits</th><th>Cubes</th><th>Locations</th></tr>" + "".join(rows) + "</table>")
        self.score_details.value = (
            "<div class='scroll-x'><table class='score-table'><tr style='text-align:left'>"
            "<th>Player</th><th>Race</th><th>Last action</th></tr>" + "".join(details)
            + "</table></div>")

    def _refresh_stations(self):
        st = self.game.state
        parts = []
        for p in st.setup.players:
            svg = render.station_svg(st.players[p].station, title=p, cell_size=56)
            parts.append(f"<div class='station' style='display:inline-block;vertical-align:top;"
                         f"margin:6px 14px 6px 0;max-width:100%'>{svg}</div>")
        self.stations.value = render.legend_html() + "".join(parts)

    def _player_changed(self):
        self._pending = None
        self.extra.children = []
        self.entry_msg.value = ""
        self._refresh_entry()

    def _entry_changed(self):
        self._pending = None
        self.extra.children = []
        self._refresh_entry()

    def _card_name(self) -> str | None:
        name = (self.entry_card.value or "").strip()
        if not name:
            return None
        c = self.game.catalogue.get(name)
        return c.name if c is not None else name

    def _refresh_entry(self):
        g = self.game
        if g is None or g.state.finished:
            return
        player = self.entry_player.value
        do = self.entry_action.value
        self.discard_btn.layout.display = "" if do == "discard" else "none"
        self.extra.children = [] if self._pending is None else self.extra.children
        form_for = None                  # the card whose values this entry needs now
        legal: set = set()
        self.hint.value = ""
        name = self._card_name()
        card = g.catalogue.get(name) if name else None
        done = self._seat_done()
        for wd in (self.entry_card, self.entry_action):
            wd.layout.display = "none" if done else ""
        if done:
            # the seat's player has acted: the page stays hers, says whom the table waits
            # for (the seat bar) and shows her station
            self.discard_btn.layout.display = "none"
            if self._form_for is not None:
                self._close_form()
            self._draw_grid(self.seat, set())
            return
        if player is None:
            self.hint.value = ("Choose the player whose action you enter." if g.state.waiting
                               else "Everyone has acted.")
        elif do == "discard":
            self.hint.value = "Discard the selected card and take 3 credits."
        elif not name:
            self.hint.value = "Type the selected card's name first."
        elif card is None or card.category not in ("location", "conflict"):
            sug = g.catalogue.suggest(name, n=4)
            if sug:   # still typing, or a small slip: suggest, do not shout
                self.hint.value = f"Did you mean: {escape(', '.join(sug))}?"
            else:
                self.hint.value = (f"<span style='color:{ERR}'>No location card called "
                                   f"'{escape(name)}'.</span>")
        elif do == "conflict":
            if card.category != "conflict":
                self.hint.value = (f"<span style='color:{ERR}'>'{escape(name)}' is not a Conflict "
                                   "card (type 'Conflict card' or a conflict from your "
                                   "catalogue).</span>")
            else:
                self.hint.value = "Apply the Conflict: it costs 1 credit."
                self.extra.children = self.mode_panel.conflict_form(player, name)
        elif do == "remove_spaceships":
            self.hint.value = "Discard the selected card and remove up to 3 spaceships."
            self.extra.children = self.mode_panel.remove_ships_form(player, name)
        elif card.category == "conflict" and do == "build":
            self.hint.value = (f"<span style='color:{ERR}'>A Conflict card cannot be built: apply "
                               "it (1 credit), build a reactor or discard it.</span>")
        elif do == "reactor":
            legal = set(g.legal_cells(player, do="reactor"))
            self.hint.value = ("Click a highlighted cell to build a Power Reactor (1 credit, 2 cubes)."
                               if legal else "No Power Reactor can be built now (credits or supply).")
        else:
            try:
                legal = set(g.legal_cells(player, name))
                self.hint.value = ("Click a highlighted cell to build it." if legal else
                                   "No legal cell for this card now: click a cell to see why, "
                                   "or choose another action.")
            except UnknownCardValues as e:
                form_for = e.card
                self._ask_values(e.card, e.fields)
        if form_for is None and self._form_for is not None and not g.state.finished:
            self._close_form()            # nobody needs those values for this entry
        # the grid is for choosing a cell: only builds and reactors need one
        self._draw_grid(player if do in ("build", "reactor") else None, legal)

    def push_entry(self, action: dict):
        """Any record entry from the mode panels (same path as a turn action)."""
        self._push(action)

    def _push(self, action: dict):
        g = self.game
        before_year = g.state.year
        try:
            # the store first: another page's change refuses it (PageBehind); a file that
            # cannot be written keeps the entry filled in (pressing again retries)
            norm = self.session.push(action)
        except PageBehind as behind:
            self._entry_again(behind)
            return
        self._pending = None
        self.extra.children = []
        self._close_form()
        st = g.state
        waiting = self._waiting()
        with self._hush():
            with self.entry_player.hold_sync():
                # a seat page is its own player's again after one action for another
                self.entry_player.options = self._entry_options(waiting)
                self.entry_player.value = self._default_player(waiting)
            self.entry_action.value = "build"
            self.entry_card.value = ""
        msg = f"{describe(norm)}."
        if st.finished:
            msg += " The game is over: see the final table."
        elif st.year != before_year:
            active = g.setup.active_player(st.year)
            if g.setup.consecutive and active:
                # Revival 2-player rules: no hands pass; the active player alternates (R 2.2)
                msg += (f" Year {st.year} begins: everyone takes 10 credits; {active} is the "
                        "active player.")
            else:
                msg += (f" Year {st.year} begins: everyone takes 10 credits; cards now pass "
                        f"{st.passing}.")
        elif not st.acted:
            msg += f" Turn {st.turn} begins."
        self.say(msg)
        self.refresh()

    # -- undo ----------------------------------------------------------------------------
    def _ask_undo(self):
        ask_undo(self, lambda last: f"Undo year {last['year']}, turn {last['turn']}: "
                                    f"{describe(last)}?", "undo", self._undo)

    def _undo(self):
        # refused (PageBehind: the page shows the current game) if another page changed
        # the game, even by an undo and a different entry; nothing is undone if the file
        # cannot be written
        try:
            last = self.session.undo()
        except PageBehind as behind:
            self._entry_again(behind)
            return
        self.undo_box.children = []
        self._pending = None
        # the entry shows the undone action again, ready to be corrected
        waiting = self._waiting()
        opts = self._entry_options(waiting)
        with self._hush():
            with self.entry_player.hold_sync():
                self.entry_player.options = opts
                self.entry_player.value = (last.get("player") if last.get("player") in opts
                                           else self._default_player(waiting))
            if last.get("do") in [v for _, v in self.entry_action.options]:
                self.entry_action.value = last["do"]
            self.entry_card.value = last.get("card", "") if last.get("player") in opts else ""
        self.say(f"Undone: {describe(last)}.")
        self.refresh()

    # -- play details (issue 16) -------------------------------------------------------
    def _details_players(self) -> list:
        return list(self.game.state.setup.players)

    def _details_said(self, text: str) -> None:
        self.say(text)

    def _details_error(self, text: str) -> None:
        self.final_msg.value = (f"<div class='status-error' style='color:{ERR}'>⚠ "
                                f"{escape(text)}</div>")

    def _details_gone(self) -> None:
        self._game_gone()

    def _gone(self) -> None:
        self._game_gone()

def dashboard():
    """Build the dashboard and return its root widget (the notebook displays it)."""
    try:
        # the table view's role (writes nothing) until the page's address is read: a
        # preheated kernel builds its page before it knows whose page it is
        app = App(role=Role.TABLE)
    except StoreError as e:      # busy, not ours, cannot be opened: say so, change nothing
        return w.HTML(f"<div class='status-error' style='color:{ERR};font-weight:600'>⚠ "
                      f"{escape(str(e))}</div>")
    dashboard.app = app          # handy in a notebook: dashboard.app.game
    # the page address (seat, table view, game): a preheated kernel waits for it here,
    # with every widget already built, then shows the store's latest state
    try:
        app.apply_query()
    except CompanionError as e:
        app.error(str(e))
    app.start_live()
    return app.root
