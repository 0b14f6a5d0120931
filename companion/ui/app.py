"""The table companion dashboard (ipywidgets).  Calls the engine and nothing else.

Screens: *setup* (new game, saved games) and *play* (turn entry, live board,
undo, final table).  Every accepted action is written to the SQLite store at
once; the game shown is always the replay of the stored record.
"""
from __future__ import annotations

import base64
import logging
import random
import traceback
from ..core.htmlsafe import escape

import ipywidgets as w

from ..core import playtime
from ..ats import render, whatif
from ..ats.catalogue import Catalogue, save_user_card
from ..core.errors import CompanionError, IllegalAction, UnknownCardValues
from ..ats.game import Game
from ..core.paths import user_dir
from ..core.record import dumps
from ..ats.record import parse_record
from ..ats.scoring import objective_claims
from ..core.store import StaleGame, Store, StoreError
from .cardform import CardForm
from .explorer import Explorer
from .modes import ModePanel, ModeSetup
from .playdetails import CSS as DETAILS_CSS
from .playdetails import DetailsForm, FinalExports, PlayDetailsScreen, PlayTimer
from .quiet import Quiet
from .session import GameSession, PageBehind, SessionScreen
from .style import CSS

log = logging.getLogger("companion.ui")
MAX_PLAYERS = 6
CELL_PX = 58
ERR = "#b00020"
LEGAL = "#9be7a8"          # legal cells: green reads as "you may build here"
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
OK = "#1b6e20"


def cell_class(r: int, c: int) -> str:
    """Stable CSS class of a station grid cell (tests click on it)."""
    return f"cell_r{'m' if r < 0 else ''}{abs(r)}_c{'m' if c < 0 else ''}{abs(c)}"


def describe(a: dict) -> str:
    """An entry in words: 'Ana built Garden at [0, 1]'."""
    who = a.get("player") or a.get("seat") or ""
    do = a["do"]
    if do == "build":
        what = f"built {a['card']} at {a['at']}"
    elif do == "reactor":
        what = f"built a Power Reactor at {a['at']}"
    elif do == "discard":
        what = f"discarded {a['card']} for 3 credits"
    elif do == "conflict":
        what = f"applied the Conflict '{a['card']}' (1 credit)"
    elif do == "remove_spaceships":
        what = f"discarded {a['card']} and removed the spaceships at {a.get('cells')}"
    elif do == "virtual":
        what = f"lost {a['card']} to the face-up pile"
    elif do == "remove":
        what = f"removed {a.get('card', 'a location')} at {a['at']} (round-end check)"
    elif do == "advisor":
        what = (f"took the bonus of the advisor on '{a['tile']}'" if a.get("take") == "bonus"
                else f"declined the advisor's bonus on '{a['tile']}' for 1 VP")
    else:
        what = do
    return f"{who} {what}".strip()


def _log_path():
    d = user_dir()
    d.mkdir(parents=True, exist_ok=True)
    return d / "dashboard.log"


