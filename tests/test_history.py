"""Game history: the store (schema v3, migrations, a damaged file), the derived
tables kept in step with the records (companion/history.py), record import /
export, the plays CSV and every statistics table (companion/stats.py).

Every record here is played through the engines (``Game.push`` via
tests/recordkit.py, ``SseGame.push`` via tests/sse/ssekit.py): nothing is
written by hand.  The Among the Stars games use FIXTURE cards, objectives and
races (names starting "Fixture: ", invented values defined in the records),
never values for real cards.  Every expected statistic below is worked out by
hand in the comments and then checked against the engine's own score.
"""
from __future__ import annotations

import csv
import functools
import io
import json
import os
import sqlite3
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from companion.sse.record import FORMAT as SSE_FORMAT
from companion.sse.kind import KIND as SSE_KIND
from companion import Catalogue, Game
from companion.table import history, stats
from companion.core.errors import CompanionError
from companion.ats.record import FORMAT as ATS
from companion.sse import SseGame
from companion.table.store import SCHEMA_VERSION, Store

from recordkit import build, fixture_card, fixture_objective, new_game, play

_SSE_TESTS = str(Path(__file__).resolve().parent / "sse")
if _SSE_TESTS not in sys.path:
    sys.path.insert(0, _SSE_TESTS)
from ssekit import game as sse_game, move  # noqa: E402

SSE = SSE_FORMAT
#: Small Star Empires' shares table, as its descriptor asks for it
SSE_SHARES = next(t.kwargs["parts"] for t in SSE_KIND.statistics if t.table == "shares")

# ---------------------------------------------------------------------------
# fixture cards, objective and races (invented values, clearly named)
# ---------------------------------------------------------------------------
# All cost 0 and need no energy, so each player's credits are simply
#   10 at the start + 10 at the start of years 2, 3, 4 + 3 per discard
#   = 40 + 3 * (24 - k)  for k builds in the 24 turns of a standard game
#   = 112 - 3k  ->  credits VP = (112 - 3k) // 3 = 37 - k   (112 = 3 * 37 + 1).
# The Main Reactor never gives up a cube, so "empty reactors" is always 0.
A = "Fixture: free 1 VP"        # business, printed 1 VP
B = "Fixture: free 2 VP"        # military, printed 2 VP
E = "Fixture: end +3"           # administrative, printed 0 VP, +3 at the end
O = "Fixture: most military"    # objective: most military locations, 4 VP (a tie: nobody)
ALPHA = "Fixture: race Alpha"   # race without scoring
BETA = "Fixture: race Beta"     # race: +2 at the end


def _race(name: str, abilities: list) -> dict:
    return {"name": name, "category": "race", "types": None, "cost": None, "energy": None,
            "vp": None, "max": None, "abilities": abilities,
            "notes": "test fixture: invented race, not a real tile"}


CARDS = [
    fixture_card(A, types=["business"], cost=0, energy=0, vp=1),
    fixture_card(B, types=["military"], cost=0, energy=0, vp=2),
    fixture_card(E, types=["administrative"], cost=0, energy=0, vp=0,
                 abilities=[{"when": "end", "flat": 3, "note": "test fixture: +3 at the end"}]),
    fixture_objective(O, vp=4, most={"per": "station_location", "types": ["military"]}),
    _race(ALPHA, []),
    _race(BETA, [{"when": "end", "flat": 2, "note": "test fixture: +2 at the end"}]),
]
N = None            # a discard (+3 credits)


def _ats(players, plans, *, objectives=(), races=None, turns=None):
    # 1 objective for 2 players (B 8 draws 2): hand-computed fixtures, whose records say
    # they name only some of the objectives drawn (on_trust, issue 36)
    g = new_game(players, cards=CARDS, objectives=list(objectives), races=dict(races or {}),
                 catalogue=Catalogue.shipped(),
                 options={"on_trust": ["objectives"]} if objectives else None)
    return play(g, plans, turns=turns)


def g1():
    """Ann (race Beta) beats Bea (race Alpha) on VP; the objective did NOT decide it.

    Ann: B in year 1 turn 1, A in year 2 turn 1 (k=2): credits 37-2 = 35; during 2+1 = 3;
         race +2; objective: military Ann 1, Bea 0 -> Ann +4.  Total 35+3+2+4 = 44.
    Bea: A in year 1 turn 1, year 3 turn 1, year 4 turn 1 (k=3): credits 34; during 3.
         Total 37.
    Ann wins (vp); without the objective Ann has 40 > 37: not decided by it.
    """
    return _ats(["Ann", "Bea"], {"Ann": [build(B)] + [N] * 5 + [build(A)],
                                 "Bea": [build(A)] + [N] * 11 + [build(A)] + [N] * 5 + [build(A)]},
                objectives=[O], races={"Ann": BETA, "Bea": ALPHA})


def g2():
    """Cid beats Ann (race Alpha) on VP because of the objective.

    Ann: E in year 1 turn 1 (k=1): credits 36, during 0, end +3.  Total 39.
    Cid: B in year 2 turn 1 (k=1): credits 36, during 2, objective +4 (military 1 vs 0).
         Total 42.  Without the objective Cid has 38 < 39: the objective decided it.
    """
    return _ats(["Ann", "Cid"], {"Ann": [build(E)], "Cid": [N] * 6 + [build(B)]},
                objectives=[O], races={"Ann": ALPHA})


def g3():
    """A shared victory: Bea and Cid each build A in year 1 turn 1 (k=1):
    credits 36 + during 1 = 37 each, 1 location each, 109 credits each -> shared."""
    return _ats(["Bea", "Cid"], {"Bea": [build(A)], "Cid": [build(A)]})


def g4():
    """A tiebreak on locations, 3 players: Ann (race Alpha) builds A in year 1 turn 1
    (36 + 1 = 37, 1 location); Bea and Dan discard all game (37, 0 locations).
    Ann wins, decided by locations."""
    return _ats(["Ann", "Bea", "Dan"], {"Ann": [build(A)]}, races={"Ann": ALPHA})


def g5():
    """An unfinished game (3 turn slots): listed, but in no statistics table."""
    return _ats(["Ann", "Bea"], {"Ann": [build(B)], "Bea": [build(A)]}, turns=3)


# Small Star Empires: one row of systems, 1 ship, 1 City and 1 Trade Station each.
# q:  0  1  2  3 4  5
SSE_MAP = "H1 P2 Nr E P1 H2"


