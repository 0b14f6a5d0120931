"""Modes and variants played as full records through the engine (issue 5):
aggressive mode and its Conflict action, the base 2-player virtual seats, the
Revival 2-player order, spaceships, the Limited Space variant per station and
the round-end check.  Cards with invented numbers are named 'Fixture: ...'."""
from __future__ import annotations

import json

import pytest

from companion import Game, IllegalAction

FIX = [
    {"name": "Fixture: plain", "types": ["business"], "cost": 1, "energy": 0, "vp": 2,
     "max": "none", "abilities": []},
    {"name": "Fixture: shipyard", "types": ["military"], "cost": 1, "energy": 0, "vp": 1,
     "max": "none", "abilities": [{"when": "immediate", "spaceships": 1, "target": "other"}]},
    {"name": "Fixture: per ship at end", "types": ["diplomatic"], "cost": 1, "energy": 0, "vp": 0,
     "max": "none", "abilities": [{"when": "end", "per": "spaceship", "vp": 1}]},
]


def finish(game: Game, *, virtual_card="Garden"):
    """Everyone discards until the game ends (virtual seats drop a card each turn)."""
    while not game.finished:
        for p in game.state.waiting:
            game.push({"player": p, "do": "discard", "card": "Garden"})
        for seat in game.setup.virtual_seats:
            if seat not in game.state.virtual_done and not game.finished:
                game.push({"do": "virtual", "seat": seat, "card": virtual_card})


def replayed(game: Game) -> Game:
    """The game as the store opens it (its own record, trusted: some setups here are
    not the book's, which a record from a file would have to say, issue 36)."""
    return Game.from_record(json.loads(json.dumps(game.to_record())), trusted=True)


# --------------------------------------------------------------------- aggressive
def test_aggressive_mode_seven_turns_and_a_conflict_paid_and_resolved():
    g = Game({"players": ["Ana", "Ben", "Cy"], "mode": "aggressive"}, cards=FIX)
    assert [g.setup.turns_in_year(y) for y in (1, 2, 3, 4)] == [6, 7, 7, 7]
    # not before year 2
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Ana", "do": "conflict", "card": "Conflict card",
                "effects": {"vp": {"Ben": -2}}})
    assert e.value.rule == "conflict-year"
    # a Conflict card can never be built
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ana", "do": "build", "card": "Conflict card", "at": [0, 1]})
    assert e.value.rule == "conflict"
    # Ben builds to have VP to lose; then year 1 ends
    g.push({"player": "Ben", "do": "build", "card": "Fixture: plain", "at": [0, 1]})
    while g.state.year == 1:
        for p in g.state.waiting:
            g.push({"player": p, "do": "discard", "card": "Garden"})
    assert g.state.year == 2 and g.state.players["Ana"].credits == 10 + 18 + 10
    credits = g.state.players["Ana"].credits
    # the generic conflict needs its effect typed
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ana", "do": "conflict", "card": "Conflict card"})
    assert e.value.rule == "manual-vp"
    g.push({"player": "Ana", "do": "conflict", "card": "Conflict card",
            "effects": {"vp": {"Ben": -3}, "credits": {"Cy": -2}}})
    assert g.state.players["Ana"].credits == credits - 1          # paid 1 credit
    assert g.state.players["Ben"].vp == 2                          # not yet: after everyone
    cy = g.state.players["Cy"].credits
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    g.push({"player": "Cy", "do": "discard", "card": "Garden"})
    assert g.state.players["Ben"].vp == 0                          # 2 - 3, floored at 0
    assert g.state.players["Cy"].credits == cy + 3 - 2
    finish(g)
    assert len(g.actions) == 3 * (6 + 7 * 3)
    assert replayed(g).score().to_json() == g.score().to_json()


def test_conflicts_join_in_year_three_with_five_players():
    g = Game({"players": list("ABCDE"), "mode": "aggressive"})
    assert g.setup.conflict_year == 3
    assert [g.setup.turns_in_year(y) for y in (1, 2, 3, 4)] == [6, 6, 7, 7]


