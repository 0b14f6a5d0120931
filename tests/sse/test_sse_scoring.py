"""Scoring (S Scoring, S Tiebreakers): planets, nebula sets, trade stations, the largest
territory, live and final tables, and the whole tiebreak chain."""
from __future__ import annotations

import pytest

from companion.sse.scoring import rank, score, tiebreak_words

from ssekit import colonise, game, move

# a 2D board: (q, r) rows; Ann's homeworld far from Bob's
BOARD = """
H1 E  E  E  E  E  E
E  E  E  E  E  E  E
Nr Nr Nr Nb Nb Ng E
E  E  E  E  E  E  E
E  E  E  E  E  E  H2
"""


def totals(g, **kw):
    s = score(g, project=True, **kw)
    return {r.player: {c: int(getattr(r, c)) for c in s.table.columns if c not in ("player",)}
            for r in s.table.itertuples()}


def test_planets_score_when_colonised_and_show_live():
    g = game("H1 P1 P2 P3 E E H2")
    move(g, "Ann", (3, 0))
    assert g.state.players["Ann"].vp == 3
    live = g.score()
    assert not live.final
    row = live.table.set_index("player").loc["Ann"]
    assert row.planets == 3 and row.total == 3
    assert live.explanation.startswith("Game in progress. Ann leads with 3 VP")
    assert list(live.lines.category) == ["planets"]


@pytest.mark.parametrize("n, vp", [(1, 2), (2, 5), (3, 8)])
def test_nebula_sets_per_colour(n, vp):
    g = game(BOARD)
    for q in range(n):
        colonise(g, (q, 2), "Ann")
    t = totals(g)
    assert t["Ann"]["nebulae"] == vp


def test_nebula_colours_score_separately():
    g = game(BOARD)
    for q in (0, 1, 3, 5):           # 2 red, 1 blue, 1 green
        colonise(g, (q, 2), "Ann")
    colonise(g, (4, 2), "Bob")       # 1 blue
    t = totals(g)
    assert t["Ann"]["nebulae"] == 5 + 2 + 2
    assert t["Bob"]["nebulae"] == 2


def test_trade_station_book_example_five_opponent_systems_not_its_own():
    # the book: a Trade Station next to 5 opponent systems scores 5; the sixth
    # neighbour is the owner's own system and does not count
    g = game("""
E E E E E
E E E E E
E E E E E
H1 E E E H2
""")
    centre = (2, 1)
    colonise(g, centre, "Ann", "trade_station")
    ring = [(3, 1), (1, 1), (2, 0), (2, 2), (3, 0), (1, 2)]
    colonise(g, ring[0], "Ann")              # own: does not count
    for h in ring[1:]:
        colonise(g, h, "Bob", "trade_station" if h == (2, 0) else "city")
    s = score(g, project=True)
    lines = s.lines[(s.lines.player == "Ann") & (s.lines.category == "trade_stations")]
    assert list(lines.vp) == [5]
    assert "5 adjacent opponent systems" in lines.rule.iloc[0]


def test_trade_station_counts_an_opponent_homeworld():
    g = game("H1 E E H2")
    colonise(g, (2, 0), "Ann", "trade_station")
    assert totals(g)["Ann"]["trade_stations"] == 1


def test_largest_territory_three_and_ties_all_get_three():
    g = game(BOARD)
    # Ann: homeworld (0,0) + (1,0) + (2,0) = 3 connected; Bob: (6,4) + (5,4) + (4,4) = 3
    for h in ((1, 0), (2, 0)):
        colonise(g, h, "Ann")
    for h in ((5, 4), (4, 4)):
        colonise(g, h, "Bob")
    t = totals(g)
    assert t["Ann"]["territory"] == 3 and t["Bob"]["territory"] == 3
    assert t["Ann"]["largest_territory"] == 3
    s = score(g, project=True)
    assert "tied with Bob" in s.lines[(s.lines.player == "Ann") & (s.lines.category == "territory")].rule.iloc[0]
    colonise(g, (3, 4), "Bob")
    t = totals(g)
    assert t["Ann"]["territory"] == 0 and t["Bob"]["territory"] == 3


