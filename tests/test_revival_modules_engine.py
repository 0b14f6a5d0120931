"""Issue 21, the engine points (Among the Stars with the Revival modules): each a
real record pushed through ``Game.push`` and replayed with ``Game.from_record``.
Cards with invented numbers are named 'Fixture: ...'; objective names are the
shipped catalogue's (only their names are used, never their values)."""
from __future__ import annotations

import json

import pytest

from companion import Game, IllegalAction
from recordkit import fixture_objective
from companion.core.rules import Rule

FIX = [
    {"name": "Fixture: plain", "types": ["business"], "cost": 1, "energy": 0, "vp": 2,
     "max": "none", "abilities": []},
    {"name": "Fixture: one vp", "types": ["business"], "cost": 1, "energy": 0, "vp": 1,
     "max": "none", "abilities": []},
    {"name": "Fixture: shipyard", "types": ["military"], "cost": 1, "energy": 0, "vp": 1,
     "max": "none", "abilities": [{"when": "immediate", "spaceships": 1, "target": "other"}]},
]
PLAYERS = ["Ana", "Ben", "Cy"]


def replayed(game: Game) -> Game:
    """The game as the store opens it (its own record, trusted)."""
    return Game.from_record(json.loads(json.dumps(game.to_record())), trusted=True)


def from_a_file(game: Game, **setup_options) -> Game:
    """The game's record read as a file from another table would be (issue 36: with the
    checks of a new game and a live entry), ``setup_options`` added to its setup's."""
    rec = json.loads(json.dumps(game.to_record()))
    rec["setup"]["options"].update(setup_options)
    return Game.from_record(rec)


def act(player: str, do: str, card: str = "Garden", **kw) -> dict:
    return {"player": player, "do": do, "card": card, **kw}


# ------------------------------------------------------------ spaceships (R 3)
def ships_game(**options) -> Game:
    options.setdefault("spaceship_filled", "refuse")
    return Game({"players": PLAYERS, "options": {"spaceships": True, **options}}, cards=FIX)


@pytest.mark.parametrize("ana_first", [True, False])
def test_spaceship_adjacency_is_judged_after_every_players_action(ana_first):
    """R 3: "place it on an empty space adjacent to an existing card in that
    Station"; B Playing Order: such an effect is "carried out after all other
    players' actions are completed".  Ana's spaceship goes to [0, 2] in Ben's
    station, next to the card Ben builds at [0, 1] in the same turn: accepted
    whoever is typed first, and the same station either way."""
    g = ships_game()
    ana = act("Ana", "build", "Fixture: shipyard", at=[0, 1],
              spaceships=[{"player": "Ben", "at": [0, 2]}])
    ben = act("Ben", "build", "Fixture: plain", at=[0, 1])
    for a in ([ana, ben] if ana_first else [ben, ana]):
        g.push(a)
    g.push(act("Cy", "discard"))
    assert g.state.station("Ben").blocked == {(0, 2)}
    again = replayed(g)
    assert again.state.station("Ben").blocked == {(0, 2)}
    assert again.score().to_json() == g.score().to_json()


def test_spaceship_never_reaches_a_space_that_is_not_next_to_a_card_after_all_actions():
    """R 3 again, judged when the spaceship is placed: Ben does not build next to
    [0, 2], so when the turn ends it is next to no card of his: refused."""
    g = ships_game()
    g.push(act("Ana", "build", "Fixture: shipyard", at=[0, 1],
               spaceships=[{"player": "Ben", "at": [0, 2]}]))
    with pytest.raises(IllegalAction) as e:
        g.push(act("Ben", "build", "Fixture: plain", at=[1, 0]))
    assert e.value.rule == "spaceships" and "next to it" in str(e.value)
    g.push(act("Ben", "build", "Fixture: plain", at=[0, 1]))    # the real table's entry
    g.push(act("Cy", "discard"))
    assert replayed(g).state.station("Ben").blocked == {(0, 2)}


