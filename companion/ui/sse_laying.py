"""Laying a Small Star Empires game's map from the table's sector tiles (issue 24): a part
of the setup screen (:class:`companion.ui.sse_setup.SseSetupForm`), shown when the map
choice is *From our sector tiles*.

Pick a saved form; then either tap each place's tile and turn (as shuffled on the table),
or press *Shuffle*: the engine deals the typed tiles and their turns
(companion.sse.laying.shuffle) from the seed this part drew once
(:func:`companion.core.chance.new_seed`), the n-th press with ``n``; the new game is
started with that same seed, so the record's seed is the one the shuffle drew from.  The
laid map (companion.sse.laying.lay, with the setup's Unexplored variant and the
"wormholes on main tiles' middles" tick) is drawn below.  No rule here: the engine lays
and refuses (one line).

Stable CSS hooks: ``sse-lay``, ``sse-lay-form``, ``sse-lay-place-<i>`` (a place's row),
``sse-lay-tile-<i>``, ``sse-lay-turn-<i>``, ``sse-lay-shuffle``, ``sse-lay-wormholes``,
``sse-lay-message``, ``sse-lay-map``.
"""
from __future__ import annotations

from typing import Any, Callable

import ipywidgets as w

from ..core import chance
from ..core.errors import CompanionError
from ..core.htmlsafe import escape
from ..sse.hexmap import HexMap
from ..sse.render import map_svg

ERR = "#b00020"
TURNS = [("turn 0", 0)] + [(f"turn {t} ({60 * t}°)", t) for t in range(1, 6)]
NONE = ("choose…", None)