def test_territory_is_the_largest_connected_group_only():
    g = game(BOARD)
    for h in ((0, 2), (1, 2), (2, 2), (3, 2), (5, 0)):     # 4 connected + a lone one
        colonise(g, h, "Ann")
    for h in ((6, 3), (5, 4)):
        colonise(g, h, "Bob")
    t = totals(g)
    assert t["Ann"]["largest_territory"] == 4   # (0,2)..(3,2); homeworld (0,0) is not next to them
    assert t["Ann"]["territory"] == 3 and t["Bob"]["territory"] == 0


def _table(rows):
    cols = ["player", "total", "cities_left", "trade_stations_left", "planets_controlled"]
    return [dict(zip(cols, r)) for r in rows]


@pytest.mark.parametrize("rows, winners, decided", [
    ([("Ann", 20, 1, 0, 3), ("Bob", 18, 9, 4, 9)], ["Ann"], "vp"),
    ([("Ann", 20, 1, 4, 9), ("Bob", 20, 2, 0, 0)], ["Bob"], "cities_left"),
    ([("Ann", 20, 2, 1, 9), ("Bob", 20, 2, 3, 0)], ["Bob"], "trade_stations_left"),
    ([("Ann", 20, 2, 3, 9), ("Bob", 20, 2, 3, 7)], ["Ann"], "planets"),
    ([("Ann", 20, 2, 3, 9), ("Bob", 20, 2, 3, 9), ("Cy", 19, 9, 9, 9)], ["Ann", "Bob"], "shared"),
    # only the players tied on VP take part in the tiebreak
    ([("Ann", 20, 0, 0, 1), ("Bob", 20, 0, 0, 2), ("Cy", 19, 9, 9, 9)], ["Bob"], "planets"),
])
def test_tiebreak_chain(rows, winners, decided):
    table, w, d, text = rank(_table(rows), final=True)
    assert w == winners and d == decided
    assert tiebreak_words(d)
    if decided == "shared":
        assert "share the victory" in text
    elif decided != "vp":
        assert "decided by" in text
    assert [r["rank"] for r in table][:len(winners)] == [1] * len(winners)


def test_tiebreak_in_a_real_game_cities_left():
    # two separate little galaxies: both players score 2 planets + 3 territory = 5 VP;
    # Ann colonised with a Trade Station and a City, Bob with two Cities
    g = game("""
H1 P1 P1
.  .  .
H2 P1 P1
""", pieces={"cities": 2, "trade_stations": 1})
    move(g, "Ann", (2, 0), piece="trade_station")
    move(g, "Bob", (2, 2), piece="city")
    move(g, "Ann", (1, 0), piece="city")
    move(g, "Bob", (1, 2), piece="city")
    assert g.state.finished and g.state.end_reason == "no player can move a ship"
    s = g.score()
    assert s.totals() == {"Ann": 5, "Bob": 5}
    assert s.winners == ["Ann"] and s.decided_by == "cities_left"
    assert "Cities left: Ann 1, Bob 0" in s.explanation


def test_final_table_json_shape():
    g = game("H1 P2 E H2", pieces={"cities": 1, "trade_stations": 0})
    move(g, "Ann", (1, 0))
    move(g, "Bob", (2, 0))
    s = g.score()
    j = s.to_json()
    assert j["format"] == "small-star-empires/1" and j["final"] is True
    ann = next(p for p in j["players"] if p["player"] == "Ann")
    assert ann["breakdown"]["planets"] == 2
    assert set(ann["breakdown"]) == {"planets", "exploration", "nebulae", "trade_stations",
                                     "territory", "hollana", "tennar", "open_borders"}
    # both have a territory of 2 (homeworld + colony): both get 3
    assert ann["breakdown"]["territory"] == 3
    assert j["winners"] == ["Ann"] and j["decided_by"] == "vp"
