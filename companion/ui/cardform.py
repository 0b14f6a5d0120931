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

import copy
import json
import logging
import re
from ..core.htmlsafe import escape

import ipywidgets as w

from collections.abc import Mapping
from typing import Any

from ..ats.catalogue import (MANUAL_OBJECTIVE, OBJECTIVE_MEASURES, TYPES, X, Card,
                              ability_unknowns, make_objective, objective_unknowns, parse_card)
from ..ats.vocabulary import Ability
from ..core.errors import CatalogueError, CompanionError, UnknownCardValues

log = logging.getLogger("companion.ui")
ERR = "#b00020"


def school_label(pay: int = 1, lose: int = 2) -> str:
    """The School of Alien Cultures template's label, from its values."""
    return (f"Every other player pays {pay} credit{'' if pay == 1 else 's'} "
            f"or loses {lose} VP")


_SCHOOL = {"choice": "pay_or_lose", "pay": 1, "lose": 2}

# template key -> (label, ability skeleton, which parameters it shows)
TEMPLATES = {
    "none": ("No ability", None, ()),
    "adjacent": ("+N per adjacent location", {"per": "adjacent_location"}, ("vp", "types")),
    "station": ("+N per location in the station", {"per": "station_location"},
                ("vp", "types", "include_self")),
    "within": ("+N per location within distance D", {"per": "location_within"},
               ("vp", "types", "distance")),
    "reactor": ("+N per reactor", {"per": "reactor"}, ("vp",)),
    "empty_reactor": ("+N per reactor with no cubes", {"per": "empty_reactor"}, ("vp",)),
    "cube": ("+N per energy cube left", {"per": "energy_cube"}, ("vp",)),
    "credit": ("+N per K credits", {"per": "credit"}, ("vp", "every")),
    "year": ("+N per remaining year", {"per": "remaining_year"}, ("vp",)),
    "distinct": ("+N per location type built", {"per": "distinct_type"}, ("vp",)),
    "distinct_table": ("VP by the number of location types built (a table)",
                       {"per": "distinct_type", "table": None}, ("table",)),
    "spaceship": ("+N per spaceship", {"per": "spaceship"}, ("vp",)),
    "others": ("+N per location in other players' stations", {"per": "other_station_location"},
               ("vp", "types")),
    "flat": ("+N (always)", {"flat": None}, ("flat",)),
    "farthest": ("+N if no location is farther from the Main Reactor",
                 {"flat": None, "if": {"farthest_from_main_reactor": True}}, ("flat",)),
    "more": ("+N if more of type A than of type B", {"flat": None, "if": {"more": [], "than": []}},
             ("flat", "types", "than")),
    "adjacent_to": ("+N if adjacent to a type", {"flat": None, "if": {"adjacent_to": []}},
                    ("flat", "types")),
    "school": (school_label(_SCHOOL["pay"], _SCHOOL["lose"]), dict(_SCHOOL), ()),
    "spaceships": ("Places N spaceships (Revival)", {"spaceships": None, "target": "other"},
                   ("ships", "target")),
    "manual": ("VP typed at the table (manual)", {"manual": True}, ()),
}
#: extra words the find box matches, besides the label and the key
KEYWORDS = {
    "none": "nothing empty blank",
    "adjacent": "next neighbour neighbor orthogonal touching",
    "station": "each every location count",
    "within": "distance near range",
    "reactor": "reactors main",
    "empty_reactor": "empty reactors cubes",
    "cube": "energy cubes left",
    "credit": "credits money every",
    "year": "years remaining turn",
    "distinct": "different types kinds",
    "distinct_table": "different types kinds table humareen",
    "spaceship": "spaceships ships revival",
    "others": "other opponents players stations",
    "flat": "bonus fixed always",
    "farthest": "far distance main reactor bonus",
    "more": "majority than compare bonus",
    "adjacent_to": "next neighbour neighbor bonus",
    "school": "alien cultures choice pay lose credit",
    "spaceships": "spaceship ships place revival block",
    "manual": "typed other anything",
}
#: the template keys that offer a second counted type
TWO_TYPES = ("adjacent", "station", "within", "others")
TYPE_CHOICES = [("any type", "")] + [(t, t) for t in TYPES]
NUMBER_FIELDS = ("cost", "energy", "vp", "max")

