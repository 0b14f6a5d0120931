"""Issue 38: no private UI name is used outside its module.

A name that begins with one underscore and is made in a module of ``companion/ui`` (a
function, a method, a class, an attribute set there) is that module's own.  Tests,
benches, notebooks and the other screens' parts use a screen's public names and its
driver (``companion.ui.drivers``) instead.  Names ipywidgets itself gives its widgets
(``_dom_classes``) are ipywidgets', not ours.  A private name also made outside the UI (an
engine's ``_push``) is checked only inside ``companion/ui``, where it can be ours.
"""
from __future__ import annotations

import ast
import collections
import json
from pathlib import Path

import ipywidgets as w

ROOT = Path(__file__).resolve().parents[1]
UI = ROOT / "companion" / "ui"
WIDGET_NAMES = set().union(*(dir(c) for c in (w.DOMWidget, w.Box, w.Button, w.Combobox,
                                              w.Dropdown, w.Text, w.HTML)))


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def made_in(tree: ast.AST) -> set[str]:
    """The private names a module makes (defines or assigns)."""
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
            out.add(n.attr)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
    return {x for x in out if private(x)}


def ui_names() -> dict[str, set[str]]:
    made: dict[str, set[str]] = collections.defaultdict(set)
    for p in UI.glob("*.py"):
        for name in made_in(ast.parse(p.read_text())):
            made[name].add(p.name)
    return {k: v for k, v in made.items() if k not in WIDGET_NAMES}


def elsewhere() -> set[str]:
    out: set[str] = set()
    for p in (ROOT / "companion").rglob("*.py"):
        if UI not in p.parents:
            out |= made_in(ast.parse(p.read_text()))
    return out


def reaches(source: str, path: Path, names: dict[str, set[str]], ambiguous: set[str]) -> list[str]:
    """``file:line name`` for each private UI name ``source`` uses that it does not make."""
    in_ui = UI in path.parents
    tree = ast.parse(source)
    out = []
    for n in ast.walk(tree):
        name = None
        if isinstance(n, ast.Attribute):
            name = n.attr
        elif isinstance(n, ast.ImportFrom) and n.module and ".ui" in f".{n.module}":
            name = next((a.name for a in n.names if a.name in names), None)
        if (name in names and path.name not in names[name]
                and (in_ui or name not in ambiguous)):
            out.append(f"{path.relative_to(ROOT)}:{getattr(n, 'lineno', 0)} {name}")
    return out


def python_sources():
    for folder in ("companion", "tests", "bench"):
        for p in sorted((ROOT / folder).rglob("*.py")):
            yield p, p.read_text()
    for p in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(p.read_text()).get("cells", [])
        code = "\n".join("".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code")
        yield p, "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))


def test_no_private_ui_name_is_used_outside_its_module():
    names, ambiguous = ui_names(), elsewhere()
    assert len(names) > 50, "the UI makes private names: the check reads them"
    found = [r for p, src in python_sources() for r in reaches(src, p, names, ambiguous)]
    assert found == [], "private UI names used outside their module:\n" + "\n".join(found)


def test_the_check_finds_a_reach_in_a_test_and_in_another_part():
    names = {"_clicked": {"ats_entry.py"}, "_push": {"ats_screen.py"}}
    test = ROOT / "tests" / "test_example.py"
    assert reaches("app.entry_part._clicked((0, 1))", test, names, set()) == [
        "tests/test_example.py:1 _clicked"]
    # an engine's _push of the same name: not counted in a test, counted in the UI
    assert reaches("game._push(a)", test, names, {"_push"}) == []
    assert reaches("self.screen._push(a)", UI / "ats_entry.py", names, {"_push"}) == [
        "companion/ui/ats_entry.py:1 _push"]
    assert reaches("from companion.ui.ats_entry import _clicked", test, names, set()) == [
        "tests/test_example.py:1 _clicked"]
    # its own module may use it
    assert reaches("self._clicked(c)", UI / "ats_entry.py", names, set()) == []