# --------------------------------------------------------------------- 2 players, virtual seats
def test_virtual_seats_drop_one_card_each_turn_and_are_recorded():
    g = Game({"players": ["Ana", "Ben"], "options": {"two_player": "virtual"}}, cards=FIX)
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    assert g.state.turn == 1                  # the virtual seats have not dropped their cards
    g.push({"do": "virtual", "seat": "virtual 1", "card": "Turret"})
    with pytest.raises(IllegalAction) as e:
        g.push({"do": "virtual", "seat": "virtual 1", "card": "Turret"})
    assert e.value.rule == "virtual-seat"
    g.push({"do": "virtual", "seat": "virtual 2", "card": "Hotel"})
    assert g.state.turn == 2 and g.state.face_up == ["Turret", "Hotel"]
    finish(g)
    assert len(g.state.face_up) == 24 * 2
    assert replayed(g).state.face_up == g.state.face_up
    # virtual seats are not players: 'other stations' see the real players only
    assert set(g.state.players) == {"Ana", "Ben"}
    with pytest.raises(IllegalAction) as e:
        Game({"players": ["Ana", "Ben"]}).push({"do": "virtual", "seat": "virtual 1",
                                                "card": "Turret"})
    assert e.value.rule == "virtual-seat"


# --------------------------------------------------------------------- Revival 2 players
def test_revival_two_player_active_player_first_and_alternating():
    g = Game({"players": ["Ana", "Ben"],
              "options": {"two_player": "revival", "first_active": "Ben", "reactor_supply": 8}})
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    assert e.value.rule == "revival-order" and "Ben" in str(e.value)
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    while g.state.year == 1:
        g.push({"player": "Ben", "do": "discard", "card": "Garden"})
        g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    # year 2: Ana is active
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    assert e.value.rule == "revival-order"
    assert g.setup.active_player(2) == "Ana" and g.setup.active_player(3) == "Ben"
    # the reactor pile holds 8
    assert g.state.reactor_supply == 8
    finish_revival(g)
    assert g.finished and replayed(g).score().to_json() == g.score().to_json()


def finish_revival(g):
    while not g.finished:
        first = g.setup.active_player(g.state.year)
        for p in [first] + [x for x in g.setup.players if x != first]:
            if p in g.state.waiting:
                g.push({"player": p, "do": "discard", "card": "Garden"})


# --------------------------------------------------------------------- spaceships
def test_spaceships_block_a_cell_are_removed_and_counted():
    g = Game({"players": ["Ana", "Ben"], "options": {"spaceships": True}}, cards=FIX)
    # Ana's shipyard puts a spaceship next to Ben's Main Reactor, after everyone's action
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ana", "do": "build", "card": "Fixture: shipyard", "at": [0, 1]})
    assert e.value.rule == "spaceships"                      # where does it go?
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ana", "do": "build", "card": "Fixture: shipyard", "at": [0, 1],
                 "spaceships": [{"player": "Ana", "at": [0, -1]}]})
    assert e.value.rule == "spaceships"                      # 'other' stations only
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ana", "do": "build", "card": "Fixture: shipyard", "at": [0, 1],
                 "spaceships": [{"player": "Ben", "at": [3, 3]}]})
    assert e.value.rule == "spaceships"                      # not next to a card
    g.push({"player": "Ana", "do": "build", "card": "Fixture: shipyard", "at": [0, 1],
            "spaceships": [{"player": "Ben", "at": [1, 0]}]})
    assert g.state.station("Ben").blocked == set()
    g.push({"player": "Ben", "do": "build", "card": "Fixture: per ship at end", "at": [0, 1]})
    assert g.state.station("Ben").blocked == {(1, 0)}
    # no building there; the legal cells leave it out
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ben", "do": "build", "card": "Fixture: plain", "at": [1, 0]})
    assert e.value.rule == "spaceship"
    assert (1, 0) not in g.legal_cells("Ben", "Fixture: plain")
    # the new action: discard and remove up to 3
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ana", "do": "remove_spaceships", "card": "Garden", "cells": [[1, 0]]})
    assert e.value.rule == "spaceships"                      # Ana has none
    snap = g.to_record()
    # a spaceship in Ben's station at the end: +1 from his per-spaceship card
    finish(g)
    assert g.score().table.set_index("player").loc["Ben", "end_abilities"] == 1
    # replay from the record before the end, then remove it instead
    g2 = Game.from_record(snap)
    g2.push({"player": "Ben", "do": "remove_spaceships", "card": "Garden", "cells": [[1, 0]]})
    g2.push({"player": "Ana", "do": "discard", "card": "Garden"})
    assert g2.state.station("Ben").blocked == set()
    finish(g2)
    assert g2.score().table.set_index("player").loc["Ben", "end_abilities"] == 0