STYLE = """<style>
.card-form { box-sizing: border-box; width: 100%; max-width: 640px; }
.card-form * { box-sizing: border-box; }
.card-form .jupyter-widgets:not(.widget-toggle-button) { margin-left: 0; margin-right: 0; }
.card-form .card-form-intro { line-height: 1.35; margin: 2px 0 6px 0; }
.card-form .widget-text, .card-form .widget-dropdown, .card-form .widget-select,
.card-form .widget-toggle-buttons, .card-form .widget-checkbox, .card-form .widget-button {
  height: auto !important; min-height: 44px; max-width: 100%; }
.card-form input, .card-form select, .card-form button {
  min-height: 44px; font-size: 16px; max-width: 100%; }
.card-form .widget-text input, .card-form .widget-dropdown select { height: 44px; }
.card-form .widget-select select { height: auto; }
.card-form .widget-label, .card-form .widget-checkbox label {
  min-height: 44px; line-height: 44px; white-space: nowrap; overflow: visible; }
.card-form .widget-toggle-buttons .widget-toggle-button { height: auto; min-height: 44px;
  white-space: normal; margin: 2px 4px 2px 0; }
.card-form .widget-toggle-buttons > div { display: flex; flex-wrap: wrap; }
.card-form .form-row { flex-wrap: wrap; gap: 4px 12px; }
.card-form .form-needed .widget-label { font-weight: bold; }
.card-form .form-needed input, .card-form .form-needed select {
  background: #fff6d5; border: 2px solid #c98a00; }
.card-form .form-preview-text { padding: 6px 8px; margin: 4px 0; background: #eef4ff;
  border-left: 4px solid #2f6fd6; }
.card-form .form-preview-error { color: #6b6b6b; font-style: italic; }
.card-form .form-buttons { flex-wrap: wrap; gap: 4px 8px; }
@media (max-width: 520px) {
  .card-form .form-row > * { flex: 1 1 100% !important; width: 100% !important;
    max-width: 100% !important; }
  .card-form .widget-select select { max-height: 140px; }
}
</style>"""


def template_of(ab: Ability | Mapping[str, Any] | None) -> str:
    """The template key that fits an ability (its values aside)."""
    if not ab:
        return "none"
    ab = Ability.of(ab)
    if ab.kind == "per":
        if ab.by_table and ab.per == "distinct_type":
            return "distinct_table"
        for k, (_, sk, _) in TEMPLATES.items():
            if sk and sk.get("per") == ab.per and "table" not in sk:
                return k
    if ab.kind == "flat":
        test = ab.condition.test if ab.condition is not None else ""
        if test == "farthest":
            return "farthest"
        if test == "more":
            return "more"
        if test == "adjacent_to":
            return "adjacent_to"
        return "flat"
    if ab.kind == "choice":
        return "school"
    if ab.kind == "spaceships":
        return "spaceships"
    return "manual"


def matches(key: str, text: str, label: str | None = None) -> bool:
    """Whether the find box's ``text`` selects template ``key``: every word of
    it appears in the label, the key or the template's keywords."""
    hay = " ".join([label or TEMPLATES[key][0], key.replace("_", " "), KEYWORDS.get(key, "")])
    hay = hay.lower()
    return all(word in hay for word in text.lower().split())


def _num(text: str, label: str, *, allow_blank: bool = False, minimum: int = 0):
    t = (text or "").strip()
    if not t:
        if allow_blank:
            return None
        raise ValueError(f"{label}: please type the number printed on the card")
    try:
        v = int(t)
    except ValueError:
        raise ValueError(f"{label}: '{t}' is not a whole number") from None
    if v < minimum:
        raise ValueError(f"{label}: must be {minimum} or more")
    return v


def _cost(text: str):
    """The cost field: a whole number, or "X" as printed (the engine counts it 1:
    Revival FAQ, "X is always considered to be 1")."""
    if (text or "").strip().upper() == X:
        return X
    return _num(text, "Cost")


