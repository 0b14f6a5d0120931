"""Issue 39, the engine part for Small Star Empires: "Score the table as it lies".  A game
laid from the table (``setup.options.laid``) holds one ``lay`` entry per player: the
player's pieces as they lie on the map laid from the typed sector tiles, their ships, and
the score track's VP.  ``"final"``: scored at once by companion.sse.scoring; ``"now"``: the
game goes on move by move (companion/sse/lay.py).

Every tile here is a TEST INPUT invented for the tests (ids HA, HB, HC, MA, MB): no test
claims to know what a real tile of the box holds.  The sentences of the rulebook the tests
rely on ("S ..." = its sections):

- S Colonize: "If you colonize a Planetary System during your turn, you will immediately
  score points on the Score Track equal to the number of planets present in that system."
  "No other players may later colonize that system during their turn."
- S Scoring: "Score 2, 5 or 8 if you control 1, 2 or 3 Nebulae of a color, respectively."
  Trade Stations: "1 For each opponent system next to each of your Trade Stations."
  "3 For the player with the largest territory (most connected systems in a single
  territory under his or her control). If players are tied for having the most systems in
  a single territory, they all gain 3."
- S Tiebreakers: "In case of a tie, the player that has the most Cities left in his
  reserve is the winner of the game. If there is still a tie, the player that has the most
  Trade Stations left in his reserve is the winner. If there is still a tie, the player
  controlling the most planets from the tied players is the winner of the game."
- S Unexplored Systems: "You may only move your ship into these systems and colonize them
  using Cities."; the Tennar Union: "colonize it with a City. Score 2. At the end of the
  game, each player that controls at least one system adjacent to the Tennar Union system
  scores additional 2."; the Nordinn Empire: "choose one of them to destroy (return the
  City back to your reserves)".
- S Game End: "Play continues, until all of the players cannot move their ships anymore
  and each player passes."
"""
from __future__ import annotations

import copy
import json

import pytest

from companion.core.errors import IllegalAction, RecordError
from companion.sse import SseGame, parse_record
from companion.sse import actions
from companion.sse.lay import TRACK_RULE, trusted
from companion.sse.laying import Placement, lay
from companion.sse.record import dumps

from test_sse_tiles import line_form, sys_, tiles_of

PLAYERS = ["Ana", "Ben", "Cleo"]


# ----------------------------------------------------------------------------- the map
def home(tid, west, nebula):
    """A homeworld tile (test input): a 1-planet system east, ``west`` planets west, an
    empty system north-east, a ``nebula`` south-east."""
    return {"id": tid, "kind": "homeworld",
            "systems": [sys_((0, 0), "homeworld"), sys_((1, 0), "planetary", planets=1),
                        sys_((-1, 0), "planetary", planets=west), sys_((1, -1), "empty"),
                        sys_((0, 1), "nebula", colour=nebula)]}


TILES = tiles_of(
    home("HA", 2, "blue"), home("HB", 2, "green"), home("HC", 3, "blue"),
    {"id": "MA", "kind": "main",
     "systems": [sys_((0, 0), "empty"), sys_((1, 0), "planetary", planets=2),
                 sys_((1, -1), "nebula", colour="red"), sys_((0, -1), "planetary", planets=3),
                 sys_((-1, 0), "nebula", colour="green"), sys_((-1, 1), "empty"),
                 sys_((0, 1), "planetary", planets=1)]},
    {"id": "MB", "kind": "main",
     "systems": [sys_((0, 0), "planetary", planets=2), sys_((1, 0), "nebula", colour="red"),
                 sys_((1, -1), "empty"), sys_((0, -1), "planetary", planets=1),
                 sys_((-1, 0), "nebula", colour="blue"), sys_((-1, 1), "nebula", colour="green"),
                 sys_((0, 1), "empty")]})
