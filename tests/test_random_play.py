"""Random play over every registered game (issue 38), after OpenSpiel's
``games_sim_test`` (open_spiel/python/tests/games_sim_test.py): for each game of the
registry (:data:`companion.table.registry.GAMES`), from a new game with a few player
counts and options, take random LEGAL actions (offered by the engine's own queries) to
the end of the game (or a cap), and at every step check:

* replay equality: the game replayed from its record from scratch (``from_record`` with
  ``trusted=True``, as the store replays it) has the live game's public view;
* undo: ``pop()`` returns the action just pushed and exactly the previous view; the
  action is then pushed again and the view is the live one again;
* record round trip: ``to_record()`` written as JSON text and read back with
  ``from_record`` (the reader for records from outside: every shape check) gives the
  same view and the same record;
* notation round trip: the stored action written in the game's notation (``str`` of
  ``companion.<game>.actions.from_dict``) and read back (``parse``) is the same action
  and the same JSON;
* queries change nothing: ``check`` / ``is_legal`` / ``why_illegal`` / ``describe`` /
  ``score`` and the game's own legality queries (those that offered the actions) leave
  the view as it was, and ``check`` agrees with what ``push`` stores;
* at the end: the final score is a pure function of the state (computed twice: equal;
  equal after a JSON round trip of the record), and an action pushed after the end is
  refused with the game left as it was;
* then every action is undone, one ``pop()`` at a time, back past what a game keeps for
  a quick undo: each pop gives the view the game had at that step, the game with no
  action left is a new game, and one more ``pop()`` is refused (``nothing-to-undo``).

The public view (there is no public state equality): the record as canonical JSON,
the game's golden-playthrough summary (``companion.<game>.actions.summary``) and a
generic dump of every public field of ``game.state`` (dataclasses, dicts, lists, sets,
plain objects by their public attributes, a graph by its nodes and edges).

What each game needs to be played, and only that, is a small driver per game package
below (its setups through the game's public constructor, and the legal actions from its
own queries); a registered game without a driver fails
(``test_every_registered_game_has_a_driver``), as the golden playthroughs do.

Among the Stars is played with the test's own cards, named "Fixture: ..." and defined
in the record's ``cards`` (their numbers are invented for this test and are no real
card's; one of them carries School of Alien Cultures' ability as the shipped catalogue
has it, as tests/test_chance.py does); no real card's values are used.  Small Star
Empires is played on the shipped starting maps with the book's pieces.  Failures print
the game, the setup, the seed, the step and the action.
"""
from __future__ import annotations

import copy
import dataclasses
import functools
import importlib
import json
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from companion.core import chance
from companion.core.errors import CompanionError, IllegalAction
from companion.table.registry import GAME_NAMES, GAMES

SEEDS = (1, 2)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


# ---------------------------------------------------------------------------
# The generic part: a game's public view, its notation, the checks
# ---------------------------------------------------------------------------
def package_of(fmt: str) -> str:
    return GAMES[fmt].__module__.rsplit(".", 1)[0]


def actions_module(fmt: str) -> ModuleType:
    """The game's actions module (``companion.<game>.actions``), found from its class."""
    return importlib.import_module(package_of(fmt) + ".actions")


def dump(value: Any, depth: int = 0) -> Any:
    """Every public field of ``value`` as plain, comparable data (dicts and sets sorted,
    so their order does not count)."""
    if value is None or type(value) in (bool, int, float, str):
        return value
    if depth > 12:
        return repr(value)
    depth += 1
    if isinstance(value, (list, tuple)):
        return [dump(v, depth) for v in value]
    if isinstance(value, dict):
        return [[repr(k), dump(v, depth)]
                for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(value, (set, frozenset)):
        return sorted(map(repr, value))
    if hasattr(value, "nodes") and hasattr(value, "edges"):        # a graph
        return {"nodes": sorted(map(repr, value.nodes)),
                "edges": sorted(repr(tuple(sorted(e))) for e in value.edges)}
    params = getattr(value, "__dataclass_params__", None)
    if params is not None and params.frozen:       # an immutable value: its repr says all
        return repr(value)
    fields = getattr(value, "__dict__", None)
    if fields is None and dataclasses.is_dataclass(value):         # slots
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if fields is None:
        return repr(value)
    return [type(value).__name__] + [[k, dump(v, depth)] for k, v in sorted(fields.items())
                                     if not k.startswith("_")]


def canonical(record: Any) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False)


