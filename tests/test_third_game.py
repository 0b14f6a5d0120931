"""A third game plugs in through its descriptor alone (issue 23, docs/architecture.md "A
third game"): a tiny made-up counting game ("first to 3 wins"; not a real game, its
rules are this file's) registers a GameKind, and the table layer (registry, store,
history, statistics, plays export, store data steps) handles it without naming it."""
from __future__ import annotations

import pandas as pd
import pytest

from companion.core.errors import IllegalAction, RecordError
from companion.core.gamekind import GameKind, StatTable, StoreStep, register, registered, unregister
from companion.table import history, plays_export, registry, stats
from companion.table.store import Store

FORMAT = "tally-test-game/1"
TARGET = 3


class _Score:
    def __init__(self, totals: dict[str, int], finished: bool):
        self.totals, self.finished = totals, finished

    def to_json(self) -> dict:
        best = max(self.totals.values())
        ranked = sorted(self.totals, key=lambda p: -self.totals[p])
        return {"winners": [p for p in ranked if self.totals[p] == best] if self.finished else [],
                "decided_by": "vp",
                "players": [{"player": p, "rank": 1 + sorted(self.totals.values(), reverse=True)
                             .index(self.totals[p]), "total": self.totals[p],
                             "breakdown": {"points": self.totals[p]}} for p in ranked]}


class _State:
    def __init__(self, totals: dict[str, int]):
        self.totals = totals

    @property
    def finished(self) -> bool:
        return max(self.totals.values()) >= TARGET


class Tally:
    """Each action gives its player one point; the first to TARGET points ends it."""
    format = FORMAT

    def __init__(self, setup: dict):
        self.setup, self.actions, self.manual = setup, [], []
        self.state = _State({p: 0 for p in setup["players"]})

    @classmethod
    def from_record(cls, record: dict, *, trusted: bool = False) -> "Tally":
        if not trusted:
            validate_record(record)
        game = cls(record["setup"])
        for i, a in enumerate(record.get("actions") or []):
            try:
                game.push(a)
            except IllegalAction as e:
                e.index = i
                raise
        return game

    def to_record(self) -> dict:
        return {"format": FORMAT, "setup": self.setup, "actions": list(self.actions),
                "manual": []}

    def check(self, action: dict) -> dict:
        if self.state.finished:
            raise IllegalAction("game-over", "the game is over")
        if action.get("player") not in self.state.totals:
            raise IllegalAction("not-your-turn", "that player is not in this game")
        return {"player": action["player"], "do": "point"}

    def is_legal(self, action: dict) -> bool:
        return self.why_illegal(action) is None

    def may_act(self, player: str) -> bool:
        return not self.state.finished and player in self.state.totals

    def why_illegal(self, action: dict) -> str | None:
        try:
            self.check(action)
        except IllegalAction as e:
            return str(e)
        return None

    def push(self, action: dict) -> dict:
        norm = self.check(action)
        self.state.totals[norm["player"]] += 1
        self.actions.append(norm)
        return norm

    def pop(self) -> dict:
        if not self.actions:
            raise IllegalAction("nothing-to-undo", "nothing to undo")
        a = self.actions.pop()
        self.state.totals[a["player"]] -= 1
        return a

    def score(self) -> _Score:
        return _Score(dict(self.state.totals), self.state.finished)


def validate_record(record) -> None:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record")
    setup = record.get("setup")
    if not isinstance(setup, dict) or not isinstance(setup.get("players"), list):
        raise RecordError("setup.players must be a list")


def _upgrade(setup: dict) -> dict | None:
    """The made-up game's data step: an old setup without ``target`` gets one."""
    return None if "target" in setup else {**setup, "target": TARGET}


KIND = GameKind(format=FORMAT, name="Tally (test game)", game_class=Tally,
                validate_record=validate_record, logger_names=("Tally (test game)",),
                import_names=("tally (test game)",),
                start_player=lambda setup, players: players[-1] if players else None,
                store_steps=(StoreStep("tally-target", _upgrade),),
                statistics=(StatTable("Tally: win rate by seat", "win_rates", {"by": "seat"}),))