ROW = line_form(["homeworld", "main", "homeworld", "main", "homeworld"], name="row")
#: the map laid from the typed tiles, as the setup screen lays it: seat 1 (Ana) at [0, 0],
#: seat 2 (Ben) at [4, 2], seat 3 (Cleo) at [8, 4]
MAP = lay(ROW, [Placement(i, t, 0) for i, t in enumerate(["HA", "MA", "HB", "MB", "HC"])],
          TILES).to_dict()


def setup(laid="final", **extra):
    return {"players": list(PLAYERS), "map": copy.deepcopy(MAP), "pieces": {"ships": 3},
            "options": {"laid": laid}, **extra}


def P(at, piece="city", **kw):
    return {"at": list(at), "piece": piece, **kw}


CITY, TS = "city", "trade_station"
LAYS = [
    {"do": "lay", "player": "Ana", "vp": 6,
     "pieces": [P((1, 0)), P((-1, 0)), P((0, 1)), P((2, 0)), P((1, 1), TS), P((3, 0))]},
    {"do": "lay", "player": "Ben", "vp": 6,
     "pieces": [P((3, 2)), P((5, 2)), P((3, 1)), P((2, 1), TS), P((4, 3)), P((5, 3)),
                P((2, 2), TS)]},
    {"do": "lay", "player": "Cleo", "vp": 7,
     "pieces": [P((7, 4)), P((9, 4), TS), P((6, 3)), P((5, 4)), P((7, 3)), P((8, 5), TS),
                P((6, 2))]},
]


def new_game(laid="final", **extra) -> SseGame:
    return SseGame(setup(laid, **extra))


def laid_game() -> SseGame:
    g = new_game()
    for a in LAYS:
        g.push(copy.deepcopy(a))
    return g


# ----------------------------------------------------------------------------- by hand
#: The final table, by hand, from the map (the systems: companion.sse.laying.lay of the
#: tiles above; a hex (q, r) touches (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1)):
#: Planets, "immediately ... equal to the number of planets": Ana [1,0] 1 + [-1,0] 2 +
#:   [2,0] 3 = 6 (the track says 6); Ben [3,2] 2 + [5,2] 1 + [3,1] 2 + [2,2] 1 = 6; Cleo
#:   [7,4] 3 + [9,4] 1 + [6,3] 2 + [6,2] 1 = 7.
#: Nebulae, "2, 5 or 8 if you control 1, 2 or 3 Nebulae of a color": Ana blue [0,1],
#:   green [1,1], red [3,0]: 2 + 2 + 2 = 6; Ben green [4,3], blue [5,3]: 4; Cleo green
#:   [5,4], red [7,3], blue [8,5]: 6.
#: Trade Stations, "1 For each opponent system next to each": Ana's [1,1] touches Ben's
#:   [2,1]: 1; Ben's [2,1] touches Ana's [3,0], [2,0], [1,1]: 3, Ben's [2,2] only his own
#:   and empty [1,2]: 0; Cleo's [9,4] and [8,5] touch only her own: 0.
#: Territory: Ana 7 connected systems (home and 6), Ben 8, Cleo 8: "If players are tied
#:   for having the most systems in a single territory, they all gain 3": Ben 3, Cleo 3.
#: Ana 6+6+1 = 13, Ben 6+4+3+3 = 16, Cleo 7+6+0+3 = 16.
#: Tiebreak Ben/Cleo: "the most Cities left in his reserve": 16 - 5 = 11 each; "the most
#:   Trade Stations left": 4 - 2 = 2 each; "the most planets": Ben 6, Cleo 7: Cleo wins.
HAND = {
    "Cleo": {"planets": 7, "exploration": 0, "nebulae": 6, "trade_stations": 0,
             "territory": 3, "hollana": 0, "tennar": 0, "open_borders": 0},
    "Ben": {"planets": 6, "exploration": 0, "nebulae": 4, "trade_stations": 3,
            "territory": 3, "hollana": 0, "tennar": 0, "open_borders": 0},
    "Ana": {"planets": 6, "exploration": 0, "nebulae": 6, "trade_stations": 1,
            "territory": 0, "hollana": 0, "tennar": 0, "open_borders": 0},
}
LEFT = {"Cleo": (11, 2, 7, 8), "Ben": (11, 2, 6, 8), "Ana": (11, 3, 6, 7)}


