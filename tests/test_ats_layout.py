"""The Among the Stars package's shape (issue 13): small modules along the rulebook's
chapters, imports in one direction (no cycle, none hidden in a function), no reach
into another module's private names, and every name other code imports from
``companion.ats.game`` still there."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion.ats.game as game_module
from companion.ats import turns
from companion.ats.setup import ACTIONS, SIDE_ENTRIES
from companion.ats.station import Station

ATS = Path(game_module.__file__).resolve().parent
MODULES = {p.stem: p for p in sorted(ATS.glob("*.py")) if p.stem != "__init__"}
MAX_LINES = 600


def _tree(name: str) -> ast.Module:
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


def _sibling(node: ast.ImportFrom) -> list[str]:
    """The companion.ats modules an ``import from`` names."""
    if node.level == 1 and node.module:
        return [node.module.split(".")[0]]
    if node.level == 1:                     # from . import abilities as abl
        return [a.name for a in node.names]
    if node.level == 0 and (node.module or "").startswith("companion.ats."):
        return [node.module.split(".")[2]]
    return []


@pytest.mark.parametrize("name", MODULES)
def test_no_module_is_over_700_lines(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"companion/ats/{name}.py has {lines} lines"


def test_the_modules_import_each_other_in_one_direction_only():
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        deps = set()
        for node in _tree(name).body:
            if isinstance(node, ast.ImportFrom):
                deps |= {d for d in _sibling(node) if d in MODULES}
        graph[name] = deps
    seen: dict[str, int] = {}            # 1: on the path, 2: done

    def visit(n: str, path: list[str]) -> None:
        seen[n] = 1
        for d in graph[n]:
            assert seen.get(d) != 1, "import cycle: " + " -> ".join(path + [d])
            if d not in seen:
                visit(d, path + [d])
        seen[n] = 2

    for n in graph:
        if n not in seen:
            visit(n, [n])
    assert "game" in graph["whatif"] and "game" not in graph["scoring"]


@pytest.mark.parametrize("name", MODULES)
def test_no_import_of_a_sibling_is_hidden_in_a_function(name):
    hidden = []
    for fn in ast.walk(_tree(name)):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and any(d in MODULES
                                                           for d in _sibling(node)):
                    hidden.append(f"line {node.lineno}")
    assert not hidden, f"{name}.py imports a sibling inside a function: {hidden}"


@pytest.mark.parametrize("name", MODULES)
def test_no_private_name_of_another_module_is_used(name):
    tree = _tree(name)
    modules = set()                      # names bound to sibling modules here
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                assert not (a.name.startswith("_") and _sibling(node)), \
                    f"{name}.py imports the private name {a.name}"
            if node.level == 1 and not node.module:
                modules |= {a.asname or a.name for a in node.names}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in modules):
            assert not node.attr.startswith("_"), \
                f"{name}.py uses {node.value.id}.{node.attr} (line {node.lineno})"


def test_the_names_other_code_imports_from_game_are_still_there():
    for n in ("Game", "Setup", "State", "PlayerState", "Pending", "VPLine", "round_end_report",
              "ADVISOR_ACTIONS", "ACTIONS", "DISCARD_GAIN", "RULES", "rule_text", "YEARS",
              "START_CREDITS", "FORMAT", "describe_action"):
        assert hasattr(game_module, n), n
    for n in game_module.__all__:
        assert hasattr(game_module, n), n


def test_every_kind_of_entry_has_its_handler():
    assert tuple(turns.TURN_ACTIONS) == ACTIONS
    assert set(turns.SIDE_HANDLERS) == set(SIDE_ENTRIES)


def test_a_stations_spaceships_keep_their_old_name_as_an_alias():
    st = Station()
    st.spaceships.add((0, 1))
    assert st.blocked is st.spaceships and st.blocked == {(0, 1)}
    assert st.copy().blocked == {(0, 1)}
