"""Issue 52: a line that cannot be this page's action says so first.  A seat page reads
a sentence as its player's (``game.parse(text, player=...)``); on another player's turn,
or for a player who has acted, the refusal names the turn (rule ``wrong-player``) before
any question about which system, ship, cell or reactors.  And where every answer to a
question gives the same action (the opening turn's ships all on the homeworld), the line
takes it instead of asking."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from companion.core.errors import IllegalAction
from companion.core.notation import IncompleteNotation

sys.path.insert(0, str(Path(__file__).parent))
import sentencekit  # noqa: E402

# mid: Ann to move, two red nebulae in reach ("which red nebula?" for her)
SSE = ["trade station to the red nebula", "city two systems east", "ship one up right, city",
       "Ann move #2 2,2->1,2 line trade_station"]
# later: Ana to act, Ben has acted; "next to the quartz garden" fits two gardens for Ana
ATS = ["bio lab next to the quartz garden", "Ben sells off the comet kiln",
       "power reactor below the main reactor with the bio lab"]


@pytest.mark.parametrize("game,at,say,page,told", [
    *[("sse", "mid", say, "Ben", "Ann") for say in SSE],
    *[("ats", "later", say, "Ben", "already acted") for say in ATS]])
def test_another_players_turn_or_a_player_who_has_acted_is_told_first(game, at, say, page, told):
    g = sentencekit.position(game, at)
    before = copy.deepcopy(g.actions)
    with pytest.raises(IllegalAction) as e:
        g.parse(say, player=page)
    assert e.value.rule == "wrong-player" and told in str(e.value)
    assert g.actions == before


@pytest.mark.parametrize("game,at,say,page,missing", [
    ("sse", "mid", SSE[0], "Ann", "to"),           # which red nebula: a real question
    ("ats", "later", ATS[0], "Ana", "at")])
def test_the_same_sentence_on_its_players_page_is_asked(game, at, say, page, missing):
    g = sentencekit.position(game, at)
    with pytest.raises(IncompleteNotation) as e:
        g.parse(say, player=page)
    assert e.value.missing == missing


def test_ships_that_give_the_same_move_are_not_asked_about():
    """S: "You must choose one of your ship on the board to move it": on the opening
    turn every ship stands on the homeworld, so any of them gives the same move; the
    line takes ship 0, a sentence and a line of notation alike."""
    g = sentencekit.position("sse", "first")
    for say in ("city at 3 2", "->3,2 city", "Ann ->3,2 city"):
        got = g.parse(say).to_dict()
        assert (got["ship"], got["to"], got["piece"]) == (0, [3, 2], "city"), say
    # ships on different systems still give different moves: asked
    g = sentencekit.position("sse", "mid")
    with pytest.raises(IncompleteNotation) as e:
        g.parse("city two systems east")
    assert e.value.missing in ("to", "ship")
