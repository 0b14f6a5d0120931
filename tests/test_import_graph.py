"""The project's modules (issue 38): none over 600 lines, and the import graph: "No
cycles, no in-function imports to hide one".  Every ``import`` of every module under
companion/ is read from its source with ``ast`` (top-level imports, imports inside
functions, and imports under ``if TYPE_CHECKING:``); those a module runs (at the top or
in a function) must form no cycle.  An import moved into a function still counts: it
only delays the cycle to the first call, and a reader of either module cannot see it.

The reader is checked on a small package made here, with a cycle of each kind, so that
the checks on the project can fail."""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
#: where an import stands
TOP, FUNCTION, TYPING = "top", "function", "typing"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_edges(root: Path, package: str) -> dict[tuple[str, str], set[str]]:
    """Every import of one module of ``package`` (under ``root``) by another, with where
    it stands (:data:`TOP`, :data:`FUNCTION`, :data:`TYPING`).  ``from . import x`` names
    the module ``x``; an import of a package's own module by the package's ``__init__``
    (or the reverse) is left out: a package and its modules are one unit."""
    paths = {module_name(p, root): p for p in (root / package).rglob("*.py")}
    edges: dict[tuple[str, str], set[str]] = {}

    def visit(node: ast.AST, where: str, me: str, pkg: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            here = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                here = FUNCTION if where == TOP else where
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                here = TYPING
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                if isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                else:
                    base = pkg[:len(pkg) - child.level + 1] if child.level else []
                    mod = ".".join(base + ([child.module] if child.module else []))
                    targets = [mod] + [f"{mod}.{a.name}" for a in child.names]
                for t in targets:
                    if t in paths and t != me and not (t == me.rsplit(".", 1)[0]
                                                       or me == t.rsplit(".", 1)[0]):
                        edges.setdefault((me, t), set()).add(here)
            visit(child, here, me, pkg)

    for me, path in paths.items():
        pkg = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
        visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), TOP, me, pkg)
    return edges


def cycles(edges: dict[tuple[str, str], set[str]], kinds: set[str]) -> list[list[str]]:
    """The import cycles (strongly connected groups of modules) counting the imports that
    stand where ``kinds`` says."""
    g = nx.DiGraph([e for e, where in edges.items() if where & kinds])
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def hiding(edges: dict[tuple[str, str], set[str]]) -> list[tuple[str, str]]:
    """In-function imports that close a cycle the top-level imports do not show."""
    top = nx.DiGraph([e for e, where in edges.items() if TOP in where])
    out = []
    for (a, b), where in sorted(edges.items()):
        if FUNCTION in where and TOP not in where and a in top and b in top \
                and nx.has_path(top, b, a):
            out.append((a, b))
    return out


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_the_reader_finds_a_cycle_of_each_kind(tmp_path):
    _write(tmp_path, {
        "pkg/__init__.py": "from . import a\n",
        "pkg/a.py": "from .b import thing\n",
        "pkg/b.py": "import os\n\ndef f():\n    from .a import other\n    return other\n",
        "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import D\n",
        "pkg/d.py": "from . import c\n",
        "pkg/sub/__init__.py": "from .e import E\n",
        "pkg/sub/e.py": "from .. import c\nfrom ..sub import f\n",
        "pkg/sub/f.py": "import pkg.sub.e\n",
    })
    edges = import_edges(tmp_path, "pkg")
    assert edges[("pkg.b", "pkg.a")] == {FUNCTION}
    assert edges[("pkg.c", "pkg.d")] == {TYPING}
    assert ("pkg", "pkg.a") not in edges                # a package and its own module
    assert cycles(edges, {TOP}) == [["pkg.sub.e", "pkg.sub.f"]]
    assert cycles(edges, {TOP, FUNCTION}) == [["pkg.a", "pkg.b"], ["pkg.sub.e", "pkg.sub.f"]]
    assert ["pkg.c", "pkg.d"] in cycles(edges, {TOP, FUNCTION, TYPING})
    assert hiding(edges) == [("pkg.b", "pkg.a")]


@pytest.fixture(scope="module")
def project() -> dict[tuple[str, str], set[str]]:
    return import_edges(ROOT, "companion")


def test_the_project_has_no_import_cycle(project):
    """No cycle among the imports a module runs (at the top or in a function)."""
    assert len({a for a, _ in project}) > 100           # the whole project was read
    found = cycles(project, {TOP, FUNCTION})
    assert not found, f"import cycles: {found}"


def test_no_import_in_a_function_hides_a_cycle(project):
    found = hiding(project)
    assert not found, ("imports inside a function that close a cycle of the module-level "
                       f"imports (move what both need below both): {found}")


#: the longest a module of the project may be (issue 38: "No file over 600 lines in the
#: project"); the screens keep their own, shorter limit (500: tests/test_layout.py)
MAX_LINES = 600


def test_no_module_of_the_project_is_over_600_lines():
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in (ROOT / "companion").rglob("*.py")}
    assert len(sizes) > 100
    over = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not over, f"modules over {MAX_LINES} lines (split them along a seam): {over}"
