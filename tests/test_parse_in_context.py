"""``game.parse(text)``: a line of notation read in the context of the position, as
python-chess's ``Board.parse_san`` (issue 38).  What the line leaves out and the game
knows is filled in (the player who may act, the year and turn, the only legal cell or
destination, the only energy payers or piece); what it cannot know, or where it sees two
possibilities, raises ``IncompleteNotation`` naming the field and its options; an illegal
action raises the rules' ``IllegalAction``; and parsing changes nothing.

Only FIXTURE cards (names starting with "Fixture: ", numbers invented here, defined in
the game's ``cards``) and tiny test maps are used: no real card's numbers."""
from __future__ import annotations

import json

import pytest

from companion.ats import actions as ats_actions
from companion.ats.game import Game
from companion.core.errors import CompanionError, IllegalAction, UnknownCardValues
from companion.core.notation import IncompleteNotation, NotationError
from companion.sse import actions as sse_actions
from companion.sse.game import SseGame
from companion.sse.hexmap import HexMap, System


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Never read or write the real user catalogue."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


# -- Among the Stars --------------------------------------------------------------------
BASE = dict(max="none", abilities=[])
CARDS = [dict(BASE, name="Fixture: free", types=["military"], cost=0, energy=0, vp=1),
         dict(BASE, name="Fixture: one energy", types=["recreational"], cost=1, energy=1, vp=1),
         dict(BASE, name="Fixture: three energy", types=["business"], cost=1, energy=3, vp=1),
         dict(BASE, name="Fixture: unknown", types=["business"], cost=None, energy=0, vp=1)]

#: a position (found by random play with the cards above) where Ben, holding "Fixture:
#: three energy", has exactly one legal cell, and Ana has acted this turn
NINE = ['Ana reactor "Fixture: free" @0,-1', 'Ben reactor "Fixture: one energy" @-1,0',
        'Ana reactor "Fixture: free" @0,1', 'Ben build "Fixture: free" @-1,1',
        'Ana reactor "Fixture: free" @0,-2',
        'Ben build "Fixture: three energy" @-2,0 e[-1,0;-1,0;0,0]',
        'Ana reactor "Fixture: free" @-1,-2', 'Ben reactor "Fixture: free" @-2,1',
        'Ana build "Fixture: one energy" @-2,-2']


def ats(players=("Ana", "Ben"), **options) -> Game:
    return Game({"players": list(players), "options": options}, cards=CARDS)


def nine() -> Game:
    g = ats()
    for line in NINE:
        g.push(ats_actions.parse(line))
    return g


def record(game) -> str:
    return json.dumps(game.to_record(), sort_keys=True)


def test_ats_fills_the_year_turn_and_the_only_player_still_to_act():
    g = ats()
    g.push({"player": "Ana", "do": "discard", "card": "Fixture: free"})
    value = g.parse('discard "Fixture: free"')
    assert value == ats_actions.parse('1.1 Ben discard "Fixture: free"')
    assert str(value) == '1.1 Ben discard "Fixture: free"'


def test_ats_never_guesses_between_two_players():
    g = ats()
    with pytest.raises(IncompleteNotation) as e:
        g.parse('discard "Fixture: free"')
    assert e.value.missing == "player" and e.value.options == ("Ana", "Ben")
    assert "Ana or Ben" in str(e.value)


def test_ats_the_revival_active_player_is_the_only_one_who_may_act():
    g = ats(two_player="revival")
    first = g.waiting_in_order()[0]
    assert g.parse('discard "Fixture: free"').player == first


def test_ats_fills_the_only_legal_cell_the_only_payers_and_the_player():
    g = nine()
    assert g.legal_cells("Ben", "Fixture: three energy") == [(0, 1)]
    [only] = g.energy_options("Ben", [0, 1], 3)
    value = g.parse('build "Fixture: three energy"')
    assert value.player == "Ben" and value.at == (0, 1)
    assert value.energy_from == tuple(tuple(c) for c in only["energy_from"])
    assert (value.year, value.turn) == (g.state.year, g.state.turn) == (1, 5)


