"""The what-if views (companion/whatif.py) on hand-built stations.

Every station here is built through ``Game.push()`` (tests/recordkit.py).  The
only real card given numbers is the Holographic Display Area, whose values the
rulebook prints (cost 2, energy 1, 2 VP, +1 VP per adjacent location).  Every
other card is a FIXTURE (name starting "Fixture: ") defined in the game's
``cards``: its numbers are invented for the test.

What is proved:

* the best cell is the one the rules say: the Holographic Display Area's is
  the cell with the most built neighbours; an end ability that counts adjacent
  military locations; a "farthest from the Main Reactor" bonus (for the card
  placed, and for a card already built that a new location would beat);
* the energy the map says it uses, and the empty-reactor bonus it gains;
* agreement: every legal row of the placement map equals really pushing that
  action on ``game.branch()`` and scoring the branch with
  ``score(..., project=True)`` (VP now, energy payers, empty reactors, end
  change, projected total); every illegal row carries the rule and the reason
  that ``game.why_illegal`` gives.  The acting player is never the last to act
  in the turn, so the real push does not end the turn either (the map tries
  options with ``Game.trial(end_turn=False)``);
* hand ranking: ordered by projected total; discard's worth; unknown values and
  unknown names give rows, not crashes; every legal row agrees with a push;
* if the game ended now / VP by year, on the committed George sample;
* the sandbox never touches the real game until ``apply()``.
"""
from __future__ import annotations

import json

import pandas as pd
import pytest

from companion import CompanionError, Game, IllegalAction
from companion.ats.scoring import CATEGORIES, score
from companion.ats.whatif import (MAP_COLUMNS, Sandbox, best_cell, hand_ranking, if_ended_now,
                              placement_map, vp_by_year)
from companion.ats.station import neighbours
from recordkit import build, discard, fixture_card, fixture_objective, new_game, play, reactor

ROOT_SAMPLES = "data/samples"
HDA = "Holographic Display Area"

CHEAP_MIL = "Fixture: cheap military"
CHEAP_BUS = "Fixture: cheap business"
ADJ_MIL = "Fixture: end +1 per adjacent military"
FARTHEST = "Fixture: farthest +5 at end"
ENERGY1 = "Fixture: energy 1"
PER_CREDIT = "Fixture: end +1 per credit"

FIXTURES = [
    fixture_card(CHEAP_MIL, types=["military"], cost=0, energy=0, vp=1),
    fixture_card(CHEAP_BUS, types=["business"], cost=0, energy=0, vp=1),
    fixture_card(ADJ_MIL, types=["administrative"], cost=0, energy=0, vp=0,
                 abilities=[{"when": "end", "per": "adjacent_location", "types": ["military"],
                             "vp": 1}]),
    fixture_card(FARTHEST, types=["diplomatic"], cost=0, energy=0, vp=0,
                 abilities=[{"when": "end", "flat": 5,
                             "if": {"farthest_from_main_reactor": True}}]),
    fixture_card(ENERGY1, types=["business"], cost=0, energy=1, vp=0),
    fixture_card(PER_CREDIT, types=["business"], cost=1, energy=0, vp=0,
                 abilities=[{"when": "end", "per": "credit", "vp": 1, "cap": 30}]),
    fixture_objective("Fixture: most credits", vp=5, most={"per": "credit"}),
    fixture_objective("Fixture: most military", vp=4,
                      most={"per": "station_location", "types": ["military"]}),
]


# ---------------------------------------------------------------------------
# helpers (also used by test_whatif_properties.py)
# ---------------------------------------------------------------------------
def fill(game: Game, action: dict) -> dict:
    """The answers a real push needs, as the map assumes them: every other player
    pays for a choice, and a manual immediate ability is typed as 0."""
    if action["do"] != "build":
        return action
    card = game.catalogue.get(action["card"])
    out = dict(action)
    for ab in (card.abilities or ()) if card is not None else ():
        if ab.get("when") != "immediate":
            continue
        if "choice" in ab:
            out["choices"] = {p: "pay" for p in game.setup.players if p != action["player"]}
        if "manual" in ab:
            out["manual_vp"] = 0
    return out


def projected(game: Game, player: str) -> dict:
    """One player's row of ``score(game, project=True)``."""
    t = score(game, project=True).table
    row = t[t.player == player].iloc[0]
    return {c: int(row[c]) for c in (*CATEGORIES, "total")}


