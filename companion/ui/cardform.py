"""The short form that asks a player for a card's printed values, once.

Pure widget code around the engine's catalogue schema: it builds a catalogue
entry, validates it with the engine's own loader (:func:`parse_card`), and
hands it back.  Built for a person reading the physical card at the table:

* the fields come in the order they are printed and in Tab order: cost,
  energy, VP, MAX, type(s), then the ability (find box, template list, timing,
  the template's numbers);
* Enter in any text field saves (the same as the *Save values* button);
* the values still unknown are highlighted; known values are shown prefilled;
* the ability templates are a list narrowed by a find box ("adjacent",
  "credit", "yellow", ...);
* if a ``preview`` callable is given, what the typed card would score here and
  now is shown as soon as the values form a valid card;
* one column on a phone (390 px), every control at least 44 px tall.

Stable CSS class hooks (browser tests rely on them; the ``ability-*`` hooks
exist once per ability part, so use ``.first`` for the first part):

=====================  =======================================================
``card-form``          the whole form (``CardForm.box``)
``card-form-intro``    the sentence naming the card and what is unknown
``form-cost``          Text: cost in credits (locations and conflicts only)
``form-energy``        Text: energy cubes
``form-vp``            Text: printed VP
``form-max``           Text: MAX N build limit (blank = no limit)
``form-type1``         Dropdown: first location type
``form-type2``         Dropdown: second location type
``form-row``           a row of fields (one column on a phone)
``form-buttons``       the row of Save, "+ 2nd part" and Cancel
``form-needed``        added to each field whose value is still unknown
``ability-part``       the box of one ability part
``ability-filter``     Text: find box narrowing the template list
``ability-template``   Select: the template list (option labels = ``TEMPLATES``
                       labels; the School label is built from its pay/lose)
``ability-when``       ToggleButtons: "now (white box)" / "at game end (yellow box)"
``ability-vp``         Text: N, the VP per unit or the flat bonus
``ability-type1``      Dropdown: the type counted / required (type A)
``ability-type2``      Dropdown: a second type counted
``ability-than``       Dropdown: type B of "more A than B"
``ability-include-self`` Checkbox: the card counts itself
``ability-distance``   Text: distance D
``ability-every``      Text: K of "per K credits"
``ability-table``      Text: a VP table "1:1, 2:3, 3:6"
``ability-ships``      Text: how many spaceships the card places (Revival)
``ability-target``     Dropdown: whose station the spaceships go to
``ability-cap``        Text: MAX +N of the ability (blank = no maximum)
``ability-add-second`` Button "+ 2nd part": show the second ability part
                       (a box with a white and a yellow part)
``form-preview``       HTML: the live preview sentence (empty without one)
``form-message``       HTML: why the values cannot be saved
``form-save``          Button: save (Enter does the same)
``form-cancel``        Button: cancel
=====================  =======================================================
"""
from __future__ import annotations

import json
import logging
from ..core.htmlsafe import escape

import ipywidgets as w

from collections.abc import Mapping

from ..ats.abilitykinds import ability_kind
from ..ats.catalogue import (MANUAL_OBJECTIVE, OBJECTIVE_MEASURES, TYPES, Card,
                              make_objective, parse_card)
# the ability part and its helpers (cardform_ability.py); their names stay importable here
from .cardform_ability import (KEYWORDS, TEMPLATES, TWO_TYPES, TYPE_CHOICES,  # noqa: F401
                               AbilityEditor, _cost, _field, _num, _s, matches, parse_table,
                               STYLE, school_label, template_of, describe_missing,
                               describe_values, hide_unasked, _needed_fields)
from ..core.errors import CatalogueError, CompanionError, UnknownCardValues
from ..ats.cards import END_ONLY
from ..ats.scoring import END_ABILITIES

log = logging.getLogger("companion.ui")
ERR = "#b00020"
NUMBER_FIELDS = ("cost", "energy", "vp", "max")


