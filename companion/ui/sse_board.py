"""The Small Star Empires board as buttons: one hexagonal button a system, sized to the
screen (a touch target on a phone), the map editor's palette.  No game rule here: what is
legal comes from the engine."""
from __future__ import annotations


from ..core.errors import CompanionError
from ..core.htmlsafe import colour

import ipywidgets as w

from ..core.roles import Write
from ..sse import hexmap as hm
from ..sse.game import PIECE_NAMES
from ..sse.hexmap import EFFECT_NAMES, System
from ..sse.offer import homeworld_numbers, planet_choices
from ..sse.render import KIND_FILL, NEBULA_FILL, NEBULA_TEXT
from .sse_protocol import SseScreenProtocol


COL_PX, ROW_PX, HEX_W, HEX_H = 27, 46, 54, 62
#: the smallest hex on a narrow screen: 44 px tall, a touch target (issue 15)
MIN_HEX_H = 44
MIN_COL_PX = round(MIN_HEX_H * COL_PX / HEX_H + 0.05, 1)
LEGAL = "#16a34a"
KIND_LABEL = {"planetary": "planetary", "nebula": "nebula", "empty": "empty",
              "homeworld": "homeworld", "wormhole": "wormhole", "black_hole": "black hole",
              "unexplored": "unexplored"}
#: the map editor's palette: label -> system (None removes the hex)
PALETTE = ([(f"{n} planet{'s' if n > 1 else ''}", System("planetary", planets=n))
            for n in planet_choices()]
           + [(f"{c} nebula", System("nebula", colour=c)) for c in hm.COLOURS]
           + [("empty", System("empty")), ("wormhole", System("wormhole")),
              ("black hole", System("black_hole")), ("unexplored", System("unexplored"))]
           + [(f"homeworld {k}", System("homeworld", home=k)) for k in homeworld_numbers()]
           + [("remove", None)])


def hex_class(h) -> str:
    """Stable CSS class of a hex button (tests click on it)."""
    q, r = h
    return f"hx_{'m' if q < 0 else ''}{abs(q)}_{'m' if r < 0 else ''}{abs(r)}"


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
            for cls in ("legal", "selected", "ghost", "ship", "colony", "said"):
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
        c = s.colour or ""
        return {"label": f"{c} neb.", "fill": NEBULA_FILL[c], "text": NEBULA_TEXT[c]}
    if s.kind == "planetary":
        return {"label": "●" * (s.planets or 0), "fill": KIND_FILL["planetary"]}
    if s.kind == "black_hole":
        return {"label": "black hole", "fill": KIND_FILL["black_hole"], "text": "#ddd"}
    if s.kind == "wormhole":
        return {"label": "worm-hole", "fill": KIND_FILL["wormhole"]}
    if s.kind == "unexplored":
        return {"label": "?", "fill": KIND_FILL["unexplored"], "text": "white"}
    if s.kind == "homeworld":
        return {"label": f"home {s.home}", "fill": "#ffffff"}
    return {"label": "", "fill": KIND_FILL["empty"]}