def test_the_final_table_is_the_hand_computation():
    g = laid_game()
    assert g.state.finished and g.state.current is None
    out = g.score().to_json()
    assert out["final"]
    assert [r["player"] for r in out["players"]] == ["Cleo", "Ben", "Ana"]
    for row in out["players"]:
        assert row["breakdown"] == HAND[row["player"]], row
        assert row["total"] == sum(HAND[row["player"]].values())
        assert (row["cities_left"], row["trade_stations_left"], row["planets"],
                row["largest_territory"]) == LEFT[row["player"]]
    assert {r["player"]: r["total"] for r in out["players"]} == {"Ana": 13, "Ben": 16,
                                                                 "Cleo": 16}


def test_the_tie_is_decided_down_the_books_chain():
    s = laid_game().score()
    assert s.winners == ["Cleo"] and s.decided_by == "planets"
    assert [(r["player"], r["rank"]) for r in s.rows] == [("Cleo", 1), ("Ben", 2), ("Ana", 3)]
    assert "Cities left: Cleo 11, Ben 11" in s.explanation
    assert "Trade Stations left: Cleo 2, Ben 2" in s.explanation
    assert "planets controlled: Cleo 7, Ben 6" in s.explanation


def test_the_planets_come_from_the_map_as_the_moves_would_have_scored_them():
    s = laid_game().score()
    planets = [(l["player"], l["cell"], l["vp"]) for l in s.line_rows
               if l["category"] == "planets"]
    assert ("Ana", [2, 0], 3) in planets and ("Cleo", [7, 4], 3) in planets
    assert not any(l["rule"] == TRACK_RULE for l in s.line_rows)   # the track says no more


def test_a_played_game_and_its_final_position_laid_score_the_same():
    """The same map played move by move to its end, then laid from its final position
    (pieces, ships, the track): ``score --json`` is the same."""
    played = SseGame({**setup(), "options": {}})
    while not played.state.finished:     # the first legal move, Cities and Trade Stations
        p = played.current               # in turn
        i, m = next((i, m) for i in range(3) for m in played.legal_moves(p, i))
        piece = m.pieces[len(played.actions) % len(m.pieces)] if m.pieces else None
        played.push({"player": p, "ship": i, "to": list(m.to), "piece": piece})
    assert any(c.piece == TS for c in played.state.colonies.values())
    assert played.state.finished and played.actions
    st = played.state
    g = new_game()
    for p in PLAYERS:
        ps = st.players[p]
        g.push({"do": "lay", "player": p,
                "pieces": [P(h, c.piece) for h, c in sorted(st.colonies.items()) if c.owner == p],
                "ships": [{"at": list(s.at)} for s in ps.ships], "vp": ps.vp})
    assert g.state.finished and g.state.end_reason == "no player can move a ship (laid from the table)"
    assert g.score().to_json() == played.score().to_json()


# ----------------------------------------------------------------------------- the record
def test_record_round_trip_undo_and_replay():
    g = laid_game()
    rec = json.loads(json.dumps(g.to_record()))
    assert rec["setup"]["options"] == {"laid": "final"} and rec["actions"] == LAYS
    back = SseGame.from_record(parse_record(dumps(rec)))
    assert back.to_record() == rec and back.score().to_json() == g.score().to_json()
    trusted = SseGame.from_record(copy.deepcopy(rec), trusted=True)
    assert trusted.score().to_json() == g.score().to_json()
    last = g.pop()                                  # undo the last lay
    assert last == LAYS[-1] and not g.state.finished and g.state.laid == ["Ana", "Ben"]
    assert not any(c.owner == "Cleo" for c in g.state.colonies.values())
    g.push(copy.deepcopy(LAYS[-1]))
    assert g.to_record() == rec
    part = SseGame.from_record({**copy.deepcopy(rec), "actions": rec["actions"][:1]})
    part.replay(copy.deepcopy(rec["actions"][1:]))
    assert part.to_record() == rec
    for a in LAYS:                                  # each entry reads back from its notation
        typed = actions.from_dict(a)
        assert actions.parse(str(typed)) == typed and typed.to_dict() == a
    assert str(actions.from_dict(LAYS[0])).startswith('Ana lay pieces=[{"at":[1,0],')
    assert g.describe(LAYS[0]) == ("Ana laid the position from the table (6 pieces, "
                                   "6 VP on the score track)")


