"""Among the Stars, the modes and the round's end: Conflict cards (aggressive mode,
B 7), the virtual seats of the base 2-player game (B 8), the Revival timing rules
(R 5) and advisors (R 4), and the round-end check that removes the locations a
station must lose (B 5).

The handlers (:func:`conflict`, :func:`virtual_seat`, :func:`advisor_claim`,
:func:`remove`) apply one entry of their kind; the rest are queries of a state.
"""
from __future__ import annotations

from typing import Any, Protocol

from ..core import chance
from ..core import notation as nt
from ..core.errors import IllegalAction
from .abilitykinds import ability_kind
from .catalogue import Card, Catalogue
from .setup import CONFLICT_COST, VIRTUAL_SEATS
from .spaceships import clean_spaceships
from .state import Pending, PlayerState, State, Step, at_round_end, gain
from .station import LOCATION, PLACEHOLDER, Cell, Placed, as_cell


class GameView(Protocol):
    """What :func:`round_end_report` reads of a game."""
    catalogue: Catalogue
    state: State


def location_card(catalogue: Catalogue, name: str | None) -> Card:
    """The location (or Conflict) card called ``name``; IllegalAction (unknown-card)
    naming the closest names if there is none."""
    c = catalogue.get(str(name))
    if c is None or c.category not in ("location", "conflict"):
        sug = catalogue.suggest(str(name)) if c is None else []
        hint = f"; did you mean {', '.join(sug)}?" if sug else ""
        raise IllegalAction("unknown-card", f"no location card called '{name}'{hint}",
                            action={"card": name})
    return c


def check_effects(effects: Any, state: State, a: dict[str, Any]) -> None:
    """Effects typed at the table: ``{"vp": {player: change}, "credits": {player: change}}``."""
    if not (isinstance(effects, dict) and set(effects) <= {"vp", "credits"} and all(
            isinstance(v, dict) and all(p in state.players and isinstance(n, int)
                                        and not isinstance(n, bool) for p, n in v.items())
            for v in effects.values())):
        raise IllegalAction("malformed", "effects is {\"vp\": {player: change}, "
                            "\"credits\": {player: change}}", action=a)


# -- Aggressive mode (B 7) ----------------------------------------------------------------
def conflict(step: Step, ps: PlayerState, card: Card) -> None:
    """``do: conflict``: apply a Conflict card (1 credit); its effects resolve with
    the turn's other effects."""
    state, a = step.state, step.a
    for k in ("at", "energy_from"):
        a.pop(k, None)
    if state.setup.mode != "aggressive":
        raise IllegalAction("conflict", "Conflict cards are played in aggressive mode only",
                            action=a)
    if card.category != "conflict":
        raise IllegalAction("conflict", f"'{card.name}' is not a Conflict card", action=a)
    if state.year < state.setup.conflict_year:
        raise IllegalAction("conflict-year", f"Conflict cards join the deck in year "
                            f"{state.setup.conflict_year}", action=a)
    if ps.credits < CONFLICT_COST:
        raise IllegalAction("conflict", f"applying a Conflict costs {CONFLICT_COST} credit; "
                            f"{ps.name} has none", action=a)
    effects = a.get("effects")
    manual = any(ability_kind(ab).typed for ab in card.abilities or ())
    if effects is None and manual:
        raise IllegalAction("manual-vp", "type what the Conflict did: effects = {\"vp\": "
                            "{player: change}, \"credits\": {player: change}}", action=a)
    effects = effects or {}
    check_effects(effects, state, a)
    ps.credits -= CONFLICT_COST
    state.discards.append(card.name)
    state.pending.append(Pending(ps.name, "conflict", card.name, None,
                                 {ab_i: ab for ab_i, ab in enumerate(card.abilities or ())},
                                 step.index, dict(effects)))


# -- the base 2-player game's virtual seats (B 8) ------------------------------------------
def virtual_seat(step: Step) -> None:
    """``do: virtual``: a virtual seat's hand loses one card to the face-up pile."""
    state, a = step.state, step.a
    check_round_end_settled(step.catalogue, state, a, step.strict)
    seat = a.get("seat")
    if seat not in state.setup.virtual_seats:
        raise IllegalAction("virtual-seat", "virtual seats are used in the base 2-player "
                            f"game only; they are {', '.join(VIRTUAL_SEATS)}", action=a)
    if seat in state.virtual_done:
        raise IllegalAction("virtual-seat", f"{seat} has already lost its card this turn",
                            action=a)
    name = a.get("card")
    try:
        a["card"] = location_card(step.catalogue, name if isinstance(name, str) else "").name
    except IllegalAction as e:
        raise IllegalAction(e.rule, e.detail, action=a) from None
    state.virtual_done.append(seat)
    state.face_up.append(a["card"])