def view(game: Any, acts: ModuleType) -> dict[str, Any]:
    """What two games must share to be the same game (the state's ``setup`` is compared
    as the record writes it)."""
    state = dump(game.state)
    return {"record": canonical(game.to_record()), "summary": acts.summary(game),
            "state": [f for f in state if not (isinstance(f, list) and f[:1] == ["setup"])]}


def score_of(game: Any, lines: bool = True) -> Any:
    """The score as data (its JSON and, with ``lines``, its lines), or the refusal's
    words."""
    try:
        sc = game.score()
    except CompanionError as e:
        return f"{type(e).__name__}: {e}"
    table = getattr(sc, "lines", None) if lines else None
    return [sc.to_json(), table.to_dict("records") if table is not None else None]


class Where:
    """What a failure prints: the game, the setup, the seed, the step, the action."""

    def __init__(self, fmt: str, label: str, seed: int):
        self.fmt, self.label, self.seed = fmt, label, seed
        self.step, self.action = 0, None

    def __call__(self, what: str) -> str:
        return (f"{GAME_NAMES[self.fmt]} [{self.label}] seed={self.seed} step={self.step} "
                f"action={json.dumps(self.action, ensure_ascii=False)}: {what}")


def check_step(game: Any, acts: ModuleType, action: dict, where: Where,
               queries: Callable[[Any], None], before: dict[str, Any]) -> dict[str, Any]:
    """Push ``action`` (legal: offered by the engine) to ``game`` whose view is
    ``before``, check everything the module's docstring lists; the view after it."""
    cls = type(game)
    # queries change nothing, and check says what push stores
    checked = game.check(copy.deepcopy(action))
    assert game.is_legal(copy.deepcopy(action)), where("is_legal refuses an offered action")
    assert game.why_illegal(copy.deepcopy(action)) is None, where("why_illegal")
    score_before = score_of(game, lines=False)
    queries(game)
    assert view(game, acts) == before, where("a query changed the game")
    assert score_of(game, lines=False) == score_before, where("score() is not a pure query")
    n = len(game.actions)
    stored = game.push(copy.deepcopy(action))
    assert stored == checked, where(f"push stored {stored}, check said {checked}")
    assert len(game.actions) == n + 1 and game.actions[-1] == stored, where("the record")
    game.describe(stored)           # a query: the replay below sees any change it made
    after = view(game, acts)
    # notation round trip
    typed = acts.from_dict(stored)
    assert typed.to_dict() == stored, where("from_dict(a).to_dict() != a")
    text = str(typed)
    back = acts.parse(text)
    assert back == typed, where(f"notation {text!r} reads back as {back!r}")
    # the same JSON value (the key order of the notation's reading is its own: the
    # record keeps the order an entry was pushed with)
    assert canonical(back.to_dict()) == canonical(stored), where(f"notation {text!r} JSON")
    # replay equality (the store's replay)
    record = game.to_record()
    replayed = cls.from_record(copy.deepcopy(record), trusted=True)
    assert view(replayed, acts) == after, where("the replay of the record differs")
    # record round trip through JSON text (the reader for records from outside)
    text_record = json.dumps(record, ensure_ascii=False)
    again = cls.from_record(json.loads(text_record))
    assert view(again, acts) == after, where("the JSON round trip of the record differs")
    assert again.to_record() == record, where("the record written back differs")
    # undo returns exactly to the previous state; push again
    popped = game.pop()
    assert popped == stored, where(f"pop returned {popped}")
    assert view(game, acts) == before, where("pop() did not restore the previous state")
    assert game.push(copy.deepcopy(stored)) == stored, where("push after pop")
    assert view(game, acts) == after, where("push after pop gives another state")
    return after


