"""`python -m companion score|check` on real records and on broken files.

A good record: exit 0, the table (text) or JSON only on stdout (--json).
A broken or illegal record: exit 2, nothing on stdout, exactly one line on
stderr starting with "error:" (naming the action index and the rule where
there is one), and never a traceback.
"""
from __future__ import annotations

import copy
import json

import pytest

import make_samples as ms
from companion.core.record import MAX_BYTES, dumps

SANDRA = ms.SAMPLES / "sandra-holographic-display-area.json"
GEORGE = ms.SAMPLES / "george-base-final-scoring.json"


def base_record() -> dict:
    """Sandra's sample: 9 actions (index 6 is her Holographic Display Area)."""
    return json.loads(SANDRA.read_text(encoding="utf-8"))


def assert_clean_failure(proc, *needles):
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: "), lines[0]
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


# ---------------------------------------------------------------------------
# good records
# ---------------------------------------------------------------------------
def test_score_text(run_cli):
    proc = run_cli("score", GEORGE)
    assert proc.returncode == 0 and proc.stderr == ""
    out = proc.stdout.splitlines()
    assert out[0] == "Final scoring"
    header = out[1].split()
    assert header[:2] == ["player", "rank"] and "total" in header
    george = out[2].split()
    assert george[0] == "George" and george[1] == "1"
    assert george[header.index("total")] == "79"
    assert [l.split()[0] for l in out[2:6]] == ["George", "Sandra", "Thalia", "Milo"]
    assert "George wins with 79 VP." in proc.stdout


def test_score_text_lines(run_cli):
    proc = run_cli("score", GEORGE, "--lines")
    assert proc.returncode == 0
    assert ms.MOST_MILITARY in proc.stdout and "delayed ability" in proc.stdout


def test_score_json_is_json_only(run_cli):
    proc = run_cli("score", GEORGE, "--json")
    assert proc.returncode == 0 and proc.stderr == ""
    data = json.loads(proc.stdout)              # the whole of stdout parses
    assert data["final"] is True and data["winners"] == ["George"]
    assert [p["player"] for p in data["players"]] == ["George", "Sandra", "Thalia", "Milo"]
    assert [p["rank"] for p in data["players"]] == [1, 2, 3, 4]
    assert data["players"][1]["credits"] == 5


