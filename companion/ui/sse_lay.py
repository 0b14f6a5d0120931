"""Small Star Empires, the pieces laid as they lie on the map (issue 39, "Score the table
as it lies"): a part of the play screen (:class:`companion.ui.sse_screen.SseScreen`), shown
instead of the ship and move entry while the game's setup says ``options.laid`` and a
player's pieces are still to be laid.

The map is drawn as the board is now (the pieces, tiles face-up and conquest markers laid
so far, and the draft of the player being laid).  The player chooses City, Trade Station
or Nothing, taps the systems where such a piece of theirs lies, types the VP on the score
track, and presses *Lay X's pieces*: one ``lay`` entry (companion/sse/lay.py) through the
screen's write path (:meth:`SseScreen.push`: the session, then the engine), so that the
engine checks it (two pieces on one system, a homeworld, more Cities than the setup gives,
...); a refusal is said beside the button, naming the system and the rule, nothing
recorded, the draft kept.  A seat's page lays its own player's pieces; the host's page any
player's still to lay; the table view none.  When every player is laid the final screen
shows the final table.

What is asked only where it applies (the draft and the map: companion/ui/sse_lay_parts.py):

* a game under way (``"now"``): *Ship* (one ship per tap, as many as the setup gives) and
  whose turn it is; with the damaged ships or Unexplored variant, *Damaged ship* too (a
  tap damages a ship standing there, or puts one more, damaged);
* a map with Unexplored Systems (the Unexplored variant, or the map's own): a piece
  tapped on a system still face-down asks *Tile at [q, r]*, the tile turned face-up
  there (a Planetary System tile with its planets; none chosen: the map's tile if it
  knows it, else the engine asks); *Revealed, no piece*: a tile lying face-up with no piece
  on it (an Asteroid Field, a Nordinn Empire, a tile whose City was destroyed);
  *Conquest marker*: a Nordinn Empire conquest marker;
* Open Borders: *Cities received* (from opponents passing) and *Cities paid*.

No rule here: any system may be tapped, any tile chosen; what may lie there is the
engine's to say.  Every text shown is escaped.  The draft is kept in the store after
every tap (companion.table.drafts) until it is laid: a reload, a phone whose kernel was
culled, or the host's page finds it again.

Stable CSS hooks: ``sse-lay-panel`` (the panel), ``sse-laid-title``, ``sse-laid-player``,
``sse-laid-what``, ``sse-laid-count``, ``sse-laid-board`` (its hexes: ``hx_q_r``),
``sse-laid-tile``, ``sse-laid-vp``, ``sse-laid-counts`` (``sse-laid-received``,
``sse-laid-paid``),
``sse-laid-next``, ``sse-laid-message``, ``sse-laid-go``.
"""
from __future__ import annotations


import ipywidgets as w

from ..core.errors import CompanionError
from ..core.htmlsafe import escape
from ..sse.lay import MAX_NUMBER, may_lay
from ..table import playtime
from .common import refresh_undo
from .drafting import Drafts
from .sse_board import HexBoard
from .sse_lay_parts import LETTER, NONE, Draft, cells, tile_choices, tile_key, tile_of
from .sse_protocol import SseScreenProtocol


#: what a tap puts on a system (the engine decides whether it may lie there)
WHAT = [("City", "city"), ("Trade Station", "trade_station"), ("Nothing", "empty")]
#: ... and in a game under way (``laid: "now"``), where each ship stands
SHIP = ("Ship", "ship")
#: ... a damaged ship (a game under way with the damaged ships or Unexplored variant)
DAMAGED = ("Damaged ship", "damaged")
#: ... on a map with Unexplored Systems: a tile face-up with no piece on it, a marker
ALONE = ("Revealed, no piece", "alone")
MARKER = ("Conquest marker", "conquered")
CSS = "<style>.sse-laid-message:empty{display:none}</style>"


