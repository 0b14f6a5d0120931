"""Issue 13: the record checks both games share (companion.core.record: check_top,
check_lists, check_entries) give each game's messages exactly as before."""
from __future__ import annotations

import re

import pytest

from companion.ats import record as ats_record
from companion.core.errors import RecordError
from companion.core.record import check_entries, check_lists, check_top
from companion.sse import record as sse_record

GAMES = {"ats": (ats_record, "this companion reads 'among-the-stars/1'"),
         "sse": (sse_record, "expected 'small-star-empires/1'")}


def base(mod) -> dict:
    return {"format": mod.FORMAT, "setup": {"players": ["Ann", "Bob"]}, "actions": []}


def refused(mod, data) -> str:
    with pytest.raises(RecordError) as e:
        mod.validate_record(data)
    return str(e.value)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_messages(game):
    mod, wrong = GAMES[game]
    mod.validate_record(base(mod))                          # a minimal record passes
    assert refused(mod, []) == "a record must be a JSON object"
    assert refused(mod, {**base(mod), "format": "chess/1"}) == f"unknown format 'chess/1'; {wrong}"
    assert refused(mod, {**base(mod), "zz": 1, "aa": 2}) == \
        "unknown key 'aa' at the top of the record"
    assert refused(mod, {"format": mod.FORMAT}) == "the record has no 'setup'"
    assert refused(mod, {**base(mod), "actions": {}}) == "'actions' must be a list"
    assert refused(mod, {**base(mod), "manual": "x"}) == "'manual' must be a list"
    assert refused(mod, {**base(mod), "actions": [{"player": "Ann"}, 3]}) == \
        "action 1: an action must be an object"
    assert refused(mod, {**base(mod), "actions": [{"player": "Ann", "at": [5000, 0]}]}) == \
        "action 0: at[0]: 5000 is out of range (numbers here are from -1000 to 1000)"
    assert refused(mod, {**base(mod), "actions": [{"player": "A" * 101}]}) == \
        "action 0: 'player' is 101 characters long; a name has at most 100"
    assert refused(mod, {**base(mod), "manual": [7]}).startswith("manual[0]")


def test_the_format_names_a_hostile_value_safely():
    msg = refused(ats_record, {**base(ats_record), "format": "\x1b[2J" + "x" * 200})
    assert "\x1b" not in msg and len(msg) < 200
    assert re.search(r"; this companion reads 'among-the-stars/1'$", msg)


def test_the_building_blocks():
    rec = {"format": "g/1", "setup": {}, "actions": [{"do": "x"}], "manual": [{"v": 1}]}
    assert check_top(rec, "g/1", {"format", "setup", "actions", "manual"},
                     wrong_format="expected") is rec
    check_lists(rec, ("actions", "manual", "absent"))
    seen = []
    check_entries(rec, lambda m, i: seen.append((m, i)))
    assert seen == [({"v": 1}, 0)]
    with pytest.raises(RecordError, match="^'setup' must be a list$"):
        check_lists(rec, ("setup",))
