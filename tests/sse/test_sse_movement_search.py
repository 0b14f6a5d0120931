"""The search for legal moves (movement.destinations, can_move) and the raising checks
(movement.route, what a typed move goes through) are one set of rules: the search skips
a refused system without making its message, the typed move shows the message.  Here:
they agree on every system of every state of real games, and the messages a player reads
are word for word those of before the search stopped raising (issue: replay speed)."""
from __future__ import annotations

import json
import random
from pathlib import Path

from companion.core.errors import IllegalAction
from companion.sse import SseGame, movement
from companion.sse.hexmap import EFFECTS

from ssekit import game, move

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "small-star-empires" / "samples" / "two-player-random.json"

ROW = "H1 E P1 E P2 E E E H2"
WORMS = """
H1 W E E E E E
E  E E E E E E
E  E E E W E H2
"""


# ---------------------------------------------------------------------------
# the search agrees with the raising checks
# ---------------------------------------------------------------------------
def check_state(st) -> int:
    """Every ship of every player: its destinations are exactly the systems ``route``
    accepts (the same Move), ``first=True`` is the first of them, ``can_move`` is whether
    any ship has one.  Returns the number of systems compared."""
    qs = [q for q, _ in st.map]
    rs = [r for _, r in st.map]
    around = [(q, r) for q in range(min(qs) - 1, max(qs) + 2)
              for r in range(min(rs) - 1, max(rs) + 2)]
    compared = 0
    for p, ps in st.players.items():
        any_move = False
        for ship in ps.ships:
            dest = movement.destinations(st, ps, ship)
            first = movement.destinations(st, ps, ship, first=True)
            assert list(first.items()) == list(dest.items())[:1]
            any_move = any_move or bool(dest)
            for h in around:
                try:
                    m = movement.route(st, ps, ship, h)
                except IllegalAction as e:
                    assert h not in dest, (p, ship, h, e)
                    assert e.detail and e.rule
                else:
                    assert dest.get(h) == m, (p, ship, h)
                compared += 1
        assert movement.can_move(st, p) is any_move, p
    return compared


def test_search_agrees_with_route_on_every_state_of_the_sample():
    record = json.loads(SAMPLE.read_text(encoding="utf-8"))
    g = SseGame(record["setup"])
    compared = check_state(g.state)
    for a in record["actions"]:
        g.push(a)
        compared += check_state(g.state)
    assert g.state.finished and compared > 10_000


def test_search_agrees_with_route_with_wormholes_damage_and_open_borders():
    rnd = random.Random(7)
    text = """
H1 W  E  E  P1 E  E
E  E  P2 B  E  E  E
E  E  E  E  W  E  Nr
E  P3 E  E  E  W  H2
"""
    for variants in ({"damaged_ships": True, "open_borders": True},
                     {"unexplored": True, "open_borders": True}):
        g = game(text, ships=2, variants=variants)
        states = 0
        while not g.state.finished and states < 40:
            check_state(g.state)
            states += 1
            p = g.current
            if variants.get("damaged_ships") and rnd.random() < 0.3:
                healthy = [s.id for s in g.state.players[p].ships if not s.damaged]
                if healthy:
                    g.push({"do": "damage", "player": p, "ship": rnd.choice(healthy)})
                    continue
            options = [(i, m) for i in range(2) for m in g.legal_moves(p, i)]
            i, m = rnd.choice(options)
            a = {"player": p, "ship": i, "to": list(m.to)}
            if m.kind == "colonise":
                a["piece"] = rnd.choice(m.pieces)
            elif m.kind == "repair":
                a["piece"] = None
            else:
                effect = rnd.choice([e for e in EFFECTS if e not in ("nordinn_empire",
                                                                      "refuelling_station")])
                a["reveal"] = {"effect": effect}
                if effect == "planetary":
                    a["reveal"]["planets"] = 1
            g.push(a)
        check_state(g.state)
        assert states > 5


# ---------------------------------------------------------------------------
# the messages a player reads
# ---------------------------------------------------------------------------
def message(g: SseGame, action: dict) -> str | None:
    try:
        g.check(action)
    except IllegalAction as e:
        return str(e)
    return None


