"""Issue 8 of issue 11: queries never change the game.

Random legal games in every mode of ``test_properties_modes`` (plus the standard
game); before each action, every query the table and the what-if views use is
asked for a random waiting player and card: ``Game.trial`` (of a legal action, of
its turn-ending form, and of an advisor bonus that gives other players VP and
credits), ``legal_cells``, ``legal_actions`` (``legal_entries``), ``check`` (legal and illegal),
``needs``, ``placement_map``, ``hand_ranking`` and ``if_ended_now``.  After each
query the live state equals what it was, equals the replay of the record
(``Game.from_record`` of a JSON round trip), and the record is unchanged.

The bug this guards (issue 11, item 8): ``State.copy(only=player)`` shared every
other player's state, so a trial of an advisor bonus giving Ben 5 VP and 7 credits
changed the live game.

Only FIXTURE cards carry numbers (those of ``test_properties_modes``).
"""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import Game, IllegalAction
from companion.core.errors import CompanionError
from companion.ats.whatif import hand_ranking, if_ended_now, placement_map

from test_properties_modes import (MODES, PROFILE, REAL_NAMES, DataPicker, SeedPicker, hand,
                                   FIXTURES, make_setup, new_game, next_action, view)

ALL_MODES = ["standard"] + MODES


def _setup(pick, mode):
    if mode == "standard":
        return {"players": ["Ann", "Bo", "Cy", "Di"][:pick.int(3, 4, "players")]}
    return make_setup(pick, mode)


def _unchanged(game: Game, before: dict, record: str, what: str) -> None:
    assert view(game) == before, f"{what} changed the live state"
    assert json.dumps(game.to_record(), sort_keys=True) == record, f"{what} changed the record"
    again = Game.from_record(json.loads(record))
    assert view(again) == view(game), f"after {what} the live state is not the replay"


def _quietly(fn, *args, **kw):
    """A query may refuse (an illegal action, a value nobody typed): that is fine,
    as long as it changes nothing."""
    try:
        return fn(*args, **kw)
    except CompanionError:
        return None


def ask_every_query(pick, game: Game) -> None:
    before = view(game)
    record = json.dumps(game.to_record(), sort_keys=True)
    players = game.setup.players
    player = pick.one(game.state.waiting or players, "query player")
    card = pick.one([c for c in hand(game) if c not in REAL_NAMES], "query card")

    cells = _quietly(game.legal_cells, player, card)
    _unchanged(game, before, record, "legal_cells")
    _quietly(game.legal_cells, player, do="reactor")
    _unchanged(game, before, record, "legal_cells (reactor)")
    options = _quietly(game.legal_entries, player, card) or []
    _unchanged(game, before, record, "legal_actions")

    if game.unsettled_advisors():
        tile, who = sorted(game.unsettled_advisors().items())[0]
        bonus = {"do": "advisor", "tile": tile, "player": who, "take": "bonus",
                 "effects": {"vp": {p: 5 for p in players},
                             "credits": {p: 7 for p in players}}}
        _quietly(game.trial, bonus)
        _unchanged(game, before, record, "trial of an advisor bonus")
        _quietly(game.check, bonus)
        _unchanged(game, before, record, "check of an advisor bonus")
    if options:
        action = dict(pick.one(options, "trial action"))
        if action["do"] == "build" and "choices" not in action:
            action["choices"] = {o: pick.one(["pay", "lose"], "choice")
                                 for o in players if o != player}
        _quietly(game.trial, action)
        _unchanged(game, before, record, "trial")
        _quietly(game.trial, action, end_turn=True)
        _unchanged(game, before, record, "trial (end of turn)")
        _quietly(game.check, action)
        _unchanged(game, before, record, "check")
        _quietly(game.needs, action)
        _unchanged(game, before, record, "needs")
    # an illegal action: refused, nothing changes
    with pytest.raises(IllegalAction):
        game.check({"player": player, "do": "build", "card": card, "at": [40, 40]})
    _unchanged(game, before, record, "check of an illegal action")
    if cells is not None and player in game.state.waiting:
        _quietly(placement_map, game, player, card)
        _unchanged(game, before, record, "placement_map")
        _quietly(hand_ranking, game, player, [card, pick.one(REAL_NAMES, "discard name")])
        _unchanged(game, before, record, "hand_ranking")
    _quietly(if_ended_now, game)
    _unchanged(game, before, record, "if_ended_now")


@pytest.mark.parametrize("mode", ALL_MODES)
def test_queries_never_change_the_game(mode):
    @settings(max_examples=3, **PROFILE)
    @given(start=st.integers(1, 4), steps=st.integers(1, 12), seed=st.integers(0, 2**16),
           data=st.data())
    def run(start, steps, seed, data):
        pick = DataPicker(data)
        game = new_game(_setup(pick, mode), seed)
        fast = SeedPicker(seed)
        while game.state.year < start and not game.finished:
            game.push(next_action(fast, game))
        for _ in range(steps):
            if game.finished and not game.unsettled_advisors():
                break
            ask_every_query(pick, game)
            game.push(next_action(pick, game))
        ask_every_query(pick, game)
    run()


def test_a_trial_of_an_advisor_bonus_leaves_the_other_players_alone():
    """The issue's case: a trial of an advisor bonus that gives Bo VP and credits
    must not move Bo on the live track ("the live state equals the replay")."""
    tiles = [{"name": "Tile 1", "between": ["Ann", "Bo"], "actions": ["discard"],
              "advisor": "typed at the table", "slots": 2}]
    # one tile of the book's 2 (R 4): a fixture setup, let through with book_setup=False
    game = Game({"players": ["Ann", "Bo"], "options": {"advisors": tiles}, "seed": 1},
                cards=copy.deepcopy(FIXTURES), book_setup=False)
    while not game.unsettled_advisors():
        for p in list(game.state.waiting):
            game.push({"player": p, "do": "discard", "card": "Garden"}
                      if p == "Ann" else {"player": p, "do": "reactor", "card": "Garden",
                                          "at": [0, len(game.state.players[p].station.cells)]})
    tile, who = next(iter(game.unsettled_advisors().items()))
    assert who == "Ann"
    bo = (game.state.players["Bo"].vp, game.state.players["Bo"].credits)
    _, after = game.trial({"do": "advisor", "tile": tile, "player": who, "take": "bonus",
                           "effects": {"vp": {"Bo": 5}, "credits": {"Bo": 7}}})
    assert (after.players["Bo"].vp, after.players["Bo"].credits) == (bo[0] + 5, bo[1] + 7)
    assert (game.state.players["Bo"].vp, game.state.players["Bo"].credits) == bo
    again = Game.from_record(json.loads(json.dumps(game.to_record())), trusted=True)
    assert view(again) == view(game)