def check_end(game: Any, acts: ModuleType, where: Where, refused: list[dict]) -> None:
    cls = type(game)
    first, second = score_of(game), score_of(game)
    assert first == second, where("the final score computed twice differs")
    assert not isinstance(first, str), where(f"no final score: {first}")
    assert first[0].get("final", True) is True, where("the score is not final")
    again = cls.from_record(json.loads(json.dumps(game.to_record())))
    assert score_of(again) == first, where("the final score differs after a round trip")
    here = view(game, acts)
    for action in refused:          # earlier legal actions, refused once the game is over
        where.action = action
        try:
            game.push(copy.deepcopy(action))
        except IllegalAction:
            pass
        else:
            raise AssertionError(where("an action was accepted after the end of the game"))
        assert view(game, acts) == here, where("a refused push changed the game")


def play(fmt: str, label: str, make: Callable[[int], Any], seed: int, cap: int) -> dict:
    """One random game played to its end and undone back to the start, every step
    checked (the module's docstring); its final record (bench/score_outputs.py scores
    it)."""
    driver = DRIVERS[package_of(fmt)]
    acts = actions_module(fmt)
    rng = random.Random(seed)
    game = make(seed)
    where = Where(fmt, label, seed)
    assert type(game) is GAMES[fmt]
    pushed: list[dict] = []
    before = view(game, acts)
    views = [before]
    while not driver.over(game) and len(game.actions) < cap:
        where.step = len(game.actions) + 1
        where.action = None
        options = driver.candidates(game, rng)
        assert options, where("the game is not over and no action is offered")
        action = driver.complete(game, driver.choose(options, rng), rng)
        where.action = action
        # may_act (the protocol's "may this player act now"): the acting player may; in
        # a game of turns (one player at a time) nobody else may
        # (an entry of the table's, not a player's, e.g. a virtual seat's card, names none)
        acting = [p for p in game.setup.players if game.may_act(p)]
        if "player" in action:
            assert action["player"] in acting, where(f"may_act says only {acting} may act")
            assert not driver.one_at_a_time(game) or acting == [action["player"]], \
                where(f"one player at a time, yet may_act says {acting}")
        assert view(game, acts) == before, where("offering or completing the legal actions "
                                                 "(queries) changed the game")
        before = check_step(game, acts, action, where, lambda g: driver.queries(g, action),
                            before)
        pushed.append(action)
        views.append(before)
    assert driver.over(game), where(f"not over after {cap} actions")
    assert not any(game.may_act(p) for p in game.setup.players), where("may_act after the end")
    where.step, where.action = len(game.actions), None
    check_end(game, acts, where, pushed[-3:])
    final = copy.deepcopy(game.to_record())
    # undo all the way back (past what the game keeps for a quick undo: then it
    # replays): every earlier state again, and at last the new game's
    while game.actions:
        where.step, where.action = len(game.actions), game.actions[-1]
        game.pop()
        assert view(game, acts) == views[len(game.actions)], where("undoing back to the start")
    where.step = 0
    assert view(game, acts) == view(make(seed), acts), where("all undone is not a new game")
    try:
        game.pop()
    except IllegalAction as e:
        assert e.rule == "nothing-to-undo", where(str(e))
    else:
        raise AssertionError(where("pop() of a new game did not refuse"))
    return final


# ---------------------------------------------------------------------------
# Among the Stars: the test's own cards (invented numbers), setups, legal actions
# ---------------------------------------------------------------------------
def _card(name, types, cost, energy, vp, abilities=(), max="none", category=None):
    d = {"name": name, "types": list(types) if types is not None else None, "cost": cost,
         "energy": energy, "vp": vp, "max": max, "abilities": [dict(a) for a in abilities]}
    if category:
        d["category"] = category
    return d


