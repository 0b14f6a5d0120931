"""Records (small-star-empires/1), maps, and the command line (score/check route SSE
records to the SSE engine; broken or illegal records exit 2 with one line)."""
from __future__ import annotations

import json
import random

import pytest

from companion.core.errors import IllegalAction, RecordError
from companion.sse import SseGame
from companion.sse.hexmap import (HexMap, MapError, available_maps, load_map_file, load_named,
                                  save_user_map)



def random_game(seed=3, players=("Ann", "Bob"), mapname="basic-2p", ships=3, limit=None):
    rng = random.Random(seed)
    g = SseGame({"players": list(players), "map": mapname, "pieces": {"ships": ships}})
    while not g.state.finished and (limit is None or len(g.actions) < limit):
        p = g.current
        opts = [(i, m) for i in range(ships) for m in g.legal_moves(p, i)]
        i, m = rng.choice(opts)
        a = {"player": p, "ship": i, "to": list(m.to)}
        if m.kind == "colonise":
            a["piece"] = rng.choice(m.pieces)
        g.push(a)
    return g


def test_shipped_maps_are_marked_approximate_and_fit_their_player_count():
    maps = available_maps()
    for n in (2, 3, 4):
        m = load_named(f"basic-{n}p")
        assert m.approximate and "approximate" in m.title.lower()
        assert "adjust" in m.note.lower() and "picture" in m.note
        assert set(m.validate_for(n)) == set(range(1, n + 1))
        counts = m.counts()
        for c in ("red", "blue", "green"):
            assert counts.get(f"nebula {c}", 0) <= 3
        assert f"basic-{n}p" in maps


def test_map_json_round_trip_and_errors(tmp_path):
    m = load_named("basic-3p")
    assert HexMap.from_dict(m.to_dict()).to_dict() == m.to_dict()
    bad = [
        ({"systems": []}, "non-empty"),
        ({"systems": [{"at": [0, 0], "type": "planetary", "planets": 4}]}, "planets"),
        ({"systems": [{"at": [0, 0], "type": "nebula", "colour": "pink"}]}, "colour"),
        ({"systems": [{"at": [0, 0], "type": "empty"}, {"at": [0, 0], "type": "empty"}]}, "two systems"),
        ({"systems": [{"at": [0, 0], "type": "homeworld", "home": 1},
                      {"at": [1, 0], "type": "homeworld", "home": 1}]}, "same seat"),
        ({"systems": [{"at": [0, "x"], "type": "empty"}]}, "[q, r]"),
        ({"systems": [{"at": [0, 0], "type": "lava"}]}, "type"),
        ({"systems": [{"at": [0, 0], "type": "empty", "planets": 2}]}, "no planets"),
        ({"format": "other", "systems": [{"at": [0, 0], "type": "empty"}]}, "format"),
    ]
    for d, words in bad:
        with pytest.raises(MapError, match=words.replace("[", r"\[").replace("]", r"\]")):
            HexMap.from_dict(d)
    # the player's own maps: saved in COMPANION_HOME, listed, and they win over shipped names
    m.name = "my table"
    path = save_user_map(m)
    assert path.parent.name == "sse-maps"
    assert load_named("my table").to_dict() == load_map_file(path).to_dict()
    with pytest.raises(MapError):
        save_user_map(m, "../evil")
    with pytest.raises(MapError, match="no map called"):
        load_named("nope")
    with pytest.raises(MapError, match="exactly one homeworld"):
        SseGame({"players": ["A", "B", "C"], "map": "basic-2p", "pieces": {"ships": 2}})


def test_setup_errors():
    ok = {"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 3}}
    SseGame(ok)
    for change, words in [
        ({"pieces": {}}, "ships"),
        ({"pieces": None}, "ships"),
        ({"players": ["Ann"]}, "2 to 4"),
        ({"players": ["Ann", "ann"]}, "same name"),
        ({"variants": {"teleport": True}}, "unknown variant"),
        ({"mode": "huge"}, "mode"),
        ({"nebula_table": [1, 2, 3]}, "only for epic"),
        ({"mode": "epic"}, "epic mode"),
        ({"extra": 1}, "unknown key"),
    ]:
        with pytest.raises(RecordError, match=words):
            SseGame({**ok, **change})


def test_record_round_trip_embeds_the_map():
    g = random_game()
    rec = g.to_record()
    assert rec["format"] == "small-star-empires/1"
    assert isinstance(rec["setup"]["map"], dict) and rec["setup"]["map"]["name"] == "basic-2p"
    again = SseGame.from_record(json.loads(json.dumps(rec)))
    assert again.to_record() == rec
    assert again.score().to_json() == g.score().to_json()


def test_replay_names_the_illegal_action_index():
    g = random_game(limit=6)
    rec = g.to_record()
    rec["actions"][4]["to"] = rec["actions"][4]["from"]
    with pytest.raises(IllegalAction) as e:
        SseGame.from_record(rec)
    assert e.value.index == 4 and e.value.rule == "no-move"
    rec["actions"][4] = "nonsense"
    with pytest.raises(RecordError, match="action 4"):
        SseGame.from_record(rec)
    with pytest.raises(RecordError, match="format"):
        SseGame.from_record({**g.to_record(), "format": "among-the-stars/1"})
    with pytest.raises(RecordError, match="unknown key"):
        SseGame.from_record({**g.to_record(), "extra": 1})


def test_cli_score_and_check_an_sse_record(tmp_path, run_cli):
    g = random_game()
    path = tmp_path / "sse.json"
    path.write_text(json.dumps(g.to_record()))
    r = run_cli("score", path, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out == g.score().to_json()
    r = run_cli("score", path, "--lines")
    assert r.returncode == 0 and "final scoring" in r.stdout and "Decided" in r.stdout
    assert "nebulae" in r.stdout
    r = run_cli("check", path)
    assert r.returncode == 0 and r.stdout.startswith(f"ok: {len(g.actions)} actions, finished")
    # a game in progress
    part = random_game(limit=5)
    path.write_text(json.dumps(part.to_record()))
    r = run_cli("score", path)
    assert r.returncode == 0 and "game in progress" in r.stdout


def test_cli_broken_and_illegal_sse_records_exit_2_with_one_line(tmp_path, run_cli):
    g = random_game(limit=6)
    rec = g.to_record()
    rec["actions"][3]["player"] = rec["actions"][2]["player"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    for cmd in ("score", "check"):
        r = run_cli(cmd, path)
        assert r.returncode == 2
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: action 3: ")
        assert "[rule: wrong-player]" in lines[0]
    rec = g.to_record()
    rec["setup"]["pieces"] = {}
    path.write_text(json.dumps(rec))
    r = run_cli("score", path)
    assert r.returncode == 2 and r.stderr.startswith("error: setup.pieces.ships")
    assert len(r.stderr.strip().splitlines()) == 1


def test_shipped_sample_record_scores(run_cli):
    from companion.core.paths import data_dir
    path = data_dir() / "small-star-empires" / "samples" / "two-player-random.json"
    g = SseGame.from_record(json.loads(path.read_text()))
    assert g.state.finished and "not a real game" in g.meta["title"]
    r = run_cli("score", path, "--json")
    assert r.returncode == 0 and json.loads(r.stdout) == g.score().to_json()