def test_spaceships_need_the_module():
    g = Game({"players": ["Ana", "Ben"]}, cards=FIX)
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ana", "do": "build", "card": "Fixture: shipyard", "at": [0, 1],
                 "spaceships": [{"player": "Ben", "at": [1, 0]}]})
    assert e.value.rule == "spaceships" and "module" in str(e.value)


# --------------------------------------------------------------------- limited space
def test_limited_space_bounds_per_station():
    g = Game({"players": ["Ana", "Ben"],
              "options": {"limited_space": {"Ana": [0, 0, 0, 1], "Ben": [-1, 1, -1, 1]}}},
             cards=FIX)
    assert g.legal_cells("Ana", "Fixture: plain") == [(0, 1)]
    with pytest.raises(IllegalAction) as e:
        g.check({"player": "Ana", "do": "build", "card": "Fixture: plain", "at": [1, 0]})
    assert e.value.rule == "limited-space" and "outside" in str(e.value)
    assert len(g.legal_cells("Ben", "Fixture: plain")) == 4


# --------------------------------------------------------------------- round-end check
def test_final_scoring_refuses_a_station_that_breaks_a_rule():
    cards = [dict(FIX[0], name="Fixture: max 1", max="none")]
    g = Game({"players": ["Ana", "Ben"]}, cards=cards)
    g.push({"player": "Ana", "do": "build", "card": "Fixture: max 1", "at": [0, 1]})
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    g.push({"player": "Ana", "do": "build", "card": "Fixture: max 1", "at": [1, 0]})
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    # the players notice the card says MAX 1 and correct it
    from companion.ats.catalogue import parse_card
    g.define(parse_card(dict(cards[0], max=1)))
    # B 5: "Before beginning the next round ... the player who built the rule-breaking
    # Space Station must remove as many locations as needed": at the end of year 1
    while g.state.year == 1:
        for p in g.state.waiting:
            g.push({"player": p, "do": "discard", "card": "Garden"})
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    assert e.value.rule == "round-end" and "MAX 1" in str(e.value)
    # the what-if projection still scores it (as the station stands)
    from companion.ats.scoring import score
    assert list(score(g, project=True).table.player) == ["Ana", "Ben"]
    vp = g.state.players["Ana"].vp
    g.push({"do": "remove", "player": "Ana", "at": [1, 0]})
    assert g.state.players["Ana"].vp == vp - 2            # the printed 2 VP it gave
    finish(g)
    assert g.score().final and replayed(g).score().to_json() == g.score().to_json()


def test_final_scoring_refuses_a_station_that_still_breaks_a_rule_after_year_4():
    cards = [dict(FIX[0], name="Fixture: max 1", max="none")]
    g = Game({"players": ["Ana", "Ben"]}, cards=cards)
    while not (g.state.year == 4 and g.state.turn == 5):
        for p in g.state.waiting:
            g.push({"player": p, "do": "discard", "card": "Garden"})
    g.push({"player": "Ana", "do": "build", "card": "Fixture: max 1", "at": [0, 1]})
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    g.push({"player": "Ana", "do": "build", "card": "Fixture: max 1", "at": [1, 0]})
    from companion.ats.catalogue import parse_card
    g.define(parse_card(dict(cards[0], max=1)))
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    assert g.finished
    with pytest.raises(IllegalAction) as e:
        g.score()
    assert e.value.rule == "round-end" and "MAX 1" in str(e.value)
    # the year-4 round-end fix comes after the last turn: then the game scores
    vp = g.state.players["Ana"].vp
    g.push({"do": "remove", "player": "Ana", "at": [1, 0]})
    assert g.state.players["Ana"].vp == vp - 2
    assert g.score().final and replayed(g).score().to_json() == g.score().to_json()