def parse_table(text: str, label: str = "VP table") -> dict[int, int]:
    """``"1:1, 2:3, 3:6"`` (or ``1=1 2=3``) -> ``{1: 1, 2: 3, 3: 6}``."""
    t = (text or "").strip()
    if not t:
        raise ValueError(f"{label}: please type the table printed on the card, "
                         f"e.g. 1:1, 2:3, 3:6 (count:VP)")
    out: dict[int, int] = {}
    t = re.sub(r"\s*(->|=>|[:=])\s*", ":", t)
    for part in re.split(r"[,;\s]+", t):
        if not part:
            continue
        m = re.fullmatch(r"(\d+):(-?\d+)", part)
        if not m:
            raise ValueError(f"{label}: '{part}' is not count:VP (e.g. 2:3)")
        out[int(m.group(1))] = int(m.group(2))
    return out


def _table_text(table) -> str:
    return ", ".join(f"{k}:{v}" for k, v in sorted(table.items())) if table else ""


_WORDS = {"vp": "VP", "max": "MAX", "abilities": "ability", "types": "type(s)"}


def describe_missing(missing) -> str:
    """``['cost', 'vp', 'ability 1 vp per unit']`` -> ``'cost, VP, ability 1 VP per unit'``."""
    out = []
    for m in missing:
        words = str(m).split(" ")
        out.append(" ".join(_WORDS.get(x, x) for x in words))
    return ", ".join(out)


def _s(v) -> str:
    return "" if v is None else str(v)


def _field(widget, cls: str, *, width: str = "100%", max_width: str = "300px",
           flex: str = "1 1 130px"):
    widget.add_class(cls)
    widget.style.description_width = "initial"
    widget.layout.width = width
    widget.layout.max_width = max_width
    widget.layout.flex = flex
    return widget


def describe_values(card: Card) -> str:
    """The values the form would save, in words (the form's values preview): always
    about the card being edited, whatever the game around it."""
    parts: list[str] = []
    if card.category == "objective":
        spec = card.extra.get("most") or card.extra.get("least")
        if isinstance(spec, Mapping):
            what = OBJECTIVE_MEASURES.get(str(spec.get("per")), str(spec.get("per")))
            kinds = spec.get("types") or []
            if kinds and spec.get("per") == "station_location":
                what = f"{'/'.join(kinds)} locations in the station"
            side = "most" if "most" in card.extra else "least"
            vp = "?" if card.vp is None else card.vp
            return (f"{card.name}: +{vp} VP to the single player with the {side} {what} "
                    "(a tie gives it to nobody).")
        return f"{card.name}: claimed at the table; the players type who claims it and its VP."
    if card.category in ("location", "conflict"):
        cost = "?" if card.cost is None else card.cost
        parts.append(f"cost {cost}" + (" (counts 1)" if card.cost == X else ""))
        parts.append(f"energy {'?' if card.energy is None else card.energy}")
        parts.append(f"{'?' if card.vp is None else card.vp} VP")
        parts.append("no MAX" if card.max == "none" else f"MAX {card.max}")
        parts.append("/".join(card.types) if card.types else "no type")
        if card.copies is not None:
            parts.append(f"{card.copies} in the box")
    abilities = card.abilities or ()
    if not abilities:
        parts.append("no ability")
    for ab in abilities:
        key = template_of(ab)
        label = TEMPLATES[key][0]
        n = ab.vp if ab.kind == "per" else ab.flat
        if n is not None:
            label = label.replace("+N", f"{n:+d}")
        when = "at game end" if ab.when == "end" else "now"
        parts.append(f"{label} ({when})")
    return f"{card.name}: " + ", ".join(parts) + "."