def test_check_is_a_query():
    g = new_game()
    before = g.to_record()
    assert g.check(copy.deepcopy(LAYS[0]))["player"] == "Ana"
    assert g.to_record() == before and g.state.laid == [] and not g.state.colonies


def test_a_bad_laid_option_is_refused():
    with pytest.raises(RecordError, match="setup.options.laid"):
        SseGame(setup("halfway"))


# ----------------------------------------------------------------------------- refusals
def _refused(a, rule, words, *, game=None):
    g = game if game is not None else new_game()
    before = g.to_record()
    state = (g.state.index, list(g.state.laid), dict(g.state.colonies),
             {p: (ps.vp, ps.cities, ps.trade_stations) for p, ps in g.state.players.items()})
    with pytest.raises(IllegalAction) as e:
        g.push(copy.deepcopy(a))
    assert e.value.rule == rule, str(e.value)
    assert words in str(e.value), str(e.value)
    assert "\n" not in str(e.value)
    assert g.to_record() == before
    assert (g.state.index, list(g.state.laid), dict(g.state.colonies),
            {p: (ps.vp, ps.cities, ps.trade_stations)
             for p, ps in g.state.players.items()}) == state
    return e.value


def ana(*pieces, **kw):
    return {"do": "lay", "player": "Ana", "pieces": list(pieces), "vp": kw.pop("vp", 0), **kw}


def after(*entries, laid="final", **extra):
    g = new_game(laid, **extra)
    for a in entries:
        g.push(copy.deepcopy(a))
    return g


def test_a_piece_on_no_system_of_the_map():
    _refused(ana(P((20, 20))), "off-map", "Ana's City at [20, 20]: there is no system at "
             "[20, 20] on the laid map")


def test_a_piece_on_a_homeworld():
    # S Movement: your ship CANNOT "MOVE INTO into your Homeworld System", nor a system
    # "already colonized by another player" (a homeworld counts as its player's)
    _refused(ana(P((0, 0))), "own-homeworld", "Ana's City at [0, 0]: [0, 0] is Ana's own "
             "homeworld")
    _refused(ana(P((4, 2), TS)), "opponent-system", "Ana's Trade Station at [4, 2]: [4, 2] is "
             "Ben's homeworld")


def test_a_piece_on_a_wormhole():
    # S Wormholes: "you cannot move your ship into a Wormhole System"; the setup screen lays
    # a wormhole on the middle empty system of a main sector tile ("Place the Wormhole
    # Systems on the middle Empty System on the Main Sector Tiles.")
    worm = lay(ROW, [Placement(i, t, 0, wormhole=(i == 1))
                     for i, t in enumerate(["HA", "MA", "HB", "MB", "HC"])], TILES)
    g = SseGame({**setup(), "map": worm.to_dict()})
    _refused(ana(P((2, 1))), "wormhole-end", "Ana's City at [2, 1]: [2, 1] is a Wormhole",
             game=g)


def test_two_pieces_on_one_system():
    # S Colonize: "No other players may later colonize that system during their turn."
    e = _refused(LAYS[1] | {"pieces": [P((1, 0))]}, "occupied",
                 "Ben's City at [1, 0]: [1, 0] holds Ana's City", game=after(LAYS[0]))
    assert str(e).startswith("Ben lay: ")
    _refused(ana(P((1, 0)), P((1, 0), TS)), "occupied", "[1, 0] is laid twice")


