"""Issue 40, "Hands-free": a sentence as a player says it, read in the context of the
position (:mod:`companion.ats.spoken`, through :meth:`Game.parse`).  It gives the very
value a line of notation gives, or refuses with one line saying what it missed; never
a guess.

Every card with numbers here is INVENTED (Quartz Garden, Orbital Bakery, Bio Lab, Comet
Kiln, Comet Kilt; the corpus's too): ``test_the_invented_names_are_no_real_cards``
checks none is in data/among-the-stars/card-names.csv.  Real cards (Garden, Turret)
appear only with their unknown values: discarded or given up for a reactor."""
from __future__ import annotations

import copy
import csv
import json
import sys
from pathlib import Path

import pytest

from companion.ats import actions
from companion.ats.game import Game
from companion.ats.spoken import read_sentence
from companion.core.errors import IllegalAction, UnknownCardValues
from companion.core.notation import IncompleteNotation, NotationError

sys.path.insert(0, str(Path(__file__).parent))
import sentencekit  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
B = dict(max="none", abilities=[])
CARDS = [dict(B, name="Quartz Garden", types=["recreational"], cost=1, energy=0, vp=1),
         dict(B, name="Orbital Bakery", types=["business"], cost=1, energy=1, vp=1),
         dict(B, name="Bio Lab", types=["business"], cost=1, energy=2, vp=2),
         dict(B, name="Comet Kiln", types=["military"], cost=1, energy=0, vp=1),
         dict(B, name="Comet Kilt", types=["military"], cost=1, energy=0, vp=1)]
#: Ana's station: Quartz Garden @0,1 and @-1,0, Power Reactor @1,0, Orbital Bakery
#: @0,-1; year 1 turn 5, Ben has acted
LATER = ['Ana build "Quartz Garden" @0,1', 'Ben discard "Garden"', 'Ana reactor "Garden" @1,0',
         'Ben build "Quartz Garden" @0,1', 'Ana build "Orbital Bakery" @0,-1 e[0,0]',
         'Ben discard "Turret"', 'Ana build "Quartz Garden" @-1,0', 'Ben reactor "Garden" @1,0',
         'Ben discard "Turret"']


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Never read or write the real user catalogue."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


def game(record=(), **options) -> Game:
    g = Game({"players": ["Ana", "Ben"], "options": options}, cards=CARDS)
    for line in record:
        g.push(actions.parse(line))
    return g


def same(g: Game, said: str, line: str) -> None:
    assert g.parse(said) == g.parse(line), said


def refused(g: Game, said: str):
    with pytest.raises((NotationError, IllegalAction)) as e:
        g.parse(said)
    return e.value


# -- the partial entry: the notation's shape ------------------------------------------------
def test_the_entry_has_the_notations_shape():
    g = game()
    d = read_sentence(g, "Ana build bio lab at one zero, energy from the main reactor")
    assert d == actions.parse('Ana build "Bio Lab" @1,0 e[0,0;0,0]').to_dict()
    assert list(d) == ["player", "do", "card", "at", "energy_from"]
    assert read_sentence(g, "discard garden") == actions.parse(
        'discard "Garden"', who_optional=True).to_dict()


# -- the kinds (B 4) ----------------------------------------------------------------------
def test_build_place_put_and_built():
    """B 4.1 "Build a Location": "any Location Card you build must be adjacent to it"."""
    g = game()
    for verb in ("build", "builds", "built", "places", "puts", "place"):
        same(g, f"Ana {verb} quartz garden at one zero", 'Ana build "Quartz Garden" @1,0')
    same(g, "Ana quartz garden at one zero", 'Ana build "Quartz Garden" @1,0')