def test_spaceship_on_a_space_built_on_the_same_turn_is_refused():
    """R 3: "place it on an empty space adjacent to an existing card in that
    Station": a record names a space that is empty when the spaceship is placed,
    whichever entry was typed first; it is not silently dropped any more."""
    g = ships_game()
    g.push(act("Ana", "build", "Fixture: shipyard", at=[0, 1],
               spaceships=[{"player": "Ben", "at": [0, 1]}]))
    with pytest.raises(IllegalAction) as e:            # Ana typed first
        g.push(act("Ben", "build", "Fixture: plain", at=[0, 1]))
    assert e.value.rule == "spaceship" and "on its way to that space" in str(e.value)
    h = ships_game()
    h.push(act("Ben", "build", "Fixture: plain", at=[0, 1]))
    with pytest.raises(IllegalAction) as e:            # Ben typed first
        h.push(act("Ana", "build", "Fixture: shipyard", at=[0, 1],
                   spaceships=[{"player": "Ben", "at": [0, 1]}]))
    assert e.value.rule == "spaceships"
    # a record stored before the refusal (the spaceship was lost) still opens from the
    # store; the same record from a file is refused as the live entry was (issue 36:
    # "a spaceship whose space was built on ...: refused live, silently lost from a file")
    old = ships_game(spaceship_filled="lost")
    old.push(act("Ana", "build", "Fixture: shipyard", at=[0, 1],
                 spaceships=[{"player": "Ben", "at": [0, 1]}]))
    old.push(act("Ben", "build", "Fixture: plain", at=[0, 1]))
    old.push(act("Cy", "discard"))
    rec = json.loads(json.dumps(old.to_record()))
    del rec["setup"]["options"]["spaceship_filled"]
    back = Game.from_record(rec, trusted=True)
    assert back.state.station("Ben").blocked == set()
    assert any("is lost" in line.rule for line in back.state.players["Ana"].ledger)
    with pytest.raises(IllegalAction) as e:
        Game.from_record(json.loads(json.dumps(rec)))
    assert e.value.rule == "spaceship" and "on its way to that space" in str(e.value)
    # with the option the table played (the spaceship is lost), the file reads
    assert from_a_file(old).state.station("Ben").blocked == set()


def test_a_spaceship_whose_space_is_built_on_is_refused_by_default_and_never_offered():
    """R 3: "When a card's ability requires you to put a Spaceship in a player's
    Station, take a Spaceship token and place it on an empty space adjacent to an
    existing card in that Station."  With no option named (the default), an entry
    that would leave Ana's waiting spaceship without its space is refused, not
    silently lost; and the legality queries offer Ben only what push accepts."""
    g = Game({"players": PLAYERS, "options": {"spaceships": True}}, cards=FIX)
    assert "spaceship_filled" not in g.setup.options
    g.push(act("Ana", "build", "Fixture: shipyard", at=[0, 1],
               spaceships=[{"player": "Ben", "at": [0, 2]}]))
    for cell in ([0, 2], [1, 0]):          # on its space; next to it no card is left
        with pytest.raises(IllegalAction) as e:
            g.push(act("Ben", "build", "Fixture: plain", at=cell))
        assert e.value.rule in ("spaceship", "spaceships")
    with pytest.raises(IllegalAction):
        g.push(act("Ben", "discard"))       # Ben builds nothing: [0, 2] stays next to no card
    assert len(g.actions) == 1              # nothing refused was stored
    # the queries: only [0, 1] keeps [0, 2] next to a card of Ben's
    assert g.legal_cells("Ben", "Fixture: plain") == [(0, 1)]
    assert g.legal_cells("Ben", do="reactor") == [(0, 1)]
    actions = g.legal_actions("Ben", "Fixture: plain")
    assert [a.kind for a in actions] == ["build", "reactor"]
    for a in actions:
        assert g.is_legal(a), g.why_illegal(a)
    assert not g.is_legal(act("Ben", "discard"))
    # Cy's station is not aimed at: everything stays open to her
    assert g.is_legal(act("Cy", "discard"))
    assert len(g.legal_cells("Cy", "Fixture: plain")) == 4
    g.push(act("Ben", "build", "Fixture: plain", at=[0, 1]))
    g.push(act("Cy", "discard"))
    assert g.state.station("Ben").blocked == {(0, 2)}


