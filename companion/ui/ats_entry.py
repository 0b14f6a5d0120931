"""The Among the Stars turn entry: the station grid with its legal cells, a click on a cell,
what the engine says the build still needs (energy payer, choices, manual VP, spaceships),
confirm and cancel, discards, and the card-values form for unknown printed numbers.  A part
of :class:`companion.ui.ats_screen.AtsScreen`: it reads the screen's widgets through it."""
from __future__ import annotations

from ..core.htmlsafe import escape

import ipywidgets as w

from ..ats import render, whatif
from ..core.errors import CompanionError
from .cardform import CardForm
from .photo_entry import CardPhoto
from .sayline import SayLine
from .common import CELL_PX, ERR, LEGAL, cell_class
from .style import scroll_into_view



class AtsEntry:
    """The turn entry of an :class:`~companion.ui.ats_screen.AtsScreen`."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.guarded = screen.guarded
        self.say = screen.say
        self.error = screen.error
        self.buttons: dict[tuple[int, int], w.Button] = {}
        # what the build being confirmed still needs (set by _extras)
        self.energy_choice: w.RadioButtons | None = None
        self.school: dict[str, w.ToggleButtons] = {}
        self.manual_vp: w.Text | None = None
        self.ships = None
        # the click a card-values form interrupted: (player, action, card, cell); once
        # the values are saved the same action goes on (issue 37: "every form that
        # interrupts an action finishes that action when saved")
        self._resume: tuple | None = None
        # what waits for the end of this turn, on every page (issue 37: School of Alien
        # Cultures' pay-or-lose resolves then, and nothing on the screen said so)
        self.pending_line = w.HTML(layout=w.Layout(display="none"))
        self.pending_line.add_class("pending-effects")
        # the line of entry (issue 40): a sentence staged here, confirmed by a tap
        # a photo of the card held: its name into the card box (hidden without the OCR);
        # its camera button beside the line (one row on a phone)
        self.card_photo = CardPhoto(screen, self._take_name)
        self.say_line = SayLine(screen, self.stage, "ats", take=self._take_name,
                                who=lambda: screen.entry_player.value if screen.seat else None,
                                beside=(self.card_photo.upload,))
        self.hands_free = w.VBox([self.say_line.box, self.card_photo.box])

    def show_pending(self) -> None:
        """The effects that wait for the end of this turn (the engine's words)."""
        from ..ats.effects import pending_words
        words = (pending_words(self.screen.game.state, self.screen.seat)
                 if self.screen.game else [])
        self.pending_line.value = ("<div class='pending-effects-list'><b>At the end of this "
                                   "turn:</b><ul style='margin:2px 0 2px 18px;padding:0'>"
                                   + "".join(f"<li>{escape(x)}</li>" for x in words)
                                   + "</ul></div>") if words else ""
        self.pending_line.layout.display = "" if words else "none"

    # -- the clickable grid -------------------------------------------------------------
    def _button(self, cell):
        b = self.buttons.get(cell)
        if b is None:
            b = w.Button(layout=w.Layout(width=f"{CELL_PX}px", height=f"{CELL_PX}px", padding="0"))
            b.add_class(cell_class(*cell))
            b.add_class("grid-cell")
            b.on_click(self.guarded(lambda _, c=cell: self.clicked(c)))
            self.buttons[cell] = b
        return b

    def draw_grid(self, player, legal: set):
        if player is None:
            self.screen.grid.children = []
            return
        station = self.screen.game.state.station(player)
        frontier = set(station.frontier())
        cells = set(station.cells) | frontier | set(station.spaceships)
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
                elif (r, c) in station.spaceships:
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
        self.screen.grid.layout.grid_template_columns = f"repeat({c1 - c0 + 1}, {CELL_PX}px)"
        self.screen.grid.layout.grid_gap = "3px"
        self.screen.grid.children = kids

    def stage(self, action: dict) -> None:
        """A sentence the game understood (:class:`companion.ui.sayline.SayLine`) put into
        the ordinary entry: the player, the kind, the card; for a build or a reactor the
        cell's click with its questions, the energy said chosen and the cell marked, and
        always a Confirm (one tap records it, the form corrects it); a discard waits for
        its button; any other entry for Confirm.  Nothing is recorded here."""
        sc = self.screen
        player, do = action.get("player"), action.get("do")
        allowed = sc.views_part.offered()
        if player not in allowed:
            raise CompanionError(f"This page does not enter {player}'s actions now"
                                 + (f" (it enters {', '.join(map(str, allowed))}'s)." if allowed
                                    else "."))
        kinds = {k for _, k in sc.entry_action.options}
        with sc.hush():
            sc.entry_player.value = player
            if do in kinds:
                sc.entry_action.value = do
            if action.get("card"):
                sc.entry_card.value = action["card"]
        sc.pending = None
        sc.extra.children = []
        sc.refresh_entry()
        at = action.get("at")
        if do in ("build", "reactor") and at is not None:
            self.clicked(tuple(at), said=action)
        elif do in ("build", "reactor"):            # the cell not said: the grid asks it
            sc.hint.value = (f"{escape(sc.session.describe({**action, 'at': None}))}: tap its "
                             "cell (a green one).")
            scroll_into_view(sc.grid)
        elif do == "discard":
            sc.hint.value = (f"{escape(sc.session.describe(action))}: press "
                             f"'{escape(sc.discard_btn.description)}' to record it.")
            scroll_into_view(sc.discard_btn)
        else:
            sc.pending = dict(action)
            sc.extra.children = [self._confirm_row()]
            sc.hint.value = f"{escape(sc.session.describe(action))}: confirm below."

    def clicked(self, cell, said: dict | None = None):
        """A cell tapped (or ``said``: a sentence's action staged, always confirmed)."""
        g = self.screen.game
        player = self.screen.entry_player.value
        do = self.screen.entry_action.value
        if g.state.finished:
            return
        if self.screen.views_part.seat_done():
            raise CompanionError(self.screen.views_part.done_words() + ".")
        if player is None:
            raise CompanionError("Choose the player whose action you enter first.")
        if do == "discard":
            k = self.screen.kinds
            raise CompanionError(f"Discard is selected: press '{k['discard'].button}', or choose "
                                 f"{k['build'].label} / {k['reactor'].label} to use the grid.")
        name = self.screen.card_name()
        if not name:
            raise CompanionError("Type the selected card's name first.")
        action = {"player": player, "do": do, "card": name, "at": list(cell)}
        self.screen.pending = None
        self.screen.extra.children = []
        # ask the engine what the action still needs *before* checking it: an illegal
        # cell is named with its rule, a legal one gets its questions (values, choices,
        # manual VP, energy payer, spaceships), nothing is sent until they are answered
        needs = g.needs(action)
        if "values" in needs:
            v = needs["values"]
            self.ask_values(v["card"], v["fields"], cell=cell)
            self._resume = (player, do, name, tuple(cell), said)
            self.error(f"Enter the printed values of '{v['card']}' first "
                       f"({', '.join(v['fields'])}): once saved, the "
                       f"{'build' if do == 'build' else 'action'} at {list(cell)} goes on.")
            return
        extras = self._extras(player, g.card(name) if do == "build" else None, cell, needs,
                              said)
        if said is not None:
            self.mark(cell)
        if extras:
            self.screen.pending = action
            self.screen.extra.children = extras
            asks = len(extras) > 1 or said is None      # questions, not only Confirm
            self.screen.hint.value = (
                f"{escape(self.screen.session.describe({**action, 'card': g.card(name).name}))}: "
                + ("answer below, then confirm." if asks else
                   "tap Confirm to record it, or correct it."))
            self.screen.entry_msg.value = ""
            return
        self.screen.push(action)

    def mark(self, cell) -> None:
        """The cell a sentence named, marked on the grid until the entry is done (None:
        no cell marked)."""
        for c, b in self.buttons.items():
            if cell is not None and c == tuple(cell):
                b.add_class("said-cell")
            elif "said-cell" in b._dom_classes:
                b.remove_class("said-cell")

    def _confirm_row(self):
        ok = w.Button(description="Confirm", button_style="success", icon="check",
                      layout=w.Layout(width="auto"))
        ok.add_class("confirm-build")
        ok.on_click(self.guarded(lambda _: self.confirm()))
        no = w.Button(description="Cancel", layout=w.Layout(width="auto"))
        no.add_class("cancel-build")
        no.on_click(self.guarded(lambda _: self.cancel_pending()))
        return w.HBox([ok, no])

    def _extras(self, player, card, cell, needs: dict, said: dict | None = None) -> list:
        """Widgets for what the engine says the build still needs (and a Confirm for a
        sentence's action, which is never recorded without a tap)."""
        kids = []
        self.energy_choice = None
        self.school = {}
        self.manual_vp = None
        self.ships = None
        if "spaceships" in needs:
            ship_widgets, self.ships = self.screen.mode_panel.spaceship_choices(needs["spaceships"])
            kids += ship_widgets
        if "energy_from" in needs:
            opts = needs["energy_from"]
            default = next((o for o in opts if o["default"]), opts[0])
            said_from = [list(c) for c in (said or {}).get("energy_from") or []]
            default = next((o for o in opts if [list(c) for c in o["energy_from"]] == said_from),
                           default)
            self.energy_choice = w.RadioButtons(
                options=[(o["label"] + (" (default)" if o["default"] else ""),
                          tuple(tuple(c) for c in o["energy_from"])) for o in opts],
                value=tuple(tuple(c) for c in default["energy_from"]), description="Energy from")
            self.energy_choice.add_class("energy-from")
            kids.append(self.energy_choice)
        if "choices" in needs:
            ch = needs["choices"]
            words = " or ".join(label for _, label in ch["options"])
            kids.append(w.HTML(f"<b>{escape(ch['card'])}</b>: each other player secretly chooses: "
                               f"{escape(words)}."))
            for other in ch["players"]:
                t = w.ToggleButtons(options=[(label, value) for value, label in ch["options"]],
                                    value=None, description=other,
                                    style={"description_width": "initial"})
                t.add_class(f"school-{self.screen.game.setup.players.index(other) + 1}")
                self.school[other] = t
                kids.append(t)
        if "manual_vp" in needs:
            self.manual_vp = w.Text(description="VP gained", placeholder="VP the ability gives now",
                                  style={"description_width": "initial"})
            self.manual_vp.add_class("manual-vp")
            kids += [w.HTML(escape(needs["manual_vp"]["prompt"])), self.manual_vp]
        if kids or said is not None:
            row = self._confirm_row()
            row.children[0].description = "Confirm build" if card is not None else "Confirm"
            kids.append(row)
        return kids

    def confirm(self):
        if self.screen.pending is None:
            return
        action = dict(self.screen.pending)
        if self.energy_choice is not None:
            action["energy_from"] = [list(c) for c in self.energy_choice.value]
        if self.school:
            missing = [p for p, t in self.school.items() if t.value is None]
            if missing:
                raise CompanionError(f"Waiting for the choice of {', '.join(missing)}.")
            action["choices"] = {p: t.value for p, t in self.school.items()}
        if self.ships is not None:
            action["spaceships"] = self.ships()
        if self.manual_vp is not None:
            try:
                action["manual_vp"] = int(self.manual_vp.value.strip())
            except ValueError:
                raise CompanionError("Type the VP the ability gives as a whole number "
                                     "(0 if it gives none).") from None
        self.recorded(action)

    def recorded(self, action: dict) -> None:
        """``action`` pushed; once it is in the record the line of entry is emptied for
        the next sentence (a refused or behind push keeps it)."""
        n = len(self.screen.game.actions)
        self.screen.push(action)
        if len(self.screen.game.actions) > n:
            self.say_line.text.value = ""
            self.say_line.clear()
        else:                                   # another page's change came first
            self.say_line.stale()

    def cancel_pending(self):
        self.screen.pending = None
        self.screen.extra.children = []
        self.mark(None)                 # the said cell no longer marked (issue 52)
        self.say_line.clear()           # nor "Understood ...": the sentence stays to edit
        self.screen.refresh_entry()

    def discard(self):
        name = self.screen.card_name()
        player = self.screen.entry_player.value
        if player is None:
            raise CompanionError("Choose the player whose action you enter first."
                                 if self.screen.game.state.waiting else "Everyone has acted; nothing to enter.")
        if not name:
            raise CompanionError("Type the discarded card's name first (discards are public).")
        self.recorded({"player": player, "do": "discard", "card": name})

    # -- a card the catalogue does not name (issue 36) ---------------------------------
    def not_a_location(self, name: str, card, do: str = "build"):
        """The entry's hint for a typed name that is no location card: close names (as
        buttons too), or none; a name the catalogue does not know at all is offered as a
        new card: its form for a build, its name only for an action that does not use its
        values (a discard, a reactor: its values are asked when it is first built).
        Returns the name when its new-card form is open (it stays open)."""
        sc = self.screen
        sug = sc.game.catalogue.suggest(name, n=4)
        if sug:   # still typing, or a small slip: suggest, do not shout
            sc.hint.value = f"Did you mean: {escape(', '.join(sug))}?"
        else:
            sc.hint.value = (f"<span style='color:{ERR}'>No location card called "
                             f"'{escape(name)}'.</span>")
        if card is not None or do not in ("build", "discard", "reactor"):
            return None                      # a conflict is no location card to add
        if sc.form_for == name:
            return name                      # its new-card form stays open
        sc.extra.children = self.new_card_offer(name, sug, name_only=do != "build")
        return None

    def new_card_offer(self, name: str, suggestions, *, name_only: bool = False) -> list:
        """What a typed name the catalogue does not know offers: each close name as a
        button (a tap takes it) and "'NAME' is a new card: add it", which opens the card
        form for it (most Revival cards are not shipped: the player types each once)."""
        kids: list = []
        for n in list(suggestions)[:4]:
            b = w.Button(description=n, tooltip=f"take '{n}'",
                         layout=w.Layout(width="auto", max_width="100%", min_height="44px"))
            b.add_class("entry-suggestion")
            b.on_click(self.guarded(lambda _, n=n: self._take_name(n)))
            kids.append(b)
        add = w.Button(description=f"'{name}' is a new card: add it", icon="plus",
                       tooltip="type its printed values once, from the physical card",
                       layout=w.Layout(width="auto", max_width="100%", min_height="44px"))
        add.add_class("entry-new-card")
        add.on_click(self.guarded(lambda _: self._add_name_only(name) if name_only
                                  else self._ask_new(name)))
        kids.append(add)
        row = w.HBox(kids, layout=w.Layout(flex_flow="row wrap", width="100%"))
        row.add_class("entry-offer")
        return [row]

    def _take_name(self, name: str) -> None:
        self.screen.entry_card.value = name

    def _ask_new(self, name: str):
        """The card form for a new location card called ``name`` (set preset to Revival
        in a game that plays Revival's cards); saved like typed values: the game, the
        player's catalogue, the game's cards in the store."""
        blank = self._new_blank(name)
        self.screen.form_for = name
        form = CardForm(blank, self.guarded(self._save_new), self.guarded(self.close_form),
                        new=True, name_given=True,
                        preview=self.previewer(self.screen.entry_player.value, None))
        self.screen.form_box.children = [form.box]
        self.screen.extra.children = []
        form.focus()
        self.screen.hint.value = (f"'{escape(name)}' is not in your catalogue: type it from "
                                  "the physical card once.")
        return form

    def _new_blank(self, name: str):
        from ..ats.catalogue import Card
        setup = self.screen.game.state.setup
        revival = setup.options.get("two_player") == "revival" or len(setup.players) >= 5
        return Card(name=name, extra={"set": "revival"} if revival else {})

    def _add_name_only(self, name: str) -> None:
        """A new card for an action that does not use its values: its name only (every
        value null, asked the first time it is built: never a number nobody typed)."""
        from ..ats.catalogue import parse_card
        card = parse_card({**self._new_blank(name).to_dict(), "source": "typed by the players"},
                          file="your entry")
        self.screen.session.save_card(card)
        self.screen.entry_card.value = card.name
        self.say(f"Added '{card.name}' to your catalogue by its name; its printed values "
                 "are asked the first time it is built.")
        self.screen.refresh()

    def _save_new(self, card):
        game = self.screen.game
        if game.catalogue.get(card.name) is not None:
            raise CompanionError(f"'{card.name}' is in your catalogue already: type that "
                                 "name in the card box instead.")
        self.screen.session.save_card(card)
        self.close_form()
        self.screen.timer.bind(self.screen.gid, self.screen.session.meta)
        self.screen.entry_card.value = card.name
        self.say(f"Added '{card.name}' to your catalogue; choose where to build it.")
        self.screen.refresh()
        self.in_view()

    # -- unknown card values ---------------------------------------------------------------
    def ask_values(self, name: str, fields, *, cell=None, box=None):
        """Show the card-values form for ``name`` (once: typed values are remembered)."""
        card = self.screen.game.catalogue.get(name)
        if card is None:
            return None
        box = box if box is not None else self.screen.form_box
        if box.children and self.screen.form_for == card.name:
            return box.children[0]
        self.screen.form_for = card.name
        player = self.screen.entry_player.value
        form = CardForm(card, self.guarded(self.save_values), self.guarded(self.close_form),
                        missing=list(fields),
                        preview=self.previewer(player, cell) if card.category in (
                            "location", "conflict") else self._race_previewer(card.name))
        box.children = [form.box]
        form.focus()
        if box is self.screen.form_box:
            self.screen.hint.value = f"'{escape(card.name)}' needs its printed values before it can be used."
        return form.box

    def previewer(self, player, cell):
        g = self.screen.game

        def preview(card):
            return whatif.preview_card(g, card, player, tuple(cell) if cell else None)
        return preview if player else None

    def _race_previewer(self, name):
        g = self.screen.game
        st = g.state
        owner = next((p for p, r in st.setup.races.items() if r.lower() == name.lower()), None)

        def preview(card):
            return whatif.preview_card(g, card, owner, None)
        return preview if owner else None

    def close_form(self):
        self.screen.form_box.children = []
        self.screen.form_for = None
        self._resume = None

    def save_values(self, card):
        # the role, the open game's check (refused: nothing saved), the catalogue, the
        # game's cards, and a replay that picks up values other pages saved meanwhile
        # (StoreWriteFailed: form kept)
        self.screen.session.save_card(card)
        resume = self._resume
        shown = bool(self.screen.form_box.children)     # the entry's own form (not another's)
        self.close_form()
        self.screen.timer.bind(self.screen.gid, self.screen.session.meta)
        self.say(f"Saved the values of '{card.name}' in your catalogue.")
        self.screen.refresh()
        sc = self.screen
        try:
            if resume is not None and not sc.game.state.finished and resume[:3] == (
                    sc.entry_player.value, sc.entry_action.value, sc.card_name()):
                self.clicked(resume[3], resume[4])   # the click the form interrupted goes on
        finally:                                  # refused too: its message is shown
            if shown:
                self.in_view(resume[3] if resume is not None else None)

    def in_view(self, cell=None) -> None:
        """Once a form over the entry is saved: the entry's message and the cell the form
        interrupted (else the grid) back on the screen (issue 37: on a phone the player
        had scrolled down to the form's Save; the grid and the message were above)."""
        sc = self.screen
        b = self.buttons.get(tuple(cell)) if cell is not None else None
        scroll_into_view(b if b is not None and b in sc.grid.children else sc.grid,
                         sc.entry_msg)

