"""The Small Star Empires setup screen: players, map (with its preview), ships and pieces,
variants, the campaign's first game, the epic game; and the map editor.  Two parts of
:class:`companion.ui.sse_screen.SseScreen` (:class:`SseSetupForm`, :class:`SseEditor`).  The
numbers shown and offered (players, ships, pieces, the campaign's table) are the engine's
(companion.sse.offer)."""
from __future__ import annotations

import uuid

from ..core.htmlsafe import escape

import ipywidgets as w

from .playdetails import DetailsForm
from ..core import chance
from ..table import playtime
from ..core.errors import CompanionError
from ..sse import hexmap as hm
from ..sse import offer
from ..sse.game import FORMAT, SseGame, SseSetup
from ..sse.hexmap import HexMap
from ..sse.render import map_svg
from ..core.roles import Write
from .writes import writes
from .tablelist import every_table_switch, saved_games
from .sse_board import (PALETTE,
                        HexBoard, system_cell)
from .sse_laying import Laying
from .sse_tiles import FormDrawer, TileTyper
from .sse_protocol import SseScreenProtocol

#: the map choice that lays the map from the table's sector tiles (issue 24)
FROM_TILES = ":tiles"



class SseSetupForm:
    """The new-game form and the saved games of ``screen`` (``setup_screen``)."""

    def __init__(self, screen: SseScreenProtocol):
        self.screen = screen
        guarded = screen.guarded
        self.names = []
        for i in range(offer.seats()):
            t = w.Text(placeholder=f"Player {i + 1}" + (" (optional)" if offer.seat_optional(i) else ""),
                       layout=w.Layout(width="260px"))
            t.add_class(f"sse-name-{i + 1}")
            self.names.append(t)
        self.map_pick = w.Dropdown(description="Map", layout=w.Layout(width="360px"))
        self.map_pick.add_class("sse-map")
        self.map_pick.observe(guarded(lambda _: self._preview()), "value")
        self.map_note = w.HTML()
        self.map_preview = w.HTML()
        # the book's 2 to 4 ships (S Setup); 1 to 6 with custom pieces or in epic mode
        # (_ship_choices)
        self.ships = w.Dropdown(options=[("choose…", None)]
                                + [(str(n), n) for n in offer.ship_choices(False)],
                                value=None, description="Ships each")
        self.ships.add_class("sse-ships")
        lo, hi = offer.WIDE_SHIPS
        self.custom_pieces = w.Checkbox(description=f"Custom pieces, not the book's ({lo} to {hi} "
                                        "ships, any Cities and Trade Stations)")
        self.custom_pieces.add_class("sse-custom-pieces")
        self.custom_pieces.observe(lambda _: self._ship_choices(), "value")
        cities, trade = offer.box_pieces()
        self.cities = w.BoundedIntText(value=cities, min=0, max=offer.max_pieces(),
                                       description="Cities")
        self.trade = w.BoundedIntText(value=trade, min=0, max=offer.max_pieces(),
                                      description="Trade St.")
        self.v_damaged = w.Checkbox(description="Damaged ships (expansion effects)")
        self.v_unexplored = w.Checkbox(description="Unexplored systems on every empty system")
        self.v_open = w.Checkbox(description="Open borders")
        self.v_epic = w.Checkbox(description="Epic mode")
        self.v_campaign = w.Checkbox(description="Campaign mode: start a new campaign")
        self.v_campaign.add_class("sse-variant-campaign")
        self.v_campaign.observe(lambda _: self._setup_visibility(), "value")
        self.campaign_note = w.HTML(f"<small>{escape(offer.campaign_words())}</small>")
        n = offer.epic_columns()
        self.epic_table = w.Text(description="Epic table", placeholder=f"{n} numbers: VP for 1..{n} "
                                 "nebulae (from your rulebook; blank = ask at the end)",
                                 layout=w.Layout(width="520px"))
        for c, k in ((self.v_damaged, "damaged"), (self.v_unexplored, "unexplored"),
                     (self.v_open, "open"), (self.v_epic, "epic")):
            c.add_class(f"sse-variant-{k}")
        self.v_epic.observe(lambda _: self._setup_visibility(), "value")
        # issue 24: the map laid from our sector tiles; typing tiles, drawing forms
        self.laying = Laying(guarded, unexplored=lambda: self.v_unexplored.value)
        self.v_unexplored.observe(guarded(lambda _: self.laying.draw()), "value")
        self.tiles = TileTyper(screen.session, guarded, on_change=self.laying.refresh)
        self.forms = FormDrawer(screen.session, guarded, on_change=self.laying.refresh)
        self.tile_panel = w.Accordion(children=[self.tiles.box, self.forms.box],
                                      selected_index=None)
        self.tile_panel.set_title(0, "Sector tiles")
        self.tile_panel.set_title(1, "Forms")
        self.tile_panel.add_class("sse-tile-panel")
        writes(self.tile_panel)                   # a seat types tiles; the table view none
        # issue 39: a game played without the companion, scored as its pieces lie (sse_lay.py)
        self.laid = w.Checkbox(value=False, description="Score a finished game: lay each "
                               "player's pieces as they lie on the map", indent=False,
                               style={"description_width": "initial"},
                               layout=w.Layout(width="auto"))
        self.laid.add_class("sse-setup-laid")
        self.laid_now = w.Checkbox(value=False, description="A game under way: lay each "
                                   "player's pieces and ships as they lie now, then play on",
                                   indent=False, style={"description_width": "initial"},
                                   layout=w.Layout(width="auto"))
        self.laid_now.add_class("sse-setup-laid-now")
        self.laid.observe(guarded(lambda ch: self._one_laid(self.laid_now, ch["new"])), "value")
        self.laid_now.observe(guarded(lambda ch: self._one_laid(self.laid, ch["new"])), "value")
        self.start_btn = w.Button(description="Start the game", button_style="primary", icon="play")
        self.start_btn.add_class("sse-start")
        writes(self.start_btn, host_only=True)
        self.start_btn.on_click(guarded(lambda _: self.start_game()))
        self.saved = w.Select(options=[], rows=5, layout=w.Layout(width="420px"))
        self.saved.add_class("sse-saved")
        self.every_table = every_table_switch(self.screen.store,
                                              guarded(lambda _: self._fill_saved()))
        resume = w.Button(description="Resume", icon="folder-open")
        resume.add_class("sse-resume")
        resume.on_click(guarded(lambda _: self.resume()))
        edit = w.Button(description="Map editor", icon="pencil")
        edit.add_class("sse-edit-maps")
        writes(edit, host_only=True)
        edit.on_click(guarded(lambda _: screen.show_editor()))
        # one hand on a phone (issue 15): one column of names, the map and the ships, the
        # pieces and variants folded, the campaign, then Start; the saved games and the map
        # below
        self.options = w.Accordion(children=[w.VBox([
            w.HBox([self.cities, self.trade]),
            w.HTML(f"<div><small>{escape(offer.box_words())}</small></div>"),
            self.custom_pieces,
            self.v_damaged, self.v_unexplored, self.v_open, self.v_epic,
            self.epic_table])], selected_index=None)
        self.options.set_title(0, "Pieces and variants")
        self.options.add_class("sse-options")
        # play details (issue 16): location, notes, new players; folded
        self.setup_details = DetailsForm("sse-setup")
        self.details_panel = w.Accordion(children=[self.setup_details.box], selected_index=None)
        self.details_panel.set_title(0, "Play details: location, notes, new players")
        self.details_panel.add_class("sse-setup-details-panel")
        for t in self.names:
            t.observe(lambda _: self.setup_details.set_players(
                [x.value.strip() for x in self.names]), "value")
        self.map_preview.add_class("sse-map-preview")
        # the new game's form: the host's page only (a seat or the table view starts nothing)
        self.new_game_box = writes(w.VBox([
            w.HTML("<h4 style='margin:6px 0'>New game</h4>"
                   "<div>Players in turn order (the first one starts):</div>"),
            w.VBox(self.names),
            w.HBox([self.map_pick, edit]), self.map_note, self.laying.box,
            w.HTML(f"<div><small>Ships: the book says each player starts with "
                   f"{offer.ships_words()} ships depending on the number of players (see its "
                   "setup picture) — choose the number.</small></div>"),
            self.ships, self.options, self.details_panel, self.v_campaign, self.campaign_note,
            self.laid, self.laid_now, self.start_btn]), host_only=True)
        self.new_game_box.add_class("sse-setup-new-game")
        self.setup_role_note = w.HTML(layout=w.Layout(display="none"))
        self.setup_role_note.add_class("sse-setup-role-note")
        self.setup_screen = w.VBox([
            self.setup_role_note, self.new_game_box,
            w.HTML("<h4>Saved Small Star Empires games</h4>"), self.saved, *self.every_table,
            resume,
            self.map_preview, self.tile_panel])
        self.setup_screen.add_class("sse-setup")
        self._setup_visibility()

    def _setup_visibility(self):
        self.epic_table.layout.display = "" if self.v_epic.value else "none"
        self.campaign_note.layout.display = "" if self.v_campaign.value else "none"
        self.cities.disabled = self.trade.disabled = self.v_campaign.value
        self._ship_choices()

    def _ship_choices(self):
        """Ships per player: the book's ("each player starts with 2-4 ships"), or more
        with *Custom pieces* or in epic mode (the book's epic tables give more): the
        engine's choices (companion.sse.offer.ship_choices)."""
        values = offer.ship_choices(bool(self.custom_pieces.value or self.v_epic.value))
        if [v for _, v in self.ships.options][1:] == values:
            return
        keep = self.ships.value if self.ships.value in values else None
        self.ships.options = [("choose…", None)] + [(str(n), n) for n in values]
        self.ships.value = keep

    def _pieces_option(self, setup: dict) -> dict:
        """``setup`` with ``options.pieces: custom`` when its pieces are not the book's and
        *Custom pieces* is ticked; not ticked, such a setup is refused and the message says
        how it differs (the engine's SseSetup.off_book)."""
        off = SseSetup.from_dict({**setup, "options": {"pieces": "custom"}}).off_book()
        if not off:
            return setup
        if not self.custom_pieces.value:
            raise CompanionError("Not the book's pieces: " + "; ".join(off) + ". To play with "
                                 "them, tick 'Custom pieces' under Pieces and variants.")
        return {**setup, "options": {"pieces": "custom"}}

    def _refresh_maps(self, keep: str | None = None):
        names = list(hm.available_maps())
        opts = []
        for n in names:
            try:
                m = hm.load_named(n)
            except CompanionError:
                continue
            tag = " (approximate — adjust to your tiles)" if m.approximate else ""
            opts.append((f"{n}{tag}", n))
        opts.append(("From our sector tiles", FROM_TILES))
        self.map_pick.options = opts
        values = [v for _, v in opts]
        if keep in values:
            self.map_pick.value = keep
        elif "basic-2p" in values:
            self.map_pick.value = "basic-2p"

    def _preview(self):
        tiles = self.map_pick.value == FROM_TILES
        self.laying.box.layout.display = "" if tiles else "none"
        if tiles:
            self.laying.refresh()
            self.map_note.value = self.map_preview.value = ""
            return
        if not self.map_pick.value:
            self.map_note.value = self.map_preview.value = ""
            return
        m = hm.load_named(self.map_pick.value)
        note = m.note or ""
        warn = ("<div class='sse-map-approx' style='color:#8a4b00;font-weight:600'>⚠ Approximate "
                "layout: adjust it to your tiles in the map editor.</div>") if m.approximate else ""
        self.map_note.value = f"{warn}<div><small>{escape(note)}</small></div>"
        # the title above the picture: inside the SVG a long one was cut at the map's width
        self.map_preview.value = (f"<div><b>{escape(m.title or m.name)}</b></div>"
                                  + map_svg(m, size=14))

    def _fill_saved(self):
        """The saved Small Star Empires games: this server's table's (every table's: no
        table, or the host's switch)."""
        games, self.saved.options = saved_games(self.screen.store, self.every_table,
                                                format=FORMAT)
        if games:
            self.saved.value = games[0]["id"]

    def show(self):
        s = self.screen
        self._refresh_maps(self.map_pick.value)
        self._preview()
        self._fill_saved()
        self.tiles.refresh()
        s.body.children = [self.setup_screen]
        s.app.apply_role()

    def start_game(self):
        s = self.screen
        s.session.require(Write.NEW_GAME)     # the page's role first
        names = [b.value.strip() for b in self.names if b.value.strip()]
        if not offer.enough_players(names):
            raise CompanionError(f"Type at least {offer.seat_needed()} player names "
                                 f"({offer.players_words()}).")
        if self.ships.value is None:
            raise CompanionError(f"Choose how many ships each player starts with (the book: "
                                 f"{offer.ships_words()} depending on the number of players; see "
                                 "its setup picture).")
        if not self.map_pick.value:
            raise CompanionError("Choose a map.")
        # the play details are checked first: a refused text starts nothing
        details_meta = self.setup_details.meta({})
        tiles = self.map_pick.value == FROM_TILES
        # laid from our tiles: the laid map, and the seed its Shuffle drew from
        m = self.laying.laid() if tiles else hm.load_named(self.map_pick.value)
        setup = {"players": names, "map": m.to_dict(),
                 "pieces": {"ships": self.ships.value, "cities": int(self.cities.value),
                            "trade_stations": int(self.trade.value)},
                 "variants": {"damaged_ships": self.v_damaged.value,
                              "unexplored": self.v_unexplored.value,
                              "open_borders": self.v_open.value}}
        if self.v_epic.value:
            setup["mode"] = "epic"
            txt = self.epic_table.value.strip()
            if txt:
                try:
                    setup["nebula_table"] = offer.epic_numbers(txt)
                except ValueError:
                    raise CompanionError(f"Epic table: type {offer.epic_columns()} whole numbers, "
                                         "e.g. from your rulebook") from None
        record_meta = {}
        if self.v_campaign.value:
            setup["pieces"] = {"ships": self.ships.value}      # the book's campaign table
            setup["campaign"] = {"wins": {}, "game": 1}
            record_meta = {"campaign": uuid.uuid4().hex[:12]}
        setup = chance.new_game(self._pieces_option(setup),      # a fresh seed (issue 20)
                                self.laying.seed if tiles else None)
        laid = "final" if self.laid.value else "now" if self.laid_now.value else None
        if laid:                                  # the engine checks every lay entry
            setup["options"] = {**(setup.get("options") or {}), "laid": laid}
        game = SseGame(setup)
        rec = game.to_record()
        # the play timer starts with the game (not for a game played already)
        meta = {**details_meta, **record_meta}
        rec["meta"] = meta if laid else playtime.start(meta)
        title = f"Small Star Empires: {', '.join(names)}"
        if self.v_campaign.value:
            title += " (campaign game 1)"
        gid = s.session.create(rec, title=title)
        if tiles:
            self.laying.next_game()               # the next game shuffles anew
        self.setup_details.notes.value = ""       # the location stays for the next game
        s.open_game(gid)
        self._to_top()
        extra = " This map is approximate: check it matches your tiles." if m.approximate else ""
        if laid:
            self.laid.value = self.laid_now.value = False
            if laid == "now":
                s.app.say(f"Small Star Empires: game under way on '{m.name}': lay each player's "
                          "pieces and ships as they lie now, and say whose turn it is (each "
                          "seat's page lays its own); then play on, every rule checked. The "
                          f"play timer is not started.{extra}")
                return
            s.app.say(f"Small Star Empires: new game to score on '{m.name}': lay each player's "
                      f"pieces as they lie on the map (each seat's page lays its own).{extra}")
            return
        s.app.say(f"Small Star Empires: new game on '{m.name}'. {game.current} moves first.{extra}")

    def _one_laid(self, other: w.Checkbox, on: bool) -> None:
        """A finished game or one under way: ticking one unticks the other."""
        if on:
            other.value = False

    def resume(self):
        if not self.saved.value:
            raise CompanionError("Choose a saved game first.")
        self.screen.open_game(self.saved.value)
        self._to_top()
        self.screen.app.say("Small Star Empires: game resumed.")

    def _to_top(self):
        """From the setup screen to the play screen: the page may still be scrolled as far
        as the Start button was; focusing the timer (beside the turn line, the play
        screen's first row) brings the top row back into view."""
        self.screen.timer.button.focus()