@functools.cache
def _ats_cards() -> list[dict]:
    """The test's cards (a fresh deep copy is given to each game)."""
    from companion.ats.catalogue import Catalogue
    school = [dict(a) for a in Catalogue.shipped().get("School of Alien Cultures").abilities]
    return [
        _card("Fixture: cheap", ["military"], 0, 0, 1),
        _card("Fixture: hungry", ["business"], 3, 2, 4),
        _card("Fixture: per adjacent", ["recreational", "business"], 2, 1, 1,
              abilities=[{"when": "immediate", "per": "adjacent_location", "vp": 1}]),
        _card("Fixture: end +4", ["diplomatic"], 2, 0, 0, max=2,
              abilities=[{"when": "end", "flat": 4}]),
        _card("Fixture: school", ["diplomatic"], 2, 1, 1, abilities=school),
        _card("Fixture: shipyard", ["military"], 1, 0, 1,
              abilities=[{"when": "immediate", "spaceships": 1, "target": "other"}]),
        _card("Fixture: administration", ["administrative"], 1, 1, 2),
        _card("Fixture: conflict raid", None, None, None, None, max=None, category="conflict",
              abilities=[{"when": "immediate", "per": "other_station_location",
                          "types": ["military"], "vp": 1, "cap": 2}]),
        _card("Fixture: race", None, None, None, None, max=None, category="race",
              abilities=[{"when": "end", "flat": 2}]),
    ]


PLAYERS = ["Ana", "Ben", "Cleo", "Dov"]


def _ats_setups() -> list[tuple[str, dict]]:
    def tiles(players):
        n = len(players)
        pairs = ([[players[0], players[1]], [players[1], players[0]]] if n == 2
                 else [[players[i], players[(i + 1) % n]] for i in range(n)])
        return [{"name": f"Fixture tile {i + 1}", "between": pair,
                 "actions": ["build", "discard"], "advisor": f"Fixture advisor {i + 1}",
                 "slots": 1} for i, pair in enumerate(pairs)]
    return [
        ("2 players", {"players": PLAYERS[:2]}),
        ("4 players, races", {"players": PLAYERS[:4],
                              "races": {p: "Fixture: race" for p in PLAYERS[:4]}}),
        ("3 players, aggressive", {"players": PLAYERS[:3], "mode": "aggressive"}),
        ("2 players, base 2-player rules", {"players": PLAYERS[:2],
                                            "options": {"two_player": "virtual"}}),
        ("2 players, Revival 2-player rules, spaceships",
         {"players": PLAYERS[:2], "options": {"two_player": "revival", "spaceships": True}}),
        ("3 players, Revival timing rules, advisors, spaceships",
         {"players": PLAYERS[:3], "options": {"timing_rules": True, "spaceships": True,
                                              "advisors": tiles(PLAYERS[:3])}}),
    ]