def test_more_pieces_than_the_setup_gives():
    # S Components: "4 Ships, 16 Cities and 4 Trade Stations per player"
    five = [P(h, TS) for h in ((1, 0), (-1, 0), (0, 1), (2, 0), (1, 1))]
    _refused(ana(*five), "no-pieces", "Ana lays 5 Trade Stations on the map: the setup gives "
             "each player 4")


def test_the_track_below_what_the_map_shows():
    _refused(ana(P((2, 0)), vp=2), "track", "Ana's score track says 2 VP and the map shows "
             "3 VP scored during play")


def test_the_track_above_the_map_needs_a_destroyed_city():
    # S Unexplored Systems, the Nordinn Empire: "choose one of them to destroy (return the
    # City back to your reserves)": the only way VP scored leaves the map.  This map has no
    # Unexplored System, so a track above the map is refused on that player's own lay, in
    # that player's name (issue 50: it was refused only on the last lay, naming another)
    g = after(LAYS[0], LAYS[1])
    e = _refused(LAYS[2] | {"vp": 9}, "track", "Cleo's score track says 9 VP and the map "
                 "shows", game=g)
    assert "no Unexplored System" in str(e)
    first = _refused(LAYS[0] | {"vp": 9}, "track", "Ana's score track says 9 VP")
    assert str(first).startswith("Ana lay: ")


def test_when_a_lay_may_come():
    plain = SseGame({**setup(), "options": {}})
    _refused(LAYS[0], "lay", "setup.options.laid", game=plain)
    g = after(LAYS[0])
    _refused(LAYS[0], "lay", "Ana's pieces are laid already", game=g)
    _refused({"player": "Ben", "ship": 0, "to": [5, 2], "piece": "city"}, "lay",
             "lay every player's pieces first (still to lay: Ben, Cleo)", game=g)
    _refused(LAYS[0], "lay", "laid already", game=laid_game())
    _refused({"player": "Ben", "ship": 0, "to": [5, 1], "piece": "city"}, "game-over",
             "the game is over", game=laid_game())


def test_the_ships_a_final_position_gives_are_checked():
    ships = [{"at": [0, 0]}, {"at": [1, 0]}, {"at": [3, 1]}]        # [3, 1]: Ben's system
    g = after(LAYS[0] | {"ships": [{"at": [0, 0]}] * 3}, LAYS[1])
    _refused(LAYS[2] | {"ships": [{"at": [7, 4]}] * 2}, "ships", "Cleo lays 2 ship(s): each "
             "player has 3", game=g)
    g = after(LAYS[0] | {"ships": ships}, LAYS[1])
    _refused(LAYS[2], "ships", "Ana's ship 2 at [3, 1]: [3, 1] is Ben's, and a ship stops only "
             "in the system it colonises", game=g)
    g = after(LAYS[0] | {"ships": [{"at": [0, 0]}, {"at": [4, 2]}, {"at": [1, 0]}]}, LAYS[1])
    _refused(LAYS[2], "ships", "Ana's ship 1 at [4, 2]: [4, 2] is another player's homeworld",
             game=g)
    _refused(ana(ships=[{"at": [0, 0]}, {"at": [0, 0]}, {"at": [0, 0], "damaged": True}]),
             "damaged", "Ana's ship 2 at [0, 0] is damaged")


def test_a_final_position_where_a_ship_can_still_move_is_not_the_end():
    homes = {"Ana": [0, 0], "Ben": [4, 2], "Cleo": [8, 4]}
    g = after(*[a | {"ships": [{"at": homes[a["player"]]}] * 3} for a in LAYS[:2]])
    e = _refused(LAYS[2] | {"ships": [{"at": [8, 4]}] * 3}, "not-over",
                 "Ana's ship 0 at [0, 0] can still move", game=g)
    assert "S Game End" in str(e)


