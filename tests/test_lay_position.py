"""Issue 39, the engine part: "Score the table as it lies".  A game laid from the table
(``setup.options.laid: "final"``) holds one ``lay`` entry per player, each station as it
lies with its credits and the score track's VP; the final scoring is the book's (B 6),
from :mod:`companion.ats.scoring`.  Every number here is a fixture's ("Fixture: ..."
cards defined in the record): no real card is given a number.

The books' sentences the tests rely on:

- B 6: "Check all the cards in his Space Station with abilities in yellow boxes for any
  VPs gained."; "Gain 1 VP for every Power Reactor that DOES NOT contain any Energy
  cubes."; "Gain 1 VP for every 3 credits remaining."; "Each Objective can only be
  claimed by 1 player unless stated otherwise. If 2 or more players are tied for any
  Objective, no bonus is given."
- B 6: "The player with the most Victory Points is the winner. In case of a tie, the
  winner is the player with the most locations in his Station (excluding any Power
  Reactors). If there are still tied players, the winner is the one with the most
  remaining credits."
- B 4: "build it anywhere in your Space Station adjacent to an already-built location";
  "They both come into play with 2 Energy Cubes on them."
"""
from __future__ import annotations

import copy
import json

import pytest

from companion.ats import actions
from companion.ats.game import Game
from companion.core.errors import IllegalAction
from recordkit import fixture_card, fixture_objective

PLAYERS = ["Ana", "Ben", "Cleo"]
MILITARY = "Fixture: military post"
PLOT = "Fixture: garden plot"
BONUS = "Fixture: end bonus"
ONE_COPY = "Fixture: one in the box"
NO_MAX = "Fixture: max not typed"
CARDS = [
    fixture_card(MILITARY, types=["military"], cost=1, energy=0, vp=2, max=2),
    fixture_card(PLOT, types=["business"], cost=1, energy=0, vp=1),
    fixture_card(BONUS, types=["diplomatic"], cost=2, energy=1, vp=0, max=1,
                 abilities=[{"when": "end", "flat": 4, "note": "test fixture: +4 at the end"}]),
    {**fixture_card(ONE_COPY, types=["business"], cost=1, energy=0, vp=1), "copies": 1},
    fixture_card(NO_MAX, types=["business"], cost=1, energy=0, vp=1, max=None),
    fixture_objective("Fixture: most military", vp=4,
                      most={"per": "station_location", "types": ["military"]}),
    fixture_objective("Fixture: most credits", vp=5, most={"per": "credit"}),
    fixture_objective("Fixture: most reactors", vp=3, most={"per": "reactor"}),
]
OBJECTIVES = ["Fixture: most military", "Fixture: most credits", "Fixture: most reactors"]


def reactor(at, cubes):
    return {"at": list(at), "reactor": True, "cubes": cubes}


def card(at, name):
    return {"at": list(at), "card": name}


LAYS = [
    {"do": "lay", "player": "Ana",
     "cells": [reactor([0, 0], 0), card([0, 1], BONUS), card([0, 2], MILITARY),
               reactor([1, 0], 0), card([1, 1], PLOT), card([-1, 2], MILITARY), card([1, 2], PLOT)],
     "credits": 5, "vp": 40},
    {"do": "lay", "player": "Ben",
     "cells": [reactor([0, 0], 1), card([0, -1], MILITARY), card([-1, 0], PLOT),
               card([-1, -1], PLOT), reactor([1, 0], 0), card([1, 1], PLOT)],
     "credits": 8, "vp": 48},
    {"do": "lay", "player": "Cleo",
     "cells": [reactor([0, 0], 2), card([0, 1], PLOT), card([1, 1], PLOT),
               reactor([1, 0], 2)],
     "credits": 8, "vp": 40},
]


def new_game() -> Game:
    return Game({"players": PLAYERS, "objectives": OBJECTIVES, "options": {"laid": "final"}},
                cards=copy.deepcopy(CARDS))


def laid_game() -> Game:
    g = new_game()
    for a in LAYS:
        g.push(copy.deepcopy(a))
    return g