class AtsDriver:
    """Among the Stars: the players name the card they hold (the companion does not model
    the draft), so each player may hold any of the test's cards; the legal actions are
    the engine's ``legal_actions(player, card)`` plus the mode's own entries (virtual
    seats, Conflict cards, spaceships removed, advisors settled), each kept only if the
    engine's ``is_legal`` accepts it; ``needs`` answers what a build still asks."""

    @staticmethod
    def setups() -> list[tuple[str, Callable[[int], Any]]]:
        from companion.ats.game import Game

        def maker(setup):
            return lambda seed: Game(chance.new_game(setup, seed),
                                     cards=copy.deepcopy(_ats_cards()))
        return [(label, maker(setup)) for label, setup in _ats_setups()]

    @staticmethod
    def over(game) -> bool:
        return game.state.finished and not game.unsettled_advisors() and not game.round_end_due()

    @staticmethod
    def one_at_a_time(game) -> bool:
        return False                 # "all players play simultaneously"

    @staticmethod
    def hand(game) -> list[str]:
        names = ["Fixture: cheap", "Fixture: hungry", "Fixture: per adjacent", "Fixture: end +4",
                 "Fixture: school", "Fixture: administration"]
        if game.setup.options.get("spaceships"):
            names.append("Fixture: shipyard")
        return names

    @classmethod
    def candidates(cls, game, rng) -> list[dict]:
        st = game.state
        out: list[dict] = []
        open_ = game.unsettled_advisors()
        for tile, who in sorted(open_.items()):
            out += [{"do": "advisor", "tile": tile, "player": who, "take": "decline"},
                    {"do": "advisor", "tile": tile, "player": who, "take": "bonus",
                     "effects": {}}]
        if open_ or st.finished:
            return [a for a in out if game.is_legal(a)]
        assert not game.round_end_due(), game.round_end_due()
        hand = cls.hand(game)
        own: list[dict] = []            # the mode's entries: kept if the engine takes them
        for p in st.waiting:
            for card in rng.sample(hand, 3):
                out += game.legal_entries(p, card)
            if game.setup.mode == "aggressive":
                own.append({"player": p, "do": "conflict", "card": "Fixture: conflict raid"})
            ships = sorted(st.station(p).spaceships)
            if ships:
                own.append({"player": p, "do": "remove_spaceships", "card": "Fixture: cheap",
                            "cells": [list(c) for c in ships[:3]]})
        for seat in game.setup.virtual_seats:
            if seat not in st.virtual_done:
                own.append({"do": "virtual", "seat": seat, "card": rng.choice(hand)})
        return out + [a for a in own if game.is_legal(a)]

    @staticmethod
    def choose(options: list[dict], rng) -> dict:
        """A kind of action first (so the rare ones are played), then one of its kind."""
        kinds = sorted({a["do"] for a in options})
        kind = rng.choice(kinds)
        return rng.choice([a for a in options if a["do"] == kind])

    @staticmethod
    def complete(game, action: dict, rng) -> dict:
        if action["do"] != "build":
            return action
        a = dict(action)
        need = game.needs(a)
        assert "values" not in need and "manual_vp" not in need, need
        if "choices" in need:
            a["choices"] = {p: rng.choice([v for v, _ in need["choices"]["options"]])
                            for p in need["choices"]["players"]}
        if "spaceships" in need:
            spots = need["spaceships"]["spots"]
            k = rng.randint(0, min(need["spaceships"]["count"], len(spots)))
            a["spaceships"] = [{"player": p, "at": at} for p, at in rng.sample(spots, k)]
        if "energy_from" in need:
            a["energy_from"] = rng.choice(need["energy_from"])["energy_from"]
        return a

    @staticmethod
    def queries(game, action: dict) -> None:
        """The page's queries, for the effect they (must not) have."""
        st = game.state
        for p in st.waiting:
            game.legal_cells(p, "Fixture: cheap")
            game.legal_cells(p, do="reactor")
        game.waiting_in_order()
        game.turn_order()
        game.leaning()
        game.final_needs()
        game.action_kinds()
        game.round_end_due()
        game.trial(copy.deepcopy(action))
        game.trial(copy.deepcopy(action), end_turn=True)
        if action.get("do") == "build":
            game.needs(copy.deepcopy(action))
            game.energy_options(action["player"], action["at"], 1)
            game.payers(action["player"], action["at"])
        game.check_manual([])


