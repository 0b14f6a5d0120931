"""The four worked examples of shared/design/rules-digest.md, as real records.

Each example is a game played through ``Game.push()`` (tests/make_samples.py)
and committed as data/samples/*.json.  The tests score the committed files
through the public API and through ``python -m companion score --json``,
rebuild them to prove they are current, and round-trip them through
``to_record()`` / JSON / ``from_record()``.
"""
from __future__ import annotations

import json

import pytest

import make_samples as ms
from companion import Catalogue, Game, IllegalAction, RecordError
from companion.ats.record import read_record
from companion.ats.scoring import CATEGORIES, objective_claims
from recordkit import build, discard, fixture_card, new_game, play

NAMES = list(ms.SAMPLES_BUILDERS)

#: the exact `score --json` entry of game-record.md's George
GEORGE_JSON = {"player": "George", "rank": 1, "total": 79, "locations": 12, "credits": 5,
               "breakdown": {"during_game": 63, "end_abilities": 7, "empty_reactors": 3,
                             "credits": 1, "objectives": 5}}
PLAYER_KEYS = {"player", "rank", "total", "locations", "credits", "breakdown"}


@pytest.fixture(scope="module")
def games():
    """Every sample replayed from its committed file (shipped catalogue only)."""
    out = {}
    for name in NAMES:
        record = read_record(ms.SAMPLES / f"{name}.json")
        out[name] = Game.from_record(record, catalogue=Catalogue.shipped())
    return out


def vp_lines(game, player, card):
    """(category, vp) of the ledger lines one card gave ``player`` during the game."""
    return [(l.category, l.vp) for l in game.state.players[player].ledger if l.source == card]


def entry(result_json, player):
    return next(p for p in result_json["players"] if p["player"] == player)


def check_json_shape(data):
    assert {"final", "winners", "players"} <= set(data)
    assert isinstance(data["final"], bool)
    assert all(isinstance(w, str) for w in data["winners"])
    for p in data["players"]:
        assert set(p) == PLAYER_KEYS
        assert set(p["breakdown"]) == set(CATEGORIES)
        assert all(type(v) is int for v in p["breakdown"].values())
        assert all(type(p[k]) is int for k in ("rank", "total", "locations", "credits"))
        assert p["total"] == sum(p["breakdown"].values())