# --------------------------------------------------------------------- timing rules (3+ players)
def test_timing_rules_order_by_vp_then_credits_then_stored_random():
    # turn 1: everyone ties, so push() draws the order and stores it in the first action
    g = Game({"players": ["Ana", "Ben", "Cy"], "options": {"timing_rules": True}, "seed": 7},
             cards=FIX)
    refused = []
    for p in ("Ana", "Ben", "Cy"):           # only the drawn first player is accepted
        try:
            g.push({"player": p, "do": "discard", "card": "Garden"})
            break
        except IllegalAction as e:
            refused.append(e.rule)
    assert set(refused) <= {"timing"} and len(g.actions) == 1
    assert sorted(g.state.turn_order) == ["Ana", "Ben", "Cy"]
    assert g.actions[0]["turn_order"] == g.state.turn_order
    assert g.actions[0]["player"] == g.state.turn_order[0]

    g = Game({"players": ["Ana", "Ben", "Cy"], "options": {"timing_rules": True}}, cards=FIX)
    first = g.push({"player": "Cy", "do": "build", "card": "Fixture: plain", "at": [0, 1],
                    "turn_order": ["Cy", "Ana", "Ben"]})
    assert first["turn_order"] == ["Cy", "Ana", "Ben"]
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    assert e.value.rule == "timing" and "Ana acts next" in str(e.value)
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    # turn 2: Cy has 2 VP and goes first; Ana and Ben tie (0 VP, 13 credits)
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Ana", "do": "discard", "card": "Garden",
                "turn_order": ["Ana", "Cy", "Ben"]})
    assert e.value.rule == "timing"
    g.push({"player": "Cy", "do": "discard", "card": "Garden", "turn_order": ["Cy", "Ben", "Ana"]})
    assert g.state.turn_order == ["Cy", "Ben", "Ana"]
    # a record without the stored random order is refused on replay
    rec = g.to_record()
    del rec["actions"][0]["turn_order"]
    with pytest.raises(IllegalAction) as e:
        Game.from_record(rec)
    assert e.value.rule == "timing" and e.value.index == 0
    assert replayed(g).state.turn_order == g.state.turn_order


# --------------------------------------------------------------------- advisors
def test_advisor_moves_for_a_matching_action_and_is_settled_at_round_end():
    tiles = [{"name": "Tile A", "between": ["Ana", "Ben"], "actions": ["reactor", "build:military"],
              "advisor": "Fixture advisor", "slots": 2}]
    # one tile of the 2 (R 4 takes "as many as the number of players"): the other
    # would lie in the middle all game; book_setup=False lets this setup through
    g = Game({"players": ["Ana", "Ben"], "options": {"advisors": tiles}}, cards=FIX,
             book_setup=False)
    g.push({"player": "Ana", "do": "reactor", "card": "Garden", "at": [0, 1]})   # moves: +1 VP
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})                 # no match
    assert g.state.advisors == {"Tile A": -1} and g.state.players["Ana"].vp == 1
    g.push({"player": "Ana", "do": "reactor", "card": "Garden", "at": [0, 2]})   # -2: +1 VP
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    g.push({"player": "Ana", "do": "reactor", "card": "Garden", "at": [0, 3]})   # at the end: 0
    g.push({"player": "Ben", "do": "build", "card": "Fixture: plain", "at": [0, 1]})
    assert g.state.advisors == {"Tile A": -2} and g.state.players["Ana"].vp == 2
    # a matching build of Ben's pulls it back one slot towards him: +1 VP
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    military = dict(FIX[0], name="Fixture: military", types=["military"])
    g.define(__import__("companion.ats.catalogue", fromlist=["parse_card"]).parse_card(military))
    g.push({"player": "Ben", "do": "build", "card": "Fixture: military", "at": [0, 2]})
    assert g.state.advisors == {"Tile A": -1} and g.state.players["Ben"].vp == 2 + 2 + 1
    while g.state.year == 1:
        for p in g.state.waiting:
            g.push({"player": p, "do": "discard", "card": "Garden"})
    # round end: Ana must take the bonus or decline it before year 2 goes on
    assert g.unsettled_advisors() == {"Tile A": "Ana"}
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    assert e.value.rule == "advisor"
    with pytest.raises(IllegalAction) as e:
        g.push({"do": "advisor", "tile": "Tile A", "player": "Ben", "take": "decline"})
    assert e.value.rule == "advisor"
    g.push({"do": "advisor", "tile": "Tile A", "player": "Ana", "take": "decline"})
    assert g.state.players["Ana"].vp == 3 and g.unsettled_advisors() == {}
    # advisors do not reset between rounds
    assert g.state.advisors == {"Tile A": -1}
    finish_with_advisors(g)
    assert replayed(g).score().to_json() == g.score().to_json()


