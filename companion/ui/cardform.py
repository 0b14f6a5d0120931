"""The short form that asks a player for a card's printed values, once.

Pure widget code around the engine's catalogue schema: it builds a catalogue
entry, validates it with the engine's own loader, and hands it back.
"""
from __future__ import annotations

import ipywidgets as w

from ..catalogue import TYPES, Card, parse_card
from ..errors import CatalogueError

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
    "school": ("Every other player pays 1 credit or loses 2 VP",
               {"choice": "pay_or_lose", "pay": 1, "lose": 2}, ()),
    "manual": ("VP typed at the table (manual)", {"manual": True}, ()),
}
TYPE_CHOICES = [("any type", "")] + [(t, t) for t in TYPES]


def template_of(ab: dict | None) -> str:
    if not ab:
        return "none"
    if "per" in ab:
        for k, (_, sk, _) in TEMPLATES.items():
            if sk and sk.get("per") == ab["per"]:
                return k
    if "flat" in ab:
        cond = ab.get("if") or {}
        if "farthest_from_main_reactor" in cond:
            return "farthest"
        if "more" in cond:
            return "more"
        if "adjacent_to" in cond:
            return "adjacent_to"
        return "flat"
    if "choice" in ab:
        return "school"
    return "manual"


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


class AbilityEditor:
    def __init__(self, title: str, ab: dict | None, default_when: str = "immediate"):
        self.title = w.HTML(f"<b>{title}</b>")
        self.template = w.Dropdown(options=[(v[0], k) for k, v in TEMPLATES.items()],
                                   value=template_of(ab), description="Ability")
        self.template.add_class("ability-template")
        when = (ab or {}).get("when") or default_when
        self.when = w.ToggleButtons(options=[("now (white box)", "immediate"),
                                             ("at game end (yellow box)", "end")], value=when)
        self.when.add_class("ability-when")
        vp = (ab or {}).get("vp", (ab or {}).get("flat"))
        self.vp = w.Text(value="" if vp is None else str(vp), description="N (VP)",
                         placeholder="from the card")
        self.vp.add_class("ability-vp")
        types = (ab or {}).get("types") or ((ab or {}).get("if") or {}).get("more") \
            or ((ab or {}).get("if") or {}).get("adjacent_to") or [""]
        self.types = w.Dropdown(options=TYPE_CHOICES, value=types[0] if types else "",
                                description="of type")
        self.types2 = w.Dropdown(options=TYPE_CHOICES, value=types[1] if len(types) > 1 else "",
                                 description="or type")
        than = ((ab or {}).get("if") or {}).get("than") or [""]
        self.than = w.Dropdown(options=TYPE_CHOICES[1:], value=than[0] or TYPES[0],
                               description="than type")
        self.include_self = w.Checkbox(value=(ab or {}).get("include_self", True),
                                       description="counts itself")
        self.distance = w.Text(value=str((ab or {}).get("distance", "")), description="distance D")
        self.every = w.Text(value=str((ab or {}).get("every", "") or ""), description="per K credits")
        cap = (ab or {}).get("cap")
        self.cap = w.Text(value="" if cap is None else str(cap), description="MAX +",
                          placeholder="blank: no maximum")
        self.cap.add_class("ability-cap")
        self.params = w.VBox()
        self.template.observe(lambda _: self._show(), "value")
        self.box = w.VBox([self.title, self.template, self.when, self.params])
        self._show()

    def _show(self):
        shows = TEMPLATES[self.template.value][2]
        kids = []
        if shows:
            kids.append(self.vp)
        if "types" in shows:
            kids += [self.types] + ([self.types2] if self.template.value in ("adjacent", "station",
                                                                            "within", "others") else [])
        if "than" in shows:
            kids.append(self.than)
        if "include_self" in shows:
            kids.append(self.include_self)
        if "distance" in shows:
            kids.append(self.distance)
        if "every" in shows:
            kids.append(self.every)
        if shows:
            kids.append(self.cap)
        self.params.children = kids
        self.when.layout.display = "none" if self.template.value == "none" else ""

    def value(self) -> dict | None:
        key = self.template.value
        label, skeleton, shows = TEMPLATES[key]
        if skeleton is None:
            return None
        import copy
        ab = {"when": self.when.value, **copy.deepcopy(skeleton)}
        types = [t for t in (self.types.value, self.types2.value) if t]
        if "per" in ab:
            ab["vp"] = _num(self.vp.value, "N (VP)", minimum=-99)
            if "types" in shows and types:
                ab["types"] = list(dict.fromkeys(types))
            if "include_self" in shows:
                ab["include_self"] = bool(self.include_self.value)
            if "distance" in shows:
                ab["distance"] = _num(self.distance.value, "distance D", minimum=1)
            if "every" in shows:
                ab["every"] = _num(self.every.value, "per K credits", minimum=1)
        elif "flat" in ab:
            ab["flat"] = _num(self.vp.value, "N (VP)", minimum=-99)
            if key == "more":
                if not types:
                    raise ValueError("choose type A")
                ab["if"] = {"more": types[:1], "than": [self.than.value]}
            elif key == "adjacent_to":
                if not types:
                    raise ValueError("choose the type it must be adjacent to")
                ab["if"] = {"adjacent_to": types[:1]}
        if shows:
            cap = _num(self.cap.value, "MAX +", allow_blank=True)
            if cap is not None:
                ab["cap"] = cap
        return ab