class AbilityEditor:
    """One ability part: a searchable template list, its timing and its numbers.

    ``on_change()`` is called after any value changes; ``on_submit()`` when
    Enter is pressed in one of its text fields.
    """

    def __init__(self, title: str, ab: Ability | Mapping[str, Any] | None,
                 default_when: str = "immediate", *,
                 on_change=None, on_submit=None, needed: bool = False):
        self._on_change = on_change or (lambda: None)
        self._on_submit = on_submit or (lambda: None)
        ab = Ability.of(ab or {})
        cond = ab.condition
        #: the printed text of the ability edited, kept if its template is kept
        self.original_note = ab.note
        self.original_key = template_of(ab or None)
        self.title = w.HTML(f"<b>{escape(title)}</b>" if title else "")
        self.title.layout.display = "" if title else "none"
        # the School template carries the card's own pay/lose (and its label says them)
        self.skeletons = {k: copy.deepcopy(v[1]) for k, v in TEMPLATES.items()}
        self.labels = {k: v[0] for k, v in TEMPLATES.items()}
        if ab.kind == "choice":
            self.skeletons["school"] = {"choice": ab.choice, "pay": ab.pay, "lose": ab.lose}
            self.labels["school"] = school_label(ab.pay, ab.lose)
        self.all_options = [(self.labels[k], k) for k in TEMPLATES]
        self.filter = _field(w.Text(value="", description="Ability: find",
                                    placeholder="type a word, e.g. adjacent",
                                    continuous_update=True), "ability-filter",
                             max_width="420px", flex="0 0 auto")
        self.template = w.Select(options=self.all_options, value=template_of(ab or None),
                                 rows=6, layout=w.Layout(width="100%", max_width="560px"))
        self.template.add_class("ability-template")
        self.no_match = w.HTML()
        when = ab.when or default_when
        self.when = w.ToggleButtons(options=[("now (white box)", "immediate"),
                                             ("at game end (yellow box)", "end")], value=when,
                                    style={"button_width": "auto"},
                                    layout=w.Layout(width="100%", max_width="100%"))
        self.when.add_class("ability-when")
        vp = ab.vp if ab.kind == "per" else ab.flat
        self.vp = _field(w.Text(value=_s(vp), description="N (VP)", placeholder="from the card"),
                         "ability-vp")
        types = (ab.types or (cond.more if cond is not None else ())
                 or (cond.adjacent_to if cond is not None else ()) or ("",))
        self.types = _field(w.Dropdown(options=TYPE_CHOICES, value=types[0] if types else "",
                                       description="of type"), "ability-type1")
        self.types2 = _field(w.Dropdown(options=TYPE_CHOICES,
                                        value=types[1] if len(types) > 1 else "",
                                        description="or type"), "ability-type2")
        than = (cond.than if cond is not None else ()) or ("",)
        self.than = _field(w.Dropdown(options=TYPE_CHOICES[1:], value=than[0] or TYPES[0],
                                      description="than type"), "ability-than")
        self.include_self = _field(w.Checkbox(value=ab.include_self,
                                              description="counts itself", indent=False),
                                   "ability-include-self")
        self.distance = _field(w.Text(value=_s(ab.distance), description="distance D"),
                               "ability-distance")
        self.every = _field(w.Text(value=_s(ab.every if ab.written("every") else None),
                                   description="per K credits",
                                   placeholder="e.g. 3"), "ability-every")
        self.table = _field(w.Text(value=_table_text(dict(ab.table or ())), description="VP table",
                                   placeholder="count:VP, e.g. 1:1, 2:3, 3:6"),
                            "ability-table", max_width="560px", flex="1 1 100%")
        self.ships = _field(w.Text(value=_s(ab.spaceships), description="spaceships N"),
                            "ability-ships")
        self.target = _field(w.Dropdown(options=[("in other players' stations", "other"),
                                                 ("in its own station", "self"),
                                                 ("in any station", "any")],
                                        value=ab.target, description="placed"),
                             "ability-target", max_width="360px", flex="1 1 220px")
        self.cap = _field(w.Text(value=_s(ab.cap), description="MAX +",
                                 placeholder="blank: no maximum"), "ability-cap")
        self.params = w.HBox(layout=w.Layout(flex_flow="row wrap", width="100%"))
        self.params.add_class("form-row")
        if needed:
            for x in (self.template, self.vp, self.table):
                x.add_class("form-needed")
        self.box = w.VBox([self.title, self.filter, self.template, self.no_match, self.when,
                           self.params], layout=w.Layout(width="100%"))
        self.box.add_class("ability-part")
        self.filter.observe(self._filtered, "value")
        self.template.observe(lambda _: self._show(), "value")
        for x in (self.when, self.vp, self.types, self.types2, self.than, self.include_self,
                  self.distance, self.every, self.table, self.ships, self.target, self.cap):
            x.observe(lambda _: self._on_change(), "value")
        for x in self.texts():
            x.on_msg(self._msg)
        self._show()

    def texts(self) -> list[w.Text]:
        """Its text fields (Enter in any of them saves)."""
        return [self.filter, self.vp, self.distance, self.every, self.table, self.ships,
                self.cap]

    def _msg(self, _widget, content, _buffers):
        if isinstance(content, dict) and content.get("event") == "submit":
            self._on_submit()

    @property
    def key(self) -> str | None:
        return self.template.value

    def choose(self, key: str) -> None:
        """Select template ``key`` (clearing the find box if it hides it)."""
        if key not in [k for _, k in self.template.options]:
            self.filter.value = ""
        self.template.value = key

    def _filtered(self, _=None):
        text = self.filter.value.strip()
        opts = [(lab, k) for lab, k in self.all_options if matches(k, text, lab)]
        if not opts:
            self.no_match.value = (f"<i>No ability template matches '{escape(text)}'; "
                                   f"all are listed.</i>")
            opts = self.all_options
        else:
            self.no_match.value = ""
        current = self.template.value
        keys = [k for _, k in opts]
        self.template.options = opts
        self.template.value = current if current in keys else keys[0]
        self.template.rows = max(2, min(6, len(opts)))

    def _show(self):
        key = self.template.value
        shows = TEMPLATES[key][2] if key else ()
        kids = []
        if "vp" in shows or "flat" in shows:
            kids.append(self.vp)
        if "table" in shows:
            kids.append(self.table)
        if "types" in shows:
            kids += [self.types] + ([self.types2] if key in TWO_TYPES else [])
        if "than" in shows:
            kids.append(self.than)
        if "include_self" in shows:
            kids.append(self.include_self)
        if "distance" in shows:
            kids.append(self.distance)
        if "every" in shows:
            kids.append(self.every)
        if "ships" in shows:
            kids += [self.ships, self.target]
        elif shows:
            kids.append(self.cap)
        self.types.description = "type A" if key == "more" else (
            "adjacent to" if key == "adjacent_to" else "of type")
        self.params.children = kids
        self.when.layout.display = "none" if key in (None, "none") else ""
        self._on_change()

    def value(self) -> dict | None:
        key = self.template.value
        if key is None:
            raise ValueError("choose an ability template (or 'No ability')")
        shows = TEMPLATES[key][2]
        skeleton = self.skeletons[key]
        if skeleton is None:
            return None
        ab = {"when": self.when.value, **copy.deepcopy(skeleton)}
        types = [t for t in (self.types.value, self.types2.value) if t]
        if "per" in ab:
            if "table" in ab:
                ab["table"] = parse_table(self.table.value)
            else:
                ab["vp"] = _num(self.vp.value, "N (VP)", minimum=-99)
            if "types" in shows and types:
                ab["types"] = list(dict.fromkeys(types if key in TWO_TYPES else types[:1]))
            if "include_self" in shows:
                ab["include_self"] = bool(self.include_self.value)
            if "distance" in shows:
                ab["distance"] = _num(self.distance.value, "distance D", minimum=1)
            if "every" in shows:
                ab["every"] = _num(self.every.value, "per K credits", minimum=1)
        elif "flat" in ab:
            ab["flat"] = _num(self.vp.value, "N (VP)", minimum=-99)
            if key == "more":
                if not self.types.value:
                    raise ValueError("choose type A")
                ab["if"] = {"more": [self.types.value], "than": [self.than.value]}
            elif key == "adjacent_to":
                if not self.types.value:
                    raise ValueError("choose the type it must be adjacent to")
                ab["if"] = {"adjacent_to": [self.types.value]}
        elif "spaceships" in ab:
            ab["spaceships"] = _num(self.ships.value, "spaceships N", minimum=1)
            ab["target"] = self.target.value
        if shows and "ships" not in shows:
            cap = _num(self.cap.value, "MAX +", allow_blank=True)
            if cap is not None:
                ab["cap"] = cap
        if key == self.original_key and self.original_note:
            ab["note"] = self.original_note             # the printed text stays with it
        return ab