def test_ats_never_guesses_between_two_ways_to_pay_the_energy():
    g = ats()
    for line in NINE[:5]:
        g.push(ats_actions.parse(line))
    with pytest.raises(IncompleteNotation) as e:
        g.parse('Ben build "Fixture: three energy" @-2,0')
    assert e.value.missing == "energy_from" and len(e.value.options) == 2
    paid = e.value.options[1]
    line = 'build "Fixture: three energy" @-2,0 e[' + ";".join(f"{r},{c}" for r, c in paid) + "]"
    value = g.parse(line)
    assert value.player == "Ben" and value.energy_from == tuple(tuple(c) for c in paid)


def test_ats_fills_the_only_energy_payer():
    g = ats()
    value = g.parse('Ana build "Fixture: one energy" @0,1')
    assert value.energy_from == ((0, 0),)
    assert str(value) == '1.1 Ana build "Fixture: one energy" @0,1 e[0,0]'


def test_ats_never_guesses_between_two_cells():
    g = ats()
    with pytest.raises(IncompleteNotation) as e:
        g.parse('Ana build "Fixture: free"')
    assert e.value.missing == "at"
    assert sorted(e.value.options) == [(-1, 0), (0, -1), (0, 1), (1, 0)]


def test_ats_the_card_is_never_guessed_and_its_name_is_the_catalogues():
    g = ats()
    with pytest.raises(IncompleteNotation) as e:
        g.parse("Ana discard")
    assert e.value.missing == "card"
    assert g.parse('Ana discard "fixture: FREE"').card == "Fixture: free"


def test_ats_an_illegal_line_raises_the_rules_error_and_changes_nothing():
    g = ats()
    g.push({"player": "Ana", "do": "discard", "card": "Fixture: free"})
    before = record(g)
    with pytest.raises(IllegalAction) as e:
        g.parse('Ana discard "Fixture: free"')          # Ana has acted this turn
    assert e.value.rule == "wrong-player"
    with pytest.raises(IllegalAction) as e:
        g.parse('Ben build "Fixture: free" @5,5')      # not next to the station
    with pytest.raises(UnknownCardValues):
        g.parse('Ben build "Fixture: unknown" @0,1')    # its cost is not known
    with pytest.raises(IllegalAction) as e:
        g.parse('Ben discard "Fixture: nothing"')
    assert e.value.rule == "unknown-card"
    assert record(g) == before


def test_ats_a_line_that_is_no_notation_is_a_notation_error():
    g = ats()
    for bad in ("", "Ana", 'Ana fly "Fixture: free"', "Ana build @x,y", 42):
        with pytest.raises(NotationError):
            g.parse(bad)


def test_ats_what_parse_returns_pushes_as_written():
    g = ats()
    value = g.parse('Ana build "Fixture: one energy" @0,1')
    stored = g.push(value)
    assert stored == value and g.actions[-1] == value.to_dict()
    # the same line once the position has changed: Ben is now the only one to act
    assert g.parse('reactor "Fixture: free" @0,1').player == "Ben"


def test_ats_parse_reads_back_every_action_of_a_game():
    g = nine()
    again = ats()
    for a in g.actions:
        value = ats_actions.from_dict(a)
        assert again.parse(str(value)) == value
        again.push(value)
    assert record(again) == record(g)


# -- Small Star Empires -------------------------------------------------------------------
def sse(row: str, rows: tuple[str, ...] = (), ships: int = 1, **setup) -> SseGame:
    """A game on a tiny map (one text line per row: H1/H2 homeworlds, Pn planets, E empty,
    '.' nothing), with made-up pieces."""
    kinds = {"E": System("empty")}
    systems = {}
    for r, line in enumerate((row,) + rows):
        for q, t in enumerate(line.split()):
            if t == ".":
                continue
            systems[(q, r)] = (System("homeworld", home=int(t[1:])) if t[0] == "H"
                               else System("planetary", planets=int(t[1:])) if t[0] == "P"
                               else kinds[t])
    m = HexMap(systems, name="test")
    return SseGame({"players": ["Ann", "Bob"], "map": m.to_dict(),
                    "pieces": {"ships": ships}, "options": {"pieces": "custom"}, **setup})