# -- the timing rules (R 5) -----------------------------------------------------------------
def drawn_turn_order(state: State) -> list[str]:
    """Timing rules: this turn's order, most VP first, then most credits; players who
    tie on both in an order drawn from the game's seed and the turn
    (``chance.rng(seed, "turn-order", year, turn)``): the same on every page, after a
    reload and in a replay, until an action stores it (``turn_order``)."""
    if state.turn_order:
        return list(state.turn_order)
    players = list(state.setup.players)
    key = {p: (state.players[p].vp, state.players[p].credits) for p in players}
    shuffled = players[:]
    chance.rng(state.setup.draw_seed, "turn-order", state.year, state.turn).shuffle(shuffled)
    return sorted(shuffled, key=lambda p: key[p], reverse=True)    # stable: drawn within ties


def timing_order(step: Step) -> None:
    """The turn's first action fixes its order (stored as ``turn_order`` when players
    tie); every action must come in that order."""
    state, a = step.state, step.a
    if not state.acted:              # the turn's first action fixes the order
        players = list(state.setup.players)
        key = {p: (state.players[p].vp, state.players[p].credits) for p in players}
        given = a.get("turn_order")
        if len(set(key.values())) == len(players):
            order = sorted(players, key=lambda p: key[p], reverse=True)
            a.pop("turn_order", None)
        elif given is not None:
            if not (isinstance(given, list) and sorted(map(str, given)) == sorted(players)
                    and all(key[x] >= key[y] for x, y in zip(given, given[1:]))):
                raise IllegalAction("timing", "turn_order must list every player, most VP "
                                    "first, then most credits", action=a)
            order = list(given)
        elif step.strict or step.draw_order is None:
            raise IllegalAction("timing", "players tie on VP and credits: the record must "
                                "store the random order used (turn_order)", action=a)
        else:
            order = step.draw_order(state)
            a["turn_order"] = order
        state.turn_order = order
    else:
        a.pop("turn_order", None)
    nxt = state.turn_order[len(state.acted)]
    if a["player"] != nxt:
        raise IllegalAction("timing", f"this turn the order is {', '.join(state.turn_order)}: "
                            f"{nxt} acts next", action=a)


# -- advisors (R 4) ----------------------------------------------------------------------
def tiles(state: State) -> list[dict[str, Any]]:
    """The Influence tiles in play (setup.options.advisors)."""
    return state.setup.options.get("advisors") or []


def influenced(state: State, player: str, card: Card, a: dict[str, Any]) -> list[dict[str, Any]]:
    """The tiles next to ``player`` that list the action ``a`` (R 4: "If the action
    performed was one of those listed there")."""
    kinds = {a["do"]}
    if a["do"] == "build":
        kinds |= {f"build:{x}" for x in (card.types or ())}
    return [t for t in tiles(state) if player in t["between"] and kinds & set(t["actions"])]


def influence(state: State, player: str, card: Card, a: dict[str, Any], index: int) -> None:
    """An action moves the advisor of each tile next to ``player`` that lists it.

    In simultaneous play the move waits for the turn's end (:func:`move_advisors`):
    two players who move one advisor in the same turn "want to do something at the
    same time", and "the player with the highest score goes first" (B Playing Order;
    R 5: "like move an Advisor"), whoever was typed first.  With the timing rules the
    players act in that order already; in the Revival 2-player game they play
    consecutively (R 5): the advisor moves at once."""
    for t in influenced(state, player, card, a):
        if state.setup.timing_rules or state.setup.consecutive:
            move_advisor(state, player, t, index)
        else:
            state.advisor_moves.append((player, t["name"], index))


def move_advisor(state: State, player: str, t: dict[str, Any], index: int) -> None:
    """R 4: "he moves the corresponding Advisor marker to the next slot towards himself
    on the Influence tile and gains 1 VP. If it is already on the nearest slot and
    cannot move any further, it stays where it is and no VP is gained."
    """
    step = -1 if player == t["between"][0] else 1
    pos = state.advisors[t["name"]] + step
    if abs(pos) > t["slots"]:
        return                        # already at the nearest slot: no move, no VP
    state.advisors[t["name"]] = pos
    rule = f"moved the advisor of '{t['name']}' towards {player} (R 4)"
    if state.setup.timing_rules:      # on the track at the player's step 4 (R 5)
        state.pending.append(Pending(player, "gain", t["name"], None,
                                     {"vp": 1, "category": "advisor", "rule": rule},
                                     index))
    else:
        gain(state, player, 1, "advisor", t["name"], None, rule, index)


