"""Issue 36: Small Star Empires maps against the box, the same on every path.

A map no box can make was scored as if it were fine when it came from a file: 4 red
nebulae, 8 main sector tiles, a map whose systems differ from the tiles its own layout
lays.  Each is refused with one line by the engine (a live setup: the page builds its game
with SseGame) and by the command line (``check`` and ``score`` of a record file), with the
same words.  The rulebook's sentences:

- "There are three Nebula Systems of each color: Red, Blue and Green." (Components:
  "9 Nebula Markers (3 per color)")
- Components: "7 Main Sector Tiles"
- Epic Game Mode: "shuffle the Main Sector Tiles from both copies of the game": two boxes,
  so 6 of each colour and 14 main sector tiles.

The tiles here are made-up test inputs (the systems of the box's tiles are the players'
to type, never shipped).
"""
from __future__ import annotations

import json

import pytest

from companion.core.errors import RecordError
from companion.sse import SseGame
from companion.sse.forms import Form, Place
from companion.sse.hexmap import HexMap, MapError
from companion.sse.laying import Placement, lay
from companion.sse.tiles import SectorTile
from ssekit import grid

FOUR_RED = """
H1 Nr Nr Nr Nr
E  E  E  E  E
E  E  E  E  H2
"""
SEVEN_RED = """
H1 Nr Nr Nr Nr Nr Nr Nr
E  E  E  E  E  E  E  E
E  E  E  E  E  E  E  H2
"""


def _setup(the_map: HexMap, **kw) -> dict:
    return {"players": ["Ann", "Bob"], "map": the_map.to_dict(), "pieces": {"ships": 2}, **kw}


def _epic(the_map: HexMap) -> dict:
    return _setup(the_map, mode="epic",
                  pieces={"ships": 1, "cities": 32, "trade_stations": 8})


def _record_file(tmp_path, setup: dict):
    """A record file as another table would share it: the setup, no action."""
    path = tmp_path / "shared.json"
    path.write_text(json.dumps({"format": "small-star-empires/1", "setup": setup,
                                "actions": []}))
    return path


def _refused_everywhere(tmp_path, run_cli, setup: dict, words: str) -> None:
    """The live engine and the command line's check and score refuse ``setup`` with one
    line holding ``words``."""
    with pytest.raises(RecordError) as live:
        SseGame(setup)
    assert words in str(live.value) and "\n" not in str(live.value)
    path = _record_file(tmp_path, setup)
    for cmd in ("check", "score"):
        r = run_cli(cmd, path)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1, (cmd, r.stderr)
        assert words in lines[0] and "Traceback" not in r.stderr


def test_four_red_nebulae_are_refused_on_every_path(tmp_path, run_cli):
    # "There are three Nebula Systems of each color"
    _refused_everywhere(tmp_path, run_cli, _setup(grid(FOUR_RED)),
                        "the map has 4 red nebulae; the book: \"There are three Nebula "
                        "Systems of each color\"")


def test_the_epic_game_mixes_two_boxes_six_of_a_colour_not_seven(tmp_path, run_cli):
    # Epic: "shuffle the Main Sector Tiles from both copies of the game"
    assert SseGame(_epic(grid(FOUR_RED))).setup.mode == "epic"
    _refused_everywhere(tmp_path, run_cli, _epic(grid(SEVEN_RED)),
                        "the map has 7 red nebulae; the epic game's 2 boxes hold 6")


def _tile(tid: str, kind: str) -> dict:
    middle = "homeworld" if kind == "homeworld" else "empty"
    return {"id": tid, "kind": kind,
            "systems": [{"at": [0, 0], "type": middle},
                        {"at": [1, 0], "type": "planetary", "planets": 1}]}


def _laid(mains: int) -> HexMap:
    """A map laid on a row of places: a homeworld, ``mains`` main tiles, a homeworld."""
    kinds = ["homeworld"] + ["main"] * mains + ["homeworld"]
    form = Form("row", "Row", 1, tuple(Place((i, 0), k, None) for i, k in enumerate(kinds)))
    tiles = {d["id"]: SectorTile.from_dict(d) for d in
             [_tile("H1", "homeworld"), _tile("H2", "homeworld")]
             + [_tile(f"M{i}", "main") for i in range(mains)]}
    ids = ["H1"] + [f"M{i}" for i in range(mains)] + ["H2"]
    return lay(form, [Placement(i, t, 0) for i, t in enumerate(ids)], tiles)


def test_eight_main_sector_tiles_are_refused_on_every_path(tmp_path, run_cli):
    # Components: "7 Main Sector Tiles"
    assert SseGame(_setup(_laid(7))).state is not None
    _refused_everywhere(tmp_path, run_cli, _setup(_laid(8)),
                        "the map is laid from 8 main sector tiles; the box has 7 "
                        "(Components: \"7 Main Sector Tiles\")")
    assert SseGame(_epic(_laid(8))).setup.mode == "epic"       # two boxes: 14


def test_a_map_that_differs_from_its_own_layout_is_refused_on_every_path(tmp_path, run_cli):
    laid = _laid(2).to_dict()
    assert HexMap.from_dict(laid).to_dict() == laid            # as laid: read back whole
    bent = json.loads(json.dumps(laid))
    east = next(s for s in bent["systems"] if s["type"] == "planetary")
    east["planets"] = 3                                        # not what the tile says
    words = "the map differs from the sector tiles its layout lays: at"
    with pytest.raises(MapError, match=words):
        HexMap.from_dict(bent)
    setup = {"players": ["Ann", "Bob"], "map": bent, "pieces": {"ships": 2}}
    _refused_everywhere(tmp_path, run_cli, setup, words)
    # a system more than the tiles lay, too
    extra = json.loads(json.dumps(laid))
    extra["systems"].append({"at": [40, 40], "type": "empty"})
    with pytest.raises(MapError, match="the map has empty system, the tiles lay no system"):
        HexMap.from_dict(extra)
    # an unexplored system stands where the tiles lay an empty one (its tile face down)
    hidden = json.loads(json.dumps(laid))
    for s in hidden["systems"]:
        if s["type"] == "empty":
            s["type"] = "unexplored"
    assert HexMap.from_dict(hidden).of_kind("unexplored")
