"""Issue 52, "Say it back": every action a sentence stages is said back in words with
where it lands ("Ben: city on the blue nebula at 0,2, 1 step east (right) of ship 0"),
so a misreading is seen before Confirm.  The words are a query of the game: reading and
saying back change nothing.  Positions from the first corpus (its cards are INVENTED)."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.ui.app import App

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "sse"))
import sentencekit  # noqa: E402

CASES = [
    ("ats", "later", 'Ana build "Bio Lab" @2,0 e[1,0;1,0]',
     "Ana: build Bio Lab at 2,0, below the Power Reactor; energy from the Power Reactor at "
     "1,0 x2"),
    ("ats", "later", 'Ana build "Orbital Bakery" @-1,1 e[0,0]',
     "Ana: build Orbital Bakery at -1,1, right of the Quartz Garden; energy from the Main "
     "Reactor"),
    ("ats", "ben", 'Ben reactor "Bio Lab" @0,-1',
     "Ben: Power Reactor at 0,-1, left of the Main Reactor, giving up Bio Lab"),
    ("ats", "ben", 'Ben discard "Comet Kiln"', "Ben: discard Comet Kiln for 3 credits"),
    ("ats", "advisors", 'Ana advisor "Builders" decline',
     "Ana: decline the Builders bonus for 1 VP"),
    ("sse", "mid", "Ann move #2 2,2->2,4 line city",
     "Ann: city on the planetary system (1 planet) at 2,4, 2 steps south-east (down-right) "
     "of ship 2"),
    ("sse", "mid", "Ann move #2 2,2->1,2 line trade_station",
     "Ann: trade station on the planetary system (2 planets) at 1,2, 1 step west (left) of "
     "ship 2"),
    ("sse", "worm", "Ann move #0 1,0->1,3 wormhole trade_station",
     "Ann: trade station on the empty system at 1,3, through the wormhole from ship 0 at 1,0"),
]


@pytest.mark.parametrize("game,at,line,words", CASES)
def test_an_action_is_said_back_with_where_it_lands(game, at, line, words):
    g = sentencekit.position(game, at)
    before = copy.deepcopy(g.actions)
    assert g.say_back(g.parse(line).to_dict()) == words
    assert g.actions == before


SAYABLE = [{"name": n, "types": ["business"], "cost": 1, "energy": e, "vp": 1, "max": "none",
            "abilities": []} for n, e in (("Quartz Garden", 0), ("Orbital Bakery", 1))]


def test_the_line_says_a_misreading_back_before_confirm(store):
    """On a seat's page: "the quartz garden underneath" (the player meant on the right)
    is said back as "below the Main Reactor" before anything is recorded; the player
    sees it, cancels, says it again and confirms."""
    game = Game({"players": ["Ana", "Ben"]}, cards=SAYABLE, book_setup=False)
    store.create(game.to_record())
    d = App(store).driver()
    d.set_view("Ana", None)
    d.say("I'm gonna lay down the quartz garden underneath")
    assert "Ana: build Quartz Garden at 1,0, below the Main Reactor" in d.reply, d.reply
    assert store.load(d.gid)["actions"] == []
    d.cancel()
    d.say("quartz garden to the right")
    assert "at 0,1, right of the Main Reactor" in d.reply, d.reply
    d.confirm()
    assert [(a["player"], a["at"]) for a in store.load(d.gid)["actions"]] == [("Ana", [0, 1])]