def s1():
    """Ann (seat 1) wins on VP.
    Ann: City on P2 (+2 planets), Trade Station on the red nebula [2,0].
    Bob: Trade Station on P1 [4,0] (+1), City on the empty [3,0].  All pieces out: the end.
    Ann: planets 2 + 1 red nebula 2 + trade station (neighbours [1,0] own, [3,0] Bob's) 1
         + territory 3 ([0,0] [1,0] [2,0]; Bob also 3: tied, both score 3) = 8.
    Bob: planets 1 + trade station ([3,0] own, [5,0] own homeworld) 0 + territory 3 = 4.
    """
    g = sse_game(SSE_MAP, pieces={"cities": 1, "trade_stations": 1})
    move(g, "Ann", (1, 0))
    move(g, "Bob", (4, 0), "trade_station")
    move(g, "Ann", (2, 0), "trade_station")
    move(g, "Bob", (3, 0))
    return g


def s2():
    """Bob (seat 2) wins a tie on Cities left.
    Ann: City on the empty [3,0], Trade Station on the red nebula [2,0] (reserve empty).
    Bob: Trade Station on P1 [4,0] (+1); then his ship is walled in by Ann's [3,0] and
    Ann has nothing left: nobody can move, the game ends.
    Ann: nebula 2 + trade station ([1,0] empty, [3,0] own) 0 + territory 3
         (largest group [2,0] [3,0] = 2; Bob's [4,0] [5,0] = 2: tied) = 5.
    Bob: planets 1 + trade station ([3,0] Ann's) 1 + territory 3 = 5.
    Tied on 5 VP: Cities left Bob 1, Ann 0 -> Bob, decided by cities_left.
    """
    g = sse_game(SSE_MAP, pieces={"cities": 1, "trade_stations": 1})
    move(g, "Ann", (3, 0))
    move(g, "Bob", (4, 0), "trade_station")
    move(g, "Ann", (2, 0), "trade_station")
    return g


# Finished games whose final scoring waits for values the players have not typed yet
# (the record replays; only the end scoring needs them).  The unknown values are left
# null, as the shipped catalogue leaves unknown printed values: nothing is invented.
RU = "Fixture: race not typed yet"         # a race whose tile nobody has typed (abilities null)
QU = "Fixture: objective VP not typed"     # most military locations, its VP not typed (null)
MU = "Fixture: end VP typed by players"    # business, printed 0 VP, end VP typed at the table
WAITING_CARDS = CARDS + [
    _race(RU, None),
    {**fixture_objective(QU, vp=0, most={"per": "station_location", "types": ["military"]}),
     "vp": None},
    fixture_card(MU, types=["business"], cost=0, energy=0, vp=0,
                 abilities=[{"when": "end", "manual": True,
                             "note": "test fixture: VP typed by the players"}]),
]


def _waiting(players, plans, **kw):
    g = new_game(players, cards=WAITING_CARDS, catalogue=Catalogue.shipped(),
                 options={"on_trust": ["objectives"]}, **kw)   # 1 objective of the book's 2
    return play(g, plans)


@functools.lru_cache(maxsize=None)
def _waiting_games():
    """Ann and Bea, each waiting for something else (UnknownCardValues / MissingEntry):

    race:      Ann (race RU) builds A, Bea builds B in year 1 turn 1.
    objective: QU in play; Ann builds B in year 1 turn 1, Bea discards all game.
    manual:    Ann builds MU in year 1 turn 1, Bea discards all game.
    """
    return {"race": _waiting(["Ann", "Bea"], {"Ann": [build(A)], "Bea": [build(B)]},
                             races={"Ann": RU}),
            "objective": _waiting(["Ann", "Bea"], {"Ann": [build(B)]}, objectives=[QU]),
            "manual": _waiting(["Ann", "Bea"], {"Ann": [build(MU)]})}


def waiting_records() -> dict[str, dict]:
    return {k: json.loads(json.dumps(g.to_record())) for k, g in _waiting_games().items()}


def manual_cell() -> list[int]:
    """Where Ann built MU in the 'manual' game (the record says)."""
    return next(a["at"] for a in waiting_records()["manual"]["actions"] if a.get("card") == MU)


def broken_record() -> dict:
    """G1 with its action 1 moved where no rule allows it: the record no longer replays."""
    bad = records()["G1"]
    bad["actions"][1]["at"] = [9, 9]                     # not adjacent: illegal
    return bad


@functools.lru_cache(maxsize=None)
def _games():
    return {"G1": g1(), "G2": g2(), "G3": g3(), "G4": g4(), "G5": g5(), "S1": s1(), "S2": s2()}


def records() -> dict[str, dict]:
    """title -> a fresh copy of each fixture record (the engines' to_record())."""
    return {k: json.loads(json.dumps(g.to_record())) for k, g in _games().items()}


def fill(store: Store, names=None) -> dict[str, str]:
    """Store the fixture records (in this order, so 'played' follows it); title -> id."""
    ids = {}
    for title, rec in records().items():
        if names is None or title in names:
            ids[title] = store.create(rec, title=title)
            time.sleep(0.002)          # distinct 'created' times, so a stable order
    return ids


@pytest.fixture
def store(make_store):
    """A store on each backend (SQLite; PostgreSQL, marked ``postgres``)."""
    return make_store()


class _Rows(list):
    def fetchone(self):
        return self[0] if self else None

    def fetchall(self):
        return list(self)


class _Sql:
    """A test's own reads, through the store's query (so on both backends), shaped as
    a connection's ``execute``."""

    def __init__(self, store):
        self.store = store

    def execute(self, sql, params=()):
        return _Rows(self.store.query(sql, params))


@pytest.fixture
def full(store):
    ids = fill(store)
    return store, ids


def _strip_meta(rec: dict) -> dict:
    rec = dict(rec)
    rec.pop("meta", None)
    return rec


def test_the_fixture_games_score_as_worked_out_by_hand():
    """The hand computations in the docstrings above agree with the engines."""
    got = {k: g.score().to_json() for k, g in _games().items() if k != "G5"}
    totals = {k: {p["player"]: p["total"] for p in v["players"]} for k, v in got.items()}
    assert totals == {"G1": {"Ann": 44, "Bea": 37}, "G2": {"Cid": 42, "Ann": 39},
                      "G3": {"Bea": 37, "Cid": 37}, "G4": {"Ann": 37, "Bea": 37, "Dan": 37},
                      "S1": {"Ann": 8, "Bob": 4}, "S2": {"Bob": 5, "Ann": 5}}
    assert {k: (v["winners"], v["decided_by"]) for k, v in got.items()} == {
        "G1": (["Ann"], "vp"), "G2": (["Cid"], "vp"), "G3": (["Bea", "Cid"], "shared"),
        "G4": (["Ann"], "locations"), "S1": (["Ann"], "vp"), "S2": (["Bob"], "cities_left")}
    assert not _games()["G5"].state.finished


