"""The Small Star Empires tab of the dashboard (ipywidgets).  Calls the SSE engine only.

Screens: *setup* (new game, saved games, the map editor) and *play* (the hex board,
ship selection with the legal destinations highlighted, City / Trade Station, unexplored
tiles, undo, live score, what-if, final table).  Every accepted action is written to the
same SQLite store as Among the Stars, at once; the game shown is the replay of the stored
record.
"""
from __future__ import annotations

import base64
from ..core.htmlsafe import colour, escape

import ipywidgets as w

from .playdetails import DetailsForm, FinalExports, PlayDetailsScreen, PlayTimer
from .quiet import Quiet
from ..core import playtime
from ..core.errors import CompanionError, MissingEntry
from ..sse import hexmap as hm
from ..sse.game import BOOK_SHIPS, FORMAT, PIECE_NAMES, SseGame, SseSetup
from ..sse.hexmap import EFFECT_NAMES, HexMap, System
from ..sse.record import dumps
from ..sse.render import KIND_FILL, NEBULA_FILL, NEBULA_TEXT, legend_html, map_svg
from ..sse.scoring import CATEGORIES, CATEGORY_NAMES, tiebreak_words
from .session import GameSession, PageBehind, SessionScreen
from .sse_reveal import reveal_form

COL_PX, ROW_PX, HEX_W, HEX_H = 27, 46, 54, 62
#: the smallest hex on a narrow screen: 44 px tall, a touch target (issue 15)
MIN_HEX_H = 44
MIN_COL_PX = round(MIN_HEX_H * COL_PX / HEX_H + 0.05, 1)
LEGAL = "#16a34a"
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
KIND_LABEL = {"planetary": "planetary", "nebula": "nebula", "empty": "empty",
              "homeworld": "homeworld", "wormhole": "wormhole", "black_hole": "black hole",
              "unexplored": "unexplored"}
#: the map editor's palette: label -> system (None removes the hex)
PALETTE = ([(f"{n} planet{'s' if n > 1 else ''}", System("planetary", planets=n)) for n in (1, 2, 3)]
           + [(f"{c} nebula", System("nebula", colour=c)) for c in hm.COLOURS]
           + [("empty", System("empty")), ("wormhole", System("wormhole")),
              ("black hole", System("black_hole")), ("unexplored", System("unexplored"))]
           + [(f"homeworld {k}", System("homeworld", home=k)) for k in (1, 2, 3, 4)]
           + [("remove", None)])


def hex_class(h) -> str:
    """Stable CSS class of a hex button (tests click on it)."""
    q, r = h
    return f"hx_{'m' if q < 0 else ''}{abs(q)}_{'m' if r < 0 else ''}{abs(r)}"


def describe(a: dict) -> str:
    if a.get("do") == "damage":
        return f"damaged ship {a['ship']} at {a['from']}"
    text = f"moved ship {a['ship']} {a['from']} → {a['to']}"
    if a.get("via") == "wormhole":
        text += " through the wormholes"
    if a.get("reveal"):
        text += f", revealed {EFFECT_NAMES[a['reveal']['effect']]}"
    if a.get("piece"):
        text += f", colonised with a {PIECE_NAMES[a['piece']]}"
    elif not a.get("reveal"):
        text += ", repaired at home"
    if a.get("destroy"):
        text += f", destroyed the City at {a['destroy']}"
    step = a.get("then")
    while step:                 # a Refuelling Station's extra move (into another tile too)
        text += f", then to {step['to']}"
        if step.get("reveal"):
            text += f", revealed {EFFECT_NAMES[step['reveal']['effect']]}"
        if step.get("piece"):
            text += f" ({PIECE_NAMES[step['piece']]})"
        if step.get("destroy"):
            text += f", destroyed the City at {step['destroy']}"
        step = step.get("then")
    if a.get("pay"):
        text += ", paid " + ", ".join(f"a City to {p['to']}" for p in a["pay"])
    return text


def col_css(n: int) -> str:
    """The width of one doubled column of a board ``n`` columns wide: the board scaled to the
    width of its box (``cqw``: the ``sse-board-wrap`` container), never larger than
    :data:`COL_PX`, and never so small that a hex is under :data:`MIN_HEX_H` px tall (a touch
    target: a wider map then scrolls sideways inside its own box)."""
    return f"clamp({MIN_COL_PX}px, calc(100cqw / {n}), {COL_PX}px)"


