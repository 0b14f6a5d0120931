"""One bounded undo stack for both games (issue 38, companion/core/undo.py): a game keeps
the states before its last UNDO_DEPTH actions and replays the record past them.  The
stack on its own, then each game taken back action by action, further than the stack
holds, always to the state the replay of the rest of its record gives.

Only FIXTURE cards (names starting with "Fixture: ", invented numbers) and a test map."""
from __future__ import annotations

import json
import random

import pytest

from companion.ats import actions as ats_actions
from companion.ats.game import Game
from companion.core.errors import IllegalAction
from companion.core.undo import UNDO_DEPTH, UndoStack
from companion.sse import actions as sse_actions
from companion.sse.game import SseGame
from companion.sse.hexmap import HexMap, System


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


class Replays:
    """A replay that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return "replayed"


# -- the stack ----------------------------------------------------------------------------
def test_the_stack_keeps_the_last_depth_states_then_replays():
    stack: UndoStack[int] = UndoStack(3)
    for s in range(5):
        stack.push(s)
    assert len(stack) == 3
    replay = Replays()
    assert [stack.pop(replay) for _ in range(4)] == [4, 3, 2, "replayed"]
    assert replay.calls == 1 and len(stack) == 0


def test_a_copy_is_independent_and_clear_forgets():
    stack: UndoStack[str] = UndoStack(2)
    stack.push("a")
    copy = stack.copy()
    copy.push("b")
    assert len(stack) == 1 and len(copy) == 2 and copy.depth == 2
    stack.clear()
    replay = Replays()
    assert stack.pop(replay) == "replayed" and copy.pop(replay) == "b"


def test_depth_zero_always_replays_and_a_negative_depth_is_refused():
    stack: UndoStack[int] = UndoStack(0)
    stack.push(1)
    replay = Replays()
    assert stack.pop(replay) == "replayed" and replay.calls == 1
    with pytest.raises(ValueError):
        UndoStack(-1)
    assert UndoStack().depth == UNDO_DEPTH == 32


# -- Among the Stars -------------------------------------------------------------------------
BASE = dict(max="none", abilities=[])
CARDS = [dict(BASE, name="Fixture: free", types=["military"], cost=0, energy=0, vp=1),
         dict(BASE, name="Fixture: one energy", types=["recreational"], cost=1, energy=1, vp=1)]


def ats_state(game: Game, state=None) -> str:
    """Everything of a state the tests compare (VP, credits, stations, turn)."""
    st = state or game.state
    return json.dumps({"year": st.year, "turn": st.turn, "acted": st.acted,
                       "finished": st.finished, "index": st.index,
                       "players": {p: [ps.vp, ps.credits, sorted(
                           (list(c), pl.kind, pl.card, pl.cubes)
                           for c, pl in ps.station.cells.items())]
                           for p, ps in st.players.items()}}, sort_keys=True)


def played_ats(n: int, seed: int = 7) -> Game:
    rng = random.Random(seed)
    game = Game({"players": ["Ana", "Ben", "Cy"], "options": {}}, cards=CARDS)
    while len(game.actions) < n and not game.finished:
        player = game.waiting_in_order()[0]
        options = game.legal_actions(player, rng.choice(["Fixture: free",
                                                                "Fixture: one energy"]))
        assert all(isinstance(a, ats_actions.AtsAction) for a in options)
        game.push(rng.choice(options))
    return game


def test_ats_undo_past_the_stack_replays_to_the_same_states():
    n = UNDO_DEPTH + 8
    game = played_ats(n)
    assert len(game.actions) == n
    assert isinstance(game._undo, UndoStack) and len(game._undo) == UNDO_DEPTH
    for k in range(n - 1, -1, -1):
        game.pop()
        assert len(game.actions) == k
        assert ats_state(game) == ats_state(game, game.replayed())
    with pytest.raises(IllegalAction) as e:
        game.pop()
    assert e.value.rule == "nothing-to-undo"


def test_ats_a_replayed_record_keeps_one_state_and_a_branch_shares_the_stack():
    game = played_ats(12)
    again = Game.from_record(game.to_record(), trusted=True)
    assert len(again._undo) == 1
    branch = game.branch()
    branch.pop()
    assert len(branch.actions) == 11 and len(game.actions) == 12
    assert len(game._undo) == 12 and len(branch._undo) == 11


# -- Small Star Empires ----------------------------------------------------------------------
def big_map() -> HexMap:
    systems = {(q, r): System("planetary", planets=1 + (q + r) % 3)
               for q in range(7) for r in range(7)}
    systems[(0, 0)] = System("homeworld", home=1)
    systems[(6, 6)] = System("homeworld", home=2)
    return HexMap(systems, name="test")


def sse_state(game: SseGame, state=None) -> str:
    st = state or game.state
    return json.dumps({"current": st.current, "finished": st.finished, "moves": st.moves,
                       "colonies": sorted((list(h), c.owner, c.piece)
                                          for h, c in st.colonies.items()),
                       "ships": {p: [list(s.at) for s in ps.ships]
                                 for p, ps in st.players.items()},
                       "reserve": {p: [ps.cities, ps.trade_stations]
                                   for p, ps in st.players.items()}}, sort_keys=True)


def played_sse(n: int, seed: int = 3) -> SseGame:
    rng = random.Random(seed)
    game = SseGame({"players": ["Ann", "Bob"], "map": big_map().to_dict(),
                    "pieces": {"ships": 3, "cities": 30, "trade_stations": 10},
                    "options": {"pieces": "custom"}})
    while len(game.actions) < n and not game.state.finished:
        p = game.state.current
        moves = [(i, m) for i, _ in enumerate(game.ships(p)) for m in game.legal_moves(p, i)
                 if "city" in m.pieces]
        i, m = rng.choice(moves)
        game.push(sse_actions.from_dict({"do": "move", "player": p, "ship": i,
                                         "to": list(m.to), "piece": "city"}))
    return game


def test_sse_keeps_a_bounded_stack_and_replays_past_it():
    n = UNDO_DEPTH + 6
    game = played_sse(n)
    assert len(game.actions) == n
    assert isinstance(game._undo, UndoStack) and len(game._undo) == UNDO_DEPTH
    for k in range(n - 1, -1, -1):
        game.pop()
        assert len(game.actions) == k
        assert sse_state(game) == sse_state(game, game.replayed())
    assert sse_state(game) == sse_state(SseGame(game.setup))
    with pytest.raises(IllegalAction) as e:
        game.pop()
    assert e.value.rule == "nothing-to-undo"


def test_sse_a_replay_that_fails_leaves_the_stack_as_it_was():
    game = played_sse(5)
    kept = len(game._undo)
    bad = dict(game.actions[-1])            # the same move again: that ship is there now
    with pytest.raises(IllegalAction):
        game.replay([game.actions[0], bad])
    assert len(game.actions) == 5 and len(game._undo) == kept
    game.pop()
    assert sse_state(game) == sse_state(game, game.replayed())