class SseBoard:
    """The play screen's board, a part of :class:`companion.ui.sse_screen.SseScreen`: ``board``
    (a :class:`HexBoard`) drawn from the game and the selection, with the engine's legal
    destinations of the selected ship and piece in green; a click selects a ship, moves
    it, or says which rule forbids the move."""

    def __init__(self, screen: SseScreenProtocol):
        self.screen = screen
        self.board = HexBoard(screen.guarded(self.clicked))
        # a sentence's action staged (issue 40): its destination marked, Confirm below
        self.said: dict | None = None
        self.said_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.said_box.add_class("sse-said")

    def stage(self, action: dict) -> None:
        """A sentence the game understood (:class:`companion.ui.sayline.SayLine`) put into
        the ordinary entry: its ship selected, its piece chosen, its destination marked on
        the board; *Confirm* is the tap on that destination (or *Damage*), *Cancel* forgets
        it.  Nothing is recorded here."""
        s = self.screen
        if not s.views_part.may_enter():
            raise CompanionError(f"{s.views_part.waiting_words()}: this page enters only "
                                 f"{s.seat}'s moves.")
        s.select(action.get("ship"))
        piece = action.get("piece")
        if piece is not None and piece in [v for _, v in s.piece.options]:
            s.piece.value = piece
        self.said = dict(action)
        self.refresh()
        ok = w.Button(description="Confirm", button_style="success", icon="check",
                      layout=w.Layout(width="auto", min_height="40px"))
        ok.add_class("sse-said-confirm")
        ok.on_click(s.guarded(lambda _: self.confirm_said()))
        no = w.Button(description="Cancel", layout=w.Layout(width="auto", min_height="40px"))
        no.add_class("sse-said-cancel")
        no.on_click(s.guarded(lambda _: self.forget_said()))
        self.said_box.children = [ok, no]

    def confirm_said(self) -> None:
        """*Confirm*: the staged action, by the same path as the tap it stands for."""
        s, said = self.screen, self.said
        if said is None:
            return
        if said.get("do") == "damage":
            if s.selected != said.get("ship"):
                s.select(said.get("ship"))
            self.forget_said()
            s.damage()
            return
        to = tuple(said["to"])
        legal = self.legal()
        if s.selected != said.get("ship") or to not in legal:
            self.forget_said()
            raise CompanionError("The entry changed since it was read: read the line again.")
        self.forget_said()
        self.move_to(to, legal[to])

    def forget_said(self) -> None:
        self.said = None
        self.said_box.children = []
        self.refresh()

    def legal(self) -> dict:
        """The green destinations: legal for the selected ship *and* the selected piece
        (with no piece left to choose, the engine's moves are the repairs at home)."""
        s = self.screen
        g = s.game
        if s.selected is None or g.state.finished:
            return {}
        return {m.to: m for m in g.legal_moves(g.state.current, s.selected,
                                               piece=s.piece.value)}

    def refresh(self) -> None:
        s = self.screen
        st = s.game.state
        legal = self.legal()
        sel_at = st.players[st.current].ships[s.selected].at if (
            s.selected is not None and st.current) else None
        cells = {}
        seats = {i + 1: p for i, p in enumerate(st.setup.players)}
        for h, sy in st.map.systems.items():
            c = system_cell(sy)
            tip = f"[{h[0]}, {h[1]}] {sy.describe()}"
            state = []
            if sy.kind == "homeworld":
                owner = seats.get(sy.home)
                c = {"label": f"{owner} home" if owner else f"home {sy.home}",
                     "fill": st.setup.colour(owner) if owner else "#fff", "text": "white"}
            if h in st.revealed:
                rv = st.revealed[h]
                c = {"label": EFFECT_NAMES[rv["effect"]] if rv["effect"] != "planetary"
                     else "●" * rv["planets"], "fill": "#c7ccd6"}
                tip += f" — revealed: {EFFECT_NAMES[rv['effect']]}"
            col = st.colonies.get(h)
            if col is not None:
                letter = "T" if col.piece == "trade_station" else "C"
                base = c["label"] if sy.kind != "nebula" else f"{sy.colour}"
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
            if self.said is not None and list(h) == list(self.said.get("to") or []):
                state.append("said")            # the destination a sentence named
                c = {**c, "label": "◎ " + c["label"], "fill": "#1d4ed8", "text": "white"}
                tip += " — the destination said: Confirm above"
            if h == sel_at:
                state.append("selected")
                c["label"] = "◆" + c["label"]
            c["tip"] = tip
            c["state"] = " ".join(state)
            cells[h] = c
        self.board.draw(cells)

    # -- clicks --------------------------------------------------------------------------
    def clicked(self, h) -> None:
        s = self.screen
        g = s.game
        st = g.state
        if st.finished:
            return
        s.session.require(Write.ACTION)      # the table view's board shows, records nothing
        if not s.views_part.may_enter():
            raise CompanionError(f"{s.views_part.waiting_words()}: this page moves only "
                                 f"{s.seat}'s ships. To enter {st.current}'s move here, tap "
                                 f"'Enter {st.current}'s move (no phone)'.")
        me = st.players[st.current]
        mine = [sh for sh in me.ships if sh.at == h]
        legal = self.legal()
        if h in legal:
            self.move_to(h, legal[h])
            return
        if mine:
            movable = [sh for sh in mine if g.legal_moves(me.name, sh.id)]
            s.select((movable or mine)[0].id)
            return
        if s.selected is None:
            raise CompanionError(f"Select one of {me.name}'s ships first (click it on the board).")
        # an illegal destination: say which rule forbids it
        g.check({"player": me.name, "ship": s.selected, "to": list(h), "piece": s.piece.value})

    def move_to(self, h, m) -> None:
        """A green system clicked: a repair or a colonising move is pushed at once, an
        exploring move waits for its tile (:class:`companion.ui.sse_reveal.SseReveal`)."""
        s = self.screen
        action = {"player": s.game.state.current, "ship": s.selected, "to": list(h)}
        if m.kind == "repair":
            action["piece"] = None
            s.push(action)
        elif m.kind == "colonise":
            action["piece"] = s.piece.value
            s.push(action)
        else:
            s.reveal_part.ask(action)
