"""SseGame.describe / describe_action: an action in words, from the engine.  The words are
the player's name and then exactly what the Small Star Empires tab says today
(companion.ui.sse_screen.describe), on the sample records in data/, on random games with
every variant, and on stored actions of every shape (damage, wormhole, tiles, a
Refuelling Station's extra moves, a Nordinn Empire's destroyed City, Open Borders)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.sse import SseGame
from companion.sse.game import describe_action
from companion.sse.hexmap import EFFECTS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "data" / "small-star-empires" / "samples").glob("*.json"))

STORED = [
    {"do": "damage", "player": "Ann", "ship": 1, "from": [2, 0]},
    {"do": "move", "player": "Bob", "ship": 0, "from": [4, 0], "to": [4, 0], "via": "line",
     "piece": None},
    {"do": "move", "player": "Ann", "ship": 0, "from": [0, 0], "to": [3, 1], "via": "wormhole",
     "piece": "trade_station"},
    {"do": "move", "player": "Ann", "ship": 0, "from": [0, 0], "to": [2, 0], "via": "line",
     "piece": "city", "pay": [{"at": [1, 0], "to": "Bob"}, {"at": [1, 1], "to": "Cy"}]},
    {"do": "move", "player": "Ann", "ship": 0, "from": [0, 0], "to": [2, 0], "via": "line",
     "piece": None, "reveal": {"effect": "nordinn_empire"}, "destroy": [3, 0]},
    {"do": "move", "player": "Ann", "ship": 0, "from": [0, 0], "to": [2, 0], "via": "line",
     "piece": None, "reveal": {"effect": "asteroid_field"}},
    {"do": "move", "player": "Ann", "ship": 0, "from": [0, 0], "to": [2, 0], "via": "line",
     "piece": "city", "reveal": {"effect": "planetary", "planets": 2}},
    {"do": "move", "player": "Ann", "ship": 0, "from": [0, 0], "to": [2, 0], "via": "line",
     "piece": "city", "reveal": {"effect": "refuelling_station"},
     "then": {"to": [3, 0], "piece": "trade_station"}},
    {"do": "move", "player": "Ann", "ship": 0, "from": [0, 0], "to": [2, 0], "via": "line",
     "piece": "city", "reveal": {"effect": "refuelling_station"},
     "then": {"to": [3, 0], "reveal": {"effect": "refuelling_station"},
              "then": {"to": [4, 0], "reveal": {"effect": "nordinn_empire"},
                       "destroy": [5, 0]}}},
]


def same_words(g: SseGame, a: dict) -> None:
    # (the tab's own describe was checked equal to these words, then removed: the tab and
    # the History tab now ask the engine)
    assert g.describe(a) == f"{a['player']} {describe_action(a, with_player=False)}"
    assert describe_action(a) == g.describe(a)


def test_there_is_a_sample_record():
    assert SAMPLES


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_records_are_described_as_the_tab_does(path):
    g = SseGame.from_record(json.loads(path.read_text(encoding="utf-8")))
    assert g.actions
    for a in g.actions:
        same_words(g, a)
    first = g.actions[0]
    assert g.describe(first).startswith(f"{first['player']} moved ship {first['ship']} ")


@pytest.mark.parametrize("a", STORED, ids=range(len(STORED)))
def test_every_shape_of_stored_action(a):
    g = SseGame.from_record(json.loads(SAMPLES[0].read_text(encoding="utf-8")))
    same_words(g, a)


def test_words_of_a_few_actions():
    assert describe_action(STORED[0]) == "Ann damaged ship 1 at [2, 0]"
    assert describe_action(STORED[1], with_player=False) == \
        "moved ship 0 [4, 0] → [4, 0], repaired at home"
    assert describe_action(STORED[3]) == ("Ann moved ship 0 [0, 0] → [2, 0], colonised with a "
                                          "City, paid a City to Bob, a City to Cy")


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_every_variant(seed):
    rnd = random.Random(seed)
    n = 2 + seed % 3
    g = SseGame({"players": ["Ann", "Bob", "Cy", "Di"][:n], "map": f"basic-{n}p",
                 "pieces": {"ships": 2, "cities": 6, "trade_stations": 2},
                 "variants": {"damaged_ships": True, "unexplored": True, "open_borders": True},
                 "options": {"pieces": "custom"}})
    while not g.state.finished and len(g.actions) < 60:
        p = g.current
        healthy = [s.id for s in g.state.players[p].ships if not s.damaged]
        if healthy and rnd.random() < 0.1:
            same_words(g, g.push({"do": "damage", "player": p, "ship": rnd.choice(healthy)}))
            continue
        i, m = rnd.choice([(i, m) for i in range(2) for m in g.legal_moves(p, i)])
        a: dict = {"player": p, "ship": i, "to": list(m.to)}
        if m.kind == "colonise":
            a["piece"] = rnd.choice(m.pieces)
        elif m.kind == "explore":
            a["reveal"] = {"effect": rnd.choice(EFFECTS)}
            if a["reveal"]["effect"] == "planetary":
                a["reveal"]["planets"] = rnd.randint(1, 3)
            if a["reveal"]["effect"] == "nordinn_empire":
                choices = g.nordinn_choices(p, m.to)
                if choices:
                    a["destroy"] = list(rnd.choice(choices))
            if a["reveal"]["effect"] == "refuelling_station":
                nxt = g.refuel_choices(p, m.to, ship=i)
                colonise = [n for n in nxt if n.kind == "colonise"]
                if colonise:
                    t = rnd.choice(colonise)
                    a["then"] = {"to": list(t.to), "piece": t.pieces[0]}
        same_words(g, g.push(a))
    assert g.actions