def row_action(game: Game, player: str, row) -> dict:
    st = game.state
    a = {"year": st.year, "turn": st.turn, "player": player, "do": row.action, "card": row.card}
    if row.cell is not None and not (isinstance(row.cell, float) and pd.isna(row.cell)):
        a["at"] = list(row.cell)
    return a


def check_rows_against_push(game: Game, player: str, df: pd.DataFrame) -> int:
    """Every legal row = push on a branch + score(project=True); every illegal
    row = the rule and the reason of game.why_illegal.  Returns rows checked."""
    st = game.state
    assert player in st.waiting and len(st.waiting) >= 2, \
        "the acting player must not be the last of the turn (a real push would end it)"
    record_before = json.dumps(game.to_record(), sort_keys=True)
    before = projected(game, player)
    vp0 = st.players[player].vp
    n = 0
    for row in df.itertuples(index=False):
        action = fill(game, row_action(game, player, row))
        if row.legal:
            b = game.branch()
            norm = b.push(action)
            after = projected(b, player)
            where = f"{row.action} {row.card} at {row.cell}"
            assert row.vp_now == b.state.players[player].vp - vp0, where
            assert row.energy_from == [tuple(c) for c in norm.get("energy_from", [])], where
            assert row.empty_reactor_change == after["empty_reactors"] - before["empty_reactors"], where
            assert row.projected_total == after["total"], where
            assert row.projected_change == after["total"] - before["total"], where
            assert row.end_change == ((after["total"] - after["during_game"])
                                      - (before["total"] - before["during_game"])), where
            assert row.rule is None or pd.isna(row.rule), where
        else:
            with pytest.raises(IllegalAction) as e:
                game.check(action)
            assert e.value.rule == row.rule, (row, e.value)
            why = game.why_illegal(action)
            assert row.reason in why and f"[rule: {row.rule}]" in why, (row.reason, why)
            assert pd.isna(row.vp_now) and pd.isna(row.projected_total)
        n += 1
    assert json.dumps(game.to_record(), sort_keys=True) == record_before, "the map changed the game"
    return n


def the_row(df: pd.DataFrame, cell, action: str = "build"):
    got = df[(df.action == action) & (df.cell == tuple(cell))]
    assert len(got) == 1, (cell, action, got)
    return got.iloc[0]


def built_neighbours(game: Game, player: str, cell) -> int:
    cells = game.state.station(player).cells
    return sum(1 for n in neighbours(tuple(cell)) if n in cells)


def station_game(george_plan: list, *, options=None, objectives=(), players=("George", "Sandra"),
                 others=None) -> Game:
    """George plays ``george_plan`` (one action a turn), the others discard
    (or play ``others``); it stops at the start of the next turn, nobody acted."""
    # fewer objectives than B 3 / B 8 draw: fixtures, so book_setup=False
    game = new_game(list(players), cards=FIXTURES, options=options, objectives=list(objectives),
                    book_setup=False)
    plans = {"George": list(george_plan), **(others or {})}
    play(game, plans, turns=len(george_plan))
    assert game.state.acted == []
    return game


# ---------------------------------------------------------------------------
# the map's shape
# ---------------------------------------------------------------------------
def test_map_lists_every_frontier_cell_twice_with_its_columns():
    game = station_game([build(CHEAP_MIL, [0, 1])])
    df = placement_map(game, "George", HDA)
    frontier = game.state.station("George").frontier()
    assert list(df.columns) == MAP_COLUMNS
    assert sorted(df[df.action == "build"].cell) == frontier
    assert sorted(df[df.action == "reactor"].cell) == frontier
    no_reactors = placement_map(game, "George", HDA, reactors=False)
    assert set(no_reactors.action) == {"build"}
    # legal rows first, best projected total first among them
    legal = list(df.legal)
    assert legal == sorted(legal, reverse=True)
    totals = [int(t) for t in df[df.legal].projected_total]
    assert totals == sorted(totals, reverse=True)


def test_map_of_unknown_card_or_player_is_a_clear_error():
    game = station_game([])
    with pytest.raises(IllegalAction) as e:
        placement_map(game, "George", "Holographic Display Aera")
    assert e.value.rule == "unknown-card"
    with pytest.raises(IllegalAction) as e:
        placement_map(game, "Nobody", HDA)
    assert e.value.rule == "wrong-player"


# ---------------------------------------------------------------------------
# best cells known from the rules
# ---------------------------------------------------------------------------
def hda_station() -> Game:
    # (1, 1) is the only frontier cell with three built neighbours:
    #   row 0:  MR  M  M
    #   row 1:  M   .  M
    return station_game([build(CHEAP_MIL, [0, 1]), build(CHEAP_MIL, [0, 2]),
                         build(CHEAP_MIL, [1, 2]), build(CHEAP_MIL, [1, 0])])


