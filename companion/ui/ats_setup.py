"""The Among the Stars setup screen: players, mode, races and objectives, saved games, imports,
the catalogue link.  A part of :class:`companion.ui.ats_screen.AtsScreen`: it owns the setup
widgets and calls the engine (`decks.complete_choices` draws what the table did not choose)."""
from __future__ import annotations

import base64
from typing import Any

import ipywidgets as w

from ..core import chance
from ..table import playtime
from ..ats import decks
from ..ats.catalogue import Catalogue
from ..core.errors import CompanionError
from ..ats.game import START_CREDITS, Game
from ..ats.record import parse_record
from .modes import ModeSetup
from .setup_objectives import BoxObjectives
from .playdetails import DetailsForm
from .common import MAX_PLAYERS
from ..core.roles import Write
from .writes import writes
from .tablelist import every_table_switch, saved_games



class AtsSetup:
    """The setup screen of an :class:`~companion.ui.ats_screen.AtsScreen`."""

    # ================================================================== setup screen
    def __init__(self, screen) -> None:
        self.screen = screen
        self.guarded = screen.guarded
        self.say = screen.say
        self.error = screen.error
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
        # issue 50: the cards drawn that the list does not name, typed here (name only,
        # or their values now); picks made after a draw count
        self.drawn = None
        self.box_objectives = BoxObjectives(self)
        self.objective_pick.observe(self.guarded(lambda _: self.box_objectives.refresh()),
                                    "value")
        # issue 39: a game played without the companion, scored as its stations lie
        self.laid = w.Checkbox(value=False, description="Score a finished game: lay each "
                               "station as it lies on the table", indent=False,
                               style={"description_width": "initial"},
                               layout=w.Layout(width="auto"))
        self.laid.add_class("setup-laid")
        # ... or a game under way (issue 39): the stations as they lie now, then play on
        self.laid_now = w.Checkbox(value=False, description="A game under way: lay each station "
                                   "as it lies now, then play on from", indent=False,
                                   style={"description_width": "initial"},
                                   layout=w.Layout(width="auto"))
        self.laid_now.add_class("setup-laid-now")
        self.laid_year = w.Dropdown(options=[(f"year {y}", y) for y in range(1, 5)], value=1,
                                    layout=w.Layout(width="110px"))
        self.laid_year.add_class("setup-laid-year")
        self.laid_turn = w.Dropdown(options=[(f"turn {t}", t) for t in range(1, 8)], value=1,
                                    layout=w.Layout(width="110px"))
        self.laid_turn.add_class("setup-laid-turn")
        self.laid_at = w.HBox([self.laid_year, self.laid_turn,
                               w.HTML("<i>(the turn whose first card comes next)</i>")],
                              layout=w.Layout(display="none", flex_flow="row wrap"))
        self.laid.observe(self.guarded(lambda ch: self._laid_choice("final", ch["new"])), "value")
        self.laid_now.observe(self.guarded(lambda ch: self._laid_choice("now", ch["new"])),
                              "value")
        self.start_btn = w.Button(description="Start the game", button_style="primary", icon="play")
        self.start_btn.add_class("start-game")
        writes(self.start_btn, host_only=True)
        self.start_btn.on_click(self.guarded(lambda _: self.start_game()))
        self.saved = w.Select(options=[], rows=6, layout=w.Layout(width="auto", max_width="560px"))
        self.saved.observe(self.guarded(lambda _: self.screen.views_part.refresh_setup_join()), "value")
        self.saved.add_class("saved-games")
        self.every_table = every_table_switch(self.screen.store,
                                              self.guarded(lambda _: self._fill_saved()))
        self.resume_btn = w.Button(description="Resume", icon="folder-open")
        self.resume_btn.add_class("resume-game")
        self.resume_btn.on_click(self.guarded(lambda _: self.resume_selected()))
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Open a record",
                                   layout=w.Layout(width="auto"))
        self.upload.add_class("import-record")
        writes(self.upload, host_only=True)
        self.upload.observe(self.guarded(lambda ch: self.import_record()), "value")
        self.cat_upload = w.FileUpload(accept=".yaml,.yml", multiple=False,
                                       description="Import my cards",
                                       layout=w.Layout(width="auto"))
        self.cat_upload.add_class("import-cards")
        writes(self.cat_upload, host_only=True)
        self.cat_upload.observe(self.guarded(lambda ch: self.import_catalogue()), "value")
        self.cat_export = w.HTML()
        # the cards, races and objectives still unknown: fill a deck before playing
        self.catalogue_screen: Any = None   # CatalogueScreen, built when first opened
        self.catalogue_panel = w.Accordion(children=[w.VBox()], selected_index=None)
        self.catalogue_panel.set_title(0, "Cards still unknown: type their values before playing")
        self.catalogue_panel.add_class("catalogue-panel")
        writes(self.catalogue_panel)          # card values into my-cards.yaml
        self.catalogue_panel.observe(self.guarded(lambda _: self._open_catalogue()),
                                     "selected_index")
        self.box_only_note = w.HTML(
            "<i>The Revival box alone: no races and no objectives (they come with the base "
            "game's box, R 2.1).</i>", layout=w.Layout(display="none"))
        self.box_only_note.add_class("setup-box-only-note")
        self.use_races.observe(lambda _: self._setup_visibility(), "value")
        self.use_objectives.observe(lambda _: self._setup_visibility(), "value")
        self.limited.observe(lambda _: self._setup_visibility(), "value")
        self.mode_setup = ModeSetup(self)
        for b in self.name_boxes + [self.mode]:
            b.observe(self.guarded(lambda _: self.mode_setup.refresh()), "value")
        self.mode_setup.two_player.observe(lambda _: self._setup_visibility(), "value")
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
        # the new game's form: the host's page only (a seat or the table view starts nothing)
        self.new_game_box = writes(w.VBox([
            w.HTML("<h3>New game</h3><div>Players in seat order, clockwise:</div>"),
            w.HBox(self.name_boxes),
            self.options_panel, self.details_panel,
            self.box_only_note, self.use_races, self.race_box,
            self.use_objectives, w.VBox([self.objective_note, self.objective_pick,
                                         self.box_objectives.box]),
            self.laid, self.laid_now, self.laid_at, self.start_btn]), host_only=True)
        self.new_game_box.add_class("setup-new-game")
        self.setup_role_note = w.HTML(layout=w.Layout(display="none"))
        self.setup_role_note.add_class("setup-role-note")
        self.setup_screen = w.VBox([
            self.setup_role_note, self.new_game_box,
            w.HTML("<h3>Saved games</h3>"),
            self.saved, *self.every_table, w.HBox([self.resume_btn, self.upload]), self.screen.views_part.setup_join_panel,
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
            self.catalogue_screen = CatalogueScreen(on_saved=self.guarded(self._catalogue_saved),
                                                    save=self._save_catalogue_card)
            self.catalogue_panel.children = [self.catalogue_screen.box]
        else:
            self.catalogue_screen.refresh()

    def _save_catalogue_card(self, card):
        """The catalogue screen's *Save values*: the player's catalogue only (no game)."""
        self.screen.session.save_card(card, game=False)

    def _catalogue_saved(self, card):
        self.cat_export.value = self._catalogue_link()
        self.refresh_choices()
        self.say(f"Saved the values of '{card.name}' in your catalogue.")

    def refresh_choices(self) -> None:
        """The objective pick list and the race lists from the catalogue as it is now: a
        card typed on the catalogue screen is offered at once (issue 36: the pick list
        kept the shipped objective only, until a reload).  What was picked and is still
        there stays picked."""
        cat = Catalogue.default()
        objectives = tuple(cat.names("objective"))
        if tuple(self.objective_pick.options) != objectives:
            keep = tuple(o for o in self.objective_pick.value if o in objectives)
            self.objective_pick.options = objectives
            self.objective_pick.value = keep
        self.box_objectives.refresh()
        races = [("draw at random", "*")] + [(r, r) for r in cat.names("race")]
        for box in self.race_boxes:
            if [tuple(o) for o in box.options] != races:
                was = box.value
                box.options = races
                box.value = was if any(v == was for _, v in races) else "*"

    def _setup_visibility(self):
        # the Revival box alone holds no race and no objective (R 1; R 2.1: "if you have
        # a copy of Among the Stars ... you may also add ... Alien Races, Objectives")
        box_only = self.mode_setup.revival_box_only if hasattr(self, "mode_setup") else False
        for tick in (self.use_races, self.use_objectives):
            if box_only and tick.value:
                tick.value = False
            tick.disabled = box_only
        self.box_only_note.layout.display = "" if box_only else "none"
        self.race_box.layout.display = "" if self.use_races.value else "none"
        # one race selector per player typed (at least two)
        n = max(2, sum(1 for b in self.name_boxes if b.value.strip()))
        for i, (box, name) in enumerate(zip(self.race_boxes, self.name_boxes)):
            box.layout.display = "" if i < n else "none"
            box.description = name.value.strip() or f"Player {i + 1}"
        self.objective_pick.layout.display = "" if self.use_objectives.value else "none"
        self.objective_note.layout.display = "" if self.use_objectives.value else "none"
        self.bounds.layout.display = "" if self.limited.value else "none"
        self.box_objectives.refresh()

    def _fill_saved(self):
        """The saved games: this server's table's (every table's: no table, or the host's
        switch)."""
        games, self.saved.options = saved_games(self.screen.store, self.every_table)
        if games:
            self.saved.value = games[0]["id"]

    def show_setup(self):
        self.refresh_choices()
        self._fill_saved()
        self.screen.views_part.refresh_setup_join()
        self.cat_export.value = self._catalogue_link()
        self.screen.body.children = [self.setup_screen]
        self.screen.apply_role()

    def _catalogue_link(self) -> str:
        from ..ats.catalogue import dump_yaml, load_user_cards
        cards = load_user_cards()
        if not cards:
            return "<i>(no cards typed yet)</i>"
        data = base64.b64encode(dump_yaml(cards).encode()).decode()
        return (f"<a class='export-cards export-link' download='my-cards.yaml' "
                f"href='data:application/x-yaml;base64,{data}'>Export my cards ({len(cards)})</a>")

    def start_game(self):
        self.screen.session.require(Write.NEW_GAME)     # the page's role first
        names = [b.value.strip() for b in self.name_boxes if b.value.strip()]
        if len(names) < 2:
            raise CompanionError("Type at least 2 player names (2 to 6 players).")
        # the play details are checked first: a refused text starts nothing
        meta = self.setup_details.meta({})
        cat = Catalogue.default()
        options: dict[str, Any] = {"reactor_supply": int(self.supply.value)}
        if self.limited.value:
            try:
                b = [int(x) for x in self.bounds.value.replace(";", ",").split(",")]
            except ValueError:
                raise CompanionError("Limited Space area: type four whole numbers, e.g. -2, 2, -3, 3") from None
            options["limited_space"] = b
        drawn = self.drawn if self.drawn and self.drawn.get("players") == names else None
        # the new game's seed (issue 20): the draw's, else the Seed box's (a fresh one)
        seed = drawn["seed"] if drawn else self.mode_setup.seed_value()
        # what the table chose (after a draw too: the lists show the draw, and a pick
        # changed since counts, issue 50); the engine draws the rest from the seed
        # (decks.complete_choices).  The cards drawn from the box are typed by name.
        if self.mode_setup.revival_box_only:
            self._setup_visibility()        # races and objectives off, whatever was ticked
        use_objectives = self.use_objectives.value
        from_box = self.box_objectives.in_catalogue(cat) if use_objectives else []
        got = decks.complete_choices(
            names, races={p: (None if self.race_boxes[i].value == "*" else self.race_boxes[i].value)
                          for i, p in enumerate(names)},
            objectives=list(self.objective_pick.value), use_races=self.use_races.value,
            use_objectives=use_objectives, catalogue=cat, seed=seed, from_box=from_box)
        races, objectives, secret = got["races"], got["objectives"], got["secret_objectives"]
        want = decks.objectives_wanted(len(names))
        if use_objectives and len(objectives) < want and self.box_objectives.count():
            raise CompanionError(
                f"{len(objectives)} objective(s) named for {len(names)} players: type the name "
                "of each objective card drawn from the box under 'Drawn from the box' (what it "
                "measures can wait for the end), or untick Objectives.")
        options.update(self.mode_setup.options(names))
        if self.laid.value:
            options["laid"] = "final"
        elif self.laid_now.value:
            options["laid"] = "now"
            options["laid_at"] = {"year": int(self.laid_year.value),
                                  "turn": int(self.laid_turn.value)}
        if drawn:
            # the draw's notes and its races taken from the box stay; a box unticked after
            # the draw is the table's choice (no races, no objectives), and the lists as
            # they are now are what the table plays (issue 50: a pick after a draw counts)
            kept = decks.without_modules(
                drawn, races=self.use_races.value,
                objectives=use_objectives and len(objectives) < want)
            boxed = set((kept["options"].get("races_from_box") or ()))
            races = {p: r for p, r in races.items()
                     if not (p in boxed and self.race_boxes[names.index(p)].value == "*")}
            secret = kept["secret_objectives"]
            options = {**kept["options"], **options}
        # a card drawn from the box known by its name only joins the player's catalogue
        # (its values null until typed) before the game is made: the record carries it
        for card in self.box_objectives.cards(cat) if use_objectives else ():
            self.screen.session.save_card(card, game=False)
        setup = {"players": names, "mode": self.mode.value, "races": races,
                 "objectives": objectives, "options": options}
        if secret:
            setup["secret_objectives"] = secret
        game = Game(chance.new_game(setup, seed), catalogue=Catalogue.default())
        rec = game.to_record()
        # the play timer starts with the game (not for a game already played)
        laid = options.get("laid")
        rec["meta"] = meta if laid else playtime.start(meta)
        gid = self.screen.session.create(rec)
        self.mode_setup.next_game()
        self.box_objectives.clear()
        self.refresh_choices()           # the cards typed by name join the pick list
        self.setup_details.notes.value = ""       # the location stays for the next game
        self.screen.open_game(gid)
        extra = ""
        if objectives:
            extra += f" Objectives: {', '.join(objectives)}."
        if races:
            extra += " Races: " + ", ".join(f"{p} {r}" for p, r in races.items()) + "."
            # Qualeen (B FAQ): the player draws the physical card; the page asks which one
            notes = decks.secret_notes(races, game.catalogue)
            if notes:
                extra += " " + " ".join(notes)
        if laid:
            self.laid.value = self.laid_now.value = False
            if laid == "now":
                at = options["laid_at"]
                self.say(f"Game under way at year {at['year']}, turn {at['turn']}: lay each "
                         "player's station as it lies now, with the credits in front of them "
                         "and the VP on the score track (each seat's page lays its own); then "
                         f"play on, every rule checked. The play timer is not started.{extra}")
                return
            self.say("New game to score: lay each player's station as it lies on the table "
                     f"(each seat's page lays its own).{extra}")
            return
        self.say(f"New game started. Year 1 begins: everyone takes {START_CREDITS} credits.{extra}")

    def _laid_choice(self, which: str, on: bool) -> None:
        """A finished game or one under way: one or the other, the turn shown with it."""
        if on:
            (self.laid_now if which == "final" else self.laid).value = False
        self.laid_at.layout.display = "" if self.laid_now.value else "none"

    def resume_selected(self):
        if not self.saved.value:
            raise CompanionError("Choose a saved game first.")
        self.screen.open_game(self.saved.value)
        self.say("Game resumed.")

    def import_record(self):
        files = self.upload.value
        if not files:
            return
        self.screen.session.require(Write.IMPORT)      # before the file is even read
        f = files[0]
        content = bytes(f["content"]) if isinstance(f, dict) else bytes(f.content)
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            raise CompanionError("That file is not a text (JSON) game record.") from None
        rec = parse_record(text, f.get("name", "record") if isinstance(f, dict) else f.name)
        Game.from_record(rec)           # refuse anything that does not replay
        gid = self.screen.session.create(rec, title=(rec.get("meta") or {}).get("title"),
                                  write=Write.IMPORT)
        self.screen.open_game(gid)
        self.say(f"Opened the record with {len(rec.get('actions') or [])} actions.")

    def import_catalogue(self):
        import tempfile, os
        files = self.cat_upload.value
        if not files:
            return
        self.screen.session.require(Write.IMPORT)      # before the file is even read
        f = files[0]
        content = bytes(f["content"]) if isinstance(f, dict) else bytes(f.content)
        with tempfile.NamedTemporaryFile("wb", suffix=".yaml", delete=False) as t:
            t.write(content)
        try:
            names = self.screen.session.import_catalogue(t.name)
        finally:
            os.unlink(t.name)
        self.cat_export.value = self._catalogue_link()
        if self.screen.gid:
            self.screen.reload()
        self.say(f"Imported {len(names)} card(s) into your catalogue.")