# ---------------------------------------------------------------------------
# store round trip and the derived tables
# ---------------------------------------------------------------------------
def _derived(store: Store, gid: str) -> dict:
    c = _Sql(store)
    res = c.execute("SELECT format, finished, decided_by, winners, error FROM g_results "
                    "WHERE game_id=?", (gid,)).fetchone()
    players = {p: {"seat": seat, "race": race, "rank": rank, "total": total, "won": won,
                   "breakdown": json.loads(b)}
               for p, seat, race, rank, total, won, b in c.execute(
                   "SELECT player, seat, race, rank, total, won, breakdown FROM g_players "
                   "WHERE game_id=?", (gid,))}
    return {"format": res[0], "finished": res[1], "decided_by": res[2],
            "winners": json.loads(res[3]), "error": res[4], "players": players,
            "year_vp": sorted(c.execute("SELECT player, year, vp FROM g_year_vp WHERE game_id=?",
                                        (gid,)).fetchall()),
            "cards": sorted(c.execute("SELECT player, card, cell, vp FROM g_cards "
                                      "WHERE game_id=?", (gid,)).fetchall()),
            "objectives": c.execute("SELECT objective, player, vp FROM g_objectives "
                                    "WHERE game_id=?", (gid,)).fetchall()}


def _agrees_with_engine(d: dict, score_json: dict, setup_players: list[str]) -> None:
    assert d["finished"] == 1 and d["error"] is None
    assert d["winners"] == score_json["winners"]
    assert d["decided_by"] == score_json["decided_by"]
    for p in score_json["players"]:
        row = d["players"][p["player"]]
        assert (row["total"], row["rank"], row["breakdown"]) == \
            (p["total"], p["rank"], p["breakdown"])
        assert row["won"] == int(p["player"] in score_json["winners"])
        assert row["seat"] == setup_players.index(p["player"]) + 1


def test_store_round_trip_among_the_stars(store):
    rec = records()["G1"]
    gid = store.create(rec, title="G1")
    back = store.load(gid)
    assert back["meta"] == {"title": "G1"}
    assert _strip_meta(back) == rec                      # identical record
    again = Game.from_record(back)
    assert again.score().to_json() == _games()["G1"].score().to_json()

    assert history.sync(store) == 1
    d = _derived(store, gid)
    _agrees_with_engine(d, _games()["G1"].score().to_json(), ["Ann", "Bea"])
    assert d["format"] == ATS
    assert d["players"]["Ann"]["race"] == BETA and d["players"]["Bea"]["race"] == ALPHA
    # VP gained per year during the game (every year listed, 0 included)
    assert d["year_vp"] == [("Ann", 1, 2), ("Ann", 2, 1), ("Ann", 3, 0), ("Ann", 4, 0),
                            ("Bea", 1, 1), ("Bea", 2, 0), ("Bea", 3, 1), ("Bea", 4, 1)]
    # one row per location built, with the VP it gave (printed + abilities)
    assert [(p, c, v) for p, c, _, v in d["cards"]] == [
        ("Ann", A, 1), ("Ann", B, 2), ("Bea", A, 1), ("Bea", A, 1), ("Bea", A, 1)]
    cells = {(p, cell) for p, _, cell, _ in d["cards"]}
    built = {(a["player"], f"{a['at'][0]},{a['at'][1]}") for a in rec["actions"]
             if a["do"] == "build"}
    assert cells == built
    assert d["objectives"] == [(O, "Ann", 4)]
    assert history.sync(store) == 0                      # nothing changed: nothing re-derived


def test_store_round_trip_end_ability_card_counts_its_end_vp(store):
    gid = store.create(records()["G2"], title="G2")
    history.sync(store)
    d = _derived(store, gid)
    _agrees_with_engine(d, _games()["G2"].score().to_json(), ["Ann", "Cid"])
    # E: printed 0 + 3 at the end; B: printed 2
    assert [(p, c, v) for p, c, _, v in d["cards"]] == [("Ann", E, 3), ("Cid", B, 2)]
    assert d["objectives"] == [(O, "Cid", 4)]


def test_store_round_trip_small_star_empires(store):
    rec = records()["S2"]
    gid = store.create(rec, title="S2")
    back = store.load(gid)
    assert back["format"] == SSE
    # the store adds an empty 'cards' and 'manual' to every game: the SSE engine accepts them
    assert _strip_meta(back) == {**rec, "cards": [], "manual": []}
    assert SseGame.from_record(back).score().to_json() == _games()["S2"].score().to_json()
    history.sync(store)
    d = _derived(store, gid)
    _agrees_with_engine(d, _games()["S2"].score().to_json(), ["Ann", "Bob"])
    assert d["format"] == SSE and d["decided_by"] == "cities_left"
    assert d["players"]["Bob"]["breakdown"]["trade_stations"] == 1
    assert d["year_vp"] == [] and d["cards"] == [] and d["objectives"] == []


def test_sync_follows_changes_and_deletes(store):
    ids = fill(store, ["G5"])
    gid = ids["G5"]
    assert history.sync(store) == 1
    assert _derived(store, gid)["finished"] == 0
    # finish the game in the store, action by action, as the dashboard does
    g = Game.from_record(store.load(gid))
    play(g, {})
    for i in range(len(store.load(gid)["actions"]), len(g.actions)):
        store.append(gid, i, g.actions[i])
    assert history.sync(store) == 1                      # only the changed game
    d = _derived(store, gid)
    _agrees_with_engine(d, g.score().to_json(), ["Ann", "Bea"])
    assert history.sync(store) == 0
    store.delete(gid)
    for t in ("g_results", "g_players", "g_year_vp", "g_cards", "g_objectives"):
        assert _Sql(store).execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] == 0, t


def test_a_record_that_no_longer_replays_is_flagged_not_counted(store):
    good = fill(store, ["G3"])
    bad = records()["G1"]
    bad["actions"][1]["at"] = [9, 9]                     # not adjacent: illegal
    bid = store.create(bad, title="broken")
    history.sync(store)
    d = _Sql(store).execute("SELECT finished, error FROM g_results WHERE game_id=?",
                            (bid,)).fetchone()
    assert d[0] == 0 and "action 1" in d[1]
    listed = stats.games(store).set_index("game_id")
    assert "not-adjacent" in listed.loc[bid, "error"] and pd.isna(listed.loc[good["G3"], "error"])
    assert set(stats.win_rates(store).player) == {"Bea", "Cid"}   # only G3 counts