def test_holographic_display_area_best_cell_has_the_most_built_neighbours():
    game = hda_station()
    df = placement_map(game, "George", HDA)
    builds = df[df.action == "build"]
    legal = builds[builds.legal]
    assert len(legal) >= 5
    for r in legal.itertuples():
        # printed 2 VP + 1 per adjacent location (the Main Reactor counts)
        assert r.vp_now == 2 + built_neighbours(game, "George", r.cell)
        assert r.energy_from == [(0, 0)]              # the only reactor in reach
        assert r.empty_reactor_change == 0            # 2 cubes -> 1 cube
    assert best_cell(df) == (1, 1)
    assert the_row(df, [1, 1]).vp_now == 5
    # out of the Main Reactor's reach (distance > 2 through built locations)
    for cell in [(2, 2), (1, 3), (0, 3), (-1, 2)]:
        r = the_row(df, cell)
        assert not r.legal and r.rule == "no-energy"
    check_rows_against_push(game, "George", df)


def test_end_ability_counting_adjacent_military_prefers_the_cell_with_most_military():
    #          (-2,-1)B (-2,0)B
    #          (-1,-1).  (-1,0)B
    #  (0,-1)B  MR  (0,1)M
    #           (1,0)M  (1,1).
    # (-1,-1) has three neighbours, all business; (1,1) has two, both military.
    game = station_game([build(CHEAP_MIL, [0, 1]), build(CHEAP_MIL, [1, 0]),
                         build(CHEAP_BUS, [-1, 0]), build(CHEAP_BUS, [0, -1]),
                         build(CHEAP_BUS, [-2, 0]), build(CHEAP_BUS, [-2, -1])])
    df = placement_map(game, "George", ADJ_MIL)
    assert the_row(df, [1, 1]).end_change == 2
    assert the_row(df, [-1, -1]).end_change == 0
    assert the_row(df, [1, -1]).end_change == 1
    assert the_row(df, [-1, 1]).end_change == 1
    assert best_cell(df) == (1, 1)
    for r in df[(df.action == "build") & df.legal].itertuples():
        assert r.vp_now == 0
        cells = game.state.station("George").cells
        mil = sum(1 for n in neighbours(r.cell) if n in cells and cells[n].types
                  and "military" in cells[n].types)
        assert r.end_change == mil
    check_rows_against_push(game, "George", df)


def test_a_card_already_built_counts_in_the_end_change():
    # the adjacency card is built at (0, 1): a military location next to it
    # adds 1 VP at the end on top of its own printed VP
    game = station_game([build(ADJ_MIL, [0, 1])])
    df = placement_map(game, "George", CHEAP_MIL)
    for r in df[(df.action == "build") & df.legal].itertuples():
        next_to_it = (0, 1) in set(neighbours(r.cell))
        assert r.vp_now == 1
        assert r.end_change == (1 if next_to_it else 0), r.cell
    assert the_row(df, [0, 2]).end_change == 1
    assert the_row(df, [1, 0]).end_change == 0
    check_rows_against_push(game, "George", df)


def test_farthest_from_main_reactor_bonus_one_row():
    # Limited Space, one row: (0,-1) MR (0,1) (0,2) (0,3); (0,4) is 4 steps away
    game = station_game([build(CHEAP_BUS, [0, 1]), build(CHEAP_BUS, [0, 2]),
                         build(CHEAP_BUS, [0, 3]), build(CHEAP_BUS, [0, -1])],
                        options={"limited_space": [0, 0, -6, 6]})
    df = placement_map(game, "George", FARTHEST)
    assert sorted(df[df.action == "build"].cell) == [(0, -2), (0, 4)]
    assert the_row(df, [0, 4]).end_change == 5
    assert the_row(df, [0, -2]).end_change == 0
    assert best_cell(df) == (0, 4)
    check_rows_against_push(game, "George", df)


def test_farthest_bonus_ties_count_as_farthest():
    # MR (0,1) (0,2) (0,3): a tie counts as farthest (no location is farther)
    game = station_game([build(CHEAP_BUS, [0, 1]), build(CHEAP_BUS, [0, 2]),
                         build(CHEAP_BUS, [0, 3])])
    df = placement_map(game, "George", FARTHEST)
    st = game.state.station("George")
    for r in df[df.action == "build"].itertuples():
        d = st.distance(r.cell, (0, 0))
        # (0, 3) is 3 steps away: a new card 3 or more steps away is not beaten
        assert r.end_change == (5 if d >= 3 else 0), (r.cell, d)
    farthest = {(0, 4), (1, 3), (-1, 3), (1, 2), (-1, 2)}
    assert {r.cell for r in df.itertuples() if r.action == "build" and r.end_change == 5} == farthest
    assert best_cell(df) in farthest
    check_rows_against_push(game, "George", df)