# -- the final table, by hand ---------------------------------------------------------
#: B 6, by hand, player by player:
#: Ana: 40 on the track; "abilities in yellow boxes": the end bonus +4; "1 VP for every
#:   Power Reactor that DOES NOT contain any Energy cubes": Main Reactor 0 cubes and
#:   [1, 0] 0 cubes, +2; "1 VP for every 3 credits": 5 credits, +1; objectives: most
#:   military (Ana 2, Ben 1, Cleo 0) +4; most credits (Ben 8, Cleo 8 tied: "no bonus is
#:   given"); most reactors (2 each, tied): nothing.  40 + 4 + 2 + 1 + 4 = 51.
#: Ben: 48; no yellow box; [1, 0] empty (the Main Reactor keeps 1 cube): +1; 8 credits:
#:   +2; no objective.  48 + 1 + 2 = 51.
#: Cleo: 40; both reactors hold 2 cubes: 0; 8 credits: +2.  42.
#: Ana and Ben tie on 51: "the winner is the player with the most locations in his
#: Station (excluding any Power Reactors)": Ana 5 (the end bonus, 2 military posts, 2
#: plots), Ben 4 (a military post, 3 plots): Ana wins on locations.
HAND = {
    "Ana": {"during_game": 40, "end_abilities": 4, "empty_reactors": 2, "credits": 1,
            "objectives": 4, "locations": 5, "credits_left": 5},
    "Ben": {"during_game": 48, "end_abilities": 0, "empty_reactors": 1, "credits": 2,
            "objectives": 0, "locations": 4, "credits_left": 8},
    "Cleo": {"during_game": 40, "end_abilities": 0, "empty_reactors": 0, "credits": 2,
             "objectives": 0, "locations": 2, "credits_left": 8},
}


def test_the_final_table_is_the_hand_computation():
    g = laid_game()
    assert g.state.finished
    s = g.score()
    assert s.final
    out = s.to_json()
    for row in out["players"]:
        want = HAND[row["player"]]
        assert row["breakdown"] == {k: want[k] for k in ("during_game", "end_abilities",
                                                         "empty_reactors", "credits",
                                                         "objectives")}, row
        assert row["total"] == sum(row["breakdown"].values())
        assert row["credits"] == want["credits_left"]
        assert row["locations"] == want["locations"]
    totals = {r["player"]: r["total"] for r in out["players"]}
    assert totals == {"Ana": 51, "Ben": 51, "Cleo": 42}


def test_a_tie_on_vp_is_decided_on_locations_without_reactors():
    # B 6: "In case of a tie, the winner is the player with the most locations in his
    # Station (excluding any Power Reactors)."  Ana: the end bonus, 2 military posts, 2
    # plots (5 locations, 2 reactors not counted); Ben: a military post, 3 plots (4).
    g = laid_game()
    locs = {p: len(g.state.players[p].station.locations(reactors=False)) for p in PLAYERS}
    assert locs == {p: HAND[p]["locations"] for p in PLAYERS} == {"Ana": 5, "Ben": 4,
                                                                  "Cleo": 2}
    s = g.score()
    assert s.winners == ["Ana"] and s.decided_by == "locations"
    assert [r["player"] for r in s.rows] == ["Ana", "Ben", "Cleo"]
    assert "most locations without reactors (5)" in s.explanation


def test_the_breakdown_marks_the_track_vp_as_typed():
    s = laid_game().score()
    track = [l for l in s.line_rows if l["category"] == "during_game"]
    assert {l["player"]: l["vp"] for l in track} == {"Ana": 40, "Ben": 48, "Cleo": 40}
    assert all(l["rule"] == "VP during the game: from the score track, typed" for l in track)
    bonus = [l for l in s.line_rows if l["category"] == "end_abilities"]
    assert [(l["player"], l["source"], l["cell"], l["vp"]) for l in bonus] == [
        ("Ana", BONUS, [0, 1], 4)]


# -- push, pop, replay, the record ------------------------------------------------------
def test_push_pop_replay_and_the_record_round_trip():
    g = laid_game()
    rec = json.loads(json.dumps(g.to_record()))
    assert rec["actions"] == LAYS
    back = Game.from_record(copy.deepcopy(rec))
    assert back.to_record() == rec and back.score().to_json() == g.score().to_json()
    trusted = Game.from_record(copy.deepcopy(rec), trusted=True)
    assert trusted.score().to_json() == g.score().to_json()
    last = g.pop()
    assert last == LAYS[-1] and not g.state.finished and g.state.laid == ["Ana", "Ben"]
    assert g.state.players["Cleo"].station.locations() == [(0, 0)]
    g.push(copy.deepcopy(LAYS[-1]))
    assert g.to_record() == rec
    part = Game.from_record({**copy.deepcopy(rec), "actions": rec["actions"][:1]})
    part.replay(copy.deepcopy(rec["actions"][1:]))
    assert part.to_record() == rec
    for a in LAYS:                     # each entry reads back from its notation
        typed = actions.from_dict(a)
        assert actions.parse(str(typed)) == typed and typed.to_dict() == a
    assert g.describe(LAYS[0]) == ("Ana laid the station from the table (7 cells, 5 credits, "
                                   "40 VP on the score track)")


