"""Issue 40, "Hands-free": a Small Star Empires sentence read as a player says it
(companion/sse/spoken.py), through ``SseGame.parse``.  Each rule of understanding is
tested on the corpus's positions (tests/data/sentences/sse.yaml: small test maps, never
the shipped tiles' systems), with the rulebook's sentence it follows; reading changes
nothing; every expected line of the corpus is itself legal notation."""
from __future__ import annotations

import copy
import json

import pytest

import sentencekit
from companion.core.errors import IllegalAction
from companion.core.notation import IncompleteNotation, NotationError
from companion.sse import actions
from companion.sse.spoken import read_sentence


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


def at(name: str):
    return sentencekit.position("sse", name)


def said(name: str, text: str) -> str:
    return str(at(name).parse(text))


def refused(name: str, text: str) -> Exception:
    g = at(name)
    with pytest.raises((NotationError, IllegalAction)) as e:
        g.parse(text)
    return e.value


# -- the shape: the notation's partial action ------------------------------------------
def test_a_sentence_gives_the_partial_action_a_line_of_notation_gives():
    g = at("first")
    for sentence, line in [("ship one to 3 2 city", "#1 ->3,2 city"),
                           ("Ann: ship zero to three two, trade station",
                            "Ann #0 ->3,2 trade_station"),
                           # both ships on the homeworld: the same move, ship 0
                           # (issue 52: no question whose answers are the same)
                           ("the ship at 2 2 to 3 2 in a line", "#0 @2,2 ->3,2 line"),
                           ("damage ship one", "damage #1")]:
        d = read_sentence(g, sentence)
        want = actions.parse(line, who_optional=True).to_dict()
        assert d == want and list(d) == list(want), sentence


# -- the player --------------------------------------------------------------------------
def test_the_player_is_a_leading_name_or_whose_turn_it_is():
    # S Gameplay: "Small Star Empires is played over a series of turns"
    assert said("ben", "Ben: city at 5 4") == "Ben move #0 4,4->5,4 line city"
    assert said("ben", "Ben moves east one, city") == "Ben move #0 4,4->5,4 line city"
    assert said("ben", "Benn: city at 5 4") == "Ben move #0 4,4->5,4 line city"   # misheard
    assert said("ben", "city at 5 4") == "Ben move #0 4,4->5,4 line city"         # left out
    assert refused("ben", "Ann: city at 3 2").rule == "wrong-player"
    assert "no player called" in str(refused("ben", "Carl: city at 5 4"))


# -- the kind and the piece ---------------------------------------------------------------
def test_a_move_colonises_with_a_city_or_a_trade_station():
    # S Colonize: "you MUST COLONIZE the system your ship has moved into by placing either a
    # City or a Trade Station from your reserves"
    assert said("solo", "city at 3 1") == "Ann move #0 2,2->3,1 line city"
    assert said("solo", "trade station at 3 1") == "Ann move #0 2,2->3,1 line trade_station"
    assert said("solo", "tradestation at 3 1") == "Ann move #0 2,2->3,1 line trade_station"
    assert read_sentence(at("solo"), "move to 3 1, nothing")["piece"] is None
    # "colonize" / "colony" is the act, not a piece: never a guess between the two
    e = refused("solo", "colonize three one")
    assert isinstance(e, IncompleteNotation) and e.missing == "piece"
    assert set(e.options) == {"city", "trade_station"}
    assert isinstance(refused("solo", "city and trade station at 3 2"), NotationError)


def test_damage_and_repair():
    # S Damaged Ships: "When a ship gets damaged, simply turn it horizontally on the board."
    for s in ("damage ship one", "ship one is damaged", "ship one got damaged", "damage"):
        assert said("damaged", s) == "Ann damage #1 @2,2", s
    # "Damaged Ships can enter their owner's Homeworld System for repairs" ... "This is
    # the only case when you don't need to colonize a system after moving your ship."
    for s in ("move my damaged ship home and repair it", "home", "repair the damaged ship",
              "ship zero goes home, no piece"):
        assert said("damaged", s) == "Ann move #0 2,1->2,2 line", s
    assert refused("damaged", "ship zero home with a city").rule == "repair"
    assert refused("damaged", "damage ship zero").rule == "damaged"
    e = refused("damaged", "damage ship one at 3 2")          # where it stands: it is at 2 2
    assert isinstance(e, IllegalAction) and e.rule == "no-ship"


