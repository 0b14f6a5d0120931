"""Issue 40: whatever is typed or dictated into the line of entry, both games' ``parse``
answer with a legal action or one CompanionError, never another exception, and change
nothing: random text, and random sentences made of the readers' own words (the ones most
likely to be half-understood)."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import CompanionError

sys.path.insert(0, str(Path(__file__).parent))
import sentencekit  # noqa: E402

WORDS = ["build", "builds", "reactor", "power", "main", "discard", "sell", "take", "the",
         "bonus", "decline", "remove", "at", "one", "zero", "minus", "two", "three", "to",
         "won", "for", "right", "left", "of", "above", "below", "next", "energy", "from",
         "and", "quartz", "garden", "orbital", "bakery", "bio", "lab", "turret", "Ana",
         "Ben", "Ann", "ship", "city", "trade", "station", "red", "blue", "nebula",
         "planet", "wormhole", "home", "north", "east", "south", "west", "damage",
         "through", "line", "not", "or", "#1", "->", "@", "e[", ",", "-1", "2", "\"",
         "<script>", "=SUM(A1)", "\u202e", "é", ""]
POSITIONS = [("ats", "start"), ("ats", "later"), ("ats", "advisors"), ("sse", "solo"),
             ("sse", "mid"), ("sse", "worm")]


def check(game_key: str, at: str, text: str) -> None:
    g = sentencekit.position(game_key, at)
    before = copy.deepcopy(g.actions)
    try:
        value = g.parse(text)
    except CompanionError:
        pass
    else:
        g.check(value)                   # what it reads is legal now
    assert g.actions == before


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


@pytest.mark.parametrize("game_key,at", POSITIONS)
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(WORDS), max_size=12))
def test_sentences_of_the_readers_own_words(game_key, at, words):
    check(game_key, at, " ".join(words))


@pytest.mark.parametrize("game_key,at", POSITIONS[::3])
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=400))
def test_any_text(game_key, at, text):
    check(game_key, at, text)
