"""Issue 11, Small Star Empires: the book's readings made documented options (items 4 and
5), each checked in the engine and through the command line (``check``/``score`` exit
codes), with the rulebook's words quoted (S = Small Star Empires rulebook).

Maps are drawn with ``ssekit`` (text grids); no card data is involved.
"""
from __future__ import annotations

import json

import pytest

from companion.core.errors import RecordError
from companion.sse import SseGame
from companion.sse.game import BOOK_SHIPS, OPTIONS

from ssekit import colonise, game, move, rule_of

NORDINN_WORDS = ("If you don't have any Cities adjacent to this system, then choose another "
                 "player's City and destroy that instead. If you destroy an adjacent City this "
                 "way, place put the Nordinn Empire conquest marker on the system.")

# Ann's homeworld (0,0); the unexplored tile (2,0); Bob's Cities at (4,1) (far) and (2,1)
# (next to (2,0)) in the second test
HOLLANA = """
H1 E U E E
E  E E E E
E  E E E H2
"""


def M(player, to, ship=0, piece="city", **kw):
    a = {"player": player, "ship": ship, "to": list(to)}
    if piece is not None:
        a["piece"] = piece
    a.update(kw)
    return a


NORD = M("Ann", (2, 0), ship=1, piece=None, reveal={"effect": "nordinn_empire"})


def _far_city_game(**setup):
    """Ann has no City next to (2,0); Bob's only City is at (1,2), not adjacent."""
    g = game(HOLLANA, ships=2, **setup)
    move(g, "Ann", (0, 1))                    # Ann's City at (0,1): not next to (2,0)
    move(g, "Bob", (1, 2))                    # Bob's City at (1,2): not next to (2,0)
    return g


def _write(tmp_path, g, name="r.json"):
    p = tmp_path / name
    p.write_text(json.dumps(g.to_record()), encoding="utf-8")
    return p


def test_nordinn_default_destroys_any_other_players_city_literal_reading(tmp_path, run_cli):
    """S Unexplored Systems, Nordinn Empire: "If you don't have any Cities adjacent to this
    system, then choose another player's City and destroy that instead. If you destroy an
    adjacent City this way, place the conquest marker".  Default (option
    nordinn: any_city): another player's City anywhere; no conquest marker when it is
    not adjacent."""
    g = _far_city_game()
    assert g.setup.option("nordinn") == "any_city" == OPTIONS["nordinn"][0]
    a = g.push(NORD)
    assert a["destroy"] == [1, 2]                      # the only other player's City
    assert (1, 2) not in g.state.colonies and g.state.players["Bob"].cities == 16
    assert (1, 2) not in g.state.conquered             # not adjacent: no marker
    assert run_cli("check", _write(tmp_path, g)).returncode == 0
    assert run_cli("score", _write(tmp_path, g)).returncode == 0
    # an own City, even far, is never the choice: "choose another player's City"
    g2 = _far_city_game()
    assert rule_of(g2, {**NORD, "destroy": [0, 1]}) == "destroy"


def test_nordinn_option_adjacent_city_only_destroys_an_adjacent_one(tmp_path, run_cli):
    """Option nordinn: adjacent_city (the earlier reading): with no adjacent City at all,
    nothing is destroyed; the command line refuses a 'destroy' of a far City."""
    g = _far_city_game(options={"nordinn": "adjacent_city"})
    a = g.push(NORD)
    assert "destroy" not in a and (1, 2) in g.state.colonies
    g2 = _far_city_game(options={"nordinn": "adjacent_city"})
    bad = g2.to_record()
    bad["actions"].append({**NORD, "destroy": [1, 2]})
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad), encoding="utf-8")
    out = run_cli("check", p)
    assert out.returncode == 2 and "rule: destroy" in out.stderr
    # the same record under the default reading is legal
    bad["setup"].pop("options")
    p.write_text(json.dumps(bad), encoding="utf-8")
    assert run_cli("check", p).returncode == 0


@pytest.mark.parametrize("reading", ["any_city", "adjacent_city"])
def test_nordinn_an_adjacent_city_gets_the_conquest_marker(reading):
    """"If you destroy an adjacent City this way, place the conquest marker": in both
    readings an adjacent City of another player is destroyed and its system conquered;
    with an adjacent City of one's own, that one goes first ("if you have any adjacent
    Cities to this system, choose one of them to destroy")."""
    g = game(HOLLANA, ships=2, options={"nordinn": reading})
    move(g, "Ann", (0, 1))
    colonise(g, (2, 1), "Bob")                        # next to (2,0)
    move(g, "Bob", (4, 1))                            # Bob's far City at (4,1)
    a = g.push({**NORD, "destroy": [2, 1]})
    assert a["destroy"] == [2, 1] and (2, 1) in g.state.conquered
    g2 = game(HOLLANA, ships=2, options={"nordinn": reading})
    move(g2, "Ann", (1, 0))                           # Ann's own City next to (2,0)
    colonise(g2, (2, 1), "Bob")
    move(g2, "Bob", (4, 1))
    assert rule_of(g2, {**NORD, "destroy": [2, 1]}) == "destroy"
    assert g2.push(NORD)["destroy"] == [1, 0]