class Laying:
    """The map laid from the table's tiles: form, tiles and turns, Shuffle, the picture."""

    def __init__(self, guarded: Callable, unexplored: Callable[[], bool] = lambda: False):
        self.unexplored = unexplored          # the setup's Unexplored variant, ticked?
        self.seed = chance.new_seed()         # drawn once: Shuffle and the new game's seed
        self.presses = 0                      # Shuffle presses so far (the next n)
        self.dealt: tuple | None = None       # (n, placements) of the last Shuffle
        self.form: Any = None
        self.tiles: dict = {}
        self.rows: list[tuple[w.Dropdown, w.Dropdown]] = []
        self._quiet = False                   # the dropdowns set by the page, not a tap
        self._sig: Any = None                 # the form and tiles the rows were made for
        self.form_pick = w.Dropdown(description="Form", layout=w.Layout(width="320px"))
        self.form_pick.add_class("sse-lay-form")
        self.form_pick.observe(guarded(lambda _: self.pick_form()), "value")
        self.wormholes = w.Checkbox(description="Wormholes on the main tiles' middles")
        self.wormholes.add_class("sse-lay-wormholes")
        self.wormholes.observe(guarded(lambda _: self._wormholes_changed()), "value")
        self.shuffle_btn = w.Button(description="Shuffle", icon="random", button_style="info")
        self.shuffle_btn.add_class("sse-lay-shuffle")
        self.shuffle_btn.on_click(guarded(lambda _: self.shuffle()))
        self.places = w.VBox()
        self.message = w.HTML()
        self.message.add_class("sse-lay-message")
        self.picture = w.HTML()
        self.picture.add_class("sse-lay-map")
        self.box = w.VBox([
            w.HTML("<div><small>Pick your form, then tap each place's tile and turn as you "
                   "shuffled them on the table, or press Shuffle and lay the tiles as "
                   "shown.</small></div>"),
            self.form_pick, self.shuffle_btn, self.wormholes, self.places, self.message,
            self.picture])
        self.box.add_class("sse-lay")

    def next_game(self) -> None:
        """A game was started: the next one draws a new seed and shuffles anew."""
        self.seed, self.presses, self.dealt = chance.new_seed(), 0, None

    # -- the forms and tiles the player has ----------------------------------------------
    def refresh(self) -> None:
        """The saved forms and the typed tiles again (after a tile or a form was saved)."""
        from ..sse import forms, tiles
        try:
            self.tiles = tiles.load_tiles()
            names = sorted(forms.available_forms())
        except CompanionError as e:
            self._say(str(e))
            return
        keep = self.form_pick.value
        self._quiet = True
        try:
            self.form_pick.options = [NONE] + [(n, n) for n in names]
            self.form_pick.value = keep if keep in names else (names[0] if len(names) == 1 else None)
        finally:
            self._quiet = False
        try:
            self.pick_form(keep_choices=self.form_pick.value == keep)
        except CompanionError as e:          # a form file that cannot be read: one line
            self.form, self._sig = None, None
            self._say(str(e))

    def pick_form(self, keep_choices: bool = False) -> None:
        """The chosen form's places, one row each: its tile and its turn."""
        if self._quiet:
            return
        from ..sse import forms
        name = self.form_pick.value
        old = self.choices() if keep_choices else None
        form = forms.load_form(name) if name else None
        sig = (form, sorted((t, v.kind) for t, v in self.tiles.items()))
        if keep_choices and sig == self._sig:
            return                # the same form and tiles: the rows (and the taps) stay
        self._sig = sig
        self.form = form
        self.dealt = None
        self.rows = []
        kids = []
        for i, p in enumerate(self.form.places if self.form else ()):
            tiles = [NONE] + [(t, t) for t in sorted(self.tiles) if self.tiles[t].kind == p.kind]
            tile = w.Dropdown(options=tiles, value=None, layout=w.Layout(width="150px"))
            tile.add_class(f"sse-lay-tile-{i}")
            turns = TURNS if p.turn is None else [tt for tt in TURNS if tt[1] == p.turn]
            turn = w.Dropdown(options=turns, value=turns[0][1], layout=w.Layout(width="150px"))
            turn.add_class(f"sse-lay-turn-{i}")
            for d in (tile, turn):
                d.observe(lambda _: self._changed(), "value")
            row = w.HBox([w.HTML(f"<b>{i + 1}</b> {escape(p.kind)}"), tile, turn])
            row.add_class(f"sse-lay-place-{i}")
            self.rows.append((tile, turn))
            kids.append(row)
        self.places.children = kids
        if old:
            self._set(old)
        self.message.value = ""
        self.draw()

    # -- laying ---------------------------------------------------------------------
    def choices(self) -> list[tuple[str | None, int]]:
        return [(t.value, r.value) for t, r in self.rows]

    def _set(self, chosen: list[tuple[str | None, int]]) -> None:
        self._quiet = True
        try:
            for (tile, turn), (t, r) in zip(self.rows, chosen):
                tile.value = t if t in [v for _, v in tile.options] else None
                turn.value = r if r in [v for _, v in turn.options] else turn.options[0][1]
        finally:
            self._quiet = False

    def _changed(self) -> None:
        if self._quiet:
            return
        self.dealt = None if self.dealt and self._from_dealt() != self.choices() else self.dealt
        self.draw()

    def _wormholes_changed(self) -> None:
        """Ticked or unticked after a Shuffle: the same press dealt again with it."""
        if self.dealt:
            self.presses = self.dealt[0]
            self.shuffle()
        else:
            self.draw()

    def _from_dealt(self) -> list:
        return [(p.tile, p.turn) for p in self.dealt[1]] if self.dealt else []

    def shuffle(self) -> None:
        """The engine deals the typed tiles and turns from this setup's seed (the n-th
        press: n); too few typed tiles: the engine's one line."""
        from ..sse import laying
        if self.form is None:
            raise CompanionError("Pick a form first (draw one under 'Forms').")
        n = self.presses
        try:
            placements = laying.shuffle(self.seed, self.form, self.tiles, n=n,
                                        wormholes=self.wormholes.value)
        except CompanionError as e:
            self._say(str(e))
            return
        self.presses += 1
        self.dealt = (n, placements)
        by_place = {p.place: p for p in placements}
        self._set([(by_place[i].tile, by_place[i].turn) if i in by_place else (None, 0)
                   for i in range(len(self.rows))])
        self.draw()

    def placements(self) -> list:
        """The places' tiles and turns as chosen (the shuffle's wormholes kept while its
        tiles and turns are unchanged; else on every main tile's middle when ticked)."""
        from ..sse import laying
        missing = [str(i + 1) for i, (t, _) in enumerate(self.choices()) if t is None]
        if missing:
            raise CompanionError(f"Choose the tile of place(s) {', '.join(missing)}, or press "
                                 "Shuffle.")
        if self.dealt:
            return list(self.dealt[1])
        out = []
        for i, (t, r) in enumerate(self.choices()):
            assert t is not None
            tile = self.tiles[t]
            worm = bool(self.wormholes.value and tile.kind == "main" and tile.middle() is not None)
            out.append(laying.Placement(place=i, tile=t, turn=r, wormhole=worm))
        return out

    def laid(self) -> HexMap:
        """The map laid from the chosen tiles (the engine's LayError: one line)."""
        from ..sse import laying
        if self.form is None:
            raise CompanionError("Pick a form first (draw one under 'Forms').")
        dealt = "shuffle" if self.dealt else "hand"
        return laying.lay(self.form, self.placements(), self.tiles,
                          unexplored=bool(self.unexplored()), dealt=dealt,
                          shuffle=self.dealt[0] if self.dealt else None)

    def draw(self) -> None:
        """The laid map's picture, or why it cannot be laid yet."""
        if self.form is None:
            self.picture.value = "<div><small>No form chosen.</small></div>"
            return
        if any(t is None for t, _ in self.choices()):
            self.picture.value = "<div><small>Choose every place's tile, or Shuffle.</small></div>"
            return
        try:
            m = self.laid()
        except CompanionError as e:
            self._say(str(e))
            self.picture.value = ""
            return
        self.message.value = ""
        how = (f"dealt by Shuffle #{self.dealt[0] + 1}" if self.dealt else "laid by hand")
        self.picture.value = (f"<div><b>{escape(m.title)}</b> · {len(m)} systems, {escape(how)}"
                              "</div>" + map_svg(m, size=20))

    def _say(self, text: str) -> None:
        self.message.value = (f"<div style='color:{ERR};font-weight:600'>{escape(text)}</div>")