def test_a_new_location_farther_out_costs_the_built_farthest_card_its_bonus():
    game = station_game([build(CHEAP_BUS, [0, 1]), build(CHEAP_BUS, [0, 2]),
                         build(FARTHEST, [0, 3])],
                        options={"limited_space": [0, 0, -6, 6]})
    df = placement_map(game, "George", CHEAP_BUS)
    assert the_row(df, [0, 4]).end_change == -5          # now 4 > 3 steps
    assert the_row(df, [0, -1]).end_change == 0
    assert best_cell(df) == (0, -1)
    # a reactor farther out beats it too (a Power Reactor is a location)
    assert the_row(df, [0, 4], "reactor").end_change == -5
    check_rows_against_push(game, "George", df)


# ---------------------------------------------------------------------------
# energy and the empty-reactor bonus
# ---------------------------------------------------------------------------
def test_energy_payers_and_empty_reactor_change():
    # the Main Reactor is down to 1 cube; a Power Reactor (2 cubes) at (0, 2)
    #   MR(1) (0,1)E  (0,2)PR
    game = station_game([build(ENERGY1, [0, 1], energy_from=[[0, 0]]), reactor([0, 2])])
    st = game.state.station("George")
    assert st.cells[(0, 0)].cubes == 1 and st.cells[(0, 2)].cubes == 2
    df = placement_map(game, "George", HDA)
    for r in df[(df.action == "build") & df.legal].itertuples():
        payer = st.default_energy(r.cell, 1)
        assert r.energy_from == payer
        # the Main Reactor's last cube makes it an empty reactor: +1 at the end
        assert r.empty_reactor_change == (1 if payer == [(0, 0)] else 0), r.cell
    assert the_row(df, [1, 0]).energy_from == [(0, 0)]
    assert the_row(df, [1, 0]).empty_reactor_change == 1
    assert the_row(df, [1, 2]).energy_from == [(0, 2)]
    assert the_row(df, [1, 2]).empty_reactor_change == 0
    # reactor rows: 0 VP now, 1 credit paid, never an empty reactor
    for r in df[df.action == "reactor"].itertuples():
        assert r.legal and r.vp_now == 0 and r.empty_reactor_change == 0 and r.energy_from == []
    check_rows_against_push(game, "George", df)


def test_illegal_rows_carry_the_rule_and_the_reason():
    # credits: George has spent everything; max: a MAX 1 fixture already built
    one = fixture_card("Fixture: max 1", types=["military"], cost=0, energy=0, vp=1, max=1)
    dear = fixture_card("Fixture: dear", types=["military"], cost=50, energy=0, vp=9)
    game = new_game(["George", "Sandra"], cards=FIXTURES + [one, dear],
                    options={"reactor_supply": 1})
    play(game, {"George": [build("Fixture: max 1", [0, 1]), reactor([1, 0])]}, turns=2)
    df = placement_map(game, "George", "Fixture: max 1")
    assert set(df[df.action == "build"].rule) == {"max"}
    assert set(df[df.action == "reactor"].rule) == {"reactor-supply"}
    df2 = placement_map(game, "George", "Fixture: dear")
    assert set(df2[df2.action == "build"].rule) == {"credits"}
    garden = placement_map(game, "George", "Garden")     # a real card, values unknown
    assert set(garden[garden.action == "build"].rule) == {"unknown-values"}
    for d in (df, df2, garden):
        assert not d.legal.any()
        check_rows_against_push(game, "George", d)


def test_objective_change_is_in_the_projection():
    # Sandra has 2 military locations, George 1: one more military location ties
    # ("most military": a tie gives it to nobody), Sandra loses her 4 VP objective
    # but George's own projection does not gain it; a second one would.
    game = station_game([build(CHEAP_MIL, [0, 1]), build(CHEAP_BUS, [0, 2])],
                        objectives=["Fixture: most military"],
                        others={"Sandra": [build(CHEAP_MIL, [0, 1]), build(CHEAP_MIL, [0, 2])]})
    df = placement_map(game, "George", CHEAP_MIL)
    r = df[(df.action == "build") & df.legal].iloc[0]
    assert r.vp_now == 1 and r.projected_change == 1
    check_rows_against_push(game, "George", df)
    # one turn later George has 2: a third military location claims it
    play(game, {"George": [build(CHEAP_MIL, [1, 0])]}, turns=1)
    df = placement_map(game, "George", CHEAP_MIL)
    r = df[(df.action == "build") & df.legal].iloc[0]
    assert r.vp_now == 1 and r.projected_change == 1 + 4
    check_rows_against_push(game, "George", df)


