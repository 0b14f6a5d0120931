"""Fill the catalogue before (or while) the table is set up: every entry whose
printed values are still unknown, one after the other.

The screen lists every catalogue entry (location cards, races, objectives,
conflicts) with a value still unknown: its name, its category and what is
unknown.  Clicking a name opens the card form (:class:`CardForm`) right under
it; *Save values* writes the entry to the player's own catalogue
(``save(card)``, by default the page's session:
:meth:`companion.ui.session.GameSession.save_card` with ``game=False``), calls ``on_saved(card)``,
refreshes the list and opens the next unknown entry at once, so one player can
type a whole deck while the others set up the table.

What counts as unknown:

* location cards and conflicts: :meth:`Card.unknown_all` is not empty;
* races: their ``abilities`` are ``null``, or an ability has a ``null`` value
  (their cost, energy, VP, MAX and types are not asked);
* objectives: what they measure (most or least of a counter, or claimed at the
  table) and their bonus VP (:func:`objective_unknowns`).

*Add an objective card* (issue 21) opens an empty form for an objective the
catalogue does not name yet: its name, what it measures, most or least, and the
bonus VP, typed once from the physical card; the box holds
:data:`BOX_OBJECTIVES` of them and the draw of a new game takes from every one
typed.  A name that may be an objective already there shows *Did you mean …?*
buttons; clicking one opens that objective.

*Add a location card* (issue 36) does the same for a location card the catalogue does
not name (most of the Revival box's cards, and any card of a printing we do not
ship): its name, set (base game or Revival), kind (basic or special), printed
values, type(s) and ability.  A card the catalogue does not know that a player
builds in a game opens the same form from the turn entry (``entry-new-card``).

Stable CSS class hooks:

========================  ======================================================
``catalogue-screen``      the whole screen (``CatalogueScreen.box``)
``catalogue-filter``      Text: narrows the list by name (words, any order)
``catalogue-category``    Dropdown: all, location cards, races, objectives, conflicts
``catalogue-count``       HTML: "N entries still unknown" (and how many are shown)
``catalogue-message``     HTML: what was saved, or why the catalogue cannot be read
``catalogue-list``        the list (a header row, then one row per entry)
``catalogue-header``      the list's header row
``catalogue-row``         one entry's row
``catalogue-selected``    added to the row whose form is open
``catalogue-open``        Button in a row (its description is the entry's name)
``catalogue-category-of`` HTML in a row: the entry's category
``catalogue-unknown``     HTML in a row: what is unknown
``catalogue-form``        the box under the selected row: the card form and Skip
``catalogue-skip``        Button: go to the next entry without saving
``catalogue-add-objective`` Button: type a new objective card
``catalogue-add-location`` Button: type a new location card
``catalogue-objectives``  HTML: the objective cards the catalogue holds (of the box's 8)
========================  ======================================================

The card form inside keeps its own hooks (``card-form``, ``form-save``, ...:
see :mod:`companion.ui.cardform`).
"""
from __future__ import annotations

import logging
from ..core.htmlsafe import escape

import ipywidgets as w

from ..ats.catalogue import Card, Catalogue, ability_unknowns, objective_unknowns
from ..ats.decks import BASE_OBJECTIVES
from ..core.errors import CompanionError
from .cardform import CardForm, describe_missing
from .session import GameSession

log = logging.getLogger("companion.ui")
ERR = "#b00020"
OK = "#1b6e20"
CATEGORY_ORDER = ("location", "race", "objective", "conflict")
CATEGORY_LABEL = {"location": "location card", "race": "race", "objective": "objective",
                  "conflict": "conflict"}
CATEGORY_FILTER = [("all entries", ""), ("location cards", "location"), ("races", "race"),
                   ("objectives", "objective"), ("conflicts", "conflict")]

