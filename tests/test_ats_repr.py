"""Jupyter's rich display of Among the Stars (issue 38): a game and a station show
themselves as SVG (``_repr_svg_``, as python-chess's ``Board._repr_svg_``), drawn by
companion.ats.render, every player's name escaped."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.ats import render
from companion.ats.game import Game
from companion.ats.station import Station

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<b>&"x"'


def _game(players: list[str]) -> Game:
    return Game({"players": players, "mode": "standard"})


def _played(players: list[str]) -> Game:
    """A game in which the first player to act has built a reactor."""
    game = _game(players)
    who = game.waiting_in_order()[0]
    cell = game.legal_cells(who, do="reactor")[0]
    st = game.state
    game.push({"year": st.year, "turn": st.turn, "player": who, "do": "reactor",
               "card": game.catalogue.names()[0], "at": list(cell)})
    return game


def _texts(root: ET.Element) -> str:
    return " ".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))


@pytest.mark.parametrize("players", [["Ana", "Ben"], ["Ana", "Ben", "Cy"],
                                     ["Ana", HOSTILE, "Cy", "Dee"]])
def test_the_games_svg_shows_every_station_with_its_players_name(players):
    game = _played(players)
    svg = game._repr_svg_()
    root = ET.fromstring(svg)                       # well-formed XML
    assert root.tag == f"{SVG}svg"
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "station"]
    assert len(groups) == len(players)
    assert [g.get("data-player") for g in groups] == players
    shown = _texts(root)
    for p in players:
        assert p in shown                           # the name, as text
    for g, p in zip(groups, players):               # each group is that player's station
        assert ET.tostring(g.find(f"{SVG}svg")) == ET.tostring(
            ET.fromstring(render.station_svg(game.state.station(p), title=p)))


def test_a_hostile_name_is_escaped_never_markup():
    game = _game(["Ana", HOSTILE])
    svg = game._repr_svg_()
    assert HOSTILE not in svg
    assert "&lt;b&gt;&amp;&quot;x&quot;" in svg
    root = ET.fromstring(svg)
    assert not [el for el in root.iter() if el.tag in ("b", f"{SVG}b")]
    assert HOSTILE in _texts(root)
    st_svg = render.station_svg(game.state.station(HOSTILE), title=HOSTILE)
    assert HOSTILE not in st_svg
    assert HOSTILE in _texts(ET.fromstring(st_svg))


def test_a_stations_svg_is_render_station_svg():
    game = _played(["Ana", "Ben"])
    for p in game.setup.players:
        station = game.state.station(p)
        assert station._repr_svg_() == render.station_svg(station)
        ET.fromstring(station._repr_svg_())
    fresh = Station()
    assert fresh._repr_svg_() == render.station_svg(fresh)
    assert ET.fromstring(fresh._repr_svg_()).tag == f"{SVG}svg"


def test_the_game_picture_is_as_wide_as_its_stations_side_by_side():
    game = _game(["Ana", "Ben", "Cy"])
    root = ET.fromstring(game._repr_svg_())
    widths = [int(ET.fromstring(render.station_svg(game.state.station(p), title=p)).get("width"))
              for p in game.setup.players]
    assert int(root.get("width")) == sum(widths) + render.STATION_SPACING * (len(widths) - 1)
    shifts = [g.get("transform") for g in root.iter(f"{SVG}g") if g.get("class") == "station"]
    assert shifts[0] == "translate(0,0)"
    assert shifts[1] == f"translate({widths[0] + render.STATION_SPACING},0)"


def test_the_drawing_does_not_import_the_station():
    """render reads a station through its Protocol: the station imports render, not
    the other way (no import cycle, none hidden in a function)."""
    import ast
    import inspect
    tree = ast.parse(inspect.getsource(render))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.module != "station" and not (node.module or "").endswith(".station")
