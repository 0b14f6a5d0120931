"""Issue 20, "one chance for every device": every random draw comes from the record's
seed (companion.core.chance) and the draw's place in the game, so every page, every
Python process, a reload and a replay draw the same; every new game gets a fresh seed.

The rules that ask for a draw:

* Revival, timing rules, step 2 (R 5): "The player who currently has the most VP
  announces which action they are taking. In case of a tie, the player with the most
  Credits goes first. If there is still a tie, the order among them is chosen
  randomly."  And: "Since all players start the game tied in both VP and Credits, if
  needed, the order during the first turn will have to be determined randomly."
* Base game, Playing Order: "If both players are on the same spot, then the one with
  the most credits goes first. If they have the same amount of credits, then the order
  is chosen randomly."
* Base game, Setup: "Each player chooses a race to play and takes the tile with its
  Racial Ability. The choice can either be random or by agreement."

Cards named "Fixture: ..." are invented for these tests (no real card's number is
used); School of Alien Cultures' ability is the shipped catalogue's.
"""
from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ats import decks
from companion.ats.catalogue import Catalogue
from companion.ats.game import Game
from companion.ats.record import validate_record as validate_ats
from companion.core import chance
from companion.core.errors import IllegalAction, RecordError
from companion.sse.game import SseGame
from companion.sse.record import validate_record as validate_sse

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "score-json"
SAMPLES = sorted((ROOT / "data" / "samples").glob("*.json")) + \
    sorted((ROOT / "data" / "small-star-empires" / "samples").glob("*.json"))
PLAYERS = ["Ana", "Ben", "Cleo", "Dov"]
SEED = 4_503_599_627_370_497            # a seed above 2**52: the top of the range is used
FIX = [{"name": "Fixture: plain", "types": ["business"], "cost": 1, "energy": 0, "vp": 2,
        "max": "none", "abilities": []}]


def school() -> dict:
    """A fixture card with School of Alien Cultures' ability as the shipped catalogue
    has it (the card's own cost and VP are made up)."""
    card = Catalogue.shipped().get("School of Alien Cultures")
    assert card is not None and card.abilities
    return {"name": "Fixture: school", "types": ["diplomatic"], "cost": 2, "energy": 1, "vp": 1,
            "max": "none", "abilities": [dict(a) for a in card.abilities]}


def timing_record(seed: int | None = SEED) -> dict:
    """A Revival timing-rules game at its first turn: everyone has 0 VP and 10 credits."""
    setup: dict = {"players": PLAYERS, "options": {"timing_rules": True}}
    if seed is not None:
        setup["seed"] = seed
    return Game(setup, cards=FIX).to_record()


def sse_record() -> dict:
    rec = json.loads((ROOT / "data" / "small-star-empires" / "samples" /
                      "two-player-random.json").read_text(encoding="utf-8"))
    assert "seed" not in rec["setup"]
    return rec


def what_a_page_sees(rec: dict) -> dict:
    """What the issue compared between phones: the turn order (the info line), who may
    act now (the "may this player act" check) and the first action as it is stored."""
    g = Game.from_record(rec)
    first = g.waiting_in_order()[0]
    return {"order": g.turn_order(), "waiting": g.waiting_in_order(),
            "may_act": {p: bool(g.legal_cells(p, "Fixture: plain")) for p in PLAYERS},
            "stored": g.check({"player": first, "do": "discard", "card": "Fixture: plain"}),
            "seed": g.setup.draw_seed}


CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from test_chance import what_a_page_sees
from companion.core import chance
from companion.sse.game import SseGame
data = json.load(sys.stdin)
out = {k: what_a_page_sees(r) for k, r in data["ats"].items()}
sse = SseGame.from_record(data["sse"])
out["sse"] = {"seed_of": chance.seed_of(sse.to_record()), "draw_seed": sse.setup.draw_seed}
out["hash"] = hash("Ana")            # str hash() is salted per process: it must differ
print(json.dumps(out, sort_keys=True))
"""


def run_processes(n: int, payload: dict) -> list[dict]:
    """``n`` separate Python processes (each with its own str-hash salt), started at
    once, each opening the same records, as the issue's measurement did."""
    text = json.dumps(payload)
    procs = []
    for i in range(n):
        env = dict(os.environ, PYTHONHASHSEED=str(1000 + i),
                   PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
        procs.append(subprocess.Popen([sys.executable, "-c", CHILD, str(ROOT / "tests")],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env, cwd=str(ROOT)))
    outs = []
    for p in procs:
        out, err = p.communicate(text, timeout=180)
        assert p.returncode == 0, err
        outs.append(json.loads(out))
    return outs


# ------------------------------------------------ the issue: 12 processes, one order
def test_a_tie_gives_the_same_order_in_twelve_processes_and_here():
    # R 5 step 2: "If there is still a tie, the order among them is chosen randomly."
    with_seed, without = timing_record(), timing_record(None)
    assert "seed" not in without["setup"]
    outs = run_processes(12, {"ats": {"seeded": with_seed, "unseeded": without},
                              "sse": sse_record()})
    assert len({o["hash"] for o in outs}) > 1        # the processes' str hashes did differ
    for key, rec in (("seeded", with_seed), ("unseeded", without)):
        seen = {json.dumps(o[key], sort_keys=True) for o in outs}
        assert len(seen) == 1, (key, seen)           # the issue measured 9 different orders
        here = what_a_page_sees(copy.deepcopy(rec))
        assert json.loads(seen.pop()) == json.loads(json.dumps(here))
        # one player, and only the first in the order, may act; the stored order is it
        assert [p for p, ok in here["may_act"].items() if ok] == [here["order"][0]]
        assert here["stored"]["turn_order"] == here["order"] == here["waiting"]
    assert outs[0]["seeded"]["seed"] == SEED
    # a record without a seed derives one from its content, the same everywhere
    assert len({o["unseeded"]["seed"] for o in outs}) == 1
    assert outs[0]["unseeded"]["seed"] == chance.seed_of(without) == chance.derived_seed(
        without["setup"])
    assert len({(o["sse"]["seed_of"], o["sse"]["draw_seed"]) for o in outs}) == 1
    assert outs[0]["sse"]["seed_of"] == outs[0]["sse"]["draw_seed"] == \
        SseGame.from_record(sse_record()).setup.draw_seed


def test_a_derived_seed_is_the_same_for_a_record_and_its_replay_written_back():
    # a hand-written record without a seed: the companion writes its setup in full
    # (mode, races, objectives...); the seed is derived from that, so the record and
    # the record written back by a replay draw the same
    raw = {"format": "among-the-stars/1",
           "setup": {"players": PLAYERS, "options": {"timing_rules": True}},
           "cards": FIX, "actions": []}
    g = Game.from_record(raw)
    back = g.to_record()
    assert back["setup"] != raw["setup"] and "seed" not in back["setup"]
    assert g.setup.draw_seed == Game.from_record(back).setup.draw_seed == chance.seed_of(back)
    assert g.turn_order() == Game.from_record(back).turn_order()
    sse = sse_record()
    assert SseGame.from_record(sse).setup.draw_seed == \
        SseGame.from_record(SseGame.from_record(sse).to_record()).setup.draw_seed


def test_the_order_shown_is_the_order_stored_and_survives_reload_and_replay():
    rec = timing_record()
    shown = Game.from_record(rec).turn_order()
    assert sorted(shown) == sorted(PLAYERS)
    # a page that plays: push() stores the order it showed
    g = Game.from_record(rec)
    first = g.push({"player": shown[0], "do": "discard", "card": "Fixture: plain"})
    assert first["turn_order"] == shown
    # a reload (replay of the stored record) mid-turn and at the turn's end
    assert Game.from_record(g.to_record()).turn_order() == shown
    for i, p in enumerate(shown[1:], 2):
        g.push({"player": p, "do": "discard", "card": "Fixture: plain"})
        # mid-turn the stored order holds; once everyone acted the next turn begins
        want = shown if i < len(shown) else []
        assert Game.from_record(g.to_record()).state.turn_order == want
    replay = Game.from_record(g.to_record())
    assert replay.actions == g.actions and replay.actions[0]["turn_order"] == shown
    # the next turn: a new tie (everyone discarded: 0 VP, 13 credits), a new draw, the
    # same on every page; undo and redo draw it again the same
    nxt = Game.from_record(g.to_record()).turn_order()
    assert nxt == g.turn_order() == replay.turn_order()
    g.push({"player": nxt[0], "do": "discard", "card": "Fixture: plain"})
    g.pop()
    assert g.turn_order() == nxt


def test_the_draw_depends_on_the_seed_and_the_turn():
    # not a constant order: over 40 seeds the first turn's tie is drawn in many orders
    firsts = {tuple(Game.from_record(timing_record(s)).turn_order()) for s in range(40)}
    assert len(firsts) > 8
    # the same seed, another turn: drawn anew (the place in the game is part of the draw)
    draws = {tuple(chance.rng(SEED, "turn-order", 1, t).sample(PLAYERS, 4)) for t in range(1, 7)}
    assert len(draws) > 1
    assert chance.rng(SEED, "turn-order", 1, 1).random() != chance.rng(SEED, "resolve-order", 1,
                                                                       1).random()


def test_tied_simultaneous_effects_are_drawn_from_the_seed():
    # B, Playing Order: "If they have the same amount of credits, then the order is
    # chosen randomly."  Two School of Alien Cultures built in one turn by players tied
    # on VP and credits.
    def play(seed):
        g = Game({"players": ["Sandra", "George"], "seed": seed}, cards=[school()])
        g.push({"player": "Sandra", "do": "build", "card": "Fixture: school", "at": [0, 1],
                "choices": {"George": "pay"}})
        last = {"player": "George", "do": "build", "card": "Fixture: school", "at": [0, 1],
                "choices": {"Sandra": "lose"}}
        checked = g.check(last)                        # a query: the same draw as push
        return g, checked, g.push(last)

    g, checked, pushed = play(SEED)
    assert sorted(pushed["resolve_order"]) == ["George", "Sandra"]
    assert checked["resolve_order"] == pushed["resolve_order"]
    assert play(SEED)[2]["resolve_order"] == pushed["resolve_order"]
    assert Game.from_record(g.to_record()).actions[-1]["resolve_order"] == pushed["resolve_order"]
    orders = {tuple(play(s)[2]["resolve_order"]) for s in range(12)}
    assert orders == {("Sandra", "George"), ("George", "Sandra")}


def test_queries_do_not_change_the_game_or_its_draws():
    g = Game.from_record(timing_record())
    before = json.dumps(g.to_record(), sort_keys=True)
    for _ in range(3):
        order = g.turn_order()
        g.waiting_in_order()
        g.legal_cells(order[-1], "Fixture: plain")
        with pytest.raises(IllegalAction) as e:
            g.check({"player": order[-1], "do": "discard", "card": "Fixture: plain"})
        assert e.value.rule == "timing" and f"{order[0]} acts next" in str(e.value)
        g.trial({"player": order[0], "do": "discard", "card": "Fixture: plain"})
    assert json.dumps(g.to_record(), sort_keys=True) == before and not g.state.acted
    assert g.turn_order() == order


# ------------------------------------------------ new games: a fresh seed each
def test_new_games_get_fresh_seeds_and_different_race_draws():
    setup = {"players": ["A", "B", "C", "D", "E", "F"]}
    seeds = [chance.new_game(setup)["seed"] for _ in range(6)]
    assert len(set(seeds)) == 6 and all(0 <= s < 2 ** 53 for s in seeds)
    assert "seed" not in setup                                  # the caller's dict is kept
    # B 3 "The choice can either be random": drawn from the new game's seed.  Six
    # players, 8 race tiles: 20,160 ways; six games all drawing the same is about
    # 1 in 10**21.
    shipped = Catalogue.shipped()
    draws = {tuple(decks.draw_setup(setup["players"], seed=s, catalogue=shipped)["races"].values())
             for s in seeds}
    assert len(draws) > 1
    chosen = {tuple(decks.complete_choices(setup["players"], use_races=True, catalogue=shipped,
                                           seed=s)["races"].values()) for s in seeds}
    assert len(chosen) > 1


def test_new_game_replaces_an_old_seed_and_checks_a_given_one():
    old = {"players": ["Ann", "Bob"], "seed": 7}
    # a campaign's next game starts from the last one's setup: its seed is replaced
    assert chance.new_game(old)["seed"] != 7            # fails once in 2**53 runs
    assert chance.new_game(old, 9)["seed"] == 9 and old["seed"] == 7
    for bad in (-1, 2 ** 53, True, "5", 1.0):
        with pytest.raises(ValueError):
            chance.new_game(old, bad)       # type: ignore[arg-type]


def test_a_seeded_draw_is_reproducible():
    shipped = Catalogue.shipped()
    a = decks.draw_setup(PLAYERS, seed=SEED, catalogue=shipped, mode="aggressive")
    b = decks.draw_setup(PLAYERS, seed=SEED, catalogue=shipped, mode="aggressive")
    assert a == b and a["seed"] == SEED
    c1 = decks.complete_choices(PLAYERS, races={"Ana": "Vak"}, use_races=True,
                                use_objectives=True, catalogue=shipped, seed=SEED)
    c2 = decks.complete_choices(PLAYERS, races={"Ana": "Vak"}, use_races=True,
                                use_objectives=True, catalogue=shipped, seed=SEED)
    assert c1 == c2 and c1["races"]["Ana"] == "Vak"
    assert [chance.rng(SEED, "x", 2, 3).random() for _ in range(2)] == \
        [chance.rng(SEED, "x", 2, 3).random() for _ in range(2)]
    # the draw is random.Random("<seed>:<purpose>:<year>:<turn>"), as documented
    assert chance.rng(SEED, "turn-order", 2, 3).random() == \
        random.Random(f"{SEED}:turn-order:2:3").random()


def test_the_setup_screen_starts_each_game_with_a_fresh_seed(tmp_path):
    from companion.table.store import Store
    from companion.ui.app import App
    app = App(Store(tmp_path / "games.sqlite"))
    seeds, races = [], []
    for _ in range(4):
        app.ats.setup_part.show_setup()
        for box, name in zip(app.ats.setup_part.name_boxes, ["A", "B", "C", "D", "E", "F"]):
            box.value = name
        app.ats.setup_part.use_races.value = True                  # every race box says "draw at random"
        box_seed = app.ats.setup_part.mode_setup.seed.value
        app.ats.setup_part.start_game()
        rec = app.store.load(app.ats.gid)
        assert rec["setup"]["seed"] == box_seed     # the Seed box held the new game's seed
        assert app.ats.setup_part.mode_setup.seed.value != box_seed    # the next game gets a fresh one
        seeds.append(box_seed)
        races.append(tuple(rec["setup"]["races"].values()))
        # the "draw at random" races come from that seed
        again = decks.complete_choices(["A", "B", "C", "D", "E", "F"], use_races=True,
                                       races={}, seed=box_seed)
        assert again["races"] == rec["setup"]["races"]
    assert len(set(seeds)) == 4 and len(set(races)) > 1
    # the Small Star Empires screen: a seed in every new record too
    app.tabs.selected_index = 1
    tab = app.sse
    tab.show_setup()
    tab.setup_part.map_pick.value = "basic-2p"
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    tab.setup_part.ships.value = 3
    tab.start_game()
    rec = app.store.load(tab.gid)
    assert 0 <= rec["setup"]["seed"] < 2 ** 53 and tab.game.setup.draw_seed == rec["setup"]["seed"]
    app.store.close()


def test_a_typed_seed_that_is_not_one_is_a_message_not_a_traceback(tmp_path):
    from companion.table.store import Store
    from companion.ui.app import App
    app = App(Store(tmp_path / "games.sqlite"))
    app.ats.setup_part.name_boxes[0].value, app.ats.setup_part.name_boxes[1].value = "Ann", "Bob"
    app.ats.setup_part.mode_setup.seed.value = -3
    app.guarded(app.ats.setup_part.start_game)()
    assert app.ats.gid is None and "status-error" in app.status.value
    assert "Seed: seed is -3; a seed is from 0 to 9007199254740991" in app.status.value
    app.status.value = ""
    app.guarded(app.ats.setup_part.mode_setup.draw)()
    assert app.ats.setup_part.drawn is None and "Seed: seed is -3" in app.status.value
    assert "Traceback" not in app.status.value and "went wrong" not in app.status.value
    app.store.close()


# ------------------------------------------------ records: where the seed lives, checks
@pytest.mark.parametrize("seed", [0, 1, 2 ** 53 - 1])
def test_validators_accept_a_seed_in_range(seed):
    rec = timing_record(seed)
    validate_ats(rec)
    assert Game.from_record(rec).setup.draw_seed == seed
    assert Game.from_record(rec).to_record()["setup"]["seed"] == seed
    sse = sse_record()
    sse["setup"]["seed"] = seed
    validate_sse(sse)
    assert SseGame.from_record(sse).to_record()["setup"]["seed"] == seed


@pytest.mark.parametrize("bad", [-1, 2 ** 53, 10 ** 20, True, False, "7", 7.0, None, [7]])
def test_validators_refuse_a_seed_out_of_range_or_not_whole(bad):
    rec = timing_record()
    rec["setup"]["seed"] = bad
    with pytest.raises(RecordError) as e:
        validate_ats(rec)
    assert str(e.value).startswith("setup.seed ") and "\n" not in str(e.value)
    sse = sse_record()
    sse["setup"]["seed"] = bad
    with pytest.raises(RecordError) as e:
        validate_sse(sse)
    assert str(e.value).startswith("setup.seed ")


def test_a_bad_seed_from_the_command_line_is_one_line(tmp_path):
    rec = timing_record()
    rec["setup"]["seed"] = True
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    got = subprocess.run([sys.executable, "-m", "companion", "check", str(path)], cwd=str(ROOT),
                         env=env, capture_output=True, text=True, timeout=120)
    assert got.returncode == 2 and got.stderr.count("\n") == 1
    assert "setup.seed must be a whole number" in got.stderr


def test_an_older_record_keeps_its_options_seed_and_replays_as_before():
    # written by the setup helper before issue 20: the draw's seed in options.seed
    old = Game({"players": ["Ana", "Ben", "Cleo"], "options": {"seed": 0, "timing_rules": True}},
               cards=FIX)
    order = ["Cleo", "Ana", "Ben"]
    old.push({"player": "Cleo", "do": "discard", "card": "Fixture: plain", "turn_order": order})
    rec = old.to_record()
    assert "seed" not in rec["setup"] and rec["setup"]["options"]["seed"] == 0
    again = Game.from_record(rec)
    assert again.to_record() == rec                      # written back unchanged
    assert again.state.turn_order == order and again.setup.draw_seed == chance.seed_of(rec) == 0
    for bad in ("0", True, None):
        broken = copy.deepcopy(rec)
        broken["setup"]["options"]["seed"] = bad
        with pytest.raises(RecordError):
            validate_ats(broken)
    # a record without any seed is written back without one, too
    plain = timing_record(None)
    assert Game.from_record(plain).to_record() == plain


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_samples_score_byte_identically_to_before_the_seed(path):
    """``python -m companion score --json`` of every sample, byte for byte, against its
    output before issue 20 (tests/golden/score-json, taken at commit 84b8151)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    got = subprocess.run([sys.executable, "-m", "companion", "score", "--json", str(path)],
                         cwd=str(ROOT), env=env, capture_output=True, timeout=120)
    assert got.returncode == 0, got.stderr
    assert got.stdout == (GOLDEN / f"{path.name}.out").read_bytes()


def test_every_sample_has_its_golden_output():
    assert len(SAMPLES) == 6
    assert sorted(p.name + ".out" for p in SAMPLES) == sorted(p.name for p in GOLDEN.iterdir())
