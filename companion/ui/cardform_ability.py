"""One ability part of the card form (:class:`AbilityEditor`) and its helpers.

The choices it offers (the templates, their labels, the fields each shows, the
words the find box matches) come from the ability-kind table
(:mod:`companion.ats.abilitykinds`): a new kind's templates appear here without
a change to this file.  Its CSS class hooks (``ability-*``) are listed in
:mod:`companion.ui.cardform`; the form's CSS (``STYLE``) is here.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

import ipywidgets as w

from ..ats.abilitykinds import form_templates, ability_kind, school_label, template_of  # noqa: F401
from ..ats.catalogue import (OBJECTIVE_MEASURES, TYPES, X, Card, ability_unknowns,
                             objective_unknowns)
from ..ats.vocabulary import Ability
from ..core.htmlsafe import escape

# template key -> (label, ability skeleton, which parameters it shows): the kinds' table's
TEMPLATES: dict[str, tuple[str, dict | None, tuple[str, ...]]] = {
    k: (label, skeleton, shows) for k, (label, skeleton, shows, _) in form_templates().items()}
#: extra words the find box matches, besides the label and the key
KEYWORDS = {k: words for k, (_, _, _, words) in form_templates().items()}
#: the template keys that offer a second counted type
TWO_TYPES = ("adjacent", "station", "within", "others")
TYPE_CHOICES = [("any type", "")] + [(t, t) for t in TYPES]

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


class AbilityEditor:
    """One ability part: a searchable template list, its timing and its numbers.

    ``on_change()`` is called after any value changes; ``on_submit()`` when
    Enter is pressed in one of its text fields.
    """

    def __init__(self, title: str, ab: Ability | Mapping[str, Any] | None,
                 default_when: str = "immediate", *,
                 on_change=None, on_submit=None, needed: bool = False,
                 end_only: bool = False, template_known: bool = False):
        #: asks the end-of-game (yellow box) ability only (issue 50: what a final
        #: scoring reads): no timing to choose, no find box, "No ability" says "no
        #: yellow box"
        self.end_only = bool(end_only)
        #: the ability's kind and timing are known, only its numbers are asked: no find
        #: box, no timing (issue 50: a form asks what is missing)
        self.template_known = bool(template_known) and ab is not None
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
        own = ability_kind(ab).own_template    # e.g. the School's label says its pay/lose
        if own is not None:
            key = template_of(ab)
            self.labels[key], self.skeletons[key] = own(ab)
        if self.end_only:
            self.labels["none"] = "No end-of-game ability (no yellow box)"
        self.all_options = [(self.labels[k], k) for k in TEMPLATES]
        self.filter = _field(w.Text(value="", description="Ability: find",
                                    placeholder="type a word, e.g. adjacent",
                                    continuous_update=True), "ability-filter",
                             max_width="420px", flex="0 0 auto")
        self.template = w.Select(options=self.all_options, value=template_of(ab or None),
                                 rows=6, layout=w.Layout(width="100%", max_width="560px"))
        self.template.add_class("ability-template")
        self.no_match = w.HTML()
        when = "end" if self.end_only else (ab.when or default_when)
        self.when = w.ToggleButtons(options=[("now (white box)", "immediate"),
                                             ("at game end (yellow box)", "end")], value=when,
                                    style={"button_width": "auto"},
                                    layout=w.Layout(width="100%", max_width="100%"))
        self.when.add_class("ability-when")
        vp = ability_kind(ab).form_n(ab)
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
        if self.end_only or self.template_known:
            self.filter.layout.display = "none"
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
        self.when.layout.display = "none" if key in (None, "none") or self.end_only \
            or self.template_known else ""
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


_WORDS = {"vp": "VP", "max": "MAX", "abilities": "ability", "types": "type(s)",
          "end": "end-of-game"}


def describe_missing(missing) -> str:
    """``['cost', 'vp', 'ability 1 vp per unit']`` -> ``'cost, VP, ability 1 VP per unit'``."""
    out = []
    for m in missing:
        words = str(m).split(" ")
        out.append(" ".join(_WORDS.get(x, x) for x in words))
    return ", ".join(out)


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
        n = ability_kind(ab).form_n(ab)
        if n is not None:
            label = label.replace("+N", f"{n:+d}")
        when = "at game end" if ab.when == "end" else "now"
        parts.append(f"{label} ({when})")
    return f"{card.name}: " + ", ".join(parts) + "."


def _needed_fields(card: Card, missing: list[str] | None) -> list[str]:
    """The values a card form highlights: ``missing``, else what the card does not know."""
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


def hide_unasked(form, fields: list, ability: list) -> None:
    """Hide every field a :class:`~companion.ui.cardform.CardForm` does not ask (its
    ``asks``): a build's form shows cost, energy, VP and the ability; a final scoring's
    the end-of-game ability or the types only."""
    for name, x in (("cost", form.cost), ("energy", form.energy), ("vp", form.vp),
                    ("max", form.max), ("types", form.type1), ("types", form.type2)):
        if not form.asks(name):
            x.layout.display = "none"
    form.copies.layout.display = "none"
    for row in fields:
        kids = getattr(row, "children", ())
        if kids and all(getattr(k.layout, "display", "") == "none" for k in kids):
            row.layout.display = "none"
    if not form.asks("abilities"):
        for part in ability:
            part.layout.display = "none"
        form.add_second.layout.display = "none"