REFUEL_WORDS = ("You may then move the ship in this system into an adjacent uncolonized "
                "system and colonize that system")


def test_refuelling_station_may_go_on_into_an_unexplored_system(tmp_path, run_cli):
    """S Unexplored Systems, Refueling Station: "You may then move the ship in this system
    into an adjacent uncolonized system and colonize that system".  An Unexplored
    System is uncolonised: by default (option refuel: uncolonised) the ship may go on into
    one; its tile is revealed and applied as for any move (here 2 planets: 1 + 2 VP)."""
    g = game("H1 U U E H2", variants={"unexplored": False})
    assert g.setup.option("refuel") == "uncolonised"
    a = move(g, "Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
             then={"to": [2, 0], "reveal": {"effect": "planetary", "planets": 2}})
    assert a["then"] == {"to": [2, 0], "piece": "city",
                         "reveal": {"effect": "planetary", "planets": 2}}
    ann = g.state.players["Ann"]
    assert ann.ships[0].at == (2, 0) and ann.vp == 1 + 2 and ann.cities == 14
    assert g.state.colonies[(2, 0)].piece == "city"
    path = _write(tmp_path, g)
    assert run_cli("check", path).returncode == 0
    out = run_cli("score", "--json", path)
    assert out.returncode == 0
    # "colonize that system": an Unexplored System takes a City, never a Trade Station
    assert rule_of(game("H1 U U E H2"), M("Ann", (1, 0), piece=None,
                                          reveal={"effect": "refuelling_station"},
                                          then={"to": [2, 0], "piece": "trade_station",
                                                "reveal": {"effect": "planetary",
                                                           "planets": 2}})) == "unexplored-city"


def test_refuelling_station_option_explored_refuses_an_unexplored_system(tmp_path, run_cli):
    g = game("H1 U U E H2", options={"refuel": "explored"})
    act = M("Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
            then={"to": [2, 0], "reveal": {"effect": "planetary", "planets": 2}})
    assert rule_of(g, act) == "refuel"
    rec = g.to_record()
    rec["actions"].append(act)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    out = run_cli("check", p)
    assert out.returncode == 2 and "rule: refuel" in out.stderr
    # an explored uncolonised system is fine under both readings
    g2 = game("H1 U P2 E H2", options={"refuel": "explored"})
    move(g2, "Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
         then={"to": [2, 0], "piece": "trade_station"})
    assert g2.state.colonies[(2, 0)].piece == "trade_station"


def test_unknown_options_and_values_are_refused():
    with pytest.raises(RecordError):
        game("H1 E H2", options={"nordinn": "nearest"})
    with pytest.raises(RecordError):
        game("H1 E H2", options={"wormholes": "any"})
    g = game("H1 E H2", options={"nordinn": "adjacent_city"})
    again = SseGame.from_record(json.loads(json.dumps(g.to_record())))
    assert again.setup.option("nordinn") == "adjacent_city"


SHIPS_WORDS = ("Depending on the number of players, each player starts with 2-4 ships of his "
               "color on his Homeworld System.")                               # S Setup
BOX_WORDS = "96 Plastic Components (4 Ships, 16 Cities and 4 Trade Stations per player)"
CAMPAIGN_WORDS = ("2 Players - 14 Cities and 4 Trade Stations",                # Campaign Mode
                  "3 Players - 12 Cities and 3 Trade Stations",
                  "4 Players - 10 Cities and 2 Trade Stations")


def setup_of(players=("Ann", "Bob"), **kw) -> dict:
    return {"players": list(players), "map": f"basic-{len(players)}p", **kw}


