"""The entry form of an exploring move in the Small Star Empires tab: what the Unexplored
System's tile shows, and what follows from it: the City a Nordinn Empire destroys, the
Refuelling Station's extra move and, when that move enters another Unexplored System, that
tile too (a form inside the form).

Every choice offered comes from the engine's queries (``SseGame.nordinn_choices``,
``SseGame.refuel_choices``, ``SseGame.trial``), so the form follows the game's
``setup.options`` (nordinn, refuel) and holds no rule of its own.  It asks only when there
is a real choice: a Nordinn Empire with one City to destroy says which one; with none,
that nothing is destroyed.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import ipywidgets as w

from ..core.errors import CompanionError, IllegalAction
from ..core.htmlsafe import escape
from ..sse.game import PIECE_NAMES, SseGame
from ..sse.hexmap import EFFECT_NAMES, EFFECTS
from ..sse.offer import planet_choices, rule_text, tile_piece
from .writes import writes
from .sse_protocol import SseScreenProtocol

if TYPE_CHECKING:
    from ..sse.state import State

REFUEL = {"effect": "refuelling_station"}


def cell(h) -> str:
    return f"[{h[0]}, {h[1]}]"


class TileForm:
    """One Unexplored System's tile at ``at`` in an exploring move of ``player``.

    ``wrap(sub)``: the whole action with ``sub`` (this tile's keys: reveal, piece,
    destroy, then) in its place.  ``before``: the state in which the ship enters this
    system (None: the game's current state), where the Nordinn Empire's choice is made.
    ``depth``: 1 for the move's own tile, 2 for the tile a Refuelling Station's extra move
    enters, and so on (the CSS classes of a deeper form end in ``-<depth>``)."""

    def __init__(self, game: SseGame, player: str, ship: int, at, *,
                 wrap: Callable[[dict], dict], before=None, depth: int = 1,
                 guard: Callable = lambda f: f):
        self.game, self.player, self.ship, self.at = game, player, ship, tuple(at)
        self.wrap, self.before, self.depth, self.guard = wrap, before, depth, guard
        sfx = "" if depth == 1 else f"-{depth}"
        self.eff = w.Dropdown(options=[("what does the tile show?", None)]
                              + [(EFFECT_NAMES[e], e) for e in EFFECTS],
                              description="Tile" if depth == 1 else f"Tile {cell(self.at)}")
        self.eff.add_class("sse-reveal" + sfx)
        planets = planet_choices()
        self.planets = w.Dropdown(options=[(str(n), n) for n in planets], value=planets[0],
                                  description="Planets")
        self.planets.add_class("sse-reveal-planets" + sfx)
        self.destroy = w.Dropdown(options=[], description="Destroy")
        self.destroy.add_class("sse-destroy" + sfx)
        self.destroy_note = w.HTML()
        self.destroy_note.add_class("sse-destroy-note" + sfx)
        self.then_to = w.Dropdown(options=[("stay", None)], value=None, description="Then to")
        self.then_to.add_class("sse-then" + sfx)
        self.then_piece = w.ToggleButtons(options=[], description="with")
        self.then_piece.add_class("sse-then-piece" + sfx)
        self.nested = w.VBox()
        self.nested.add_class("sse-then-tile" + sfx)
        self.child: TileForm | None = None
        self._nordinn: list | None = None       # the engine's answers, asked once
        self._refuel: dict | None = None
        self._after: State | None = None        # the state after a Refuelling Station here
        self.eff.observe(guard(lambda _: self._show()), "value")
        self.then_to.observe(guard(lambda _: self._then_changed()), "value")
        self._show()

    @property
    def children(self) -> list:
        return [self.eff, self.planets, self.destroy_note, self.destroy,
                w.HBox([self.then_to, self.then_piece]), self.nested]

    # -- the engine's choices ------------------------------------------------------------
    def nordinn_choices(self) -> list:
        if self._nordinn is None:
            self._nordinn = self.game.nordinn_choices(self.player, self.at, state=self.before)
        return self._nordinn

    def refuel_choices(self) -> dict:
        """then.to -> Move, from the state after the Refuelling Station here is entered."""
        if self._refuel is None:
            try:
                self._after = self.game.trial(self.wrap({"reveal": dict(REFUEL)}))
            except IllegalAction:
                self._after, self._refuel = None, {}
            else:
                self._refuel = {m.to: m for m in self.game.refuel_choices(
                    self.player, self.at, ship=self.ship, state=self._after)}
        return self._refuel

    # -- what is shown -------------------------------------------------------------------
    def _show(self):
        e = self.eff.value
        self.planets.layout.display = "" if e == "planetary" else "none"
        self.destroy.layout.display = self.destroy_note.layout.display = "none"
        if e == "nordinn_empire":
            choices = self.nordinn_choices()
            owner = self._state().colonies
            if len(choices) > 1:
                self.destroy.options = [("choose the City…", None)] + [
                    (f"{owner[h].owner}'s City at {cell(h)}", h) for h in choices]
                self.destroy.value = None
                self.destroy.layout.display = ""
                self.destroy_note.value = ("<small>The Nordinn Empire destroys a City: choose "
                                           "which one.</small>")
            elif choices:
                h = choices[0]
                self.destroy_note.value = (f"<small>The Nordinn Empire destroys "
                                           f"{escape(owner[h].owner)}'s City at {cell(h)}."
                                           f"</small>")
            else:
                self.destroy_note.value = "<small>No City is destroyed.</small>"
            self.destroy_note.layout.display = ""
        refuel = e == "refuelling_station"
        if refuel:
            moves = self.refuel_choices()
            keep = self.then_to.value if self.then_to.value in moves else None
            self.then_to.options = [("stay", None)] + [
                (cell(h) + (" (unexplored)" if m.kind == "explore" else ""), h)
                for h, m in moves.items()]
            self.then_to.value = keep
        elif self.then_to.value is not None:
            self.then_to.value = None
        self.then_to.layout.display = "" if refuel else "none"
        self._then_changed()

    def _then_changed(self):
        h = self.then_to.value if self.eff.value == "refuelling_station" else None
        m = self.refuel_choices().get(h) if h is not None else None
        if m is None or m.kind == "explore":
            self.then_piece.layout.display = "none"
        else:
            opts = [(PIECE_NAMES[p], p) for p in m.pieces]
            if [v for _, v in self.then_piece.options] != list(m.pieces):
                self.then_piece.options = opts
            if self.then_piece.value not in m.pieces:
                self.then_piece.value = m.pieces[0]
            self.then_piece.layout.display = ""
        if m is not None and m.kind == "explore":
            if self.child is None or self.child.at != h:
                self.child = TileForm(self.game, self.player, self.ship, h,
                                      wrap=lambda sub, h=h: self.wrap(
                                          {"reveal": dict(REFUEL),
                                           "piece": tile_piece(REFUEL["effect"]),
                                           "then": {"to": list(h), **sub}}),
                                      before=self._after, depth=self.depth + 1,
                                      guard=self.guard)
                self.nested.children = [w.HTML(f"<b>Then {cell(h)}:</b> turn its tile "
                                               "face-up too."), *self.child.children]
        elif self.child is not None:
            self.child = None
            self.nested.children = []

    def _state(self):
        return self.before if self.before is not None else self.game.state

    # -- the entry -----------------------------------------------------------------------
    def value(self) -> dict:
        """This tile's part of the action; CompanionError when a choice is missing."""
        e = self.eff.value
        if e is None:
            raise CompanionError(f"Turn the tile at {cell(self.at)} face-up and choose what "
                                 "it shows.")
        sub: dict = {"reveal": {"effect": e}}
        if e == "planetary":
            sub["reveal"]["planets"] = self.planets.value
        piece = tile_piece(e)
        if piece is not None:
            sub["piece"] = piece
        if e == "nordinn_empire" and len(self.nordinn_choices()) > 1:
            if self.destroy.value is None:
                raise CompanionError("Choose the City the Nordinn Empire destroys.")
            sub["destroy"] = list(self.destroy.value)
        if e == "refuelling_station" and self.then_to.value is not None:
            h = self.then_to.value
            m = self.refuel_choices()[h]
            if m.kind == "explore":
                if self.child is None or self.child.at != h:
                    raise CompanionError(f"Turn the tile at {cell(h)} face-up and choose what "
                                         "it shows.")
                sub["then"] = {"to": list(h), **self.child.value()}
            else:
                sub["then"] = {"to": list(h), "piece": self.then_piece.value}
        return sub

    def action(self) -> dict:
        return self.wrap(self.value())


def reveal_form(game: SseGame, action: dict, guard: Callable = lambda f: f) -> TileForm:
    """The form for ``action`` (player, ship, to): an exploring move waiting for its tile."""
    return TileForm(game, action["player"], action["ship"], action["to"],
                    wrap=lambda sub: {**action, **sub}, guard=guard)


class SseReveal:
    """The part of :class:`companion.ui.sse_screen.SseScreen` that holds an exploring move
    waiting for its tile: ``extra`` (class ``sse-extra``, below the entry) shows the
    :class:`TileForm`, *Confirm* pushes the move through the screen, *Cancel* forgets it."""

    def __init__(self, screen: SseScreenProtocol):
        self.screen = screen
        self.extra = w.VBox()
        self.extra.add_class("sse-extra")
        self.pending: dict | None = None        # an unexplored move waiting for its tile
        self.form: TileForm | None = None

    def ask(self, action: dict) -> None:
        """The tile's form: the Nordinn Empire's Cities and the Refuelling Station's extra
        moves are the engine's (nordinn_choices, refuel_choices), under the game's
        setup.options; it asks only when there is a choice."""
        s = self.screen
        self.pending = action
        to = tuple(action["to"])
        self.form = form = reveal_form(s.game, action, guard=s.guarded)
        ok = w.Button(description="Confirm", button_style="success", icon="check")
        ok.add_class("sse-confirm")
        writes(ok)
        cancel = w.Button(description="Cancel")
        ok.on_click(s.guarded(lambda _: s.push(form.action())))
        cancel.on_click(s.guarded(lambda _: self.clear()))
        # the book's rule quoted (companion.core.rules.Rule: unexplored-city)
        self.extra.children = [
            w.HTML(f"<b>{escape(action['player'])} explores [{to[0]}, {to[1]}]:</b> "
                   "turn the tile face-up and enter it (colonised with a City).",
                   tooltip=rule_text("unexplored-city")),
            *form.children, w.HBox([ok, cancel])]

    def clear(self) -> None:
        """No move waiting: the form is gone."""
        self.pending = None
        self.form = None
        self.extra.children = []