def _tab(store):
    from companion.ui.app import App
    from companion.ui.history_tab import HistoryTab
    return HistoryTab(App(store=store))


def _states(tab) -> dict[str, str]:
    """game id -> the state at the end of its line in the History list."""
    return {gid: label.rsplit(" · ", 1)[1] for label, gid in tab.list.options}


def test_one_record_that_fails_flags_only_that_game(store):
    """A NaN in the error column is true in Python: once one record failed, every
    game was listed as 'record no longer replays'."""
    ids = fill(store, ["G3", "G5", "S1"])
    bid = store.create(broken_record(), title="broken")
    assert _states(_tab(store)) == {
        bid: "record no longer replays", ids["G3"]: "won by Bea, Cid",
        ids["G5"]: "in progress", ids["S1"]: "won by Ann"}
    listed = stats.games(store).set_index("game_id")
    assert all(listed.loc[i, "error"] is None for i in ids.values())    # None, not NaN
    assert listed.loc[bid, "status"] == "record fails"
    assert {t: listed.loc[i, "status"] for t, i in ids.items()} == {
        "G3": "finished", "G5": "in progress", "S1": "finished"}


WAITS = {"race": f"'{RU}' (end abilities)", "objective": f"'{QU}' (vp)",
         "manual": None}          # manual: worked out from the record (the cell Ann built on)


def _waits(kind: str) -> str:
    return WAITS[kind] or f"Ann: VP of '{MU}' at {manual_cell()}"


@pytest.mark.parametrize("kind", ["race", "objective", "manual"])
def test_a_game_waiting_for_values_is_listed_with_its_players_not_as_a_failed_record(
        store, kind):
    rec = waiting_records()[kind]
    game = Game.from_record(rec)                         # the record replays ...
    assert game.state.finished
    with pytest.raises(CompanionError):                  # ... the final scoring waits
        game.score()
    ids = fill(store, ["G3"])
    wid = store.create(rec, title=f"waiting {kind}")
    bid = store.create(broken_record(), title="broken")
    history.sync(store)
    d = _derived(store, wid)
    assert d["error"] is None and d["finished"] == 0 and d["winners"] == []
    assert _Sql(store).execute("SELECT waiting FROM g_results WHERE game_id=?",
                               (wid,)).fetchone()[0] == _waits(kind)
    # its players stay, in seat order, without a rank or a total yet
    assert d["players"] == {
        "Ann": {"seat": 1, "race": RU if kind == "race" else None, "rank": None,
                "total": None, "won": 0, "breakdown": {}},
        "Bea": {"seat": 2, "race": None, "rank": None, "total": None, "won": 0,
                "breakdown": {}}}
    assert {p for p, _, _ in d["year_vp"]} == {"Ann", "Bea"}
    # the three cases apart: finished, waiting for values, record fails
    listed = stats.games(store).set_index("game_id")
    assert listed.loc[wid, "status"] == "waiting for values"
    assert listed.loc[wid, "waiting"] == _waits(kind) and listed.loc[wid, "error"] is None
    assert listed.loc[wid, "players"] == "Ann, Bea" and listed.loc[wid, "winners"] == ""
    assert listed.loc[bid, "status"] == "record fails" and listed.loc[bid, "waiting"] is None
    assert listed.loc[ids["G3"], "status"] == "finished"
    assert _states(_tab(store)) == {
        wid: f"final scoring waits for values: {_waits(kind)}",
        bid: "record no longer replays", ids["G3"]: "won by Bea, Cid"}
    # no statistics until it scores: only G3 (Bea and Cid, a shared victory) counts
    assert stats.win_rates(store).to_dict("records") == [
        {"player": "Bea", "games": 1, "wins": 1, "win_rate": 1.0},
        {"player": "Cid", "games": 1, "wins": 1, "win_rate": 1.0}]
    assert set(stats.scores(store).player) == {"Bea", "Cid"}
    assert set(stats.cards(store).card) == {A}
    assert stats.objectives_deciding(store).empty
    tb = stats.tiebreaks(store)
    assert dict(zip(tb.decided_by, tb.games)) == {"shared": 1}
    assert list(stats.vp_by_year(store).columns) == ["Bea", "Cid"]
    # the plays CSV: not a finished play; with --all, listed without scores or winner
    assert [r["game_id"] for r in csv.DictReader(io.StringIO(history.plays_csv(store)))] \
        == [ids["G3"]]
    rows = {r["game_id"]: r for r in csv.DictReader(io.StringIO(
        history.plays_csv(store, finished_only=False)))}
    assert (rows[wid]["players"], rows[wid]["scores"], rows[wid]["winner"]) == ("Ann;Bea", "", "")


def test_once_the_values_are_typed_the_waiting_game_scores_and_counts(store):
    recs = waiting_records()
    rid = store.create(recs["race"], title="race")
    mid = store.create(recs["manual"], title="manual")
    history.sync(store)
    assert stats.win_rates(store).empty
    # the race tile typed (a fixture race: +2 at the end) into the game's cards
    cards = [c if c["name"] != RU else
             _race(RU, [{"when": "end", "flat": 2, "note": "test fixture: +2 at the end"}])
             for c in recs["race"]["cards"]]
    store.set_cards(rid, cards)
    # the VP of Ann's MU typed by the players
    store.set_manual(mid, [{"source": MU, "player": "Ann", "at": manual_cell(), "vp": 5}])
    assert history.sync(store) == 2                      # both changed: derived again
    # race:   Ann A (k=1): credits 36 + during 1 + race 2 = 39;  Bea B: 36 + 2 = 38
    # manual: Ann MU (k=1): credits 36 + during 0 + typed 5 = 41;  Bea: credits 37
    for gid, rec, totals in ((rid, recs["race"], {"Ann": 39, "Bea": 38}),
                             (mid, recs["manual"], {"Ann": 41, "Bea": 37})):
        d = _derived(store, gid)
        engine = Game.from_record(store.load(gid)).score().to_json()
        _agrees_with_engine(d, engine, ["Ann", "Bea"])
        assert {p: r["total"] for p, r in d["players"].items()} == totals
        assert _Sql(store).execute("SELECT waiting FROM g_results WHERE game_id=?",
                                   (gid,)).fetchone()[0] is None
    assert stats.win_rates(store).to_dict("records") == [
        {"player": "Ann", "games": 2, "wins": 2, "win_rate": 1.0},
        {"player": "Bea", "games": 2, "wins": 0, "win_rate": 0.0}]
    assert set(stats.games(store).status) == {"finished"}


