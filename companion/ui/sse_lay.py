"""Small Star Empires, the pieces laid as they lie on the map (issue 39, "Score the table
as it lies"): a part of the play screen (:class:`companion.ui.sse_tab.SseTab`), shown
instead of the ship and move entry while the game's setup says ``options.laid`` and a
player's pieces are still to be laid.

The map is drawn as the board is now (the pieces laid so far, and the draft of the player
being laid).  The player chooses City, Trade Station or Nothing, taps the systems where
such a piece of theirs lies, types the VP on the score track, and presses *Lay X's
pieces*: one ``lay`` entry (companion/sse/lay.py) through the screen's write path
(:meth:`SseTab.push`: the session, then the engine), so that the engine checks it (two
pieces on one system, a homeworld, more Cities than the setup gives, ...); a refusal is
said beside the button, naming the system and the rule, nothing recorded, the draft kept.
A seat's page lays its own player's pieces; the host's page any player's still to lay;
the table view none.  When every player is laid the final screen shows the final table.

No rule here: any system may be tapped; what may lie there is the engine's to say.  A
``"final"`` game is laid here with pieces and track VP, a game under way (``"now"``)
with its ships and whose turn it is too (no Unexplored tiles, no conquest markers, no
Open Borders counts yet: the engine's entry has them optional).  Every text shown is
escaped.  The draft is kept in the store after every tap (companion.table.drafts) until
it is laid: a reload, a phone whose kernel was culled, or the host's page finds it
again.

Stable CSS hooks: ``sse-lay-panel`` (the panel), ``sse-laid-title``, ``sse-laid-player``,
``sse-laid-what``, ``sse-laid-count``, ``sse-laid-board`` (its hexes: ``hx_q_r``),
``sse-laid-vp``, ``sse-laid-message``, ``sse-laid-go``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import ipywidgets as w

from ..core.errors import CompanionError
from ..core.htmlsafe import escape
from .drafting import Drafts
from ..sse.game import PIECE_NAMES
from .sse_board import HexBoard, system_cell

if TYPE_CHECKING:
    from .sse_tab import SseTab

#: what a tap puts on a system (the engine decides whether it may lie there)
WHAT = [("City", "city"), ("Trade Station", "trade_station"), ("Nothing", "empty")]
#: ... and in a game under way (``laid: "now"``), where each ship stands
SHIP = ("Ship", "ship")
LETTER = {"city": "C", "trade_station": "T"}
CSS = "<style>.sse-laid-message:empty{display:none}</style>"


class Draft:
    """One player's pieces as tapped so far, and the track's VP."""

    def __init__(self) -> None:
        self.pieces: dict[tuple[int, int], str] = {}
        self.vp = 0
        self.ships: list[tuple[int, int]] = []      # a game under way: where each stands
        self.next = False                           # ... and whether it is this player's turn

    def entry(self, player: str, now: bool = False) -> dict:
        """The ``lay`` entry of this draft (docs/record-format.md); ``now``: a game under
        way (its ships and whose turn it is)."""
        a = {"do": "lay", "player": player,
             "pieces": [{"at": list(h), "piece": self.pieces[h]} for h in sorted(self.pieces)],
             "vp": self.vp}
        if now:
            a["ships"] = [{"at": list(h)} for h in sorted(self.ships)]
            a["next"] = self.next
        return a

    def to_json(self) -> dict:
        """What is kept in the store between taps (companion.table.drafts)."""
        return {"pieces": [[list(h), p] for h, p in sorted(self.pieces.items())],
                "vp": self.vp, "ships": [list(h) for h in sorted(self.ships)],
                "next": self.next}

    @classmethod
    def from_json(cls, data) -> "Draft":
        """A draft read back; anything that does not read as one is left out."""
        d = cls()
        if not isinstance(data, dict):
            return d
        for item in data.get("pieces") or []:
            if (isinstance(item, list) and len(item) == 2 and item[1] in LETTER
                    and isinstance(item[0], list) and len(item[0]) == 2
                    and all(type(v) is int for v in item[0])):
                d.pieces[(item[0][0], item[0][1])] = item[1]
        vp = data.get("vp")
        d.vp = vp if type(vp) is int and 0 <= vp <= 999 else 0
        d.ships = [(h[0], h[1]) for h in (data.get("ships") or [])[:16]
                   if isinstance(h, list) and len(h) == 2 and all(type(v) is int for v in h)]
        d.next = data.get("next") is True
        return d


class SseLay:
    """The laying panel of ``screen`` (see the module's docstring)."""

    def __init__(self, screen: SseTab) -> None:
        self.screen = screen
        guarded = screen.guarded
        self.title = w.HTML()
        self.title.add_class("sse-laid-title")
        self.player = w.Dropdown(description="Pieces of", options=[])
        self.player.add_class("sse-laid-player")
        self.player.observe(guarded(lambda _: self.draw()), "value")
        self.what = w.ToggleButtons(options=WHAT, value="city", description="Tap to put")
        self.what.add_class("sse-laid-what")
        self.count = w.HTML()
        self.count.add_class("sse-laid-count")
        self.next = w.Checkbox(value=False, description="It is this player's turn now",
                               indent=False, layout=w.Layout(width="auto"))
        self.next.add_class("sse-laid-next")
        self.next.observe(guarded(lambda ch: self._next(ch["new"])), "value")
        self.board = HexBoard(guarded(self.tap), css="sse-laid-board")
        self.vp = w.BoundedIntText(value=0, min=0, max=999, description="Track VP",
                                   tooltip="the player's VP on the score track at the game's "
                                   "end, before the end-game points",
                                   style={"description_width": "initial"},
                                   layout=w.Layout(width="160px"))
        self.vp.add_class("sse-laid-vp")
        self.vp.observe(guarded(lambda ch: self._typed(ch["new"])), "value")
        self.message = w.HTML()
        self.message.add_class("sse-laid-message")
        self.drafts = Drafts(lambda: screen.session, Draft, self.message)
        self.go = w.Button(description="Lay the pieces", button_style="primary", icon="flag",
                           layout=w.Layout(width="auto", min_height="44px"))
        self.go.add_class("sse-laid-go")
        self.go.on_click(guarded(lambda _: self.lay()))
        self.controls = w.VBox([self.player, self.what, self.count, self.board.box, self.vp,
                                self.next, self.message, self.go])
        # in the page only while laying: its board is an .sse-board too, and the play
        # screen's own board must be the only one there once the game is laid
        self.kids = (w.HTML(CSS), self.title, self.controls)
        self.box = w.VBox([], layout=w.Layout(display="none"))
        self.box.add_class("sse-lay-panel")

    # -- whose pieces ---------------------------------------------------------------------
    def still_to_lay(self) -> list[str]:
        g = self.screen.game
        if g is None or not g.setup.laid or g.state.finished:
            return []
        return [p for p in g.setup.players if p not in g.state.laid]

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

    def refresh(self) -> bool:
        """The panel shown (True) while pieces are to be laid; hidden otherwise."""
        todo = self.still_to_lay()
        if not todo:
            self.drafts.clear()
            self.board.draw({})          # no hidden hex stands for another game's board
            self.box.layout.display = "none"
            self.box.children = ()
            return False
        s = self.screen
        st = s.game.state
        self.box.layout.display = ""
        if self.box.children != self.kids:
            self.box.children = self.kids
        laid = ", ".join(st.laid)
        now = self.now()
        opts = WHAT[:2] + [SHIP] + WHAT[2:] if now else WHAT
        if list(self.what.options) != opts:
            self.what.options = opts
        self.next.layout.display = "" if now else "none"
        self.title.value = ("<h3 style='margin:4px 0'>Lay each player's pieces as they lie</h3>"
                            f"<div>Still to lay: <b>{escape(', '.join(todo))}</b>"
                            + (f"; laid: {escape(laid)}" if laid else "") + ". Choose City or "
                            "Trade Station, tap each system where one of the player's lies, "
                            + ("then Ship and each system where one of their ships stands, "
                               "whether it is their turn, " if now else "then ")
                            + "the VP on the score track.</div>")
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
        keep = self.player.value if self.player.value in mine else mine[0]
        with self.player.hold_sync():
            self.player.options = mine
            self.player.value = keep
        self.player.layout.display = "none" if len(mine) == 1 else ""
        self.draw()
        return True

    def now(self) -> bool:
        """A game under way (``laid: "now"``): ships and whose turn are laid too."""
        g = self.screen.game
        return g is not None and g.setup.laid == "now"

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

    def _typed(self, value: int) -> None:
        if self.player.value and self._draft().vp != int(value):
            self._draft().vp = int(value)
            self._keep()

    # -- the map --------------------------------------------------------------------------
    def draw(self) -> None:
        if not self.player.value:
            return
        s = self.screen
        st = s.game.state
        player = self.player.value
        d = self._draft()
        seats = {i + 1: p for i, p in enumerate(st.setup.players)}
        cells = {}
        for h, sy in st.map.systems.items():
            c = system_cell(sy)
            tip = f"[{h[0]}, {h[1]}] {sy.describe()}"
            if sy.kind == "homeworld":
                owner = seats.get(sy.home)
                c = {"label": f"{owner} home" if owner else f"home {sy.home}",
                     "fill": st.setup.colour(owner) if owner else "#fff", "text": "white"}
            base = c["label"] if sy.kind != "nebula" else (sy.colour or "")
            col = st.colonies.get(h)
            state = ""
            if col is not None:                     # laid already (another entry)
                c = {"label": f"{LETTER[col.piece]} {base}".strip(),
                     "fill": st.setup.colour(col.owner), "text": "white"}
                tip += f" — {col.owner}'s {PIECE_NAMES[col.piece]}"
                state = "colony"
            piece = d.pieces.get(h)
            if piece is not None:                   # this draft's
                c = {"label": f"{LETTER[piece]} {base}".strip(),
                     "fill": st.setup.colour(player), "text": "white"}
                tip += f" — {player}'s {PIECE_NAMES[piece]} (to lay)"
                state = "selected colony"
            here = d.ships.count(h)
            if here:                                # this draft's ships (a game under way)
                c = {**c, "label": f"{'▲' * here} {c['label']}".strip()}
                tip += f" — {here} of {player}'s ships"
            c["tip"], c["state"] = tip, state
            cells[h] = c
        self.board.draw(cells)
        n = {k: sum(1 for v in d.pieces.values() if v == k) for k in LETTER}
        ships = (f", <b>{len(d.ships)}</b> of {st.setup.ships} ships"
                 if self.now() else "")
        self.count.value = (f"<div>{escape(player)}: <b>{n['city']}</b> Cit"
                            f"{'y' if n['city'] == 1 else 'ies'} and <b>{n['trade_station']}"
                            f"</b> Trade Station{'' if n['trade_station'] == 1 else 's'}"
                            f"{ships} tapped</div>")
        self.vp.value = d.vp
        self.next.value = d.next
        self.go.description = f"Lay {player}'s pieces"

    def tap(self, h) -> None:
        """A system tapped: the chosen piece put there (tapped again, or Nothing: taken
        away, with the ships there); Ship: one more of the player's ships there, as many
        as the setup gives (tapped again once all stand: taken away).  No rule: the engine
        checks the whole entry when it is laid."""
        if not self.player.value or self.controls.layout.display == "none":
            return
        d = self._draft()
        what = self.what.value
        if what == "ship":
            if len(d.ships) < self.screen.game.setup.ships:
                d.ships.append(h)
            elif h in d.ships:
                d.ships.remove(h)
            else:
                self.message.value = (f"<div class='status-error' style='color:#b00020'>⚠ "
                                      f"{escape(self.player.value)} has "
                                      f"{self.screen.game.setup.ships} ships, all placed: tap "
                                      "one again (or Nothing) to move it.</div>")
                return
        elif what == "empty":
            d.pieces.pop(h, None)
            d.ships = [x for x in d.ships if x != h]
        elif d.pieces.get(h) == what:
            d.pieces.pop(h, None)
        else:
            d.pieces[h] = what
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
            self.screen.push(d.entry(player, now=self.now()))
        except CompanionError as e:
            # said beside the button too (the status line is at the page's top)
            self.message.value = (f"<div class='status-error' style='color:#b00020'>⚠ Not "
                                  f"laid: {escape(str(e))}</div>")
            raise
        if player in self.screen.game.state.laid:     # recorded
            self.drafts.laid(player)
            self.message.value = (f"<div class='sse-laid-done' style='color:#1b6e20'>✓ "
                                  f"{escape(player)}'s pieces are laid.</div>")