def finish_with_advisors(g):
    while not g.finished or g.unsettled_advisors():
        for tile, who in g.unsettled_advisors().items():
            g.push({"do": "advisor", "tile": tile, "player": who, "take": "bonus",
                    "effects": {"credits": {who: 2}}})
        for p in g.state.waiting:
            g.push({"player": p, "do": "discard", "card": "Garden"})


def test_final_scoring_waits_for_the_last_rounds_advisors():
    tiles = [{"name": "Tile A", "between": ["Ana", "Ben"], "actions": ["build"], "slots": 1}]
    g = Game({"players": ["Ana", "Ben"], "options": {"advisors": tiles}}, cards=FIX,
             book_setup=False)              # one tile of the book's 2 (R 4)
    while not (g.state.year == 4 and g.state.turn == 6):
        for p in g.state.waiting:
            g.push({"player": p, "do": "discard", "card": "Garden"})
    # Ana's build in the very last turn moves the advisor towards her
    g.push({"player": "Ana", "do": "build", "card": "Fixture: plain", "at": [0, 1]})
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    assert g.finished
    # the tile ends the game leaning to someone: the final scoring waits for it
    assert g.unsettled_advisors()
    with pytest.raises(IllegalAction) as e:
        g.score()
    assert e.value.rule == "advisor"
    (tile, who), = g.unsettled_advisors().items()
    g.push({"do": "advisor", "tile": tile, "player": who, "take": "decline"})
    assert g.score().final


def test_round_end_panel_offers_removals_only_at_the_round_end():
    """B 5: "Before beginning the next round ... the player who built the rule-breaking
    Space Station must remove as many locations as needed".  The play screen's panel
    reports a broken station mid-year without remove buttons (the engine would refuse
    them, rule round-end); at the round's end it offers them, and nobody may act first."""
    from types import SimpleNamespace
    from companion.ats.catalogue import parse_card
    from companion.ui.modes import ModePanel
    cards = [dict(FIX[0], name="Fixture: max 1", max="none")]
    g = Game({"players": ["Ana", "Ben"]}, cards=cards)
    for at in ([0, 1], [1, 0]):
        g.push({"player": "Ana", "do": "build", "card": "Fixture: max 1", "at": at})
        g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    g.define(parse_card(dict(cards[0], max=1)))
    app = SimpleNamespace(game=g, guarded=lambda f: f, push_entry=g.push)
    panel = ModePanel(app)

    def buttons(box):
        out = []
        for k in getattr(box, "children", ()):
            if "round-end-remove" in getattr(k, "_dom_classes", ()):
                out.append(k)
            out += buttons(k)
        return out

    panel.refresh()
    (box,) = panel.box.children
    assert "round-end-later" in box._dom_classes and buttons(box) == []
    while g.state.year == 1:
        for p in g.state.waiting:
            g.push({"player": p, "do": "discard", "card": "Garden"})
    panel.refresh()
    (box,) = panel.box.children
    assert "round-end" in box._dom_classes and len(buttons(box)) == 2
    with pytest.raises(IllegalAction):
        g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    buttons(box)[1].click()                        # remove [1, 0]
    assert g.actions[-1]["do"] == "remove" and g.round_end_due() == []
    panel.refresh()
    assert panel.box.children == ()