def test_check_is_a_query():
    g = new_game()
    before = g.to_record()
    assert g.check(copy.deepcopy(LAYS[0]))["player"] == "Ana"
    assert g.to_record() == before and g.state.laid == []


# -- impossible layouts: each refused with its rule, nothing changed -------------------
def _refused(a, rule, words, *, game=None):
    g = game if game is not None else new_game()
    if game is None:
        g.push(copy.deepcopy(LAYS[1]))          # Ben laid first: the copies count his
    before = g.to_record()
    state = (g.state.index, list(g.state.laid), {p: g.state.players[p].vp for p in PLAYERS})
    with pytest.raises(IllegalAction) as e:
        g.push(a)
    assert e.value.rule == rule, str(e.value)
    assert words in str(e.value), str(e.value)
    assert g.to_record() == before
    assert (g.state.index, list(g.state.laid),
            {p: g.state.players[p].vp for p in PLAYERS}) == state
    return e.value


def _ana(*cells, **kw):
    return {"do": "lay", "player": "Ana", "cells": [reactor([0, 0], 2), *cells],
            "credits": 0, "vp": 0, **kw}


def test_a_station_not_connected_to_the_main_reactor():
    # B 4: "build it anywhere in your Space Station adjacent to an already-built location"
    _refused(_ana(card([0, 1], PLOT), card([2, 2], PLOT)), "not-adjacent",
             f"'{PLOT}' at [2, 2] is not connected to the Main Reactor")


def test_a_diagonal_is_not_adjacent():
    # B 4: "If they are placed diagonally from each other, they are NOT considered adjacent."
    _refused(_ana(card([1, 1], PLOT)), "not-adjacent", "at [1, 1]")


def test_more_than_max_in_one_station():
    # the card's MAX (printed, here a fixture's 2): "MAX" build limit for one station
    _refused(_ana(card([0, 1], MILITARY), card([0, 2], MILITARY), card([0, 3], MILITARY)),
             "max", f"MAX 2: Ana's station holds 3 '{MILITARY}'")


def test_an_unknown_max_is_asked_not_guessed():
    # a null MAX never lets a second copy pass
    _refused(_ana(card([0, 1], NO_MAX), card([0, 2], NO_MAX)), "unknown-values",
             f"'{NO_MAX}'")


def test_more_copies_than_the_box_holds():
    # the copies the box holds, as the players typed them (here a fixture's 1)
    g = new_game()
    g.push(_ana(card([0, 1], ONE_COPY)))
    ben = {"do": "lay", "player": "Ben", "cells": [reactor([0, 0], 2), card([1, 0], ONE_COPY)],
           "credits": 0, "vp": 0}
    _refused(ben, "copies", f"the box holds 1 copy of '{ONE_COPY}' and 2 are laid (at [1, 0]",
             game=g)


def test_a_cell_used_twice():
    _refused(_ana(card([0, 1], PLOT), reactor([0, 1], 1)), "occupied",
             f"[0, 1] is laid twice: '{PLOT}' at [0, 1] and a Power Reactor at [0, 1]")


def test_a_card_on_the_main_reactor():
    # B 3: "Each player takes a Main Reactor Card and puts it on the table in front him"
    a = {"do": "lay", "player": "Ana", "cells": [card([0, 0], PLOT)], "credits": 0, "vp": 0}
    _refused(a, "occupied", "[0, 0] holds the Main Reactor")


def test_an_unknown_card():
    _refused(_ana(card([0, 1], "Fixture: no such card")), "unknown-card",
             "no location card called 'Fixture: no such card'")


def test_more_cubes_than_a_reactor_holds():
    # B 4: "They both come into play with 2 Energy Cubes on them."
    _refused(_ana(reactor([0, 1], 3)), "cubes", "a Power Reactor at [0, 1] holds 3 cubes")


def test_the_main_reactor_must_be_given():
    a = {"do": "lay", "player": "Ana", "cells": [card([0, 1], PLOT)], "credits": 0, "vp": 0}
    _refused(a, "malformed", "give the Main Reactor's energy cubes")


def test_a_station_is_laid_once_and_only_in_a_laid_game():
    g = new_game()
    g.push(copy.deepcopy(LAYS[0]))
    _refused(copy.deepcopy(LAYS[0]), "lay", "Ana's station is laid already", game=g)
    _refused({"do": "discard", "player": "Ben", "card": PLOT}, "lay",
             "lay every player's station first", game=g)
    plain = Game({"players": PLAYERS, "objectives": OBJECTIVES}, cards=copy.deepcopy(CARDS))
    _refused(copy.deepcopy(LAYS[0]), "lay", "setup.options.laid", game=plain)


