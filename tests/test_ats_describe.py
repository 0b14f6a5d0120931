"""Game.describe / describe_action: an entry in words, from the engine (issue 13).

It says exactly what the page's own ``describe`` said for every kind of entry (checked
equal while both existed); the page and the History tab now ask the engine.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.ats.game import ACTIONS, SIDE_ENTRIES, Game, describe_action

SAMPLES = sorted((Path(__file__).resolve().parents[1] / "data" / "samples").glob("*.json"))


def _ats_samples() -> list[Path]:
    out = []
    for path in SAMPLES:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("format") == Game.format:
            out.append(path)
    return out


@pytest.mark.parametrize("path", _ats_samples(), ids=lambda p: p.name)
def test_every_action_of_a_sample_record_is_described_as_the_page_describes_it(path):
    game = Game.from_record(json.loads(path.read_text(encoding="utf-8")))
    assert game.actions
    for action in game.actions:
        words = game.describe(action)
        assert words == describe_action(action)
        assert action["player"] in words


#: one entry of every other kind, with what it reads as
OTHER_KINDS = [
    ({"player": "Ana", "do": "build", "card": "Garden", "at": [0, 1]},
     "Ana built Garden at [0, 1]"),
    ({"player": "Ana", "do": "reactor", "card": "Garden", "at": [-1, 0]},
     "Ana built a Power Reactor at [-1, 0]"),
    ({"player": "Ana", "do": "discard", "card": "Garden"},
     "Ana discarded Garden for 3 credits"),
    ({"player": "Ben", "do": "conflict", "card": "Fixture: conflict", "effects": {}},
     "Ben applied the Conflict 'Fixture: conflict' (1 credit)"),
    ({"player": "Ben", "do": "remove_spaceships", "card": "Garden", "cells": [[1, 0], [0, 2]]},
     "Ben discarded Garden and removed the spaceships at [1, 0] and [0, 2]"),
    ({"seat": "virtual 1", "do": "virtual", "card": "Garden"},
     "virtual 1 lost Garden to the face-up pile"),
    ({"player": "Ana", "do": "remove", "card": "Garden", "at": [0, 3]},
     "Ana removed Garden at [0, 3] (round-end check)"),
    ({"player": "Ana", "do": "remove", "at": [0, 3]},
     "Ana removed a location at [0, 3] (round-end check)"),
    ({"player": "Ben", "do": "advisor", "tile": "Fixture: tile", "take": "bonus"},
     "Ben took the bonus of the advisor on 'Fixture: tile'"),
    ({"player": "Ben", "do": "advisor", "tile": "Fixture: tile", "take": "decline"},
     "Ben declined the advisor's bonus on 'Fixture: tile' for 1 VP"),
    ({"do": "lay", "player": "Ana", "cells": [{"at": [0, 0], "reactor": True, "cubes": 0},
                                              {"at": [0, 1], "card": "Garden"}],
      "credits": 7, "vp": 23},
     "Ana laid the station from the table (2 cells, 7 credits, 23 VP on the score track)"),
    ({"do": "something else"}, "something else"),
]


@pytest.mark.parametrize("action,words", OTHER_KINDS, ids=lambda x: str(x)[:40])
def test_every_kind_of_entry_reads_as_the_page_reads_it(action, words):
    game = Game({"players": ["Ana", "Ben"]})
    assert game.describe(action) == describe_action(action) == words


def test_every_kind_the_engine_knows_has_its_own_words():
    kinds = {a["do"] for a, _ in OTHER_KINDS}
    assert set(ACTIONS) | set(SIDE_ENTRIES) <= kinds


def test_describing_changes_nothing():
    game = Game({"players": ["Ana", "Ben"]})
    action = {"player": "Ana", "do": "discard", "card": "Garden"}
    before = dict(action)
    game.describe(action)
    assert action == before and game.actions == []
