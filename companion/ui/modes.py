"""Dashboard controls for the modes, modules and variants (issue 5).

* :class:`ModeSetup`: the setup-screen section (2-player rules, spaceships,
  timing rules, advisors, All-in, the deck composition from companion.ats.decks,
  the new game's seed (a fresh one, companion.core.chance) and a draw of races and
  objectives from it).
* :class:`ModePanel`: the play-screen section (virtual seats' dropped cards,
  advisors to settle, the round-end check with its removals) and the extra
  entry forms (Conflict effects, spaceships to place or remove).
Widgets only: the rules are the engine's.
"""
from __future__ import annotations

from ..core.htmlsafe import escape

import ipywidgets as w

from ..ats import decks, render
from ..ats.catalogue import TYPES
from ..ats.setup import MAX_SPACESHIP_REMOVAL
from ..core import chance
from ..core.errors import CompanionError
from ..ats.game import ADVISOR_ACTIONS, round_end_report
from .advisor_bonus import bonus_row
from .ats_lay import LayPanel
from .shippicker import SHIP, ShipPicker  # noqa: F401 (re-exported)

#: the 2-player choice "Revival box only"
REVIVAL_BOX = "revival-box"
ACTION_CHOICES = [(a, a) for a in ADVISOR_ACTIONS] + [(f"build {t}", f"build:{t}") for t in TYPES]