def test_a_small_star_empires_epic_game_waits_for_its_nebula_table(store):
    """Epic mode's nebula table is typed by the players (not in our copy of the book):
    until it is, the finished game waits (MissingEntry), with its players."""
    from ssekit import grid
    g = SseGame({"players": ["Ann", "Bob"], "mode": "epic",
                 "map": grid("H1 Nr Nr Nr Nr Nr\nE E E E E E\nE E E E E H2").to_dict(),
                 "pieces": {"ships": 1, "cities": 32, "trade_stations": 8}})
    while not g.state.finished:                          # every player's first legal move
        m = g.legal_moves(g.current, 0)[0]
        move(g, g.current, m.to, piece=m.pieces[0])
    gid = store.create(g.to_record(), title="epic")
    listed = stats.games(store).set_index("game_id")
    assert listed.loc[gid, "status"] == "waiting for values"
    assert listed.loc[gid, "waiting"].startswith("the epic nebula table")
    assert listed.loc[gid, "players"] == "Ann, Bob" and listed.loc[gid, "error"] is None
    assert stats.win_rates(store, "seat", SSE).empty
    # the players type it (test values, not the book's) and the game scores
    store.set_manual(gid, [{"source": "nebula_table", "values": [1, 3, 6, 10, 15, 21]}])
    assert stats.games(store).set_index("game_id").loc[gid, "status"] == "finished"
    assert stats.win_rates(store, "seat", SSE).games.tolist() == [1, 1]


def test_a_waiting_game_is_derived_again_when_the_players_catalogue_changes(
        store, companion_home):
    """Values typed into the player's own catalogue (my-cards.yaml) may be what a
    waiting game needs: it is derived again then; a finished game is not."""
    fill(store, ["G3"])
    store.create(waiting_records()["race"], title="race")
    assert history.sync(store) == 2
    assert history.sync(store) == 0
    mine = companion_home / "my-cards.yaml"
    mine.write_text("[]\n", encoding="utf-8")
    now = time.time()
    os.utime(mine, (now, now))
    assert history.sync(store) == 1                      # the waiting game only
    assert history.sync(store) == 0


def test_export_then_import_into_a_fresh_store_round_trips(full, tmp_path):
    store, ids = full
    files = history.export_records(store, tmp_path / "out")
    assert sorted(f.name for f in files) == sorted(f"{i}.json" for i in ids.values())
    fresh = Store(path=tmp_path / "fresh.sqlite")
    try:
        new_ids = history.import_records(fresh, [tmp_path / "out"])   # a folder
        assert len(new_ids) == len(ids)
        by_title = {g["title"]: g["id"] for g in fresh.games(format=None)}
        assert set(by_title) == set(ids)
        for title, gid in ids.items():
            assert fresh.load(by_title[title]) == store.load(gid), title
        # the same statistics, game ids and dates aside
        a, b = stats.all_statistics(store), stats.all_statistics(fresh)
        assert list(a) == list(b)
        for name in a:
            if name == "games":
                cols = ["game", "title", "players", "winners", "finished", "decided_by"]
                key = ["title"]
                pd.testing.assert_frame_equal(a[name][cols].sort_values(key).reset_index(drop=True),
                                              b[name][cols].sort_values(key).reset_index(drop=True))
            else:
                pd.testing.assert_frame_equal(a[name], b[name], check_like=True, obj=name)
    finally:
        fresh.close()


def test_import_stops_at_a_bad_file_and_names_it(store, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    good = records()["G3"]
    (folder / "a-good.json").write_text(json.dumps(good), encoding="utf-8")
    bad = records()["G1"]
    bad["actions"][3]["card"] = "Fixture: no such card"
    (folder / "b-bad.json").write_text(json.dumps(bad), encoding="utf-8")
    (folder / "c-empty.json").write_text("", encoding="utf-8")
    with pytest.raises(CompanionError) as e:
        history.import_records(store, [folder])
    assert "b-bad.json" in str(e.value) and "action 3" in str(e.value)
    # all or nothing: the good file before the bad one is not imported either
    assert store.games(format=None) == []
    with pytest.raises(CompanionError, match="c-empty.json.*empty"):
        history.import_records(store, [folder / "c-empty.json"])
    sse = tmp_path / "sse.json"
    sse.write_text(json.dumps(records()["S1"]), encoding="utf-8")
    (sid,) = history.import_records(store, [sse])
    assert store.load(sid)["format"] == SSE


# ---------------------------------------------------------------------------
# migrations and a damaged file
# ---------------------------------------------------------------------------
# the schema of version 1 (commit efab5c1), written out as it was
V1_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
    setup TEXT NOT NULL, cards TEXT NOT NULL DEFAULT '[]', manual TEXT NOT NULL DEFAULT '[]',
    meta TEXT NOT NULL DEFAULT '{}', format TEXT NOT NULL DEFAULT 'among-the-stars/1');
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (game_id, idx));
PRAGMA user_version = 1;
"""
# version 0 (before efab5c1): no format column, user_version left at 0
V0_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
    setup TEXT NOT NULL, cards TEXT NOT NULL DEFAULT '[]', manual TEXT NOT NULL DEFAULT '[]',
    meta TEXT NOT NULL DEFAULT '{}');
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (game_id, idx));
"""


def _old_db(path: Path, schema: str, games: dict[str, dict], with_format: bool) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(schema)
    now = time.time()
    for gid, rec in games.items():
        cols = "id, title, created, updated, setup, cards, manual, meta"
        vals = [gid, f"old {gid}", now, now, json.dumps(rec["setup"]),
                json.dumps(rec.get("cards") or []), json.dumps(rec.get("manual") or []), "{}"]
        if with_format:
            cols += ", format"
            vals.append(rec["format"])
        conn.execute(f"INSERT INTO games({cols}) VALUES ({','.join('?' * len(vals))})", vals)
        conn.executemany("INSERT INTO actions VALUES (?,?,?)",
                         [(gid, i, json.dumps(a)) for i, a in enumerate(rec["actions"])])
    conn.commit()
    conn.close()