def route_message(g: SseGame, player: str, ship: int, to, via=None) -> str | None:
    st = g.state
    ps = st.players[player]
    try:
        movement.route(st, ps, ps.ships[ship], tuple(to), via)
    except IllegalAction as e:
        return f"{e.rule}: {e.detail}"
    return None


def A(player, to, ship=0, piece="city", **kw):
    a = {"player": player, "ship": ship, "to": list(to)}
    if piece is not None:
        a["piece"] = piece
    a.update(kw)
    return a


def messages() -> list[str | None]:
    out = []
    g = game("H1 E E H2")
    out.append(message(g, A("Ann", (0, 0))))
    g = game("E E E E E\nE E E E E\nE E H1 E E\nE E E E E\nE E E E H2")
    out.append(message(g, A("Ann", (3, 3))))
    out.append(message(g, A("Ann", (3, 3), via="line")))
    g = game(WORMS)
    out.append(message(g, A("Ann", (2, 1))))
    out.append(message(g, A("Ann", (5, 1), via="line")))
    out.append(message(g, A("Ann", (1, 0))))
    out.append(message(g, A("Ann", (2, 2), via="wormhole")))
    g = game(WORMS)
    move(g, "Ann", (0, 2))
    move(g, "Bob", (6, 1))
    out.append(message(g, A("Ann", (5, 1), via="wormhole")))
    out.append(message(g, A("Ann", (5, 1))))
    g = game("H1 E . E E H2")
    out.append(message(g, A("Ann", (3, 0))))
    out.append(message(g, A("Ann", (2, 0))))
    out.append(message(g, A("Ann", (50, 0))))
    g = game("H1 E B E H2")
    out.append(message(g, A("Ann", (3, 0))))
    out.append(message(g, A("Ann", (2, 0))))
    g = game("H1 E E E E E H2", variants={"damaged_ships": True})
    g.push({"do": "damage", "player": "Ann", "ship": 0})
    out.append(message(g, A("Ann", (3, 0))))
    g = game("H1 E E E E H2", ships=2, variants={"unexplored": True})
    move(g, "Ann", (1, 0), piece=None, reveal={"effect": "asteroid_field"})
    move(g, "Bob", (4, 0), reveal={"effect": "planetary", "planets": 2})
    out.append(message(g, A("Ann", (2, 0), ship=1)))
    out.append(message(g, A("Ann", (1, 0), ship=1)))
    g = game(ROW, ships=2)
    out.append(message(g, A("Ann", (8, 0))))
    move(g, "Ann", (2, 0))
    move(g, "Bob", (4, 0))
    out.append(message(g, A("Ann", (5, 0), ship=1)))
    out.append(message(g, A("Ann", (4, 0), ship=1)))
    out.append(message(g, A("Ann", (2, 0), ship=1)))
    out.append(message(g, A("Ann", (0, 0), ship=0)))
    out.append(message(g, A("Ann", (3, 0), ship=0, via="wormhole")))
    g = game("H1 E E E E E E H2", variants={"open_borders": True},
             pieces={"cities": 0, "trade_stations": 2})
    move(g, "Ann", (2, 0), piece="trade_station")
    move(g, "Bob", (5, 0), piece="trade_station")
    out.append(message(g, A("Ann", (6, 0), piece="trade_station")))
    out.append(route_message(g, "Ann", 0, (6, 0)))
    g = game("H1 E E E E E E H2", variants={"open_borders": True, "unexplored": True},
             pieces={"cities": 2, "trade_stations": 2})
    move(g, "Ann", (2, 0), piece=None, reveal={"effect": "abandoned_trade_station"})
    move(g, "Bob", (5, 0), reveal={"effect": "planetary", "planets": 1})
    out.append(route_message(g, "Ann", 0, (6, 0)))
    out.append(route_message(g, "Bob", 0, (1, 0)))
    g = game("H1 E E E E H2", variants={"unexplored": True},
             pieces={"cities": 0, "trade_stations": 2})
    out.append(route_message(g, "Ann", 0, (1, 0)))
    g = game("H1 E E E E H2", variants={"damaged_ships": True, "unexplored": True})
    g.push({"do": "damage", "player": "Ann", "ship": 0})
    out.append(route_message(g, "Ann", 0, (1, 0)))
    g = game("H1 E E E E H2", pieces={"cities": 0, "trade_stations": 0})
    out.append(route_message(g, "Ann", 0, (1, 0)))
    g = game("H1 E E E E H2")
    g.state.conquered.add((2, 0))                     # as a Nordinn Empire leaves it
    out.append(route_message(g, "Ann", 0, (2, 0)))
    return out


