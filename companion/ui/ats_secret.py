"""Qualeen's secret objective during the game (issue 36): a part of
:class:`companion.ui.ats_views.AtsViews`.

At the table a player whose race holds a secret objective (B FAQ: Qualeen) draws a
physical objective card and keeps it secret; the companion draws nothing
(:func:`companion.ats.decks.secret_note`).  That player's own seat page (``?seat=Cy``)
asks which card it is (``.secret-ask``: a Dropdown ``.secret-ask-which`` of the objective
cards not face up and nobody's secret yet, "another card (type its name)", "no objective
card was left"; ``.secret-ask-save``) and saves it as the record's manual entry
``{"source": SECRET, "player": "Cy", "note": <name>, "vp": 0}`` through the page's
:class:`~companion.ui.session.GameSession` (the engine refuses a card face up: rule
``objectives``; another seat's page is refused: ``SeatRules._check_secret``).  Once saved, that
page shows "Your secret objective: <name>".

The host's page asks only as a fallback for a player without a phone: a folded panel
("Enter Cy's secret objective here if Cy has no phone") opened deliberately; it never
shows the name ("Cy's secret objective is recorded (hidden until the end)").  Other
seats and the table view show nothing of it; the final table reveals it.

Issue 50: "another card" typed by name joins the record's cards and the player's catalogue
(:func:`companion.ats.decks.named_objective`: its values null, never invented), so an
exported record scores on another machine; *…and what it measures* opens the objective's
card form on that page, saved with the secret (``GameSession.save_card``).  Once the game
is over every page names it (``AtsViews.refresh_objectives``; this page: "revealed to
everyone now"), and the holder's page still asks for it if it was never said.
"""
from __future__ import annotations

from typing import Any

import ipywidgets as w

from ..ats import decks
from ..ats.catalogue import Card, Catalogue
from ..ats.scoring import SECRET, secret_holders, secret_objectives
from ..core.errors import CompanionError, IllegalAction, RoleRefused
from ..core.htmlsafe import escape
from .writes import writes

#: the Dropdown's values that are no card's name (a name is one line of printable text)
CHOOSE = "\n"
OTHER = "\t"


def _box_objectives() -> list[str]:
    """The objective cards of the player's catalogue now ([] if it cannot be read)."""
    try:
        return Catalogue.default().names("objective")
    except CompanionError:
        return []


class SecretAsk:
    """One form: which objective card ``player`` holds as a secret objective."""

    def __init__(self, part: "AtsSecret", player: str) -> None:
        self.part, self.player = part, player
        self.which = w.Dropdown(description="which card", style={"description_width": "initial"},
                                layout=w.Layout(width="100%", max_width="360px"))
        self.which.add_class("secret-ask-which")
        self.other = w.Text(placeholder="the card's name, as printed",
                            layout=w.Layout(width="100%", max_width="360px", display="none"))
        self.other.add_class("secret-ask-other")
        self.which.observe(lambda _: self._show_other(), "value")
        self.save = w.Button(description="Save (kept secret)", button_style="primary",
                             layout=w.Layout(width="auto"))
        self.save.add_class("secret-ask-save")
        self.save.on_click(part.screen.guarded(lambda _: self.do_save()))
        self.msg = w.HTML()
        self.msg.add_class("secret-ask-msg")
        # another card: its values may be typed now, on this page only (issue 50)
        self.values = w.Button(description="…and what it measures", icon="pencil",
                               layout=w.Layout(width="auto", display="none"))
        self.values.add_class("secret-ask-values")
        self.values.on_click(part.screen.guarded(lambda _: self.open_form()))
        self.form: Any = None
        self.form_box = w.VBox()
        self.box = w.VBox([self.which, self.other, w.HBox([self.save, self.values]),
                           self.form_box, self.msg])

    def _show_other(self) -> None:
        other = self.which.value == OTHER
        self.other.layout.display = "" if other else "none"
        self.values.layout.display = "" if other else "none"
        if not other and self.form is not None:
            self.close_form()

    def open_form(self) -> None:
        """The objective's card form for the card typed (what it measures, most or
        least, the bonus VP); saved, the secret objective is saved with its values."""
        from .cardform import CardForm
        name = " ".join(self.other.value.split())
        if not name:
            raise CompanionError(f"{self.player}'s secret objective: type the card's name")
        self.form = CardForm(Card(name=name, category="objective"),
                             self.part.screen.guarded(lambda card: self.do_save(card)),
                             self.close_form, new=True, name_given=True)
        self.form_box.children = [self.form.box]
        self.form.focus()

    def close_form(self) -> None:
        self.form = None
        self.form_box.children = []

    def fill(self, names: list[str]) -> None:
        opts = ([("choose the card…", CHOOSE)] + [(n, n) for n in names]
                + [("another card (type its name)", OTHER), ("no objective card was left", "")])
        if [tuple(o) for o in self.which.options] != opts:
            keep = self.which.value
            self.which.options = opts
            self.which.value = keep if any(v == keep for _, v in opts) else CHOOSE
        self._show_other()

    def do_save(self, typed: Card | None = None) -> None:
        """Save the card chosen (``typed``: the card form's card, with its values)."""
        name = typed.name if typed is not None else self.which.value
        if name == CHOOSE:
            raise CompanionError(f"{self.player}'s secret objective: choose the objective "
                                 "card (or 'no objective card was left')")
        if name == OTHER:
            name = " ".join(self.other.value.split())
            if not name:
                raise CompanionError(f"{self.player}'s secret objective: type the card's name")
        entry = {"source": SECRET, "player": self.player, "vp": 0}
        if name:
            entry["note"] = name
        g = self.part.screen.game
        session = self.part.screen.session
        mine = Catalogue.default()
        card = typed or ((g.catalogue.get(name) or mine.get(name)) if name else None)
        if card is not None and card.category != "objective":
            raise CompanionError(f"'{card.name}' is a {card.category} card, not an objective "
                                 "card: choose the objective card you drew")
        if name and card is None:
            # issue 50: a card the catalogue does not name joins the record now (so the
            # exported record scores anywhere) and the player's catalogue, by its name;
            # what it measures stays unknown until typed (never invented)
            card = decks.named_objective(name)
        if card is not None:
            entry["note"] = card.name
        try:
            session.add_manual([entry], cards=[card])
            if typed is not None:               # its values: the game's and the catalogue's
                session.save_card(typed)
            elif card is not None and mine.get(card.name) is None:
                session.save_card(card, game=False)
        except (IllegalAction, RoleRefused) as e:
            # said once, where the player is looking (not again in the status line and
            # beside the turn entry); nothing was saved
            self.msg.value = (f"<div class='secret-ask-refused' style='color:#b00020'>"
                              f"⚠ {escape(str(e))}"
                              "</div>")
            return
        self.msg.value = ""
        self.close_form()
        self.which.value = CHOOSE
        self.other.value = ""
        self.part.screen.say(f"{self.player}'s secret objective is saved (hidden until the end).")
        self.part.screen.refresh()