@pytest.mark.parametrize("version", [0, 1])
def test_migration_from_an_older_schema(tmp_path, version):
    path = tmp_path / "games.sqlite"
    old = {"g1": records()["G1"]}
    if version == 1:
        old["s1"] = records()["S1"]                      # v1 already held several games
        _old_db(path, V1_SCHEMA, old, with_format=True)
    else:
        assert "format" not in V0_SCHEMA
        _old_db(path, V0_SCHEMA, old, with_format=False)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == version
    assert not conn.execute("SELECT name FROM sqlite_master WHERE name='g_results'").fetchall()
    conn.close()

    s = Store(path=path)
    try:
        assert s.notice is None
        assert s._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        tables = {r[0] for r in s._conn.execute("SELECT name FROM sqlite_master "
                                                "WHERE type='table'")}
        assert {"g_results", "g_players", "g_year_vp", "g_cards", "g_objectives"} <= tables
        for gid, rec in old.items():
            back = s.load(gid)
            assert back["format"] == rec["format"]       # v0 rows became Among the Stars
            assert _strip_meta(back) == {**rec, "cards": rec.get("cards", []),
                                         "manual": rec.get("manual", [])}
        assert history.sync(s) == len(old)
        _agrees_with_engine(_derived(s, "g1"), _games()["G1"].score().to_json(), ["Ann", "Bea"])
        if version == 1:
            _agrees_with_engine(_derived(s, "s1"), _games()["S1"].score().to_json(),
                                ["Ann", "Bob"])
        s.create(records()["G3"], title="new")           # the migrated file takes new games
        assert history.sync(s) == 1
    finally:
        s.close()
    again = Store(path=path)                             # opening again migrates nothing
    try:
        assert again._conn.execute("PRAGMA user_version").fetchone()[0] == 4
        assert len(again.games(format=None)) == len(old) + 1
    finally:
        again.close()


def test_migration_from_schema_2_derives_every_game_again(tmp_path):
    """Version 2 stored a finished game waiting for values as a record that no longer
    replays (an error, no players).  Opening the file migrates it to version 3 and
    derives every game again: the waiting game gets its players back, no error."""
    from companion.table.store import MIGRATIONS
    path = tmp_path / "games.sqlite"
    rec = waiting_records()["race"]
    _old_db(path, V1_SCHEMA, {"w": rec, "g3": records()["G3"]}, with_format=True)
    conn = sqlite3.connect(path)
    for stmt in MIGRATIONS[2]:                           # the version 2 tables, as they were
        conn.execute(stmt)
    conn.execute("PRAGMA user_version = 2")
    later = time.time() + 60                             # derived after the last change
    with pytest.raises(CompanionError) as e:
        Game.from_record(rec).score()
    conn.execute("INSERT INTO g_results(game_id, format, finished, played, derived_at, error) "
                 "VALUES ('w', ?, 0, 0, ?, ?)", (ATS, later, str(e.value)))
    conn.commit()
    conn.close()

    s = Store(path=path)
    try:
        assert s._conn.execute("PRAGMA user_version").fetchone()[0] == 4
        assert history.sync(s) == 2                      # both games, the stale one too
        d = _derived(s, "w")
        assert d["error"] is None and d["finished"] == 0
        assert list(d["players"]) == ["Ann", "Bea"]
        assert s._conn.execute("SELECT waiting FROM g_results WHERE game_id='w'").fetchone()[0] \
            == f"'{RU}' (end abilities)"
        _agrees_with_engine(_derived(s, "g3"), _games()["G3"].score().to_json(), ["Bea", "Cid"])
    finally:
        s.close()


def test_a_damaged_file_is_kept_aside_and_a_fresh_store_works(tmp_path):
    path = tmp_path / "games.sqlite"
    junk = b"this is not a database, it is a damaged file\n" * 200
    path.write_bytes(junk)
    s = Store(path=path)
    try:
        assert s.notice is not None
        aside = list(tmp_path.glob("games.sqlite.damaged-*"))
        assert len(aside) == 1 and aside[0].read_bytes() == junk      # the original bytes
        assert "damaged" in s.notice and str(aside[0]) in s.notice
        assert "no file was deleted" in s.notice
        assert s.games(format=None) == []
        gid = s.create(records()["G4"], title="after")
        assert history.sync(s) == 1
        assert _derived(s, gid)["decided_by"] == "locations"
    finally:
        s.close()
    assert Store(path=path).notice is None               # the new file is healthy


def test_a_truncated_database_is_kept_aside_too(tmp_path):
    path = tmp_path / "games.sqlite"
    s = Store(path=path)
    for _ in range(30):
        s.create(records()["G1"])
    s._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    half = path.read_bytes()
    s = Store(path=path)
    try:
        assert s.notice is not None and "damaged" in s.notice
        (aside,) = tmp_path.glob("games.sqlite.damaged-*")
        assert aside.read_bytes() == half
        assert s.games(format=None) == []
    finally:
        s.close()


# ---------------------------------------------------------------------------
# statistics on the fixture set (expected values worked out by hand)
# ---------------------------------------------------------------------------
# Finished Among the Stars games and each player's final breakdown
# (during game, end abilities, empty reactors, credits, objectives = total):
#   G1 Ann  3 2 0 35 4 = 44 (won)   Bea  3 0 0 34 0 = 37
#   G2 Ann  0 3 0 36 0 = 39         Cid  2 0 0 36 4 = 42 (won)
#   G3 Bea  1 0 0 36 0 = 37 (shared) Cid 1 0 0 36 0 = 37 (shared)
#   G4 Ann  1 0 0 36 0 = 37 (won, locations)  Bea 0 0 0 37 0 = 37  Dan 0 0 0 37 0 = 37
# G5 is unfinished and counts nowhere; S1, S2 are Small Star Empires.

def test_games_lists_every_game_newest_first(full):
    store, ids = full
    df = stats.games(store)
    assert list(df.title) == ["S2", "S1", "G5", "G4", "G3", "G2", "G1"]
    t = df.set_index("title")
    assert t.loc["G5", "finished"] == 0 and t.loc["G5", "winners"] == ""
    assert t.loc["G3", "winners"] == "Bea, Cid" and t.loc["G3", "decided_by"] == "shared"
    assert t.loc["G4", "players"] == "Ann, Bea, Dan"
    assert t.loc["S2", "game"] == "Small Star Empires" and t.loc["G1", "game"] == "Among the Stars"
    assert t.loc["S2", "winners"] == "Bob"
    assert list(stats.games(store, SSE).title) == ["S2", "S1"]


