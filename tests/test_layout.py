"""The package layout (issue 13, docs/architecture.md): the engine packages
(companion/core, companion/ats, companion/sse) import no widgets, and the game
registry is the one place where record formats are told apart."""
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