def advisor_order(state: State) -> list[str]:
    """The order this turn's advisor moves are made in (simultaneous play): most VP
    first, then most credits (B Playing Order: "The player with the highest score
    goes first ... If both players are on the same spot, then the one with the most
    credits goes first"), then "chosen randomly": a draw from the game's seed and the
    turn (``chance.rng(seed, "advisor-order", year, turn)``), the same in every
    replay.  Scores as they stand after every player's action, before the moves."""
    players = list(state.setup.players)
    key = {p: (state.players[p].vp, state.players[p].credits) for p in players}
    shuffled = players[:]
    chance.rng(state.setup.draw_seed, "advisor-order", state.year, state.turn).shuffle(shuffled)
    return sorted(shuffled, key=lambda p: key[p], reverse=True)    # stable: drawn within ties


def move_advisors(state: State, only: str | None = None) -> None:
    """Make this turn's advisor moves (:func:`influence`), in :func:`advisor_order`;
    ``only``: just that player's (a what-if trial whose turn does not end)."""
    moves = [m for m in state.advisor_moves if only is None or m[0] == only]
    if not moves:
        return
    by_name = {t["name"]: t for t in tiles(state)}
    rank = {p: i for i, p in enumerate(advisor_order(state))}
    for player, name, index in sorted(moves, key=lambda m: (rank[m[0]], m[2])):
        move_advisor(state, player, by_name[name], index)
    state.advisor_moves = [m for m in state.advisor_moves if m not in moves]


def leaning(state: State) -> dict[str, str]:
    """tile -> the player its advisor leans to now (tiles in the middle left out)."""
    out = {}
    for t in tiles(state):
        pos = state.advisors[t["name"]]
        if pos:
            out[t["name"]] = t["between"][0] if pos < 0 else t["between"][1]
    return out


def unsettled_advisors(state: State) -> dict[str, str]:
    """At a round's end: tiles whose bonus has not been taken or declined yet."""
    if not at_round_end(state):
        return {}
    return {k: v for k, v in leaning(state).items() if k not in state.advisor_claims}


def advisor_claim(step: Step) -> None:
    """``do: advisor``: at a round's end the player an advisor leans to takes its
    bonus (typed effects) or declines it for 1 VP."""
    state, a = step.state, step.a
    open_ = unsettled_advisors(state)
    tile = a.get("tile")
    if not isinstance(tile, str):       # the record's edge: one line, never a TypeError
        raise IllegalAction("advisor", "name the Influence tile (open: "
                            f"{', '.join(open_) or 'none'})" if tile is None else
                            f"tile is the Influence tile's name (a text), not "
                            f"{nt.compact(tile)[:60]}", action=a)
    if tile not in open_:
        raise IllegalAction("advisor", f"no advisor to settle on tile {tile!r} now "
                            f"(open: {', '.join(open_) or 'none'})", action=a)
    if a.get("player") != open_[tile]:
        raise IllegalAction("advisor", f"the advisor of '{tile}' leans to {open_[tile]}",
                            action=a)
    take = a.get("take")
    if take not in ("bonus", "decline"):
        raise IllegalAction("advisor", "take is 'bonus' or 'decline' (1 VP)", action=a)
    state.advisor_claims.append(tile)
    if take == "decline":
        gain(state, a["player"], 1, "advisor", tile, None,
             "declined the advisor's bonus for 1 VP (R 4)", state.index)
        return
    effects = a.get("effects") or {}
    check_effects(effects, state, a)
    for who, n in (effects.get("vp") or {}).items():
        gain(state, who, n, "advisor", tile, None,
             f"advisor's bonus of '{tile}' (typed at the table)", state.index)
    for who, n in (effects.get("credits") or {}).items():
        state.players[who].credits = max(0, state.players[who].credits + n)


# -- the round's end (B 5) -------------------------------------------------------------
def round_end_violations(catalogue: Catalogue, state: State) -> list[dict[str, Any]]:
    """Every rule each station breaks now, all at once (B 5 round-end check).

    Each entry: player, rule, cells (the locations involved), message.
    """
    out = []
    for p in state.setup.players:
        st = state.players[p].station
        by_card: dict[str, list[Cell]] = {}
        for cell, placed in sorted(st.cells.items()):
            if placed.kind == LOCATION and placed.card:
                by_card.setdefault(placed.card, []).append(cell)
        for name, cells in by_card.items():
            card = catalogue.get(name)
            limit = card.limit if card is not None and card.max not in (None, "none") else None
            if limit is not None and len(cells) > limit:
                out.append({"player": p, "rule": "max", "cells": [list(c) for c in cells],
                            "message": f"{p}'s station has {len(cells)} '{name}' (MAX {limit}): "
                                       f"remove {len(cells) - limit}"})
        if not st.is_connected():
            out.append({"player": p, "rule": "not-adjacent", "cells": [],
                        "message": f"{p}'s station is split in two"})
    return out