def test_win_rates_by_player(full):
    store, _ = full
    # Ann: G1 won, G2 lost, G4 won -> 3 games, 2 wins, 0.667
    # Bea: G1 lost, G3 shared (a win), G4 lost -> 3, 1, 0.333
    # Cid: G2 won, G3 shared -> 2, 2, 1.0
    # Dan: G4 lost -> 1, 0, 0.0
    # (the Small Star Empires players Ann/Bob do not count: Among the Stars only)
    df = stats.win_rates(store, "player")
    assert df.to_dict("records") == [
        {"player": "Cid", "games": 2, "wins": 2, "win_rate": 1.0},
        {"player": "Ann", "games": 3, "wins": 2, "win_rate": 0.667},
        {"player": "Bea", "games": 3, "wins": 1, "win_rate": 0.333},
        {"player": "Dan", "games": 1, "wins": 0, "win_rate": 0.0}]


def test_win_rates_by_race(full):
    store, _ = full
    # Beta: G1 Ann won -> 1 game, 1 win.  Alpha: G1 Bea lost, G2 Ann lost, G4 Ann won
    # -> 3 games, 1 win, 0.333.  Players without a race (Cid, Dan, G3) are left out.
    df = stats.win_rates(store, "race")
    assert df.to_dict("records") == [
        {"race": BETA, "games": 1, "wins": 1, "win_rate": 1.0},
        {"race": ALPHA, "games": 3, "wins": 1, "win_rate": 0.333}]


def test_scores_average_and_best(full):
    store, _ = full
    # Ann 44, 39, 37 -> average 120/3 = 40.0, best 44;  Bea 37, 37, 37 -> 37.0, 37
    # Cid 42, 37 -> 39.5, 42;  Dan 37 -> 37.0, 37
    df = stats.scores(store).set_index("player")
    assert df.to_dict("index") == {
        "Ann": {"games": 3, "average": 40.0, "best": 44},
        "Cid": {"games": 2, "average": 39.5, "best": 42},
        "Bea": {"games": 3, "average": 37.0, "best": 37},
        "Dan": {"games": 1, "average": 37.0, "best": 37}}
    assert list(df.index[:2]) == ["Ann", "Cid"]          # highest average first


def test_average_breakdown(full):
    store, _ = full
    # 9 player rows (G1-G4):
    #   during game      3+3+0+2+1+1+1+0+0 = 11        -> 11/9 = 1.222 -> 1.22
    #   end abilities    2 (Beta) + 3 (E)   = 5         -> 5/9  = 0.556 -> 0.56
    #   empty reactors   0                              -> 0.0
    #   credits          35+34+36+36+36+36+36+37+37 = 323 -> 35.888 -> 35.89
    #   objectives       4+4 = 8                        -> 8/9 = 0.889 -> 0.89
    # (11 + 5 + 323 + 8 = 347 = 44+37+39+42+37+37+37+37+37: the totals add up)
    df = stats.breakdown(store)
    assert dict(zip(df.category, df.average)) == {
        "during_game": 1.22, "end_abilities": 0.56, "empty_reactors": 0.0,
        "credits": 35.89, "objectives": 0.89}
    per = stats.breakdown(store, per_player=True).set_index("player")
    # Cid: during (2+1)/2 = 1.5, credits 36, objectives 4/2 = 2.0
    assert per.loc["Cid"].to_dict() == {"during_game": 1.5, "end_abilities": 0.0,
                                        "empty_reactors": 0.0, "credits": 36.0,
                                        "objectives": 2.0}


def test_vp_by_year_average_and_per_game(full):
    store, ids = full
    # VP gained during the game, per year (0 when nothing was gained that year):
    #   Ann  G1: 2 1 0 0   G2: 0 0 0 0   G4: 1 0 0 0  -> 1.0, 0.33, 0.0, 0.0
    #   Bea  G1: 1 0 1 1   G3: 1 0 0 0   G4: 0 0 0 0  -> 0.67, 0.0, 0.33, 0.33
    #   Cid  G2: 0 2 0 0   G3: 1 0 0 0                -> 0.5, 1.0, 0.0, 0.0
    #   Dan  G4: 0 0 0 0                              -> 0.0 x 4
    df = stats.vp_by_year(store)
    assert list(df.index) == [1, 2, 3, 4]
    assert df.to_dict() == {"Ann": {1: 1.0, 2: 0.33, 3: 0.0, 4: 0.0},
                            "Bea": {1: 0.67, 2: 0.0, 3: 0.33, 4: 0.33},
                            "Cid": {1: 0.5, 2: 1.0, 3: 0.0, 4: 0.0},
                            "Dan": {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}}
    # one game: cumulative, players in seat order
    g1 = stats.vp_by_year(store, ids["G1"])
    assert list(g1.columns) == ["Ann", "Bea"]
    assert g1.to_dict("list") == {"Ann": [2, 3, 3, 3], "Bea": [1, 1, 2, 3]}
    # the unfinished game: the years played so far (year 1)
    g5 = stats.vp_by_year(store, ids["G5"])
    assert g5.to_dict("list") == {"Ann": [2], "Bea": [1]}


def test_objectives_deciding_the_winner(full):
    store, _ = full
    # 'most military' claimed twice:
    #   G1 Ann 44 - 4 = 40 >= Bea 37: she wins without it -> not decided by it
    #   G2 Cid 42 - 4 = 38 <  Ann 39: without it he loses  -> decided by it
    df = stats.objectives_deciding(store)
    assert df.to_dict("records") == [{"objective": O, "claimed": 2, "decided_the_winner": 1}]


def test_cards_frequency_and_average_vp(full):
    store, _ = full
    # A: G1 Ann 1 + Bea 3, G3 Bea 1 + Cid 1, G4 Ann 1 = 7 built in 3 games, 1 VP each
    # B: G1 Ann, G2 Cid = 2 built in 2 games, 2 VP each
    # E: G2 Ann = 1 built, printed 0 + 3 at the end = 3 VP
    # (G5, unfinished, built A and B: not counted)
    df = stats.cards(store)
    assert df.to_dict("records") == [
        {"card": A, "built": 7, "games": 3, "average_vp": 1.0},
        {"card": B, "built": 2, "games": 2, "average_vp": 2.0},
        {"card": E, "built": 1, "games": 1, "average_vp": 3.0}]


def test_tiebreak_counts(full):
    store, _ = full
    # Among the Stars: G1 vp, G2 vp, G3 shared, G4 locations; SSE: S1 vp, S2 cities_left
    both = stats.tiebreaks(store)
    assert dict(zip(both.decided_by, both.games)) == {"vp": 3, "shared": 1, "locations": 1,
                                                      "cities_left": 1}
    assert both.games.iloc[0] == 3 and both.decided_by.iloc[0] == "vp"
    ats = stats.tiebreaks(store, ATS)
    assert dict(zip(ats.decided_by, ats.games)) == {"vp": 2, "shared": 1, "locations": 1}
    sse = stats.tiebreaks(store, SSE)
    assert dict(zip(sse.decided_by, sse.games)) == {"vp": 1, "cities_left": 1}


