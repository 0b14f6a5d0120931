"""The Among the Stars screen: the setup screen, the play screen (turn entry, live
board, undo, final table) of one game, built from parts (issue 23, no mixins):

- :class:`~companion.ui.ats_setup.AtsSetup`: new game, saved games, imports, catalogue (lazily);
- :class:`~companion.ui.ats_entry.AtsEntry`: the grid, a click, confirm, discard, card values;
- :class:`~companion.ui.ats_final.AtsFinal`: the final scoring's forms and table;
- :class:`~companion.ui.ats_views.AtsViews`: seat, table view, live changes, the boards.

Each part receives this screen and reads what it shares through it; every attribute is
made in ``__init__``.  The page around it (tabs, status line, ``guarded``, the page's
address, the live poll) is :class:`companion.ui.shell.Shell`.  Every accepted action is
written to the SQLite store at once; the game shown is always the replay of the stored
record.
"""
from __future__ import annotations

import traceback

import ipywidgets as w

from ..ats.action_kinds import ActionKind, base_kinds
from ..ats.kind import KIND
from ..ats.game import START_CREDITS, Game, describe_action as describe  # the page's words are the engine's
from ..core.errors import CompanionError, UnknownCardValues
from ..core.htmlsafe import escape
from .ats_entry import AtsEntry
from .ats_final import AtsFinal
from .ats_setup import AtsSetup
from .ats_views import AtsViews
from .common import ERR, Built, Via, ask_undo, log, log_path
from .explorer import Explorer
from .modes import ModePanel
from .playdetails import FinalExports, PlayDetailsPart, PlayTimer, final_details_form
from .quiet import Quiet
from .session import GameSession, PageBehind, SessionPart
from .writes import writes
from .drivers import AtsDriver


