"""Issue 36: one checking path.  A record read from a file (``check``, ``score``,
``history import``, the engine's ``from_record``) meets the checks a live entry meets, and
is refused with the same rule code, in one line; a partial record says what it takes on
trust (``setup.options.on_trust``), and ``check`` prints it.  The store's own records (a
game this companion wrote) still open as they were entered.

The books' sentences:

- B 3: "randomly draw as many Objectives as the number of players"; B 8: "only 2
  Objective Cards are drawn";
- R 4: "take randomly as many as the number of players";
- B 3: "Put these cards face up on the table" (a secret objective is another card);
- the copies the box holds (typed by the players: ``copies``; a build past them is
  refused live with ``copies``).
"""
from __future__ import annotations

import json

import pytest

from companion.ats.game import Game
from companion.core.errors import IllegalAction
from recordkit import fixture_card, fixture_objective

PLAYERS = ["Ana", "Ben"]
OBJECTIVES = [fixture_objective(f"Fixture: objective {i}", vp=5, most={"per": "credit"})
              for i in range(1, 4)]
NAMES = [o["name"] for o in OBJECTIVES]
TWO_COPIES = fixture_card("Fixture: two in the box", types=["military"], cost=0, energy=0,
                          vp=1)
TWO_COPIES["copies"] = 2


def _record(setup: dict, actions=(), cards=()) -> dict:
    g = Game({"players": PLAYERS, **setup}, cards=[*OBJECTIVES, *cards], book_setup=False)
    for a in actions:
        g.push(a)
    return json.loads(json.dumps(g.to_record()))


def _refused_on_every_path(tmp_path, run_cli, rec: dict, rule: str, words: str) -> None:
    with pytest.raises(IllegalAction) as e:                     # the engine, from a file
        Game.from_record(json.loads(json.dumps(rec)))
    assert e.value.rule == rule and words in str(e.value)
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(rec))
    for args in (("check", path), ("score", path), ("history", "import", path)):
        r = run_cli(*args, home=tmp_path / "home")
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1, (args, r.stdout, r.stderr)
        assert words in lines[0] and f"[rule: {rule}]" in lines[0], (args, lines[0])
        assert "Traceback" not in r.stderr


def test_three_objectives_in_a_two_player_game(tmp_path, run_cli):
    # B 8: "only 2 Objective Cards are drawn"
    rec = _record({"objectives": NAMES[:3]})
    _refused_on_every_path(tmp_path, run_cli, rec, "objectives",
                           "3 objective(s) named for 2 players")
    with pytest.raises(IllegalAction) as e:                     # a new game: the same rule
        Game(rec["setup"], cards=OBJECTIVES)
    assert e.value.rule == "objectives"
    # the store's own record (written by this companion) opens as it was entered
    assert Game.from_record(rec, trusted=True).setup.objectives == NAMES[:3]


def test_one_influence_tile_for_two_players(tmp_path, run_cli):
    # R 4: "take randomly as many as the number of players"
    tile = {"name": "T1", "between": ["Ana", "Ben"], "actions": ["build"], "slots": 2}
    rec = _record({"mode": "standard", "options": {"advisors": [tile]}})
    _refused_on_every_path(tmp_path, run_cli, rec, "advisor-tiles",
                           "1 Influence tile(s) for 2 players")


def test_an_influence_tile_between_players_who_do_not_sit_side_by_side(tmp_path, run_cli):
    # R 4: "place one randomly between each player and the player on his left"
    four = ["Ana", "Ben", "Cy", "Dee"]
    tiles = [{"name": n, "between": list(pair), "actions": ["build"], "slots": 2}
             for n, pair in (("AC", ("Ana", "Cy")), ("BC", ("Ben", "Cy")),
                             ("CD", ("Cy", "Dee")), ("DA", ("Dee", "Ana")))]
    g = Game({"players": four, "options": {"advisors": tiles}}, book_setup=False)
    rec = json.loads(json.dumps(g.to_record()))
    _refused_on_every_path(tmp_path, run_cli, rec, "advisor-tiles",
                           "the Influence tile 'AC' lies between Ana and Cy, who do not sit "
                           "side by side")