class HexBoard:
    """A map of hexagonal buttons: a CSS grid of doubled columns (2q + r) and rows (r).

    ``box`` (class ``sse-board-wrap``, a CSS size container) holds ``grid``; the columns,
    rows and hexes are sized from the box's width (:func:`col_css`), so the board fits a
    phone's width and keeps its full size on a laptop."""

    def __init__(self, on_click, css: str = "sse-board"):
        self.on_click = on_click
        self.grid = w.GridBox(layout=w.Layout(grid_gap="0px"))
        self.grid.add_class(css)
        if css != "sse-board":
            self.grid.add_class("sse-board")          # the same sizing and scroll box
        self.box = w.VBox([self.grid], layout=w.Layout(width="100%"))
        self.box.add_class("sse-board-wrap")
        self.buttons: dict[tuple, w.Button] = {}
        self._cols = 0

    def _size(self, b):
        col = col_css(self._cols or 1)
        b.layout.width = "100%"
        b.layout.height = f"calc({col} * {HEX_H / COL_PX:.4f})"

    def _button(self, h):
        b = self.buttons.get(h)
        if b is None:
            b = w.Button(layout=w.Layout(width="100%", height=f"{HEX_H}px"))
            self._size(b)
            b.add_class("sse-hex")
            b.add_class(hex_class(h))
            b.on_click(lambda _, h=h: self.on_click(h))
            self.buttons[h] = b
        return b

    def draw(self, cells: dict):
        """``cells``: hex -> {label, fill, text, tip, state} (state: a CSS class)."""
        if not cells:
            self.grid.children = []
            return
        xs = [2 * q + r for q, r in cells]
        ys = [r for _, r in cells]
        x0, y0 = min(xs), min(ys)
        kids = []
        for h in sorted(cells, key=lambda h: (h[1], h[0])):
            c = cells[h]
            b = self._button(h)
            # never an empty description: the button view keeps its old text then
            b.description = c.get("label") or "\u00a0"
            b.tooltip = c.get("tip", "")
            b.style.button_color = colour(c.get("fill"), "#eee")
            b.style.text_color = colour(c.get("text"), "#222")
            # grid_area (grid_row/grid_column are not applied by the Voila widget manager)
            b.layout.grid_area = f"{h[1] - y0 + 1} / {2 * h[0] + h[1] - x0 + 1} / auto / span 2"
            want = set(c.get("state", "").split())
            for cls in ("legal", "selected", "ghost", "ship", "colony"):
                have = cls in b._dom_classes
                if cls in want and not have:
                    b.add_class(cls)
                elif cls not in want and have:
                    b.remove_class(cls)
            kids.append(b)
        cols = max(xs) - x0 + 2
        if cols != self._cols:
            self._cols = cols
            for b in self.buttons.values():
                self._size(b)
        col = col_css(cols)
        self.grid.layout.grid_template_columns = f"repeat({cols}, {col})"
        self.grid.layout.grid_auto_rows = f"calc({col} * {ROW_PX / COL_PX:.4f})"
        if tuple(self.grid.children) != tuple(kids):
            self.grid.children = kids


def system_cell(s: System) -> dict:
    if s.kind == "nebula":
        return {"label": f"{s.colour} neb.", "fill": NEBULA_FILL[s.colour],
                "text": NEBULA_TEXT[s.colour]}
    if s.kind == "planetary":
        return {"label": "●" * s.planets, "fill": KIND_FILL["planetary"]}
    if s.kind == "black_hole":
        return {"label": "black hole", "fill": KIND_FILL["black_hole"], "text": "#ddd"}
    if s.kind == "wormhole":
        return {"label": "worm-hole", "fill": KIND_FILL["wormhole"]}
    if s.kind == "unexplored":
        return {"label": "?", "fill": KIND_FILL["unexplored"], "text": "white"}
    if s.kind == "homeworld":
        return {"label": f"home {s.home}", "fill": "#ffffff"}
    return {"label": "", "fill": KIND_FILL["empty"]}


