"""Issue 23, "no rule in the page": the engine offers the turn actions of a game with
their labels and costs (Game.action_kinds); the numbers are the rules' constants and
the engine's own bookkeeping spends or gives exactly those credits.

Book sentences (Among the Stars rulebook, B 4):
- "Discard and Gain 3 Credits"
- "In order to build a Power Reactor, discard your selected card ..., pay its cost
  (1 credit), take a Power Reactor card ... You also put 2 Energy Cubes on it"
- Aggressive Mode: "When a player selects a Conflict Card, he cannot "build it" ...
  Instead, he applies its effect by paying 1 credit."
Revival (R 3, Travelling Exhibition): "remove up to 3 Spaceships from your Station".
"""
from __future__ import annotations

from companion.ats.action_kinds import ActionKind, base_kinds
from companion.ats.game import CONFLICT_COST, DISCARD_GAIN, MAX_SPACESHIP_REMOVAL, REACTOR_COST, Game
from companion.core.rules import Rule

PLAYERS = ["Ana", "Ben", "Cy"]


def kinds(**setup) -> dict[str, ActionKind]:
    g = Game({"players": PLAYERS, **setup}, book_setup=False)
    return {k.kind: k for k in g.action_kinds("Ana")}


def test_the_kinds_follow_the_mode_and_the_modules():
    assert list(kinds()) == ["build", "reactor", "discard"]
    assert list(kinds(mode="aggressive")) == ["build", "reactor", "discard", "conflict"]
    assert list(kinds(options={"spaceships": True})) == ["build", "reactor", "discard",
                                                         "remove_spaceships"]
    assert [k.kind for k in base_kinds()] == ["build", "reactor", "discard"]


def test_labels_and_buttons_are_the_pages_words_with_the_rules_numbers():
    k = kinds(mode="aggressive", options={"spaceships": True})
    assert (k["build"].label, k["reactor"].label) == ("Build location", "Build reactor")
    assert k["discard"].label == k["discard"].button == f"Discard for {DISCARD_GAIN} credits" \
        == "Discard for 3 credits"
    assert k["conflict"].label == "Apply Conflict"
    assert k["conflict"].button == f"Apply the Conflict ({CONFLICT_COST} credit)" \
        == "Apply the Conflict (1 credit)"
    assert k["remove_spaceships"].label == "Remove spaceships"
    assert f"up to {MAX_SPACESHIP_REMOVAL} spaceships" in k["remove_spaceships"].hint
    assert (k["reactor"].cost, k["conflict"].cost, k["discard"].gain) == \
        (REACTOR_COST, CONFLICT_COST, DISCARD_GAIN) == (1, 1, 3)
    assert k["build"].cost is None                  # the card's printed cost
    assert "(1 credit, 2 cubes)" in k["reactor"].hint


def test_hints_quote_the_rule_texts():
    k = kinds(mode="aggressive", options={"spaceships": True})
    assert k["reactor"].rule is Rule.REACTOR_CREDITS and k["conflict"].rule is Rule.CONFLICT
    for kind in k.values():
        if kind.rule is not None:
            assert kind.rule_text == kind.rule.text("ats") and kind.rule_text
    assert "costs 1 credit" in k["reactor"].rule_text      # the Rule's own words
    assert "applying it costs 1 credit" in k["conflict"].rule_text


def test_the_engine_spends_and_gives_what_the_kinds_say():
    g = Game({"players": PLAYERS}, book_setup=False)
    k = {x.kind: x for x in g.action_kinds("Ana")}
    before = {p: g.state.players[p].credits for p in PLAYERS}
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    g.push({"player": "Ben", "do": "reactor", "card": "Garden", "at": [-1, 0]})
    after = {p: g.state.players[p].credits for p in PLAYERS}
    assert after["Ana"] - before["Ana"] == k["discard"].gain
    assert before["Ben"] - after["Ben"] == k["reactor"].cost


def test_a_query_changes_nothing():
    g = Game({"players": PLAYERS, "mode": "aggressive"}, book_setup=False)
    rec = g.to_record()
    g.action_kinds("Ana")
    g.action_kinds(None)
    assert g.to_record() == rec
