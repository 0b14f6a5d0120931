"""Movement, colonising, turn order, passing, the end and undo (S Gameplay, S Game End)."""
from __future__ import annotations

import pytest

from companion.core.errors import IllegalAction
from companion.sse import SseGame
from companion.sse.hexmap import direction_to, distance, neighbours

from ssekit import game, move, rule_of

ROW = "H1 E P1 E P2 E E E H2"          # one row: q = 0..8, r = 0


def test_hex_arithmetic():
    assert len(set(neighbours((0, 0)))) == 6
    assert all(distance((0, 0), n) == 1 for n in neighbours((0, 0)))
    assert direction_to((0, 0), (3, 0)) == ("E", 3)
    assert direction_to((0, 0), (0, -2)) == ("NW", 2)
    assert direction_to((0, 0), (2, -2)) == ("NE", 2)
    assert direction_to((0, 0), (-1, 2)) is None
    assert distance((0, 0), (2, -1)) == 2


def test_straight_line_any_distance_in_six_directions():
    g = game("""
E E E E E
E E E E E
E E H1 E E
E E E E E
E E E E H2
""")
    dest = g.legal_destinations("Ann", 0)
    # the six rays from (2, 2): E, W, NW, SE, NE, SW
    want = {(3, 2), (4, 2), (1, 2), (0, 2), (2, 1), (2, 0), (2, 3), (2, 4),
            (3, 1), (4, 0), (1, 3), (0, 4)}
    assert dest == want
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [3, 3], "piece": "city"}) == "not-straight"
    move(g, "Ann", (4, 0))                # any distance
    assert g.state.players["Ann"].ships[0].at == (4, 0)


def test_first_move_scores_planets_and_takes_the_piece():
    g = game(ROW)
    a = move(g, "Ann", (4, 0), piece="trade_station")
    assert a == {"do": "move", "player": "Ann", "ship": 0, "from": [0, 0], "to": [4, 0],
                 "via": "line", "piece": "trade_station"}
    ann = g.state.players["Ann"]
    assert ann.vp == 2 and ann.trade_stations == 3 and ann.cities == 16
    assert g.state.colonies[(4, 0)].owner == "Ann"
    assert g.current == "Bob"


def test_may_pass_own_systems_but_not_end_there():
    g = game(ROW, ships=2)
    move(g, "Ann", (2, 0))
    move(g, "Bob", (6, 0))
    assert rule_of(g, {"player": "Ann", "ship": 1, "to": [2, 0], "piece": "city"}) == "own-system"
    move(g, "Ann", (3, 0), ship=1)            # passes its own (2, 0)
    assert g.state.players["Ann"].ships[1].at == (3, 0)


def test_never_enter_or_pass_opponent_systems_or_homeworlds():
    g = game(ROW)
    move(g, "Ann", (1, 0))
    move(g, "Bob", (4, 0))
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [4, 0], "piece": "city"}) == "opponent-system"
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [5, 0], "piece": "city"}) == "opponent-system"
    assert g.legal_destinations("Ann", 0) == {(2, 0), (3, 0)}
    # the opponent's homeworld
    h = game("H1 E H2 E")
    assert rule_of(h, {"player": "Ann", "ship": 0, "to": [2, 0], "piece": "city"}) == "opponent-system"
    assert rule_of(h, {"player": "Ann", "ship": 0, "to": [3, 0], "piece": "city"}) == "opponent-system"


def test_never_end_in_own_homeworld():
    g = game(ROW)
    move(g, "Ann", (1, 0))
    move(g, "Bob", (7, 0))
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Ann", "ship": 0, "to": [0, 0], "piece": "city"})
    assert e.value.rule == "own-homeworld"
    assert "[rule: own-homeworld]" in str(e.value) and "Ann move ship 0 to [0, 0]" in str(e.value)


def test_the_board_has_gaps_ships_do_not_fly_over_them():
    g = game("H1 E . E E H2")
    assert g.legal_destinations("Ann", 0) == {(1, 0)}
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [3, 0], "piece": "city"}) == "off-map"
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [2, 0], "piece": "city"}) == "off-map"


def test_black_holes_block():
    g = game("H1 E B E H2")
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [3, 0], "piece": "city"}) == "black-hole"
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [2, 0], "piece": "city"}) == "black-hole"
    assert g.legal_destinations("Ann", 0) == {(1, 0)}


def test_wormholes_are_passed_never_ended_in():
    g = game("H1 W E E H2")
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [1, 0], "piece": "city"}) == "wormhole-end"
    a = move(g, "Ann", (2, 0))
    assert a["via"] == "line"


