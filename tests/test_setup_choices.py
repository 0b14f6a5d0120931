"""The setup screen's races and objectives: what the table chose is kept, the engine draws
the rest (decks.complete_choices; issue 13 moved this draw out of the page)."""
from __future__ import annotations

import random

from companion.ats.catalogue import Catalogue
from companion.ats.decks import complete_choices, objectives_wanted

PLAYERS = ["Ana", "Ben", "Cleo", "Dov"]


def test_a_chosen_race_is_kept_and_the_others_are_drawn_from_the_races_nobody_chose():
    cat = Catalogue.default()
    for seed in range(30):
        got = complete_choices(PLAYERS, races={"Ana": "Vak", "Ben": None, "Cleo": None, "Dov": "Zehuti"},
                               use_races=True, catalogue=cat, rng=random.Random(seed))
        races = got["races"]
        assert races["Ana"] == "Vak" and races["Dov"] == "Zehuti"
        assert len(set(races.values())) == 4                 # nobody shares a race tile
        assert set(races.values()) <= set(cat.names("race"))


def test_objectives_picked_are_kept_and_none_picked_draws_as_many_as_the_book_asks():
    cat = Catalogue.default()
    # B 3: "randomly draw as many Objectives as the number of players"; B 8 (2 players):
    # "since only 2 actual players are playing, only 2 Objective Cards are drawn"
    assert [objectives_wanted(n) for n in (2, 3, 4, 5, 6)] == [2, 3, 4, 5, 6]
    picked = complete_choices(PLAYERS, objectives=["Accelerated Construction"],
                              use_objectives=True, catalogue=cat)
    assert picked["objectives"] == ["Accelerated Construction"]
    drawn = complete_choices(PLAYERS, use_objectives=True, catalogue=cat, rng=random.Random(1))
    # the catalogue names fewer objectives than players: every one it names, no more
    assert drawn["objectives"] == cat.names("objective")[:objectives_wanted(4)]


def test_off_means_none_drawn():
    got = complete_choices(PLAYERS, use_races=False, use_objectives=False)
    assert got == {"races": {}, "objectives": [], "secret_objectives": {}}


def test_no_secret_objective_is_drawn_for_the_qualeen():
    # B FAQ, Qualeen: "If I draw the "Accelerated Construction" Objective, do I still
    # reveal it at the end of the game?" -- the player draws the physical card and keeps
    # it secret; the page asks which one on the player's own page (issue 36)
    cat = Catalogue.default()
    for seed in range(20):
        got = complete_choices(["Ana", "Ben", "Cy"], races={"Cy": "Qualeen"},
                               use_races=True, use_objectives=True, catalogue=cat,
                               rng=random.Random(seed))
        assert got["races"]["Cy"] == "Qualeen"
        assert got["secret_objectives"] == {}