STYLE = """<style>
.catalogue-screen { box-sizing: border-box; width: 100%; max-width: 960px; }
.catalogue-screen * { box-sizing: border-box; }
.catalogue-screen .catalogue-row > .jupyter-widgets, .catalogue-screen .catalogue-tools > .jupyter-widgets,
.catalogue-screen .catalogue-header > .jupyter-widgets { margin-left: 0; margin-right: 0; }
.catalogue-screen .catalogue-tools .widget-text, .catalogue-screen .catalogue-tools .widget-dropdown {
  height: auto !important; min-height: 44px; }
.catalogue-screen .catalogue-tools input, .catalogue-screen .catalogue-tools select {
  height: 44px; font-size: 16px; }
.catalogue-screen .catalogue-tools .widget-label { line-height: 44px; white-space: nowrap; }
.catalogue-screen .catalogue-row, .catalogue-screen .catalogue-header {
  border-bottom: 1px solid #ddd; align-items: center; flex-wrap: wrap; gap: 0 12px; }
.catalogue-screen .catalogue-header { font-weight: bold; }
.catalogue-screen .catalogue-open { min-height: 44px; height: auto; text-align: left;
  white-space: normal; font-size: 15px; }
.catalogue-screen .catalogue-selected { background: #eef4ff; }
.catalogue-screen .catalogue-skip { min-height: 44px; height: auto; }
@media (max-width: 520px) {
  .catalogue-screen .catalogue-tools { flex-direction: column; }
  .catalogue-screen .catalogue-tools > * { width: 100% !important; max-width: 100% !important; }
  .catalogue-screen .catalogue-open { width: 100% !important; }
}
</style>"""


#: the objective cards of the base box (B components: "8 Objective Cards")
BOX_OBJECTIVES = BASE_OBJECTIVES


def unknown_of(card: Card) -> list[str]:
    """What is still unknown about an entry, as the screen lists it ([] = known)."""
    if card.category == "objective":
        return objective_unknowns(card)
    if card.category == "race":
        if card.abilities is None:
            return ["abilities"]
        return [f"ability {i + 1} {u}" if len(card.abilities) > 1 else f"ability {u}"
                for i, ab in enumerate(card.abilities) for u in ability_unknowns(ab)]
    return card.unknown_all()


def _form_missing(card: Card) -> list[str]:
    """The unknown values in the engine's own names (what the card form highlights)."""
    if card.category == "objective":
        return objective_unknowns(card)
    if card.category == "race":
        if card.abilities is None:
            return ["abilities"]
        return [f"ability {i + 1} {u}" for i, ab in enumerate(card.abilities)
                for u in ability_unknowns(ab)]
    return card.unknown_all()


def _close(row: w.Box) -> None:
    for kid in row.children:
        kid.close()
    row.close()


