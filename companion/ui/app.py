"""The table companion dashboard (ipywidgets).  Calls the engine and nothing else.

Screens: *setup* (new game, saved games) and *play* (turn entry, live board,
undo, final table).  Every accepted action is written to the SQLite store at
once; the game shown is always the replay of the stored record.
"""
from __future__ import annotations

import base64
import itertools
import logging
import random
import traceback
from html import escape

import ipywidgets as w

from .. import render
from ..catalogue import Catalogue, save_user_card
from ..errors import CompanionError, IllegalAction, MissingEntry, UnknownCardValues
from ..game import Game
from ..paths import user_dir
from ..record import dumps, parse_record
from ..store import StaleGame, Store
from .cardform import CardForm
from .explorer import Explorer
from .modes import ModePanel, ModeSetup
from .quiet import Quiet

log = logging.getLogger("companion.ui")
MAX_PLAYERS = 6
CELL_PX = 58
ERR = "#b00020"
LEGAL = "#9be7a8"          # legal cells: green reads as "you may build here"
STYLE = """<style>
.companion-root .grid-cell { white-space: normal !important; line-height: 1.05;
  font-size: 10px; padding: 1px !important; overflow: hidden; }
.companion-root .grid-cell.legal { font-size: 20px; font-weight: bold; }
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


class App:
    def __init__(self, store: Store | None = None):
        logging.basicConfig(filename=str(_log_path()), level=logging.INFO)
        self.store = store or Store()
        self.game: Game | None = None
        self.gid: str | None = None
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
        self.root = w.VBox([w.HTML(STYLE), self.title, self.status, self.tabs])
        self.root.add_class("companion-root")
        self._build_setup()
        self._build_play()
        if self.store.notice:
            self.error(self.store.notice)
        self._start()

    # -- status -----------------------------------------------------------------------
    def say(self, text: str, colour: str = OK):
        self.status.value = f"<div style='color:{colour};font-weight:600;padding:4px 0'>{escape(text)}</div>"

    def error(self, text: str):
        self.status.value = (f"<div class='status-error' style='color:{ERR};font-weight:600;"
                             f"padding:4px 0'>⚠ {escape(text)}</div>")

    def guarded(self, fn):
        """Wrap a callback: a rule message goes to the status area, never a traceback."""
        def run(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except StaleGame as e:
                self._reload()
                self.error(str(e))
            except CompanionError as e:
                self.error(str(e))
            except Exception as e:   # a bug: log it, tell the players nothing was lost
                log.error("callback failed:\n%s", traceback.format_exc())
                self.error(f"Something went wrong ({type(e).__name__}: {e}). Everything you "
                           f"entered is saved; the details are in {_log_path()}.")
        return run

    def _tab_opened(self):
        if self.tabs.selected_index == 2:
            if self.history is None:
                from .history_tab import HistoryTab
                self.history = HistoryTab(self)
                self.history_box.children = [self.history.box]
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
        self.show_setup()

    # ================================================================== setup screen
    def _build_setup(self):
        cat = Catalogue.default()
        self.name_boxes = []
        for i in range(MAX_PLAYERS):
            t = w.Text(placeholder=f"Player {i + 1}" + (" (optional)" if i >= 2 else ""),
                       layout=w.Layout(width="220px"))
            t.add_class(f"player-name-{i + 1}")
            self.name_boxes.append(t)
        self.mode = w.Dropdown(options=[("Standard", "standard"), ("Aggressive", "aggressive")],
                               value="standard", description="Mode")
        self.mode.add_class("setup-mode")
        self.supply = w.BoundedIntText(value=16, min=0, max=64, description="Reactors",
                                       tooltip="Power Reactor cards in the supply (16 in the base game)")
        self.limited = w.Checkbox(value=False, description="Limited Space variant")
        self.bounds = w.Text(value="-2, 2, -3, 3", description="area",
                             placeholder="min row, max row, min col, max col")
        self.use_races = w.Checkbox(value=False, description="Races")
        self.use_races.add_class("setup-races")
        race_opts = [("draw at random", "*")] + [(r, r) for r in cat.names("race")]
        self.race_boxes = [w.Dropdown(options=race_opts, value="*", description=f"Player {i + 1}")
                           for i in range(MAX_PLAYERS)]
        self.race_box = w.VBox(self.race_boxes)
        self.use_objectives = w.Checkbox(value=False, description="Objectives")
        self.use_objectives.add_class("setup-objectives")
        self.objective_pick = w.SelectMultiple(options=cat.names("objective"),
                                               description="pick", rows=4)
        self.objective_note = w.HTML("<i>Pick objectives, or pick none to draw as many as "
                                     "players (2 in a 2-player game).</i>")
        self.start_btn = w.Button(description="Start the game", button_style="primary", icon="play")
        self.start_btn.add_class("start-game")
        self.start_btn.on_click(self.guarded(lambda _: self.start_game()))
        self.saved = w.Select(options=[], rows=6, layout=w.Layout(width="420px"))
        self.saved.add_class("saved-games")
        self.resume_btn = w.Button(description="Resume", icon="folder-open")
        self.resume_btn.add_class("resume-game")
        self.resume_btn.on_click(self.guarded(lambda _: self._resume_selected()))
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Open a record")
        self.upload.add_class("import-record")
        self.upload.observe(self.guarded(lambda ch: self._import_record()), "value")
        self.cat_upload = w.FileUpload(accept=".yaml,.yml", multiple=False,
                                       description="Import my cards")
        self.cat_upload.observe(self.guarded(lambda ch: self._import_catalogue()), "value")
        self.cat_export = w.HTML()
        self.use_races.observe(lambda _: self._setup_visibility(), "value")
        self.use_objectives.observe(lambda _: self._setup_visibility(), "value")
        self.limited.observe(lambda _: self._setup_visibility(), "value")
        self.drawn = None
        self.mode_setup = ModeSetup(self)
        for b in self.name_boxes + [self.mode]:
            b.observe(self.guarded(lambda _: self.mode_setup.refresh()), "value")
        self.setup_screen = w.VBox([
            w.HTML("<h3>New game</h3><div>Players in seat order, clockwise:</div>"),
            w.VBox([w.HBox(self.name_boxes[:3]), w.HBox(self.name_boxes[3:])]),
            w.HBox([self.mode, self.supply]),
            w.HBox([self.limited, self.bounds]),
            self.mode_setup.box,
            self.use_races, self.race_box,
            self.use_objectives, w.VBox([self.objective_note, self.objective_pick]),
            self.start_btn,
            w.HTML("<h3>Saved games</h3>"),
            self.saved, w.HBox([self.resume_btn, self.upload]),
            w.HTML("<h3>My cards</h3><div>The printed values you typed are kept in your own "
                   "catalogue. Export it to share it, import one from a friend.</div>"),
            w.HBox([self.cat_upload, self.cat_export]),
        ])
        self.setup_screen.add_class("setup-screen")
        self._setup_visibility()

    def _setup_visibility(self):
        self.race_box.layout.display = "" if self.use_races.value else "none"
        self.objective_pick.layout.display = "" if self.use_objectives.value else "none"
        self.objective_note.layout.display = "" if self.use_objectives.value else "none"
        self.bounds.layout.display = "" if self.limited.value else "none"

    def show_setup(self):
        games = self.store.games()
        self.saved.options = [(f"{g['title']} · {g['actions']} actions", g["id"]) for g in games]
        if games:
            self.saved.value = games[0]["id"]
        self.cat_export.value = self._catalogue_link()
        self.body.children = [self.setup_screen]

    def _catalogue_link(self) -> str:
        from ..catalogue import dump_yaml, load_user_cards
        cards = load_user_cards()
        if not cards:
            return "<i>(no cards typed yet)</i>"
        data = base64.b64encode(dump_yaml(cards).encode()).decode()
        return (f"<a class='export-cards' download='my-cards.yaml' "
                f"href='data:application/x-yaml;base64,{data}'>Export my cards ({len(cards)})</a>")

    def start_game(self):
        names = [b.value.strip() for b in self.name_boxes if b.value.strip()]
        if len(names) < 2:
            raise CompanionError("Type at least 2 player names (2 to 6 players).")
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
        gid = self.store.create(game.to_record())
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
        from ..catalogue import import_user_catalogue
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
        self.say(f"Imported {len(names)} card(s) into your catalogue.")

    # ================================================================== play screen
    def _build_play(self):
        self.turn_info = w.HTML()
        self.turn_info.add_class("turn-info")
        self.scoreboard = w.HTML()
        self.scoreboard.add_class("scoreboard")
        self.entry_player = w.Dropdown(description="Player")
        self.entry_player.add_class("entry-player")
        self.entry_card = w.Combobox(placeholder="type the card's name", description="Card",
                                     ensure_option=False, layout=w.Layout(width="340px"))
        self.entry_card.add_class("entry-card")
        self.entry_action = w.ToggleButtons(options=[("Build location", "build"),
                                                     ("Build reactor", "reactor"),
                                                     ("Discard for 3 credits", "discard")],
                                            value="build")
        self.entry_action.add_class("entry-action")
        self.discard_btn = w.Button(description="Discard for 3 credits", button_style="warning")
        self.discard_btn.add_class("do-discard")
        self.discard_btn.on_click(self.guarded(lambda _: self._discard()))
        self.hint = w.HTML()
        self.hint.add_class("entry-hint")
        self.grid = w.GridBox()
        self.grid.add_class("station-grid")
        self.extra = w.VBox()
        self.extra.add_class("entry-extra")
        self.form_box = w.VBox()
        self.undo_btn = w.Button(description="Undo last action", icon="undo")
        self.undo_btn.add_class("undo")
        self.undo_btn.on_click(self.guarded(lambda _: self._ask_undo()))
        self.undo_box = w.HBox()
        self.undo_box.add_class("undo-confirm")
        self.new_btn = w.Button(description="New game / saved games", icon="plus")
        self.new_btn.add_class("new-game")
        self.new_btn.on_click(self.guarded(lambda _: self.show_setup()))
        self.stations = w.HTML()
        self.stations.add_class("stations")
        self.final_box = w.VBox()
        self.final_box.add_class("final")
        self._quiet = False      # set while the app itself resets the entry widgets
        self.entry_player.observe(self.guarded(lambda _: self._quiet or self._player_changed()),
                                  "value")
        self.entry_card.observe(self.guarded(lambda _: self._quiet or self._refresh_entry()), "value")
        self.entry_action.observe(self.guarded(lambda _: self._quiet or self._refresh_entry()),
                                  "value")
        self.entry = w.VBox([w.HBox([self.entry_player, self.entry_card]), self.entry_action,
                             self.hint, self.form_box, self.grid, self.extra, self.discard_btn])
        self.entry.add_class("turn-entry")
        self.explorer = Explorer(self)
        self.mode_panel = ModePanel(self)
        self.play_screen = w.VBox([
            self.turn_info, self.scoreboard, self.mode_panel.box, self.entry, self.final_box,
            w.HBox([self.undo_btn, self.new_btn]), self.undo_box, self.explorer.box,
            w.HTML("<h4 style='margin:6px 0'>Stations</h4>" + render.legend_html()),
            self.stations])
        self.play_screen.add_class("play-screen")

    def open_game(self, gid: str):
        rec = self.store.load(gid)
        game = Game.from_record(rec)
        self.gid, self.game = gid, game
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
        self.explorer.reset(game)
        self._pending = None
        self.form_box.children = []
        self.undo_box.children = []
        self.body.children = [self.play_screen]
        self.refresh()

    def _reload(self):
        if self.gid:
            self.game = Game.from_record(self.store.load(self.gid))
            self._pending = None
            self.refresh()

    # -- refresh ---------------------------------------------------------------------
    def refresh(self):
        g = self.game
        st = g.state
        self._refresh_info()
        self._refresh_scoreboard()
        self.mode_panel.refresh()
        waiting = self._waiting()
        if self.entry_player.options != tuple(waiting):
            keep = self.entry_player.value if self.entry_player.value in waiting else None
            # one message for options + selection: otherwise the browser briefly shows
            # the first name and a pick made in that instant is lost (index is synced)
            with self.entry_player.hold_sync():
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
        self.turn_info.value = (
            f"<div style='font-size:1.15em'><b>Year {st.year}</b> · <b>Turn {st.turn}</b> of {n} · "
            f"cards pass {st.passing} {arrow} · reactors left in supply: {st.reactor_supply}</div>"
            f"<div>Waiting for: <b>{waiting}</b></div>")

    def _refresh_scoreboard(self):
        st = self.game.state
        rows = []
        for p in st.setup.players:
            ps = st.players[p]
            last = ps.last
            if last:
                what = f"Y{last['year']}T{last['turn']}: {describe(last)[len(p) + 1:]}"
            else:
                what = "—"
            acted = "✓" if p in st.acted else ""
            race = st.setup.races.get(p, "")
            rows.append(
                f"<tr class='score-row' data-player='{escape(p)}'><td><b>{escape(p)}</b> "
                f"<small>{escape(race)}</small></td><td class='vp'>{ps.vp}</td>"
                f"<td class='credits'>{ps.credits}</td><td class='cubes'>{ps.station.cubes()}</td>"
                f"<td class='locations'>{len(ps.station.locations(reactors=False))}</td>"
                f"<td>{acted}</td><td><small>{escape(what)}</small></td></tr>")
        self.scoreboard.value = (
            "<table class='score-table' style='border-collapse:collapse;min-width:60%'>"
            "<tr style='text-align:left;border-bottom:1px solid #999'><th>Player</th><th>VP</th>"
            "<th>Credits</th><th>Cubes left</th><th>Locations</th><th>Acted</th>"
            "<th>Last action</th></tr>" + "".join(rows) + "</table>")

    def _refresh_stations(self):
        st = self.game.state
        parts = []
        for p in st.setup.players:
            svg = render.station_svg(st.players[p].station, title=p, cell_size=56)
            parts.append(f"<div class='station' style='display:inline-block;vertical-align:top;"
                         f"margin:6px 14px 6px 0'>{svg}</div>")
        self.stations.value = "".join(parts)

    def _player_changed(self):
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
        if player is None:
            self._draw_grid(None, set())
            return
        name = self._card_name()
        legal: set = set()
        self.hint.value = ""
        if do == "discard":
            self.hint.value = "Discard the selected card and take 3 credits."
        elif not name:
            self.hint.value = "Type the selected card's name first."
        elif g.catalogue.get(name) is None:
            sug = g.catalogue.suggest(name)
            self.hint.value = (f"<span style='color:{ERR}'>No card called '{escape(name)}'."
                               + (f" Did you mean {escape(', '.join(sug))}?" if sug else "")
                               + "</span>")
        elif do == "conflict":
            if g.catalogue.get(name).category != "conflict":
                self.hint.value = (f"<span style='color:{ERR}'>'{escape(name)}' is not a Conflict "
                                   "card (type 'Conflict card' or a conflict from your "
                                   "catalogue).</span>")
            else:
                self.hint.value = "Apply the Conflict: it costs 1 credit."
                self.extra.children = self.mode_panel.conflict_form(player, name)
        elif do == "remove_spaceships":
            self.hint.value = "Discard the selected card and remove up to 3 spaceships."
            self.extra.children = self.mode_panel.remove_ships_form(player, name)
        elif g.catalogue.get(name).category == "conflict" and do == "build":
            self.hint.value = (f"<span style='color:{ERR}'>A Conflict card cannot be built: apply "
                               "it (1 credit), build a reactor or discard it.</span>")
        elif do == "reactor":
            legal = set(g.legal_cells(player, do="reactor"))
            self.hint.value = ("Click a highlighted cell to build a Power Reactor (1 credit, 2 cubes)."
                               if legal else "No Power Reactor can be built now (credits or supply).")
        else:
            try:
                legal = set(g.legal_cells(player, name))
                self.form_box.children = []
                self.hint.value = ("Click a highlighted cell to build it." if legal else
                                   "No legal cell for this card now: click a cell to see why, "
                                   "or choose another action.")
            except UnknownCardValues as e:
                self._ask_values(e.card, e.fields)
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
        if player is None or g.state.finished:
            return
        if do == "discard":
            raise CompanionError("Discard is selected: press 'Discard for 3 credits', or choose "
                                 "Build location / Build reactor to use the grid.")
        name = self._card_name()
        if not name:
            raise CompanionError("Type the selected card's name first.")
        action = {"player": player, "do": do, "card": name, "at": list(cell)}
        if do == "build":
            card = g.card(name)        # unknown name -> clear message
            missing = card.unknown_for_build()
            if missing:
                self._ask_values(card.name, missing)
                raise UnknownCardValues(card.name, missing, action=action)
            g.check(action)            # illegal click -> its rule message, nothing changes
            extras = self._extras(player, card, cell)
            if extras:
                self._pending = action
                self.extra.children = extras
                self.hint.value = f"Build {escape(card.name)} at {list(cell)}: choose below, then confirm."
                return
        self._push(action)

    def _extras(self, player, card, cell) -> list:
        """Widgets for the choices a build needs (energy payer, School choices, manual VP)."""
        g = self.game
        kids = []
        self._energy_choice = None
        self._school = {}
        self._manual = None
        ship_widgets, self._ships = self.mode_panel.spaceship_choices(player, card)
        kids += ship_widgets
        if card.energy:
            payers = [(c, cubes) for c, _, cubes in g.payers(player, cell)]
            combos = []
            for combo in itertools.combinations_with_replacement([c for c, _ in payers], card.energy):
                if all(combo.count(c) <= cubes for c, cubes in payers):
                    combos.append(combo)
            if len(combos) > 1:
                station = g.state.station(player)
                default = tuple(station.default_energy(cell, card.energy))
                opts = []
                for combo in combos:
                    parts = [f"{station.cells[c].label} {list(c)} ×{combo.count(c)}"
                             for c in dict.fromkeys(combo)]
                    opts.append((" + ".join(parts) + (" (default)" if tuple(combo) == default else ""),
                                 combo))
                self._energy_choice = w.RadioButtons(options=opts, value=default,
                                                     description="Energy from")
                self._energy_choice.add_class("energy-from")
                kids.append(self._energy_choice)
        for ab in card.abilities or ():
            if ab.get("when") != "immediate":
                continue
            if "choice" in ab:
                kids.append(w.HTML(f"<b>{escape(card.name)}</b>: each other player secretly chooses "
                                   f"to pay {ab['pay']} credit or lose {ab['lose']} VP."))
                for other in g.state.setup.players:
                    if other == player:
                        continue
                    t = w.ToggleButtons(options=[("pay 1 credit", "pay"), ("lose 2 VP", "lose")],
                                        value=None, description=other)
                    t.add_class(f"school-{g.state.setup.players.index(other) + 1}")
                    self._school[other] = t
                    kids.append(t)
            if "manual" in ab:
                self._manual = w.Text(description="VP gained", placeholder="VP the ability gives now")
                self._manual.add_class("manual-vp")
                kids.append(self._manual)
        if kids:
            ok = w.Button(description="Confirm build", button_style="success", icon="check")
            ok.add_class("confirm-build")
            ok.on_click(self.guarded(lambda _: self._confirm()))
            no = w.Button(description="Cancel")
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
                raise CompanionError(f"Waiting for the choice of {', '.join(missing)} "
                                     "(pay 1 credit or lose 2 VP).")
            action["choices"] = {p: t.value for p, t in self._school.items()}
        if self._ships is not None:
            action["spaceships"] = self._ships()
        if self._manual is not None:
            try:
                action["manual_vp"] = int(self._manual.value.strip())
            except ValueError:
                raise CompanionError("Type the VP the ability gives as a whole number.") from None
        self._push(action)

    def _cancel_pending(self):
        self._pending = None
        self.extra.children = []
        self._refresh_entry()

    def _discard(self):
        name = self._card_name()
        player = self.entry_player.value
        if player is None:
            raise CompanionError("Everyone has acted; nothing to enter.")
        if not name:
            raise CompanionError("Type the discarded card's name first (discards are public).")
        self._push({"player": player, "do": "discard", "card": name})

    def push_entry(self, action: dict):
        """Any record entry from the mode panels (same path as a turn action)."""
        self._push(action)

    def _push(self, action: dict):
        g = self.game
        before_year = g.state.year
        norm = g.push(action)
        try:
            self.store.append(self.gid, len(g.actions) - 1, norm)
        except BaseException:
            g.pop()
            raise
        self._pending = None
        self.extra.children = []
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
        yes = w.Button(description="Yes, undo it", button_style="danger")
        yes.add_class("undo-yes")
        no = w.Button(description="Keep it")
        no.add_class("undo-no")
        yes.on_click(self.guarded(lambda _: self._undo()))
        no.on_click(self.guarded(lambda _: setattr(self.undo_box, "children", [])))
        self.undo_box.children = [w.HTML(f"<b>Undo year {last['year']}, turn {last['turn']}: "
                                         f"{escape(what)}?</b>&nbsp;"), yes, no]

    def _undo(self):
        g = self.game
        self.store.pop(self.gid, len(g.actions) - 1)
        last = g.pop()
        self.undo_box.children = []
        self.say(f"Undone: {describe(last)}.")
        self.refresh()

    # -- unknown card values ---------------------------------------------------------------
    def _ask_values(self, name: str, fields):
        card = self.game.catalogue.get(name)
        if card is None:
            return
        if self.form_box.children and getattr(self, "_form_for", None) == card.name:
            return
        self._form_for = card.name
        form = CardForm(card, self.guarded(self._save_values), self.guarded(self._close_form),
                        missing=list(fields))
        self.form_box.children = [form.box]
        self.hint.value = f"'{escape(card.name)}' needs its printed values before it can be used."

    def _close_form(self):
        self.form_box.children = []
        self._form_for = None

    def _save_values(self, card):
        save_user_card(card)
        self.game.define(card)
        self.store.set_cards(self.gid, [c.to_dict() for c in self.game.used_cards()
                                        if c.name.lower() in self.game._own])
        self._close_form()
        self.say(f"Saved the values of '{card.name}' in your catalogue.")
        self.refresh()

    # -- final table ----------------------------------------------------------------------
    def _refresh_final(self):
        g = self.game
        if not g.state.finished:
            self.final_box.children = []
            return
        try:
            result = g.score()
        except MissingEntry as e:
            self.final_box.children = [self._manual_form(e.needed)]
            return
        except IllegalAction as e:      # round-end fixes or advisors still to settle
            self.final_box.children = [w.HTML(
                f"<div class='final-blocked'><b>Before the final scoring:</b> "
                f"{escape(e.detail)}</div>")]
            return
        except UnknownCardValues as e:
            self._ask_values(e.card, e.fields)
            self.final_box.children = [w.HTML(f"<b>{escape(str(e))}</b>"), self.form_box]
            return
        t = result.table.rename(columns={"credits": "credits VP", "credits_left": "credits left",
                                         "during_game": "during game", "end_abilities": "end abilities",
                                         "empty_reactors": "empty reactors"})
        table_html = t.to_html(index=False, classes="final-table", border=0)
        lines_html = result.lines.to_html(index=False, classes="final-lines", border=0)
        rec = dumps(g.to_record())
        rec_link = base64.b64encode(rec.encode()).decode()
        csv = base64.b64encode(result.table.to_csv(index=False).encode()).decode()
        self.final_box.children = [w.HTML(
            f"<div class='final-winner' style='font-size:1.3em;margin:6px 0'><b>★ "
            f"{escape(result.explanation)}</b></div>"
            f"<div class='final-tiebreak'>{escape(_tiebreak_words(result))}</div>"
            f"{table_html}<details><summary>Every VP with its source</summary>{lines_html}</details>"
            f"<p><a class='export-json' download='among-the-stars-game.json' "
            f"href='data:application/json;base64,{rec_link}'>Export the record (JSON)</a> · "
            f"<a class='export-csv' download='final-table.csv' "
            f"href='data:text/csv;base64,{csv}'>Export the table (CSV)</a></p>")]

    def _manual_form(self, needed: list[str]):
        g = self.game
        rows, entries = [], []
        book = self._manual_requests()
        for req in book:
            if req["kind"] == "objective":
                who = w.Dropdown(options=[("nobody", None)] + [(p, p) for p in g.state.setup.players],
                                 description="claimed by")
                vp = w.Text(description="VP", placeholder="VP on the objective")
                rows.append(w.VBox([w.HTML(f"Objective <b>{escape(req['source'])}</b>"), who, vp]))
                entries.append((req, who, vp))
            else:
                vp = w.Text(description="VP", placeholder="VP it gives")
                where = f" at {req['at']}" if req.get("at") else ""
                rows.append(w.VBox([w.HTML(f"{escape(req['player'])}: <b>{escape(req['source'])}</b>"
                                           f"{escape(where)}"), vp]))
                entries.append((req, None, vp))
        save = w.Button(description="Save and score", button_style="success")
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
            g.manual.extend(new)
            self.store.set_manual(self.gid, g.manual)
            self.say("Saved. Final table below.")
            self.refresh()
        save.on_click(self.guarded(do_save))
        box = w.VBox([w.HTML("<b>The final scoring needs a few values only you can read "
                             "from the table:</b>"), *rows, save])
        box.add_class("manual-form")
        return box

    def _manual_requests(self) -> list[dict]:
        """What the final scoring needs typed (mirrors scoring's MissingEntry)."""
        g = self.game
        st = g.state
        have = {(m["source"].lower(), m.get("player"), tuple(m["at"]) if m.get("at") else None)
                for m in g.manual}
        out = []
        for p in st.setup.players:
            for cell, placed in sorted(st.players[p].station.cells.items()):
                if placed.kind != "location":
                    continue
                card = g.catalogue.get(placed.card)
                for ab in card.abilities or ():
                    if ab.get("when") == "end" and "manual" in ab \
                            and (card.name.lower(), p, cell) not in have:
                        out.append({"kind": "ability", "source": card.name, "player": p,
                                    "at": list(cell)})
            race = g.catalogue.get(st.setup.races.get(p, "")) if p in st.setup.races else None
            if race is not None:
                for ab in race.abilities or ():
                    if ab.get("when") == "end" and "manual" in ab \
                            and (race.name.lower(), p, None) not in have:
                        out.append({"kind": "race", "source": race.name, "player": p})
        done = {m["source"].lower() for m in g.manual}
        for o in list(st.setup.objectives) + list(st.setup.secret_objectives.values()):
            obj = g.catalogue.get(o)
            if "most" not in obj.extra and "least" not in obj.extra and obj.name.lower() not in done:
                out.append({"kind": "objective", "source": obj.name})
        return out


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
    app = App()
    dashboard.app = app          # handy in a notebook: dashboard.app.game
    return app.root
