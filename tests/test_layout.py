"""The package layout (issues 13 and 23, docs/architecture.md): the engine packages
(companion/core, companion/table, companion/ats, companion/sse) import no widgets; the
two layers point one way (the base imports no game and no table; a game imports only
the base and itself; the table layer reaches the games only through the registry's
one tuple of package names); no game's format is written outside its own package; and
the game registry is the one place where record formats are told apart."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.table import registry
from companion.core.errors import RecordError
from companion.sse.game import SseGame

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ("core", "table", "ats", "sse")
FORBIDDEN = ("ipywidgets", "IPython", "companion.ui")


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, as absolute dotted names (relative imports
    resolved against the module's package), function-level imports included."""
    rel = path.relative_to(ROOT).with_suffix("")
    package = list(rel.parts[:-1])          # __init__ and ordinary modules alike
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names}   # from pkg import submodule
    return out


def _engine_modules() -> list[Path]:
    return sorted(p for d in ENGINE for p in (ROOT / "companion" / d).rglob("*.py"))


def test_engine_modules_exist():
    names = {p.relative_to(ROOT).as_posix() for p in _engine_modules()}
    assert {"companion/table/registry.py", "companion/ats/game.py", "companion/sse/game.py"} <= names


@pytest.mark.parametrize("path", _engine_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_engine_imports_no_widgets(path):
    bad = sorted(m for m in _imports(path)
                 if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_registry_knows_both_games():
    assert registry.GAMES == {"among-the-stars/1": Game, "small-star-empires/1": SseGame}
    assert registry.game_class("small-star-empires/1") is SseGame
    assert registry.game_class("among-the-stars/1") is Game
    # an unknown or missing format goes to the default game, whose reader refuses it
    assert registry.game_class(None) is Game
    assert registry.game_class("chess/1") is Game
    with pytest.raises(RecordError, match="unknown format"):
        registry.load_game({"format": "chess/1", "setup": {}})


@pytest.mark.parametrize("cls", [Game, SseGame])
def test_both_games_follow_the_protocol(cls):
    for name in ("from_record", "to_record", "push", "pop", "check", "is_legal",
                 "why_illegal", "score"):
        assert callable(getattr(cls, name)), name
    assert registry.GAMES[cls.format] is cls


@pytest.mark.parametrize("sample", ["data/samples/george-base-final-scoring.json",
                                    "data/small-star-empires/samples/two-player-random.json"])
def test_load_game_replays_either_game(sample):
    record = json.loads((ROOT / sample).read_text(encoding="utf-8"))
    game = registry.load_game(record)
    assert isinstance(game, registry.GameProtocol)
    assert type(game) is registry.game_class(record["format"])
    assert registry.format_of(game) == record["format"]
    assert game.to_record()["format"] == record["format"]
    registry.validate_record(record)


def test_no_two_test_files_share_a_name():
    """pytest imports test modules by their base name (rootdir-relative packages are not
    used here): two files named alike under tests/ and tests/browser/ stop the whole run
    at collection ("import file mismatch"), as it did twice in CI."""
    from collections import Counter
    tests = Path(__file__).resolve().parent
    names = Counter(p.name for p in tests.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []


# ---------------------------------------------------------------------------
# issue 23: two layers, named, and the games plugged in by their descriptors
# ---------------------------------------------------------------------------
BASE, TABLE = "companion.core", "companion.table"
GAME_PACKAGES = ("companion.ats", "companion.sse")
#: the registry's tuple of the built-in game packages: the table layer's one naming of them
BUILTIN = ROOT / "companion" / "table" / "registry.py"


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / Path(*package.split("."))).rglob("*.py"))


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _companion_imports(path: Path) -> set[str]:
    return {m for m in _imports(path) if _under(m, "companion")}


def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def test_the_game_packages_are_the_registered_ones():
    assert registry.BUILTIN_GAMES == GAME_PACKAGES
    assert [k.format for k in registry.kinds()][:2] == [Game.format, SseGame.format]
    assert registry.DEFAULT_FORMAT == Game.format


@pytest.mark.parametrize("path", _modules(BASE), ids=_rel)
def test_base_imports_no_game_and_no_table(path):
    bad = sorted(m for m in _companion_imports(path) if not _under(m, BASE))
    assert not bad, f"{_rel(path)} (the base) imports {bad}"


@pytest.mark.parametrize("path", [p for g in GAME_PACKAGES for p in _modules(g)], ids=_rel)
def test_a_game_imports_only_the_base_and_itself(path):
    own = next(g for g in GAME_PACKAGES if _rel(path).startswith(g.replace(".", "/") + "/"))
    bad = sorted(m for m in _companion_imports(path)
                 if not _under(m, BASE) and not _under(m, own) and m != "companion")
    assert not bad, f"{_rel(path)} ({own}) imports {bad}"


@pytest.mark.parametrize("path", _modules(TABLE), ids=_rel)
def test_the_table_imports_no_game(path):
    bad = sorted(m for m in _companion_imports(path)
                 if any(_under(m, g) for g in GAME_PACKAGES) or _under(m, "companion.ui"))
    assert not bad, f"{_rel(path)} (the table layer) imports {bad}"


def _strings(path: Path) -> list[tuple[int, str]]:
    """Every string constant of a module but its docstrings, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_the_table_names_the_games_only_in_the_registrys_tuple():
    """The table layer loads the games by name from one tuple (importlib), nowhere else."""
    seen = {(_rel(p), line, s) for p in _modules(TABLE) for line, s in _strings(p)
            if any(g in s for g in GAME_PACKAGES)}
    tree = ast.parse(BUILTIN.read_text(encoding="utf-8"))
    [tuple_node] = [n.value for n in tree.body if isinstance(n, ast.Assign)
                    and [getattr(t, "id", None) for t in n.targets] == ["BUILTIN_GAMES"]]
    allowed = {(_rel(BUILTIN), e.lineno, e.value) for e in tuple_node.elts}
    assert seen == allowed


def _families() -> dict[str, str]:
    """{format family ("name" of "name/1"): the package of the game that owns it}."""
    out = {}
    for k in registry.kinds():
        if k.format in (Game.format, SseGame.format):
            out[k.family] = k.game_class.__module__.rsplit(".", 1)[0]
    return out


#: the code that must not write a game's format: the base, the table layer, the command
#: line, each game for the other's, and the screens (companion/ui: a screen reads its
#: game's format and name from the game's descriptor, the shell's tabs from the registry)
_CHECKED = [p for pkg in (BASE, TABLE, *GAME_PACKAGES, "companion.ui") for p in _modules(pkg)] \
    + [ROOT / "companion" / "cli.py", ROOT / "companion" / "__init__.py"]


@pytest.mark.parametrize("path", _CHECKED, ids=_rel)
def test_no_game_format_is_written_outside_its_package(path):
    bad = []
    for family, package in _families().items():
        if _rel(path).startswith(package.replace(".", "/") + "/"):
            continue
        bad += [(line, s) for line, s in _strings(path) if family in s]
    assert not bad, f"{_rel(path)} writes another package's game format: {bad}"


def test_the_format_check_sees_a_format_written_in_the_table(tmp_path):
    """The check above can fail: a format literal is found (docstrings aside)."""
    fake = tmp_path / "m.py"
    fake.write_text('"""about among-the-stars/1"""\nX = "among-the-stars/1"\n', encoding="utf-8")
    assert _strings(fake) == [(2, "among-the-stars/1")]


def test_importing_the_package_or_its_base_loads_no_game():
    """Issue 38: "``companion/__init__.py`` loads no game" (it imported the Among the Stars
    engine, so every import of the base or the table layer loaded it and pandas); the
    names it offers scripts still come, each when first asked for."""
    import subprocess
    import sys
    code = ("import sys, companion, companion.core.errors, companion.core.record\n"
            "loaded = sorted(m for m in sys.modules if m.startswith(('companion.ats', "
            "'companion.sse', 'pandas')))\n"
            "assert not loaded, loaded\n"
            "from companion import Game, IllegalAction, read_record\n"
            "assert Game.__module__ == 'companion.ats.game'\n"
            "assert 'companion.ats.game' in sys.modules\n"
            "try:\n    companion.nothing\nexcept AttributeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "has no attribute 'nothing'" in out.stdout


#: issue 38: the page's session (its writes, its seat rules, what changed) is the table
#: layer's, and reaches the games only through the registry's descriptors
SESSION_MODULES = ("session.py", "seats.py", "changes.py")


@pytest.mark.parametrize("name", SESSION_MODULES)
def test_the_session_imports_no_screen_and_no_game(name):
    path = ROOT / "companion" / "table" / name
    bad = sorted(m for m in _companion_imports(path)
                 if _under(m, "companion.ui") or any(_under(m, g) for g in GAME_PACKAGES))
    assert not bad, f"{_rel(path)} (the session) imports {bad}"
    # the screens' old name for it re-exports it
    ui = ROOT / "companion" / "ui" / name
    assert f"companion.table.{name[:-3]}" in _companion_imports(ui)
