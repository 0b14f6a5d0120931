"""Issue 23: one ability-kind table (companion/ats/abilitykinds.py).

Every kind of ability has one entry carrying its check, its unknown values, its
evaluation, the question put to the players and how their answer is applied,
and the card form's choices; no module outside the table tests ``ab.kind``
against a kind's name (read with ast)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.ats import abilities as abl
from companion.ats.abilitykinds import (ABILITY_KINDS, KINDS, NO_KIND, AbilityKind, form_templates,
                                        ability_kind, template_of, validate_ability)
from companion.ats.catalogue import Catalogue
from companion.ats.vocabulary import Ability
from companion.core.errors import CatalogueError, IllegalAction
from companion.ui.cardform import TEMPLATES

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "companion" / "ats" / "abilitykinds.py"
#: a comparison of ``.kind`` on these names is about something else: a pending
#: effect (``p``: its kinds "choice", "spaceships", "own", ... share two names)
NOT_ABILITIES = {"p", "pending"}
#: files still testing ``ab.kind`` (none: ``Game.needs`` asks each kind's ``ask``)
LEFT_FOR_MERGE: set[Path] = set()

#: one ability of each kind as a catalogue writes it
SAMPLES = {
    "per": {"when": "end", "per": "reactor", "vp": 1, "cap": 3},
    "flat": {"when": "end", "flat": 2, "if": {"adjacent_to": ["military"]}},
    "choice": {"when": "immediate", "choice": "pay_or_lose", "pay": 1, "lose": 2},
    "manual": {"when": "end", "manual": True},
    "spaceships": {"when": "immediate", "spaceships": 1, "target": "other"},
    "remove_spaceships": {"when": "immediate", "remove_spaceships": 1},
}


def test_every_kind_has_all_its_entries():
    assert set(SAMPLES) == set(KINDS) and ABILITY_KINDS == tuple(KINDS)
    ranks = [k.form_rank for k in KINDS.values()]
    assert len(set(ranks)) == len(ranks)
    for name, kind in KINDS.items():
        assert isinstance(kind, AbilityKind) and kind.name == name
        assert kind.resolve.strip() and kind.help.strip(), name
        ab = Ability.from_dict(validate_ability(SAMPLES[name], file=None, card="X", i=0))
        assert ability_kind(ab) is kind
        assert kind.unknowns(ab) == []
        assert kind.describe(ab).strip()
        # the engine computes it, or the players answer, or it acts on spaceships
        assert (kind.evaluate is None) == (kind.value is None), name
        if kind.evaluate is None:
            assert kind.answer is not None and kind.question, name
        else:
            assert kind.answer is None and not kind.typed and not kind.pending, name
        if kind.typed or kind.pending or kind.default is not None or kind.check is not None \
                or kind.ask is not None:
            assert kind.answer is not None and kind.question, name
        # the card form offers its templates (a kind without one is typed as 'manual')
        key = template_of(ab)
        assert key in TEMPLATES and key in form_templates()
        if kind.templates:
            assert key in kind.templates, name


def test_the_doc_names_every_kind():
    doc = (ROOT / "docs" / "abilities.md").read_text(encoding="utf-8")
    for name in KINDS:
        assert f"`{name}`" in doc, name


def test_the_kinds_own_check_runs():
    with pytest.raises(CatalogueError, match="unknown counter 'nothing'"):
        validate_ability({"when": "end", "per": "nothing", "vp": 1}, file=None, card="X", i=0)
    with pytest.raises(CatalogueError, match="unknown key 'pay'"):
        validate_ability({"when": "end", "flat": 1, "pay": 1}, file=None, card="X", i=0)
    with pytest.raises(CatalogueError, match="exactly one of: " + ", ".join(ABILITY_KINDS)):
        validate_ability({"when": "end"}, file=None, card="X", i=0)


def test_the_answer_entries_do_what_the_build_did():
    choice, manual = (Ability.from_dict(SAMPLES[k]) for k in ("choice", "manual"))
    a = {"player": "Ann", "do": "build", "card": "School", "choices": {"Bo": "maybe"}}
    with pytest.raises(IllegalAction, match="must choose 'pay' .1 credit. or 'lose' .2 VP."):
        KINDS["choice"].check(choice, a, "School", ["Bo"])              # type: ignore[misc]
    KINDS["choice"].check(choice, {**a, "choices": {"Bo": "lose"}}, "School", ["Bo"])  # type: ignore[misc]
    with pytest.raises(IllegalAction, match="manual_vp"):
        KINDS["manual"].check(manual, {**a, "manual_vp": True}, "X", ["Bo"])  # type: ignore[misc]
    assert KINDS["choice"].default(choice, ["Bo", "Cy"]) == {"Bo": "pay", "Cy": "pay"}  # type: ignore[misc]
    assert KINDS["manual"].default(manual, ["Bo"]) == 0                 # type: ignore[misc]


def test_no_kind_is_evaluated_nor_typed_by_accident():
    ab = Ability.from_dict({"when": "end"})
    assert ability_kind(ab) is NO_KIND
    with pytest.raises(ValueError, match="resolved by the game"):
        abl.value(ab, None)                                            # type: ignore[arg-type]


def test_the_shipped_catalogue_uses_only_the_tables_kinds():
    seen = {ab.kind for card in Catalogue.shipped()._cards.values() for ab in card.abilities or ()}
    assert seen and seen <= set(KINDS)


# -- no dispatch on ability kinds outside the table ---------------------------------------
def kind_tests(source: str) -> list[int]:
    """Lines comparing ``<name>.kind`` (or ``kind``) with an ability kind's name."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        left = node.left
        if isinstance(left, ast.Attribute) and left.attr == "kind":
            if isinstance(left.value, ast.Name) and left.value.id in NOT_ABILITIES:
                continue
        elif not (isinstance(left, ast.Name) and left.id == "kind"):
            continue
        names: list[object] = []
        for c in node.comparators:
            if isinstance(c, ast.Constant):
                names.append(c.value)
            elif isinstance(c, (ast.Tuple, ast.List, ast.Set)):
                names += [e.value for e in c.elts if isinstance(e, ast.Constant)]
        if any(n in KINDS for n in names):
            out.append(node.lineno)
    return out