def test_the_reactor_names_the_card_given_up():
    """B 4.2 "Build Power Reactor": "discard your selected card ..., pay its cost (1
    credit), take a Power Reactor card ..." -- the card named is the one given up."""
    g = game()
    for said in ("Ana reactor garden at one zero", "Ana builds a reactor with garden at 1 0",
                 "Ana power reactor using the garden at one zero",
                 "Ana discards garden as a reactor at one zero",
                 "Ana garden as a power reactor at 1 0"):
        same(g, said, 'Ana reactor "Garden" @1,0')
    with pytest.raises(IncompleteNotation) as e:
        g.parse("Ana power reactor at 0 -1")
    assert e.value.missing == "card"


def test_a_card_called_reactor_is_built_not_a_reactor():
    g = game()
    with pytest.raises(UnknownCardValues):          # Backup Reactor: a location card
        g.parse("Ana build backup reactor at 1 0")
    same(g, "Ana discards the backup reactor", 'Ana discard "Backup Reactor"')


def test_discard_throw_away_and_sell_for_three_credits():
    """B 4.3 "Discard and Gain 3 Credits": "Discard your selected card ... and
    immediately gain 3 credits" -- so "sell" and "for three credits" say it too."""
    g = game()
    for said in ("Ana discard garden", "Ana discards the garden", "Ana throws away garden",
                 "Ana sells the garden", "Ana discard garden for three credits",
                 "Ana discard garden and take 3 credits", "Ana: discard Garden."):
        same(g, said, 'Ana discard "Garden"')
    assert refused(g, "Ana discard garden for two credits").__class__ is NotationError
    assert isinstance(refused(g, "Ana discard garden at one zero"), NotationError)


def test_advisors_bonus_taken_or_declined():
    """R 4: "that player gets the special bonus ... he may announce it and gain 1 VP
    instead"."""
    g = sentencekit.position("ats", "advisors")
    assert g.unsettled_advisors() == {"Builders": "Ana", "Traders": "Ben"}
    same(g, "Ana takes the bonus", 'Ana advisor "Builders" bonus')
    same(g, "decline the builders advisor for one VP", 'Ana advisor "Builders" decline')
    same(g, "Ben takes the bonus", 'Ben advisor "Traders" bonus')
    with pytest.raises(IncompleteNotation) as e:
        g.parse("take the bonus")                 # two tiles lean to two players
    assert e.value.missing == "tile"
    assert isinstance(refused(g, "take and decline the bonus"), NotationError)


def test_remove_reads_as_a_remove():
    """B 5: "the player who built the rule-breaking Space Station must remove as many
    locations as needed" -- only at a round's end, so mid-round the rules refuse it."""
    g = game(LATER)
    assert read_sentence(g, "remove the quartz garden at 0 1") == {
        "do": "remove", "card": "Quartz Garden", "at": [0, 1]}
    assert isinstance(refused(g, "remove the quartz garden at 0 1"), IncompleteNotation)
    assert isinstance(refused(g, "Ana removes the quartz garden at 0 1"), IllegalAction)


# -- the player ---------------------------------------------------------------------------
def test_the_player_leading_trailing_or_left_out():
    g = game()
    for said in ("Ben builds quartz garden at 1 0", "Ben: build quartz garden at 1 0",
                 "for Ben build quartz garden at 1 0", "build quartz garden at 1 0 for Ben",
                 "um Ben build quartz garden at 1 0"):
        same(g, said, 'Ben build "Quartz Garden" @1,0')
    with pytest.raises(IncompleteNotation) as e:
        g.parse("build quartz garden at 1 0")
    assert e.value.missing == "player" and e.value.options == ("Ana", "Ben")
    g.push(g.parse("Ana discard garden"))
    same(g, "build quartz garden at 1 0", 'Ben build "Quartz Garden" @1,0')
    assert refused(g, "Ana discards garden").rule == "wrong-player"


def test_revival_the_active_player_is_filled_in():
    g = game(two_player="revival")
    same(g, "discard garden", 'Ana discard "Garden"')