def record(actions: list[str], players=("Ana", "Ben")) -> dict:
    return {"format": FORMAT, "setup": {"players": list(players)},
            "actions": [{"player": p, "do": "point"} for p in actions], "manual": []}


@pytest.fixture
def tally():
    register(KIND)
    yield KIND
    unregister(FORMAT)


@pytest.fixture
def store(tmp_path, tally):
    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()


def test_registry_knows_the_third_game(tally):
    assert registered(FORMAT) is KIND and registry.kind_of(record([])) is KIND
    assert registry.GAMES[FORMAT] is Tally and registry.GAME_NAMES[FORMAT] == "Tally (test game)"
    assert registry.game_class(FORMAT) is Tally
    game = registry.load_game(record(["Ana", "Ben", "Ana"]))
    assert isinstance(game, Tally) and game.state.totals == {"Ana": 2, "Ben": 1}
    assert registry.format_of(game) == FORMAT
    assert isinstance(game, registry.GameProtocol)
    with pytest.raises(RecordError, match="setup.players"):
        registry.validate_record({"format": FORMAT, "setup": {}})
    # the built-in games are still there, and the default game is still the first one
    assert registry.DEFAULT_FORMAT == registry.kinds()[0].format != FORMAT


def test_registry_forgets_it_when_unregistered():
    assert FORMAT not in registry.GAMES
    assert registry.kind_of(FORMAT).format == registry.DEFAULT_FORMAT


def test_store_creates_loads_and_lists_it(store):
    gid = store.create(record(["Ana", "Ben"]), "tally one")
    loaded = store.load(gid)
    assert loaded["format"] == FORMAT
    assert [a["player"] for a in loaded["actions"]] == ["Ana", "Ben"]
    assert [g["id"] for g in store.games(format=FORMAT)] == [gid]
    assert store.games() == []                  # the default game's list: not a tally
    assert [g["id"] for g in store.games(format=None)] == [gid]
    rev = store.revision(gid)
    store.append(gid, 2, {"player": "Ana", "do": "point"}, rev=rev)
    assert registry.load_game(store.load(gid)).state.totals == {"Ana": 2, "Ben": 1}


def test_history_lists_and_derives_it(store):
    done = store.create(record(["Ana", "Ben", "Ana", "Ana"]), "finished tally")
    going = store.create(record(["Ben"]), "tally in progress")
    history.sync(store)
    df = stats.games(store).set_index("game_id")
    assert df.loc[done, "game"] == "Tally (test game)"
    assert df.loc[done, "status"] == "finished" and df.loc[done, "winners"] == "Ana"
    assert df.loc[going, "status"] == "in progress"
    # its own statistics table, from its descriptor, after the built-in games' ones
    tables = stats.all_statistics(store)
    seat = tables["Tally: win rate by seat"]
    assert isinstance(seat, pd.DataFrame)
    assert seat.set_index("seat").loc[1, "wins"] == 1 and seat.set_index("seat").loc[2, "wins"] == 0
    # the plays export: the game's name and its start player hook (the last seat)
    [play] = [p for p in plays_export.plays(store) if p["game_id"] == done]
    assert play["game"] == "Tally (test game)" and play["start_player"] == "Ben"
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == \
        [("Ana", 3, True), ("Ben", 1, False)]
    assert "Tally (test game)" in plays_export.GAMES


def test_its_store_step_runs_once_per_file(tmp_path, tally):
    path = tmp_path / "games.sqlite"
    s = Store(path)
    gid = s.create(record(["Ana"]))
    # a game saved before the step existed: forget that the step ran
    with s.transaction() as c:
        c.execute("DELETE FROM store_steps WHERE name='tally-target'")
    s.close()
    s = Store(path)
    try:
        assert s.load(gid)["setup"]["target"] == TARGET
    finally:
        s.close()