# ---------------------------------------------------------------------------
# Small Star Empires: setups on the shipped maps, legal moves
# ---------------------------------------------------------------------------
class SseDriver:
    """Small Star Empires: the legal actions are each of the current player's ships'
    ``legal_moves`` (the piece among the move's ``pieces``; an Unexplored System's tile,
    which the players turn up, drawn among the effects and kept if ``is_legal``; a
    Nordinn Empire's City and a Refuelling Station's extra move from the engine's
    ``nordinn_choices`` / ``refuel_choices``), and a ship damaged with that variant."""

    @staticmethod
    def setups() -> list[tuple[str, Callable[[int], Any]]]:
        from companion.sse.game import SseGame
        every = {"unexplored": True, "open_borders": True, "damaged_ships": True}

        def maker(setup):
            return lambda seed: SseGame(chance.new_game(setup, seed))
        out = []
        for n, ships, variants in ((2, 2, {}), (4, 2, {}), (2, 3, every),
                                   (3, 2, every)):
            label = f"{n} players, {ships} ships" + (", every variant" if variants else "")
            out.append((label, maker({"players": PLAYERS[:n], "map": f"basic-{n}p",
                                      "pieces": {"ships": ships}, "variants": variants})))
        return out

    @staticmethod
    def over(game) -> bool:
        return game.state.finished

    @staticmethod
    def one_at_a_time(game) -> bool:
        return True                  # "on your turn"

    @staticmethod
    def candidates(game, rng) -> list[dict]:
        from companion.sse import offer
        from companion.sse.hexmap import EFFECTS
        p = game.current
        if p is None:
            return []
        out: list[dict] = []
        for i, ship in enumerate(game.ships(p)):
            if offer.may_damage(game.state) and not ship.damaged:
                out.append({"do": "damage", "player": p, "ship": i})
            for m in game.legal_moves(p, i):
                a = {"do": "move", "player": p, "ship": i, "to": list(m.to)}
                if m.kind == "repair":
                    out.append({**a, "piece": None})
                elif m.kind == "colonise":
                    out += [{**a, "piece": piece} for piece in m.pieces]
                else:
                    effect = rng.choice(EFFECTS)
                    reveal = {"effect": effect}
                    if effect == "planetary":
                        reveal["planets"] = rng.choice(offer.planet_choices())
                    b = {**a, "reveal": reveal}
                    tile = offer.tile_piece(effect)
                    if tile:
                        b["piece"] = tile
                    if effect == "nordinn_empire":
                        choices = game.nordinn_choices(p, m.to)
                        if choices:
                            b["destroy"] = list(rng.choice(choices))
                    if effect == "refuelling_station" and rng.random() < 0.7:
                        then = game.refuel_choices(p, m.to, ship=i)
                        if then:
                            t = rng.choice(then)
                            b["then"] = {"to": list(t.to)}
                            if t.pieces:
                                b["then"]["piece"] = rng.choice(t.pieces)
                    out.append(b)
        return [a for a in out if a["do"] == "move" and "reveal" not in a or game.is_legal(a)]

    @staticmethod
    def choose(options: list[dict], rng) -> dict:
        return rng.choice(options)

    @staticmethod
    def complete(game, action: dict, rng) -> dict:
        return action

    @staticmethod
    def queries(game, action: dict) -> None:
        p = action["player"]
        for i in range(len(game.ships(p))):
            game.legal_moves(p, i)
            game.legal_destinations(p, i, piece="city")
        game.placeable_pieces(p)
        game.pieces_left(p)
        game.can_move(p)
        game.score(project=True)
        game.trial(copy.deepcopy(action))
        if action.get("to") is not None:
            game.nordinn_choices(p, action["to"])
            game.refuel_choices(p, action["to"], ship=action["ship"])
        game.check_manual([])


#: the driver of each game package (what it takes to play it); every registered game
#: has one
DRIVERS: dict[str, Any] = {"companion.ats": AtsDriver, "companion.sse": SseDriver}


def test_every_registered_game_has_a_driver():
    missing = [GAME_NAMES[f] for f in GAMES if package_of(f) not in DRIVERS]
    assert not missing, f"registered games without a random-play driver here: {missing}"


CASES = [pytest.param(fmt, label, make, seed,
                      id=f"{package_of(fmt).rsplit('.', 1)[1]}-{label}-{seed}")
         for fmt in sorted(GAMES) if package_of(fmt) in DRIVERS
         for label, make in DRIVERS[package_of(fmt)].setups()
         for seed in SEEDS]


@pytest.mark.parametrize("fmt,label,make,seed", CASES)
def test_random_legal_play(fmt, label, make, seed):
    play(fmt, label, make, seed, cap=400)