class AtsScreen:
    """One Among the Stars screen of a page (``page``: the shell, for its status line,
    ``guarded``, role and address token)."""

    # what its parts hold: session.SessionPart (live), playdetails.PlayDetailsPart (details)
    store, role, game, gid, rev = (Via("live") for _ in range(5))
    open_session, view_of, poll = Via("live", "open"), Via("live", "view_of"), Via("live", "poll")
    box = property(lambda self: self.body)       # the shell's tab; messages beside the entry:
    local_boxes = property(lambda self: (self.entry_msg, self.final_msg))
    setup_part = Built(AtsSetup, lambda s, part: s.page.fill_role_note(part.setup_role_note))
    setup_role_note, setup_built = Via("setup_part"), property(lambda s: s._setup_part is not None)
    set_view, resume_latest = Via("views_part", "set_view"), Via("views_part", "resume_latest")
    details_for = Via("details", "shown_for")
    tap_timer, stop_timer = Via("details", "tap_timer"), Via("details", "stop_timer")
    fill_final_details, save_final_details = (Via("details", "fill_final_details"),
                                                 Via("details", "save_final_details"))
    stored_record_b64, refresh_exports = (Via("details", "stored_record_b64"),
                                            Via("details", "refresh_exports"))

    def __init__(self, page, session: GameSession) -> None:
        self.page = page
        self.session = session
        self.live = SessionPart(self, session)     # store, game, gid, rev; open, poll
        self.details = PlayDetailsPart(self)       # the play timer, details, exports
        self.say = page.say
        self.error = page.error
        self.guarded = page.guarded
        self.apply_role = page.apply_role
        self.status = page.status
        self.live_state, self.live_note = page.live_state, page.live_note
        self.seat: str | None = None           # SessionPart.view_of sets both
        self.view: str | None = None
        self.pending: dict | None = None      # a build waiting for its answers
        # the turn actions the engine offers (labels, costs, hints: no rule in the page);
        # the open game's replace these (open_game)
        self.kinds: dict[str, ActionKind] = {k.kind: k for k in base_kinds()}
        self._quiet = False      # set while the screen itself resets the entry widgets
        self.body = w.VBox()                   # the tab: setup or play screen
        self.views_part = AtsViews(self)
        self._setup_part: AtsSetup | None = None     # setup_part (issue 34: lazily)
        self.entry_part = AtsEntry(self)
        self.final_part = AtsFinal(self)
        self._build_play()

    def start(self) -> None:
        """Once the page is built: the store's notice, then the last game (or setup)."""
        if self.store.notice:
            self.error(self.store.notice)
        self.open_latest()

    def _kind_options(self) -> list[tuple[str, str]]:
        """The entry's action choices, as the engine words them."""
        return [(k.label, k.kind) for k in self.kinds.values()]

    def _kind_tips(self) -> list[str]:
        """Each choice's tooltip: the rule it follows (the Rule text), else its hint."""
        return [k.rule_text or k.hint for k in self.kinds.values()]

    def driver(self) -> AtsDriver:
        """What a player does on this screen, as calls (:mod:`companion.ui.drivers`)."""
        return AtsDriver(self)

    def live_tick(self) -> None:
        """One poll of the store (the shell's poller calls it)."""
        change = self.poll()
        if change:
            self.views_part.live_changed(change)

    def refresh_final(self) -> None:          # PlayDetailsPart calls it after a save
        self.final_part.refresh_final()

    def open_latest(self):
        games = self.store.games(table=self.store.table)     # this server's table's
        if games:
            try:
                self.open_game(games[0]["id"])
                self.say(f"Opened the finished game '{games[0]['title']}': its final table is "
                         "below." if self.game.state.finished else f"Resumed '{games[0]['title']}'.")
                return
            except CompanionError as e:
                self.error(f"Could not resume the last game: {e}")
            except Exception as e:        # a bug must not keep the dashboard from opening
                log.error("resume failed:\n%s", traceback.format_exc())
                self.error(f"Could not resume the last game ({type(e).__name__}: {e}); it is "
                           f"kept. The details are in {log_path()}.")
        self.setup_part.show_setup()

    def game_gone(self):
        """The game this page showed no longer exists (deleted on another page)."""
        self.session.close()
        self.setup_part.show_setup()
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
        self.entry_action = w.ToggleButtons(options=self._kind_options(), value="build",
                                            tooltips=self._kind_tips())
        self.entry_action.add_class("entry-action")
        self.discard_btn = w.Button(description=self.kinds["discard"].button or "",
                                    button_style="warning",
                                    layout=w.Layout(width="auto"))
        self.discard_btn.add_class("do-discard")
        self.discard_btn.on_click(self.guarded(lambda _: self.entry_part.discard()))
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
        self.form_for: str | None = None
        self.undo_btn = w.Button(description="Undo last action", icon="undo",
                                 layout=w.Layout(width="auto"))
        self.undo_btn.add_class("undo")
        writes(self.undo_btn)
        self.undo_btn.on_click(self.guarded(lambda _: self.ask_undo()))
        self.undo_box = writes(w.HBox())              # "Yes, undo it"
        self.undo_box.add_class("undo-confirm")
        self.new_btn = w.Button(description="New game / saved games", icon="plus",
                                layout=w.Layout(width="auto"))
        self.new_btn.add_class("new-game")
        writes(self.new_btn, host_only=True)
        self.new_btn.on_click(self.guarded(lambda _: self.setup_part.show_setup()))
        self.stations = w.HTML()
        self.stations.add_class("stations")
        self.score_details = w.HTML()
        self.score_details.add_class("score-details")
        # folded: the player's own station is the grid of the entry; a tap opens the rest
        # (widgets keep their open state across refreshes, unlike <details> in HTML)
        self.more = w.Accordion(children=[self.score_details, self.stations, self.views_part.join_panel],
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
        self.timer = PlayTimer(self.session, "ats-timer")
        writes(self.timer.button)
        self.timer.button.on_click(self.guarded(lambda _: self.tap_timer()))
        self.final_details, save = final_details_form(self.guarded,
                                                      lambda: self.save_final_details())
        self.final_details_box = w.VBox([w.HTML("<h4 style='margin:8px 0 2px'>Play details</h4>"),
                                         self.final_details.box, save])
        self.final_details_box.add_class("final-details-box")
        writes(self.final_details_box)
        self.exports = FinalExports(self.store, "final-exports", KIND.family,
                                    self.guarded, log)
        self.entry_player.observe(self.guarded(lambda _: self._quiet or self.player_changed()),
                                  "value")
        self.entry_card.observe(self.guarded(lambda _: self._quiet or self.entry_changed()),
                                "value")
        self.entry_action.observe(self.guarded(lambda _: self._quiet or self.entry_changed()),
                                  "value")
        self.entry = w.VBox([self.views_part.seat_switch.box, self.entry_part.hands_free,
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
        # (a seat page adds its score line and station; the table view: ats_views.py)
        self.undo_row = w.HBox([self.undo_btn, self.new_btn])
        writes(self.undo_row)             # undo and new game: both write
        self.play_screen = w.VBox([
            self.turn_info, self.timer.button, self.live_state, self.views_part.seat_score, self.live_note,
            self.entry_part.pending_line,
            self.mode_panel.box, self.entry, self.final_box, self.undo_row, self.undo_box,
            self.scoreboard, self.views_part.seat_station, self.objectives_panel, self.views_part.table_stations,
            self.more, self.explorer.box])
        self.play_screen.add_class("play-screen")

    def open_game(self, gid: str):
        game = self.open_session(gid, Game, "an Among the Stars")
        names = game.catalogue.names("location") + game.catalogue.names("conflict")
        self.entry_card.options = tuple(names)
        self.kinds = {k.kind: k for k in game.action_kinds(None)}
        with self.hush():
            self.entry_action.options = self._kind_options()
            self.entry_action.tooltips = self._kind_tips()
            self.entry_action.value = "build"
            self.entry_card.value = ""
        self.explorer.reset(game)
        self.pending = None
        self.entry_part.close_form()
        self.undo_box.children = []
        self.entry_msg.value = self.final_msg.value = ""
        self.body.children = [self.play_screen]
        self.refresh()

    def reload(self, stale: str | None = None):
        """Replay the stored record.  With ``stale`` (another page changed the game
        and this page's entry was refused): the entry is rebuilt from the fresh
        state and nothing is sent until the person enters it again."""
        if not self.gid:
            return
        change = self.session.reload()
        self.timer.bind(self.gid, self.session.meta)
        self.pending = None
        if stale is None:
            self.refresh()
            return
        self.entry_again(PageBehind(change, self.session.describe))

    def entry_again(self, behind: PageBehind):
        """Another page changed the game and this page's entry was refused (the session
        shows the current game): the entry is rebuilt from the fresh state and nothing is
        sent until the person enters it again."""
        self.timer.bind(self.gid, self.session.meta)
        self.pending = None
        with self.hush():
            self.entry_card.value = ""
            self.entry_action.value = "build"
        self.entry_part.close_form()
        self.undo_box.children = []
        self.refresh()
        # the person chooses again: no player is picked for them (a seat page's entry
        # stays its player's)
        if not self.seat:
            with self.hush():
                self.entry_player.value = None
        self.refresh_entry()
        self.error(str(behind))

    # -- refresh ---------------------------------------------------------------------
    def refresh(self):
        g = self.game
        st = g.state
        self.views_part.refresh_info()
        self.views_part.refresh_timer()    # hidden while the stations are laid (issue 39)
        self.views_part.refresh_objectives()
        self.views_part.refresh_scoreboard()
        self.mode_panel.refresh()
        self.entry_part.show_pending()
        self.views_part.check_acting_for()
        waiting = self.waiting()
        opts = self.views_part.entry_options(waiting)
        if self.entry_player.options != tuple(opts):
            keep = self.views_part.kept_player(opts, waiting)
            # one message for options + selection: otherwise the browser briefly shows
            # the first name and a pick made in that instant is lost (index is synced)
            with self.hush(), self.entry_player.hold_sync():
                self.entry_player.options = opts
                self.entry_player.value = keep or self.views_part.default_player(waiting)
        self.entry.layout.display = ("none" if st.finished or self.view == "table"
                                     or self.mode_panel.laying else "")
        self.views_part.refresh_views()
        self.refresh_entry()
        self.views_part.refresh_stations()
        self.final_part.refresh_final()
        self.explorer.refresh()
        self.apply_role()
        self.views_part.refresh_undo()     # only where the session allows it, a lay laid

    def waiting(self) -> list[str]:
        """Players still to act, in the order the rules ask for."""
        return self.game.waiting_in_order()

    def hush(self):
        return Quiet(self)

    def player_changed(self):
        self.pending = None
        self.extra.children = []
        self.entry_msg.value = ""
        self.refresh_entry()

    def entry_changed(self):
        self.pending = None
        self.extra.children = []
        self.refresh_entry()

    def card_name(self) -> str | None:
        name = (self.entry_card.value or "").strip()
        if not name:
            return None
        c = self.game.catalogue.get(name)
        return c.name if c is not None else name

    def refresh_entry(self):
        g = self.game
        if g is None or g.state.finished:
            return
        player = self.entry_player.value
        do = self.entry_action.value
        self.discard_btn.layout.display = "" if do == "discard" else "none"
        self.extra.children = [] if self.pending is None else self.extra.children
        form_for = None                  # the card whose values this entry needs now
        legal: set = set()
        self.hint.value = ""
        name = self.card_name()
        card = g.catalogue.get(name) if name else None
        done = self.views_part.seat_done()
        for wd in (self.entry_card, self.entry_action):
            wd.layout.display = "none" if done else ""
        if done:
            # the seat's player has acted: the page stays hers, says whom the table waits
            # for (the seat bar) and shows her station
            self.discard_btn.layout.display = "none"
            if self.form_for is not None:
                self.entry_part.close_form()
            self.entry_part.draw_grid(self.seat, set())
            return
        if player is None:
            self.hint.value = ("Choose the player whose action you enter." if g.state.waiting
                               else "Everyone has acted.")
        elif do == "discard":
            self.hint.value = escape(self.kinds["discard"].hint)
            if name and card is None:
                self.entry_part.not_a_location(name, card, do)
        elif not name:
            self.hint.value = "Type the selected card's name first."
        elif card is None or card.category not in ("location", "conflict"):
            form_for = self.entry_part.not_a_location(name, card, do)
        elif do == "conflict":
            if card.category != "conflict":
                self.hint.value = (f"<span style='color:{ERR}'>'{escape(name)}' is not a Conflict "
                                   "card (type 'Conflict card' or a conflict from your "
                                   "catalogue).</span>")
            else:
                self.hint.value = escape(self.kinds["conflict"].hint)
                self.extra.children = self.mode_panel.conflict_form(player, name)
        elif do == "remove_spaceships":
            self.hint.value = escape(self.kinds["remove_spaceships"].hint)
            self.extra.children = self.mode_panel.remove_ships_form(player, name)
        elif card.category == "conflict" and do == "build":
            cost = self.kinds["conflict"].cost or 0
            self.hint.value = (f"<span style='color:{ERR}'>A Conflict card cannot be built: apply "
                               f"it ({cost} credit{'' if cost == 1 else 's'}), build a reactor "
                               "or discard it.</span>")
        elif do == "reactor":
            legal = set(g.legal_cells(player, do="reactor"))
            self.hint.value = (escape(self.kinds["reactor"].hint) if legal else
                               "No Power Reactor can be built now (credits or supply).")
        else:
            try:
                legal = set(g.legal_cells(player, name))
                self.hint.value = (escape(self.kinds["build"].hint) if legal else
                                   "No legal cell for this card now: click a cell to see why, "
                                   "or choose another action.")
            except UnknownCardValues as e:
                form_for = e.card
                self.entry_part.ask_values(e.card, e.fields)
        if form_for is None and self.form_for is not None and not g.state.finished:
            self.entry_part.close_form()            # nobody needs those values for this entry
        # the grid is for choosing a cell: only builds and reactors need one
        self.entry_part.draw_grid(player if do in ("build", "reactor") else None, legal)

    def push_entry(self, action: dict):
        """Any record entry from the mode panels (same path as a turn action)."""
        self.push(action)

    def push(self, action: dict):
        g = self.game
        before_year = g.state.year
        try:
            # the store first: another page's change refuses it (PageBehind); a file that
            # cannot be written keeps the entry filled in (pressing again retries)
            norm = self.session.push(action)
        except PageBehind as behind:
            self.entry_again(behind)
            return
        self.pending = None
        self.extra.children = []
        self.entry_part.close_form()
        st = g.state
        waiting = self.waiting()
        with self.hush():
            with self.entry_player.hold_sync():
                # a seat page is its own player's again after one action for another
                self.entry_player.options = self.views_part.entry_options(waiting)
                self.entry_player.value = self.views_part.default_player(waiting)
            self.entry_action.value = "build"
            self.entry_card.value = ""
        msg = f"{describe(norm)}."
        if st.finished:
            msg += " The game is over: see the final table."
        elif st.year != before_year:
            active = g.setup.active_player(st.year)
            if g.setup.consecutive and active:
                # Revival 2-player rules: no hands pass; the active player alternates (R 2.2)
                msg += (f" Year {st.year} begins: everyone takes {START_CREDITS} credits; {active} is the "
                        "active player.")
            else:
                msg += (f" Year {st.year} begins: everyone takes {START_CREDITS} credits; cards now pass "
                        f"{st.passing}.")
        elif not st.acted and len(st.laid) == (len(st.players) if st.laid else 0):
            msg += f" Turn {st.turn} begins."      # issue 39: once every station is laid
        self.say(msg)
        self.refresh()

    # -- undo ----------------------------------------------------------------------------
    def ask_undo(self):
        ask_undo(self, self.views_part.undo_question, "undo", self.undo)

    def undo(self):
        # refused (PageBehind: the page shows the current game) if another page changed
        # the game, even by an undo and a different entry; nothing is undone if the file
        # cannot be written
        try:
            last = self.session.undo()
        except PageBehind as behind:
            self.entry_again(behind)
            return
        self.undo_box.children, self.pending = [], None
        self.mode_panel.lay.undone(last)          # a lay undone is its draft again (issue 39)
        # the entry shows the undone action again, ready to be corrected
        waiting = self.waiting()
        opts = self.views_part.entry_options(waiting)
        mine = last.get("player") in [o[1] if isinstance(o, tuple) else o for o in opts]
        with self.hush():
            with self.entry_player.hold_sync():
                self.entry_player.options = opts
                self.entry_player.value = (last.get("player") if mine
                                           else self.views_part.default_player(waiting))
            if last.get("do") in [v for _, v in self.entry_action.options]:
                self.entry_action.value = last["do"]
            self.entry_card.value = last.get("card", "") if mine else ""
        self.say(f"Undone: {describe(last)}.")
        self.refresh()

    # -- play details (issue 16) -------------------------------------------------------
    def details_players(self) -> list:
        return list(self.game.state.setup.players)

    def details_said(self, text: str) -> None:
        self.say(text)

    def details_error(self, text: str) -> None:
        self.final_msg.value = (f"<div class='status-error' style='color:{ERR}'>⚠ "
                                f"{escape(text)}</div>")

    details_saved = staticmethod(lambda: None)
    gone = details_gone = property(lambda self: self.game_gone)
