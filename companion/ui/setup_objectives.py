"""The objective cards the table drew from the box, on the setup screen (issue 50): a part
of :class:`companion.ui.ats_setup.AtsSetup`.

B 3: "shuffle the Objective Cards and randomly draw as many Objectives as the number of
players. Put these cards face up on the table where everyone can see them."  The shipped
catalogue names one objective card of the box's 8, so a draw (or a table that picks fewer
than it needs) leaves cards the pick list cannot name.  Each one gets a row here:

- ``.objectives-from-box-name``: the card's name, as printed (enough to start: what it
  measures waits for the end, when the final table asks who claimed it);
- ``.objectives-from-box-values``: *Type what it measures now*, a card form for that
  objective (what it measures, most or least, the bonus VP); saved, the card joins the
  player's catalogue and the pick list, picked.

Nothing is invented: a card known by its name only is written with its values null
(:func:`companion.ats.decks.named_objective`) and saved in the player's catalogue when
the game starts, so the record carries it (and scores on another machine).
"""
from __future__ import annotations

from typing import Any

import ipywidgets as w

from ..ats import decks
from ..ats.catalogue import Card, Catalogue
from ..core.errors import CompanionError


class _Row:
    def __init__(self, part: "BoxObjectives") -> None:
        self.name = w.Text(placeholder="the card's name, as printed",
                           layout=w.Layout(width="100%", max_width="300px"))
        self.name.add_class("objectives-from-box-name")
        self.values = w.Button(description="Type what it measures now", icon="pencil",
                               layout=w.Layout(width="auto"))
        self.values.add_class("objectives-from-box-values")
        self.values.on_click(part.setup.guarded(lambda _: part.open_form(self)))
        self.box = w.HBox([self.name, self.values],
                          layout=w.Layout(flex_flow="row wrap", width="100%"))

    @property
    def typed(self) -> str:
        return " ".join(self.name.value.split())


class BoxObjectives:
    """Rows for the objective cards drawn from the box that the pick list does not name."""

    def __init__(self, setup: Any) -> None:
        self.setup = setup
        self.rows: list[_Row] = []
        self.form: Any = None                 # the CardForm open, with its row
        self.form_row: _Row | None = None
        self.head = w.HTML()
        self.head.add_class("objectives-from-box-head")
        self.rows_box = w.VBox()
        self.form_box = w.VBox()
        self.box = w.VBox([self.head, self.rows_box, self.form_box],
                          layout=w.Layout(display="none"))
        self.box.add_class("objectives-from-box")

    # -- how many ------------------------------------------------------------------------
    def wanted(self) -> int:
        """B 3 / B 8: one objective per player, 2 in a 2-player game."""
        s = self.setup
        n = sum(1 for b in s.name_boxes if b.value.strip())
        return decks.objectives_wanted(max(2, n))

    def count(self) -> int:
        """The cards drawn that the pick list does not name: what the picks leave (after
        a draw, or once something is picked), else what the catalogue cannot draw."""
        s = self.setup
        if not s.use_objectives.value:
            return 0
        picks = len(s.objective_pick.value)
        if picks or s.drawn:
            return max(0, self.wanted() - picks)
        return max(0, self.wanted() - len(s.objective_pick.options))

    def refresh(self) -> None:
        k = self.count()
        while len(self.rows) < k:
            self.rows.append(_Row(self))
        shown = self.rows[:k]
        if [r.box for r in shown] != list(self.rows_box.children):
            self.rows_box.children = [r.box for r in shown]
        if self.form_row is not None and self.form_row not in shown:
            self.close_form()
        if k:
            self.head.value = (
                f"<div><b>Drawn from the box</b>: {k} objective card{'s' if k > 1 else ''} "
                "the list does not name. Type each name as printed (what it measures can "
                "wait for the end), or its values now.</div>")
        self.box.layout.display = "" if k else "none"

    def names(self) -> list[str]:
        """The names typed in the rows shown (blank rows left out)."""
        return [r.typed for r in self.rows[:self.count()] if r.typed]

    def cards(self, catalogue: Catalogue) -> list[Card]:
        """A card for each name typed that the catalogue does not hold: name only."""
        return [decks.named_objective(n) for n in self.names() if catalogue.get(n) is None]

    def in_catalogue(self, catalogue: Catalogue) -> list[str]:
        """The names typed, spelled as the catalogue spells them when it holds them."""
        out = []
        for n in self.names():
            c = catalogue.get(n)
            if c is not None and c.category != "objective":
                raise CompanionError(f"'{n}' is a {c.category} in your catalogue, not an "
                                     "objective card: type the objective's name as printed.")
            out.append(c.name if c is not None else n)
        return out

    def clear(self) -> None:
        self.close_form()
        self.rows = []
        self.refresh()

    # -- the values, now -----------------------------------------------------------------
    def open_form(self, row: _Row) -> None:
        from .cardform import CardForm
        name = row.typed
        if not name:
            raise CompanionError("Type the objective card's name first, as printed.")
        known = Catalogue.default().get(name)
        card = known if known is not None else Card(name=name, category="objective")
        self.form_row = row
        self.form = CardForm(card, self._saved, lambda: self.close_form(), new=known is None,
                             name_given=True)
        self.form_box.children = [self.form.box]
        self.form.focus()

    def close_form(self) -> None:
        self.form = None
        self.form_row = None
        self.form_box.children = []

    def _saved(self, card: Card) -> None:
        if card.category != "objective":
            raise CompanionError(f"'{card.name}' is not an objective card.")
        s = self.setup
        s.screen.session.save_card(card, game=False)
        row = self.form_row
        self.close_form()
        if row in self.rows:
            self.rows.remove(row)
        s.refresh_choices()
        if card.name in s.objective_pick.options and card.name not in s.objective_pick.value:
            s.objective_pick.value = tuple(s.objective_pick.value) + (card.name,)
        self.refresh()
        s.say(f"Saved the objective card '{card.name}' in your catalogue; it is picked.")