# -- the ship -----------------------------------------------------------------------------
def test_the_ship_by_number_ordinal_place_or_damage():
    # S Move one ship: "You must choose one of your ship on the board to move it"
    assert said("first", "ship one east one city") == "Ann move #1 2,2->3,2 line city"
    assert said("first", "ship #1 east one city") == "Ann move #1 2,2->3,2 line city"
    assert said("first", "my second ship east one city") == "Ann move #1 2,2->3,2 line city"
    assert said("mid", "the ship at 3 1 to 4 1 city") == "Ann move #0 3,1->4,1 line city"
    assert said("mid", "from home to two three, city") == "Ann move #2 2,2->2,3 line city"
    assert said("damaged", "damaged ship to 3 1 city") == "Ann move #0 2,1->3,1 line city"
    assert said("damaged", "my undamaged ship to 3 2 city") == "Ann move #1 2,2->3,2 line city"
    # issue 52: both ships stand on the homeworld, undamaged: either gives the same move,
    # so the line takes ship 0 instead of asking; ships apart are asked
    assert said("first", "city at 3 2") == "Ann move #0 2,2->3,2 line city"
    e = refused("mid", "city two systems east")
    assert isinstance(e, IncompleteNotation) and e.missing in ("to", "ship")
    assert refused("solo", "ship five city at 3 2").rule == "no-ship"
    assert "no damaged ship" in str(refused("mid", "move the damaged ship home"))


# -- the destination ----------------------------------------------------------------------
def test_a_hex_said_in_numbers_or_words():
    for s in ("city at 3 1", "city at three one", "City at 3, 1.", "city at three comma one",
              "move to 3 1 and build a city", "3 1 city"):
        assert said("solo", s) == "Ann move #0 2,2->3,1 line city", s
    assert read_sentence(at("first"), "ship one to one minus one city")["to"] == [1, -1]
    assert read_sentence(at("first"), "ship one to 1 -1 city")["to"] == [1, -1]
    assert refused("solo", "city at 6 2").rule == "off-map"


def test_a_destination_by_what_lies_there_among_the_legal_ones():
    # S Game Elements: "There are three Nebula Systems of each color: Red, Blue and Green."
    assert said("solo", "city on the green nebula") == "Ann move #0 2,2->0,2 line city"
    assert said("mid", "ship 1 to the red nebula, city") == "Ann move #1 0,2->0,3 line city"
    assert said("solo", "city on the three planet system north east") == \
        "Ann move #0 2,2->3,1 line city"
    assert said("mid_ben", "trade station to the red nebula") == \
        "Ben move #1 5,3->5,1 line trade_station"
    e = refused("solo", "city to the blue nebula")           # two in reach: never a guess
    assert isinstance(e, IncompleteNotation) and e.missing == "to"
    assert sorted(e.options) == [(2, 1), (5, 2)]
    e = refused("mid", "city on the red nebula")             # one for each of two ships
    assert e.missing == "to" and sorted(e.options) == [(0, 3), (5, 1)]
    assert refused("solo", "city to the red nebula").missing == "to"   # none in reach
    assert isinstance(refused("solo", "city on the blue planet"), NotationError)
    # S Movement, your ship CANNOT: "MOVE INTO a system you have already colonized"
    assert refused("mid", "move ship two to the green nebula, city").rule == "own-system"