def test_a_secret_objective_that_is_face_up(tmp_path, run_cli):
    # B 3: "Put these cards face up on the table": the secret one is another card
    rec = _record({"objectives": NAMES[:2], "races": {"Ben": "Qualeen"},
                   "secret_objectives": {"Ben": NAMES[1]}})
    _refused_on_every_path(tmp_path, run_cli, rec, "objectives",
                           "Ben's secret objective 'Fixture: objective 2' is one of the "
                           "objectives face up")


def test_a_third_copy_of_a_card_the_box_holds_two_of(tmp_path, run_cli):
    # typed live, the third build is refused with `copies`; from a file the same
    build = [{"player": p, "do": "build", "card": TWO_COPIES["name"], "at": [0, 1]}
             for p in PLAYERS]
    g = Game({"players": PLAYERS}, cards=[TWO_COPIES])
    for a in build:
        g.push(a)
    with pytest.raises(IllegalAction) as live:
        g.push({"player": "Ana", "do": "build", "card": TWO_COPIES["name"], "at": [0, 2]})
    assert live.value.rule == "copies"
    # the store's own game, entered before the copies were typed: it still opens
    old = Game({"players": PLAYERS}, cards=[{**TWO_COPIES, "copies": None}])
    for a in [*build, {"player": "Ana", "do": "build", "card": TWO_COPIES["name"],
                       "at": [0, 2]}]:
        old.push(a)
    rec = json.loads(json.dumps(old.to_record()))
    for c in rec["cards"]:
        if c["name"] == TWO_COPIES["name"]:
            c["copies"] = 2
    assert len(Game.from_record(rec, trusted=True).actions) == 3
    _refused_on_every_path(tmp_path, run_cli, rec, "copies",
                           "the box holds 2 copies of 'Fixture: two in the box'")


def test_a_partial_record_says_what_it_takes_on_trust_and_check_prints_it(run_cli,
                                                                         samples_dir):
    # the base rulebook's worked example names 2 of George's 4 objectives
    path = samples_dir / "george-base-final-scoring.json"
    rec = json.loads(path.read_text())
    assert rec["setup"]["options"]["on_trust"] == ["objectives"]
    r = run_cli("check", path)
    assert r.returncode == 0, r.stderr
    assert "taken on trust (setup.options.on_trust): 2 objective(s) named for 4 players" \
        in r.stdout
    del rec["setup"]["options"]["on_trust"]
    with pytest.raises(IllegalAction) as e:
        Game.from_record(rec)
    assert e.value.rule == "objectives"


def test_a_spaceship_whose_space_was_built_on(tmp_path, run_cli):
    """R 3: "take a Spaceship token and place it on an empty space adjacent to an existing
    card in that Station".  Issue 36: "a spaceship whose space was built on: refused live,
    silently lost from a file".  The record is made as a table that played the spaceship
    as lost would store it (``spaceship_filled: lost``), then that option is taken out:
    the file no longer says so, and every path refuses it as the live entry is refused."""
    ship_cards = [
        fixture_card("Fixture: shipyard", types=["military"], cost=1, energy=0, vp=1,
                     abilities=[{"when": "immediate", "spaceships": 1, "target": "other"}]),
        fixture_card("Fixture: plain", types=["business"], cost=1, energy=0, vp=2),
    ]
    g = Game({"players": ["Ana", "Ben", "Cy"],
              "options": {"spaceships": True, "spaceship_filled": "lost"}},
             cards=ship_cards, book_setup=False)
    g.push({"player": "Ana", "do": "build", "card": "Fixture: shipyard", "at": [0, 1],
            "spaceships": [{"player": "Ben", "at": [0, 1]}]})
    g.push({"player": "Ben", "do": "build", "card": "Fixture: plain", "at": [0, 1]})
    g.push({"player": "Cy", "do": "discard", "card": "Garden"})
    rec = json.loads(json.dumps(g.to_record()))
    del rec["setup"]["options"]["spaceship_filled"]
    _refused_on_every_path(tmp_path, run_cli, rec, "spaceship", "on its way to that space")
