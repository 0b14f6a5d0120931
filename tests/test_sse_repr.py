"""Jupyter's rich display of Small Star Empires (issue 38): a game and a map show
themselves as SVG (``_repr_svg_``, as python-chess's ``Board._repr_svg_``), drawn by the
pure renderer companion.sse.render, every name escaped.  Beside tests/test_ats_repr.py."""
from __future__ import annotations

import ast
import inspect
import xml.etree.ElementTree as ET

import pytest

from companion.sse import render
from companion.sse.game import SseGame
from companion.sse.hexmap import HexMap, System

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<b>&"x"'


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


def _map(title: str | None = None) -> HexMap:
    """H1 P1 . P2 H2 on one row: two homeworlds, two planetary systems."""
    return HexMap({(0, 0): System("homeworld", home=1), (1, 0): System("planetary", planets=1),
                   (3, 0): System("planetary", planets=2), (4, 0): System("homeworld", home=2)},
                  name="test", title=title)


def _game(players=("Ann", "Bob")) -> SseGame:
    return SseGame({"players": list(players), "map": _map().to_dict(),
                    "pieces": {"ships": 1}, "options": {"pieces": "custom"}})


def _texts(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def test_the_games_svg_is_the_renderers_map_with_the_state():
    game = _game()
    assert game._repr_svg_() == render.map_svg(game.state.map, game.state)
    first = game._repr_svg_()
    game.push({"player": "Ann", "ship": 0, "to": [1, 0], "piece": "city"})
    svg = game._repr_svg_()
    assert svg == render.map_svg(game.state.map, game.state) and svg != first
    root = ET.fromstring(svg)                       # well-formed XML
    assert root.tag == f"{SVG}svg"
    assert "C" in _texts(root)                      # the City placed is drawn
    assert len([p for p in root.iter(f"{SVG}polygon") if p.get("class") == "ship"]) == 2
    game.pop()
    assert game._repr_svg_() == first               # the picture follows the state


def test_every_player_is_named_on_their_homeworld_and_a_hostile_name_is_escaped():
    game = _game(("Ann", HOSTILE))
    svg = game._repr_svg_()
    assert HOSTILE not in svg
    assert "&lt;b&gt;&amp;" in svg
    root = ET.fromstring(svg)
    assert not [el for el in root.iter() if el.tag in ("b", f"{SVG}b")]
    texts = _texts(root)
    assert "Ann" in texts and HOSTILE in texts


def test_a_maps_svg_shows_each_system_and_its_title():
    m = _map(title=HOSTILE)
    svg = m._repr_svg_()
    assert svg == render.map_svg(m, title=HOSTILE)
    root = ET.fromstring(svg)
    hexes = [p for p in root.iter(f"{SVG}polygon") if "hex" in (p.get("class") or "").split()]
    assert len(hexes) == len(m.systems) == 4
    assert HOSTILE not in svg and HOSTILE in _texts(root)
    untitled = _map()
    assert "test" in _texts(ET.fromstring(untitled._repr_svg_()))   # the title is the name


def test_the_drawing_imports_neither_the_map_nor_the_state_when_it_runs():
    """The map's module draws itself with render: render names the map and the state
    for its annotations only (under TYPE_CHECKING), so there is no import cycle."""
    tree = ast.parse(inspect.getsource(render))
    for node in tree.body:                          # what the module runs at import
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [a.name for a in node.names]
            assert not any(n.endswith(("hexmap", "state")) for n in names), names