class ModeSetup:
    def __init__(self, app):
        self.app = app
        # issue 50: "Revival box only" -- Revival "can also be played on its own as a
        # 2-player game" (R 2); its box holds no race and no objective (R 1), which come
        # only "if you have a copy of Among the Stars" (R 2.1)
        self.two_player = w.Dropdown(options=[("base rules: two virtual seats", "virtual"),
                                              ("Revival 2-player rules", "revival"),
                                              ("Revival box only (its 2-player rules)",
                                               REVIVAL_BOX)],
                                     value="virtual", description="2 players")
        self.two_player.add_class("setup-two-player")
        self.first_active = w.Dropdown(description="1st active", options=[])
        # one Layout each (issue 21): a Layout shared by these checkboxes hid all of them
        # when the timing rules' box was hidden (exactly 2 names)
        def wide():
            return {"style": {"description_width": "initial"}, "layout": w.Layout(width="auto")}
        self.spaceships = w.Checkbox(value=False, description="Spaceships (Revival)", **wide())
        self.spaceships.add_class("setup-spaceships")
        self.timing = w.Checkbox(value=False, description="Timing rules (Revival, 3+ players)",
                                 **wide())
        self.timing.add_class("setup-timing")
        self.all_in = w.Checkbox(value=False, description="All-in variant", **wide())
        self.all_in.add_class("setup-all-in")
        self.use_advisors = w.Checkbox(value=False, description="Advisors (Revival)", **wide())
        self.use_advisors.add_class("setup-advisors")
        self.advisor_box = w.VBox()
        # the new game's seed: a fresh one for every game (issue 20); typed, it repeats a draw
        self.seed = w.IntText(value=chance.new_seed(), description="Seed")
        self.seed.add_class("setup-seed")
        self.draw_btn = w.Button(description="Draw races and objectives", icon="random",
                                 layout=w.Layout(width="auto"))
        self.draw_btn.add_class("setup-draw")
        self.draw_btn.on_click(app.guarded(lambda _: self.draw()))
        self.drawn_box = w.HTML(layout=w.Layout(display="none"))
        self.drawn_box.add_class("setup-drawn")
        self.composition = w.HTML()
        self.composition.add_class("deck-composition")
        self.advisor_tiles: list = []
        for x in (self.two_player, self.all_in, self.use_advisors):
            x.observe(app.guarded(lambda _: self.refresh()), "value")
        self.box = w.VBox([
            w.HTML("<b>Rules and modules</b>"),
            w.HBox([self.two_player, self.first_active]),
            w.HBox([self.spaceships, self.timing, self.all_in]),
            self.use_advisors, self.advisor_box,
            w.HBox([self.seed, self.draw_btn]), self.drawn_box,
            self.composition])

    def names(self) -> list[str]:
        return [b.value.strip() for b in self.app.name_boxes if b.value.strip()]

    @property
    def rules(self) -> str:
        """The 2-player rules chosen: "virtual" or "revival" (the Revival box alone plays
        the Revival rules)."""
        v = self.two_player.value
        return "revival" if v == REVIVAL_BOX else v

    @property
    def revival_box_only(self) -> bool:
        """Only the Revival box on the table (2 names): no races, no objectives."""
        return len(self.names()) == 2 and self.two_player.value == REVIVAL_BOX

    def refresh(self):
        names = self.names()
        self.forget_draw()
        n = len(names)
        two = n == 2
        self.two_player.layout.display = "" if two else "none"
        revival = two and self.rules == "revival"
        self.first_active.layout.display = "" if revival else "none"
        self.draw_btn.description = ("Draw the setup" if self.revival_box_only
                                     else "Draw races and objectives")
        if list(self.first_active.options) != names:
            self.first_active.options = names
        self.timing.layout.display = "" if n >= 3 else "none"
        self._advisor_rows(names)
        if n >= 2:
            try:
                comp = decks.deck_composition(n, mode=self.app.mode.value,
                                              two_player=self.rules if two else None,
                                              all_in=self.all_in.value)
                t = comp.table()
                self.composition.value = (f"<details><summary>Deck for this game: "
                                          f"{escape(comp.title())}</summary>"
                                          + t.to_html(index=False, border=0) + "</details>")
                if self.app.supply.value in (8, 16, 24):
                    self.app.supply.value = comp.reactor_supply
            except ValueError as e:
                self.composition.value = f"<span style='color:#b00020'>{escape(str(e))}</span>"
        else:
            self.composition.value = ""

    def _pairs(self, names):
        if len(names) == 2:
            return [(names[0], names[1]), (names[0], names[1])]
        return [(names[i], names[(i + 1) % len(names)]) for i in range(len(names))]

    def _advisor_rows(self, names):
        if not self.use_advisors.value or len(names) < 2:
            self.advisor_box.children = []
            self.advisor_tiles = []
            return
        pairs = self._pairs(names)
        if [t["between"] for t in self.advisor_tiles] == pairs:
            return
        self.advisor_tiles = []
        rows = [w.HTML("<i>One Influence tile between each pair of neighbours (both between "
                       "the two players in a 2-player game). Copy each tile's actions and its "
                       "number of slots from the middle to each end.</i>")]
        for i, (a, b) in enumerate(pairs):
            name = w.Text(value=f"Tile {i + 1}", description="tile")
            acts = w.SelectMultiple(options=ACTION_CHOICES, rows=4, description="actions")
            slots = w.Text(description="slots", placeholder="from the middle to each end")
            advisor = w.Text(description="advisor", placeholder="advisor card")
            for x, css in ((name, "advisor-tile-name"), (acts, "advisor-tile-actions"),
                           (slots, "advisor-tile-slots"), (advisor, "advisor-tile-card")):
                x.add_class(css)
            self.advisor_tiles.append({"between": (a, b), "w": (name, acts, slots, advisor)})
            row = w.VBox([w.HTML(f"{escape(a)} ↔ {escape(b)}"), w.HBox([name, advisor]),
                          w.HBox([acts, slots])])
            row.add_class(f"advisor-tile-{i + 1}")
            rows.append(row)
        self.advisor_box.children = rows

    def options(self, names) -> dict:
        opts: dict = {}
        if len(names) == 2:
            opts["two_player"] = self.rules
            if self.revival_box_only:
                opts["boxes"] = ["revival"]
            if self.rules == "revival":
                opts["first_active"] = self.first_active.value or names[0]
        if self.spaceships.value:
            opts["spaceships"] = True
        if self.timing.value and len(names) >= 3:
            opts["timing_rules"] = True
        if self.all_in.value:
            opts["all_in"] = True
        if self.use_advisors.value:
            tiles = []
            for t in self.advisor_tiles:
                name, acts, slots, advisor = t["w"]
                if not acts.value:
                    raise CompanionError(f"Advisors: choose the actions listed on '{name.value}'")
                try:
                    n = int(slots.value.strip())
                    assert n >= 1
                except (ValueError, AssertionError):
                    raise CompanionError(f"Advisors: type the number of slots of '{name.value}' "
                                         "from the middle to each end (a whole number)") from None
                tiles.append({"name": name.value.strip() or "tile", "between": list(t["between"]),
                              "actions": list(acts.value), "advisor": advisor.value.strip(),
                              "slots": n})
            opts["advisors"] = tiles
        return opts

    def seed_value(self) -> int:
        """The seed typed in the Seed box, checked (a clear message, not a traceback)."""
        try:
            return chance.check_seed(self.seed.value)
        except ValueError as e:
            raise CompanionError(f"Seed: {e}") from None

    def next_game(self):
        """A game was started: the next one gets a fresh seed and draws anew."""
        self.seed.value = chance.new_seed()
        self.app.drawn = None
        self.drawn_box.value = ""
        self.drawn_box.layout.display = "none"

    def draw(self):
        names = self.names()
        if len(names) < 2:
            raise CompanionError("Type at least 2 player names first.")
        two = self.rules if len(names) == 2 else None
        box_only = self.revival_box_only          # no race, no objective in that box
        got = decks.draw_setup(names, seed=self.seed_value(), mode=self.app.mode.value,
                               two_player=two, all_in=self.all_in.value,
                               races=not box_only, objectives=not box_only)
        self.app.drawn = got
        drawn_races = got.get("races") or {}
        drawn_objs = list(got.get("objectives") or [])
        races = ", ".join(f"{p}: {r}" for p, r in drawn_races.items())
        objs = ", ".join(drawn_objs)
        notes = " ".join(got.get("options", {}).get("setup_notes") or [])
        words = (f"Drawn with seed {self.seed.value}. Races: {races or '-'}. "
                 f"Objectives: {objs or '-'}. {notes}").strip()
        # issue 21: the result where it was asked for (not only in the status line), and
        # the race and objective lists show what was drawn, not "draw at random"
        self.drawn_box.value = f"<div class='setup-drawn-result'>{escape(words)}</div>"
        self.drawn_box.layout.display = ""
        self._show_drawn(names, drawn_races, drawn_objs)
        # the cards drawn from the box that the list does not name: typed by name there
        self.app.box_objectives.refresh()
        self.app.say(words)

    def _show_drawn(self, names, races: dict, objectives: list):
        app = self.app
        if races:
            app.use_races.value = True
            for i, p in enumerate(names):
                box = app.race_boxes[i]
                r = races.get(p)
                if r is not None and r in [v for _, v in box.options]:
                    box.value = r
        if objectives:
            app.use_objectives.value = True
            known = [o for o in objectives if o in app.objective_pick.options]
            app.objective_pick.value = tuple(known)

    def forget_draw(self):
        """The names changed: a draw for other names no longer applies."""
        if self.app.drawn is not None and self.app.drawn.get("players") != self.names():
            self.app.drawn = None
            self.drawn_box.value = ""
            self.drawn_box.layout.display = "none"
            if hasattr(self.app, "box_objectives"):
                self.app.box_objectives.refresh()