def test_a_laid_game_takes_no_action_after_its_end():
    g = laid_game()
    _refused(copy.deepcopy(LAYS[0]), "game-over", "the game has ended", game=g)


def test_a_bad_option_is_refused():
    from companion.core.errors import RecordError
    with pytest.raises(RecordError, match="setup.options.laid"):
        Game({"players": PLAYERS, "options": {"laid": "halfway"}})


# -- the command line ------------------------------------------------------------------
def test_cli_score_json_and_check(tmp_path, run_cli):
    path = tmp_path / "laid.json"
    path.write_text(json.dumps(laid_game().to_record()))
    r = run_cli("score", path, "--json", home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["final"] and out["winners"] == ["Ana"] and out["decided_by"] == "locations"
    assert {p["player"]: p["total"] for p in out["players"]} == {"Ana": 51, "Ben": 51,
                                                                 "Cleo": 42}
    r = run_cli("check", path, home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    assert "ok: 3 actions, finished" in r.stdout
    assert ("taken on trust (laid from the table): VP during the game taken from the score "
            "track: Ana 40 VP") in r.stdout


def test_cli_refuses_an_impossible_layout_in_one_line(tmp_path, run_cli):
    rec = laid_game().to_record()
    rec["actions"][0]["cells"].append(card([3, 3], PLOT))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    r = run_cli("score", path, home=tmp_path / "home")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert "[rule: not-adjacent]" in lines[0] and "at [3, 3]" in lines[0]


def test_a_laid_card_whose_abilities_nobody_typed_is_asked_before_the_final_table():
    """bench/bench_layout.py found it: a station laid from the table holds cards that were
    never built here, so no build asked for their abilities, and the final table scored
    no end-of-game ability for a card whose abilities are unknown.  The book: "If, on the
    other hand, it is written within a yellow box, then you don't do anything else at
    the moment. You will check it again at the end of the game."  So the final table
    waits for them, as a build would have, and scores them once typed."""
    from companion.ats.catalogue import parse_card
    unknown = "Fixture: abilities not typed"
    g = Game({"players": PLAYERS, "objectives": OBJECTIVES, "options": {"laid": "final"}},
             cards=copy.deepcopy(CARDS) + [{**fixture_card(unknown, types=["business"],
                                                             cost=1, energy=0, vp=1),
                                            "abilities": None}])
    lays = copy.deepcopy(LAYS)
    lays[2]["cells"].append(card([-1, 1], unknown))          # beside Cleo's plot at [0, 1]
    for a in lays:
        g.push(a)
    needs = g.final_needs()["values"]
    # its end-of-game abilities only: what the final table reads (issue 50)
    assert [(v["card"], v["fields"]) for v in needs] == [(unknown, ["end abilities"])], needs
    # typed from the physical card: a yellow box of +3 (a fixture's number)
    typed = parse_card({**fixture_card(unknown, types=["business"], cost=1, energy=0,
                                           vp=1),
                            "abilities": [{"when": "end", "flat": 3,
                                           "note": "test fixture: +3 at the end"}]})
    g.define(typed)
    assert g.final_needs()["values"] == []
    table = g.score().table.set_index("player")
    assert table.loc["Cleo", "total"] == 42 + 3              # the hand's 42, and the +3


@pytest.mark.parametrize("change, rule, where", [
    # B 4: "build it anywhere in your Space Station adjacent to an already-built location"
    (lambda a: a["cells"].append(card([5, 5], PLOT)), "not-adjacent", "[5, 5]"),
    # MAX 2 on the fixture military post: a third in one station
    (lambda a: a["cells"].append(card([-1, 1], MILITARY)), "max", MILITARY),
    # the box holds 1 copy of the fixture (its "copies"): a second laid
    (lambda a: a["cells"].extend([card([-1, 1], ONE_COPY), card([-1, 0], ONE_COPY)]),
     "copies", ONE_COPY),
])
def test_an_impossible_layout_is_refused_in_one_line_by_the_cli(tmp_path, run_cli, change, rule,
                                                                 where):
    """Issue 39: an impossible layout (a disconnected card, MAX exceeded, a copy more than
    the box holds) is refused in one line by ``python -m companion check`` and ``score``,
    naming the card or cell and the rule, as on the page."""
    rec = new_game().to_record()
    bad = copy.deepcopy(LAYS[0])
    change(bad)
    rec["actions"] = [bad]
    path = tmp_path / "laid.json"
    path.write_text(json.dumps(rec))
    for command in ("check", "score"):
        out = run_cli(command, str(path))
        assert out.returncode == 2 and out.stdout == "", (out.stdout, out.stderr)
        lines = out.stderr.splitlines()
        assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
        assert f"[rule: {rule}]" in lines[0] and where in lines[0], lines[0]