class AtsSecret:
    """The secret objective asked during the game, on the holder's seat page (and folded
    on the host's, for a player without a phone)."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.said = w.HTML()
        self.said.add_class("secret-said")
        self.forms: dict[tuple[str, bool], SecretAsk] = {}
        self.boxes: dict[tuple[str, bool], w.Widget] = {}
        self.box = w.VBox([self.said], layout=w.Layout(display="none"))
        self.box.add_class("secret-objective-panel")
        writes(self.box)                     # the table view shows none of it

    def _ask(self, player: str, *, own: bool) -> w.Widget:
        """The question for ``player``: on its own seat page, open; on the host's, folded
        (kept from one refresh to the next: an opened fold stays open)."""
        key = (player, own)
        if key not in self.forms:
            form = SecretAsk(self, player)
            if own:
                box = w.VBox([w.HTML("<b>Your secret objective</b>: which objective card did "
                                     "you draw? Only this page shows it; the others see it at "
                                     "the end."), form.box])
                box.add_class("secret-ask")
            else:
                box = w.Accordion(children=[w.VBox([w.HTML(
                    f"Only if {escape(player)} has no phone: {escape(player)} chooses the card "
                    "here and nobody else looks."), form.box])], selected_index=None)
                box.set_title(0, f"Enter {player}'s secret objective here if {player} has no "
                                 "phone")
                box.add_class("secret-ask-host")
            self.forms[key] = form
            self.boxes[key] = box
        self.forms[key].fill(self._names(player, others_hidden=own))
        return self.boxes[key]

    def _names(self, player: str, *, others_hidden: bool) -> list[str]:
        """The objective cards ``player`` may hold: not face up, and (on the holder's own
        page) nobody else's secret one already."""
        g = self.screen.game
        taken = {o.lower() for o in g.setup.objectives}
        if others_hidden:
            taken |= {o.lower() for p, o in secret_objectives(g).items() if o and p != player}
        return sorted({n for n in g.catalogue.names("objective") + _box_objectives()
                       if n.lower() not in taken})

    def refresh(self) -> None:
        s = self.screen
        g = s.game
        if g is None or s.view == "table" or s.session.read_only:
            self.said.value = ""                 # nothing of it kept on a view
            self.box.children = [self.said]
            self.box.layout.display = "none"
            return
        holders = secret_holders(g, g.state)
        known = secret_objectives(g)
        kids: list = [self.said]
        said = ""
        if s.seat:
            if s.seat in holders:
                if s.seat in known:
                    name = known[s.seat]
                    when = ("revealed to everyone now: the game is over" if g.state.finished
                            else "only this page shows it; revealed at the end")
                    said = ("<div class='secret-mine'><b>Your secret objective:</b> "
                            + (escape(name) if name else "none (no objective card was left)")
                            + f" <small>({when})</small></div>")
                else:       # during the game, and at the end if not said yet (issue 50)
                    kids.append(self._ask(s.seat, own=True))
        else:
            lines = []
            for p in holders:
                if p in known and not g.state.finished:     # the final table shows it
                    lines.append(f"<div class='secret-recorded'>{escape(p)}'s secret objective "
                                 "is recorded (hidden until the end)</div>")
                elif p not in known and not g.state.finished:
                    kids.append(self._ask(p, own=False))
            said = "".join(lines)
        self.said.value = said
        self.box.children = kids
        self.box.layout.display = "" if said or len(kids) > 1 else "none"