def test_a_player_who_already_acted_plans_the_next_action():
    game = station_game([build(CHEAP_MIL, [0, 1])])
    game.push({"player": "George", "do": "build", "card": CHEAP_MIL, "at": [0, 2]})
    df = placement_map(game, "George", HDA)
    assert df.legal.any()                                  # not "already acted"
    assert the_row(df, [1, 1]).vp_now == 3
    bus = placement_map(game, "George", CHEAP_BUS)
    assert the_row(bus, [0, 3]).legal                      # next to the new (0, 2)
    assert game.state.acted == ["George"]


def test_map_on_a_given_state_of_the_game():
    game = station_game([build(CHEAP_MIL, [0, 1]), build(CHEAP_MIL, [1, 0])])
    early = game.replayed(2)           # after George's first build and Sandra's discard
    df = placement_map(game, "George", HDA, state=early)
    assert the_row(df, [1, 1]).vp_now == 3                 # only (0, 1) is built there
    assert placement_map(game, "George", HDA).pipe(lambda d: the_row(d, [1, 1])).vp_now == 4


# ---------------------------------------------------------------------------
# hand ranking
# ---------------------------------------------------------------------------
def test_hand_ranking_order_discard_worth_and_agreement():
    game = hda_station()
    hand = [HDA, CHEAP_MIL, ADJ_MIL]
    df = hand_ranking(game, "George", hand)
    assert list(df.columns) == MAP_COLUMNS
    legal = df[df.legal]
    totals = [int(t) for t in legal.projected_total]
    assert totals == sorted(totals, reverse=True)
    assert list(df.legal) == sorted(df.legal, reverse=True)      # notes last
    top = legal.iloc[0]
    assert (top.action, top.card, top.cell) == ("build", HDA, (1, 1))
    # every card has its builds, a reactor on every frontier cell, one discard
    frontier = game.state.station("George").frontier()
    for card in hand:
        mine = df[df.card == card]
        assert sorted(mine[mine.action == "reactor"].cell) == frontier
        assert (mine.action == "discard").sum() == 1
        assert sorted(mine[mine.action == "build"].cell) == sorted(
            placement_map(game, "George", card, reactors=False).query("legal").cell)
    credits = game.state.players["George"].credits
    worth = (credits + 3) // 3 - credits // 3
    for r in df[df.action == "discard"].itertuples():
        assert r.vp_now == 0 and r.end_change == worth and r.projected_change == worth
        assert f"worth +{worth} VP" in r.reason
    check_rows_against_push(game, "George", df)


@pytest.mark.parametrize("credits_spent", [0, 1, 2])
def test_discard_worth_for_several_credit_totals(credits_spent):
    # PER_CREDIT costs 1: spending 0, 1 or 2 credits first changes credits mod 3
    plan = [build(PER_CREDIT, [0, i + 1]) for i in range(credits_spent)]
    game = station_game(plan or [build(CHEAP_BUS, [0, 1])])
    ps = game.state.players["George"]
    df = hand_ranking(game, "George", [CHEAP_BUS])
    d = df[df.action == "discard"].iloc[0]
    worth = (ps.credits + 3) // 3 - ps.credits // 3
    assert f"worth +{worth} VP" in d.reason
    # each PER_CREDIT card built also gains +1 per credit at the end: +3 each
    assert d.end_change == worth + 3 * credits_spent
    check_rows_against_push(game, "George", df)


def test_discard_row_counts_an_objective_won_by_the_credits():
    # Sandra holds 11 credits, George 10: "most credits" is Sandra's; George's
    # discard (+3 -> 13) takes it: the discard is worth 1 + 5, not just 1
    game = station_game([], objectives=["Fixture: most credits"])
    play(game, {"George": [build(PER_CREDIT, [0, 1])], "Sandra": [discard()]}, turns=1)
    assert game.state.players["George"].credits == 9
    assert game.state.players["Sandra"].credits == 13
    play(game, {"George": [discard()], "Sandra": [build(CHEAP_BUS, [0, 1])]}, turns=1)
    assert (game.state.players["George"].credits, game.state.players["Sandra"].credits) == (12, 13)
    df = hand_ranking(game, "George", [CHEAP_BUS])
    d = df[df.action == "discard"].iloc[0]
    # 12 -> 15 credits: +1 VP for credits, +3 from PER_CREDIT, +5 most credits
    assert d.projected_change == 1 + 3 + 5
    assert "+1 VP at the end" in d.reason and "objectives or end abilities" in d.reason
    check_rows_against_push(game, "George", df)