def round_end_report(game: GameView, state: State | None = None) -> list[dict[str, Any]]:
    """Every rule each station of ``game`` (in ``state``, default now) breaks, all at
    once (B 5 round-end check): :func:`round_end_violations`."""
    return round_end_violations(game.catalogue, state if state is not None else game.state)


def round_end_due(catalogue: Catalogue, state: State) -> list[dict[str, Any]]:
    """At a round's end: :func:`round_end_violations` (what the stations break, to fix
    with ``remove`` entries before the next round begins, B 5).  Empty during a
    round: a violation found mid-round is fixed at the round's end."""
    return round_end_violations(catalogue, state) if at_round_end(state) else []


def check_round_end_settled(catalogue: Catalogue, state: State, a: dict[str, Any],
                            strict: bool = False) -> None:
    """The round that ended must be settled before the next one begins: its
    advisors (R 4), and (for a new entry) a station that breaks a rule (B 5).  A
    replayed record keeps a violation it did not fix (entered after the fact, or a
    card's MAX corrected since, as the over-limit build itself is kept): it is
    reported, and fixed at the next round's end or before the final scoring."""
    open_ = unsettled_advisors(state)
    if open_:
        raise IllegalAction("advisor", "first settle the advisors of the round that ended: "
                            + ", ".join(f"'{k}' ({v} takes the bonus or declines it)"
                                        for k, v in open_.items()), action=a)
    broken = [] if strict else round_end_due(catalogue, state)
    if broken:
        raise IllegalAction("round-end", "before the next round begins, a station that breaks "
                            "a rule loses locations until it is valid (B 5): "
                            + "; ".join(b["message"] for b in broken), action=a)


def remove(step: Step) -> None:
    """``do: remove``, the round-end fix (B 5): remove a location that makes the
    station break a rule; its owner loses the VP it gave when built; no credits back."""
    state, a = step.state, step.a
    player = a.get("player")
    if not isinstance(player, str) or player not in state.players:
        raise IllegalAction("wrong-player", f"'{player}' is not a player in this game", action=a)
    try:
        cell = as_cell(a.get("at"))
    except ValueError as e:
        raise IllegalAction("malformed", str(e), action=a) from None
    a["at"] = list(cell)
    if not at_round_end(state):
        raise IllegalAction("round-end", "a location that breaks a rule is removed at the "
                            "round's end (B 5: \"Before beginning the next round\"): after the "
                            "year's last turn, before the next year's first action", action=a)
    st = state.players[player].station
    placed = st.cells.get(cell)
    broken = {tuple(c) for v in round_end_violations(step.catalogue, state)
              if v["player"] == player for c in v["cells"]}
    if placed is None or placed.kind != LOCATION or placed.card is None or cell not in broken:
        raise IllegalAction("round-end", f"{list(cell)} is not a location that makes "
                            f"{player}'s station break a rule", action=a)
    a["card"] = placed.card
    lines = [line for line in state.players[player].ledger
             if line.cell == cell and line.source == placed.card
             and line.category in ("printed", "ability", "manual")]
    lost = sum(line.vp for line in lines)
    why = "the VP it gave when built"
    if not lines:          # a laid card: no line of its build (B 5, ruling in docs/rules.md)
        lost, why = laid_loss(step.catalogue.get(placed.card))
    st.remove(cell)
    if not st.is_connected():
        st.place(cell, Placed(PLACEHOLDER, year=state.year, turn=state.turn))
    clean_spaceships(st)
    gain(state, player, -lost, "removal", placed.card, cell,
         f"removed at round end (B 5): loses {why}", state.index)


def laid_loss(card: Card | None) -> tuple[int, str]:
    """What a laid location removed at a round's end costs its owner (B 5: "The player
    also loses the VPs he gained when he built the cards just removed ... If for some
    reason the VPs cannot be calculated, the player loses the amount listed on the card,
    plus 3").  A laid card has no line of its build; what it gave can still be
    calculated when its printed VP is known and no ability of its own gave VP when it
    was built (none ``immediate`` that counts or is typed): it gave its printed VP, as a
    build's own lines count (printed, its abilities; a race's or advisor's VP is never a
    line of the build).  Otherwise (an immediate VP ability read the station as it was
    then, or the card's values are unknown) printed VP + 3.  ``(lost, why)``."""
    vp = card.vp if card is not None else None
    gives = card is None or card.abilities is None or any(
        ab.when == "immediate" and (ability_kind(ab).evaluate is not None
                                    or ability_kind(ab).typed) for ab in card.abilities)
    if vp is not None and not gives:
        return vp, ("its printed VP (laid: a card with no ability giving VP when built "
                    "gave its printed VP)")
    return (vp or 0) + 3, ("its printed VP + 3 (laid: the VP it gave when built cannot be "
                           "calculated, B 5)")