def test_small_star_empires_win_rate_by_seat_and_shares(full):
    store, _ = full
    # seat 1 (Ann): S1 won, S2 lost; seat 2 (Bob): S1 lost, S2 won -> 2 games, 1 win each
    seats = stats.win_rates(store, "seat", SSE).sort_values("seat")
    assert seats.to_dict("records") == [{"seat": 1, "games": 2, "wins": 1, "win_rate": 0.5},
                                        {"seat": 2, "games": 2, "wins": 1, "win_rate": 0.5}]
    # shares of the final score:
    #   S1 Ann 8: trade 1/8 = 0.125, territory 3/8 = 0.375;  Bob 4: trade 0, territory 3/4
    #   S2 Ann 5: trade 0, territory 3/5 = 0.6;              Bob 5: trade 1/5, territory 3/5
    #   Ann: trade (0.125 + 0)/2 = 0.0625, territory (0.375 + 0.6)/2 = 0.4875
    #   Bob: trade (0 + 0.2)/2 = 0.1,      territory (0.75 + 0.6)/2 = 0.675
    sh = stats.shares(store, SSE_FORMAT, SSE_SHARES).set_index("player")
    assert list(sh.games) == [2, 2]
    assert sh.loc["Ann", "trade_station_share"] == pytest.approx(0.0625, abs=1e-3)
    assert sh.loc["Ann", "territory_share"] == pytest.approx(0.4875, abs=1e-3)
    assert sh.loc["Bob", "trade_station_share"] == pytest.approx(0.1, abs=1e-9)
    assert sh.loc["Bob", "territory_share"] == pytest.approx(0.675, abs=1e-9)


def test_all_statistics_has_every_table(full):
    store, _ = full
    tables = stats.all_statistics(store)
    assert list(tables) == [
        "games", "win rate by player", "win rate by race", "scores", "average breakdown",
        "VP by year (average)", "objectives deciding the winner", "cards built", "tiebreaks",
        "Small Star Empires: win rate by player",
        "Small Star Empires: win rate by seat",
        "Small Star Empires: trade stations and territory"]
    assert all(isinstance(df, pd.DataFrame) for df in tables.values())
    assert len(tables["games"]) == 7


def test_statistics_of_an_empty_store(store):
    tables = stats.all_statistics(store)
    assert all(df.empty for df in tables.values())
    assert history.plays_csv(store) == ",".join(history.PLAYS_COLUMNS) + "\n"


# ---------------------------------------------------------------------------
# the plays CSV
# ---------------------------------------------------------------------------
def test_plays_csv_one_row_per_finished_game(full):
    store, ids = full
    rows = list(csv.DictReader(io.StringIO(history.plays_csv(store))))
    assert list(rows[0]) == ["date", "game", "players", "scores", "winner", "game_id",
                            "duration_min", "location", "notes", "new_players"]
    assert [r["game_id"] for r in rows] == [ids[k] for k in ("G1", "G2", "G3", "G4", "S1", "S2")]
    today = time.strftime("%Y-%m-%d")
    assert {r["date"] for r in rows} == {today}
    by = {k: r for k, r in zip(("G1", "G2", "G3", "G4", "S1", "S2"), rows)}
    # players and scores in seat order, ';'-separated; a shared win names both
    assert {k: (r["game"], r["players"], r["scores"], r["winner"]) for k, r in by.items()} == {
        "G1": ("Among the Stars", "Ann;Bea", "44;37", "Ann"),
        "G2": ("Among the Stars", "Ann;Cid", "39;42", "Cid"),
        "G3": ("Among the Stars", "Bea;Cid", "37;37", "Bea;Cid"),
        "G4": ("Among the Stars", "Ann;Bea;Dan", "37;37;37", "Ann"),
        "S1": ("Small Star Empires", "Ann;Bob", "8;4", "Ann"),
        "S2": ("Small Star Empires", "Ann;Bob", "5;5", "Bob")}
    everything = list(csv.DictReader(io.StringIO(history.plays_csv(store, finished_only=False))))
    g5 = [r for r in everything if r["game_id"] == ids["G5"]]
    assert len(everything) == 7 and g5[0]["winner"] == "" and g5[0]["scores"] == "2;1"


# ---------------------------------------------------------------------------
# the History tab in-process (widgets without a browser)
# ---------------------------------------------------------------------------
def test_history_tab_steps_a_small_star_empires_game_in_words(full):
    from companion.ui.app import App
    from companion.ui.history_tab import HistoryTab
    store, ids = full
    tab = HistoryTab(App(store=store))
    assert len(tab.list.options) == 7
    tab.filter.value = "small star"
    assert [v for _, v in tab.list.options] == [ids["S2"], ids["S1"]]
    tab.list.value = ids["S1"]
    tab.open_selected()
    assert tab.step.max == 4 and tab.step.value == 4
    assert "Step 4/4" in tab.what.value and "Bob moved ship 0 [4, 0] → [3, 0]" in tab.what.value
    tab.step.value = 1
    assert "Ann moved ship 0 [0, 0] → [1, 0], colonised with a City" in tab.what.value
    tab.step.value = 0
    assert "before the first action" in tab.what.value
    tab.filter.value = "Dan"
    assert [v for _, v in tab.list.options] == [ids["G4"]]
    tab.open_selected()
    tab.step.value = 1
    assert "year 1, turn 1: Ann built Fixture: free 1 VP at" in tab.what.value


def test_dates_are_local_time_in_the_list_and_the_csv(store, monkeypatch):
    # UTC+14: the local hour differs from the UTC hour, so a UTC date would show
    monkeypatch.setenv("TZ", "Etc/GMT-14")
    time.tzset()
    try:
        gid = store.create(records()["G3"], title="G3")
        created = _Sql(store).execute("SELECT created FROM games WHERE id=?",
                                      (gid,)).fetchone()[0]
        local = time.localtime(created)
        assert stats.games(store).date.iloc[0] == time.strftime("%Y-%m-%d %H:%M", local)
        row = next(csv.DictReader(io.StringIO(history.plays_csv(store))))
        assert row["date"] == time.strftime("%Y-%m-%d", local)
    finally:
        monkeypatch.undo()
        time.tzset()