def test_hand_with_unknown_values_and_unknown_names_gives_rows():
    game = hda_station()
    df = hand_ranking(game, "George", ["Garden", "Gardenn", HDA])
    garden = df[df.card == "Garden"]
    note = garden[garden.rule == "unknown-values"]
    assert len(note) == 1 and not note.iloc[0].legal and note.iloc[0].cell is None
    assert "not known yet" in note.iloc[0].reason
    # Garden can still be given up for a reactor or discarded
    assert {"reactor", "discard"} <= set(garden[garden.legal].action)
    unknown = df[df.card == "Gardenn"]
    assert len(unknown) == 1 and unknown.iloc[0].rule == "unknown-card"
    assert not unknown.iloc[0].legal
    assert df.iloc[0].card == HDA
    with pytest.raises(IllegalAction):
        hand_ranking(game, "Nobody", [HDA])


def test_hand_ranking_of_an_empty_hand_and_a_finished_game():
    game = station_game([])
    assert hand_ranking(game, "George", []).empty
    play(game, {})
    df = hand_ranking(game, "George", [CHEAP_BUS])
    assert not df.legal.any() and set(df.rule) == {"game-over"}


# ---------------------------------------------------------------------------
# if the game ended now, VP by year: the committed George sample
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def george_record():
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / ROOT_SAMPLES / "george-base-final-scoring.json"
    return json.loads(path.read_text())


def totals(sc) -> dict:
    return {r.player: int(r.total) for r in sc.table.itertuples()}


def test_if_ended_now_on_a_finished_game_is_the_final_score(george_record):
    game = Game.from_record(george_record)
    assert game.finished
    assert if_ended_now(game).to_json() == game.score().to_json()
    assert totals(if_ended_now(game))["George"] == 79


def test_projection_in_year_4_equals_the_final_score_after_the_last_action(george_record):
    final_game = Game.from_record(george_record)
    final = final_game.score()
    game = Game.from_record(george_record)
    last = game.pop()                        # Milo's build, the last action of the game
    assert game.state.year == 4 and game.state.waiting == ["Milo"]
    proj = if_ended_now(game)
    assert not proj.final
    # nobody but Milo acts again and the objectives do not change hands
    for p in ("George", "Sandra", "Thalia"):
        mine = next(x for x in proj.to_json()["players"] if x["player"] == p)
        theirs = next(x for x in final.to_json()["players"] if x["player"] == p)
        assert mine["breakdown"] == theirs["breakdown"] and mine["total"] == theirs["total"]
    # Milo's row for the action he really took predicts his final total
    row = the_row(placement_map(game, "Milo", last["card"]), last["at"])
    assert row.projected_total == totals(final)["Milo"]


@pytest.mark.parametrize("back", [1, 4, 8, 13])
def test_projection_replayed_to_the_end_in_year_4(george_record, back):
    """From ``back`` actions before the end (all in year 4): before each remaining
    action, the what-if row for it predicts the acting player's projection after
    it; after the last one the projection is the final score."""
    final = Game.from_record(george_record).score()
    game = Game.from_record(george_record)
    rest = [game.pop() for _ in range(back)][::-1]
    assert game.state.year == 4
    for a in rest:
        p = a["player"]
        if a["do"] == "discard":
            df = hand_ranking(game, p, [a["card"]])
            row = df[df.action == "discard"].iloc[0]
        else:
            row = the_row(placement_map(game, p, a["card"]), a["at"], a["do"])
        game.push(a)
        assert row.projected_total == totals(if_ended_now(game))[p], a
    assert game.finished
    assert if_ended_now(game).to_json() == final.to_json()


def _ledger_by_year(game) -> dict:
    """VP per player per year from the score lines' text ('year Y turn T: ...')."""
    out = {}
    lines = score(game).lines
    for r in lines[lines.category == "during_game"].itertuples():
        year = int(r.rule.split()[1])
        out[(r.player, year)] = out.get((r.player, year), 0) + r.vp
    return out