def test_a_destination_by_direction_and_distance():
    # S Move one ship: "You can move your ships in any one of the six directions of the
    # hexagon during your turn. However, your ships cannot change directions"
    for s in ("city two north east", "city north-east two", "city northeast 2",
              "move two spaces north east and build a city", "city ne two"):
        assert said("solo", s) == "Ann move #0 2,2->4,0 line city", s
    assert refused("solo", "city north east").missing == "to"
    assert isinstance(refused("solo", "city north"), NotationError)   # no such line
    # "Damaged Ships have limited movement of 2 systems in any one direction"
    assert refused("damaged", "damaged ship east three city").rule == "damaged-reach"


def test_the_way_through_the_wormhole_or_in_a_line():
    # S Wormhole: "you can move a ship between systems that are adjacent to Wormhole Systems"
    assert said("worm", "city on the blue nebula through the wormhole") == \
        "Ann move #0 1,0->3,3 wormhole city"
    assert said("worm", "through the wormhole to the empty system, trade station") == \
        "Ann move #0 1,0->1,3 wormhole trade_station"
    assert said("worm", "city on the empty system in a straight line") == \
        "Ann move #0 1,0->3,0 line city"
    # S Movement, your ship CANNOT: "MOVE INTO a Wormhole System"
    assert refused("worm", "city on the wormhole").rule == "wormhole-end"


# -- dictation ----------------------------------------------------------------------------
def test_filler_words_and_a_misheard_letter():
    assert said("solo", "uh ok so I'll move to 3 1 and put down a city please") == \
        "Ann move #0 2,2->3,1 line city"
    assert said("mid", "ship one to the read nebula with a city") == \
        "Ann move #1 0,2->0,3 line city"
    assert said("solo", "city on the plant north west") == "Ann move #0 2,2->2,0 line city"


def test_a_word_that_could_change_the_meaning_is_refused():
    for s in ("city at 3 2 or 4 2", "not a city, a trade station at 3 2", "blah blah blah",
              "<script>alert(1)</script>", "=HYPERLINK(\"http://x\",\"city\")", "", "  ",
              "city at 3", "undo"):    # "the far blue nebula": read since issue 52
        e = refused("solo", s)
        assert isinstance(e, NotationError) and not isinstance(e, IncompleteNotation), s
        assert "\n" not in str(e)


def test_the_error_fits_what_was_typed():
    g = at("solo")
    with pytest.raises(NotationError) as e:
        g.parse("Ann move #x")              # notation: the notation's message
    assert "a ship is # and its number" in str(e.value)
    with pytest.raises(NotationError) as e:
        g.parse("Ann flies to the moon")    # a sentence: the sentence's message
    assert "sentence" in str(e.value) and "moon" in str(e.value)
    # a line of notation reads as before, IncompleteNotation included
    assert str(g.parse("#0 ->3,1 city")) == "Ann move #0 2,2->3,1 line city"
    with pytest.raises(IncompleteNotation) as e2:
        g.parse("->3,1")
    assert e2.value.missing == "piece"


# -- nothing changes; the corpus is right -------------------------------------------------
def test_reading_changes_nothing():
    for name in ("solo", "mid", "damaged", "worm"):
        g = at(name)
        before = (copy.deepcopy(g.actions), json.dumps(g.to_record(), sort_keys=True))
        for s in ("city on the red nebula", "damage ship one", "home", "city at 3 2",
                  "ship zero home with a city", "<script>alert(1)</script>"):
            try:
                g.parse(s)
            except (NotationError, IllegalAction):
                pass
        assert (g.actions, json.dumps(g.to_record(), sort_keys=True)) == before


def test_every_expected_line_of_the_corpus_is_legal_notation():
    corpus = sentencekit.load("sse")
    cases = [c for c in corpus["cases"] if "expect" in c]
    assert len(corpus["cases"]) >= 150 and len(cases) >= 100
    for c in cases:
        g = at(c["at"])
        value = actions.parse(c["expect"])                 # notation, not a sentence
        assert g.parse(c["expect"]) == value, c
        g.check(value)
        assert value.player == g.state.current


def test_the_corpus_reads_right():
    outcomes = sentencekit.run("sse")
    assert not [o for o in outcomes if o.verdict == "WRONG"]
    assert sum(o.verdict == "right" for o in outcomes) / len(outcomes) >= 0.97
