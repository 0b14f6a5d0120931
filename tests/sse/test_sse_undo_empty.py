"""Undo on a game with no action: IllegalAction "nothing-to-undo", as in Among the Stars
(it was an IndexError), and the game is unchanged."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.core.errors import CompanionError, IllegalAction
from companion.sse import SseGame
from companion.sse.game import RULES

from ssekit import game

ROOT = Path(__file__).resolve().parents[2]


def test_pop_on_a_new_game_is_an_illegal_action():
    g = game("H1 P1 E H2")
    with pytest.raises(IllegalAction) as e:
        g.pop()
    assert isinstance(e.value, CompanionError)
    assert e.value.rule == "nothing-to-undo"
    assert str(e.value) == "there is no action to undo [rule: nothing-to-undo]"
    assert g.actions == [] and g.current == "Ann"
    assert "nothing-to-undo" in RULES


def test_same_rule_and_words_as_among_the_stars():
    ats = Game.from_record(json.loads(
        (ROOT / "data/samples/george-base-final-scoring.json").read_text(encoding="utf-8")))
    while ats.actions:
        ats.pop()
    with pytest.raises(IllegalAction) as a:
        ats.pop()
    with pytest.raises(IllegalAction) as s:
        game("H1 P1 E H2").pop()
    assert (s.value.rule, str(s.value)) == (a.value.rule, str(a.value))


def test_pop_back_to_the_start_then_once_more():
    g = SseGame.from_record(json.loads(
        (ROOT / "data/small-star-empires/samples/two-player-random.json").read_text(encoding="utf-8")))
    n = len(g.actions)
    for _ in range(n):
        g.pop()
    with pytest.raises(IllegalAction, match=r"nothing-to-undo"):
        g.pop()
    assert g.actions == [] and g.state.index == 0