class CatalogueScreen:
    """Every catalogue entry still unknown, and the card form to fill them one by one.

    ``on_saved(card)`` is called after each entry is saved; ``catalogue_factory()``
    returns the catalogue to list (called again after each save);
    ``save(card)`` writes an entry to the player's catalogue; by default through
    ``session`` (the page's :class:`GameSession`, its role checked), or, for a screen
    opened on its own, a session of the host's that writes the catalogue only.

    Attributes: ``box`` (the widget), ``filter``, ``category``, ``count``,
    ``message``, ``list``, ``entries`` (the ``(Card, unknown)`` pairs listed now,
    after the filters), ``unknown`` (every unknown entry, unfiltered),
    ``selected`` (the name whose form is open, or None) and ``form`` (that
    :class:`CardForm`, or None).  ``refresh()`` reloads the catalogue,
    ``select(name)`` opens an entry's form, ``skip()`` goes to the next one,
    ``close()`` closes the form.
    """

    def __init__(self, on_saved=None, catalogue_factory=Catalogue.default, save=None, *,
                 session: GameSession | None = None):
        self.on_saved = on_saved
        self.catalogue_factory = catalogue_factory
        self.session = session if session is not None else GameSession.catalogue_only()
        self.save = save if save is not None else self._save_to_catalogue
        self.unknown: list[tuple[Card, list[str]]] = []
        self.entries: list[tuple[Card, list[str]]] = []
        self.selected: str | None = None
        self.form: CardForm | None = None
        self._rows: dict[str, tuple[tuple, w.HBox]] = {}
        self.title = w.HTML("<h3 style='margin:4px 0'>Cards still unknown</h3>"
                            "<div>Type each card's printed values once, from the physical "
                            "card; they are saved in your own catalogue. After each save the "
                            "next card opens.</div>")
        self.filter = w.Text(description="Find", placeholder="card name",
                             style={"description_width": "initial"},
                             layout=w.Layout(width="100%", max_width="360px", flex="1 1 200px"))
        self.filter.add_class("catalogue-filter")
        self.category = w.Dropdown(options=CATEGORY_FILTER, value="", description="Show",
                                   style={"description_width": "initial"},
                                   layout=w.Layout(width="100%", max_width="260px",
                                                   flex="1 1 160px"))
        self.category.add_class("catalogue-category")
        tools = w.HBox([self.filter, self.category],
                       layout=w.Layout(flex_flow="row wrap", width="100%"))
        tools.add_class("catalogue-tools")
        self.count = w.HTML()
        self.count.add_class("catalogue-count")
        self.message = w.HTML()
        self.message.add_class("catalogue-message")
        self.list = w.VBox(layout=w.Layout(width="100%"))
        self.list.add_class("catalogue-list")
        self.skip_button = w.Button(description="Skip: next card", icon="forward",
                                    layout=w.Layout(width="auto"))
        self.skip_button.add_class("catalogue-skip")
        self.skip_button.on_click(lambda _: self.skip())
        self.form_box = w.VBox(layout=w.Layout(width="100%", padding="4px 0 12px 0"))
        self.form_box.add_class("catalogue-form")
        self.add_objective_button = w.Button(description="Add an objective card", icon="plus",
                                             layout=w.Layout(width="auto", min_height="44px"))
        self.add_objective_button.add_class("catalogue-add-objective")
        self.add_objective_button.on_click(lambda _: self.add_objective())
        self.add_location_button = w.Button(description="Add a location card", icon="plus",
                                            layout=w.Layout(width="auto", min_height="44px"))
        self.add_location_button.add_class("catalogue-add-location")
        self.add_location_button.on_click(lambda _: self.add_location())
        self.objectives = w.HTML()
        self.objectives.add_class("catalogue-objectives")
        self.new_box = w.VBox(layout=w.Layout(width="100%"))
        self.new_box.add_class("catalogue-new")
        self.new_form: CardForm | None = None
        self.header = w.HBox([self._cell("name", "240px"), self._cell("category", "110px"),
                              self._cell("still unknown", None)],
                             layout=w.Layout(width="100%"))
        self.header.add_class("catalogue-header")
        self.filter.observe(lambda _: self._show(), "value")
        self.category.observe(lambda _: self._show(), "value")
        self.box = w.VBox([w.HTML(STYLE), self.title, self.objectives,
                           w.HBox([self.add_objective_button, self.add_location_button],
                                  layout=w.Layout(flex_flow="row wrap", width="100%")),
                           self.new_box, tools, self.count,
                           self.message, self.list],
                          layout=w.Layout(width="100%", max_width="960px"))
        self.box.add_class("catalogue-screen")
        self.refresh()

    # -- data -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the catalogue again and redraw the list (the open form stays open
        if its entry is still unknown)."""
        try:
            cat = self.catalogue_factory()
        except CompanionError as e:
            self.unknown = []
            self.message.value = (f"<span style='color:{ERR}'>Cannot read the catalogue: "
                                  f"{escape(str(e))}</span>")
        else:
            rank = {c: i for i, c in enumerate(CATEGORY_ORDER)}
            found = [(c, unknown_of(c)) for c in cat]
            self.catalogue = cat
            self._show_objectives(cat)
            self.unknown = sorted(((c, u) for c, u in found if u),
                                  key=lambda e: (rank.get(e[0].category, 9), e[0].name.lower()))
        if self.selected and self.selected not in [c.name for c, _ in self.unknown]:
            self.close()
        self._show()

    def _visible(self) -> list[tuple[Card, list[str]]]:
        words = self.filter.value.lower().split()
        cat = self.category.value
        return [(c, u) for c, u in self.unknown
                if (not cat or c.category == cat) and all(x in c.name.lower() for x in words)]

    # -- drawing ----------------------------------------------------------------------
    @staticmethod
    def _cell(text: str, width: str | None, cls: str | None = None) -> w.HTML:
        h = w.HTML(escape(text), layout=w.Layout(width=width or "auto",
                                                 flex="0 0 auto" if width else "1 1 160px"))
        if cls:
            h.add_class(cls)
        return h

    def _row(self, card: Card, unknown: list[str]) -> w.HBox:
        key = (card.category, tuple(unknown))
        hit = self._rows.get(card.name)
        if hit and hit[0] == key:
            return hit[1]
        if hit:
            _close(hit[1])
        name = w.Button(description=card.name, tooltip=f"Type the values of {card.name}",
                        layout=w.Layout(width="240px", max_width="100%", flex="0 0 auto"))
        name.add_class("catalogue-open")
        name.on_click(lambda _, n=card.name: self.select(n))
        row = w.HBox([name,
                      self._cell(CATEGORY_LABEL.get(card.category, card.category), "110px",
                                 "catalogue-category-of"),
                      self._cell(describe_missing(unknown), None, "catalogue-unknown")],
                     layout=w.Layout(width="100%", flex_flow="row wrap"))
        row.add_class("catalogue-row")
        self._rows[card.name] = (key, row)
        return row

    def _show(self) -> None:
        self.entries = self._visible()
        n, shown = len(self.unknown), len(self.entries)
        text = f"{n} {'entry' if n == 1 else 'entries'} still unknown"
        if shown != n:
            text += f" ({shown} shown)"
        if n == 0:
            text = "0 entries still unknown: every value of the catalogue is known."
        self.count.value = f"<b>{escape(text)}</b>"
        kids = [self.header]
        for card, unknown in self.entries:
            row = self._row(card, unknown)
            if card.name == self.selected:
                row.add_class("catalogue-selected")
                kids += [row, self.form_box]
            else:
                row.remove_class("catalogue-selected")
                kids.append(row)
        names = {c.name for c, _ in self.unknown}
        for name in [k for k in self._rows if k not in names]:
            _close(self._rows.pop(name)[1])
        self.list.children = kids

    def _show_objectives(self, cat: Catalogue) -> None:
        names = cat.names("objective")
        typed = [n for n in names if not objective_unknowns(cat[n])]
        listed = ", ".join(f"{escape(n)}{'' if n in typed else ' (values unknown)'}"
                           for n in names)
        self.objectives.value = (f"<div><b>Objective cards in your catalogue: {len(names)} of "
                                 f"the box's {BOX_OBJECTIVES}</b>"
                                 + (f": {listed}" if names else "") + ". A new game draws "
                                 "from them; type each card once.</div>")

    # -- a new objective --------------------------------------------------------------
    def add_objective(self) -> CardForm:
        """Open an empty form for an objective card the catalogue does not name yet (the
        one already open if nothing is typed in it yet)."""
        return self._add_new("objective")

    def add_location(self) -> CardForm:
        """Open an empty form for a location card the catalogue does not name yet (issue
        36: most of the Revival box's 90 location cards are not shipped; the player types
        each from the physical card once: name, set, kind, values, types, ability)."""
        return self._add_new("location")

    def _add_new(self, category: str) -> CardForm:
        if self.new_form is not None and self.new_form.card.category == category \
                and not self.new_form.name.value.strip():
            self.new_form.focus()
            return self.new_form
        cat = getattr(self, "catalogue", None)
        blank = Card(name=f"New {category}", category=category)

        def suggest(typed: str) -> list[str]:
            return cat.suggest(typed, categories=(category,)) if cat is not None else []

        self.new_form = CardForm(blank, self._save_new, self.close_new, new=True,
                                 suggest=suggest, on_pick=self._pick_existing)
        self.new_box.children = [self.new_form.box]
        self.new_form.focus()
        return self.new_form

    def close_new(self) -> None:
        self.new_form = None
        self.new_box.children = []

    def _pick_existing(self, name: str) -> None:
        """A "Did you mean" button of the new objective: open that objective instead
        (its form if values are still unknown, else the message says it is typed)."""
        self.close_new()
        if name in [c.name for c, _ in self.unknown]:
            self.select(name)
        else:
            self.message.value = (f"<span style='color:{OK}'>'{escape(name)}' is already in "
                                  "your catalogue with all its values.</span>")

    def _save_to_catalogue(self, card: Card) -> None:
        """The default ``save``: the player's catalogue only, through the session."""
        self.session.save_card(card, game=False)

    def _store(self, card: Card, form: CardForm | None) -> str | None:
        """Save ``card`` in the player's catalogue and tell the page (``on_saved``).
        None when it was not saved (the form says why); else the note to add to the
        saved message (empty, or what the page could not do with it, escaped)."""
        try:
            self.save(card)
        except (CompanionError, OSError) as e:
            if form is not None:
                form.message.value = (f"<span style='color:{ERR}'>Not saved: "
                                      f"{escape(str(e))}</span>")
            return None
        if self.on_saved is not None:
            try:
                self.on_saved(card)
            except CompanionError as e:
                return f" ({escape(str(e))})"
        return ""

    def _save_new(self, card: Card) -> None:
        form = self.new_form
        cat = getattr(self, "catalogue", None)
        old = cat.get(card.name) if cat is not None else None
        if old is not None and not unknown_of(old) and form is not None:
            form.message.value = (f"<span style='color:{ERR}'>Not saved: '{escape(old.name)}' is "
                                  "already in your catalogue; choose another name.</span>")
            return
        note = self._store(card, form)
        if note is None:
            return
        self.refresh()
        what = CATEGORY_LABEL.get(card.category, card.category)
        self.message.value = (f"<span style='color:{OK}'>Saved the {escape(what)} "
                              f"'{escape(card.name)}' in your catalogue.</span>{note}")
        self._add_new(card.category)          # the next card of the box, at once

    # -- the form ---------------------------------------------------------------------
    def select(self, name: str | None) -> CardForm | None:
        """Open the form of the unknown entry ``name`` under its row (None closes)."""
        entry = next(((c, u) for c, u in self.unknown if c.name == name), None)
        if entry is None:
            self.close()
            return None
        card, _ = entry
        self.selected = card.name
        self.form = CardForm(card, self._save_card, self.close, missing=_form_missing(card),
                             only=False)      # the catalogue edits the whole card
        self.form_box.children = [self.form.box, self.skip_button]
        if card.name not in [c.name for c, _ in self.entries]:
            # opened from outside the filters: show it anyway
            self.filter.value = ""
            self.category.value = ""
        self._show()
        self.form.focus()
        return self.form

    def close(self) -> None:
        self.selected = None
        self.form = None
        self.form_box.children = []
        self._show()

    def _next_after(self, name: str, order: list[str]) -> str | None:
        """The first entry listed now that came after ``name`` in ``order``, else
        the first one listed (never ``name`` itself unless it is the only one)."""
        listed = [c.name for c, _ in self.entries]
        if not listed:
            return None
        after = order[order.index(name) + 1:] if name in order else []
        for n in after:
            if n in listed:
                return n
        others = [n for n in listed if n != name]
        return others[0] if others else listed[0]

    def skip(self) -> None:
        """Open the next entry without saving this one."""
        if self.selected is None:
            if self.entries:
                self.select(self.entries[0][0].name)
            return
        nxt = self._next_after(self.selected, [c.name for c, _ in self.entries])
        self.select(nxt)

    def _save_card(self, card: Card) -> None:
        form = self.form
        order = [c.name for c, _ in self.entries]
        note = self._store(card, form)
        if note is None:
            return
        self.selected = None
        self.form = None
        self.form_box.children = []
        self.refresh()
        self.message.value = (f"<span style='color:{OK}'>Saved the values of "
                              f"'{escape(card.name)}' in your catalogue.</span>{note}")
        nxt = self._next_after(card.name, order)
        if nxt is not None:
            self.select(nxt)