def test_game_in_progress(run_cli):
    proc = run_cli("score", SANDRA, "--json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert data["final"] is False
    totals = {p["player"]: p["total"] for p in data["players"]}
    assert totals == {"Sandra": 4, "George": 0, "Thalia": 0}
    assert data["players"][0]["breakdown"]["during_game"] == 4
    assert all(p["breakdown"]["credits"] == 0 and p["breakdown"]["empty_reactors"] == 0
               for p in data["players"])    # no final scoring yet
    text = run_cli("score", SANDRA)
    assert text.stdout.startswith("Game in progress (year 1, turn 4): score so far")
    assert "Sandra leads with 4 VP." in text.stdout


def test_empty_game_in_progress(run_cli, tmp_path):
    rec = base_record()
    rec["actions"] = []
    path = tmp_path / "empty-game.json"
    path.write_text(dumps(rec), encoding="utf-8")
    data = json.loads(run_cli("score", path, "--json").stdout)
    assert data["final"] is False and data["winners"] == ["Sandra", "George", "Thalia"]
    assert {p["total"] for p in data["players"]} == {0}


def test_check(run_cli):
    proc = run_cli("check", GEORGE)
    assert proc.returncode == 0
    # the base rulebook's worked example names 2 of George's 4 objectives, and says so
    assert proc.stdout.strip().splitlines() == [
        "ok: 96 actions, finished",
        "taken on trust (setup.options.on_trust): 2 objective(s) named for 4 players: the "
        "book draws 4 (B 3: \"as many Objectives as the number of players\"); name every "
        "objective drawn (add the missing ones to the catalogue), or play without objectives"]
    proc = run_cli("check", SANDRA)
    assert proc.stdout.strip() == "ok: 9 actions, year 1, turn 4"


def test_record_at_the_size_limit_is_read(run_cli, tmp_path):
    text = dumps(base_record())
    path = tmp_path / "padded.json"
    path.write_bytes(text.encode() + b" " * (MAX_BYTES - len(text.encode())))
    assert path.stat().st_size == MAX_BYTES
    assert run_cli("score", path, "--json").returncode == 0


# ---------------------------------------------------------------------------
# broken files
# ---------------------------------------------------------------------------
def _with(mutate):
    def make():
        rec = base_record()
        mutate(rec)
        return dumps(rec)
    return make


def _set(path, value):
    def mutate(rec):
        target = rec
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = value
    return mutate


def _drop(i, key):
    def mutate(rec):
        del rec["actions"][i][key]
    return mutate


def _oversized():
    text = dumps(base_record())
    return text + " " * (MAX_BYTES + 1 - len(text.encode()))


BROKEN = {
    # name: (file text, what stderr must name)
    "malformed-json": (lambda: '{"format": "among-the-stars/1", "setup": ', ["not valid JSON"]),
    "empty-file": (lambda: "", ["not valid JSON"]),
    "json-list": (lambda: json.dumps([base_record()]), ["must be a JSON object"]),
    "unknown-format": (_with(_set(["format"], "among-the-stars/99")),
                       ["unknown format", "among-the-stars/99"]),
    "no-format": (_with(lambda r: r.pop("format")), ["unknown format"]),
    "unknown-card": (_with(_set(["actions", 6, "card"], "Holographic Display Aera")),
                     ["action 6", "Holographic Display Aera", "unknown-card",
                      "did you mean Holographic Display Area"]),
    "non-integer-cell": (_with(_set(["actions", 6, "at"], [1, "0"])),
                         ["action 6", "malformed", "[row, col]"]),
    "float-cell": (_with(_set(["actions", 3, "at"], [1.0, 1])), ["action 3", "malformed"]),
    "cell-wrong-length": (_with(_set(["actions", 3, "at"], [1, 1, 0])), ["action 3", "malformed"]),
    "missing-cell": (_with(_drop(6, "at")), ["action 6", "malformed"]),
    "oversized": (_oversized, ["at most", str(MAX_BYTES)]),
    "illegal-not-adjacent": (_with(_set(["actions", 3, "at"], [5, 5])),
                             ["action 3", "not-adjacent"]),
    "illegal-occupied": (_with(_set(["actions", 6, "at"], [0, 1])), ["action 6", "occupied"]),
    "illegal-energy-from": (_with(_set(["actions", 6, "energy_from"], [[3, 3]])),
                            ["action 6", "energy-from"]),
    "illegal-wrong-turn": (_with(_set(["actions", 4, "turn"], 5)), ["action 4", "wrong-turn"]),
    "illegal-acts-twice": (_with(_set(["actions", 4, "player"], "Sandra")),
                           ["action 4", "wrong-player"]),
    "unknown-do": (_with(_set(["actions", 2, "do"], "attack")), ["action 2", "malformed"]),
    "action-not-object": (_with(_set(["actions", 2], "discard")), ["action 2"]),
    "unknown-top-key": (_with(_set(["extra"], 1)), ["unknown key 'extra'"]),
    "no-setup": (_with(lambda r: r.pop("setup")), ["setup"]),
    "one-player": (_with(_set(["setup", "players"], ["Sandra"])), ["2 to 6 players"]),
    "unknown-objective": (_with(_set(["setup", "objectives"], ["Most Everything"])),
                          ["unknown objective"]),
    "bad-card-definition": (_with(_set(["cards", 0, "cost"], -1)), ["Garden", "cost"]),
    "not-utf8": (lambda: b"\xff\xfe{}", ["UTF-8"]),
    "deeply-nested": (lambda: "[" * 200_000, ["nested too deeply"]),
    "boolean-reactor-supply": (_with(_set(["setup", "options"], {"reactor_supply": True})),
                               ["reactor_supply"]),
}


@pytest.fixture(scope="module")
def broken_runs(tmp_path_factory, run_cli_many):
    """Every broken file written once and scored, in parallel (speed): name -> process."""
    folder = tmp_path_factory.mktemp("broken")
    calls = []
    for name, (make, _) in BROKEN.items():
        path = folder / f"{name}.json"
        content = make()
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        calls.append(("score", path, "--json"))
    procs = run_cli_many(calls, home=tmp_path_factory.mktemp("home"))
    return dict(zip(BROKEN, procs))


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_record(broken_runs, name):
    assert_clean_failure(broken_runs[name], *BROKEN[name][1])


def test_broken_record_check_command(run_cli, tmp_path):
    path = tmp_path / "illegal.json"
    rec = base_record()
    rec["actions"][3]["at"] = [5, 5]
    path.write_text(dumps(rec), encoding="utf-8")
    assert_clean_failure(run_cli("check", path), "action 3", "not-adjacent")


def test_missing_file(run_cli, tmp_path):
    assert_clean_failure(run_cli("score", tmp_path / "nowhere.json"), "cannot read",
                         "nowhere.json")


def test_directory_instead_of_file(run_cli, tmp_path):
    assert_clean_failure(run_cli("score", tmp_path), "error:")


def test_mutations_leave_the_base_record_legal():
    """The broken files above differ from a legal record in one place only."""
    from companion import Game
    Game.from_record(copy.deepcopy(base_record()))
