"""Actions as values with a notation (issue 23), both games: companion/ats/actions.py and
companion/sse/actions.py, after python-chess's ``Move`` (``uci()`` / ``from_uci``).

- ``from_dict(d).to_dict()`` is the record's JSON, byte for byte (same keys, same order);
- ``parse(str(a)) == a`` for every action of every sample record, for one entry of every
  kind the describe tests know, and for generated entries of every kind (hypothesis);
- text that is not notation gets a NotationError (a RecordError) of one line;
- ``describe_action`` is the typed action's words.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ats import actions as ats
from companion.ats.game import describe_action as ats_describe
from companion.ats.setup import ACTION_KEYS as ATS_KEYS
from companion.core.errors import RecordError
from companion.core.notation import NotationError
from companion.sse import actions as sse
from companion.sse.game import describe_action as sse_describe
from companion.sse.rules import ACTION_KEYS as SSE_KEYS

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted(p for p in [*(ROOT / "data").rglob("*.json"), *(ROOT / "tests").rglob("*.json")]
                 if '"actions"' in p.read_text(encoding="utf-8"))
MODULES = {"among-the-stars/1": ats, "small-star-empires/1": sse}


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: one entry of every kind and shape the describe tests write (their lists, not copies)
ATS_SHAPES = [a for a, _ in _load(ROOT / "tests" / "test_ats_describe.py",
                                  "_notation_ats_describe").OTHER_KINDS
              if a["do"] in ats.KINDS]
SSE_SHAPES = _load(ROOT / "tests" / "sse" / "test_sse_describe.py",
                   "_notation_sse_describe").STORED


def dumps(d) -> str:
    return json.dumps(d, ensure_ascii=False)


def round_trip(module, action: dict) -> str:
    typed = module.from_dict(action)
    assert dumps(typed.to_dict()) == dumps(action)
    text = str(typed)
    back = module.parse(text)
    assert back == typed, text
    assert back.to_dict() == action
    assert str(back) == text
    assert "\n" not in text
    return text


# -- the records ---------------------------------------------------------------------------
def test_there_are_sample_records_of_both_games():
    formats = {json.loads(p.read_text(encoding="utf-8")).get("format") for p in RECORDS}
    assert set(MODULES) <= formats


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_action_of_every_sample_record_reads_back(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    module = MODULES[record["format"]]
    assert record["actions"]
    for action in record["actions"]:
        round_trip(module, action)


@pytest.mark.parametrize("action", ATS_SHAPES, ids=lambda a: a["do"])
def test_ats_every_kind_reads_back(action):
    round_trip(ats, action)
    assert ats.from_dict(action).words() == ats_describe(action)


@pytest.mark.parametrize("action", SSE_SHAPES, ids=range(len(SSE_SHAPES)))
def test_sse_every_shape_reads_back(action):
    round_trip(sse, action)
    assert sse.from_dict(action).words() == sse_describe(action)


def test_every_kind_the_engines_handle_has_a_class():
    from companion.ats.setup import ACTIONS, SIDE_ENTRIES
    from companion.sse.turns import HANDLERS
    assert set(ats.KINDS) == set(ACTIONS) | set(SIDE_ENTRIES)
    assert set(sse.KINDS) == set(HANDLERS)


# -- the notation itself -------------------------------------------------------------------
def test_ats_notation_examples():
    assert str(ats.from_dict({"year": 1, "turn": 3, "player": "Ana", "do": "build",
                              "card": "Bio Lab", "at": [1, 0], "energy_from": [[0, 1]]})) \
        == '1.3 Ana build "Bio Lab" @1,0 e[0,1]'
    assert str(ats.from_dict({"player": "Ben", "do": "discard", "card": "X"})) == 'Ben discard "X"'
    assert str(ats.from_dict({"seat": "virtual 1", "do": "virtual", "card": "Garden"})) \
        == '"virtual 1" virtual "Garden"'
    assert str(ats.from_dict({"player": "Ben", "do": "advisor", "tile": "T", "take": "decline"})) \
        == 'Ben advisor "T" decline'
    assert str(ats.from_dict({"player": "Ben", "do": "remove_spaceships", "card": "Garden",
                              "cells": [[1, 0], [0, 2]]})) == 'Ben remove_spaceships "Garden" x[1,0;0,2]'
    assert str(ats.from_dict({"player": "Ben", "do": "conflict", "card": "C", "effects": {}})) \
        == 'Ben conflict "C" effects={}'


def test_sse_notation_examples():
    assert str(sse.from_dict({"do": "move", "player": "Red", "ship": 3, "from": [3, 4],
                              "to": [5, 4], "via": "line", "piece": "city"})) \
        == "Red move #3 3,4->5,4 line city"
    assert str(sse.from_dict(SSE_SHAPES[0])) == "Ann damage #1 @2,0"
    assert str(sse.from_dict(SSE_SHAPES[1])) == "Bob move #0 4,0->4,0 line piece=null"


def test_names_that_are_not_plain_words_and_cards_with_quotes():
    a = {"player": 'O"Neil the 2nd', "do": "discard", "card": 'The "Big" One'}
    assert round_trip(ats, a) == '"O\\"Neil the 2nd" discard "The \\"Big\\" One"'
    for who in ["?", "1.3", "build", "bonus", "e[0,1]", "@1,0", "note=1", "Zoë", " ", ""]:
        round_trip(ats, {"player": who, "do": "discard", "card": who})
        round_trip(sse, {"do": "damage", "player": who, "ship": 0, "from": [0, 0]})


def test_a_field_of_an_odd_shape_is_kept_as_it_is():
    round_trip(ats, {"year": 10 ** 9, "turn": -1, "player": None, "do": "build",
                     "card": 7, "at": [1, 2, 3], "energy_from": [[1, True]]})
    round_trip(sse, {"do": "move", "player": "Ann", "ship": -2, "from": [10 ** 7, 0],
                     "to": "home", "via": "jump", "piece": "castle"})


# -- hostile text --------------------------------------------------------------------------
HOSTILE = ["", "   ", "Ana", "Ana fly", "Ana build build", 'Ana build "A" "B"', "Ana build @x,1",
           "Ana build @1", "Ana build e[1,2", "Ana build x[1,2;]", "1.x Ana discard",
           "99999999.1 Ana discard", 'Ana discard "unterminated', "Ana discard note=",
           "Ana discard wat=1", "Ana discard do=1", "Ana discard card=1 \"X\"",
           "year=1 Ana discard", "Ana\ndiscard", "x" * 5000, 'Ana discard "A""B"',
           "Ana discard note=[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
           "Ana discard note=" + "[" * 3000, "Ana, discard", "Ana advisor bonus bonus"]
SSE_HOSTILE = ["", "Ann", "Ann fly", "Ann move #x", "Ann move #-1", "Ann move 1,2->",
               "Ann move ->", "Ann move @1,2 @1,2", 'Ann move "X"', "Ann move foo=1",
               "Ann move #1 #2", "Ann move line line", "Ann move city trade_station",
               "Ann move 1,2->3,4->5,6", "Ann\rmove"]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_ats_hostile_text_gets_one_line(text):
    with pytest.raises(NotationError) as e:
        ats.parse(text)
    assert isinstance(e.value, RecordError)
    message = str(e.value)
    assert message.startswith("notation: ") and "\n" not in message and len(message) < 300


@pytest.mark.parametrize("text", SSE_HOSTILE, ids=range(len(SSE_HOSTILE)))
def test_sse_hostile_text_gets_one_line(text):
    with pytest.raises(NotationError) as e:
        sse.parse(text)
    message = str(e.value)
    assert message.startswith("notation: ") and "\n" not in message and len(message) < 300


def test_parse_refuses_what_is_not_text():
    for value in [None, 3, b"Ana discard", ["Ana", "discard"]]:
        with pytest.raises(NotationError):
            ats.parse(value)
        with pytest.raises(NotationError):
            sse.parse(value)


def test_from_dict_names_an_unknown_kind_or_key():
    with pytest.raises(RecordError, match="unknown kind of action 'fly'"):
        ats.from_dict({"do": "fly"})
    with pytest.raises(RecordError, match="unknown key 'wat'"):
        ats.from_dict({"do": "discard", "wat": 1})
    with pytest.raises(RecordError, match="unknown kind of action None"):
        sse.from_dict({"player": "Ann"})
    with pytest.raises(RecordError, match="an action is an object"):
        sse.from_dict(["move"])


# -- properties ----------------------------------------------------------------------------
json_leaf = (st.none() | st.booleans() | st.integers(-10 ** 8, 10 ** 8)
             | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
small = st.integers(-30, 30)
cell = st.lists(small, min_size=2, max_size=2)
name = st.text(min_size=0, max_size=12)


def _field(key: str):
    usual = {"year": st.integers(0, 9), "turn": st.integers(0, 9), "player": name, "seat": name,
             "card": name, "tile": name, "take": st.sampled_from(["bonus", "decline"]),
             "at": cell, "from": cell, "to": cell, "energy_from": st.lists(cell, max_size=3),
             "cells": st.lists(cell, max_size=3), "ship": st.integers(0, 5),
             "via": st.sampled_from(["line", "wormhole"]),
             "piece": st.sampled_from(["city", "trade_station", None])}.get(key)
    return usual | json_value if usual is not None else json_value


def entries(kinds, keys):
    @st.composite
    def build(draw):
        keys_drawn = draw(st.lists(st.sampled_from(sorted(keys - {"do"})), unique=True, max_size=7))
        d = {"do": draw(st.sampled_from(sorted(kinds)))}
        for k in keys_drawn:
            d[k] = draw(_field(k))
        items = list(d.items())
        order = draw(st.permutations(range(len(items))))
        return {items[i][0]: items[i][1] for i in order}
    return build()


@settings(max_examples=300, deadline=None)
@given(entries(ats.KINDS, ATS_KEYS))
def test_ats_any_entry_reads_back(action):
    round_trip(ats, action)


@settings(max_examples=300, deadline=None)
@given(entries(sse.KINDS, SSE_KEYS))
def test_sse_any_action_reads_back(action):
    round_trip(sse, action)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.lists(st.sampled_from(
    ["Ana", "?", "1.3", "build", "discard", "advisor", "move", "damage", '"X"', "@1,0", "e[0,1]",
     "x[1,0;0,2]", "#1", "1,2->3,4", "line", "city", "bonus", "note=\"a b\"", "effects={}", "=",
     '"', "[", "->", "@", "#"]), max_size=8).map(" ".join))
def test_any_text_is_an_action_or_one_line_of_error(text):
    for module in (ats, sse):
        try:
            action = module.parse(text)
        except NotationError as e:
            assert "\n" not in str(e)
        else:
            assert module.parse(str(action)) == action


# -- the command line ----------------------------------------------------------------------
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_cli_notation_prints_the_record_one_action_a_line(path, capsys):
    from companion.cli import main
    record = json.loads(path.read_text(encoding="utf-8"))
    assert main(["notation", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    module = MODULES[record["format"]]
    assert [module.parse(line).to_dict() for line in lines] == record["actions"]


def test_cli_notation_of_a_bad_file_is_one_line(tmp_path, capsys):
    from companion.cli import main
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "among-the-stars/1"}', encoding="utf-8")
    assert main(["notation", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "setup" in captured.err