def test_sse_fills_the_player_the_ship_its_hex_the_destination_and_the_way():
    g = sse("H1 P1 . P2 H2")
    value = g.parse("city")
    assert value == sse_actions.parse("Ann move #0 0,0->1,0 line city")
    assert str(value) == "Ann move #0 0,0->1,0 line city"


def test_sse_never_guesses_the_piece():
    g = sse("H1 P1 . P2 H2")
    with pytest.raises(IncompleteNotation) as e:
        g.parse("->1,0")
    assert e.value.missing == "piece" and set(e.value.options) == {"city", "trade_station"}


def test_sse_never_guesses_between_two_ships():
    g = sse("H1 P1 P2 P3 P1 P2 H2", ships=2)
    # issue 52: both ships on the homeworld give the same move: ship 0, not a question
    assert g.parse("->1,0 city").ship == 0
    assert g.parse("#1 ->1,0 city").ship == 1
    g.push(g.parse("#0 ->1,0 city"))
    g.push(g.parse("Bob #0 ->5,0 trade_station"))
    # now apart (1,0 and the homeworld 0,0), both can reach 2,0: asked, never a guess
    with pytest.raises(IncompleteNotation) as e:
        g.parse("->2,0 city")
    assert e.value.missing == "ship" and e.value.options == (0, 1)


def test_sse_never_guesses_between_two_destinations():
    g = sse("H1 P1 . P2 H2", ("P1 . . . .",))
    tos = sorted(m.to for m in g.legal_moves("Ann", 0))
    assert len(tos) >= 2
    with pytest.raises(IncompleteNotation) as e:
        g.parse("Ann #0 city")
    assert e.value.missing == "to" and sorted(m.to for m in e.value.options) == tos


def test_sse_the_player_is_whose_turn_it_is():
    g = sse("H1 P1 . P2 H2")
    g.push(g.parse("city"))
    value = g.parse("trade_station")
    assert value.player == "Bob" and value.to == (3, 0) and value.frm == (4, 0)


def test_sse_an_illegal_line_raises_the_rules_error_and_changes_nothing():
    g = sse("H1 P1 . P2 H2")
    before = record(g)
    with pytest.raises(IllegalAction) as e:
        g.parse("Bob ->3,0 city")
    assert e.value.rule == "wrong-player"
    with pytest.raises(CompanionError):
        g.parse("Ann #0 ->4,0 city")        # Bob's homeworld
    assert record(g) == before


def test_sse_a_line_that_is_no_notation_is_a_notation_error():
    g = sse("H1 P1 . P2 H2")
    for bad in ("Ann move #x", "Ann fly", "->1", "Ann move ->1,0 ->2,0", None):
        with pytest.raises(NotationError):
            g.parse(bad)


def test_sse_the_damaged_ship_is_the_only_undamaged_one():
    g = sse("H1 E E E E H2", ships=2, variants={"damaged_ships": True})
    g.push({"do": "damage", "player": "Ann", "ship": 0})
    value = g.parse("damage")
    assert value.ship == 1 and value.frm == (0, 0) and value.player == "Ann"


def test_sse_a_finished_game_says_so():
    g = sse("H1 P1 . P2 H2")
    while not g.state.finished:
        g.push(g.parse(_piece(g)))
    with pytest.raises(IllegalAction) as e:
        g.parse("city")
    assert e.value.rule == "game-over"


def _piece(g: SseGame) -> str:
    """A line for the player whose turn it is: the first legal move with a piece left."""
    st = g.state
    p = st.current
    left = g.placeable_pieces(p)
    for i, _ in enumerate(g.ships(p)):
        for m in g.legal_moves(p, i):
            for piece in m.pieces:
                if piece in left:
                    return f"#{i} ->{m.to[0]},{m.to[1]} {piece}"
    raise AssertionError("no move")