def _needed_fields(card: Card, missing: list[str] | None) -> list[str]:
    if missing is not None:
        return list(missing)
    if card.category in ("location", "conflict"):
        return card.unknown_all()
    if card.category == "objective":
        return objective_unknowns(card)
    if card.abilities is None:
        return ["abilities"]
    return [f"ability {i + 1} {u}" for i, ab in enumerate(card.abilities)
            for u in ability_unknowns(ab)]


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
                 preview=None, new: bool = False, suggest=None, on_pick=None):
        self.card = card
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
                       if self.is_objective else "") + " (saved in your catalogue; Enter saves).")
        else:
            head = (f"<b>Enter the printed values of '{escape(card.name)}'</b> from the physical "
                    f"{what} (once: they are saved in your catalogue; Enter saves).{need}")
        self.intro = w.HTML(f"<div class='card-form-intro'>{head}</div>",
                            layout=w.Layout(width="100%"))
        self.name = _field(w.Text(value="" if self.new else card.name, description="Name",
                                  placeholder="as printed on the card"), "form-name",
                           max_width="420px", flex="1 1 100%")
        self.did_you_mean = w.HBox([], layout=w.Layout(flex_flow="row wrap", width="100%"))
        self.did_you_mean.add_class("form-did-you-mean")
        self.name.observe(lambda _: self._suggest(), "value")
        self.copies = _field(w.Text(value=_s(card.copies), description="Copies",
                                    placeholder="in the box (optional)"), "form-copies")
        spec = card.extra.get("most") or card.extra.get("least") or {}
        measured = isinstance(spec, Mapping) and spec.get("per") in OBJECTIVE_MEASURES
        manual = bool(card.abilities) and any(a.kind == "manual" for a in card.abilities or ())
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
        ab_needed = any(m.startswith("abilit") for m in self.missing)
        default_when = "end" if card.category == "race" else "immediate"
        self.ab1 = AbilityEditor("", abilities[0] if abilities else None, default_when,
                                 on_change=self._changed, on_submit=self.submit,
                                 needed=ab_needed)
        self.ab2 = AbilityEditor("Second part of the ability (the box has two colours)",
                                 abilities[1] if len(abilities) > 1 else None, "end",
                                 on_change=self._changed, on_submit=self.submit)
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
                  self.copies, self.measure, self.most, self.otype1, self.otype2):
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
            fields += [measure_row, self.most, self.objective_types, self.objective_vp]
        if self.is_location:
            numbers = w.HBox([self.cost, self.energy, self.vp, self.max, self.copies],
                             layout=w.Layout(flex_flow="row wrap", width="100%"))
            kinds = w.HBox([self.type1, self.type2],
                           layout=w.Layout(flex_flow="row wrap", width="100%"))
            numbers.add_class("form-row")
            kinds.add_class("form-row")
            fields = [numbers, kinds]
        buttons = w.HBox([self.save, self.add_second, self.cancel],
                         layout=w.Layout(flex_flow="row wrap", width="100%"))
        buttons.add_class("form-buttons")
        ability = [] if self.is_objective else [self.ab1.box, self.second]
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
        self.add_second.layout.display = "none" if show else ""
        self._second_shown = bool(show)
        self._changed()

    def focus(self) -> None:
        """Put the cursor in the first value still needed (call once the form is shown)."""
        if self.new:
            self.name.focus()
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
        self.ab1.filter.focus()

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
                                  notes=c.extra.get("notes"))
        d = c.to_dict()
        d["name"] = name
        if self.is_location:
            copies = _num(self.copies.value, "Copies", allow_blank=True, minimum=1)
            if copies is not None:
                d["copies"] = copies
            d["cost"] = _cost(self.cost.value)
            d["energy"] = _num(self.energy.value, "Energy")
            d["vp"] = _num(self.vp.value, "VP")
            mx = _num(self.max.value, "MAX", allow_blank=True, minimum=1)
            d["max"] = "none" if mx is None else mx
            types = [t for t in (self.type1.value, self.type2.value) if t]
            if len(set(types)) != len(types):
                raise ValueError("the two types must differ")
            d["types"] = types
        parts = [self.ab1.value()] + ([self.ab2.value()] if self._second_shown else [])
        d["abilities"] = [a for a in parts if a]
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
