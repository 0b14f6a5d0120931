"""Issue 52: the Among the Stars line of entry reads what a table says (contractions,
the verbs players use, sides and counts of cells, names and cards misheard by sound, a
location named by a word of its name), and never turns a doubt into an action.

Sentences written for this test (not taken from any corpus), read at the first corpus's
positions (tests/data/sentences/ats.yaml; its cards are INVENTED, see
tests/test_spoken_ats.py).  Each clear sentence must give the very action its line of
notation gives; each doubtful one is asked or refused, and reading changes nothing."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.core import spoken as sp
from companion.core.errors import CompanionError, IllegalAction
from companion.core.notation import IncompleteNotation

sys.path.insert(0, str(Path(__file__).parent))
import sentencekit  # noqa: E402

CLEAR = [
    # contractions and talk around the action
    ("ben", "okay I'm gonna lay down the comet kiln just below my main reactor",
     'Ben build "Comet Kiln" @1,0'),
    ("ben", "my turn: I'll go with the quartz garden to the left", 'Ben build "Quartz Garden" @0,-1'),
    # B 4.1 "Build a Location": the verbs players use for it
    ("ben", "Ben puts down comet kilt on top", 'Ben build "Comet Kilt" @-1,0'),
    ("ben", "plays the comet kiln west of the main reactor", 'Ben build "Comet Kiln" @0,-1'),
    ("start", "Ben is laying the comet kilt underneath", 'Ben build "Comet Kilt" @1,0'),
    ("ben", "the comet kiln goes under the main reactor, face up", 'Ben build "Comet Kiln" @1,0'),
    # a side said alone is the side of the main reactor, the station's only location at
    # first (B: "At the beginning of the game, the only location in your Station is the
    # Main Reactor, so any Location Card you build must be adjacent to it")
    ("ben", "comet kiln south", 'Ben build "Comet Kiln" @1,0'),
    ("ben", "quartz garden, up top", 'Ben build "Quartz Garden" @-1,0'),
    # counts of cells
    ("later", "comet kiln two spaces under the main reactor", 'Ana build "Comet Kiln" @2,0'),
    ("later", "Ana places comet kilt one step to the right of the top garden",
     'Ana build "Comet Kilt" @-1,1'),
    ("later", "comet kilt one down from the bakery", 'Ana build "Comet Kilt" @1,-1'),
    # digits glued as dictation writes them
    ("ben", "comet kiln at 10", 'Ben build "Comet Kiln" @1,0'),
    # B 4.3 "Discard and Gain 3 Credits"
    ("ben", "Ben sells off the comet kiln", 'Ben discard "Comet Kiln"'),
    ("ben", "get rid of the bio lab", 'Ben discard "Bio Lab"'),
    ("ben", "I'll cash in the orbital bakery for the three credits", 'Ben discard "Orbital Bakery"'),
    ("ben", "Ben takes 3 credits for the quartz garden", 'Ben discard "Quartz Garden"'),
    ("ben", "ben dumps comet kilt and takes the cash", 'Ben discard "Comet Kilt"'),
    # B 4.2 "Build Power Reactor": the card given up
    ("ben", "Ben uses the bio lab to build a power reactor on the left",
     'Ben reactor "Bio Lab" @0,-1'),
    ("ben", "reactor below the main one, giving up the comet kiln", 'Ben reactor "Comet Kiln" @1,0'),
    ("ben", "turn the orbital bakery into a reactor up top", 'Ben reactor "Orbital Bakery" @-1,0'),
    ("ben", "comet kiln face down as a reactor on the right", 'Ben reactor "Comet Kiln" @0,1'),
    # names and cards as dictation spells them (same sound)
    ("start", "Benn builds the comet kiln below his main reactor", 'Ben build "Comet Kiln" @1,0'),
    ("start", "Anna discards the alien bizarre", 'Ana discard "Alien Bazaar"'),
    ("typed", "Ben lays down the drift markit right of the main reactor",
     'Ben build "Drift Market" @0,1'),
    # a location named by a word of its name, energy from the one named before
    ("later", "orbital bakery at 1 1, energy from the main reactor", 'Ana build "Orbital Bakery" @1,1 e[0,0]'),
    ("ben", "bio lab under the reactor, both cubes from it", 'Ben build "Bio Lab" @1,0 e[0,0;0,0]'),
    # split verbs and more of the verbs players use
    ("ben", "Ben lays the comet kilt down on his left", 'Ben build "Comet Kilt" @0,-1'),
    ("ben", "throw the orbital bakery away", 'Ben discard "Orbital Bakery"'),
    ("ben", "Ben grabs the comet kiln and sticks it directly north", 'Ben build "Comet Kiln" @-1,0'),
    ("ben", "swap the bio lab for a power reactor on the right hand side",
     'Ben reactor "Bio Lab" @0,1'),
    ("ben", "ben recycles comet kilt", 'Ben discard "Comet Kilt"'),
    # between two locations: the one free cell beside both
    ("later", "comet kiln in the gap between the bakery and the power reactor",
     'Ana build "Comet Kiln" @1,-1'),
    # a card by the starts of its words; a player by sound (c/k)
    ("later", "comet kilt between the two quartz gardens", 'Ana build "Comet Kilt" @-1,1'),
    ("start", "Ana: holo display one row up", 'Ana build "Holographic Display Area" @-1,0 e[0,0]'),
    ("later", "the holo display at 2,0 with a cube from the new reactor",
     'Ana build "Holographic Display Area" @2,0 e[1,0]'),
    # the place said first, the card after it; the cell said first; a player named last
    ("ben", "left of the main reactor, the comet kilt", 'Ben build "Comet Kilt" @0,-1'),
    ("ben", "to the east Ben lays down an orbital bakery", 'Ben build "Orbital Bakery" @0,1 e[0,0]'),
    ("ben", "one zero, comet kiln", 'Ben build "Comet Kiln" @1,0'),
    ("ben", "the comet kiln goes on the right, says Ben", 'Ben build "Comet Kiln" @0,1'),
    ("ben", "ben bild the comet kiln lefft of main", 'Ben build "Comet Kiln" @0,-1'),
    # R 4: the advisor's bonus declined for 1 VP
    ("advisors", "Ana says no thanks to the builders bonus", 'Ana advisor "Builders" decline'),
    ("advisors", "Ben takes the point instead of the traders ability", 'Ben advisor "Traders" decline'),
    ("advisors", "Ana goes with the builders advisor", 'Ana advisor "Builders" bonus'),
    ("advisors", "ben refuses traders and scores the point", 'Ben advisor "Traders" decline'),
    # after dev5: talk around the action, the player named last as a table says it
    ("start", "umm yeah Ana's gonna go ahead and put the comet kiln, like, right below her "
     "main reactor", 'Ana build "Comet Kiln" @1,0'),
    ("ben", "comet kilt, one cell to the left, that's Ben's", 'Ben build "Comet Kilt" @0,-1'),
    ("start", "quartz garden north of the main reactor anah", 'Ana build "Quartz Garden" @-1,0'),
    # B 4.3: "Discard your selected card ... and immediately gain 3 credits"
    ("ben", "three credits to Ben for the bio lab", 'Ben discard "Bio Lab"'),
    ("ben", "Ben cashes the bio lab in", 'Ben discard "Bio Lab"'),
    # B 4.2: the card given up for the Power Reactor, "flipped" or "for Ben out of"
    ("ben", "Ben flips the orbital bakery over as a reactor under his main one",
     'Ben reactor "Orbital Bakery" @1,0'),
    ("ben", "power reactor for Ben out of the comet kilt, left side", 'Ben reactor "Comet Kilt" @0,-1'),
    # energy: one cube from each reactor (the one said in the place first), said first
    ("later", "bio lab below the power reactor with one cube from each reactor",
     'Ana build "Bio Lab" @2,0 e[1,0;0,0]'),
    ("later", "the cube comes off the power reactor: orbital bakery at 1 1",
     'Ana build "Orbital Bakery" @1,1 e[1,0]'),
    # places: "the far side of", "the bakery she already has", "top garden, above it"
    ("later", "comet kiln on the far side of the left bakery", 'Ana build "Comet Kiln" @0,-2'),
    ("later", "comet kilt above the bakery she already has", 'Ana build "Comet Kilt" @-1,-1'),
    ("later", "Top garden, above it, the comet kiln", 'Ana build "Comet Kiln" @-2,0'),
    ("start", "quick, Ana, comet kilt, right", 'Ana build "Comet Kilt" @0,1'),
    # after dev6: slang, a few German and French words, the card said again or spelt out
    ("start", "yo Ana drops the comet kilt right lol", 'Ana build "Comet Kilt" @0,1'),
    ("start", "Ich, Ben, build the comet kiln unter the main reactor", 'Ben build "Comet Kiln" @1,0'),
    ("ben", "Ben, comet kiln, à gauche, to the left of the reactor", 'Ben build "Comet Kiln" @0,-1'),
    ("start", "the kilt, the comet kilt, right of Ben's reactor", 'Ben build "Comet Kilt" @0,1'),
    ("ben", "the comet kilt, the C O M E T kilt, under the main reactor",
     'Ben build "Comet Kilt" @1,0'),
    ("ben", "kwartz garden left of the reactor", 'Ben build "Quartz Garden" @0,-1'),
    ("ben", "ben lays the comet kilt up above", 'Ben build "Comet Kilt" @-1,0'),
    ("ben", "Ben, kiln, comet kiln, downstairs from the reactor", 'Ben build "Comet Kiln" @1,0'),
    # B 4.3 and B 4.2 as a table says them
    ("ben", "Ben sells the comet kilt, gimme three credits", 'Ben discard "Comet Kilt"'),
    ("ben", "I'm tossing the bio lab for cash", 'Ben discard "Bio Lab"'),
    ("ben", "selling the comet kiln, three credits for me", 'Ben discard "Comet Kiln"'),
    ("ben", "Ben is flipping the comet kiln to make a reactor on the left",
     'Ben reactor "Comet Kiln" @0,-1'),
    ("ben", "power reactor out of the bio lab below", 'Ben reactor "Bio Lab" @1,0'),
    ("ben", "reactor card: comet kilt, position above the main reactor",
     'Ben reactor "Comet Kilt" @-1,0'),
    ("typed", "the drift market becomes a reactor below the main reactor",
     'Ben reactor "Drift Market" @1,0'),
    ("later", "the comet kilt goes east of the garden on the right", 'Ana build "Comet Kilt" @0,2'),
    ("later", "the power reactor pays: orbital bakery at one one",
     'Ana build "Orbital Bakery" @1,1 e[1,0]'),
    ("later", "comet kiln right of the power reactor, that's Ana", 'Ana build "Comet Kiln" @1,1'),
    # a printed value read aloud that the catalogue agrees with
    ("ben", "the comet kilt, cost one, energy zero, one victory point, below the main reactor",
     'Ben build "Comet Kilt" @1,0'),
    ("ben", "Ben would like to build the comet kiln below", 'Ben build "Comet Kiln" @1,0'),
    ("typed", "Ben builds the ion orchard below, paid by the main reactor twice",
     'Ben build "Ion Orchard" @1,0 e[0,0;0,0]'),
    ("advisors", "builders advisor, Ana takes it", 'Ana advisor "Builders" bonus'),
    # R 4: "he may announce it and gain 1 VP instead"
    ("advisors", "Ben doesn't take the traders", 'Ben advisor "Traders" decline'),
    # two sides said that name one cell
    ("later", "comet kilt right of the power reactor, below the right garden",
     'Ana build "Comet Kilt" @1,1'),
    ("start", "Ana comet kiln plus zero one", 'Ana build "Comet Kiln" @0,1'),
]


@pytest.mark.parametrize("at,say,expect", CLEAR)
def test_a_table_s_sentence_gives_the_notation_s_action(at: str, say: str, expect: str) -> None:
    g = sentencekit.position("ats", at)
    before = copy.deepcopy(g.actions)
    assert g.parse(say) == g.parse(expect), say
    assert g.actions == before


DOUBT = [
    # "market" is a word of several cards' names: asked
    ("typed", "Ben discards the market"),
    # a count that leaves the station's neighbours: the rules refuse it (B: "adjacent")
    ("later", "comet kiln three below the main reactor"),
    # the other player's turn (later: only Ana is to act)
    ("later", "Benn sells off the comet kiln"),
    # a side of a location the station does not have
    ("ben", "quartz garden right of the bakery"),
    # a location in another player's station, and onto a card itself
    ("later", "comet kiln below Ben's power reactor"),
    ("ben", "put the comet kiln on top of the main reactor card"),
    ("ben", "put the comet kiln on top of the main reactor"),
    # a question
    ("ben", "the comet kiln up top?"),
    # hedges and negations stay refused whatever else was said
    ("ben", "I'm not gonna lay down the comet kiln"),
    ("ben", "maybe put down the quartz garden up top"),
    # a hedge: what would, could or might be done is no action
    ("ben", "Ben would build the comet kiln below"),
    ("ben", "Ben could probably put the comet kilt on the left"),
    # a name that is no player of the game is never read into an Influence tile's name
    ("advisors", "Cleo takes the builders bonus"),
    ("advisors", "Bob declines the traders advisor"),
    # R 4: "gain 1 VP instead": not 2, and not with the bonus taken
    ("advisors", "Ana declines the builders bonus for 2 VP"),
    ("advisors", "Ben takes the traders bonus for one VP"),
    # R 4: the bonus "or" 1 VP instead, not both
    ("advisors", "Ben takes the bonus and the point"),
    ("advisors", "Ana takes the point and the bonus"),
    # a printed value read aloud that the catalogue contradicts: check the card
    ("ben", "Ben builds the comet kiln below, cost three"),
    # two sides said that name two cells
    ("later", "comet kilt right of the power reactor, below the left garden"),
]


@pytest.mark.parametrize("at,say", DOUBT)
def test_a_doubt_is_asked_or_refused_never_an_action(at: str, say: str) -> None:
    g = sentencekit.position("ats", at)
    before = copy.deepcopy(g.actions)
    with pytest.raises(CompanionError):
        g.parse(say)
    assert g.actions == before


def test_two_players_who_sound_alike_are_never_guessed() -> None:
    spec = sentencekit.load("ats")["positions"]["start"]
    g = Game({"players": ["Ana", "Anne"]}, cards=copy.deepcopy(spec["cards"]))
    with pytest.raises(CompanionError):
        g.parse("Anna builds the comet kiln below the main reactor")
    # said as written, each is read
    assert g.parse("Anne builds the comet kiln below the main reactor").to_dict()["player"] == "Anne"
    assert g.actions == []


def test_two_names_that_sound_alike_are_asked_with_both() -> None:
    g = sentencekit.position("ats", "typed")
    with pytest.raises(IncompleteNotation) as e:
        g.parse("Ben discards the market")
    assert set(e.value.options) >= {"Drift Market"}
    assert len(e.value.options) >= 2


def test_skeleton_is_how_a_name_sounds() -> None:
    assert sp.skeleton("Alien Bazaar") == sp.skeleton("alien bizarre")
    assert sp.skeleton("Cleo") == sp.skeleton("Clio")
    assert sp.skeleton("Comet Kiln") != sp.skeleton("Comet Kilt")
    ranked = sp.rank("alien bizarre", ["Alien Bazaar", "Ion Orchard"], sound=True)
    assert ranked[0].name == "Alien Bazaar" and ranked[0].score >= sp.SOUNDS_LIKE
    assert sp.rank("alien bizarre", ["Alien Bazaar"])[0].score < sp.TAKE   # only by sound
    assert sp.by_part("the bakery", ["Orbital Bakery", "Quartz Garden"]) == ["Orbital Bakery"]
    assert sp.by_part("lab", ["Bio Lab"]) == []          # under four letters names nothing


def test_a_taken_cell_is_refused_before_the_reactors_are_asked() -> None:
    """Issue 52: "bio lab at 0 1" on a taken cell said "Understood ... still to choose: the
    reactors" and then the grid refused it.  The book: "Location Cards may only be built
    adjacent to other Location Cards" on an empty space; the refusal comes first, whatever
    reactors would pay."""
    g = sentencekit.position("ats", "later")      # Ana's Quartz Garden stands at 0,1
    for say in ("bio lab at 0 1", 'Ana build "Bio Lab" @0,1'):
        with pytest.raises(IllegalAction) as e:
            g.parse(say)
        assert e.value.rule == "occupied" and "Quartz Garden" in str(e.value)
    with pytest.raises(IllegalAction) as e:           # Ben has acted this turn
        g.parse('Ben build "Bio Lab" @2,0')
    assert e.value.rule == "wrong-player"
    with pytest.raises(IncompleteNotation) as asked:  # a free cell: the reactors are asked
        g.parse("bio lab at 2 0")
    assert asked.value.missing == "energy_from" and len(asked.value.options) == 2


@pytest.mark.parametrize("game,at,say", [
    ("ats", "ben", "comet kiln below the main reactor?"),          # a question, not an act
    ("sse", "solo", "city two systems east, right?"),
    ("sse", "solo", "should I fly east with a city?"),
])
def test_a_line_that_ends_as_a_question_is_refused(game, at, say):
    g = sentencekit.position(game, at)
    with pytest.raises(CompanionError, match="question"):
        g.parse(say)
    assert g.actions == sentencekit.position(game, at).actions


def test_to_before_a_destination_is_the_preposition_never_two():
    """Issue 52: "east three to the blue nebula" was read as the hex 3,2 ("to" as two).
    "to" before "the", "my", "home" or a hex said in numbers is the preposition."""
    g = sentencekit.position("sse", "solo")
    assert g.parse("go east three to the blue nebula, city").to_dict()["to"] == [5, 2]
    assert g.parse("east three to five two, city").to_dict()["to"] == [5, 2]
    mid = sentencekit.position("sse", "mid")              # "too" after "ship" is ship 2
    got = mid.parse("ship too to two three, city").to_dict()
    assert (got["ship"], got["to"]) == (2, [2, 3])


def test_a_player_heard_by_sound_c_as_k():
    """Klio for Cleo (the fresh dev corpus's three-player position, trio: Cleo to act)."""
    g = sentencekit.position("ats", "trio", "fresh/ats-dev")
    assert g.parse("Klio builds the comet kilt underneath") == g.parse('Cleo build "Comet Kilt" @1,0')


def test_a_station_s_location_named_by_a_short_word_and_a_bonus_is_no_player() -> None:
    """A location of the station named by a word of three letters ("the lab": its one
    Bio Lab), and a last word that ends like a player's possessive ("bonus": not Ben's)
    names no player."""
    g = sentencekit.position("ats", "turn2", "fresh/ats-dev2")
    assert g.parse("Ben, comet kiln, below the lab") == g.parse('Ben build "Comet Kiln" @2,0')
    a = sentencekit.position("ats", "advisors")
    with pytest.raises(IncompleteNotation) as e:
        a.parse("take the bonus")
    assert e.value.missing == "tile"


def test_the_corpus_scorer_takes_the_paying_reactors_as_a_multiset() -> None:
    """B 4.1 counts the cubes each reactor gives: e[1,0;0,0] and e[0,0;1,0] pay the same;
    e[1,0;1,0] does not."""
    g = sentencekit.position("ats", "later")
    a = g.parse('Ana build "Bio Lab" @1,-1 e[1,0;0,0]')
    assert sentencekit.same_action(a, g.parse('Ana build "Bio Lab" @1,-1 e[0,0;1,0]'))
    assert not sentencekit.same_action(a, g.parse('Ana build "Bio Lab" @1,-1 e[1,0;1,0]'))