class SseEditor:
    """The map editor of ``screen`` (``editor_screen``, the host's page only); its map
    list is ``setup``'s."""

    def __init__(self, screen: SseScreenProtocol, setup: SseSetupForm):
        self.screen = screen
        self.setup = setup
        guarded = screen.guarded
        self.ed_map: HexMap | None = None
        self.ed_base = w.Dropdown(description="Start from", layout=w.Layout(width="360px"))
        self.ed_base.add_class("sse-ed-base")
        load = w.Button(description="Load")
        load.add_class("sse-ed-load")
        load.on_click(guarded(lambda _: self.load()))
        self.ed_tool = w.Dropdown(options=[(label, i) for i, (label, _) in enumerate(PALETTE)],
                                  value=0, description="Set to")
        self.ed_tool.add_class("sse-ed-tool")
        self.ed_name = w.Text(description="Save as", placeholder="my-table")
        self.ed_name.add_class("sse-ed-name")
        save = w.Button(description="Save map", button_style="success", icon="save")
        save.add_class("sse-ed-save")
        save.on_click(guarded(lambda _: self.save()))
        back = w.Button(description="Back to the new game screen", layout=w.Layout(width="auto"))
        back.add_class("sse-ed-back")
        back.on_click(guarded(lambda _: screen.show_setup()))
        self.ed_info = w.HTML()
        self.ed_info.add_class("sse-ed-info")
        self.ed_board = HexBoard(guarded(self.click), css="sse-editor-board")
        self.editor_screen = w.VBox([
            w.HTML("<h4>Map editor</h4><div>Choose a system type, then click hexes to set them. "
                   "The faint hexes around the map add new systems; 'remove' takes one away. "
                   "Save under your own name: it appears in the map list.</div>"),
            w.HBox([self.ed_base, load]), w.HBox([self.ed_tool, self.ed_name, save, back]),
            self.ed_info, self.ed_board.grid])
        self.editor_screen.add_class("sse-editor")
        writes(self.editor_screen, host_only=True)

    def show(self):
        self.screen.session.require(Write.MAP)          # the host's page only
        pick = self.setup.map_pick
        self.setup._refresh_maps(pick.value)
        self.ed_base.options = [o for o in pick.options if o[1] != FROM_TILES]
        self.ed_base.value = (pick.value if pick.value != FROM_TILES
                              else next((v for _, v in self.ed_base.options), None))
        self.load()
        self.screen.body.children = [self.editor_screen]

    def load(self):
        if not self.ed_base.value:
            return
        self.ed_map = hm.load_named(self.ed_base.value)
        self.ed_name.value = self.ed_map.name if not self.ed_map.approximate else f"{self.ed_map.name}-mine"
        self.draw()

    def draw(self):
        m = self.ed_map
        cells = {}
        for h, s in m.systems.items():
            c = system_cell(s)
            c["tip"] = f"[{h[0]}, {h[1]}] {s.describe()}"
            cells[h] = c
        for h in list(m.systems):
            for n in hm.neighbours(h):
                if n not in m.systems and n not in cells:
                    cells[n] = {"label": "+", "fill": "#ffffff", "tip": f"[{n[0]}, {n[1]}] add a system",
                                "state": "ghost"}
        self.ed_board.draw(cells)
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(m.counts().items()))
        warn = (" <b style='color:#8a4b00'>Approximate starting layout: set every hex to your "
                "tiles.</b>") if m.approximate else ""
        self.ed_info.value = f"<div>{len(m)} systems — {escape(counts)}.{warn}</div>"

    def click(self, h):
        _, system = PALETTE[self.ed_tool.value]
        if system is None and len(self.ed_map) <= 1:
            raise CompanionError("A map needs at least one system.")
        self.ed_map.set(h, system)
        self.draw()

    def save(self):
        name = self.ed_name.value.strip()
        if not name:
            raise CompanionError("Type a name for your map.")
        m = self.ed_map
        m.approximate = False
        m.title = name
        m.note = "Edited in the map editor."
        m.players = offer.map_players(m.homeworlds())
        path = self.screen.session.save_map(m, name)
        self.setup._refresh_maps(name)
        self.screen.app.say(f"Saved the map '{name}' ({len(m)} systems) in {path}.")