# -- the card -----------------------------------------------------------------------------
def test_a_misheard_letter_and_no_punctuation():
    g = game()
    for said in ("Ana build quarts garden at one zero", "Ana build quartz gardn at 1 0",
                 "Ana build quartzgarden at 1 0", "Ana build Quartz-Garden at 1, 0"):
        same(g, said, 'Ana build "Quartz Garden" @1,0')
    same(g, "Ana build bio lap at 1 0", 'Ana build "Bio Lab" @1,0 e[0,0;0,0]')


def test_two_close_names_are_both_shown():
    g = game()
    with pytest.raises(IncompleteNotation) as e:
        g.parse("Ana build comet kil at one zero")
    assert e.value.missing == "card" and set(e.value.options) >= {"Comet Kiln", "Comet Kilt"}


def test_no_card_said_and_an_unknown_card():
    g = game()
    with pytest.raises(IncompleteNotation) as e:
        g.parse("Ana build at one zero")
    assert e.value.missing == "card"
    with pytest.raises(NotationError) as e2:
        g.parse("Ana build flibbertigibbet at one zero")
    assert "flibbertigibbet" in str(e2.value)


def test_a_word_not_understood_is_refused_not_ignored():
    g = game()
    for said in ("Ana fly quartz garden at one zero", "Ana build quartz garden not at 1 0",
                 "Ana build quartz garden or bio lab at 1 0", "Ana build quartz garden at 1 0 twice",
                 "Ana discard the gardens quickly", "discard garden discard turret"):
        assert isinstance(refused(g, said), NotationError), said


# -- the cell -----------------------------------------------------------------------------
@pytest.mark.parametrize("said", ["at one zero", "at 1 0", "at 1, 0", "at one comma zero",
                                  "row one column zero", "at won zero", "at 1:0",
                                  "at column zero row one", "@ 1 0"])
def test_a_cell_said_many_ways(said):
    same(game(), f"Ana build quartz garden {said}", 'Ana build "Quartz Garden" @1,0')


def test_minus_and_negative():
    g = game()
    same(g, "Ana build quartz garden at minus one zero", 'Ana build "Quartz Garden" @-1,0')
    same(g, "Ana build quartz garden at zero -1", 'Ana build "Quartz Garden" @0,-1')


def test_relative_cells_rows_grow_downward():
    """Rows grow downward, the Main Reactor at (0, 0): above is row - 1."""
    g = game()
    for said, cell in (("right of", "0,1"), ("to the left of", "0,-1"), ("above", "-1,0"),
                       ("over", "-1,0"), ("north of", "-1,0"), ("below", "1,0"),
                       ("under", "1,0"), ("beneath", "1,0"), ("south of", "1,0")):
        same(g, f"Ana build quartz garden {said} the main reactor",
             f'Ana build "Quartz Garden" @{cell}')


def test_relative_to_a_location_of_the_acting_players_station():
    g = game(LATER)
    same(g, "build quartz garden below the orbital bakery", 'Ana build "Quartz Garden" @1,-1')
    same(g, "build quartz garden right of the power reactor", 'Ana build "Quartz Garden" @1,1')
    with pytest.raises(IncompleteNotation) as e:       # two copies: both cells shown
        g.parse("build quartz garden right of the quartz garden")
    assert e.value.missing == "at" and e.value.options == ((-1, 0), (0, 1))
    with pytest.raises(IncompleteNotation) as e:
        g.parse("build quartz garden next to the orbital bakery")
    assert e.value.missing == "at" and len(e.value.options) >= 2


def test_next_to_the_only_legal_cell():
    g = game(['Ana build "Quartz Garden" @0,1', 'Ben discard "Garden"'])
    # Ana's Quartz Garden @0,1: free beside it @-1,1, @1,1, @0,2; all legal
    with pytest.raises(IncompleteNotation):
        g.parse("Ana build quartz garden next to the quartz garden")
    g2 = game(LATER)
    # the Orbital Bakery @0,-1: @-1,-1, @1,-1, @0,-2 are free
    assert g2.parse("reactor with garden left of the orbital bakery").at == (0, -2)