@pytest.mark.parametrize("entry, rule, words", [
    ({"do": "lay", "player": "Ana", "pieces": []}, "malformed",
     "vp: Ana's position on the score track"),
    ({"do": "lay", "player": "Ana", "vp": 0}, "malformed", "give Ana's pieces on the map"),
    (ana(vp="6"), "malformed", "vp: Ana's position"),
    (ana(vp=True), "malformed", "vp: Ana's position"),
    (ana(P((1, 0), "castle")), "malformed", "pieces[0] at [1, 0]: the piece is 'city' or "
     "'trade_station', not 'castle'"),
    (ana({"at": [1, 0]}), "malformed", "the piece is 'city' or 'trade_station', not None"),
    (ana({"at": "here", "piece": "city"}), "malformed", "pieces[0].at must be [q, r]"),
    (ana([1, 0]), "malformed", "pieces[0] is {\"at\": [q, r]"),
    (ana(P((1, 0), colour="red")), "malformed", "pieces[0] is {\"at\""),
    (ana(ships="all"), "malformed", "ships is a list"),
    (ana(received=2), "malformed", "'received' counts the Cities of Open Borders"),
    (ana(next=True), "malformed", "'next' says whose turn it is in a game laid now"),
    (ana(colour="red"), "malformed", "unknown key 'colour'"),
    (ana(ship=0), "malformed", "unknown key 'ship' in a lay entry"),
    (ana(P((1, 0), "<script>alert(1)</script>")), "malformed",
     "not '<script>alert(1)</script>'"),
    (ana(P((1, 0), '=HYPERLINK("http://evil","x")')), "malformed",
     "not '=HYPERLINK(\"http://evil\",\"x\")'"),
    ({"do": "lay", "player": "<script>alert(1)</script>", "pieces": [], "vp": 0},
     "wrong-player", "'<script>alert(1)</script>' is not a player of this game"),
    ({"do": "lay", "player": '=HYPERLINK("x")', "pieces": [], "vp": 0},
     "wrong-player", "'=HYPERLINK(\"x\")' is not a player of this game"),
    ({"player": "Ana", "ship": 0, "to": [1, 0], "vp": 3}, "malformed",
     "'vp' is only for a lay entry"),
])
def test_a_malformed_entry_gets_a_clear_message(entry, rule, words):
    _refused(entry, rule, words)


