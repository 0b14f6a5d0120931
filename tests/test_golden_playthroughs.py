"""Golden playthroughs (issue 23), as OpenSpiel keeps them: for every registered game
(companion.table.registry.GAMES) a checked-in per-step transcript of a full record,
tests/golden/playthrough-<game>.txt (``<game>``: the format without its version,
``among-the-stars``): each action's notation (``str`` of the game's typed action,
companion/<game>/actions.py), then the state after it (that module's ``summary``, read
from the engine's state and score), and the final score at the end.

The transcript's header names the record it is built from (``# record: PATH``); the
numbers all come from replaying that record through the engine, none is typed here.

Regenerate after a deliberate change (then read the diff before committing it)::

    GOLDEN_REGENERATE=1 python -m pytest -q tests/test_golden_playthroughs.py

A registered game without a transcript fails: write a file with the two header lines
``# Golden playthrough: <name> (<format>)`` and ``# record: <path of a full record>``
and regenerate.
"""
from __future__ import annotations

import copy
import importlib
import json
import os
from pathlib import Path
from types import ModuleType

import pytest

from companion.table.registry import GAME_NAMES, GAMES, load_game

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
REGENERATE = os.environ.get("GOLDEN_REGENERATE") == "1"


def transcript_path(fmt: str) -> Path:
    return GOLDEN / f"playthrough-{fmt.split('/')[0]}.txt"


def actions_module(fmt: str) -> ModuleType:
    """The game's actions module (``companion.<game>.actions``), found from its class."""
    package = GAMES[fmt].__module__.rsplit(".", 1)[0]
    return importlib.import_module(package + ".actions")


def record_of(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# record: "):
            return line[len("# record: "):].strip()
    raise AssertionError(f"{path.name} has no '# record: PATH' header line")


def transcript(fmt: str, record_path: str) -> str:
    """The playthrough of the record at ``record_path`` (relative to the repository)."""
    record = json.loads((ROOT / record_path).read_text(encoding="utf-8"))
    assert record.get("format") == fmt, f"{record_path} is not a {fmt} record"
    acts = actions_module(fmt)
    game = load_game(dict(record, actions=[]))
    lines = [f"# Golden playthrough: {GAME_NAMES[fmt]} ({fmt})",
             f"# record: {record_path}",
             "# Regenerate: GOLDEN_REGENERATE=1 python -m pytest -q tests/test_golden_playthroughs.py",
             "# Each step: its number and the action's notation, then the state after it.",
             f"start: {acts.summary(game)}"]
    for i, action in enumerate(record["actions"], 1):
        stored = game.push(copy.deepcopy(action))
        lines.append(f"{i}. {acts.from_dict(stored)}")
        lines.append(f"   {acts.summary(game)}")
    assert game.state.finished, f"{record_path} is not a full record (the game is not over)"
    lines.append("score: " + "; ".join(
        f"{p['player']} {p['total']} VP rank {p['rank']}" for p in game.score().to_json()["players"]))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fmt", sorted(GAMES))
def test_golden_playthrough(fmt):
    path = transcript_path(fmt)
    assert path.exists(), (f"{GAME_NAMES.get(fmt, fmt)} is registered but has no golden "
                           f"playthrough {path.relative_to(ROOT)} (see this test's docstring)")
    text = transcript(fmt, record_of(path))
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, (
        f"{path.name} differs from the replay; if the change is meant, regenerate with "
        "GOLDEN_REGENERATE=1 and read the diff")


@pytest.mark.parametrize("fmt", sorted(GAMES))
def test_golden_notation_reads_back_to_the_record(fmt):
    """The transcript's notation lines are the record: each parses back to the stored
    action, byte for byte as JSON."""
    path = transcript_path(fmt)
    assert path.exists()
    acts = actions_module(fmt)
    record = json.loads((ROOT / record_of(path)).read_text(encoding="utf-8"))
    steps = [line.split(". ", 1)[1] for line in path.read_text(encoding="utf-8").splitlines()
             if line[:1].isdigit()]
    assert len(steps) == len(record["actions"]) > 0
    for text, action in zip(steps, record["actions"]):
        assert json.dumps(acts.parse(text).to_dict()) == json.dumps(action)


def test_every_transcript_is_of_a_registered_game():
    formats = {transcript_path(fmt).name for fmt in GAMES}
    stray = [p.name for p in GOLDEN.glob("playthrough-*.txt") if p.name not in formats]
    assert not stray, f"golden playthroughs of no registered game: {stray}"