def test_an_illegal_cell_is_the_rules_refusal():
    assert refused(game(), "Ana build quartz garden at five five").rule == "not-adjacent"


# -- energy -------------------------------------------------------------------------------
def test_energy_said_or_filled():
    g = game()
    line = 'Ana build "Orbital Bakery" @1,0 e[0,0]'
    for said in ("at one zero", "at one zero energy from the main reactor",
                 "at 1 0 with energy from main reactor", "at 1 0 paid by the main reactor"):
        same(g, f"Ana build orbital bakery {said}", line)
    same(g, "Ana build bio lab at 1 0 two from the main reactor", 'Ana build "Bio Lab" @1,0 e[0,0;0,0]')


def test_energy_from_two_reactors_one_cube_each():
    g = game(LATER)
    with pytest.raises(IncompleteNotation) as e:
        g.parse("build bio lab at one one")
    assert e.value.missing == "energy_from"
    same(g, "build bio lab at 1 1 one from the main reactor and one from the reactor below it",
         'Ana build "Bio Lab" @1,1 e[0,0;1,0]')
    same(g, "build bio lab at 1 1 two from the power reactor", 'Ana build "Bio Lab" @1,1 e[1,0;1,0]')


# -- never harmful --------------------------------------------------------------------------
@pytest.mark.parametrize("said", ["", "   ", "<script>alert(1)</script>",
                                  '=HYPERLINK("http://x.example","Garden")', "asdf qwer",
                                  "x" * 400])
def test_hostile_or_empty_lines_are_refused(said):
    e = refused(game(), said)
    assert isinstance(e, NotationError) and "<" not in str(e)


def test_notation_still_reads_and_keeps_its_message():
    g = game()
    same(g, 'Ana build "Quartz Garden" @1,0', 'Ana build "Quartz Garden" @1,0')
    with pytest.raises(NotationError) as e:
        g.parse("Ana build @x,y")
    assert "cell" in str(e.value) or "@" in str(e.value)


def test_reading_changes_nothing():
    g = game(LATER)
    before = (copy.deepcopy(g.actions), json.dumps(g.to_record(), sort_keys=True))
    for said in ("build bio lab at 1 1 two from the power reactor", "discard garden",
                 "build quartz garden right of the quartz garden", "remove the turret at 1 0",
                 "reactor with garden left of the orbital bakery", "gibberish words"):
        try:
            g.parse(said)
        except (NotationError, IllegalAction):
            pass
    assert (g.actions, json.dumps(g.to_record(), sort_keys=True)) == before


# -- the corpus -----------------------------------------------------------------------------
def test_every_expected_line_of_the_corpus_is_legal():
    corpus = sentencekit.load("ats")
    for case in corpus["cases"]:
        if "expect" in case:
            g = sentencekit.position("ats", case["at"])
            g.check(g.parse(case["expect"]))


def test_the_corpus_is_read_right():
    out = sentencekit.run("ats")
    assert len(out) >= 170
    assert not [o for o in out if o.verdict == "WRONG"]
    assert sum(o.verdict == "right" for o in out) >= 0.97 * len(out)


def test_the_invented_names_are_no_real_cards():
    with open(ROOT / "data" / "among-the-stars" / "card-names.csv", encoding="utf-8") as f:
        real = {row["name"].lower() for row in csv.DictReader(f)}
    corpus = sentencekit.load("ats")
    numbered = [c for p in corpus["positions"].values() for c in p.get("cards") or ()]
    numbered += CARDS
    assert numbered
    for c in numbered:
        assert c["name"].lower() not in real, c["name"]
        if any(c.get(k) is not None for k in ("cost", "energy", "vp")):
            assert c["name"].lower() not in real
