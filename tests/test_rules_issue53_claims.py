"""Issue 53: one objective, one claim (B 6), and the + 3 of a removed laid location (B 5).

B 6: "Each Objective can only be claimed by 1 player unless stated otherwise. If 2 or more
players are tied for any Objective, no bonus is given."

- The same player typed twice as claiming one objective judged at the table is refused
  (rule ``claim``, one line naming the objective): it was paid twice (6 + 6 from a
  6-VP card).
- "Nobody claimed it" typed beside a claim of the same objective is refused.
- Two different players typed as claiming it are accepted: they are "tied for" the
  objective, so "no bonus is given" (each scores 0), as a tie on a measured objective
  gives it to nobody (``scoring._claim``).

Each is refused where entries are added (``GameSession.add_manual``, the engine's
``check_manual``) and in a record from outside (``check``, ``score``, ``history import``).

Honesty: the objectives are 'Fixture: ...' cards defined in the records (invented VP).
"""
from __future__ import annotations

import copy
import json

import pytest

from companion.ats.catalogue import parse_card
from companion.ats.game import Game
from companion.ats.modes import laid_loss
from companion.core.errors import IllegalAction
from companion.core.rules import Rule
from companion.table.store import Store
from companion.ui.session import GameSession
from recordkit import fixture_card, fixture_objective, play_to_the_end

B6 = "Each Objective can only be claimed by 1 player unless stated otherwise"
PLAYERS = ["Ana", "Ben"]
AT_TABLE = "Fixture: judged at the table"
OTHER = "Fixture: also at the table"
CARDS = [fixture_objective(AT_TABLE, vp=6), fixture_objective(OTHER, vp=2)]


def _finished() -> Game:
    g = Game({"players": PLAYERS, "objectives": [AT_TABLE, OTHER]},
             cards=copy.deepcopy(CARDS))
    return play_to_the_end(g)


def _claim(player, source=AT_TABLE, vp=6):
    return {"source": source, "player": player, "vp": vp}


def _nobody(source=AT_TABLE):
    return {"source": source, "vp": 0}


def _objective_vp(g: Game) -> dict[str, int]:
    lines = g.score().lines
    got = lines[lines.source == AT_TABLE]
    return {p: int(got[got.player == p].vp.sum()) for p in PLAYERS}


@pytest.mark.parametrize("entries,words", [
    ([_claim("Ana"), _claim("Ana"), _nobody(OTHER)], ["claimed by Ana twice"]),
    ([_claim("Ana"), _nobody(), _nobody(OTHER)], ["claimed by Ana", "claimed by nobody"]),
    ([_claim("Ana"), _claim("Ana", AT_TABLE.upper()), _nobody(OTHER)],
     ["claimed by Ana twice"]),
])
def test_one_objective_one_claim_is_checked_by_the_engine(entries, words):
    g = _finished()
    before = copy.deepcopy(g.manual)
    with pytest.raises(IllegalAction) as e:
        g.check_manual(copy.deepcopy(entries))
    assert e.value.rule == "claim" and B6 in str(e.value)
    assert AT_TABLE in str(e.value) and "\n" not in str(e.value)
    for w in words:
        assert w in str(e.value)
    assert g.manual == before
    assert "claim" in {str(r) for r in Rule}


def test_two_players_claiming_one_objective_are_a_tie_no_bonus_is_given():
    """B 6: "If 2 or more players are tied for any Objective, no bonus is given": both
    claims are accepted and each scores 0 (a tie on a measured objective gives it to
    nobody too)."""
    g = _finished()
    entries = [_claim("Ana"), _claim("Ben"), _nobody(OTHER)]
    g.check_manual(copy.deepcopy(entries))           # accepted
    g.manual = entries
    assert _objective_vp(g) == {"Ana": 0, "Ben": 0}
    # one claim: the card's VP, once
    g.manual = [_claim("Ana"), _nobody(OTHER)]
    assert _objective_vp(g) == {"Ana": 6, "Ben": 0}


def test_the_page_refuses_a_second_claim_typed_together_and_stores_nothing(tmp_path):
    store = Store(tmp_path / "games.db")
    gid = store.create(_finished().to_record())
    s = GameSession(Store(store.path))
    s.open(gid)
    with pytest.raises(IllegalAction) as e:
        s.add_manual([_claim("Ana"), _claim("Ana"), _nobody(OTHER)])
    assert e.value.rule == "claim" and AT_TABLE in str(e.value)
    with pytest.raises(IllegalAction) as e:
        s.add_manual([_claim("Ana"), _nobody(), _nobody(OTHER)])
    assert e.value.rule == "claim"
    assert store.load(gid).get("manual", []) == []
    # typed one after the other, a claim replaces "nobody" (and the reverse): one entry
    s.add_manual([_nobody(), _nobody(OTHER)])
    s.add_manual([_claim("Ana")])
    s.add_manual([_claim("Ana")])
    stored = store.load(gid)["manual"]
    assert [m for m in stored if m["source"] == AT_TABLE] == [_claim("Ana")]
    assert _objective_vp(Game.from_record(store.load(gid), trusted=True)) == \
        {"Ana": 6, "Ben": 0}


def _record(manual) -> dict:
    rec = _finished().to_record()
    rec["manual"] = manual
    return rec


