"""Issue 52, Small Star Empires: the sentence reader reads what a table says (counts,
the page's directions, ships and places as players name them, contractions, misheard
names) and never stages a wrong action.  Sentences of this file's own wording, at the
positions of tests/data/sentences/sse.yaml (the map is drawn there: Ann's homeworld 2,2,
Ben's 4,4).

The book: "Move one of you ships and then colonize the system you have moved into"; a
ship moves "as many spaces as you want but only in a straight line" in "any one of the
six directions of the hexagon".  The page's hexes (docs/small-star-empires.md): E right,
W left, NE up-right, NW up-left, SE down-right, SW down-left."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from companion.core.errors import CompanionError, IllegalAction
from companion.core.notation import IncompleteNotation, NotationError

sys.path.insert(0, str(Path(__file__).parent))
import sentencekit  # noqa: E402


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


def staged(at: str, say: str) -> str:
    """The notation the sentence stages at ``at``; the game unchanged."""
    g = sentencekit.position("sse", at)
    before = copy.deepcopy(g.actions)
    got = g.parse(say)
    assert g.actions == before
    return str(got)


def same(at: str, say: str, notation: str) -> None:
    g = sentencekit.position("sse", at)
    assert staged(at, say) == str(g.parse(notation)), say


def refused(at: str, say: str) -> CompanionError:
    g = sentencekit.position("sse", at)
    before = copy.deepcopy(g.actions)
    with pytest.raises(CompanionError) as e:
        g.parse(say)
    assert g.actions == before
    assert "\n" not in str(e.value).strip()
    return e.value


# 1. counts versus coordinates ------------------------------------------------------
@pytest.mark.parametrize("at,say,notation", [
    ("solo", "fly one hex to the east, city", "Ann move #0 2,2->3,2 line city"),
    ("solo", "two jumps to the right and a trade station",
     "Ann move #0 2,2->4,2 line trade_station"),
    ("solo", "won space to the west with a city", "Ann move #0 2,2->1,2 line city"),
    ("ben", "three to the left, city", "Ben move #0 4,4->1,4 line city"),
    ("solo", "a single system down and to the left, city", "Ann move #0 2,2->1,3 line city"),
    ("solo", "an hex up left, city", "Ann move #0 2,2->2,1 line city"),
    ("solo", "2 tiles down-right, trade station", "Ann move #0 2,2->2,4 line trade_station"),
    # issue 52: "one to" was read as the hex 1,2 ("to" as two)
    ("mid", "ship zero hops one to the east, trade station",
     "Ann move #0 3,1->4,1 line trade_station"),
    # a count after "ship" when the player has no such ship: "the ship two west"
    ("solo", "send the ship two to the west, city", "Ann move #0 2,2->0,2 line city"),
])
def test_a_number_before_a_distance_or_a_direction_is_a_count(at, say, notation):
    same(at, say, notation)


# 2. directions in the page's words and in compass words ----------------------------
@pytest.mark.parametrize("way,to", [
    ("right", "3,2"), ("to the right", "3,2"), ("east", "3,2"), ("on the east", "3,2"),
    ("left", "1,2"), ("towards the west", "1,2"),
    ("up right", "3,1"), ("up-right", "3,1"), ("up and to the right", "3,1"),
    ("upper right", "3,1"), ("north east", "3,1"), ("north-east", "3,1"),
    ("northeast", "3,1"), ("NE", "3,1"),
    ("up left", "2,1"), ("up to the left", "2,1"), ("north west", "2,1"),
    ("down right", "2,3"), ("lower right", "2,3"), ("south-east", "2,3"),
    ("down left", "1,3"), ("down and left", "1,3"), ("southwest", "1,3"),
])
def test_the_six_directions_as_the_page_and_the_compass_say_them(way, to):
    same("solo", f"one step {way}, city", f"Ann move #0 2,2->{to} line city")


@pytest.mark.parametrize("say", ["one step up, city", "fly two down, city",
                                 "go north one, city", "south two, city"])
def test_up_down_north_or_south_alone_name_no_hex_direction(say):
    assert isinstance(refused("solo", say), NotationError)


# 3. the ship as players name it -----------------------------------------------------
@pytest.mark.parametrize("at,say,notation", [
    ("mid", "ship number two goes one step right, city", "Ann move #2 2,2->3,2 line city"),
    ("mid", "Ann's ship two one space right, city", "Ann move #2 2,2->3,2 line city"),
    ("solo", "my ship flies one to the left, city", "Ann move #0 2,2->1,2 line city"),
    ("solo", "her only ship goes one right, city", "Ann move #0 2,2->3,2 line city"),
    ("mid", "the ship on my homeworld moves one hex left, city",
     "Ann move #2 2,2->1,2 line city"),
    ("mid", "the ship that's still at home goes one right, trade station",
     "Ann move #2 2,2->3,2 line trade_station"),
    ("mid", "the home ship one step down right, city", "Ann move #2 2,2->2,3 line city"),
    ("damaged", "the damaged ship limps back home to be fixed", "Ann move #0 2,1->2,2 line"),
    ("mid", "move the ship sitting on my three planet system one right, trade station",
     "Ann move #0 3,1->4,1 line trade_station"),
    ("mid", "the ship on the green one goes one down right, city",
     "Ann move #1 0,2->0,3 line city"),
    ("mid_ben", "the ship standing on Ben's city goes two up left, trade station",
     "Ben move #1 5,3->5,1 line trade_station"),
])
def test_the_ship_named_by_number_owner_or_place(at, say, notation):
    same(at, say, notation)


# 4. places described ----------------------------------------------------------------
@pytest.mark.parametrize("at,say,notation", [
    ("solo", "all the way to the right, city", "Ann move #0 2,2->5,2 line city"),
    ("solo", "all the way down left, city", "Ann move #0 2,2->0,4 line city"),
    ("solo", "to the end of the line on the right, city", "Ann move #0 2,2->5,2 line city"),
    ("solo", "a trade station on the furthest blue nebula",
     "Ann move #0 2,2->5,2 line trade_station"),
    ("solo", "a trade station on the closest blue nebula",
     "Ann move #0 2,2->2,1 line trade_station"),
    ("mid", "my first one goes one step right, trade station",
     "Ann move #0 3,1->4,1 line trade_station"),
    ("solo", "all the way west to the green nebula, city", "Ann move #0 2,2->0,2 line city"),
    ("solo", "a trade station on the empty system right east of my homeworld",
     "Ann move #0 2,2->3,2 line trade_station"),
    ("solo", "city on the blue nebula next to my homeworld", "Ann move #0 2,2->2,1 line city"),
    ("ben", "Ben takes the one planet system to the upper right of his homeworld, city",
     "Ben move #0 4,4->5,3 line city"),
    ("ben", "Ben goes to the planet system up right of him, city",
     "Ben move #0 4,4->5,3 line city"),
    ("mid", "ship zero to the empty system next to it, on the right, trade station",
     "Ann move #0 3,1->4,1 line trade_station"),
    ("worm", "past the wormhole to the empty system, city", "Ann move #0 1,0->3,0 line city"),
    ("worm", "Ann flies through the wormhole to the empty one at one three, city",
     "Ann move #0 1,0->1,3 wormhole city"),
    # next to a system described: the one system of that kind beside it
    ("mid", "ship one settles the red nebula beside Ann's green nebula with a city",
     "Ann move #1 0,2->0,3 line city"),
    ("worm", "jump through the wormhole to the blue nebula beside the far end, city",
     "Ann move #0 1,0->3,3 wormhole city"),
    ("solo", "the lone planet system two to the right, trade station",
     "Ann move #0 2,2->4,2 line trade_station"),
    # a direction from a system described: "right of her three planet system"
    ("mid", "ship zero to the empty system right of her three planet system, trade station",
     "Ann move #0 3,1->4,1 line trade_station"),
])
def test_a_place_described_that_gives_one_hex(at, say, notation):
    same(at, say, notation)


@pytest.mark.parametrize("at,say", [
    ("solo", "city on the empty system next to my homeworld"),   # 1,3 or 3,2
    ("solo", "city on the two planet system next to my homeworld"),  # 1,2 or 2,3
    ("worm", "through the wormhole to the system next to the far end"),  # 1,3 or 3,3
    ("solo", "trade station on the closest empty system"),     # 1,3 and 3,2: one step each
    ("solo", "ship zero to the empty system east of the blue nebula, city"),  # 4,1 or 4,3
])
def test_a_place_that_fits_two_hexes_is_asked(at, say):
    assert isinstance(refused(at, say), IncompleteNotation)


# 5. never a wrong action ------------------------------------------------------------
@pytest.mark.parametrize("at,say", [
    ("solo", "two to the right to 3 2, city"),          # 3,2 is one step right
    ("solo", "east to 1 2, city"),                      # 1,2 is west
    ("solo", "fly up to 1 3, city"),                    # 1,3 is below
    ("solo", "a single step to 4 2, city"),             # 4,2 is two steps
    ("mid", "ship two all the way to the right to 3 2, city"),  # the line ends at 5,2
    ("solo", "city on the far blue nebula at 2 1"),     # the far one is 5,2
    ("mid", "ship zero to the blue nebula through the wormhole, city"),  # no wormhole here
    ("solo", "one to the east to two, city"),           # "to two" is no hex
    ("solo", "go right one step and then up, city"),    # two ways
    ("solo", "all the way to the right to 4 2, city"),
])
def test_a_direction_count_or_way_said_must_agree_with_the_hex(at, say):
    e = refused(at, say)
    assert not (isinstance(e, IncompleteNotation) and e.missing in ("piece", "ship")), str(e)


@pytest.mark.parametrize("at,say", [
    ("mid", "ship zero through the wormhole one step east"),         # no piece said
    ("mid", "ship two goes through the wormhole to 3 2"),
    ("mid", "ship zero to the blue nebula through the wormhole"),
])
def test_the_way_is_checked_before_the_piece_is_asked(at, say):
    e = refused(at, say)                # no wormhole on this map
    assert not (isinstance(e, IncompleteNotation) and e.missing == "piece"), str(e)
    assert isinstance(e, IllegalAction) and e.rule == "wormhole" or (
        isinstance(e, IncompleteNotation) and e.missing == "to" and not e.options), str(e)


def test_one_to_the_east_is_never_the_hex_one_two():
    assert staged("solo", "one to the east, city") == str(
        sentencekit.position("sse", "solo").parse("Ann move #0 2,2->3,2 line city"))


# 7. another player's turn is said first -----------------------------------------------
@pytest.mark.parametrize("say", ["Ben: the ship on the red nebula goes left, city",
                                 "Ben: city on the blue nebula",
                                 "Ben moves the damaged ship home"])
def test_another_players_turn_is_said_before_any_question(say):
    e = refused("mid", say)
    assert isinstance(e, IllegalAction) and e.rule == "wrong-player", str(e)


# 8. contractions and fillers --------------------------------------------------------
@pytest.mark.parametrize("at,say,notation", [
    ("solo", "ok so I'm gonna send my ship one space right, city please",
     "Ann move #0 2,2->3,2 line city"),
    ("solo", "I'll just put down a trade station there, one hex to the left",
     "Ann move #0 2,2->1,2 line trade_station"),
    ("solo", "Ann's putting down a city one hex up right", "Ann move #0 2,2->3,1 line city"),
    ("solo", "go one right and colonize it with a trade station",
     "Ann move #0 2,2->3,2 line trade_station"),
    ("solo", "Ann's turn: east by two, city", "Ann move #0 2,2->4,2 line city"),
    ("solo", "2 steps diagonally right and up, city", "Ann move #0 2,2->4,0 line city"),
    ("solo", "1 hex W, trade station", "Ann move #0 2,2->1,2 line trade_station"),
    ("mid_ben", "Ben: ship one goes up left twice, trade station",
     "Ben move #1 5,3->5,1 line trade_station"),
    ("solo", "I'll fly one ship to my left, two spaces, city", "Ann move #0 2,2->0,2 line city"),
    ("damaged", "the broken ship goes home for repairs", "Ann move #0 2,1->2,2 line"),
    # dictation: "to"/"too"/"for" before a distance noun is a count; "blew" is blue
    ("solo", "move too spaces eastward and set up a trade station",
     "Ann move #0 2,2->4,2 line trade_station"),
    ("solo", "Ann establishes a city on the blew nebula up left", "Ann move #0 2,2->2,1 line city"),
])
def test_contractions_and_fillers(at, say, notation):
    same(at, say, notation)


# 9. misheard names --------------------------------------------------------------------
@pytest.mark.parametrize("at,say,notation", [
    ("ben", "Benn flies one to the left, city", "Ben move #0 4,4->3,4 line city"),
    ("ben", "Been's ship one step left, city", "Ben move #0 4,4->3,4 line city"),
    ("solo", "Anne goes one step right, city", "Ann move #0 2,2->3,2 line city"),
    ("solo", "Anna's ship one step right, city", "Ann move #0 2,2->3,2 line city"),
])
def test_player_names_as_dictation_misspells_them(at, say, notation):
    same(at, say, notation)


def test_a_misheard_name_of_the_other_player_is_not_read_as_the_one_to_play():
    e = refused("solo", "Been moves one step right, city")
    assert isinstance(e, IllegalAction) and e.rule == "wrong-player"


# 6. no question whose answers are the same (both the sentence and the notation) -------
@pytest.mark.parametrize("say,notation", [
    ("city at 3 2", "Ann move #0 2,2->3,2 line city"),
    ("I'm sending a ship two spaces to the left, city", "Ann move #0 2,2->0,2 line city"),
    ("Ann flies one step up right and drops a trade station",
     "Ann move #0 2,2->3,1 line trade_station"),
])
def test_ships_on_one_system_give_one_move_the_lowest_numbered(say, notation):
    same("first", say, notation)


def test_ships_on_different_systems_are_still_asked_about():
    e = refused("mid", "one step to the right, city")     # #0 at 3,1 and #2 at 2,2
    assert isinstance(e, IncompleteNotation) and e.missing in ("ship", "to"), str(e)


@pytest.mark.parametrize("say,page", [
    ("city on the blue nebula", "Ben"),                 # Ann to play; Ben's seat page
    ("the ship on the red nebula goes one left, city", "Ben"),
    ("Ben: one step right, city", "Ann"),               # Ann's page names Ben
])
def test_a_seat_pages_player_on_another_turn_is_told_first(say, page):
    from companion.sse import spoken
    g = sentencekit.position("sse", "mid")
    with pytest.raises(IllegalAction) as e:
        spoken.read_sentence(g, say, player=page)
    assert e.value.rule == "wrong-player", str(e.value)


def test_a_seat_pages_player_on_their_turn_is_the_one_who_acts():
    from companion.sse import spoken
    from companion.sse.incontext import complete
    g = sentencekit.position("sse", "mid")
    got = complete(g, spoken.read_sentence(g, "ship two one step right, city", player="Ann"))
    assert str(got) == str(g.parse("Ann move #2 2,2->3,2 line city"))


@pytest.mark.parametrize("at,say,notation", [
    # "until the end of the row": as far as the line goes
    ("solo", "Ann heads east until the end of the line, city", "Ann move #0 2,2->5,2 line city"),
    # "east, one planet": a system described, not a second distance
    ("solo", "east, one planet system, city", None),
    # "across the wormhole" passes over it in a line ("through" is the jump)
    ("worm", "fly two systems east across the wormhole with a trade station",
     "Ann move #0 1,0->3,0 line trade_station"),
])
def test_the_end_of_the_line_a_system_described_and_passing_a_wormhole(at, say, notation):
    if notation is None:
        g = sentencekit.position("sse", at)
        got = g.parse(say).to_dict()            # the one 1-planet system east
        assert got["piece"] == "city" and g.state.map.get(tuple(got["to"])).planets == 1
        return
    same(at, say, notation)


def test_a_ship_is_damaged_on_any_turn_as_a_table_says_it():
    """Damaged Ships: a ship is damaged whoever's turn it is (the damage takes no turn):
    "takes damage" / "takes a hit" / "mark ... as damaged" are the damage, not a move."""
    g = sentencekit.position("sse", "damaged")
    for say in ("Ben's ship zero takes a hit", "mark Ben's ship zero as damaged"):
        got = g.parse(say).to_dict()
        assert (got["do"], got["player"], got["ship"]) == ("damage", "Ben", 0), say


def test_a_count_then_a_systems_planets_is_no_hex():
    """Issue 52: "down-right two, one planet" was read as the hex 2,1 (a count and the
    planets of the system, with the comma lost): a count, then the system described."""
    g = sentencekit.position("sse", "mid")
    got = g.parse("ship two, down-right two, one planet, city").to_dict()
    assert (got["ship"], got["to"]) == (2, [2, 4])
    assert g.parse("ship two, up left two, one planet, city").to_dict()["to"] != [2, 1]


def test_a_damage_said_with_where_the_ship_stands():
    g = sentencekit.position("sse", "damaged")
    got = g.parse("Ann's ship one takes a hit at home").to_dict()
    assert (got["do"], got["ship"], got["from"]) == ("damage", 1, [2, 2])


@pytest.mark.parametrize("at,say,notation", [
    # "next door to the east": one step east; the ship said by what it flies with
    ("first", "ship 0 goes next door to the east, city", "Ann move #0 2,2->3,2 line city"),
    ("first", "city on the blue nebula, one step up-left, using ship zero",
     "Ann move #0 2,2->2,1 line city"),
    ("ben", "city on the empty system next door to the west, that's Ben",
     "Ben move #0 4,4->3,4 line city"),
    # the ship by the system it stands on, said before "ship" or after "from"
    ("mid", "the green nebula ship goes one down right, city", "Ann move #1 0,2->0,3 line city"),
    ("mid", "from the three planet system three to the west, one planet system, city, ship 0",
     "Ann move #0 3,1->0,1 line city"),
    # after dev6: the piece said again with its verb, German words, the end of a row
    ("first", "ok so Ann's sending ship zero one hex to the left, and she drops a city there",
     "Ann move #0 2,2->1,2 line city"),
    ("first", "Ich fly ship null one to the east, city", "Ann move #0 2,2->3,2 line city"),
    ("solo", "city at the blue nebula above-left of home", "Ann move #0 2,2->2,1 line city"),
    ("damaged", "Ben's ship zero is damaged, it's on his city", "Ben damage #0 @4,3"),
    ("ben", "Ben goes to the west end of the bottom row, trade station",
     "Ben move #0 4,4->0,4 line trade_station"),
])
def test_next_door_a_ship_by_its_system_and_the_end_of_a_row(at, say, notation):
    same(at, say, notation)


def test_a_damage_said_with_the_system_the_ship_stands_on():
    """Damaged Ships: the ship is damaged where it stands; the system said with it must
    be that one ("on his city"), else refused."""
    for say in ("Ben's ship zero is damaged where it sits, put the marker on it",
                "Ben's ship zero is damaged on his city"):
        same("damaged", say, "Ben damage #0 @4,3")
    assert "no ship of Ben is on a blue nebula" in str(
        refused("damaged", "Ben's ship zero is damaged on the blue nebula"))


def test_a_corner_of_the_map_is_its_top_or_bottom_rows_end():
    """"the top right corner": of the map's top row, the rightmost system; the system
    described and the straight line must still agree (the book: a ship moves "only in a
    straight line")."""
    same("mid_ben", "ben ship one goes to the empty system in the top right corner, trade station",
         "Ben move #1 5,3->5,0 line trade_station")
    assert "not in a straight line" in str(refused("mid_ben", "ben ship one to the top left corner, city"))
    same("damaged", "damage Ann's ship one, the one on her homeworld", "Ann damage #1 @2,2")


def test_too_after_a_direction_is_two_only_before_a_count_s_word():
    """"down left too to the ..." is a count misheard; "goes down right too" may be
    "also": not understood, so refused."""
    assert isinstance(refused("solo", "ann goes down right too, city"), NotationError)