class SseTab(SessionScreen, PlayDetailsScreen):
    def __init__(self, app):
        self.app = app
        self.session = GameSession(app.store, words=lambda a: f"{a['player']} {describe(a)}",
                                   again="enter the action again")
        self.selected: int | None = None        # the current player's selected ship
        self._pending: dict | None = None        # an unexplored move waiting for its tile
        self.title = w.HTML("<h3 style='margin:4px 0'>Small Star Empires</h3>")
        self.body = w.VBox()
        # the page title names this tab (App._tab_opened): no second title here (issue 15)
        self.box = w.VBox([w.HTML(STYLE), self.body])
        self.box.add_class("sse-root")
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
        self.start_btn.on_click(self.guarded(lambda _: self.start_game()))
        self.saved = w.Select(options=[], rows=5, layout=w.Layout(width="420px"))
        self.saved.add_class("sse-saved")
        resume = w.Button(description="Resume", icon="folder-open")
        resume.add_class("sse-resume")
        resume.on_click(self.guarded(lambda _: self._resume()))
        edit = w.Button(description="Map editor", icon="pencil")
        edit.add_class("sse-edit-maps")
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
        self.setup_screen = w.VBox([
            w.HTML("<h4 style='margin:6px 0'>New game</h4>"
                   "<div>Players in turn order (the first one starts):</div>"),
            w.VBox(self.names),
            w.HBox([self.map_pick, edit]), self.map_note,
            w.HTML("<div><small>Ships: the book says each player starts with 2 to 4 ships "
                   "depending on the number of players (see its setup picture) — choose the "
                   "number.</small></div>"),
            self.ships, self.options, self.details_panel, self.v_campaign, self.campaign_note,
            self.start_btn,
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

    def start_game(self):
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
        setup = self._pieces_option(setup)
        game = SseGame(setup)
        rec = game.to_record()
        # the play timer starts with the game
        rec["meta"] = playtime.start({**details_meta, **record_meta})
        title = f"Small Star Empires: {', '.join(names)}"
        if self.v_campaign.value:
            title += " (campaign game 1)"
        gid = self.store.create(rec, title=title)
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
        undo.on_click(self.guarded(lambda _: self._ask_undo()))
        self.undo_box = w.HBox()
        self.undo_box.add_class("sse-undo-confirm")
        # width auto: the whole label shown (the default width cut it)
        new = w.Button(description="New game / saved games / maps", icon="plus",
                       layout=w.Layout(width="auto"))
        new.add_class("sse-new")
        new.on_click(self.guarded(lambda _: self.show_setup()))
        self.damage_btn = w.Button(description="Damage the selected ship (expansion effect)",
                                   layout=w.Layout(width="auto"))
        self.damage_btn.add_class("sse-damage")
        self.damage_btn.on_click(self.guarded(lambda _: self._damage()))
        self.whatif = w.HTML()
        self.whatif.add_class("sse-whatif")
        self.final = w.HTML()
        self.final.add_class("sse-final")
        # the play timer (issue 16), the final screen's play details and exports
        # compact, beside the turn line: the entry and the board stay on the first screen
        self.timer = PlayTimer(self.store, "sse-timer", compact=True)
        self.timer.button.on_click(self.guarded(lambda _: self._tap_timer()))
        self.final_details = DetailsForm("sse-final")
        save = w.Button(description="Save the play details", icon="save",
                        layout=w.Layout(width="auto"))
        save.add_class("sse-final-details-save")
        save.on_click(self.guarded(lambda _: self._save_final_details()))
        self.exports = FinalExports(self.store, "sse-final-exports", "small-star-empires",
                                    self.guarded)
        self.final_extra = w.VBox([
            w.HTML("<h4 style='margin:8px 0 2px'>Play details</h4>"), self.final_details.box,
            save, self.exports.panel])
        self.final_extra.add_class("sse-final-extra")
        self.timer_row = w.HBox([self.turn, self.timer.button])
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
        self.score_details = w.HTML()
        self.score_details.add_class("sse-score-details")
        # folded (widgets keep their open state across refreshes, unlike <details>)
        self.score_more = w.Accordion(children=[self.score_details], selected_index=None)
        self.score_more.set_title(0, "Ships and the score if the game ended now")
        self.score_more.add_class("sse-score-more")
        self.more = w.Accordion(children=[self.whatif, w.HTML(legend_html())],
                                selected_index=None)
        self.more.set_title(0, "What-if: every destination of the selected ship")
        self.more.set_title(1, "Legend")
        self.more.add_class("sse-more")
        # top to bottom as a hand on a phone needs it (issue 15): where we are, the entry and
        # its message, the board, undo; then the scores, and the rest folded
        self.play_screen = w.VBox([
            self.timer_row, self.entry, self.msg, self.board.box, self.final,
            self.final_extra, self.epic_box,
            self.campaign_box,
            w.HBox([undo, self.damage_btn]), self.undo_box,
            self.scoreboard, self.score_more, self.more, new])
        self.play_screen.add_class("sse-play")

    def open_game(self, gid: str):
        game = self.session.open(gid)
        if not isinstance(game, SseGame):
            self.session.close()
            raise CompanionError("that saved game is not a Small Star Empires game")
        self.timer.bind(gid, self.session.meta)
        self._details_for = None
        self.selected = None
        self._pending = None
        self.extra.children = []
        self.undo_box.children = []
        self.body.children = [self.play_screen]
        self.refresh()

    def _to_top(self):
        """From the setup screen to the play screen: the page may still be scrolled as far
        as the Start button was; focusing the timer (beside the turn line, the play
        screen's first row) brings the top row back into view."""
        self.timer.button.focus()

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
        self.entry.layout.display = "none" if st.finished else ""
        # at the end the final panel draws the board (once)
        self.board.box.layout.display = "none" if st.finished else ""
        self._refresh_turn()
        self.timer.over = st.finished
        self.timer.show()               # the clock as of now (it does not tick by itself)
        self._refresh_score()
        self._refresh_piece()
        self._refresh_ships()
        self._refresh_board()
        self._refresh_whatif()
        self._refresh_final()

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
            last = f" · last: {escape(a.get('player', ''))} {escape(describe(a))}"
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
        st = g.state
        msg = f"{norm['player']} {describe(norm)}."
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
        g = self.game
        if not g.actions:
            raise CompanionError("There is nothing to undo.")
        last = g.actions[-1]
        yes = w.Button(description="Yes, undo it", button_style="danger")
        yes.add_class("sse-undo-yes")
        no = w.Button(description="Keep it")
        yes.on_click(self.guarded(lambda _: self._undo()))
        no.on_click(self.guarded(lambda _: setattr(self.undo_box, "children", [])))
        self.undo_box.children = [w.HTML(f"<b>Undo: {escape(last['player'])} "
                                         f"{escape(describe(last))}?</b>&nbsp;"), yes, no]

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
        self.app.say(f"Undone: {last['player']} {describe(last)}.")
        self.refresh()

    # -- what-if ---------------------------------------------------------------------------
    def _refresh_whatif(self):
        g = self.game
        if self.selected is None or g.state.finished:
            self.whatif.value = ""
            return
        from ..sse.whatif import destinations
        df = destinations(g, g.state.current, self.selected)
        if not len(df):
            self.whatif.value = ""
            return

        def fmt(v, sign=True):
            if v is None or v != v:
                return "?"
            v = int(v)
            return f"{v:+d}" if sign else str(v)
        rows = []
        for r in df.itertuples():
            rows.append(f"<tr><td>[{r.to[0]}, {r.to[1]}]</td><td>{escape(r.note)}</td>"
                        f"<td>{fmt(r.vp_now, False)}</td><td>{fmt(r.nebulae)}</td>"
                        f"<td>{fmt(r.trade_stations)}</td><td>{fmt(r.territory)}</td>"
                        f"<td>{fmt(r.other)}</td><td><b>{fmt(r.change)}</b></td>"
                        f"<td>{fmt(r.projected, False)}</td><td>{fmt(r.opponents)}</td></tr>")
        self.whatif.value = (
            f"<div><b>What-if for ship {self.selected}</b> — every legal destination, "
            "best first (the end scoring as if the game ended after the move)</div>"
            "<div class='scroll-x'><table class='sse-whatif-table'><tr><th>to</th><th>how</th>"
            "<th>VP now</th><th>nebulae</th><th>trade st.</th><th>territory</th><th>other</th>"
            "<th>change</th><th>projected</th><th>opponents</th></tr>" + "".join(rows)
            + "</table></div>")

    # -- final table -------------------------------------------------------------------------
    def _refresh_final(self):
        g = self.game
        self.epic_box.children = []
        self.campaign_box.children = []
        self.final_extra.layout.display = "none"
        if not g.state.finished:
            self.final.value = ""
            return
        self._stop_timer()
        try:
            result = g.score()
        except MissingEntry as e:
            self.final.value = f"<b>{escape(str(e))}</b>"
            self.epic_box.children = [self._epic_form()]
            return
        t = result.table.rename(columns={**{c: CATEGORY_NAMES[c] for c in CATEGORIES},
                                         "cities_left": "Cities left",
                                         "trade_stations_left": "Trade St. left",
                                         "planets_controlled": "planets controlled",
                                         "largest_territory": "largest territory size"})
        full = g.to_record()
        full["meta"] = {k: v for k, v in self.timer.meta.items() if v is not None}
        rec = base64.b64encode(dumps(full).encode()).decode()
        csv = base64.b64encode(result.table.to_csv(index=False).encode()).decode()
        self.final.value = (
            f"<div class='sse-winner' style='font-size:1.3em;margin:6px 0'><b>★ "
            f"{escape(result.explanation)}</b></div>"
            f"<div class='sse-tiebreak' data-decided='{result.decided_by}'>"
            f"{escape(tiebreak_words(result.decided_by))}</div>"
            # wide tables scroll in their own box; the final position is drawn here only
            + "<div class='scroll-x'>"
            + t.to_html(index=False, classes="sse-final-table", border=0) + "</div>"
            + "<details><summary>Every VP with its source</summary><div class='scroll-x'>"
            + result.lines.to_html(index=False, border=0) + "</div></details>"
            f"<p><a class='sse-export-json export-link' download='small-star-empires-game.json' "
            f"href='data:application/json;base64,{rec}'>Export the record (JSON)</a>"
            f"<a class='sse-export-csv export-link' download='sse-final-table.csv' "
            f"href='data:text/csv;base64,{csv}'>Export the table (CSV)</a></p>"
            + map_svg(g.state.map, g.state, size=26))
        if g.setup.campaign is not None:
            self.campaign_box.children = self._campaign_panel()
        self.final_extra.layout.display = ""
        self._fill_final_details()
        self._refresh_exports()

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

    def _details_error(self, text: str) -> None:
        self.app.error(text)

    def _details_gone(self) -> None:
        self._gone()

    def _details_saved(self) -> None:
        self.game.meta = {k: v for k, v in self.timer.meta.items() if k != "title"}

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
            nxt.on_click(self.guarded(lambda _: self._next_campaign_game(campaign, cid)))
            kids.append(nxt)
        return kids

    def _next_campaign_game(self, campaign, cid):
        base = self.game.setup.to_dict()
        base.pop("campaign", None)
        base["pieces"] = {"ships": base["pieces"]["ships"]}
        setup = campaign.next_setup(base)
        game = SseGame(setup)
        rec = game.to_record()
        loc = self.timer.meta.get("location")
        # the play timer starts with the game; the table's location carries over
        rec["meta"] = playtime.start({"campaign": cid, **({"location": loc} if loc else {})})
        k = setup["campaign"]["game"]
        gid = self.store.create(rec, title=f"Small Star Empires: {', '.join(setup['players'])} "
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
            self.game.manual = [{"source": "nebula_table", "values": vals}]
            self.store.set_manual(self.gid, self.game.manual)
            self.refresh()
        save.on_click(self.guarded(do))
        return w.VBox([w.HTML("The epic nebula table is not in our copy of the rulebook: type its "
                              "6 values (VP for 1 to 6 nebulae of a colour) from yours."),
                       w.HBox([t, save])])

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

    def show_editor(self):
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
        path = hm.save_user_map(m, name)
        self._refresh_maps(name)
        self.app.say(f"Saved the map '{name}' ({len(m)} systems) in {path}.")
