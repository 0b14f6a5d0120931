"""Issue 23, "Trust what we wrote": the trusted replay and the kept undo state.

- ``from_record(record, trusted=True)`` (a record this companion wrote: the store,
  memory) skips the bounded reader's checks and gives the same game as the checked
  replay: equal states, records and scores, on every sample and on random games;
- a hostile record from outside is still refused by the default (checked) path;
- the game never aliases the caller's data: changing the record passed in, the record
  got back, or the action ``push`` returned leaves the game as it was;
- ``pop`` restores the state kept from before the last action, equal to the replay of
  the shorter record (any number of undos, after ``define`` and ``branch`` too);
- ``GameSession.open`` replays the store's record on the trusted path.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from companion import Game
from companion.ats.record import read_record as read_ats_record
from companion.table import registry
from companion.core.errors import CompanionError, IllegalAction, RecordError
from companion.core.record import copy_json
from companion.table.store import Store
from companion.sse import SseGame
from companion.sse.record import read_record as read_sse_record
from companion.ui.session import GameSession
from test_properties import FIXTURES, SeedPicker, choose_action, view

ROOT = Path(__file__).resolve().parent.parent
ATS_SAMPLES = sorted((ROOT / "data" / "samples").glob("*.json"))
SSE_SAMPLES = sorted((ROOT / "data" / "small-star-empires" / "samples").glob("*.json"))


# -- views --------------------------------------------------------------------------
def ats_score(game: Game):
    try:
        sc = game.score()
    except CompanionError as e:          # waits for typed values: the same message
        return ("waits", type(e).__name__, str(e))
    return sc.to_json(), sc.lines.to_dict("records")


def sse_view(game: SseGame) -> dict:
    s = game.state
    return {"players": copy.deepcopy(s.players), "colonies": dict(s.colonies),
            "revealed": copy.deepcopy(s.revealed), "blocked": dict(s.blocked),
            "conquered": set(s.conquered), "current": s.current, "finished": s.finished,
            "end_reason": s.end_reason, "index": s.index, "moves": s.moves}


def sse_score(game: SseGame):
    try:
        return repr(game.score())
    except CompanionError as e:
        return ("waits", type(e).__name__, str(e))


def random_ats_record(seed: int, players: int, steps: int | None = None) -> dict:
    """A random legal game (complete unless ``steps``) with the property tests' fixture
    cards (invented values, names starting with 'Fixture')."""
    game = Game({"players": ["Ana", "Ben", "Cleo", "Dov", "Eli", "Fay"][:players],
                 "seed": seed}, cards=copy.deepcopy(FIXTURES))
    pick = SeedPicker(seed)
    n = 0
    while not game.finished and (steps is None or n < steps):
        game.push(choose_action(pick, game))
        n += 1
    return game.to_record()


RANDOM = [(seed, players) for seed, players in ((1, 2), (7, 3), (23, 4), (99, 6))]


# -- trusted and checked replays agree -------------------------------------------------
@pytest.mark.parametrize("path", ATS_SAMPLES, ids=lambda p: p.name)
def test_ats_samples_replay_the_same_trusted_and_checked(path):
    rec = read_ats_record(path)
    checked = Game.from_record(rec)
    trusted = Game.from_record(rec, trusted=True)
    assert view(trusted) == view(checked)
    assert trusted.to_record() == checked.to_record()
    assert ats_score(trusted) == ats_score(checked)


@pytest.mark.parametrize("path", SSE_SAMPLES, ids=lambda p: p.name)
def test_sse_samples_replay_the_same_trusted_and_checked(path):
    rec = read_sse_record(path)
    checked = SseGame.from_record(rec)
    trusted = SseGame.from_record(rec, trusted=True)
    assert trusted.actions                            # a sample with something to replay
    assert sse_view(trusted) == sse_view(checked)
    assert trusted.to_record() == checked.to_record()
    assert sse_score(trusted) == sse_score(checked)
    # and the undo of every action gives the replay of the shorter record
    k = len(trusted.actions)
    for i in range(min(k, 12)):
        trusted.pop()
        shorter = SseGame.from_record({**rec, "actions": rec["actions"][:k - i - 1]})
        assert sse_view(trusted) == sse_view(shorter)


@pytest.mark.parametrize("seed,players", RANDOM)
def test_random_ats_records_replay_the_same_trusted_and_checked(seed, players):
    rec = random_ats_record(seed, players)
    assert len(rec["actions"]) >= 24 * players        # a complete game
    for upto in sorted({0, 1, len(rec["actions"]) // 2, len(rec["actions"]) - 1,
                        len(rec["actions"])}):
        part = {**rec, "actions": rec["actions"][:upto]}
        checked = Game.from_record(part)
        trusted = Game.from_record(part, trusted=True)
        assert view(trusted) == view(checked)
        assert trusted.to_record() == checked.to_record()
    assert ats_score(Game.from_record(rec, trusted=True)) == ats_score(Game.from_record(rec))


# -- from outside: still the full reader ------------------------------------------------
def _ats_base() -> dict:
    return Game({"players": ["Ana", "Ben"]}).to_record()


@pytest.mark.parametrize("hostile,why", [
    (lambda r: r["setup"]["players"].__setitem__(0, "An\x1ba"), "control"),
    (lambda r: r["actions"].append({"do": "discard", "player": "Ana", "card": "Garden",
                                    "year": 10 ** 40}), "range"),
    (lambda r: r["actions"].append({"do": "discard", "player": "Ana",
                                    "card": "G" * 5000}), "characters"),
    (lambda r: r.__setitem__("manual", [{"source": "x", "player": "Ana", "vp": 10 ** 6}]),
     "vp"),
    (lambda r: r.__setitem__("meta", {"n": json.loads("[" * 200 + "]" * 200)}), "deep"),
])
def test_a_hostile_record_from_outside_is_still_refused(hostile, why):
    rec = _ats_base()
    hostile(rec)
    for load in (Game.from_record, registry.load_game):
        with pytest.raises(RecordError):
            load(rec)
    with pytest.raises(RecordError):       # a file: the bounded reader refuses it too
        from companion.ats.record import parse_record
        parse_record(json.dumps(rec))


def test_a_hostile_sse_record_from_outside_is_still_refused():
    rec = SseGame.from_record(read_sse_record(SSE_SAMPLES[0])).to_record()
    rec["setup"]["players"][0] = "An\x1ba"
    with pytest.raises(RecordError):
        SseGame.from_record(rec)
    with pytest.raises(RecordError):
        registry.load_game(rec)


# -- no aliasing ------------------------------------------------------------------------
def _mutate_every_list_and_dict(node) -> None:
    """Change every list and dict inside ``node`` in place (append / add a key)."""
    if isinstance(node, dict):
        for v in list(node.values()):
            _mutate_every_list_and_dict(v)
        node["zz_mutated"] = [1]
    elif isinstance(node, list):
        for v in list(node):
            _mutate_every_list_and_dict(v)
        node.append("zz_mutated")


@pytest.mark.parametrize("trusted", [True, False])
def test_changing_the_record_passed_in_or_got_back_leaves_the_game_unchanged(trusted):
    rec = random_ats_record(7, 3, steps=40)
    rec["manual"] = [{"source": "Fixture: cheap", "player": "Ana", "vp": 2}]
    game = Game.from_record(rec, trusted=trusted)
    before, before_view = game.to_record(), view(game)
    _mutate_every_list_and_dict(rec)
    assert game.to_record() == before and view(game) == before_view
    got = game.to_record()
    _mutate_every_list_and_dict(got)
    assert game.to_record() == before and view(game) == before_view
    # the undo state kept and the action returned by push share nothing either
    last = game.pop()
    again = game.push(copy_json(last))
    _mutate_every_list_and_dict(again)
    _mutate_every_list_and_dict(last)
    assert game.to_record() == before and view(game) == before_view
    game.pop()
    assert view(game) == view(Game.from_record({**before, "actions": before["actions"][:-1]}))


@pytest.mark.parametrize("trusted", [True, False])
def test_sse_changing_the_record_passed_in_or_got_back_leaves_the_game_unchanged(trusted):
    rec = read_sse_record(SSE_SAMPLES[0])
    game = SseGame.from_record(rec, trusted=trusted)
    before, before_view, meta = game.to_record(), sse_view(game), copy.deepcopy(game.meta)
    _mutate_every_list_and_dict(rec)
    assert game.to_record() == before and sse_view(game) == before_view and game.meta == meta
    got = game.to_record()
    _mutate_every_list_and_dict(got)
    assert game.to_record() == before and sse_view(game) == before_view


def test_copy_json_copies_containers_and_keeps_tuples():
    data = {"a": [1, {"b": (2, [3])}], "s": "x", "n": None, "f": 1.5, "t": True}
    out = copy_json(data)
    assert out == data and type(out["a"][1]["b"]) is tuple
    out["a"][1]["b"][1].append(4)
    out["a"].append(5)
    assert data == {"a": [1, {"b": (2, [3])}], "s": "x", "n": None, "f": 1.5, "t": True}


# -- undo from the kept state --------------------------------------------------------------
@pytest.mark.parametrize("trusted", [True, False])
def test_every_undo_equals_the_replay_of_the_shorter_record(trusted):
    rec = random_ats_record(23, 4)
    game = Game.from_record(rec, trusted=trusted)
    n = len(rec["actions"])
    for k in range(n - 1, n - 45, -1):          # the kept state, then replays (UNDO_DEPTH)
        game.pop()
        assert view(game) == view(Game.from_record({**rec, "actions": rec["actions"][:k]}))
    # pushed back one by one, then undone: the states kept by push
    for a in rec["actions"][n - 44:]:
        game.push(a)
    assert game.to_record() == Game.from_record(rec).to_record()
    for k in range(n - 1, n - 6, -1):
        game.pop()
        assert view(game) == view(Game.from_record({**rec, "actions": rec["actions"][:k]}))


def test_undo_after_define_and_in_a_branch_uses_the_current_definitions():
    rec = random_ats_record(1, 2, steps=20)
    game = Game.from_record(rec, trusted=True)
    branch = game.branch()
    branch.pop()
    assert len(game.actions) == 20 and len(branch.actions) == 19
    assert view(game) == view(Game.from_record(rec))
    assert view(branch) == view(Game.from_record({**rec, "actions": rec["actions"][:19]}))
    card = game.catalogue.get("Fixture: cheap")
    assert card is not None
    import dataclasses
    game.define(dataclasses.replace(card, vp=(card.vp or 0) + 3))   # a corrected value
    redefined = game.to_record()
    game.pop()
    assert view(game) == view(Game.from_record({**redefined,
                                                "actions": redefined["actions"][:19]}))


# -- the session opens the store's record on the trusted path --------------------------------
def test_the_session_replays_the_store_trusted_and_a_file_checked(tmp_path, monkeypatch):
    rec = random_ats_record(7, 3, steps=30)
    store = Store(tmp_path / "games.sqlite")
    try:
        gid = store.create(rec, title="trusted")
        calls = []
        import companion.ats.game as ats_game
        real = ats_game.validate_record
        monkeypatch.setattr(ats_game, "validate_record",
                            lambda r: (calls.append(1), real(r))[1])
        session = GameSession(store)
        game = session.open(gid)
        assert calls == []                           # the store's record: not checked again
        Game.from_record(store.load(gid))            # the default path checks it
        assert calls == [1]
        assert view(game) == view(Game.from_record(rec))
        last = session.undo()
        assert last == rec["actions"][-1]
        assert view(session.game) == view(Game.from_record({**rec, "actions": rec["actions"][:-1]}))
    finally:
        store.close()


def test_random_generator_is_deterministic():
    """The random records above are the same on every run (SeedPicker)."""
    assert random_ats_record(7, 3, steps=12) == random_ats_record(7, 3, steps=12)


# -- following the store: replay only the actions added ------------------------------------
def test_replay_applies_further_stored_actions_or_nothing():
    rec = random_ats_record(23, 4, steps=60)
    full = Game.from_record(rec)
    game = Game.from_record({**rec, "actions": rec["actions"][:35]}, trusted=True)
    game.replay(rec["actions"][35:])
    assert view(game) == view(full) and game.to_record() == full.to_record()
    game.pop()
    assert view(game) == view(Game.from_record({**rec, "actions": rec["actions"][:59]}))
    # an illegal entry: IllegalAction naming its index in the record, the game unchanged
    game = Game.from_record({**rec, "actions": rec["actions"][:35]}, trusted=True)
    before = game.to_record()
    bad = copy.deepcopy(rec["actions"][35:40])
    bad[3]["player"] = "Nobody"
    with pytest.raises(IllegalAction) as e:
        game.replay(bad)
    assert e.value.index == 38
    assert game.to_record() == before
    assert view(game) == view(Game.from_record({**rec, "actions": rec["actions"][:35]}))


def test_sse_replay_applies_further_stored_actions_or_nothing():
    rec = read_sse_record(SSE_SAMPLES[0])
    k = len(rec["actions"])
    full = SseGame.from_record(rec)
    game = SseGame.from_record({**rec, "actions": rec["actions"][:k // 2]}, trusted=True)
    game.replay(rec["actions"][k // 2:])
    assert sse_view(game) == sse_view(full) and game.to_record() == full.to_record()
    game = SseGame.from_record({**rec, "actions": rec["actions"][:k // 2]}, trusted=True)
    before, before_view = game.to_record(), sse_view(game)
    bad = copy.deepcopy(rec["actions"][k // 2:k // 2 + 3])
    bad[2]["player"] = "Nobody"
    with pytest.raises(IllegalAction):
        game.replay(bad)
    assert game.to_record() == before and sse_view(game) == before_view
    game.pop()                        # the undo states are as before too
    assert sse_view(game) == sse_view(SseGame.from_record(
        {**rec, "actions": rec["actions"][:k // 2 - 1]}))


def test_a_page_follows_another_pages_actions_and_undos_without_a_full_replay(tmp_path):
    rec = random_ats_record(7, 3)
    actions = rec["actions"]
    store = Store(tmp_path / "games.sqlite")
    try:
        gid = store.create({**rec, "actions": actions[:20]}, title="follow")
        one, two = GameSession(store), GameSession(store)
        one.open(gid)
        two.open(gid)
        followed = two.game
        for a in actions[20:26]:
            one.push(a)
        change = two.sync()
        assert [a["player"] for a in change.added] == [a["player"] for a in actions[20:26]]
        assert two.game is followed               # the same game, six actions replayed
        assert view(two.game) == view(Game.from_record(store.load(gid)))
        one.undo()
        one.undo()
        other = {"do": "discard", "player": actions[24]["player"], "card": "Fixture: splurge"}
        assert one.push(other) != actions[24]           # a different entry in its place
        change = two.sync()
        assert len(change.undone) == 2 and len(change.added) == 1
        assert two.game is followed
        assert view(two.game) == view(Game.from_record(store.load(gid)))
        assert two.game.to_record()["actions"] == store.load(gid)["actions"]
        # anything but the actions changed (here the manual entries): the whole replay
        store.set_manual(gid, [{"source": "Fixture: cheap", "player": "Ana", "vp": 1}])
        change = two.sync()
        assert change.other and two.game is not followed
        assert two.game.manual == [{"source": "Fixture: cheap", "player": "Ana", "vp": 1}]
        assert view(two.game) == view(Game.from_record(store.load(gid)))
    finally:
        store.close()