class App(SessionScreen, PlayDetailsScreen):
    def __init__(self, store: Store | None = None):
        logging.basicConfig(filename=str(_log_path()), level=logging.INFO)
        self.session = GameSession(store or Store(), words=describe)
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
        self.root = w.VBox([w.HTML(STYLE + CSS + DETAILS_CSS), self.title, self.status, self.tabs])
        self.root.add_class("companion-root")
        self._build_setup()
        self._build_play()
        if self.store.notice:
            self.error(self.store.notice)
        self._start()

    # -- status -----------------------------------------------------------------------
    def say(self, text: str, colour: str = OK):
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
                           f"entry was recorded. The details are in {_log_path()}.")
        return run

    TITLES = ("Among the Stars", "Small Star Empires", "History")

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
                           f"kept. The details are in {_log_path()}.")
        self.show_setup()

    # ================================================================== setup screen
    def _build_setup(self):
        cat = Catalogue.default()
        self.name_boxes = []
        for i in range(MAX_PLAYERS):
            t = w.Text(placeholder=f"Player {i + 1}" + (" (optional)" if i >= 2 else ""),
                       layout=w.Layout(width="220px", max_width="100%"))
            t.add_class(f"player-name-{i + 1}")
            self.name_boxes.append(t)
        self.mode = w.Dropdown(options=[("Standard", "standard"), ("Aggressive", "aggressive")],
                               value="standard", description="Mode")
        self.mode.add_class("setup-mode")
        self.supply = w.BoundedIntText(value=16, min=0, max=64, description="Reactors",
                                       tooltip="Power Reactor cards in the supply (16 in the base game)")
        self.limited = w.Checkbox(value=False, description="Limited Space variant",
                                  style={"description_width": "initial"})
        self.bounds = w.Text(value="-2, 2, -3, 3", description="area",
                             placeholder="min row, max row, min col, max col")
        self.use_races = w.Checkbox(value=False, description="Races",
                                    style={"description_width": "initial"})
        self.use_races.add_class("setup-races")
        race_opts = [("draw at random", "*")] + [(r, r) for r in cat.names("race")]
        self.race_boxes = [w.Dropdown(options=race_opts, value="*", description=f"Player {i + 1}",
                                      style={"description_width": "initial"})
                           for i in range(MAX_PLAYERS)]
        for i, b in enumerate(self.race_boxes):
            b.add_class(f"race-{i + 1}")
        self.race_box = w.VBox(self.race_boxes)
        self.use_objectives = w.Checkbox(value=False, description="Objectives",
                                         style={"description_width": "initial"})
        self.use_objectives.add_class("setup-objectives")
        self.objective_pick = w.SelectMultiple(options=cat.names("objective"),
                                               description="pick", rows=4)
        self.objective_note = w.HTML("<i>Pick objectives, or pick none to draw as many as "
                                     "players (2 in a 2-player game).</i>")
        self.start_btn = w.Button(description="Start the game", button_style="primary", icon="play")
        self.start_btn.add_class("start-game")
        self.start_btn.on_click(self.guarded(lambda _: self.start_game()))
        self.saved = w.Select(options=[], rows=6, layout=w.Layout(width="auto", max_width="560px"))
        self.saved.add_class("saved-games")
        self.resume_btn = w.Button(description="Resume", icon="folder-open")
        self.resume_btn.add_class("resume-game")
        self.resume_btn.on_click(self.guarded(lambda _: self._resume_selected()))
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Open a record",
                                   layout=w.Layout(width="auto"))
        self.upload.add_class("import-record")
        self.upload.observe(self.guarded(lambda ch: self._import_record()), "value")
        self.cat_upload = w.FileUpload(accept=".yaml,.yml", multiple=False,
                                       description="Import my cards",
                                       layout=w.Layout(width="auto"))
        self.cat_upload.observe(self.guarded(lambda ch: self._import_catalogue()), "value")
        self.cat_export = w.HTML()
        # the cards, races and objectives still unknown: fill a deck before playing
        self.catalogue_screen = None
        self.catalogue_panel = w.Accordion(children=[w.VBox()], selected_index=None)
        self.catalogue_panel.set_title(0, "Cards still unknown: type their values before playing")
        self.catalogue_panel.add_class("catalogue-panel")
        self.catalogue_panel.observe(self.guarded(lambda _: self._open_catalogue()),
                                     "selected_index")
        self.use_races.observe(lambda _: self._setup_visibility(), "value")
        self.use_objectives.observe(lambda _: self._setup_visibility(), "value")
        self.limited.observe(lambda _: self._setup_visibility(), "value")
        self.drawn = None
        self.mode_setup = ModeSetup(self)
        for b in self.name_boxes + [self.mode]:
            b.observe(self.guarded(lambda _: self.mode_setup.refresh()), "value")
        for b in self.name_boxes:
            b.observe(lambda _: self._setup_visibility(), "value")
        # the options a first game never needs, folded
        self.options_panel = w.Accordion(children=[w.VBox([
            w.HBox([self.mode, self.supply]), w.HBox([self.limited, self.bounds]),
            self.mode_setup.box])], selected_index=None)
        self.options_panel.set_title(0, "Mode, modules and variants")
        self.options_panel.add_class("setup-options")
        # play details (issue 16): location, notes, new players; folded like the options
        self.setup_details = DetailsForm("setup")
        self.details_panel = w.Accordion(children=[self.setup_details.box], selected_index=None)
        self.details_panel.set_title(0, "Play details: location, notes, new players")
        self.details_panel.add_class("setup-details-panel")
        for b in self.name_boxes:
            b.observe(lambda _: self.setup_details.set_players(
                [x.value.strip() for x in self.name_boxes]), "value")
        self.setup_screen = w.VBox([
            w.HTML("<h3>New game</h3><div>Players in seat order, clockwise:</div>"),
            w.HBox(self.name_boxes),
            self.options_panel, self.details_panel,
            self.use_races, self.race_box,
            self.use_objectives, w.VBox([self.objective_note, self.objective_pick]),
            self.start_btn,
            w.HTML("<h3>Saved games</h3>"),
            self.saved, w.HBox([self.resume_btn, self.upload]),
            w.HTML("<h3>My cards</h3><div>The printed values you typed are kept in your own "
                   "catalogue. Export it to share it, import one from a friend.</div>"),
            w.HBox([self.cat_upload, self.cat_export]),
            self.catalogue_panel,
        ])
        self.setup_screen.add_class("setup-screen")
        self._setup_visibility()
        self.mode_setup.refresh()

    def _open_catalogue(self):
        if self.catalogue_panel.selected_index is None:
            return
        if self.catalogue_screen is None:
            from .catalogue_screen import CatalogueScreen
            self.catalogue_screen = CatalogueScreen(on_saved=self.guarded(self._catalogue_saved))
            self.catalogue_panel.children = [self.catalogue_screen.box]
        else:
            self.catalogue_screen.refresh()

    def _catalogue_saved(self, card):
        self.cat_export.value = self._catalogue_link()
        self.say(f"Saved the values of '{card.name}' in your catalogue.")

    def _setup_visibility(self):
        self.race_box.layout.display = "" if self.use_races.value else "none"
        # one race selector per player typed (at least two)
        n = max(2, sum(1 for b in self.name_boxes if b.value.strip()))
        for i, (box, name) in enumerate(zip(self.race_boxes, self.name_boxes)):
            box.layout.display = "" if i < n else "none"
            box.description = name.value.strip() or f"Player {i + 1}"
        self.objective_pick.layout.display = "" if self.use_objectives.value else "none"
        self.objective_note.layout.display = "" if self.use_objectives.value else "none"
        self.bounds.layout.display = "" if self.limited.value else "none"

    def _game_gone(self):
        """The game this page showed no longer exists (deleted on another page)."""
        self.session.close()
        self.show_setup()
        self.error("Not recorded: this game was deleted on another page or tab. Start a new "
                   "game or open a saved one.")

    def show_setup(self):
        games = self.store.games()
        self.saved.options = [(f"{g['title']} · {g['actions']} actions", g["id"]) for g in games]
        if games:
            self.saved.value = games[0]["id"]
        self.cat_export.value = self._catalogue_link()
        self.body.children = [self.setup_screen]

    def _catalogue_link(self) -> str:
        from ..ats.catalogue import dump_yaml, load_user_cards
        cards = load_user_cards()
        if not cards:
            return "<i>(no cards typed yet)</i>"
        data = base64.b64encode(dump_yaml(cards).encode()).decode()
        return (f"<a class='export-cards export-link' download='my-cards.yaml' "
                f"href='data:application/x-yaml;base64,{data}'>Export my cards ({len(cards)})</a>")

    def start_game(self):
        names = [b.value.strip() for b in self.name_boxes if b.value.strip()]
        if len(names) < 2:
            raise CompanionError("Type at least 2 player names (2 to 6 players).")
        # the play details are checked first: a refused text starts nothing
        meta = self.setup_details.meta({})
        cat = Catalogue.default()
        options = {"reactor_supply": int(self.supply.value)}
        if self.limited.value:
            try:
                b = [int(x) for x in self.bounds.value.replace(";", ",").split(",")]
            except ValueError:
                raise CompanionError("Limited Space area: type four whole numbers, e.g. -2, 2, -3, 3") from None
            options["limited_space"] = b
        races = {}
        if self.use_races.value:
            pool = cat.names("race")
            chosen = {self.race_boxes[i].value for i in range(len(names))} - {"*"}
            free = [r for r in pool if r not in chosen]
            random.shuffle(free)
            for i, p in enumerate(names):
                v = self.race_boxes[i].value
                races[p] = v if v != "*" else (free.pop() if free else random.choice(pool))
        objectives, secret = [], {}
        if self.use_objectives.value:
            pool = cat.names("objective")
            want = 2 if len(names) == 2 else len(names)
            objectives = list(self.objective_pick.value) or random.sample(pool, min(want, len(pool)))
            rest = [o for o in pool if o not in objectives]
            for p, r in races.items():
                rc = cat.get(r)
                if rc.extra.get("secret_objective") and rest:
                    secret[p] = rest.pop(random.randrange(len(rest)))
        options.update(self.mode_setup.options(names))
        drawn = self.drawn if self.drawn and self.drawn.get("players") == names else None
        if drawn:             # the seeded draw replaces the races and objectives picked above
            races = drawn.get("races") or {}
            objectives = drawn.get("objectives") or []
            secret = drawn.get("secret_objectives") or {}
            options = {**drawn.get("options", {}), **options}
        setup = {"players": names, "mode": self.mode.value, "races": races,
                 "objectives": objectives, "options": options}
        if secret:
            setup["secret_objectives"] = secret
        game = Game(setup)
        rec = game.to_record()
        rec["meta"] = playtime.start(meta)        # the play timer starts with the game
        gid = self.store.create(rec)
        self.setup_details.notes.value = ""       # the location stays for the next game
        self.open_game(gid)
        extra = ""
        if objectives:
            extra += f" Objectives: {', '.join(objectives)}."
        if races:
            extra += " Races: " + ", ".join(f"{p} {r}" for p, r in races.items()) + "."
        if self.use_objectives.value and len(objectives) < (2 if len(names) == 2 else len(names)):
            extra += " (Not enough objectives in the catalogue to draw one per player.)"
        self.say(f"New game started. Year 1 begins: everyone takes 10 credits.{extra}")

    def _resume_selected(self):
        if not self.saved.value:
            raise CompanionError("Choose a saved game first.")
        self.open_game(self.saved.value)
        self.say("Game resumed.")

    def _import_record(self):
        files = self.upload.value
        if not files:
            return
        f = files[0]
        content = bytes(f["content"]) if isinstance(f, dict) else bytes(f.content)
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            raise CompanionError("That file is not a text (JSON) game record.") from None
        rec = parse_record(text, f.get("name", "record") if isinstance(f, dict) else f.name)
        Game.from_record(rec)           # refuse anything that does not replay
        gid = self.store.create(rec, title=(rec.get("meta") or {}).get("title"))
        self.open_game(gid)
        self.say(f"Opened the record with {len(rec.get('actions') or [])} actions.")

    def _import_catalogue(self):
        from ..ats.catalogue import import_user_catalogue
        import tempfile, os
        files = self.cat_upload.value
        if not files:
            return
        f = files[0]
        content = bytes(f["content"]) if isinstance(f, dict) else bytes(f.content)
        with tempfile.NamedTemporaryFile("wb", suffix=".yaml", delete=False) as t:
            t.write(content)
        try:
            names = import_user_catalogue(t.name)
        finally:
            os.unlink(t.name)
        self.cat_export.value = self._catalogue_link()
        if self.gid:
            self._reload()
        self.say(f"Imported {len(names)} card(s) into your catalogue.")

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
        self.undo_btn.on_click(self.guarded(lambda _: self._ask_undo()))
        self.undo_box = w.HBox()
        self.undo_box.add_class("undo-confirm")
        self.new_btn = w.Button(description="New game / saved games", icon="plus",
                                layout=w.Layout(width="auto"))
        self.new_btn.add_class("new-game")
        self.new_btn.on_click(self.guarded(lambda _: self.show_setup()))
        self.stations = w.HTML()
        self.stations.add_class("stations")
        self.score_details = w.HTML()
        self.score_details.add_class("score-details")
        # folded: the player's own station is the grid of the entry; a tap opens the rest
        # (widgets keep their open state across refreshes, unlike <details> in HTML)
        self.more = w.Accordion(children=[self.score_details, self.stations],
                                selected_index=None)
        self.more.set_title(0, "Races and last actions")
        self.more.set_title(1, "All stations")
        self.more.add_class("more-panels")
        self.final_msg = w.HTML()
        self.final_msg.add_class("final-message")
        self.final_box = w.VBox()
        self.final_box.add_class("final")
        # the play timer (issue 16): one button in the status area; the final screen's
        # play details and the exports to other play loggers
        self.timer = PlayTimer(self.store, "ats-timer")
        self.timer.button.on_click(self.guarded(lambda _: self._tap_timer()))
        self.final_details = DetailsForm("final")
        save = w.Button(description="Save the play details", icon="save",
                        layout=w.Layout(width="auto"))
        save.add_class("final-details-save")
        save.on_click(self.guarded(lambda _: self._save_final_details()))
        self.final_details_box = w.VBox([w.HTML("<h4 style='margin:8px 0 2px'>Play details</h4>"),
                                         self.final_details.box, save])
        self.final_details_box.add_class("final-details-box")
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
        self.entry = w.VBox([w.HBox([self.entry_player, self.entry_card]), self.entry_action,
                             # the message and the questions a click raises sit above the
                             # grid: in view while a long station is used (issue 15)
                             self.hint, self.entry_msg, self.form_box, self.extra, self.grid,
                             self.discard_btn])
        self.entry.add_class("turn-entry")
        self.explorer = Explorer(self)
        self.mode_panel = ModePanel(self)
        # top to bottom as a hand on a phone needs it: where we are, the entry and its
        # grid, undo; then the scores, the objectives, and the rest folded
        self.play_screen = w.VBox([
            self.turn_info, self.timer.button, self.mode_panel.box, self.entry, self.final_box,
            w.HBox([self.undo_btn, self.new_btn]), self.undo_box,
            self.scoreboard, self.objectives_panel, self.more, self.explorer.box])
        self.play_screen.add_class("play-screen")

    def open_game(self, gid: str):
        game = self.session.open(gid)
        if not isinstance(game, Game):
            self.session.close()
            raise CompanionError("that saved game is not an Among the Stars game")
        self.timer.bind(gid, self.session.meta)
        self._details_for = None
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
        self._entry_again(PageBehind(change, describe))

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
        # the person chooses again: no player is picked for them
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
        self.timer.show()               # the clock as of now (it does not tick by itself)
        self._refresh_objectives()
        self._refresh_scoreboard()
        self.mode_panel.refresh()
        waiting = self._waiting()
        if self.entry_player.options != tuple(waiting):
            keep = self.entry_player.value if self.entry_player.value in waiting else None
            # one message for options + selection: otherwise the browser briefly shows
            # the first name and a pick made in that instant is lost (index is synced)
            with self._hush(), self.entry_player.hold_sync():
                self.entry_player.options = waiting
                self.entry_player.value = keep or (waiting[0] if waiting else None)
        self.entry.layout.display = "none" if st.finished else ""
        self._refresh_entry()
        self._refresh_stations()
        self._refresh_final()
        self.explorer.refresh()

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
        # one line: where we are and whose entry; the rest small underneath
        self.turn_info.value = (
            f"<div style='font-size:1.1em'><b>Year {st.year}</b> · <b>Turn {st.turn}</b> of {n}"
            f" · Waiting for: <b>{waiting}</b></div>"
            f"<div style='font-size:0.9em;color:#444'>cards pass {st.passing} {arrow} · reactors "
            f"left in supply: {st.reactor_supply}</div>")

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

    # -- the clickable grid -------------------------------------------------------------
    def _button(self, cell):
        b = self._buttons.get(cell)
        if b is None:
            b = w.Button(layout=w.Layout(width=f"{CELL_PX}px", height=f"{CELL_PX}px", padding="0"))
            b.add_class(cell_class(*cell))
            b.add_class("grid-cell")
            b.on_click(self.guarded(lambda _, c=cell: self._clicked(c)))
            self._buttons[cell] = b
        return b

    def _draw_grid(self, player, legal: set):
        if player is None:
            self.grid.children = []
            return
        station = self.game.state.station(player)
        frontier = set(station.frontier())
        cells = set(station.cells) | frontier | set(station.blocked)
        r0, r1 = min(c[0] for c in cells), max(c[0] for c in cells)
        c0, c1 = min(c[1] for c in cells), max(c[1] for c in cells)
        kids = []
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                b = self._button((r, c))
                placed = station.cells.get((r, c))
                classes = set(b._dom_classes)
                if placed is not None:
                    colours = render.cell_colours(placed)
                    if placed.is_reactor:
                        label = (f"{'Main' if placed.kind == 'main_reactor' else 'Reactor'} "
                                 f"{'■' * placed.cubes or '□'}")
                        tip = f"{placed.label}, {placed.cubes} energy cube(s) [{r}, {c}]"
                    else:
                        label = placed.label
                        types = "/".join(placed.types) if placed.types else "types not entered yet"
                        tip = f"{placed.label} ({types}) [{r}, {c}]"
                    b.description = label
                    b.tooltip = tip
                    b.style.button_color = colours[0]
                    b.style.text_color = "white"
                    b.disabled = False
                    b.layout.visibility = "visible"
                    state = "built"
                elif (r, c) in station.blocked:
                    b.description, b.tooltip = "ship", f"spaceship [{r}, {c}]"
                    b.style.button_color = "#eeeeee"
                    b.layout.visibility = "visible"
                    state = "blocked"
                elif (r, c) in frontier:
                    ok = (r, c) in legal
                    b.description = "+" if ok else "·"
                    b.tooltip = f"[{r}, {c}]" + (" legal" if ok else " not legal for this card")
                    b.style.button_color = LEGAL if ok else "#e6e6e6"
                    b.style.text_color = "black"
                    b.disabled = False
                    b.layout.visibility = "visible"
                    state = "legal" if ok else "frontier"
                else:
                    b.description, b.tooltip = "", ""
                    b.layout.visibility = "hidden"
                    state = "empty"
                for cls in ("built", "legal", "frontier", "blocked", "empty"):
                    if cls == state and cls not in classes:
                        b.add_class(cls)
                    elif cls != state and cls in classes:
                        b.remove_class(cls)
                kids.append(b)
        self.grid.layout.grid_template_columns = f"repeat({c1 - c0 + 1}, {CELL_PX}px)"
        self.grid.layout.grid_gap = "3px"
        self.grid.children = kids

    def _clicked(self, cell):
        g = self.game
        player = self.entry_player.value
        do = self.entry_action.value
        if g.state.finished:
            return
        if player is None:
            raise CompanionError("Choose the player whose action you enter first.")
        if do == "discard":
            raise CompanionError("Discard is selected: press 'Discard for 3 credits', or choose "
                                 "Build location / Build reactor to use the grid.")
        name = self._card_name()
        if not name:
            raise CompanionError("Type the selected card's name first.")
        action = {"player": player, "do": do, "card": name, "at": list(cell)}
        self._pending = None
        self.extra.children = []
        # ask the engine what the action still needs *before* checking it: an illegal
        # cell is named with its rule, a legal one gets its questions (values, choices,
        # manual VP, energy payer, spaceships), nothing is sent until they are answered
        needs = g.needs(action)
        if "values" in needs:
            v = needs["values"]
            self._ask_values(v["card"], v["fields"], cell=cell)
            self.error(f"Enter the printed values of '{v['card']}' first "
                       f"({', '.join(v['fields'])}), then click the cell again.")
            return
        extras = self._extras(player, g.card(name) if do == "build" else None, cell, needs)
        if extras:
            self._pending = action
            self.extra.children = extras
            self.hint.value = (f"{escape(describe({**action, 'card': g.card(name).name}))}: "
                               "answer below, then confirm.")
            self.entry_msg.value = ""
            return
        self._push(action)

    def _extras(self, player, card, cell, needs: dict) -> list:
        """Widgets for what the engine says the build still needs."""
        kids = []
        self._energy_choice = None
        self._school = {}
        self._manual = None
        self._ships = None
        if "spaceships" in needs:
            ship_widgets, self._ships = self.mode_panel.spaceship_choices(needs["spaceships"])
            kids += ship_widgets
        if "energy_from" in needs:
            opts = needs["energy_from"]
            default = next((o for o in opts if o["default"]), opts[0])
            self._energy_choice = w.RadioButtons(
                options=[(o["label"] + (" (default)" if o["default"] else ""),
                          tuple(tuple(c) for c in o["energy_from"])) for o in opts],
                value=tuple(tuple(c) for c in default["energy_from"]), description="Energy from")
            self._energy_choice.add_class("energy-from")
            kids.append(self._energy_choice)
        if "choices" in needs:
            ch = needs["choices"]
            words = " or ".join(label for _, label in ch["options"])
            kids.append(w.HTML(f"<b>{escape(ch['card'])}</b>: each other player secretly chooses: "
                               f"{escape(words)}."))
            for other in ch["players"]:
                t = w.ToggleButtons(options=[(label, value) for value, label in ch["options"]],
                                    value=None, description=other,
                                    style={"description_width": "initial"})
                t.add_class(f"school-{self.game.setup.players.index(other) + 1}")
                self._school[other] = t
                kids.append(t)
        if "manual_vp" in needs:
            self._manual = w.Text(description="VP gained", placeholder="VP the ability gives now",
                                  style={"description_width": "initial"})
            self._manual.add_class("manual-vp")
            kids += [w.HTML(escape(needs["manual_vp"]["prompt"])), self._manual]
        if kids:
            ok = w.Button(description="Confirm build", button_style="success", icon="check",
                          layout=w.Layout(width="auto"))
            ok.add_class("confirm-build")
            ok.on_click(self.guarded(lambda _: self._confirm()))
            no = w.Button(description="Cancel", layout=w.Layout(width="auto"))
            no.add_class("cancel-build")
            no.on_click(self.guarded(lambda _: self._cancel_pending()))
            kids.append(w.HBox([ok, no]))
        return kids

    def _confirm(self):
        if self._pending is None:
            return
        action = dict(self._pending)
        if self._energy_choice is not None:
            action["energy_from"] = [list(c) for c in self._energy_choice.value]
        if self._school:
            missing = [p for p, t in self._school.items() if t.value is None]
            if missing:
                raise CompanionError(f"Waiting for the choice of {', '.join(missing)}.")
            action["choices"] = {p: t.value for p, t in self._school.items()}
        if self._ships is not None:
            action["spaceships"] = self._ships()
        if self._manual is not None:
            try:
                action["manual_vp"] = int(self._manual.value.strip())
            except ValueError:
                raise CompanionError("Type the VP the ability gives as a whole number "
                                     "(0 if it gives none).") from None
        self._push(action)

    def _cancel_pending(self):
        self._pending = None
        self.extra.children = []
        self._refresh_entry()

    def _discard(self):
        name = self._card_name()
        player = self.entry_player.value
        if player is None:
            raise CompanionError("Choose the player whose action you enter first."
                                 if self.game.state.waiting else "Everyone has acted; nothing to enter.")
        if not name:
            raise CompanionError("Type the discarded card's name first (discards are public).")
        self._push({"player": player, "do": "discard", "card": name})

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
                self.entry_player.options = waiting
                self.entry_player.value = waiting[0] if waiting else None
            self.entry_action.value = "build"
            self.entry_card.value = ""
        msg = f"{describe(norm)}."
        if st.finished:
            msg += " The game is over: see the final table."
        elif st.year != before_year:
            msg += (f" Year {st.year} begins: everyone takes 10 credits; cards now pass "
                    f"{st.passing}.")
        elif not st.acted:
            msg += f" Turn {st.turn} begins."
        self.say(msg)
        self.refresh()

    # -- undo ----------------------------------------------------------------------------
    def _ask_undo(self):
        g = self.game
        if not g.actions:
            raise CompanionError("There is nothing to undo.")
        last = g.actions[-1]
        what = describe(last)
        yes = w.Button(description="Yes, undo it", button_style="danger",
                       layout=w.Layout(width="auto"))
        yes.add_class("undo-yes")
        no = w.Button(description="Keep it", layout=w.Layout(width="auto"))
        no.add_class("undo-no")
        yes.on_click(self.guarded(lambda _: self._undo()))
        no.on_click(self.guarded(lambda _: setattr(self.undo_box, "children", [])))
        self.undo_box.children = [w.HTML(f"<b>Undo year {last['year']}, turn {last['turn']}: "
                                         f"{escape(what)}?</b>&nbsp;"), yes, no]

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
        with self._hush():
            with self.entry_player.hold_sync():
                self.entry_player.options = waiting
                self.entry_player.value = (last.get("player") if last.get("player") in waiting
                                           else (waiting[0] if waiting else None))
            if last.get("do") in [v for _, v in self.entry_action.options]:
                self.entry_action.value = last["do"]
            self.entry_card.value = last.get("card", "") if last.get("player") in waiting else ""
        self.say(f"Undone: {describe(last)}.")
        self.refresh()

    # -- unknown card values ---------------------------------------------------------------
    def _ask_values(self, name: str, fields, *, cell=None, box=None):
        """Show the card-values form for ``name`` (once: typed values are remembered)."""
        card = self.game.catalogue.get(name)
        if card is None:
            return None
        box = box if box is not None else self.form_box
        if box.children and self._form_for == card.name:
            return box.children[0]
        self._form_for = card.name
        player = self.entry_player.value
        form = CardForm(card, self.guarded(self._save_values), self.guarded(self._close_form),
                        missing=list(fields),
                        preview=self._previewer(player, cell) if card.category in (
                            "location", "conflict") else self._race_previewer(card.name))
        box.children = [form.box]
        form.focus()
        if box is self.form_box:
            self.hint.value = f"'{escape(card.name)}' needs its printed values before it can be used."
        return form.box

    def _previewer(self, player, cell):
        g = self.game

        def preview(card):
            return whatif.preview_card(g, card, player, tuple(cell) if cell else None)
        return preview if player else None

    def _race_previewer(self, name):
        g = self.game
        st = g.state
        owner = next((p for p, r in st.setup.races.items() if r.lower() == name.lower()), None)

        def preview(card):
            return whatif.preview_card(g, card, owner, None)
        return preview if owner else None

    def _close_form(self):
        self.form_box.children = []
        self._form_for = None

    def _save_values(self, card):
        self.game.define(card)         # refused (nothing saved) if it breaks the record
        save_user_card(card)
        self.store.merge_cards(self.gid, [card.to_dict()])   # StoreWriteFailed: form kept
        self._close_form()
        # replay the stored game: it also picks up values other pages saved meanwhile
        self.session.reload()
        self.timer.bind(self.gid, self.session.meta)
        self.say(f"Saved the values of '{card.name}' in your catalogue.")
        self.refresh()

    # -- final table ----------------------------------------------------------------------
    def _refresh_final(self):
        g = self.game
        if not g.state.finished:
            self.final_box.children = []
            return
        self._stop_timer()
        needs = g.final_needs()
        if needs["blocked"]:            # the mode panel above offers the fixes
            self.final_box.children = [self.final_msg, w.HTML(
                "<div class='final-blocked'><b>Before the final scoring:</b><ul>"
                + "".join(f"<li>{escape(b)}</li>" for b in needs["blocked"]) + "</ul></div>")]
            return
        if needs["values"] or needs["manual"]:
            self.final_box.children = [self.final_msg, *self._final_forms(needs)]
            return
        try:
            result = g.score()
        except UnknownCardValues as e:   # found only while scoring (e.g. types counted)
            self.final_box.children = [self.final_msg, *self._final_forms(
                {"values": [{"card": e.card, "fields": e.fields, "why": e.detail}], "manual": []})]
            return
        except IllegalAction as e:
            self.final_box.children = [self.final_msg, w.HTML(
                f"<div class='final-blocked'><b>Before the final scoring:</b> "
                f"{escape(e.detail)}</div>")]
            return
        t = result.table.rename(columns={"credits": "credits VP", "credits_left": "credits left",
                                         "during_game": "during game", "end_abilities": "end abilities",
                                         "empty_reactors": "empty reactors"})
        table_html = t.to_html(index=False, classes="final-table", border=0)
        lines_html = result.lines.to_html(index=False, classes="final-lines", border=0)
        full = g.to_record()
        full["meta"] = {k: v for k, v in self.timer.meta.items() if v is not None}
        rec = dumps(full)
        rec_link = base64.b64encode(rec.encode()).decode()
        csv = base64.b64encode(result.table.to_csv(index=False).encode()).decode()
        self.final_box.children = [self.final_msg, w.HTML(
            f"<div class='final-winner' style='font-size:1.3em;margin:6px 0'><b>★ "
            f"{escape(result.explanation)}</b></div>"
            f"<div class='final-tiebreak'>{escape(_tiebreak_words(result))}</div>"
            f"<div class='scroll-x'>{table_html}</div><details><summary>Every VP with its source"
            f"</summary><div class='scroll-x'>{lines_html}</div></details>"
            f"<p><a class='export-json export-link' download='among-the-stars-game.json' "
            f"href='data:application/json;base64,{rec_link}'>⬇ Export the record (JSON)</a>"
            f"<a class='export-csv export-link' download='final-table.csv' "
            f"href='data:text/csv;base64,{csv}'>⬇ Export the table (CSV)</a></p>"),
            self.final_details_box, self.exports.panel]
        self._fill_final_details()
        self._refresh_exports()

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

    def _final_forms(self, needs: dict) -> list:
        """Every value the final scoring still needs, on one screen: the printed
        values of races, objectives and cards (one form at a time, the rest
        listed), then what only the players can type (manual VP, claims)."""
        kids = [w.HTML("<h3 style='margin:4px 0'>Before the final table</h3>")]
        values = needs["values"]
        if values:
            items = "".join(f"<li><b>{escape(v['card'])}</b>: {escape(', '.join(v['fields']))}"
                            f" <small>({escape(v['why'])})</small></li>" for v in values)
            kids.append(w.HTML(f"<div class='final-values-list'>The final scoring needs the "
                               f"printed values of {len(values)} tile(s) or card(s):<ul>{items}"
                               "</ul></div>"))
            box = w.VBox()
            box.add_class("final-values")
            self._form_for = None
            self._ask_values(values[0]["card"], values[0]["fields"], box=box)
            kids.append(box)
        if needs["manual"]:
            kids.append(self._manual_form(needs["manual"]))
        return kids

    def _manual_form(self, requests: list[dict]):
        g = self.game
        rows, entries = [], []
        for req in requests:
            if req["kind"] == "objective":
                owner = req.get("player")
                opts = [("nobody", None)] + [(p, p) for p in g.state.setup.players
                                             if owner is None or p == owner]
                who = w.Dropdown(options=opts, description="claimed by",
                                 style={"description_width": "initial"})
                who.add_class("manual-who")
                vp = w.Text(description="VP", placeholder="VP on the objective")
                vp.add_class("manual-entry-vp")
                title = (f"Secret objective of {escape(owner)}: " if owner else "Objective ")
                rows.append(w.VBox([w.HTML(f"{title}<b>{escape(req['source'])}</b>"), who, vp]))
                entries.append((req, who, vp))
            else:
                vp = w.Text(description="VP", placeholder="VP it gives")
                vp.add_class("manual-entry-vp")
                where = f" at {req['at']}" if req.get("at") else ""
                rows.append(w.VBox([w.HTML(f"{escape(req['player'])}: <b>{escape(req['source'])}</b>"
                                           f"{escape(where)}"), vp]))
                entries.append((req, None, vp))
        save = w.Button(description="Save and score", button_style="success",
                        layout=w.Layout(width="auto"))
        save.add_class("manual-save")

        def do_save(_):
            new = []
            for req, who, vp in entries:
                txt = vp.value.strip()
                if who is not None and who.value is None:
                    new.append({"source": req["source"], "player": None, "vp": 0})
                    continue
                try:
                    v = int(txt)
                except ValueError:
                    raise CompanionError(f"VP for {req['source']}: type a whole number") from None
                entry = {"source": req["source"], "player": who.value if who else req["player"],
                         "vp": v}
                if req.get("at"):
                    entry["at"] = req["at"]
                new.append(entry)
            g.manual = self.store.add_manual(self.gid, new)
            self.say(f"Saved {len(new)} final-scoring entr{'y' if len(new) == 1 else 'ies'}.")
            self.refresh()
        save.on_click(self.guarded(do_save))
        box = w.VBox([w.HTML("<b>The final scoring needs a few values only you can read "
                             "from the table:</b>"), *rows, save])
        box.add_class("manual-form")
        return box


def _tiebreak_words(result) -> str:
    return {
        "vp": "Decided on victory points: no tie for first place.",
        "locations": "Tied on VP: the tie was broken by the most locations in the station "
                     "(reactors not counted).",
        "credits": "Tied on VP and on locations: the tie was broken by the most credits left.",
        "shared": "Tied on VP, locations and credits: the tied players share the victory.",
    }.get(result.decided_by, "")


def dashboard():
    """Build the dashboard and return its root widget (the notebook displays it)."""
    try:
        app = App()
    except StoreError as e:      # busy, not ours, cannot be opened: say so, change nothing
        return w.HTML(f"<div class='status-error' style='color:{ERR};font-weight:600'>⚠ "
                      f"{escape(str(e))}</div>")
    dashboard.app = app          # handy in a notebook: dashboard.app.game
    return app.root