def test_hostile_names_play_a_laid_game(run_cli, tmp_path):
    names = ["<script>alert(1)</script>", '=HYPERLINK("http://evil","x")', "Cleo"]
    g = SseGame({**setup(), "players": names})
    for a, who in zip(LAYS, names):
        g.push(copy.deepcopy(a) | {"player": who})
    assert g.score().winners == ["Cleo"]
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(g.to_record()))
    r = run_cli("check", path, home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    assert "score track: <script>alert(1)</script> 6 VP" in r.stdout


# ----------------------------------------------------------------------------- variants
UNEXPLORED = {"variants": {"unexplored": True}}


def test_unexplored_tiles_are_read_from_the_pieces():
    # the empty systems carry face-down tiles; [2, 1] revealed as the Tennar Union under
    # Ben's City: "Score 2" at once, and at the end "each player that controls at least one
    # system adjacent to the Tennar Union system scores additional 2" (Ana's [3, 0], [2, 0],
    # [1, 1] and Ben's own [3, 1], [2, 2] touch it)
    ben = LAYS[1] | {"vp": 8, "pieces": [P((3, 2)), P((5, 2)), P((3, 1)),
                                         P((2, 1), reveal={"effect": "tennar_union"}),
                                         P((4, 3)), P((5, 3)), P((2, 2), TS)]}
    g = after(LAYS[0], ben, LAYS[2], **UNEXPLORED)
    out = {r["player"]: r["breakdown"] for r in g.score().to_json()["players"]}
    assert out["Ben"]["exploration"] == 2 and out["Ben"]["tennar"] == 2
    assert out["Ana"]["tennar"] == 2 and out["Cleo"]["tennar"] == 0
    # Ben's Trade Station at [2, 1] is now a City: Ana's [1, 1] still touches Ben's [2, 1]
    assert out["Ana"]["trade_stations"] == 1 and out["Ben"]["trade_stations"] == 0


def test_unexplored_refusals():
    g = new_game(**UNEXPLORED)
    _refused(ana(P((1, -1))), "reveal", "Ana's City at [1, -1]: [1, -1] is an Unexplored "
             "System: give the tile", game=g)
    _refused(ana(P((1, -1), TS, reveal={"effect": "planetary", "planets": 2})),
             "unexplored-city", "colonize them using Cities", game=g)
    _refused(ana(P((1, -1), reveal={"effect": "planetary"})), "reveal",
             "a planetary tile has 1 to 3 planets", game=g)
    _refused(ana(P((1, -1), reveal={"effect": "asteroid_field"})), "blocked-system",
             "the Asteroid Field colonises nothing", game=g)
    _refused(ana(P((1, 0), reveal={"effect": "tennar_union"})), "reveal",
             "it is a planetary system (1 planet), not an Unexplored System", game=g)
    g = after(ana(revealed=[{"at": [1, -1], "effect": "asteroid_field"}]), **UNEXPLORED)
    _refused(LAYS[1] | {"pieces": [P((1, -1), reveal={"effect": "planetary", "planets": 1})]},
             "blocked-system", "[1, -1] is a revealed Asteroid Field", game=g)


def test_the_nordinn_empire_explains_the_track_and_its_conquest_marker():
    # Ana revealed the Nordinn Empire at [1, 2] and destroyed her own adjacent City on
    # [2, 2] (1 planet, scored when colonised): the marker lies on [2, 2], the VP stay on
    # her track (7 = 6 on the map + 1 from the track alone)
    nordinn = {"do": "lay", "player": "Ana", "vp": 7,
               "pieces": LAYS[0]["pieces"], "conquered": [[2, 2]],
               "revealed": [{"at": [1, 2], "effect": "nordinn_empire"}]}
    # Ben: no Trade Station on [2, 2] any more; on [2, 1] a City on a planetary tile (1)
    ben = LAYS[1] | {"pieces": [p for p in LAYS[1]["pieces"] if p["at"] != [2, 2]]}
    ben["pieces"][3] = P((2, 1), reveal={"effect": "planetary", "planets": 1})
    g = after(nordinn, ben, LAYS[2], **UNEXPLORED)
    track = [l for l in g.score().line_rows if l["rule"] == TRACK_RULE]
    assert [(l["player"], l["vp"]) for l in track] == [("Ana", 1)]
    assert (2, 2) in g.state.conquered and (1, 2) in g.state.blocked
    assert trusted(g.actions, g.state)[0] == (
        "taken on trust (laid from the table): VP during the game taken from the score track: "
        "Ana 7 VP (the map shows 6; 1 from the track alone)")
    # a piece on the conquered system is refused; a marker far from the Nordinn Empire too
    g = after(nordinn, **UNEXPLORED)
    _refused(LAYS[1] | {"pieces": [P((2, 2))]}, "conquered", "[2, 2] carries a Nordinn "
             "conquest marker", game=g)
    _refused(nordinn | {"conquered": [[5, 1]]}, "destroy", "it is next to no Nordinn Empire",
             game=new_game(**UNEXPLORED))
    _refused(nordinn | {"conquered": [[2, 2], [1, 1]]}, "destroy", "each destroys one City",
             game=new_game(**UNEXPLORED))


def test_open_borders_cities_are_typed_and_must_match():
    # S Open Borders: "pay him one of your unused Cities in your reserves to pass (the
    # opponent puts the City in front of him) ... score 2 for each City that they got"
    ob = {"variants": {"open_borders": True}}
    g = after(LAYS[0] | {"received": 1}, LAYS[1] | {"paid": 1}, LAYS[2], **ob)
    out = {r["player"]: r for r in g.score().to_json()["players"]}
    assert out["Ana"]["breakdown"]["open_borders"] == 2 and out["Ben"]["cities_left"] == 10
    g = after(LAYS[0] | {"received": 2}, LAYS[1] | {"paid": 1}, **ob)
    _refused(LAYS[2], "open-borders", "the players paid 1 City to pass and received 2", game=g)


# ----------------------------------------------------------------------------- a game now
NOW = [
    {"do": "lay", "player": "Ana", "pieces": [P((1, 0)), P((2, 0))], "vp": 4,
     "ships": [{"at": [0, 0]}, {"at": [1, 0]}, {"at": [2, 0]}]},
    {"do": "lay", "player": "Ben", "pieces": [P((3, 2))], "vp": 2, "next": True,
     "ships": [{"at": [4, 2]}, {"at": [4, 2]}, {"at": [3, 2]}]},
    {"do": "lay", "player": "Cleo", "pieces": [P((7, 4))], "vp": 3,
     "ships": [{"at": [8, 4]}, {"at": [8, 4]}, {"at": [7, 4]}]},
]


def test_a_game_laid_now_goes_on_with_every_rule_checked():
    g = new_game("now")
    for a in NOW:
        g.push(copy.deepcopy(a))
    assert not g.state.finished and g.current == "Ben"
    assert g.pieces_left("Ana") == {"city": 14, "trade_station": 4}
    g.push({"player": "Ben", "ship": 0, "to": [5, 2], "piece": "city"})   # 1 planet
    assert g.state.players["Ben"].vp == 3 and g.current == "Cleo"
    # Cleo's own City at [7, 4]: "Your ship CANNOT MOVE INTO a system you have already
    # colonized"
    _refused({"player": "Cleo", "ship": 0, "to": [7, 4], "piece": "city"}, "own-system",
             "Cleo already controls [7, 4]", game=g)
    _refused({"player": "Ana", "ship": 0, "to": [1, -1], "piece": "city"}, "wrong-player",
             "it is Cleo's turn", game=g)
    g.push({"player": "Cleo", "ship": 0, "to": [9, 4], "piece": "trade_station"})
    rec = g.to_record()
    again = SseGame.from_record(parse_record(dumps(rec)))
    assert again.to_record() == rec and again.current == "Ana"
    assert again.score().to_json() == g.score().to_json()


def test_a_game_laid_now_needs_ships_and_whose_turn():
    _refused({k: v for k, v in NOW[0].items() if k != "ships"}, "ships", "give where each of "
             "Ana's ships stands", game=new_game("now"))
    g = after(NOW[0], NOW[1] | {"next": False}, laid="now")
    _refused(NOW[2], "lay", "say whose turn it is", game=g)
    g = after(NOW[0] | {"next": True}, laid="now")
    _refused(NOW[1], "lay", "the entry of Ana says it is their turn already", game=g)


# ----------------------------------------------------------------------------- the command line
def test_cli_score_json_and_check(tmp_path, run_cli):
    path = tmp_path / "laid.json"
    g = laid_game()
    path.write_text(json.dumps(g.to_record()))
    r = run_cli("score", path, "--json", home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out == g.score().to_json()
    assert out["final"] and out["winners"] == ["Cleo"] and out["decided_by"] == "planets"
    r = run_cli("check", path, home=tmp_path / "home")
    assert r.returncode == 0, r.stderr
    assert "ok: 3 actions, finished: laid from the table at the game's end" in r.stdout
    assert ("taken on trust (laid from the table): VP during the game taken from the score "
            "track: Ana 6 VP (the map shows 6)") in r.stdout
    assert r.stdout.count("taken on trust") == 3


def test_cli_refuses_an_impossible_layout_in_one_line(tmp_path, run_cli):
    rec = laid_game().to_record()
    rec["actions"][1]["pieces"].append(P((1, 0)))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    r = run_cli("score", path, home=tmp_path / "home")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert "action 1" in lines[0] and "[rule: occupied]" in lines[0] and "[1, 0]" in lines[0]
