"""Among the Stars, the turn flow (B 3-5): who may act now, applying one entry of the
record through the handler of its kind, and the end of a turn and of a year (the
effects that wait resolve, +10 credits, the cards pass on).

:func:`apply` is the one entry point: it checks what every action shares (the
player, the year and turn, the round end settled, the order the modes ask for, the
card), then calls the handler in :data:`TURN_ACTIONS` (a player's action for the
turn) or :data:`SIDE_ENTRIES` (entries that are not one), then ends the turn when
everyone has acted.
"""
from __future__ import annotations

from typing import Any, Callable

from ..core.errors import IllegalAction
from .build import build_location, build_reactor, discard
from .catalogue import Card, Catalogue
from .effects import resolution_order, resolve, resolve_all
from .lay import lay
from .modes import (advisor_claim, check_round_end_settled, conflict, influence, location_card,
                    move_advisors, remove, timing_order, virtual_seat)
from .setup import ACTION_KEYS, ACTIONS, SIDE_ENTRIES, START_CREDITS, YEARS
from .spaceships import check_waiting_ships, remove_spaceships
from .state import PlayerState, State, Step, turn_complete

#: a player's action for the turn: (the entry, its player's state, the card selected)
TurnHandler = Callable[[Step, PlayerState, Card], None]
#: an entry that is not a player's action for the turn
SideHandler = Callable[[Step], None]

TURN_ACTIONS: dict[str, TurnHandler] = {
    "build": build_location,
    "reactor": build_reactor,
    "discard": discard,
    "conflict": conflict,
    "remove_spaceships": remove_spaceships,
}
SIDE_HANDLERS: dict[str, SideHandler] = {
    "virtual": virtual_seat,
    "advisor": advisor_claim,
    "remove": remove,
    "lay": lay,
}
assert tuple(TURN_ACTIONS) == ACTIONS and set(SIDE_HANDLERS) == set(SIDE_ENTRIES)