# ------------------------------------------------------------ advisors (R 4, R 5)
def advisor_game(ab_actions=("discard",)) -> Game:
    tiles = [{"name": "AB", "between": ["Ana", "Ben"], "actions": list(ab_actions), "slots": 1},
             {"name": "BC", "between": ["Ben", "Cy"], "actions": ["reactor"], "slots": 1},
             {"name": "CA", "between": ["Cy", "Ana"], "actions": ["reactor"], "slots": 1}]
    return Game({"players": PLAYERS, "options": {"advisors": tiles}}, cards=FIX)


def both_discard(g: Game, first: str) -> None:
    """Turn 2: Ana and Ben both discard (moving AB), typed with ``first`` first; then Cy."""
    for p in (first, "Ben" if first == "Ana" else "Ana"):
        g.push(act(p, "discard"))
    g.push(act("Cy", "discard"))


@pytest.mark.parametrize("ben_first", [True, False])
def test_advisor_moves_in_one_turn_go_by_vp_not_typing_order(ben_first):
    """B Playing Order (R 5: "like move an Advisor"): "Whenever 2 or more players
    want to do something at the same time ... The player with the highest score
    goes first".  Turn 1: Ana builds (2 VP, 9 credits), Ben discards (AB to his
    nearest slot, 1 VP, 13 credits).  Turn 2 both discard: Ana (more VP, fewer
    credits) moves AB first, to the middle (+1); then Ben pulls it back (+1)."""
    g = advisor_game()
    g.push(act("Ana", "build", "Fixture: plain", at=[0, 1]))
    g.push(act("Ben", "discard"))
    g.push(act("Cy", "discard"))
    assert g.state.advisors["AB"] == 1
    assert [(g.state.players[p].vp, g.state.players[p].credits) for p in ("Ana", "Ben")] \
        == [(2, 9), (1, 13)]
    both_discard(g, first="Ben" if ben_first else "Ana")
    # Ben first would leave AB at +1 (he cannot move it) and give Ana alone the VP
    assert g.state.advisors["AB"] == 1
    assert (g.state.players["Ana"].vp, g.state.players["Ben"].vp) == (3, 2)
    again = replayed(g)
    assert again.state.advisors == g.state.advisors
    assert again.score().to_json() == g.score().to_json()


@pytest.mark.parametrize("ana_first", [True, False])
def test_advisor_moves_with_equal_vp_go_by_credits(ana_first):
    """B Playing Order: "If both players are on the same spot, then the one with
    the most credits goes first".  Turn 1: Ana builds a 1 VP card (9 credits), Ben
    discards (AB to his nearest slot, 1 VP, 13 credits).  Turn 2 both discard:
    equal VP, Ben has more credits and goes first (cannot move it), then Ana moves
    it to the middle (+1)."""
    g = advisor_game()
    g.push(act("Ana", "build", "Fixture: one vp", at=[0, 1]))
    g.push(act("Ben", "discard"))
    g.push(act("Cy", "discard"))
    assert [(g.state.players[p].vp, g.state.players[p].credits) for p in ("Ana", "Ben")] \
        == [(1, 9), (1, 13)]
    both_discard(g, first="Ana" if ana_first else "Ben")
    assert g.state.advisors["AB"] == 0
    assert (g.state.players["Ana"].vp, g.state.players["Ben"].vp) == (2, 1)
    assert replayed(g).state.advisors == g.state.advisors