@pytest.mark.parametrize("back", [0, 1, 30])
def test_vp_by_year_sums_to_the_during_game_vp(george_record, back):
    game = Game.from_record(george_record)
    for _ in range(back):
        game.pop()
    per_year = vp_by_year(game, cumulative=False)
    cum = vp_by_year(game)
    sc = if_ended_now(game)
    during = {r.player: int(r.during_game) for r in sc.table.itertuples()}
    assert list(per_year.index) == list(range(1, game.state.year + 1))
    assert list(per_year.columns) == george_record["setup"]["players"]
    by_lines = _ledger_by_year(game)
    for p in per_year.columns:
        assert int(per_year[p].sum()) == during[p] == game.state.players[p].vp
        assert int(cum[p].iloc[-1]) == during[p]
        assert list(cum[p]) == list(per_year[p].cumsum())
        for y in per_year.index:
            assert int(per_year.loc[y, p]) == by_lines.get((p, y), 0)


def test_vp_by_year_at_the_start_of_a_game():
    game = station_game([])
    df = vp_by_year(game)
    assert list(df.index) == [1] and df.loc[1].tolist() == [0, 0]


# ---------------------------------------------------------------------------
# sandbox
# ---------------------------------------------------------------------------
def test_sandbox_never_touches_the_real_game_until_apply():
    game = hda_station()
    real = json.dumps(game.to_record(), sort_keys=True)
    real_vp = {p: ps.vp for p, ps in game.state.players.items()}
    box = Sandbox(game)
    box.push({"player": "George", "do": "build", "card": HDA, "at": [1, 1]})
    box.push({"player": "Sandra", "do": "reactor", "card": "Garden", "at": [0, 1]})
    box.push({"player": "George", "do": "build", "card": CHEAP_MIL, "at": [2, 1]})
    assert json.dumps(game.to_record(), sort_keys=True) == real
    assert {p: ps.vp for p, ps in game.state.players.items()} == real_vp
    assert len(box.new_actions) == 3
    cmp = box.compare()
    assert list(cmp.index) == ["George", "Sandra"]
    assert list(cmp.columns) == ["real", "sandbox", "difference"]
    # HDA 2 + 3 adjacent, 2 credits spent (10 -> 8: one VP fewer for credits), then 1 printed
    assert cmp.loc["George", "difference"] == 5 - 1 + 1
    assert cmp.loc["Sandra", "difference"] == 0             # 22 -> 21 credits: still 7 VP
    assert (cmp.difference == cmp.sandbox - cmp.real).all()
    assert cmp.loc["George", "real"] == totals(if_ended_now(game))["George"]
    assert json.dumps(game.to_record(), sort_keys=True) == real


def test_sandbox_pop_stops_at_the_branch_point():
    game = hda_station()
    box = Sandbox(game)
    with pytest.raises(IllegalAction):
        box.pop()
    a = box.push({"player": "George", "do": "build", "card": HDA, "at": [1, 1]})
    assert box.pop() == a
    assert box.new_actions == []
    with pytest.raises(CompanionError):
        box.pop()
    assert len(box.branch.actions) == len(game.actions)


def test_sandbox_apply_pushes_the_actions_on_the_real_game():
    game = hda_station()
    n = len(game.actions)
    box = Sandbox(game)
    box.push({"player": "George", "do": "build", "card": HDA, "at": [1, 1]})
    box.push({"player": "Sandra", "do": "discard", "card": "Garden"})
    expected = box.compare().sandbox
    applied = box.apply()
    assert [a["card"] for a in applied] == [HDA, "Garden"]
    assert game.actions[n:] == applied
    assert json.dumps(game.to_record(), sort_keys=True) == \
        json.dumps(box.branch.to_record(), sort_keys=True)
    assert totals(if_ended_now(game)) == expected.to_dict()
    assert Game.from_record(game.to_record()).to_record() == game.to_record()
    # the sandbox carries on from the new branch point
    assert box.new_actions == []
    with pytest.raises(CompanionError):
        box.pop()
    box.push({"player": "George", "do": "discard", "card": "Garden"})
    assert len(box.apply()) == 1 and len(game.actions) == n + 3


def test_sandbox_apply_after_the_real_game_changed_raises():
    game = hda_station()
    box = Sandbox(game)
    box.push({"player": "George", "do": "build", "card": HDA, "at": [1, 1]})
    game.push({"player": "George", "do": "discard", "card": "Garden"})
    before = game.to_record()
    with pytest.raises(CompanionError):
        box.apply()
    assert game.to_record() == before