#: what the engine said before the search stopped raising (each movement rule once)
MESSAGES = [
    'Ann move ship 0 to [0, 0]: the ship is already at [0, 0] [rule: no-move]',
    'Ann move ship 0 to [3, 3]: [3, 3] is not in a straight line from [2, 2] [rule: not-straight]',
    'Ann move ship 0 to [3, 3]: [3, 3] is not in a straight line from [2, 2] [rule: not-straight]',
    "Ann move ship 0 to [2, 1]: [2, 1] is not in a straight line from [0, 0] nor next to "
    "another Wormhole [rule: not-straight]",
    'Ann move ship 0 to [5, 1]: [5, 1] is not in a straight line from [0, 0] [rule: not-straight]',
    'Ann move ship 0 to [1, 0]: [1, 0] is a Wormhole [rule: wormhole-end]',
    "Ann move ship 0 to [2, 2]: from next to a Wormhole a ship jumps next to another Wormhole; "
    "[2, 2] is not next to another one [rule: wormhole]",
    'Ann move ship 0 to [5, 1]: the ship at [0, 2] is not next to a Wormhole [rule: wormhole]',
    'Ann move ship 0 to [5, 1]: [5, 1] is not in a straight line from [0, 2] [rule: not-straight]',
    'Ann move ship 0 to [3, 0]: no system at [2, 0] on the way [rule: off-map]',
    'Ann move ship 0 to [2, 0]: there is no system at [2, 0] [rule: off-map]',
    "Ann move ship 0 to [50, 0]: [50, 0] is 50 systems away; the map has only 5 systems "
    "[rule: off-map]",
    'Ann move ship 0 to [3, 0]: the Black Hole at [2, 0] is in the way [rule: black-hole]',
    'Ann move ship 0 to [2, 0]: [2, 0] is a Black Hole [rule: black-hole]',
    "Ann move ship 0 to [3, 0]: the ship is damaged: it moves at most 2 systems, [3, 0] is 3 "
    "away [rule: damaged-reach]",
    'Ann move ship 1 to [2, 0]: the Asteroid Field at [1, 0] is in the way [rule: blocked-system]',
    'Ann move ship 1 to [1, 0]: [1, 0] is a revealed Asteroid Field [rule: blocked-system]',
    "Ann move ship 0 to [8, 0]: [8, 0] is Bob's homeworld [rule: opponent-system]",
    "Ann move ship 1 to [5, 0]: Bob's system at [4, 0] is in the way [rule: opponent-system]",
    "Ann move ship 1 to [4, 0]: [4, 0] is Bob's system [rule: opponent-system]",
    'Ann move ship 1 to [2, 0]: Ann already controls [2, 0] [rule: own-system]',
    "Ann move ship 0 to [0, 0]: [0, 0] is Ann's own homeworld [rule: own-homeworld]",
    'Ann move ship 0 to [3, 0]: the ship at [2, 0] is not next to a Wormhole [rule: wormhole]',
    "Ann move ship 0 to [6, 0]: passing 1 opponent system(s) costs 1 Cities; Ann has 0 "
    "[rule: open-borders]",
    'open-borders: passing 1 opponent system(s) costs 1 Cities; Ann has 0',
    'unexplored-city: Ann has no City left after paying to pass',
    'unexplored-city: Bob has no City left after paying to pass',
    'unexplored-city: Ann has no City left',
    'damaged-unexplored: the ship is damaged and [1, 0] is unexplored',
    'no-pieces: Ann has no City or Trade Station left',
    'conquered: [2, 0] carries a Nordinn conquest marker',
]


def test_refusal_messages_are_word_for_word_as_before():
    assert messages() == MESSAGES
