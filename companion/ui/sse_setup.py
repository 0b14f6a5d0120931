"""The Small Star Empires setup screen: players, map (with its preview), ships and pieces,
variants, the campaign and its next game, the epic game, the map editor.  A mixin of
:class:`companion.ui.sse_tab.SseTab`."""
from __future__ import annotations

from ..core.htmlsafe import escape

import ipywidgets as w

from .playdetails import DetailsForm
from ..core import chance
from ..table import playtime
from ..core.errors import CompanionError
from ..sse import hexmap as hm
from ..sse.game import BOOK_SHIPS, FORMAT, SseGame, SseSetup
from ..sse.hexmap import HexMap
from ..sse.render import map_svg
from ..core.roles import Write
from .writes import writes
from .sse_board import (PALETTE,
                        HexBoard, system_cell)

PLURAL = {"city": "Cities", "trade_station": "Trade Stations"}


class SseSetupScreen:
    """Methods of :class:`SseTab` (sse_tab.py); see the module docstring."""

    # ================================================================== setup
    def _build_setup(self):
        self.names = []
        for i in range(4):
            t = w.Text(placeholder=f"Player {i + 1}" + (" (optional)" if i >= 2 else ""),
                       layout=w.Layout(width="260px"))
            t.add_class(f"sse-name-{i + 1}")
            self.names.append(t)
        self.map_pick = w.Dropdown(description="Map", layout=w.Layout(width="360px"))
        self.map_pick.add_class("sse-map")
        self.map_pick.observe(self.guarded(lambda _: self._preview()), "value")
        self.map_note = w.HTML()
        self.map_preview = w.HTML()
        # the book's 2 to 4 ships (S Setup); 1 to 6 with custom pieces or in epic mode
        # (_ship_choices)
        self.ships = w.Dropdown(options=[("choose…", None)]
                                + [(str(n), n) for n in range(BOOK_SHIPS[0], BOOK_SHIPS[1] + 1)],
                                value=None, description="Ships each")
        self.ships.add_class("sse-ships")
        self.custom_pieces = w.Checkbox(description="Custom pieces, not the book's (1 to 6 "
                                        "ships, any Cities and Trade Stations)")
        self.custom_pieces.add_class("sse-custom-pieces")
        self.custom_pieces.observe(lambda _: self._ship_choices(), "value")
        self.cities = w.BoundedIntText(value=16, min=0, max=200, description="Cities")
        self.trade = w.BoundedIntText(value=4, min=0, max=200, description="Trade St.")
        self.v_damaged = w.Checkbox(description="Damaged ships (expansion effects)")
        self.v_unexplored = w.Checkbox(description="Unexplored systems on every empty system")
        self.v_open = w.Checkbox(description="Open borders")
        self.v_epic = w.Checkbox(description="Epic mode")
        self.v_campaign = w.Checkbox(description="Campaign mode: start a new campaign")
        self.v_campaign.add_class("sse-variant-campaign")
        self.v_campaign.observe(lambda _: self._setup_visibility(), "value")
        self.campaign_note = w.HTML("<small>Campaign pieces per player (the book): 2 players 14 "
                                    "Cities and 4 Trade Stations, 3 players 12 and 3, 4 players 10 "
                                    "and 2; each win puts a City on your win pile. The first to 5 "
                                    "(2 players), 4 (3) or 3 (4) wins wins the campaign.</small>")
        self.epic_table = w.Text(description="Epic table", placeholder="6 numbers: VP for 1..6 nebulae "
                                 "(from your rulebook; blank = ask at the end)",
                                 layout=w.Layout(width="520px"))
        for c, k in ((self.v_damaged, "damaged"), (self.v_unexplored, "unexplored"),
                     (self.v_open, "open"), (self.v_epic, "epic")):
            c.add_class(f"sse-variant-{k}")
        self.v_epic.observe(lambda _: self._setup_visibility(), "value")
        self.start_btn = w.Button(description="Start the game", button_style="primary", icon="play")
        self.start_btn.add_class("sse-start")
        writes(self.start_btn, host_only=True)
        self.start_btn.on_click(self.guarded(lambda _: self.start_game()))
        self.saved = w.Select(options=[], rows=5, layout=w.Layout(width="420px"))
        self.saved.add_class("sse-saved")
        resume = w.Button(description="Resume", icon="folder-open")
        resume.add_class("sse-resume")
        resume.on_click(self.guarded(lambda _: self._resume()))
        edit = w.Button(description="Map editor", icon="pencil")
        edit.add_class("sse-edit-maps")
        writes(edit, host_only=True)
        edit.on_click(self.guarded(lambda _: self.show_editor()))
        # one hand on a phone (issue 15): one column of names, the map and the ships, the
        # pieces and variants folded, the campaign, then Start; the saved games and the map
        # below
        self.options = w.Accordion(children=[w.VBox([
            w.HBox([self.cities, self.trade]),
            w.HTML("<div><small>The box holds 16 Cities and 4 Trade Stations per player.</small></div>"),
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
            w.HBox([self.map_pick, edit]), self.map_note,
            w.HTML("<div><small>Ships: the book says each player starts with 2 to 4 ships "
                   "depending on the number of players (see its setup picture) — choose the "
                   "number.</small></div>"),
            self.ships, self.options, self.details_panel, self.v_campaign, self.campaign_note,
            self.start_btn]), host_only=True)
        self.new_game_box.add_class("sse-setup-new-game")
        self.setup_role_note = w.HTML(layout=w.Layout(display="none"))
        self.setup_role_note.add_class("sse-setup-role-note")
        self.setup_screen = w.VBox([
            self.setup_role_note, self.new_game_box,
            w.HTML("<h4>Saved Small Star Empires games</h4>"), self.saved, resume,
            self.map_preview])
        self.setup_screen.add_class("sse-setup")
        self._setup_visibility()

    def _setup_visibility(self):
        self.epic_table.layout.display = "" if self.v_epic.value else "none"
        self.campaign_note.layout.display = "" if self.v_campaign.value else "none"
        self.cities.disabled = self.trade.disabled = self.v_campaign.value
        self._ship_choices()

    def _ship_choices(self):
        """Ships per player: the book's 2 to 4 ("each player starts with 2-4 ships"); 1 to 6
        with *Custom pieces* or in epic mode (the book's epic tables give more)."""
        lo, hi = BOOK_SHIPS
        wide = self.custom_pieces.value or self.v_epic.value
        values = list(range(1, 7) if wide else range(lo, hi + 1))
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
        self.map_pick.options = opts
        values = [v for _, v in opts]
        if keep in values:
            self.map_pick.value = keep
        elif "basic-2p" in values:
            self.map_pick.value = "basic-2p"

    def _preview(self):
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

    def show_setup(self):
        self._refresh_maps(self.map_pick.value)
        self._preview()
        games = self.store.games(format=FORMAT)
        self.saved.options = [(f"{g['title']} · {g['actions']} actions", g["id"]) for g in games]
        if games:
            self.saved.value = games[0]["id"]
        self.body.children = [self.setup_screen]
        self.app._apply_role()

    def start_game(self):
        self.session.require(Write.NEW_GAME)     # the page's role first
        names = [b.value.strip() for b in self.names if b.value.strip()]
        if len(names) < 2:
            raise CompanionError("Type at least 2 player names (2 to 4 players).")
        if self.ships.value is None:
            raise CompanionError("Choose how many ships each player starts with (the book: 2 to 4 "
                                 "depending on the number of players; see its setup picture).")
        if not self.map_pick.value:
            raise CompanionError("Choose a map.")
        # the play details are checked first: a refused text starts nothing
        details_meta = self.setup_details.meta({})
        m = hm.load_named(self.map_pick.value)
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
                    setup["nebula_table"] = [int(x) for x in txt.replace(";", ",").replace(" ", ",").split(",") if x]
                except ValueError:
                    raise CompanionError("Epic table: type 6 whole numbers, e.g. from your rulebook") from None
        record_meta = {}
        if self.v_campaign.value:
            import uuid
            setup["pieces"] = {"ships": self.ships.value}      # the book's campaign table
            setup["campaign"] = {"wins": {}, "game": 1}
            record_meta = {"campaign": uuid.uuid4().hex[:12]}
        setup = chance.new_game(self._pieces_option(setup))      # a fresh seed (issue 20)
        game = SseGame(setup)
        rec = game.to_record()
        # the play timer starts with the game
        rec["meta"] = playtime.start({**details_meta, **record_meta})
        title = f"Small Star Empires: {', '.join(names)}"
        if self.v_campaign.value:
            title += " (campaign game 1)"
        gid = self.session.create(rec, title=title)
        self.setup_details.notes.value = ""       # the location stays for the next game
        self.open_game(gid)
        self._to_top()
        extra = " This map is approximate: check it matches your tiles." if m.approximate else ""
        self.app.say(f"Small Star Empires: new game on '{m.name}'. {game.current} moves first.{extra}")

    def _resume(self):
        if not self.saved.value:
            raise CompanionError("Choose a saved game first.")
        self.open_game(self.saved.value)
        self._to_top()
        self.app.say("Small Star Empires: game resumed.")

    def _to_top(self):
        """From the setup screen to the play screen: the page may still be scrolled as far
        as the Start button was; focusing the timer (beside the turn line, the play
        screen's first row) brings the top row back into view."""
        self.timer.button.focus()

    # -- campaign ------------------------------------------------------------------------------
    def _campaign(self):
        """The campaign of the open game, rebuilt from the store (games sharing its meta id)."""
        from ..sse.campaign import Campaign
        cid = (self.game.meta or {}).get("campaign")
        if not cid:
            raise CompanionError("This campaign game was not started from the dashboard: "
                                 "continue it from its campaign file.")
        recs = []
        for info in self.store.games(format=FORMAT):
            rec = self.store.load(info["id"])
            if (rec.get("meta") or {}).get("campaign") == cid:
                recs.append(rec)
        recs.sort(key=lambda r: r["setup"]["campaign"]["game"])
        for r in recs:
            r.pop("cards", None)
        return Campaign(list(self.game.setup.players), recs), cid

    def _campaign_panel(self) -> list:
        try:
            campaign, cid = self._campaign()
        except CompanionError as e:
            return [w.HTML(f"<i>{escape(str(e))}</i>")]
        html = (f"<h4>Campaign</h4><div class='sse-campaign-words'><b>{escape(campaign.explanation())}"
                f"</b></div><div class='scroll-x'>"
                + campaign.table().to_html(index=False, border=0, classes="sse-final-table")
                + "</div>")
        kids = [w.HTML(html)]
        if not campaign.over:
            nxt = w.Button(description=f"Start campaign game {len(campaign.games) + 1}",
                           button_style="primary", icon="forward")
            nxt.add_class("sse-next-game")
            writes(nxt, host_only=True)
            nxt.on_click(self.guarded(lambda _: self._next_campaign_game(campaign, cid)))
            kids.append(nxt)
        return kids

    def _next_campaign_game(self, campaign, cid):
        base = self.game.setup.to_dict()
        base.pop("campaign", None)
        base["pieces"] = {"ships": base["pieces"]["ships"]}
        setup = chance.new_game(campaign.next_setup(base))       # a fresh seed (issue 20)
        game = SseGame(setup)
        rec = game.to_record()
        loc = self.timer.meta.get("location")
        # the play timer starts with the game; the table's location carries over
        rec["meta"] = playtime.start({"campaign": cid, **({"location": loc} if loc else {})})
        k = setup["campaign"]["game"]
        gid = self.session.create(rec, title=f"Small Star Empires: {', '.join(setup['players'])} "
                                           f"(campaign game {k})")
        self.open_game(gid)
        wins = setup["campaign"]["wins"]
        self.app.say(f"Campaign game {k}: win piles " + ", ".join(f"{p} {n}" for p, n in wins.items())
                     + f". {game.current} moves first.")

    def _epic_form(self):
        t = w.Text(description="Epic table", placeholder="6 numbers from your rulebook",
                   layout=w.Layout(width="420px"))
        t.add_class("sse-epic-values")
        save = w.Button(description="Save and score", button_style="success")

        def do(_):
            try:
                vals = [int(x) for x in t.value.replace(";", ",").replace(" ", ",").split(",") if x]
            except ValueError:
                raise CompanionError("Type 6 whole numbers.") from None
            if len(vals) != 6:
                raise CompanionError("The epic nebula table has 6 values (1 to 6 nebulae).")
            self.session.set_manual([{"source": "nebula_table", "values": vals}])
            self.refresh()
        save.on_click(self.guarded(do))
        return writes(w.VBox([w.HTML("The epic nebula table is not in our copy of the rulebook: "
                                     "type its 6 values (VP for 1 to 6 nebulae of a colour) "
                                     "from yours."),
                              w.HBox([t, save])]))

    # ================================================================== map editor
    def _build_editor(self):
        self.ed_map: HexMap | None = None
        self.ed_base = w.Dropdown(description="Start from", layout=w.Layout(width="360px"))
        self.ed_base.add_class("sse-ed-base")
        load = w.Button(description="Load")
        load.add_class("sse-ed-load")
        load.on_click(self.guarded(lambda _: self._ed_load()))
        self.ed_tool = w.Dropdown(options=[(label, i) for i, (label, _) in enumerate(PALETTE)],
                                  value=0, description="Set to")
        self.ed_tool.add_class("sse-ed-tool")
        self.ed_name = w.Text(description="Save as", placeholder="my-table")
        self.ed_name.add_class("sse-ed-name")
        save = w.Button(description="Save map", button_style="success", icon="save")
        save.add_class("sse-ed-save")
        save.on_click(self.guarded(lambda _: self._ed_save()))
        back = w.Button(description="Back to the new game screen", layout=w.Layout(width="auto"))
        back.add_class("sse-ed-back")
        back.on_click(self.guarded(lambda _: self.show_setup()))
        self.ed_info = w.HTML()
        self.ed_info.add_class("sse-ed-info")
        self.ed_board = HexBoard(self.guarded(self._ed_click), css="sse-editor-board")
        self.editor_screen = w.VBox([
            w.HTML("<h4>Map editor</h4><div>Choose a system type, then click hexes to set them. "
                   "The faint hexes around the map add new systems; 'remove' takes one away. "
                   "Save under your own name: it appears in the map list.</div>"),
            w.HBox([self.ed_base, load]), w.HBox([self.ed_tool, self.ed_name, save, back]),
            self.ed_info, self.ed_board.grid])
        self.editor_screen.add_class("sse-editor")
        writes(self.editor_screen, host_only=True)

    def show_editor(self):
        self.session.require(Write.MAP)          # the host's page only
        self._refresh_maps(self.map_pick.value)
        self.ed_base.options = list(self.map_pick.options)
        self.ed_base.value = self.map_pick.value
        self._ed_load()
        self.body.children = [self.editor_screen]

    def _ed_load(self):
        if not self.ed_base.value:
            return
        self.ed_map = hm.load_named(self.ed_base.value)
        self.ed_name.value = self.ed_map.name if not self.ed_map.approximate else f"{self.ed_map.name}-mine"
        self._ed_draw()

    def _ed_draw(self):
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

    def _ed_click(self, h):
        _, system = PALETTE[self.ed_tool.value]
        if system is None and len(self.ed_map) <= 1:
            raise CompanionError("A map needs at least one system.")
        self.ed_map.set(h, system)
        self._ed_draw()

    def _ed_save(self):
        name = self.ed_name.value.strip()
        if not name:
            raise CompanionError("Type a name for your map.")
        m = self.ed_map
        m.approximate = False
        m.title = name
        m.note = "Edited in the map editor."
        homes = m.homeworlds()
        m.players = len(homes) if set(homes) == set(range(1, len(homes) + 1)) else None
        path = hm.save_user_map(m, name, role=self.session.role)
        self._refresh_maps(name)
        self.app.say(f"Saved the map '{name}' ({len(m)} systems) in {path}.")
