"""Counting what a page asks (issue 50, "Ask only what the moment needs"): the forms a
page shows and the inputs in each, read in-process from its widgets as a person would
see them (a hidden widget, or one under a hidden box, is not counted), and the answers a
person gives them from the physical cards.  Used by tests/test_first_evening_forms.py and
by bench/bench_first_evening.py.

A *form* is a box the page shows to ask for values: a card's printed values
(``card-form``: :class:`companion.ui.cardform.CardForm`, the final screen's "which cards
have a yellow box" question included), or the final scoring's VP typed at the table
(``manual-form``).  An *input* is a widget a person types in or chooses with (text,
number, list, drop-down, toggle, check box).

API::

    tally = Tally()
    tally.look(app.root)        # after each step: every new form is counted once
    answer(form, values, tally) # fill it (the inputs it shows then counted too), save
    tally.forms                 # forms seen: [(title, inputs), ...]
    tally.most_inputs           # the most inputs of one form
    forms_shown(app.root)       # the forms shown now (widgets)
    inputs_of(form)             # the inputs shown in one form (widgets)
    answer(form, card_values)   # fill a form as the player reads the card, and save it
"""
from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as w

#: the CSS classes of a form
FORM_CLASSES = ("card-form", "manual-form")
#: the widget types a person types in or chooses with
INPUT_TYPES = (w.Text, w.Textarea, w.IntText, w.BoundedIntText, w.FloatText, w.Dropdown,
               w.Select, w.SelectMultiple, w.ToggleButtons, w.Checkbox, w.Combobox,
               w.RadioButtons)


def _visible(x) -> bool:
    layout = getattr(x, "layout", None)
    return getattr(layout, "display", None) != "none"


def forms_shown(root) -> list:
    """The forms shown under ``root`` now (not those inside a hidden box)."""
    out: list = []

    def walk(x):
        if not _visible(x):
            return
        if any(c in getattr(x, "_dom_classes", ()) for c in FORM_CLASSES):
            out.append(x)
            return
        for k in getattr(x, "children", ()):
            walk(k)
    walk(root)
    return out


def inputs_of(form) -> list:
    """The inputs shown in ``form`` (a widget under a hidden box is not shown)."""
    out: list = []

    def walk(x):
        if not _visible(x):
            return
        if isinstance(x, INPUT_TYPES):
            out.append(x)
        for k in getattr(x, "children", ()):
            walk(k)
    walk(form)
    return out


def title_of(form) -> str:
    """The form's first sentence as a person reads it (its first HTML, tags dropped)."""
    def walk(x):
        if isinstance(x, w.HTML) and re.sub(r"<[^>]+>", "", x.value).strip() \
                and "<style" not in x.value:
            return html.unescape(re.sub(r"<[^>]+>", "", x.value)).strip()
        for k in getattr(x, "children", ()):
            got = walk(k)
            if got:
                return got
        return None
    return walk(form) or ""


class Tally:
    """The forms a page showed, each counted once: a form is known by its first sentence
    (a page redrawn shows the same question again, and it is the same form), with the
    inputs it showed when first seen."""

    def __init__(self) -> None:
        self.forms: list[tuple[str, int]] = []
        self._seen: set[str] = set()

    def look(self, root) -> list:
        """Count the forms shown under ``root`` not seen before; returns them."""
        new = []
        for f in forms_shown(root):
            key, n = title_of(f), len(inputs_of(f))
            if key in self._seen:       # seen again (filled in): the most it showed
                i = next(i for i, (t, _) in enumerate(self.forms) if t == key[:120])
                self.forms[i] = (self.forms[i][0], max(n, self.forms[i][1]))
                continue
            self._seen.add(key)
            self.forms.append((key[:120], n))
            new.append(f)
        return new

    @property
    def most_inputs(self) -> int:
        return max((n for _, n in self.forms), default=0)

    def report(self) -> str:
        return "\n".join(f"{n} input(s): {t}" for t, n in self.forms)


def _one(root, cls: str):
    got = []

    def walk(x):
        if not _visible(x):
            return
        if cls in getattr(x, "_dom_classes", ()):
            got.append(x)
        for k in getattr(x, "children", ()):
            walk(k)
    walk(root)
    return got[0] if got else None


def answer(form, card: dict[str, Any], tally: Tally | None = None) -> None:
    """Fill ``form`` as the player reads the physical card and save it.

    ``card``: what the card says, as far as the form may ask: ``cost``, ``energy``,
    ``vp``, ``max``, ``types`` (list), ``yellow`` (the names with a yellow box, for the
    final screen's question), ``ability``: ``{"template": key, "vp", "table", "types"}``
    (``None``: no end-of-game ability), ``claims``: ``{objective: (player or None, vp)}``
    for the VP typed at the table.  Only the inputs the form shows are touched.  With
    ``tally``, the inputs the form shows once filled (a template's numbers appear when
    it is chosen) are counted before it is saved."""
    def save(cls: str) -> None:
        if tally is not None:
            tally.look(form)
        _one(form, cls).click()

    classes = getattr(form, "_dom_classes", ())
    if "final-yellow" in classes:
        pick = _one(form, "final-yellow-pick")
        pick.value = tuple(n for n in pick.options if n in card.get("yellow", ()))
        save("final-yellow-save")
        return
    if "manual-form" in classes:
        claims = card.get("claims", {})
        for row in form.children:
            text = title_of(row)
            who, vp = _one(row, "manual-who"), _one(row, "manual-entry-vp")
            for name, (player, points) in claims.items():
                if name in text:
                    if who is not None:
                        who.value = player
                    if vp is not None:
                        vp.value = str(points)
        save("manual-save")
        return
    for key in ("cost", "energy", "vp", "max"):
        box = _one(form, f"form-{key}")
        if box is not None and key in card:
            box.value = "" if card[key] is None else str(card[key])
    types = list(card.get("types") or [])
    for i, cls in enumerate(("form-type1", "form-type2")):
        box = _one(form, cls)
        if box is not None:
            box.value = types[i] if i < len(types) else ""
    template = _one(form, "ability-template")
    if template is not None and "ability" in card:
        ab = card["ability"] or {"template": "none"}
        template.value = ab["template"]
        for key, cls in (("vp", "ability-vp"), ("table", "ability-table")):
            box = _one(form, cls)
            if box is not None and key in ab:
                box.value = str(ab[key])
        kinds = list(ab.get("types") or [])
        for i, cls in enumerate(("ability-type1", "ability-type2")):
            box = _one(form, cls)
            if box is not None and i < len(kinds):
                box.value = kinds[i]
    save("form-save")