class ModePanel:
    """Play-screen pieces for the modes; refreshed with the board."""

    def __init__(self, app):
        self.app = app
        self.box = w.VBox()
        self.box.add_class("mode-panel")
        # the Remove spaceships picker kept while its entry is the same: (key, widgets)
        self._removal: tuple | None = None
        # a game laid from the table (issue 39): the station-laying panel, its draft kept
        self.lay = LayPanel(app)
        self.laying = False          # a station is still to be laid: the entry is hidden

    # -- the panel above turn entry ----------------------------------------------------
    def refresh(self):
        g = self.app.game
        st = g.state
        kids = []
        lay = self.lay.refresh()
        self.laying = lay is not None
        if lay is not None:
            self.box.children = [lay]
            return
        broken = round_end_report(g)
        if broken:
            # B 5 "Before beginning the next round": the fix is made at the round's end
            # (the engine refuses a `remove` mid-year and any action before the fix)
            kids.append(self._round_end(broken, due=bool(g.round_end_due())))
        unsettled = g.unsettled_advisors()
        if unsettled:
            kids.append(self._advisors(unsettled))
        elif g.setup.options.get("advisors"):
            pos = ", ".join(f"{escape(t['name'])}: {self._lean(t, st.advisors[t['name']])}"
                            for t in g.setup.options["advisors"])
            kids.append(w.HTML(f"<div class='advisors-status'>Advisors — {pos}</div>"))
        if not st.finished and g.setup.virtual_seats:
            todo = [s for s in g.setup.virtual_seats if s not in st.virtual_done]
            if todo:
                kids.append(self._virtual(todo[0]))
        self.box.children = kids

    @staticmethod
    def _lean(tile, pos):
        """Where a tile's advisor stands, as HTML (the player's name escaped)."""
        if pos == 0:
            return "middle"
        who = tile["between"][0] if pos < 0 else tile["between"][1]
        return f"{abs(pos)} towards {escape(who)}"

    def _virtual(self, seat):
        card = w.Combobox(options=tuple(self.app.game.catalogue.names("location")),
                          placeholder="the card that left", description=seat,
                          ensure_option=False)
        card.add_class("virtual-card")
        ok = w.Button(description="Record", icon="check")
        ok.add_class("virtual-record")

        def record(_):
            name = (card.value or "").strip()
            if not name:
                raise CompanionError(f"Type the card {seat} lost to the face-up pile.")
            self.app.push_entry({"do": "virtual", "seat": seat, "card": name})
        ok.on_click(self.app.guarded(record))
        return w.VBox([w.HTML(f"<b>2-player rules:</b> which card did {escape(seat)}'s hand lose "
                              "to the face-up pile this turn?"), w.HBox([card, ok])])

    def _advisors(self, unsettled):
        rows = [w.HTML("<b>Round end — advisors:</b> the player each advisor leans to takes its "
                       "bonus (type what it gave) or declines it for 1 VP.")]
        seat = getattr(self.app, "seat", None)
        for tile, who in unsettled.items():
            if seat and who != seat and self.app.session.acting_for != who:
                # a seat's page settles its own player's advisor (issue 50); the other
                # one's is settled on that player's page
                rows.append(w.HTML(f"'{escape(tile)}' leans to <b>{escape(who)}</b>: "
                                   f"{escape(who)} settles it on {escape(who)}'s page"))
                continue
            vp = w.Text(description="VP", placeholder="0")
            credits = w.Text(description="credits", placeholder="0")
            take = w.Button(description=f"{who} takes the bonus")
            take.add_class("advisor-take")
            dec = w.Button(description=f"{who} declines (+1 VP)")
            dec.add_class("advisor-decline")

            bonus, keep = bonus_row(self.app, tile)     # the card's text (issue 53)

            def do(take_it, tile=tile, who=who, vp=vp, credits=credits, keep=keep):
                a = {"do": "advisor", "tile": tile, "player": who,
                     "take": "bonus" if take_it else "decline"}
                if take_it:
                    eff = {}
                    for key, box in (("vp", vp), ("credits", credits)):
                        txt = box.value.strip()
                        if txt:
                            try:
                                eff[key] = {who: int(txt)}
                            except ValueError:
                                raise CompanionError(f"{key}: type a whole number") from None
                    a["effects"] = eff
                self.app.push_entry(a)
                keep()
            take.on_click(self.app.guarded(lambda _, f=do: f(True)))
            dec.on_click(self.app.guarded(lambda _, f=do: f(False)))
            rows.append(w.VBox([w.HTML(f"'{escape(tile)}' leans to <b>{escape(who)}</b>"),
                                *([bonus] if bonus is not None else []),
                                w.HBox([vp, credits]), w.HBox([take, dec])]))
        box = w.VBox(rows)
        box.add_class("advisors-settle")
        return box

    def _round_end(self, broken, due: bool = True):
        if due:
            head = ("<b>Round-end check (B 5):</b> a station breaks a rule. Remove locations "
                    "until it is valid before anyone acts in the next round; the player loses "
                    "the VP they gave, no credits back.")
        else:
            head = ("<b>Round-end check (B 5):</b> a station breaks a rule. It is fixed at the "
                    "round's end (\"Before beginning the next round\"): the remove buttons "
                    "appear then.")
        rows = [w.HTML(head)]
        for b in broken:
            btns = []
            for cell in (b["cells"] if due else ()):
                btn = w.Button(description=f"remove {cell}")
                btn.add_class("round-end-remove")
                btn.on_click(self.app.guarded(
                    lambda _, p=b["player"], c=cell: self.app.push_entry(
                        {"do": "remove", "player": p, "at": c})))
                btns.append(btn)
            rows.append(w.VBox([w.HTML(escape(b["message"])), w.HBox(btns)]))
        box = w.VBox(rows)
        box.add_class("round-end" if due else "round-end-later")
        box.layout.border = "2px solid #b00020" if due else "1px dashed #b00020"
        return box

    # -- extra entry forms -------------------------------------------------------------
    def conflict_form(self, player, card_name):
        g = self.app.game
        rows, boxes = [], {}
        for p in g.setup.players:
            vp = w.Text(description=p, placeholder="VP change")
            cr = w.Text(description="credits", placeholder="credit change")
            vp.add_class("conflict-vp")
            boxes[p] = (vp, cr)
            rows.append(w.HBox([vp, cr]))
        ok = w.Button(description=self.app.kinds["conflict"].button, button_style="danger")
        ok.add_class("confirm-conflict")

        def apply(_):
            eff = {"vp": {}, "credits": {}}
            for p, (vp, cr) in boxes.items():
                for key, box in (("vp", vp), ("credits", cr)):
                    txt = box.value.strip()
                    if txt:
                        try:
                            eff[key][p] = int(txt)
                        except ValueError:
                            raise CompanionError(f"{p}: type whole numbers (e.g. -2)") from None
            self.app.push_entry({"player": player, "do": "conflict", "card": card_name,
                                 "effects": {k: v for k, v in eff.items() if v}})
        ok.on_click(self.app.guarded(apply))
        return [w.HTML("<b>Conflict</b>: what did its effect do? (It resolves after everyone's "
                       "action; leave blank what did not change.)"), *rows, ok]

    def remove_ships_form(self, player, card_name):
        """*Remove spaceships* (R 3): tap up to MAX_SPACESHIP_REMOVAL of the player's spaceships on the
        drawn station, then confirm.  The picker is kept while the entry is the same
        (a refresh from another page does not lose the taps)."""
        st = self.app.game.state.station(player)
        ships = sorted(st.spaceships)
        if not ships:
            self._removal = None
            return [w.HTML(f"{escape(player)} has no spaceships.")]
        key = (player, card_name, tuple(ships), id(self.app.game))
        if self._removal is None or self._removal[0] != key:
            picker = ShipPicker(self.app, {player: st}, {(player, c) for c in ships},
                                MAX_SPACESHIP_REMOVAL, remove=True)
            ok = w.Button(description="Remove the tapped spaceships", button_style="warning",
                          layout=w.Layout(width="auto"))
            ok.add_class("confirm-remove-ships")
            ok.on_click(self.app.guarded(lambda _: self._push_removal(player, card_name, picker)))
            head = w.HTML(f"Tap up to {MAX_SPACESHIP_REMOVAL} of {escape(player)}'s spaceships "
                          "to remove (tap again to keep one), then confirm.")
            self._removal = (key, [head, picker.box, ok])
        return self._removal[1]

    def _push_removal(self, player, card_name, picker):
        cells = [at for _, at in picker.picked]
        if not cells:
            raise CompanionError("Tap the spaceships to remove on the station first.")
        self.app.push_entry({"player": player, "do": "remove_spaceships", "card": card_name,
                             "cells": cells})

    def spaceship_choices(self, spec: dict):
        """The stations to tap for a build whose card places spaceships (``spec`` from
        Game.needs: card, count, spots — the engine's legal spaces); returns
        (widgets, getter)."""
        n = spec["count"]
        spots = {(p, tuple(c)) for p, c in spec["spots"]}
        g = self.app.game
        owners = [p for p in g.setup.players if any(q == p for q, _ in spots)]
        picker = ShipPicker(self.app, {p: g.state.station(p) for p in owners}, spots, n)

        def get():
            return [{"player": p, "at": at} for p, at in picker.picked]
        if not spots:
            head = (f"<b>{escape(spec['card'])}</b> places {n} spaceship(s), but no station "
                    "has an empty space for one: confirm to place none.")
        else:
            head = (f"<b>{escape(spec['card'])}</b> places {n} spaceship(s): tap the green "
                    "spaces on the station(s) below (tap again to take one back).")
        return [w.HTML(head), picker.box], get