def test_pieces_follow_the_book_by_default():
    """S Setup: "each player starts with 2-4 ships"; S Components: "4 Ships, 16 Cities and 4
    Trade Stations per player"; Campaign Mode: "2 Players - 14 Cities and 4 Trade Stations"
    (3 players 12 and 3, 4 players 10 and 2).  options.pieces: "book" (the default)
    accepts exactly these and refuses anything else, saying what the book says and how to
    allow a custom setup."""
    assert OPTIONS["pieces"] == ("book", "custom") and BOOK_SHIPS == (2, 4)
    for n in (2, 3, 4):
        names = ("Ann", "Bob", "Cy", "Di")[:n]
        for ships in (2, 3, 4):
            g = SseGame(setup_of(names, pieces={"ships": ships}))
            assert g.setup.option("pieces") == "book" and g.setup.off_book() == []
            assert "options" not in g.to_record()["setup"]      # nothing to say
            assert (g.setup.cities, g.setup.trade_stations) == (16, 4)
        SseGame(setup_of(names, pieces={"ships": 2, "cities": 16, "trade_stations": 4}))
        camp = SseGame(setup_of(names, pieces={"ships": 3}, campaign={"wins": {}, "game": 1}))
        want = {2: (14, 4), 3: (12, 3), 4: (10, 2)}[n]
        assert (camp.setup.cities, camp.setup.trade_stations) == want
        assert f"{n} Players - {want[0]} Cities and {want[1]} Trade Stations" in CAMPAIGN_WORDS


@pytest.mark.parametrize("pieces,campaign,words", [
    ({"ships": 1}, None, '"each player starts with 2-4 ships"'),
    ({"ships": 5}, None, '"each player starts with 2-4 ships"'),
    ({"ships": 12}, None, '"each player starts with 2-4 ships"'),
    ({"ships": 3, "cities": 20}, None,
     '"4 Ships, 16 Cities and 4 Trade Stations per player"'),
    ({"ships": 3, "trade_stations": 0}, None,
     '"4 Ships, 16 Cities and 4 Trade Stations per player"'),
    ({"ships": 3, "cities": 16, "trade_stations": 4}, {"wins": {}, "game": 1},
     '"2 Players - 14 Cities and 4 Trade Stations"'),
])
def test_pieces_off_the_book_are_refused_unless_custom(pieces, campaign, words):
    setup = setup_of(pieces=pieces, **({"campaign": campaign} if campaign else {}))
    with pytest.raises(RecordError) as e:
        SseGame(setup)
    msg = str(e.value)
    assert words in msg and 'setup.options.pieces to "custom"' in msg and "\n" not in msg
    g = SseGame({**setup, "options": {"pieces": "custom"}})     # a house or test setup
    assert g.setup.option("pieces") == "custom" and g.setup.off_book()
    assert words in " ".join(g.setup.off_book())
    again = SseGame.from_record(json.loads(json.dumps(g.to_record())))
    assert again.setup.option("pieces") == "custom"


def test_epic_mode_takes_its_pieces_from_the_record():
    """Epic Game Mode: the book lists components per player for each epic setup (up to 5
    ships, 32 Cities, 8 Trade Stations); the record gives them and they are not checked."""
    g = SseGame(setup_of(mode="epic", pieces={"ships": 5, "cities": 24, "trade_stations": 6}))
    assert g.setup.off_book() == [] and g.setup.option("pieces") == "book"


def test_pieces_off_the_book_command_line(tmp_path, run_cli):
    """``check`` and ``score`` refuse an off-book record with exit 2 and one line; with
    options.pieces custom the same record is fine (exit 0)."""
    g = SseGame(setup_of(pieces={"ships": 1}, options={"pieces": "custom"}))
    g.push({"player": "Ann", "ship": 0, "to": list(g.legal_moves("Ann", 0)[0].to),
            "piece": "city"})
    rec = g.to_record()
    good = tmp_path / "custom.json"
    good.write_text(json.dumps(rec), encoding="utf-8")
    for cmd in ("check", "score"):
        out = run_cli(cmd, good)
        assert out.returncode == 0, out.stderr
    del rec["setup"]["options"]
    bad = tmp_path / "off-book.json"
    bad.write_text(json.dumps(rec), encoding="utf-8")
    for cmd in ("check", "score"):
        out = run_cli(cmd, bad)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.count("\n") == 1 and out.stderr.startswith("error: ")
        assert '"each player starts with 2-4 ships"' in out.stderr
        assert 'setup.options.pieces to "custom"' in out.stderr
    rec["setup"]["options"] = {"pieces": "bookish"}
    bad.write_text(json.dumps(rec), encoding="utf-8")
    out = run_cli("check", bad)
    assert out.returncode == 2 and "setup.options.pieces is one of book, custom" in out.stderr


def test_nordinn_choices_query_follows_the_option():
    """The entry form asks the engine which Cities may go (a query: nothing changes)."""
    g = _far_city_game()
    before = json.dumps(g.to_record(), sort_keys=True)
    assert g.nordinn_choices("Ann", [2, 0]) == [(1, 2)]
    g2 = _far_city_game(options={"nordinn": "adjacent_city"})
    assert g2.nordinn_choices("Ann", [2, 0]) == []
    assert json.dumps(g.to_record(), sort_keys=True) == before


# ------------------------------------------------------------- refuel_choices (the form's query)
REFUEL_MAP = "H1 U U E H2\nE P1 E E E"