# ---------------------------------------------------------------------------
# the committed samples are what the engine produces today
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_sample_file_is_current(name):
    committed = json.loads((ms.SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    assert committed == ms.sample_record(name), (
        f"data/samples/{name}.json is stale: run PYTHONPATH=. python tests/make_samples.py")
    assert committed["meta"]["made_by"] == ms.MADE_BY


def test_samples_use_no_invented_values_for_real_cards(games):
    """Every card with numbers that is not a 'Fixture: ...' card carries exactly
    the shipped (book) values."""
    shipped = Catalogue.shipped()
    for name in NAMES:
        record = json.loads((ms.SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
        for card in record["cards"]:
            if card["name"].startswith("Fixture: "):
                continue
            assert card == shipped.get(card["name"]).to_dict(), card["name"]


# ---------------------------------------------------------------------------
# 1. Sandra: Holographic Display Area, year 1 turn 3 -> +4 VP, 2 credits
# ---------------------------------------------------------------------------
def test_sandra_holographic_display_area(games):
    game = games["sandra-holographic-display-area"]
    hda = "Holographic Display Area"
    i = next(i for i, a in enumerate(game.actions) if a.get("card") == hda)
    act = game.actions[i]
    assert (act["year"], act["turn"], act["player"]) == (1, 3, "Sandra")
    assert act["energy_from"] == [[0, 0]]

    before = game.replayed(i).players["Sandra"]
    after = game.replayed(i + 1).players["Sandra"]
    assert before.credits - after.credits == 2
    assert after.vp - before.vp == 4
    st = after.station
    # the two earlier locations are the reactors built in turns 1 and 2
    assert {c: st.cells[c].label for c in st.cells} == {
        (0, 0): "Main Reactor", (0, 1): "Power Reactor", (1, 1): "Power Reactor", (1, 0): hda}
    assert st.cells[(0, 0)].cubes == 1            # the cube came from the Main Reactor
    assert st.cells[(0, 1)].cubes == st.cells[(1, 1)].cubes == 2
    assert st.distance((1, 0), (0, 0)) == 1
    assert vp_lines(game, "Sandra", hda) == [("printed", 2), ("ability", 2)]

    result = game.score()
    assert result.final is False
    assert result.winners == ["Sandra"] and result.decided_by == "vp"
    assert result.explanation.startswith("Game in progress.")
    lines = result.breakdown("Sandra")
    assert list(lines.vp) == [2, 2] and set(lines.category) == {"during_game"}
    assert "printed" in lines.rule.iloc[0] and "adjacent location: 2" in lines.rule.iloc[1]
    js = result.to_json()
    check_json_shape(js)
    assert entry(js, "Sandra") == {"player": "Sandra", "rank": 1, "total": 4, "locations": 1,
                                   "credits": 6, "breakdown": {"during_game": 4,
                                                               "end_abilities": 0,
                                                               "empty_reactors": 0,
                                                               "credits": 0, "objectives": 0}}


# ---------------------------------------------------------------------------
# 2. George, base game: 63 + 7 + 3 + 1 + 5 = 79
# ---------------------------------------------------------------------------
def test_george_base_final_scoring(games):
    game = games["george-base-final-scoring"]
    assert game.finished and len(game.actions) == 4 * 24
    result = game.score()
    assert result.final is True
    assert result.winners == ["George"] and result.decided_by == "vp"
    assert result.explanation == "George wins with 79 VP."
    js = result.to_json()
    check_json_shape(js)
    assert entry(js, "George") == GEORGE_JSON
    assert js["players"][0] == GEORGE_JSON

    lines = result.breakdown("George")
    end = lines[lines.category == "end_abilities"]
    assert sorted(end.vp) == [1, 2, 4]
    assert set(end.source) == {ms.END4, ms.END2, ms.END1}
    george = game.state.players["George"]
    reactors = {c: george.station.cells[c].cubes for c in george.station.reactors()}
    assert len(reactors) == 4 and sorted(reactors.values()) == [0, 0, 0, 1]
    assert list(lines[lines.category == "empty_reactors"].vp) == [1, 1, 1]
    assert george.credits == 5
    assert lines[lines.category == "credits"].vp.sum() == 1

    # objectives: most military 6 vs 5, 4, 2 -> George; most credits 5 = 5 -> nobody
    claims = objective_claims(game).set_index("objective")
    assert claims.loc[ms.MOST_MILITARY, "claimant"] == "George"
    assert [claims.loc[ms.MOST_MILITARY, p] for p in game.setup.players] == [6, 5, 4, 2]
    assert claims.loc[ms.MOST_CREDITS, "claimant"] == "nobody (tie)"
    credits = [claims.loc[ms.MOST_CREDITS, p] for p in game.setup.players]
    assert credits[:2] == [5, 5] and max(credits[2:]) < 5
    obj = result.lines[result.lines.category == "objectives"]
    assert list(zip(obj.player, obj.source, obj.vp)) == [("George", ms.MOST_MILITARY, 5)]


def test_george_base_every_year_and_turn_was_played(games):
    game = games["george-base-final-scoring"]
    per_player = {p: [(a["year"], a["turn"]) for a in game.actions if a["player"] == p]
                  for p in game.setup.players}
    expected = [(y, t) for y in range(1, 5) for t in range(1, 7)]
    assert all(v == expected for v in per_player.values())


# ---------------------------------------------------------------------------
# 3. George, Revival: 74 + 8 + 3 + 1 = 86
# ---------------------------------------------------------------------------
def test_george_revival_final_scoring(games):
    game = games["george-revival-final-scoring"]
    result = game.score()
    assert result.final and result.winners == ["George"] and result.decided_by == "vp"
    js = result.to_json()
    check_json_shape(js)
    assert entry(js, "George") == {"player": "George", "rank": 1, "total": 86, "locations": 12,
                                   "credits": 5,
                                   "breakdown": {"during_game": 74, "end_abilities": 8,
                                                 "empty_reactors": 3, "credits": 1,
                                                 "objectives": 0}}
    lines = result.breakdown("George")
    assert sorted(lines[lines.category == "end_abilities"].vp) == [1, 3, 4]
    assert game.setup.objectives == []


# ---------------------------------------------------------------------------
# 4. Thalia: U-Cannon 3 + 1 = 4, capped 3 + 3 = 6
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name, cubes_left, ability", [("thalia-u-cannon", 1, 1),
                                                       ("thalia-u-cannon-capped", 5, 3)])
def test_thalia_u_cannon(games, name, cubes_left, ability):
    game = games[name]
    act = game.actions[-3]
    assert (act["year"], act["turn"], act["player"], act["card"]) == (1, 3, "Thalia", "U-Cannon")
    assert act["energy_from"] == [[0, 0]]
    thalia = game.state.players["Thalia"]
    assert thalia.station.cells[(0, 0)].cubes == 1
    assert thalia.station.cubes() == cubes_left
    assert vp_lines(game, "Thalia", "U-Cannon") == [("printed", 3), ("ability", ability)]
    result = game.score()
    assert not result.final and result.winners == ["Thalia"] and result.decided_by == "vp"
    assert entry(result.to_json(), "Thalia")["total"] == 3 + ability
    rule = result.breakdown("Thalia").rule.iloc[1]
    assert f"energy cube: {cubes_left}" in rule
    assert ("capped at 3" in rule) == (cubes_left > 3)


# ---------------------------------------------------------------------------
# the same examples through the command line
# ---------------------------------------------------------------------------
CLI_EXPECTED = {
    "sandra-holographic-display-area": (False, "Sandra", 4),
    "george-base-final-scoring": (True, "George", 79),
    "george-revival-final-scoring": (True, "George", 86),
    "thalia-u-cannon": (False, "Thalia", 4),
    "thalia-u-cannon-capped": (False, "Thalia", 6),
}


@pytest.fixture(scope="module")
def cli_runs(run_cli_many, tmp_path_factory):
    """`score FILE --json` for every sample, run in parallel: name -> process."""
    procs = run_cli_many([("score", ms.SAMPLES / f"{n}.json", "--json") for n in NAMES],
                         home=tmp_path_factory.mktemp("home"))
    return dict(zip(NAMES, procs))


@pytest.mark.parametrize("name", NAMES)
def test_examples_through_cli_json(cli_runs, games, name):
    proc = cli_runs[name]
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    data = json.loads(proc.stdout)            # stdout is JSON and nothing else
    check_json_shape(data)
    final, winner, total = CLI_EXPECTED[name]
    assert data["final"] is final
    assert data["winners"] == [winner]
    assert data["players"][0]["player"] == winner and data["players"][0]["total"] == total
    assert data == json.loads(json.dumps(games[name].score().to_json()))
    if name == "george-base-final-scoring":
        assert data["players"][0] == GEORGE_JSON
        assert data["decided_by"] == "vp"


# ---------------------------------------------------------------------------
# round trip and self-contained records
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_round_trip_scores_identically(games, name):
    game = games[name]
    text = json.dumps(game.to_record())
    again = Game.from_record(json.loads(text))
    assert again.actions == game.actions
    assert again.score().to_json() == game.score().to_json()
    assert again.score().lines.equals(game.score().lines)
    assert json.loads(json.dumps(again.to_record())) == json.loads(text)


@pytest.mark.parametrize("name", NAMES)
def test_record_is_self_contained(games, name):
    game = games[name]
    record = json.loads(json.dumps(game.to_record()))
    embedded = {c["name"] for c in record["cards"]}
    used = {a["card"] for a in record["actions"]} | set(record["setup"]["objectives"])
    assert used <= embedded
    # shipped definitions travel with the record, unchanged
    shipped = Catalogue.shipped()
    for c in record["cards"]:
        if not c["name"].startswith("Fixture: "):
            assert c == shipped.get(c["name"]).to_dict()
    alone = Game.from_record(record, catalogue=Catalogue())
    assert alone.score().to_json() == game.score().to_json()
    # ...and it is the embedded list that makes it so
    bare = dict(record, cards=[])
    if record["setup"]["objectives"]:
        with pytest.raises(RecordError, match="unknown objective"):
            Game.from_record(bare, catalogue=Catalogue())
    else:
        with pytest.raises(IllegalAction) as e:
            Game.from_record(bare, catalogue=Catalogue())
        assert e.value.rule == "unknown-card" and e.value.index == 0


def test_fixture_and_shipped_cards_are_embedded(games):
    record = games["george-base-final-scoring"].to_record()
    names = {c["name"] for c in record["cards"]}
    assert {ms.MILITARY, ms.END4, ms.END2, ms.END1, ms.FILLER3, ms.CHEAP,
            ms.MOST_MILITARY, ms.MOST_CREDITS, "Garden"} <= names
    rec = games["thalia-u-cannon"].to_record()
    cannon = next(c for c in rec["cards"] if c["name"] == "U-Cannon")
    assert (cannon["cost"], cannon["energy"], cannon["vp"]) == (2, 1, 3)
    assert cannon["abilities"][0]["cap"] == 3


def test_user_catalogue_does_not_change_a_record(games, companion_home):
    """A player's own catalogue (COMPANION_HOME) cannot change a record's cards:
    the record's `cards` overlay it.  The 9s below are a deliberately WRONG entry
    (a mistyped card) that must have no effect; they are not card data."""
    (companion_home / "my-cards.yaml").write_text(
        "- name: Holographic Display Area\n  types: [recreational]\n  cost: 9\n  energy: 0\n"
        "  vp: 9\n  max: none\n  abilities: []\n", encoding="utf-8")
    record = read_record(ms.SAMPLES / "sandra-holographic-display-area.json")
    again = Game.from_record(record)           # default catalogue: shipped + user file
    assert again.score().to_json() == games["sandra-holographic-display-area"].score().to_json()


# ---------------------------------------------------------------------------
# tiebreaks: VP -> locations without reactors -> credits left -> shared
# ---------------------------------------------------------------------------
FREE1 = fixture_card("Fixture: free 1 VP", types=["business"], cost=0, energy=0, vp=1)
ONE1 = fixture_card("Fixture: costs 1, 1 VP", types=["business"], cost=1, energy=0, vp=1)


def tiebreak_game(plan_a, plan_b):
    game = new_game(["Ann", "Bea"], cards=[FREE1, ONE1], catalogue=Catalogue.shipped())
    return play(game, {"Ann": plan_a, "Bea": plan_b})


def test_tiebreak_locations():
    # Ann: 1 free card + 23 discards = 109 credits -> 36 + 1 = 37, 1 location
    # Bea: 24 discards = 112 credits -> 37, 0 locations
    game = tiebreak_game([build(FREE1["name"], [0, 1])], [])
    result = game.score()
    assert [int(t) for t in result.table.total] == [37, 37]
    assert result.winners == ["Ann"] and result.decided_by == "locations"
    assert list(result.table["rank"]) == [1, 2]


def test_tiebreak_credits():
    # both 37 VP and 2 locations; Ann keeps 106 credits, Bea 105
    game = tiebreak_game([build(FREE1["name"], [0, 1]), build(FREE1["name"], [0, 2])],
                         [build(FREE1["name"], [0, 1]), build(ONE1["name"], [0, 2])])
    result = game.score()
    assert [int(t) for t in result.table.total] == [37, 37]
    assert list(result.table.credits_left) == [106, 105]
    assert result.winners == ["Ann"] and result.decided_by == "credits"


def test_tiebreak_shared():
    game = tiebreak_game([], [discard()])
    result = game.score()
    assert result.final and result.decided_by == "shared"
    assert result.winners == ["Ann", "Bea"]
    assert list(result.table["rank"]) == [1, 1]
    assert "share the victory" in result.explanation
    assert result.to_json()["winners"] == ["Ann", "Bea"]


def test_recordkit_refuses_an_illegal_plan():
    game = new_game(["Ann", "Bea"], cards=[FREE1], catalogue=Catalogue.shipped())
    with pytest.raises(IllegalAction) as e:
        play(game, {"Ann": [build(FREE1["name"], [5, 5])]})
    assert e.value.rule == "not-adjacent"
    assert game.actions == []                 # nothing was stored