def test_sandbox_apply_after_undo_and_another_action_raises():
    # same number of actions as at the branch point, but not the same game
    game = hda_station()
    box = Sandbox(game)
    box.push({"player": "George", "do": "build", "card": HDA, "at": [1, 1]})
    last = game.pop()
    assert (last["player"], last["do"]) == ("Sandra", "discard")
    game.push({"player": "Sandra", "do": "discard", "card": CHEAP_BUS})
    assert len(game.actions) == box.start
    before = game.to_record()
    with pytest.raises(CompanionError):
        box.apply()
    assert game.to_record() == before


def test_branch_is_independent_of_the_game():
    game = hda_station()
    b = game.branch()
    b.push({"player": "George", "do": "build", "card": HDA, "at": [1, 1]})
    assert (1, 1) not in game.state.station("George")
    assert game.state.players["George"].credits == 10
    game.push({"player": "George", "do": "build", "card": CHEAP_MIL, "at": [2, 0]})
    assert (2, 0) not in b.state.station("George")
    assert b.to_record()["actions"][-1]["card"] == HDA
    assert game.to_record()["actions"][-1]["card"] == CHEAP_MIL


def test_trial_leaves_the_game_alone():
    game = hda_station()
    before = json.dumps(game.to_record(), sort_keys=True)
    state = game.state
    norm, after = game.trial({"player": "George", "do": "build", "card": HDA, "at": [1, 1]})
    assert game.state is state and (1, 1) not in state.station("George")
    assert after.players["George"].vp == state.players["George"].vp + 5
    assert norm["energy_from"] == [[0, 0]]
    assert json.dumps(game.to_record(), sort_keys=True) == before
    with pytest.raises(IllegalAction):
        game.trial({"player": "George", "do": "build", "card": HDA, "at": [5, 5]})


# ---------------------------------------------------------------------------
# the scratch station the options are tried on (a speed-up of Game.trial)
# ---------------------------------------------------------------------------
NOW_ADJ_MIL = fixture_card("Fixture: now +1 per adjacent military", types=["business"], cost=0,
                           energy=0, vp=0,
                           abilities=[{"when": "immediate", "per": "adjacent_location",
                                       "types": ["military"], "vp": 1}])


def test_an_option_that_fails_after_placing_leaves_the_next_options_right():
    # U-Cannon's types are not printed in the books: building next to it a card
    # that counts adjacent military types fails *after* the card was placed.
    # Every later row must still see the station as it was.
    game = new_game(["George", "Sandra"], cards=FIXTURES + [NOW_ADJ_MIL])
    play(game, {"George": [build("U-Cannon", [0, 1]), build(CHEAP_MIL, [1, 0])]}, turns=2)
    df = placement_map(game, "George", NOW_ADJ_MIL["name"])
    for cell in [(0, 2), (1, 1), (-1, 1)]:                  # next to the U-Cannon
        r = the_row(df, cell)
        assert not r.legal and r.rule == "unknown-values" and "U-Cannon" in r.reason
    assert the_row(df, [2, 0]).vp_now == 1                  # next to (1, 0) military only
    assert the_row(df, [1, -1]).vp_now == 1
    check_rows_against_push(game, "George", df)
    hr = hand_ranking(game, "George", [NOW_ADJ_MIL["name"], HDA])
    check_rows_against_push(game, "George", hr)


@pytest.mark.parametrize("make", ["hda", "energy", "farthest", "objectives"])
def test_scratch_station_gives_what_game_trial_gives(monkeypatch, make):
    import companion.ats.whatif as whatif
    game = {
        "hda": hda_station,
        "energy": lambda: station_game([build(ENERGY1, [0, 1], energy_from=[[0, 0]]),
                                        reactor([0, 2])]),
        "farthest": lambda: station_game([build(CHEAP_BUS, [0, 1]), build(FARTHEST, [0, 2])]),
        "objectives": lambda: station_game(
            [build(CHEAP_MIL, [0, 1]), build(PER_CREDIT, [0, 2])],
            objectives=["Fixture: most military", "Fixture: most credits"],
            others={"Sandra": [build(CHEAP_MIL, [0, 1])]}),
    }[make]()
    hand = [HDA, CHEAP_MIL, FARTHEST, ENERGY1, PER_CREDIT, "Garden"]
    fast_maps = [placement_map(game, "George", c) for c in hand]
    fast_hand = hand_ranking(game, "George", hand)
    monkeypatch.setattr(whatif, "_FAST", False)              # every option through Game.trial
    for c, fast in zip(hand, fast_maps):
        pd.testing.assert_frame_equal(fast, placement_map(game, "George", c))
    pd.testing.assert_frame_equal(fast_hand, hand_ranking(game, "George", hand))