def test_advisor_tiles_one_per_player_between_neighbours():
    """R 4: "take randomly as many as the number of players"; "When playing with
    3 or more players, place one randomly between each player and the player on
    his left"; "In a 2 player game they are both placed somewhere between the 2
    players"."""
    def tile(name, a, b):
        return {"name": name, "between": [a, b], "actions": ["discard"], "slots": 1}

    with pytest.raises(IllegalAction) as e:            # 2 tiles for 3 players
        Game({"players": PLAYERS,
              "options": {"advisors": [tile("AB", "Ana", "Ben"), tile("BC", "Ben", "Cy")]}})
    assert e.value.rule == "advisor-tiles" and "as many as the number of players" in str(e.value)
    four = ["Ana", "Ben", "Cy", "Dee"]
    wrong = [tile("AC", "Ana", "Cy"), tile("BC", "Ben", "Cy"), tile("CD", "Cy", "Dee"),
             tile("DA", "Dee", "Ana")]
    with pytest.raises(IllegalAction) as e:            # Ana and Cy do not sit side by side
        Game({"players": four, "options": {"advisors": wrong}})
    assert e.value.rule == "advisor-tiles" and "'AC'" in str(e.value)
    ok = [tile("AB", "Ana", "Ben")] + wrong[1:]
    Game({"players": four, "options": {"advisors": ok}})
    two = Game({"players": ["Ana", "Ben"], "options": {"advisors": [
        tile("T1", "Ana", "Ben"), tile("T2", "Ben", "Ana")]}})
    assert set(two.state.advisors) == {"T1", "T2"}
    # a record stored before the check (2 tiles for 3 players) still opens and replays
    # from the store; from a file it is refused with the same rule, unless it says it
    # takes the tiles on trust (issue 36)
    old = Game({"players": PLAYERS, "options": {"advisors": [
        tile("AB", "Ana", "Ben"), tile("BC", "Ben", "Cy")]}}, book_setup=False)
    for p in PLAYERS:
        old.push(act(p, "discard"))
    assert replayed(old).state.advisors == old.state.advisors
    assert replayed(old).score().to_json() == old.score().to_json()
    with pytest.raises(IllegalAction) as e:
        from_a_file(old)
    assert e.value.rule == "advisor-tiles" and "2 Influence tile(s) for 3 players" in str(e.value)
    assert from_a_file(old, on_trust=["advisor-tiles"]).state.advisors == old.state.advisors


def test_objectives_as_many_as_players_and_two_with_two_players():
    """B 3: "randomly draw as many Objectives as the number of players"; B 8 (2
    players): "only 2 Objective Cards are drawn"."""
    objs = [fixture_objective(f"Fixture: objective {i}", vp=5, most={"per": "credit"})
            for i in range(1, 5)]
    names = [o["name"] for o in objs]

    def new(setup, **kw):                     # every game knows the fixture objectives
        return Game(setup, cards=objs, **kw)

    with pytest.raises(IllegalAction) as e:
        new({"players": PLAYERS, "objectives": names[:1]})
    msg = str(e.value)
    assert e.value.rule == "objectives" and "1 objective(s) named for 3 players" in msg
    assert "add the missing ones" in msg and "without objectives" in msg
    with pytest.raises(IllegalAction) as e:
        new({"players": ["Ana", "Ben"], "objectives": names[:3]})
    assert e.value.rule == "objectives" and "only 2 Objective Cards are drawn" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        new({"players": ["Ana", "Ben"], "objectives": [names[0], names[0]]})
    assert e.value.rule == "objectives" and "twice" in str(e.value)
    assert new({"players": ["Ana", "Ben"], "objectives": names[:2]}).setup.objectives \
        == names[:2]
    assert new({"players": PLAYERS, "objectives": names[:3]}).setup.objectives == names[:3]
    assert new({"players": PLAYERS}).setup.objectives == []       # without the module
    # a record stored with fewer objectives still opens from the store; from a file it
    # is refused, unless it says it names only some (the base rulebook's worked example)
    old = new({"players": PLAYERS, "objectives": names[:1]}, book_setup=False)
    assert replayed(old).setup.objectives == names[:1]
    with pytest.raises(IllegalAction) as e:
        from_a_file(old)
    assert e.value.rule == "objectives" and "1 objective(s) named for 3 players" in str(e.value)
    assert from_a_file(old, on_trust=["objectives"]).setup.objectives == names[:1]
    # B 3: "Put these cards face up on the table": a secret objective is another card
    with pytest.raises(IllegalAction, match="secret objective 'Fixture: objective 1' is one "
                       "of the objectives face up") as e:
        new({"players": PLAYERS, "objectives": names[:3], "races": {"Cy": "Qualeen"},
             "secret_objectives": {"Cy": names[0]}})
    assert e.value.rule == "objectives"
    assert new({"players": PLAYERS, "objectives": names[:3], "races": {"Cy": "Qualeen"},
                "secret_objectives": {"Cy": names[3]}}).setup.secret_objectives == \
        {"Cy": names[3]}


def test_the_new_rule_codes_are_registered():
    for code in ("advisor-tiles", "objectives", "spaceships"):
        assert Rule(code).value == code