class SseLay:
    """The laying panel of ``screen`` (see the module's docstring)."""

    def __init__(self, screen: SseScreenProtocol) -> None:
        self.screen = screen
        guarded = screen.guarded
        self.title = w.HTML()
        self.title.add_class("sse-laid-title")
        self.player = w.Dropdown(description="Pieces of", options=[])
        self.player.add_class("sse-laid-player")
        self.player.observe(guarded(lambda _: self._switch()), "value")
        self.what = w.ToggleButtons(options=WHAT, value="city", description="Tap to put")
        self.what.add_class("sse-laid-what")
        self.count = w.HTML()
        self.count.add_class("sse-laid-count")
        self.next = w.Checkbox(value=False, description="It is this player's turn now",
                               indent=False, layout=w.Layout(width="auto"))
        self.next.add_class("sse-laid-next")
        self.next.observe(guarded(lambda ch: self._next(ch["new"])), "value")
        self.board = HexBoard(guarded(self.tap), css="sse-laid-board")
        #: the Unexplored System whose face-up tile :attr:`tile` says (the last tapped)
        self.at: tuple[int, int] | None = None
        self.pick: str | None = None    # the player whose lay this page undid: shown next
        self.tile = w.Dropdown(options=tile_choices(), value=NONE, description="Tile",
                               style={"description_width": "initial"},
                               layout=w.Layout(width="auto", max_width="360px"))
        self.tile.add_class("sse-laid-tile")
        self.tile.observe(guarded(lambda ch: self._tile(ch["new"])), "value")
        self.vp = self._number("Track VP", "sse-laid-vp", "the player's VP on the score "
                               "track at the game's end, before the end-game points")
        self.vp.observe(guarded(lambda ch: self._typed("vp", ch["new"])), "value")
        self.received = self._number("Cities received", "sse-laid-received", "Open Borders: "
                                     "the Cities the player got from opponents passing")
        self.received.observe(guarded(lambda ch: self._typed("received", ch["new"])), "value")
        self.paid = self._number("Cities paid", "sse-laid-paid", "Open Borders: the Cities "
                                 "the player paid to pass")
        self.paid.observe(guarded(lambda ch: self._typed("paid", ch["new"])), "value")
        self.counts = w.HBox([self.received, self.paid], layout=w.Layout(flex_flow="row wrap"))
        self.counts.add_class("sse-laid-counts")
        self.message = w.HTML()
        self.message.add_class("sse-laid-message")
        self.drafts = Drafts(lambda: screen.session, Draft, self.message)
        self.go = w.Button(description="Lay the pieces", button_style="primary", icon="flag",
                           layout=w.Layout(width="auto", min_height="44px"))
        self.go.add_class("sse-laid-go")
        self.go.on_click(guarded(lambda _: self.lay()))
        self.controls = w.VBox([self.player, self.what, self.count, self.board.box, self.tile,
                                self.vp, self.counts, self.next, self.message, self.go])
        # in the page only while laying: its board is an .sse-board too, and the play
        # screen's own board must be the only one there once the game is laid
        self.kids = (w.HTML(CSS), self.title, self.controls)
        self.box = w.VBox([], layout=w.Layout(display="none"))
        self.box.add_class("sse-lay-panel")

    @staticmethod
    def _number(label: str, css: str, tip: str) -> w.BoundedIntText:
        box = w.BoundedIntText(value=0, min=0, max=MAX_NUMBER, description=label, tooltip=tip,
                               style={"description_width": "initial"},
                               layout=w.Layout(width="170px"))
        box.add_class(css)
        return box

    # -- whose pieces ---------------------------------------------------------------------
    def still_to_lay(self) -> list[str]:
        g = self.screen.game
        return g.still_to_lay() if g is not None else []

    def laying(self) -> bool:
        return bool(self.still_to_lay())

    def turn_line(self, turn: w.HTML) -> bool:
        """The turn line while pieces are still to be laid (True), else nothing (False)."""
        todo = self.still_to_lay()
        if todo:
            turn.value = (f"<div class='sse-turn-line sse-turn-laying'><b>Laying the table"
                          f"</b> · still to lay: {escape(', '.join(todo))}</div>")
        return bool(todo)

    def still_words(self) -> str:
        todo = self.still_to_lay()
        return f" Still to lay: {', '.join(todo)}." if todo else ""

    def options(self) -> list[tuple[str, str]]:
        """What a tap may put: pieces; ships in a game under way (damaged ones with the
        variants that damage ships); tiles face-up alone and conquest markers on a map with
        Unexplored Systems (the setup's variant, or the map's own)."""
        may = self.may()
        opts = WHAT[:2] + ([SHIP] if "ships" in may else []) + (
            [DAMAGED] if "damaged" in may else [])
        if self.unexplored():
            opts += [ALONE, MARKER]
        return opts + WHAT[2:]

    def may(self) -> frozenset[str]:
        """What this game's lay entries may hold (the engine's query, companion.sse.lay)."""
        g = self.screen.game
        return may_lay(g.state) if g is not None else frozenset()

    def unexplored(self) -> bool:
        return "revealed" in self.may()

    def open_borders(self) -> bool:
        return "received" in self.may()

    def refresh(self) -> bool:
        """The panel shown (True) while pieces are to be laid; hidden otherwise."""
        todo = self.still_to_lay()
        pick, self.pick = self.pick, None       # asked for once, by this refresh only
        if not todo:
            self.drafts.clear()
            self.at = None
            self.board.draw({})          # no hidden hex stands for another game's board
            self.box.layout.display = "none"
            self.box.children = ()
            return False
        s = self.screen
        st = s.game.state
        for p in st.laid:               # laid: a lay undone later reads the store's draft
            self.drafts.mine.pop(p, None)
        self.box.layout.display = ""
        if self.box.children != self.kids:
            self.box.children = self.kids
        laid = ", ".join(st.laid)
        now = self.now()
        opts = self.options()
        if list(self.what.options) != opts:
            self.what.options = opts
        self.next.layout.display = "" if now else "none"
        self.counts.layout.display = "" if self.open_borders() else "none"
        self.title.value = ("<h3 style='margin:4px 0'>Lay each player's pieces as they lie</h3>"
                            f"<div>Still to lay: <b>{escape(', '.join(todo))}</b>"
                            + (f"; laid: {escape(laid)}" if laid else "") + ". Choose City or "
                            "Trade Station, tap each system where one of the player's lies, "
                            + ("then Ship and each system where one of their ships stands, "
                               "whether it is their turn, " if now else "then ")
                            + "the VP on the score track"
                            + (" and the Cities received and paid (Open Borders)"
                               if self.open_borders() else "")
                            + (". On an Unexplored System, choose the tile turned face-up"
                               if self.unexplored() else "") + ".</div>")
        mine = [] if s.view == "table" else [p for p in ([s.seat] if s.seat else todo)
                                             if p in todo]
        if s.view == "table":
            self.title.value += "<div><i>The players lay their pieces on their pages.</i></div>"
        elif not mine:
            self.title.value += ("<div><i>Your pieces are laid: the others are laying "
                                 "theirs.</i></div>")
        self.controls.layout.display = "" if mine else "none"
        if not mine:
            return True
        keep = next(p for p in (pick, self.player.value, mine[0]) if p in mine)
        with self.player.hold_sync():
            self.player.options = mine
            self.player.value = keep
        self.player.layout.display = "none" if len(mine) == 1 else ""
        self.draw()
        return True

    def show_timer(self, timer) -> None:
        """The play timer as of now (the heartbeat ticks it); hidden while pieces are laid,
        until the table starts it (nothing is played yet)."""
        timer.over = self.screen.game.state.finished
        timer.show()
        if self.laying() and playtime.state(timer.meta) == "not started":
            timer.button.layout.display = "none"

    def show_undo(self) -> None:
        """*Undo last action* where the session allows it (common.refresh_undo); while
        pieces are laid, only once a lay is recorded (nothing to undo before)."""
        s = self.screen
        refresh_undo(s)
        if self.laying() and not s.game.actions:
            s.undo_btn.layout.display = "none"
            s.undo_box.children = []

    def undone(self, entry: dict) -> None:
        """``entry`` was undone on this page (the screen's *Undo*): a lay is its player's
        draft again, kept in the store as after a tap (other pages find it), and the
        panel shows that player's pieces."""
        player = self.drafts.restore(entry)
        if player is None:
            return
        self.pick = player
        self.message.value = (f"<div class='sse-laid-undone'>{escape(player)}'s pieces are "
                              "back as they were tapped: change what is wrong and lay them "
                              "again.</div>")

    def now(self) -> bool:
        """A game under way (``laid: "now"``): ships and whose turn are laid too."""
        g = self.screen.game
        return g is not None and g.setup.laid == "now"

    def _switch(self) -> None:
        self.at = None
        self.draw()

    def _next(self, on: bool) -> None:
        if self.player.value and self._draft().next != bool(on):
            self._draft().next = bool(on)
            self._keep()

    def _draft(self) -> Draft:
        """The player's draft (companion.ui.drafting)."""
        return self.drafts.get(self.player.value)

    def _keep(self) -> None:
        """The draft kept in the store after each tap (nothing typed is lost)."""
        self.drafts.keep(self.player.value)

    def _typed(self, key: str, value: int) -> None:
        """The track's VP, or an Open Borders count, typed."""
        if self.player.value and getattr(self._draft(), key) != int(value):
            setattr(self._draft(), key, int(value))
            self._keep()

    def _tile(self, key: str) -> None:
        """The tile turned face-up at :attr:`at` chosen."""
        d = self._draft() if self.player.value else None
        if d is None or self.at is None or tile_key(d.tiles.get(self.at)) == key:
            return
        if key != NONE:
            d.tiles[self.at] = tile_of(key)
        elif self.at in d.pieces:
            d.tiles.pop(self.at, None)          # no tile given: the map's, or the engine asks
        else:
            d.tiles[self.at] = {}
        self._keep()
        self.draw()

    def _asks_tile(self, h) -> bool:
        """Is ``h`` an Unexplored System still face-down on the map (its tile is asked)?"""
        st = self.screen.game.state
        sy = st.map.systems.get(h)
        return sy is not None and sy.kind == "unexplored" and h not in st.revealed

    # -- the map --------------------------------------------------------------------------
    def draw(self) -> None:
        if not self.player.value:
            return
        st = self.screen.game.state
        player = self.player.value
        d = self._draft()
        self.board.draw(cells(st, d, player))
        n = {k: sum(1 for v in d.pieces.values() if v == k) for k in LETTER}
        ships = (f", <b>{len(d.ships)}</b> of {st.setup.ships} ships"
                 + (f" ({sum(h for _, h in d.ships)} damaged)" if any(h for _, h in d.ships)
                    else "") if self.now() else "")
        extra = "".join(f", <b>{k}</b> {what}" for k, what in (
            (sum(1 for h in d.tiles if h not in d.pieces), "tile(s) face-up with no piece"),
            (len(d.conquered), "conquest marker(s)")) if k)
        self.count.value = (f"<div>{escape(player)}: <b>{n['city']}</b> Cit"
                            f"{'y' if n['city'] == 1 else 'ies'} and <b>{n['trade_station']}"
                            f"</b> Trade Station{'' if n['trade_station'] == 1 else 's'}"
                            f"{ships}{extra} tapped</div>")
        at = self.at
        if at is not None and (at in d.pieces or at in d.tiles):
            self.tile.description = f"Tile at [{at[0]}, {at[1]}]"
            self.tile.value = tile_key(d.tiles.get(at))
            self.tile.layout.display = ""
        else:
            self.tile.layout.display = "none"
        self.vp.value = d.vp
        self.received.value, self.paid.value = d.received, d.paid
        self.next.value = d.next
        self.go.description = f"Lay {player}'s pieces"

    def tap(self, h) -> None:
        """A system tapped: the chosen piece put there (tapped again, or Nothing: taken
        away, with the ships there); on an Unexplored System still face-down, the tile
        turned up there is asked (:attr:`tile`); Ship: one more of the player's ships
        there, as many as the setup gives (tapped again once all stand: taken away);
        Damaged ship: one there damaged (or one more, damaged); Revealed, no piece: a tile
        face-up with no piece on it; Conquest marker: put or taken away.  No rule: the
        engine checks the whole entry when it is laid."""
        if not self.player.value or self.controls.layout.display == "none":
            return
        d = self._draft()
        what = self.what.value
        focused, self.at = self.at, None
        if what in ("ship", "damaged"):
            if not d.ship(h, self.screen.game.setup.ships, damaged=what == "damaged"):
                self.message.value = (f"<div class='status-error' style='color:#b00020'>⚠ "
                                      f"{escape(self.player.value)} has "
                                      f"{self.screen.game.setup.ships} ships, all placed: tap "
                                      "one again (or Nothing) to move it.</div>")
                return
        elif what == "empty":
            d.clear(h)
        elif what == "conquered":
            d.marker(h)
        elif what == "alone":
            if d.alone(h):
                self.at = h
        elif d.pieces.get(h) == what and self._asks_tile(h) and focused != h:
            self.at = h                     # its tile asked again (tapped again: taken away)
        else:
            d.put(h, what)
            if h in d.pieces and self._asks_tile(h):
                self.at = h
        self.message.value = ""
        self._keep()
        self.draw()

    # -- lay it ---------------------------------------------------------------------------
    def lay(self) -> None:
        player = self.player.value
        if not player:
            return
        d = self._draft()
        d.vp = int(self.vp.value)
        self.message.value = ""
        try:
            self.screen.push(d.entry(player, now=self.now(), open_borders=self.open_borders()))
        except CompanionError as e:
            # said beside the button too (the status line is at the page's top)
            self.message.value = (f"<div class='status-error' style='color:#b00020'>⚠ Not "
                                  f"laid: {escape(str(e))}</div>")
            raise
        if player in self.screen.game.state.laid:     # recorded
            self.drafts.laid(player)
            self.at = None
            self.message.value = (f"<div class='sse-laid-done' style='color:#1b6e20'>✓ "
                                  f"{escape(player)}'s pieces are laid.</div>")