@pytest.mark.parametrize("manual,words", [
    ([_claim("Ana"), _claim("Ana"), _nobody(OTHER)], "claimed by Ana twice"),
    ([_claim("Ben"), _nobody(), _nobody(OTHER)], "as claimed by nobody"),
])
def test_a_record_with_two_claims_is_refused_by_check_score_and_history_import(
        tmp_path, run_cli, manual, words):
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(_record(manual)), encoding="utf-8")
    with pytest.raises(IllegalAction) as e:
        Game.from_record(json.loads(path.read_text(encoding="utf-8")))
    assert e.value.rule == "claim"
    home = tmp_path / "home"
    home.mkdir()
    for args in (["score", str(path), "--json"], ["check", str(path)],
                 ["history", "import", str(path)]):
        out = run_cli(*args, home=home)
        assert out.returncode != 0, (args, out.stdout, out.stderr)
        err = out.stderr.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in out.stderr, err
        assert "rule: claim" in err and AT_TABLE in err and words in err, err
    # the same record with one claim scores it
    path.write_text(json.dumps(_record([_claim("Ana"), _nobody(OTHER)])), encoding="utf-8")
    out = run_cli("score", str(path), "--json", home=home)
    assert out.returncode == 0, out.stderr


# -- B 5: a removed laid location -------------------------------------------------------
B5_LOSES = "The player also loses the VPs he gained when he built the cards just removed"
B5_PLUS_3 = ("If for some reason the VPs cannot be calculated, the player loses the amount "
             "listed on the card, plus 3.")
PLAIN = "Fixture: plain laid"
ADJ = "Fixture: adjacent laid"
LAID_CARDS = [
    fixture_card(PLAIN, types=["business"], cost=1, energy=0, vp=2, max=2),
    fixture_card(ADJ, types=["military"], cost=1, energy=0, vp=1, max=2,
                 abilities=[{"when": "immediate", "per": "adjacent_location", "vp": 1}]),
]


def _laid_then_corrected() -> Game:
    """Ana's station laid now (year 1, turn 5) with one copy of each card, a second copy of
    each built live, then both cards' MAX read again from the box as 1: at the year's end
    each station holds one copy too many (B 5: "building 2 locations with the MAX: 1
    limit")."""
    g = Game({"players": PLAYERS, "options": {"laid": "now",
                                              "laid_at": {"year": 1, "turn": 5}}},
             cards=copy.deepcopy(LAID_CARDS))
    g.push({"do": "lay", "player": "Ana", "credits": 5, "vp": 20,
            "cells": [{"at": [0, 0], "reactor": True, "cubes": 2},
                      {"at": [0, 1], "card": PLAIN}, {"at": [1, 0], "card": ADJ}]})
    g.push({"do": "lay", "player": "Ben", "credits": 5, "vp": 3,
            "cells": [{"at": [0, 0], "reactor": True, "cubes": 2}]})
    for card, at in ((PLAIN, [0, -1]), (ADJ, [-1, 0])):
        g.push({"player": "Ana", "do": "build", "card": card, "at": at})
        g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    for c in LAID_CARDS:
        g.define(parse_card(dict(c, max=1)))
    assert sorted(v["rule"] for v in g.round_end_due()) == ["max", "max"]
    return g


def test_a_removed_laid_location_loses_printed_vp_plus_3_only_when_incalculable(
        tmp_path, run_cli):
    """B 5: "The player also loses the VPs he gained when he built the cards just removed
    ... If for some reason the VPs cannot be calculated, the player loses the amount
    listed on the card, plus 3."  Ruling (docs/rules.md): a laid card has no line of its
    build, but a card with no ability giving VP when built gave its printed VP, which can
    be calculated: it loses that (2), not 2 + 3.  A card whose immediate ability counted
    its neighbours when it was built gave a number the laid station cannot tell: printed
    VP + 3 (1 + 3)."""
    g = _laid_then_corrected()
    vp = g.state.players["Ana"].vp
    assert vp == 20 + 2 + (1 + 1)                  # the live builds: printed, + 1 adjacent
    g.push({"do": "remove", "player": "Ana", "at": [0, 1]})       # the laid plain copy
    assert g.state.players["Ana"].vp == vp - 2
    line = g.state.players["Ana"].ledger[-1]
    assert line.category == "removal" and line.vp == -2 and "+ 3" not in line.rule
    g.push({"do": "remove", "player": "Ana", "at": [1, 0]})       # the laid ability copy
    assert g.state.players["Ana"].vp == vp - 2 - (1 + 3)
    assert "printed VP + 3" in g.state.players["Ana"].ledger[-1].rule
    assert g.round_end_due() == []
    # the record read from a file scores the same: check and score
    path = tmp_path / "removed.json"
    path.write_text(json.dumps(g.to_record()), encoding="utf-8")
    assert run_cli("check", str(path)).returncode == 0
    out = run_cli("score", str(path), "--json")
    assert out.returncode == 0, out.stderr
    totals = {p["player"]: p["total"] for p in json.loads(out.stdout)["players"]}
    assert totals == {"Ana": 24 - 2 - 4, "Ben": 3}
    home = tmp_path / "home"
    home.mkdir()
    out = run_cli("history", "import", str(path), home=home)        # history import
    assert out.returncode == 0, out.stderr
    store = Store(home / "games.sqlite")
    (saved,) = store.games()
    again = Game.from_record(store.load(saved["id"]), trusted=True)
    assert again.state.players["Ana"].vp == 24 - 2 - 4
    # a live-built copy removed instead loses the VP its build gave (its own lines)
    g2 = _laid_then_corrected()
    g2.push({"do": "remove", "player": "Ana", "at": [-1, 0]})     # built live: 1 + 1
    assert g2.state.players["Ana"].vp == vp - 2


def test_laid_loss_follows_the_card():
    assert laid_loss(parse_card(LAID_CARDS[0]))[0] == 2
    assert laid_loss(parse_card(LAID_CARDS[1]))[0] == 1 + 3
    unknown = parse_card({**LAID_CARDS[0], "abilities": None})      # abilities not typed
    assert laid_loss(unknown)[0] == 2 + 3
    assert laid_loss(None)[0] == 3