def apply(catalogue: Catalogue, state: State, action: Any, *, strict: bool,
          end_turn: bool = True,
          draw_order: Callable[[State], list[str]] | None = None,
          outside: bool = False) -> dict[str, Any]:
    """Check and apply one entry to ``state`` (changed in place).  Returns it
    normalised; raises IllegalAction (and ``state`` must then be dropped)."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed", "an action must be an object")
    a = dict(action)
    extra = () if ACTION_KEYS.issuperset(a) else set(a) - ACTION_KEYS
    if extra:
        raise IllegalAction("malformed", f"unknown key '{sorted(extra)[0]}' in the action",
                            action=a)
    step = Step(catalogue, state, a, strict, end_turn, draw_order, outside)
    do = a.get("do")
    if state.setup.options.get("laid") and do != "lay" and not state.finished \
            and len(state.laid) < len(state.players):
        raise IllegalAction("lay", "this game is laid from the table (setup.options.laid): "
                            "lay every player's station first (still to lay: "
                            + ", ".join(p for p in state.setup.players if p not in state.laid)
                            + ")", action=a)
    if do in SIDE_ENTRIES:              # tuples: ``do`` may be any JSON value here
        return side_entry(step, SIDE_HANDLERS[do])
    if do not in ACTIONS:
        raise IllegalAction("malformed", f"'do' must be one of "
                            f"{', '.join(ACTIONS + SIDE_ENTRIES)}, not {do!r}", action=a)
    ps, card = turn_action(step)
    TURN_ACTIONS[do](step, ps, card)
    ps.last = a
    state.acted.append(ps.name)
    if state.setup.options.get("advisors"):     # Influence tiles in play (R 4)
        influence(state, ps.name, card, a, step.index)
    if step.boxed:          # a new entry: every spaceship on its way still has its space
        check_waiting_ships(state, a)
    state.index += 1
    if state.setup.consecutive and state.pending:
        # Revival 2-player rules: the action resolves in full, abilities included,
        # before the other player chooses (R 2.2, R 5)
        try:
            resolve_all(catalogue, state, state.pending, not step.boxed)
        except IllegalAction as e:
            raise e.with_action(a)
        state.pending = []
    if end_turn and turn_complete(state):
        try:
            end_of_turn(step)
        except IllegalAction as e:
            raise e.with_action(a)
    return a


def turn_action(step: Step) -> tuple[PlayerState, Card]:
    """What every player's action checks first: the game goes on, the player is in it
    and has not acted this turn, it is this year and turn, the round that ended is
    settled, the player comes in the order the modes ask for (timing rules, Revival
    2-player active player), and the card selected is a location or Conflict card
    (its name normalised)."""
    state, a = step.state, step.a
    player = a.get("player")
    if state.finished:
        raise IllegalAction("game-over", "the game has ended after year 4", action=a)
    if not isinstance(player, str) or player not in state.players:
        raise IllegalAction("wrong-player", f"'{player}' is not a player in this game", action=a)
    year, turn = a.setdefault("year", state.year), a.setdefault("turn", state.turn)
    if year != state.year or turn != state.turn:
        raise IllegalAction("wrong-turn",
                            f"it is year {state.year}, turn {state.turn}, not year {year}, turn {turn}",
                            action=a)
    if player in state.acted:
        raise IllegalAction("wrong-player",
                            f"{player} has already acted in year {year}, turn {turn}", action=a)
    if not step.strict or state.setup.options.get("advisors"):
        # a replay without Influence tiles has nothing to settle (no advisor; a
        # station that breaks a rule is kept and reported)
        check_round_end_settled(step.catalogue, state, a, step.strict)
    if state.setup.options.get("timing_rules"):
        timing_order(step)
    active = state.setup.active_player(state.year)
    if active is not None and player != active and active not in state.acted:
        raise IllegalAction("revival-order", f"{active} is the active player in year "
                            f"{state.year} and acts first", action=a)
    name = a.get("card")
    if not isinstance(name, str) or not name.strip():
        raise IllegalAction("malformed", "name the card that was selected", action=a)
    try:
        card = location_card(step.catalogue, name)
    except IllegalAction as e:      # name the whole action (player, cell), not just the card
        raise IllegalAction(e.rule, e.detail, action=a) from None
    a["card"] = card.name
    return state.players[player], card


def side_entry(step: Step, handler: SideHandler) -> dict[str, Any]:
    """An entry that is not a player's action for the turn (virtual seat, advisor,
    round-end removal): entered for the current year and turn."""
    state, a = step.state, step.a
    if a["do"] == "lay":                # a station as it lies: no year or turn (issue 39)
        if state.finished:
            raise IllegalAction("game-over", "the game has ended after year 4", action=a)
        handler(step)
        state.index += 1
        return a
    # the round-end fix of year 4 comes after the last turn: allowed once the game is over
    if state.finished and a["do"] not in ("remove", "advisor"):
        raise IllegalAction("game-over", "the game has ended after year 4", action=a)
    year, turn = a.setdefault("year", state.year), a.setdefault("turn", state.turn)
    if year != state.year or turn != state.turn:
        raise IllegalAction("wrong-turn", f"it is year {state.year}, turn {state.turn}, not "
                            f"year {year}, turn {turn}", action=a)
    handler(step)
    state.index += 1
    if step.end_turn and not state.finished and turn_complete(state):
        try:
            end_of_turn(step)
        except IllegalAction as e:
            raise e.with_action(a)
    return a


def end_of_turn(step: Step) -> None:
    """Everyone has acted: the effects that wait resolve (:func:`resolution_order`),
    the next turn begins; after a year's last turn the next year (+10 credits each),
    after year 4 the game is finished."""
    state = step.state
    move_advisors(state)              # R 4 / B Playing Order: in score order
    if state.pending:
        order = resolution_order(state, step.a, step.strict)
        for owner in order:
            for p in [p for p in state.pending if p.owner == owner]:
                resolve(step.catalogue, state, p, not step.boxed)
        state.pending = []
    state.acted = []
    state.virtual_done = []
    state.turn_order = []
    state.turn += 1
    if state.turn > state.setup.turns_in_year(state.year):
        state.advisor_claims = []
    if state.turn > state.setup.turns_in_year(state.year):
        state.turn = 1
        state.year += 1
        if state.year > YEARS:
            state.finished = True
            state.year = YEARS
            state.turn = state.setup.turns_in_year(YEARS)
        else:
            for ps in state.players.values():
                ps.credits += START_CREDITS