def test_the_scan_finds_a_dispatch():
    src = ("if ab.kind == 'manual': pass\n"
           "x = any(a.kind in ('per', 'flat') for a in y)\n"
           "if p.kind == 'choice': pass\n"           # a pending effect's kind
           "if m.kind == 'explore': pass\n")
    assert kind_tests(src) == [1, 2]


def test_no_ability_kind_dispatch_outside_the_table():
    files = sorted((ROOT / "companion" / "ats").glob("*.py")) \
        + sorted((ROOT / "companion" / "ui").glob("*.py"))
    assert TABLE in files and len(files) > 20
    found = {}
    for path in files:
        if path == TABLE or path in LEFT_FOR_MERGE:
            continue
        lines = kind_tests(path.read_text(encoding="utf-8"))
        if lines:
            found[str(path.relative_to(ROOT))] = lines
    assert found == {}
    for path in LEFT_FOR_MERGE:     # once it asks the table, take it off the list
        assert kind_tests(path.read_text(encoding="utf-8")), path


def test_game_needs_asks_each_kind_through_the_table():
    """Game.needs puts under each immediate ability's ``answer`` what its kind's ``ask``
    gives (the kinds that ask nothing, or abilities already answered, add nothing).
    Fixture card (invented values, named "Fixture: ...")."""
    from companion import Game
    card = {"name": "Fixture: asks twice", "types": ["business"], "cost": 0, "energy": 0,
            "vp": 0, "max": "none",
            "abilities": [{"when": "immediate", "choice": "pay_or_lose", "pay": 2, "lose": 1},
                          {"when": "immediate", "manual": True},
                          {"when": "immediate", "spaceships": 1, "target": "other"},
                          {"when": "end", "per": "reactor", "vp": 1}]}
    g = Game({"players": ["Ana", "Ben", "Cleo"], "options": {"spaceships": True}},
             cards=[card], book_setup=False)
    action = {"player": "Ana", "do": "build", "card": card["name"], "at": [0, 1]}
    need = g.needs(action)
    assert list(need) == ["choices", "manual_vp", "spaceships"]     # the abilities' order
    assert need["choices"] == {"card": card["name"], "players": ["Ben", "Cleo"],
                               "options": [("pay", "pay 2 credits"), ("lose", "lose 1 VP")]}
    assert need["manual_vp"] == {"card": card["name"],
                                 "prompt": f"VP '{card['name']}' gives now (from its ability)"}
    ships = need["spaceships"]
    assert ships["card"] == card["name"] and ships["count"] == 1
    # target "other": the spots are in the other players' stations only
    assert ships["spots"] and {p for p, _ in ships["spots"]} == {"Ben", "Cleo"}
    # an ability already answered is not asked again
    assert set(g.needs({**action, "manual_vp": 0, "spaceships": []})) == {"choices"}
