"""The Small Star Empires engine's layout (issue 13): one module per chapter of the book,
none over 700 lines, no import cycle inside companion/sse (function-level imports
included), the action kinds in a table of handlers, and every name companion.sse.game
held before the split still importable from there."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion.sse.game as game_module
from companion.core.errors import IllegalAction
from companion.sse.turns import HANDLERS, apply_damage, apply_lay, apply_move

from ssekit import game

SSE = Path(game_module.__file__).resolve().parent
MODULES = sorted(SSE.glob("*.py"))
MAX_LINES = 700

#: every module-level name of companion/sse/game.py before the split (imported by
#: companion.ui, companion.core, tests, the package's own modules)
FORMER_NAMES = ["PIECES", "PIECE_NAMES", "BOX", "CAMPAIGN_PIECES", "CAMPAIGN_TARGET",
                "NEBULA_TABLE", "EPIC_NEBULAE", "DAMAGED_REACH", "EFFECT_VP", "VARIANTS",
                "OPTIONS", "BOOK_SHIPS", "MODES", "ACTION_KEYS", "DEFAULT_COLOURS", "RULES",
                "FORMAT", "IllegalMove", "rule_text", "SseSetup", "legacy_setup", "Ship",
                "Colony", "VPLine", "PlayerState", "State", "Move", "SseGame",
                "EFFECT_NAMES", "Hex", "HexMap", "System", "IllegalAction"]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_module_over_700_lines(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{path.name} has {n} lines"


@pytest.mark.parametrize("name", FORMER_NAMES)
def test_former_names_still_import_from_game(name):
    assert hasattr(game_module, name), name


def _package_imports(path: Path) -> set[str]:
    """The companion/sse modules ``path`` imports (module level or inside functions)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                out.add(node.module.split(".")[0])
            elif node.level == 1:                      # from . import hexmap
                out |= {a.name for a in node.names}
            elif node.level == 0 and (node.module or "").startswith("companion.sse."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[2] for a in node.names
                    if a.name.startswith("companion.sse.")}
    return out


def test_no_import_cycle_inside_the_package():
    graph = {p.stem: _package_imports(p) for p in MODULES}
    state: dict[str, int] = {}          # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        if state.get(m) == 2 or m not in graph:
            return
        assert state.get(m) != 1, "import cycle: " + " -> ".join(path + [m])
        state[m] = 1
        for n in sorted(graph[m]):
            visit(n, path + [m])
        state[m] = 2
    for m in sorted(graph):
        visit(m, [])


def test_action_kinds_are_a_table_of_handlers():
    assert HANDLERS == {"move": apply_move, "damage": apply_damage, "lay": apply_lay}


def test_unknown_action_kind_names_the_table():
    g = game("H1 P1 E H2")
    with pytest.raises(IllegalAction) as e:
        g.check({"do": "fly", "player": "Ann", "ship": 0, "to": [1, 0]})
    assert e.value.rule == "malformed"
    assert "'do' is 'move' or 'damage' or 'lay', not 'fly'" in str(e.value)
    # an unhashable kind is refused the same way, not with a TypeError
    assert "'do' is 'move' or 'damage' or 'lay', not ['move']" in g.why_illegal(
        {"do": ["move"], "player": "Ann", "ship": 0, "to": [1, 0]})


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_private_reach_ins(path):
    """No module imports another module's private name, nor reads ``x._name`` of anything
    but itself (``self`` / ``cls``)."""
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            bad += [f"from {node.module} import {a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                bad.append(f"line {node.lineno}: .{node.attr}")
    assert not bad, f"{path.name}: {bad}"