def test_wormhole_jump_from_next_to_one_to_next_to_another():
    text = """
H1 W E E E E E
E  E E E E E E
E  E E E W E H2
"""
    g = game(text)
    # (0,0) is next to the wormhole (1,0); the other wormhole is (4,2)
    dest = g.legal_destinations("Ann", 0)
    for n in [(5, 2), (3, 2), (4, 1), (5, 1), (3, 3)]:
        if n in g.state.map:
            assert n in dest
    a = move(g, "Ann", (5, 1))                 # not in a straight line from (0, 0)
    assert a["via"] == "wormhole"
    assert g.state.players["Ann"].ships[0].at == (5, 1)
    # a ship not next to a wormhole cannot jump
    g2 = game(text)
    move(g2, "Ann", (0, 2))
    move(g2, "Bob", (6, 1))
    assert rule_of(g2, {"player": "Ann", "ship": 0, "to": [5, 1], "piece": "city",
                        "via": "wormhole"}) == "wormhole"


def test_piece_must_come_from_the_reserve():
    g = game(ROW, pieces={"trade_stations": 0})
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [1, 0], "piece": "trade_station"}) == "no-pieces"
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [1, 0]}) == "piece"
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [1, 0], "piece": "castle"}) == "piece"


def test_turn_order_and_wrong_player():
    g = game(ROW, players=("Ann", "Bob"))
    assert g.current == "Ann"
    assert rule_of(g, {"player": "Bob", "ship": 0, "to": [7, 0], "piece": "city"}) == "wrong-player"
    assert rule_of(g, {"player": "Zed", "ship": 0, "to": [7, 0], "piece": "city"}) == "wrong-player"
    assert rule_of(g, {"player": "Ann", "ship": 3, "to": [1, 0], "piece": "city"}) == "no-ship"
    assert rule_of(g, {"player": "Ann", "from": [5, 0], "to": [1, 0], "piece": "city"}) == "no-ship"
    assert rule_of(g, {"player": "Ann", "ship": 0, "to": [1, 0], "piece": "city", "x": 1}) == "malformed"
    # 'from' instead of 'ship'
    a = g.push({"player": "Ann", "from": [0, 0], "to": [1, 0], "piece": "city"})
    assert a["ship"] == 0 and g.current == "Bob"


def test_blocked_player_passes_for_the_rest_of_the_game_and_the_game_ends():
    # Ann's only way out is (1, 0); once Bob... Ann gets boxed in after one move
    g = game("H1 E H2 E E E")
    move(g, "Ann", (1, 0))          # Ann's ship at (1,0): blocked by Bob's homeworld, own systems
    # Ann can move nowhere now: W is her homeworld, E is Bob's homeworld
    assert g.current == "Bob"
    move(g, "Bob", (3, 0))
    assert g.state.players["Ann"].passed
    assert g.current == "Bob"       # Bob plays on alone
    move(g, "Bob", (5, 0))
    move(g, "Bob", (4, 0))
    assert g.state.finished and g.state.end_reason == "no player can move a ship"
    assert rule_of(g, {"player": "Bob", "ship": 0, "to": [3, 0], "piece": "city"}) == "game-over"


def test_game_ends_when_every_piece_is_placed():
    g = game(ROW, pieces={"cities": 1, "trade_stations": 0})
    move(g, "Ann", (1, 0))
    assert not g.state.finished
    move(g, "Bob", (7, 0))
    assert g.state.finished and "every City and Trade Station" in g.state.end_reason


def test_illegal_action_changes_nothing_and_undo_restores():
    g = game(ROW)
    before = g.to_record()
    with pytest.raises(IllegalAction):
        g.push({"player": "Ann", "ship": 0, "to": [8, 0], "piece": "city"})
    assert g.to_record() == before
    move(g, "Ann", (4, 0))
    move(g, "Bob", (5, 0))
    assert g.pop()["player"] == "Bob"
    assert g.current == "Bob" and (5, 0) not in g.state.colonies
    assert g.state.players["Bob"].cities == 16
    assert g.pop()["player"] == "Ann"
    assert g.to_record() == before
    assert g.state.players["Ann"].vp == 0
    move(g, "Ann", (2, 0))
    assert SseGame.from_record(g.to_record()).state.colonies == g.state.colonies


def test_check_is_a_query():
    g = game(ROW)
    norm = g.check({"player": "Ann", "ship": 0, "to": [2, 0], "piece": "city"})
    assert norm["from"] == [0, 0] and not g.actions and not g.state.colonies
    assert g.is_legal({"player": "Ann", "ship": 0, "to": [2, 0], "piece": "city"})
    assert "opponent-system" in g.why_illegal({"player": "Ann", "ship": 0, "to": [8, 0],
                                                "piece": "city"})