class CardForm:
    """Ask for a card's printed values; ``on_save(Card)`` is called with a valid card.

    ``missing``: the names of the values still unknown (as the engine names
    them: ``cost``, ``energy``, ``vp``, ``max``, ``types``, ``abilities``,
    ``ability 1 vp per unit``, ...), highlighted and listed in the intro;
    default: what the card itself does not know.

    ``preview``: optional ``preview(card: Card) -> str``, called with the card
    the form would save each time the values change and form a valid card
    (at most once per distinct card); its sentence is shown escaped in
    ``.form-preview``.  A :class:`CompanionError` or ``ValueError`` it raises is
    shown as its message; nothing it raises escapes the form.

    Attributes: ``box`` (the widget), ``card``, ``missing``, the fields
    ``cost``, ``energy``, ``vp``, ``max``, ``type1``, ``type2``, the ability
    parts ``ab1``, ``ab2`` (:class:`AbilityEditor`), ``save``, ``cancel``,
    ``message``, ``preview_out`` (the preview HTML) and ``preview`` (the
    callable).  ``build()`` returns the validated :class:`Card` (raises
    ``ValueError`` or :class:`CatalogueError`), ``submit()`` does what the
    Save button does, ``focus()`` puts the cursor in the first value needed.
    """

    def __init__(self, card: Card, on_save, on_cancel, *, missing: list[str] | None = None,
                 preview=None, new: bool = False, suggest=None, on_pick=None,
                 name_given: bool = False, only: bool | None = None):
        self.card = card
        # only: the form shows the values ``missing`` names and nothing else (issue 50:
        # a form asks what the computation at hand reads; the rest stays unknown until
        # something needs it); default: whenever the values are asked (``missing``)
        self.only = (missing is not None and not new) if only is None else bool(only)
        self.on_save, self.on_cancel = on_save, on_cancel
        self.preview = preview
        self.new = bool(new)
        self.suggest, self.on_pick = suggest, on_pick
        self.missing = [] if self.new else _needed_fields(card, missing)
        self._preview_key = None
        self._ready = False
        self.is_location = card.category in ("location", "conflict")
        self.is_objective = card.category == "objective"
        what = {"race": "race tile", "objective": "objective card"}.get(card.category, "card")
        need = (f" Unknown: <b>{escape(describe_missing(self.missing))}</b>."
                if self.missing else "")
        if self.new:
            head = (f"<b>Type a new {what}</b> from the physical card, once: its name"
                    + (", what it measures, most or least, and the bonus VP"
                       if self.is_objective else
                       ", its set, cost, energy, VP, MAX, type(s) and ability"
                       if self.is_location else "")
                    + " (saved in your catalogue; Enter saves).")
        else:
            head = (f"<b>Enter the printed values of '{escape(card.name)}'</b> from the physical "
                    f"{what} (once: they are saved in your catalogue; Enter saves).{need}")
        self.intro = w.HTML(f"<div class='card-form-intro'>{head}</div>",
                            layout=w.Layout(width="100%"))
        # name_given: a new card whose name the player has typed already (a build of a
        # card the catalogue does not name: issue 36), shown for a check, still editable
        self.name = _field(w.Text(value=card.name if (not self.new or name_given) else "",
                                  description="Name",
                                  placeholder="as printed on the card"), "form-name",
                           max_width="420px", flex="1 1 100%")
        self.did_you_mean = w.HBox([], layout=w.Layout(flex_flow="row wrap", width="100%"))
        self.did_you_mean.add_class("form-did-you-mean")
        self.name.observe(lambda _: self._suggest(), "value")
        # a new location card: the box it comes from and basic or special (B components:
        # "Basic Location Cards", "Special Location Cards"; R: the Revival box's own)
        given_set = str(card.extra.get("set") or "")
        self.card_set = _field(w.Dropdown(
            options=[("base game", "base"), ("Revival", "revival"), ("not sure", "")],
            value=given_set if given_set in ("base", "revival") else "",
            description="Set"), "form-set", max_width="300px", flex="1 1 200px")
        given_kind = str(card.extra.get("kind") or "")
        self.card_kind = _field(w.Dropdown(
            options=[("basic location", "basic"), ("special location", "special"),
                     ("not sure", "")],
            value=given_kind if given_kind in ("basic", "special") else "",
            description="Kind"), "form-kind", max_width="300px", flex="1 1 200px")
        self.copies = _field(w.Text(value=_s(card.copies), description="Copies",
                                    placeholder="in the box (optional)"), "form-copies")
        spec = card.extra.get("most") or card.extra.get("least") or {}
        measured = isinstance(spec, Mapping) and spec.get("per") in OBJECTIVE_MEASURES
        manual = bool(card.abilities) and any(ability_kind(a).typed for a in card.abilities or ())
        self.measure = _field(w.Dropdown(
            options=[("choose…", "")] + [(v, k) for k, v in OBJECTIVE_MEASURES.items()]
            + [("a condition the players judge (claimed at the table)", MANUAL_OBJECTIVE)],
            value=(spec["per"] if measured else MANUAL_OBJECTIVE if manual else ""),
            description="Measures"), "form-measure", max_width="420px", flex="1 1 100%")
        self.most = w.ToggleButtons(options=[("the most", "most"), ("the least", "least")],
                                    value="least" if "least" in card.extra else "most",
                                    style={"button_width": "auto"},
                                    layout=w.Layout(width="100%", max_width="100%"))
        self.most.add_class("form-most")
        # B 6: "claimed by 1 player unless stated otherwise": the card says otherwise
        self.shared = w.Checkbox(value=bool(card.extra.get("shared")), indent=False,
                                 description="the card says more than one player may claim it")
        self.shared.add_class("form-shared")
        okinds = list(spec.get("types") or []) if isinstance(spec, Mapping) else []
        self.otype1 = _field(w.Dropdown(options=TYPE_CHOICES, value=okinds[0] if okinds else "",
                                        description="of type"), "form-objective-type1")
        self.otype2 = _field(w.Dropdown(options=TYPE_CHOICES,
                                        value=okinds[1] if len(okinds) > 1 else "",
                                        description="or type"), "form-objective-type2")
        needed = set(self.missing)
        self.cost = _field(w.Text(value=_s(card.cost), description="Cost",
                                  placeholder="credits"), "form-cost")
        self.energy = _field(w.Text(value=_s(card.energy), description="Energy",
                                    placeholder="cubes"), "form-energy")
        self.vp = _field(w.Text(value=_s(card.vp), description="VP", placeholder="printed VP"),
                         "form-vp")
        self.max = _field(w.Text(value="" if card.max in (None, "none") else str(card.max),
                                 description="MAX", placeholder="blank: no limit"), "form-max")
        types = list(card.types or [])
        self.type1 = _field(w.Dropdown(options=[("(none)", "")] + [(t, t) for t in TYPES],
                                       value=types[0] if types else "", description="Type"),
                            "form-type1", max_width="300px", flex="1 1 200px")
        self.type2 = _field(w.Dropdown(options=[("(none)", "")] + [(t, t) for t in TYPES],
                                       value=types[1] if len(types) > 1 else "",
                                       description="2nd type"),
                            "form-type2", max_width="300px", flex="1 1 200px")
        for name, x in (("cost", self.cost), ("energy", self.energy), ("vp", self.vp),
                        ("max", self.max), ("types", self.type1), ("types", self.type2),
                        ("what it measures", self.measure)):
            if name in needed:
                x.add_class("form-needed")
        if self.is_objective:
            self.vp.placeholder = "bonus VP"
        abilities = list(card.abilities or [])
        ab_needed = any(m.startswith("abilit") or m == END_ABILITIES for m in self.missing)
        #: the end-of-game abilities only (a final scoring's question: END_ABILITIES)
        self.end_only = self.only and END_ABILITIES in self.missing and not any(
            m.startswith("abilit") for m in self.missing)
        default_when = "end" if card.category == "race" else "immediate"
        # the abilities known, their numbers asked: no find box, no timing
        known = self.only and card.abilities is not None and not card.end_only \
            and bool(self.missing) and all(m.startswith("ability ") for m in self.missing)
        self.ab1 = AbilityEditor("", abilities[0] if abilities else None, default_when,
                                 on_change=self._changed, on_submit=self.submit,
                                 needed=ab_needed, end_only=self.end_only,
                                 template_known=known and bool(abilities))
        if self.only:       # only what is missing: the 20 kinds listed, no find box (issue
            self.ab1.filter.layout.display = "none"       # 50: <= 4 inputs a form)
        self.ab2 = AbilityEditor("Second part of the ability (the box has two colours)",
                                 abilities[1] if len(abilities) > 1 else None, "end",
                                 on_change=self._changed, on_submit=self.submit,
                                 template_known=known and len(abilities) > 1)
        self.add_second = w.Button(description="+ 2nd part", tooltip="a second ability part "
                                   "(a box with a white and a yellow part)",
                                   layout=w.Layout(width="auto", max_width="100%"))
        self.add_second.add_class("ability-add-second")
        self.add_second.on_click(lambda _: self.show_second(True))
        self.second = w.VBox([], layout=w.Layout(width="100%"))
        self.preview_out = w.HTML(layout=w.Layout(width="100%"))
        self.preview_out.add_class("form-preview")
        self.message = w.HTML(layout=w.Layout(width="100%"))
        self.message.add_class("form-message")
        self.save = w.Button(description="Save values", button_style="success", icon="check",
                             layout=w.Layout(width="auto", min_width="120px"))
        self.save.add_class("form-save")
        self.cancel = w.Button(description="Cancel", layout=w.Layout(width="auto",
                                                                     min_width="80px"))
        self.cancel.add_class("form-cancel")
        self.save.on_click(lambda _: self.submit())
        self.cancel.on_click(lambda _: self.on_cancel())
        for x in self.texts():
            if x not in self.ab1.texts() + self.ab2.texts():
                x.on_msg(self._msg)
        for x in (self.cost, self.energy, self.vp, self.max, self.type1, self.type2, self.name,
                  self.copies, self.measure, self.most, self.otype1, self.otype2,
                  self.card_set, self.card_kind):
            x.observe(lambda _: self._changed(), "value")
        fields: list = []
        if self.new:
            name_row = w.HBox([self.name], layout=w.Layout(flex_flow="row wrap", width="100%"))
            name_row.add_class("form-row")
            fields += [name_row, self.did_you_mean]
        if self.is_objective:
            self.objective_types = w.HBox([self.otype1, self.otype2],
                                          layout=w.Layout(flex_flow="row wrap", width="100%"))
            self.objective_types.add_class("form-row")
            self.measure.observe(lambda _: self._show_objective(), "value")
            self.objective_vp = w.HBox([self.vp], layout=w.Layout(flex_flow="row wrap",
                                                                   width="100%"))
            self.objective_vp.add_class("form-row")
            measure_row = w.HBox([self.measure], layout=w.Layout(flex_flow="row wrap",
                                                                 width="100%"))
            measure_row.add_class("form-row")
            fields += [measure_row, self.most, self.objective_types, self.objective_vp,
                       self.shared]
        if self.is_location:
            numbers = w.HBox([self.cost, self.energy, self.vp, self.max, self.copies],
                             layout=w.Layout(flex_flow="row wrap", width="100%"))
            kinds = w.HBox([self.type1, self.type2],
                           layout=w.Layout(flex_flow="row wrap", width="100%"))
            numbers.add_class("form-row")
            kinds.add_class("form-row")
            if self.new and card.category == "location":
                origin = w.HBox([self.card_set, self.card_kind],
                                layout=w.Layout(flex_flow="row wrap", width="100%"))
                origin.add_class("form-row")
                fields.append(origin)
            fields += [numbers, kinds]
        buttons = w.HBox([self.save, self.add_second, self.cancel],
                         layout=w.Layout(flex_flow="row wrap", width="100%"))
        buttons.add_class("form-buttons")
        ability = [] if self.is_objective else [self.ab1.box, self.second]
        if self.only and not self.is_objective:
            hide_unasked(self, fields, ability)
        if self.is_objective:
            self.add_second.layout.display = "none"
        self.box = w.VBox([w.HTML(STYLE), self.intro, *fields, *ability,
                           self.preview_out, self.message, buttons],
                          layout=w.Layout(width="100%", max_width="640px",
                                          border="2px solid #2f6fd6", padding="8px"))
        self.box.add_class("card-form")
        if not self.is_objective:
            self.show_second(len(abilities) > 1)
        else:
            self._second_shown = False
            self._show_objective()
        self._ready = True
        self._changed()

    # -- structure --------------------------------------------------------------------
    def asks(self, field: str) -> bool:
        """Whether the form asks ``field`` (cost, energy, vp, max, types, abilities):
        every field, or only the ones ``missing`` names (:attr:`only`)."""
        if not self.only:
            return True
        if field == "abilities":
            return any(m.startswith("abilit") or m == END_ABILITIES for m in self.missing)
        return field in self.missing

    def texts(self) -> list[w.Text]:
        """Every text field of the form (Enter in any of them saves)."""
        own = [self.cost, self.energy, self.vp, self.max, self.copies] if self.is_location else []
        if self.is_objective:
            return ([self.name] if self.new else []) + [self.vp]
        return ([self.name] if self.new else []) + own + self.ab1.texts() + self.ab2.texts()

    def _show_objective(self) -> None:
        """An objective's fields: the type(s) only for "locations in the station", most
        or least only for a measured one."""
        m = self.measure.value
        self.objective_types.layout.display = "" if m == "station_location" else "none"
        self.most.layout.display = "none" if m == MANUAL_OBJECTIVE else ""
        # claimed at the table: the VP are typed then, with the claim
        self.objective_vp.layout.display = "none" if m == MANUAL_OBJECTIVE else ""
        self.shared.layout.display = "" if m == MANUAL_OBJECTIVE else "none"
        self.vp.description = "Bonus VP"

    def _suggest(self) -> None:
        """"Did you mean …?" under the name of a new card: a button per existing name
        it may mean; clicking one opens that card (``on_pick(name)``)."""
        typed = self.name.value.strip()
        names = list(self.suggest(typed)) if (self.suggest and typed) else []
        names = [n for n in names if n.lower() != typed.lower() or self.on_pick]
        for b in self.did_you_mean.children:
            b.close()
        kids: list = []
        if names:
            kids.append(w.HTML("Did you mean", layout=w.Layout(width="auto")))
            for n in names[:3]:
                b = w.Button(description=n, tooltip=f"open '{n}'",
                             layout=w.Layout(width="auto", max_width="100%"))
                b.add_class("form-suggestion")
                b.on_click(lambda _, n=n: self.pick(n))
                kids.append(b)
        self.did_you_mean.children = kids

    def pick(self, name: str) -> None:
        """What a "Did you mean" button does: open the existing card, or else take its name."""
        if self.on_pick is not None:
            self.on_pick(name)
        else:
            self.name.value = name

    def show_second(self, show: bool = True) -> None:
        """Show (or hide) the second ability part."""
        self.second.children = [self.ab2.box] if show else []
        self.add_second.layout.display = "none" if show or (
            self.only and not self.asks("abilities")) else ""
        self._second_shown = bool(show)
        self._changed()

    def focus(self) -> None:
        """Put the cursor in the first value still needed (call once the form is shown)."""
        if self.new and not self.name.value:
            self.name.focus()
            return
        if self.new and self.is_location:
            self.cost.focus()                # the name is typed: the first printed value
            return
        if self.is_objective:
            (self.measure if "what it measures" in self.missing else self.vp).focus()
            return
        if self.is_location:
            for name, x in (("cost", self.cost), ("energy", self.energy), ("vp", self.vp),
                            ("max", self.max), ("types", self.type1)):
                if name in self.missing:
                    x.focus()
                    return
        (self.ab1.template if self.end_only or self.only else self.ab1.filter).focus()

    # -- values -----------------------------------------------------------------------
    def build(self) -> Card:
        c = self.card
        name = self.name.value.strip() if self.new else c.name
        if self.new and not name:
            raise ValueError("Name: please type the name printed on the card")
        if self.is_objective:
            m = self.measure.value
            if not m:
                raise ValueError("Measures: choose what the objective measures")
            vp = None if m == MANUAL_OBJECTIVE else _num(self.vp.value, "Bonus VP")
            return make_objective(name, measure=m, most=self.most.value == "most", vp=vp,
                                  types=[self.otype1.value, self.otype2.value],
                                  notes=c.extra.get("notes"),
                                  shared=m == MANUAL_OBJECTIVE and self.shared.value)
        d = c.to_dict()
        d["name"] = name
        if self.is_location:        # a value the form does not ask stays as it is
            copies = _num(self.copies.value, "Copies", allow_blank=True, minimum=1)
            if copies is not None and not self.only:
                d["copies"] = copies
            if self.asks("cost"):
                d["cost"] = _cost(self.cost.value)
            if self.asks("energy"):
                d["energy"] = _num(self.energy.value, "Energy")
            if self.asks("vp"):
                d["vp"] = _num(self.vp.value, "VP")
            if self.asks("max"):
                mx = _num(self.max.value, "MAX", allow_blank=True, minimum=1)
                d["max"] = "none" if mx is None else mx
            types = [t for t in (self.type1.value, self.type2.value) if t]
            if len(set(types)) != len(types):
                raise ValueError("the two types must differ")
            if self.asks("types"):
                d["types"] = types
            if self.new and c.category == "location":
                for key, box in (("set", self.card_set), ("kind", self.card_kind)):
                    if box.value:
                        d[key] = box.value
                    else:
                        d.pop(key, None)
        if self.asks("abilities"):
            parts = [self.ab1.value()] + ([self.ab2.value()] if self._second_shown else [])
            d["abilities"] = [a for a in parts if a]
            if self.end_only:       # the yellow box only: the white one stays unknown
                d[END_ONLY] = True
            else:
                d.pop(END_ONLY, None)
        d["source"] = "typed by the players"
        return parse_card(d, file="your entry")

    def submit(self) -> Card | None:
        """Validate and save (what the Save button and Enter do); the card, or
        None with the reason in ``.form-message``."""
        try:
            card = self.build()
        except (ValueError, CatalogueError) as e:
            self.message.value = f"<span style='color:{ERR}'>{escape(str(e))}</span>"
            return None
        self.message.value = ""
        self.on_save(card)
        return card

    def _msg(self, _widget, content, _buffers):
        if isinstance(content, dict) and content.get("event") == "submit":
            self.submit()

    # -- live preview -----------------------------------------------------------------
    def _changed(self):
        if not self._ready:
            return
        try:
            card = self.build()
        except (ValueError, CompanionError) as e:
            self._preview_key = None
            self.preview_out.value = (f"<div class='form-preview-text form-preview-error'>"
                                      f"Values so far: {escape(str(e))}</div>")
            return
        key = json.dumps(card.to_dict(), sort_keys=True, default=str)
        if key == self._preview_key:
            return
        self._preview_key = key
        values = describe_values(card)
        if self.preview is None:
            self.preview_out.value = f"<div class='form-preview-text'>{escape(values)}</div>"
            return
        try:
            text, cls = self.preview(card), "form-preview-text"
        except UnknownCardValues as e:
            # another card's values stop the game's preview: say so, but the preview
            # line above stays about the card being edited (issue 21: editing Vak, the
            # preview "spoke of Zehuti")
            text = (f"No preview of the score yet: it also needs the values of "
                    f"'{e.card}'." if e.card.lower() != card.name.lower()
                    else f"No preview: {e}")
            cls = "form-preview-text form-preview-error"
        except (CompanionError, ValueError) as e:
            text, cls = f"No preview: {e}", "form-preview-text form-preview-error"
        except Exception as e:                       # a preview never breaks the form
            log.exception("card form preview of %r failed", card.name)
            text, cls = f"No preview ({type(e).__name__})", \
                "form-preview-text form-preview-error"
        text = "" if text is None else str(text)
        self.preview_out.value = (f"<div class='form-preview-text'>{escape(values)}</div>"
                                  + (f"<div class='{cls}'>{escape(text)}</div>" if text else ""))