def _then(to, piece="city", **kw):
    return M("Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
             then={"to": list(to), **({"piece": piece} if piece else {}), **kw})


@pytest.mark.parametrize("reading", ["uncolonised", "explored"])
def test_refuel_choices_are_what_check_accepts(reading):
    """REFUEL_WORDS: "an adjacent uncolonized system".  The query lists, for a ship
    revealing a Refuelling Station at (1,0), each system it may go on to and the pieces
    that may colonise it; an Unexplored System only under the default reading.  Each
    listed (system, piece) is legal, nothing else is."""
    g = game(REFUEL_MAP, options={"refuel": reading})
    before = json.dumps(g.to_record(), sort_keys=True)
    moves = {m.to: m for m in g.refuel_choices("Ann", (1, 0), ship=0)}
    want = {(0, 1): ("city", "trade_station"), (1, 1): ("city", "trade_station")}
    if reading == "uncolonised":
        want[(2, 0)] = ("city",)
    assert {h: m.pieces for h, m in moves.items()} == want
    assert all(m.via == "refuel" for m in moves.values())
    assert [h for h, m in moves.items() if m.kind == "explore"] == (
        [(2, 0)] if reading == "uncolonised" else [])
    for h in g.state.map.neighbours((1, 0)):
        for piece in ("city", "trade_station"):
            extra = {"reveal": {"effect": "planetary", "planets": 1}} if h == (2, 0) else {}
            legal = g.is_legal(_then(h, piece, **extra))
            assert legal == (h in want and piece in want[h]), (h, piece)
    assert json.dumps(g.to_record(), sort_keys=True) == before          # a query


def test_refuel_choices_after_paying_to_pass():
    """With Open Borders the move onto the Refuelling Station may pay Cities to pass: the
    query answers for the state after that move (ship=), so a player whose last City went
    on the Refuelling Station is offered Trade Stations only, and no Unexplored System."""
    g = game("H1 P1 U U H2\nE E E E E", ships=2, pieces={"cities": 3, "trade_stations": 1},
             variants={"open_borders": True})
    move(g, "Ann", (0, 1), ship=1)                 # Ann: 2 Cities left
    move(g, "Bob", (1, 0))                         # Bob's system between Ann and (2,0)
    moves = {m.to: m.pieces for m in g.refuel_choices("Ann", (2, 0), ship=0)}
    assert moves == {(1, 1): ("trade_station",), (2, 1): ("trade_station",)}
    act = M("Ann", (2, 0), piece=None, reveal={"effect": "refuelling_station"},
            then={"to": [2, 1], "piece": "trade_station"})
    assert g.is_legal(act)
    assert rule_of(g, {**act, "then": {"to": [2, 1], "piece": "city"}}) == "no-pieces"
    # an illegal move onto the tile has no choices
    assert g.refuel_choices("Bob", (2, 0), ship=0) == []


def test_a_game_saved_before_the_pieces_option_still_resumes(tmp_path):
    """Before options.pieces existed the dashboard offered 1 to 6 ships and every piece
    count was accepted.  A saved-games file of that time is upgraded once when it is
    opened: an SSE game refused only for its pieces is marked ``custom`` (as it was
    played), a game on the book is left byte for byte, and History derives it again."""
    import sqlite3

    from companion.table import history
    from companion.sse.game import FORMAT as SSE_FORMAT
    from companion.table.store import Store

    path = tmp_path / "games.sqlite"
    store = Store(path)
    old = game("H1 E E E H2", ships=1).to_record()
    old["setup"]["options"].pop("pieces")              # written as the old companion did
    assert "options.pieces" in str(pytest.raises(RecordError, SseGame.from_record, old).value)
    on_book = game("H1 E E E H2", ships=3).to_record()
    gid_old, gid_book = store.create(old), store.create(on_book)
    history.sync(store)
    assert store._conn.execute("SELECT error FROM g_results WHERE game_id=?",
                               (gid_old,)).fetchone()[0]          # flagged: does not replay
    book_setup = store._conn.execute("SELECT setup FROM games WHERE id=?",
                                     (gid_book,)).fetchone()[0]
    store.close()
    with sqlite3.connect(path) as conn:                 # the file as an older companion left it
        conn.execute("DROP TABLE store_steps")
    store = Store(path)
    rec = store.load(gid_old)
    assert rec["format"] == SSE_FORMAT
    assert rec["setup"]["options"]["pieces"] == "custom"
    assert SseGame.from_record(rec).setup.ships == 1
    assert store._conn.execute("SELECT setup FROM games WHERE id=?",
                               (gid_book,)).fetchone()[0] == book_setup
    history.sync(store)
    assert store._conn.execute("SELECT error FROM g_results WHERE game_id=?",
                               (gid_old,)).fetchone()[0] is None
    store.close()