class CardForm:
    """Ask for a card's printed values; ``on_save(Card)`` is called with a valid card."""

    def __init__(self, card: Card, on_save, on_cancel, *, missing: list[str] | None = None):
        self.card = card
        self.on_save, self.on_cancel = on_save, on_cancel
        is_location = card.category in ("location", "conflict")
        what = "card" if is_location else card.category
        need = f" Still unknown: {', '.join(missing)}." if missing else ""
        self.intro = w.HTML(
            f"<div class='card-form-intro'><b>Enter the printed values of '{card.name}'</b> "
            f"from the physical {what}. You type them once; they are saved in your own "
            f"catalogue.{need}</div>")
        self.cost = w.Text(value=_s(card.cost), description="Cost", placeholder="credits")
        self.energy = w.Text(value=_s(card.energy), description="Energy", placeholder="cubes")
        self.vp = w.Text(value=_s(card.vp), description="VP", placeholder="printed VP")
        self.max = w.Text(value="" if card.max in (None, "none") else str(card.max),
                          description="MAX", placeholder="blank: no build limit")
        for x, cls in ((self.cost, "form-cost"), (self.energy, "form-energy"), (self.vp, "form-vp"),
                       (self.max, "form-max")):
            x.add_class(cls)
        types = list(card.types or [])
        self.type1 = w.Dropdown(options=[("(none)", "")] + [(t, t) for t in TYPES],
                                value=types[0] if types else "", description="Type")
        self.type2 = w.Dropdown(options=[("(none)", "")] + [(t, t) for t in TYPES],
                                value=types[1] if len(types) > 1 else "", description="2nd type")
        abilities = list(card.abilities or [])
        default_when = "end" if card.category == "race" else "immediate"
        self.ab1 = AbilityEditor("Ability", abilities[0] if abilities else None, default_when)
        self.ab2 = AbilityEditor("Second part of the ability (if the box has two colours)",
                                 abilities[1] if len(abilities) > 1 else None, "end")
        self.save = w.Button(description="Save values", button_style="success", icon="check")
        self.save.add_class("form-save")
        self.cancel = w.Button(description="Cancel")
        self.cancel.add_class("form-cancel")
        self.message = w.HTML()
        self.message.add_class("form-message")
        self.save.on_click(lambda _: self._save())
        self.cancel.on_click(lambda _: self.on_cancel())
        fields = []
        if is_location:
            fields = [w.HBox([self.cost, self.energy]), w.HBox([self.vp, self.max]),
                      w.HBox([self.type1, self.type2])]
        self.box = w.VBox([self.intro, *fields, self.ab1.box, self.ab2.box, self.message,
                           w.HBox([self.save, self.cancel])])
        self.box.add_class("card-form")
        self.box.layout.border = "2px solid #2f6fd6"
        self.box.layout.padding = "8px"

    def build(self) -> Card:
        c = self.card
        d = c.to_dict()
        if c.category in ("location", "conflict"):
            d["cost"] = _num(self.cost.value, "Cost")
            d["energy"] = _num(self.energy.value, "Energy")
            d["vp"] = _num(self.vp.value, "VP")
            mx = _num(self.max.value, "MAX", allow_blank=True, minimum=1)
            d["max"] = "none" if mx is None else mx
            types = [t for t in (self.type1.value, self.type2.value) if t]
            if len(set(types)) != len(types):
                raise ValueError("the two types must differ")
            d["types"] = types
        abilities = [a for a in (self.ab1.value(), self.ab2.value()) if a]
        d["abilities"] = abilities
        d["source"] = "typed by the players"
        return parse_card(d, file="your entry")

    def _save(self):
        try:
            card = self.build()
        except (ValueError, CatalogueError) as e:
            self.message.value = f"<span style='color:#b00020'>{e}</span>"
            return
        self.on_save(card)


def _s(v) -> str:
    return "" if v is None else str(v)
