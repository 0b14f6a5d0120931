"""Among the Stars, a position laid from the table (issue 39, "Score the table as it
lies"): a ``lay`` entry gives one player's station as it lies, with the credits in
front of the player and the VP of the score track, instead of every action from the
first.  A game whose setup says ``options.laid: "final"`` holds one ``lay`` entry per
player, before any other action; once every station is laid the game is at its end
and :mod:`companion.ats.scoring` gives the final table (B 6) as for a game entered
turn by turn.  The VP during the game are the track's, typed: the companion cannot
check them.

The entry::

    {"do": "lay", "player": "Ana",
     "cells": [{"at": [0, 0], "reactor": true, "cubes": 0},
               {"at": [0, 1], "card": "Garden"},
               {"at": [1, 0], "reactor": true, "cubes": 1}],
     "credits": 7, "vp": 23, "spaceships": [[2, 2]]}

A game *under way* says ``options.laid: "now"`` and ``options.laid_at: {"year": Y,
"turn": T}`` (:meth:`~companion.ats.setup.Setup.check_laid_at`): the position is laid
at the start of year Y's turn T, every player still to act.  The state stands at that
year and turn from the start (:meth:`~companion.ats.state.State.initial`), each entry
lays its station as for a final position (the same checks), and once every station is
laid the game goes on action by action with every rule checked, exactly as if entered
from the start: builds adjacent, energy through built locations, credits, MAX, the
copies (the laid stations' counted), the reactor supply (less the laid reactors), the
year's end (+10 credits, B 4), the round's end (B 5) and the final scoring after year 4
(B 6), the track's VP kept as the line "from the score track, typed".  ``credits`` is
what lies in front of the player now: at a year's first turn, the year's 10 included
("At the beginning of every round, each player should: Take 10 credits").

What a laid-now game cannot know, and does not invent: the hands and the deck are not
kept by the engine at all (each action names the card selected, and a card is checked
for what it is, never against a hand); the discard pile (``State.discards``) and the
virtual seats' face-up pile (``State.face_up``) start empty and no rule reads them; the
VP each laid card gave when built are not known, so a laid location removed at a
round's end (B 5) loses "the amount listed on the card, plus 3" as the book says when
"the VPs cannot be calculated" (the lay checks MAX and connection, so none is due);
where the Influence tiles' advisors stand (R 4) cannot be read from a station, so
``laid: "now"`` with ``options.advisors`` is refused (enter such a game from its start).

What a final position lets the companion check, each refused with its rule code,
naming the card and the cell: the entry's shape (``malformed``), a cell given twice or
a card on the Main Reactor (``occupied``), a card in no catalogue (``unknown-card``), a
Conflict card in a station (``conflict``), more than 2 cubes on a reactor (``cubes``), a
location not connected to the Main Reactor (``not-adjacent``, B 4), a card's MAX
(``max``), the copies the box holds when typed (``copies``) and a basic location's
copies the game's deck holds (``deck-copies``: 3 with 3 players, B 3, and with the
Revival 2-player rules, R 2.1), more Power Reactors than the supply
(``reactor-supply``), the Limited Space area (``limited-space``), a spaceship not on an
empty space next to a card of the station (``spaceships``, R 3), a card needing energy
with no reactor within 2 through built locations (``energy-reach``, B 4) or more energy
than the reactors' lost cubes could have paid (``energy-spent``, B 4; a payment that
could have come from either reactor is accepted: :func:`check_energy`), and when a lay
may come (``lay``).  The same checks for a game laid "final" and "now".
"""
from __future__ import annotations

from typing import Any

import networkx as nx

from ..core.errors import IllegalAction, UnknownCardValues
from .build import copies_built, copies_refusal, deck_copies
from .modes import location_card
from .setup import ENERGY_REACH, YEARS
from .state import Step, gain
from .catalogue import Card
from .station import LOCATION, MAIN, MAIN_REACTOR, REACTOR, Cell, Placed, Station, as_cell

#: the keys of a ``lay`` entry and of each of its cells
LAY_KEYS = {"do", "player", "cells", "credits", "vp", "spaceships", "note"}
CELL_KEYS = {"at", "card", "reactor", "cubes"}
#: the cubes a reactor comes into play with (B 3, B 4: "They both come into play with 2
#: Energy Cubes on them"); no ability adds any (:func:`check_energy`)
REACTOR_CUBES = 2
#: the words of the VP line a laid station's track gives (the breakdown shows them)
TRACK_RULE = "VP during the game: from the score track, typed"
#: B 4, Build Location, the sentence the connection check quotes
ADJACENT_QUOTE = ("B 4: \"build it anywhere in your Space Station adjacent to an "
                  "already-built location\"")
#: B 4, the sentences the energy checks quote
REACH_QUOTE = ("B 4: \"This energy requirement must be paid by a location in your Space "
               "Station with Energy Cubes on it and within 2 distance ... Distance is counted "
               "through built locations, orthogonally\"")
SPENT_QUOTE = ("B 4: reactors \"come into play with 2 Energy Cubes\" and paying \"removes 1 "
               "Energy Cube\"")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 999


def _where(entry: dict[str, Any]) -> str:
    what = f"'{entry['card']}'" if "card" in entry else (
        "the Main Reactor" if tuple(entry["at"]) == MAIN else "a Power Reactor")
    return f"{what} at {list(entry['at'])}"


def _cells(a: dict[str, Any]) -> list[dict[str, Any]]:
    """The entry's cells, their shape checked (``malformed``), ``at`` as lists."""
    raw = a.get("cells")
    if not isinstance(raw, list):
        raise IllegalAction("malformed", "cells is a list of {\"at\": [row, col], \"card\": "
                            "name} and {\"at\": [row, col], \"reactor\": true, \"cubes\": n}",
                            action=a)
    out = []
    for i, c in enumerate(raw):
        if not isinstance(c, dict) or not CELL_KEYS.issuperset(c):
            raise IllegalAction("malformed", f"cells[{i}] is {{\"at\", \"card\"}} or {{\"at\", "
                                "\"reactor\": true, \"cubes\"}}", action=a)
        try:
            at = as_cell(c.get("at"))
        except ValueError as e:
            raise IllegalAction("malformed", f"cells[{i}]: {e}", action=a) from None
        if c.get("reactor") is True and "card" not in c:
            if not _whole(c.get("cubes")):
                raise IllegalAction("malformed", f"cells[{i}]: the reactor at {list(at)} needs "
                                    "its energy cubes (\"cubes\": a whole number)", action=a)
            out.append({"at": list(at), "reactor": True, "cubes": c["cubes"]})
        elif "reactor" not in c and "cubes" not in c and isinstance(c.get("card"), str) \
                and c["card"].strip():
            out.append({"at": list(at), "card": c["card"]})
        else:
            raise IllegalAction("malformed", f"cells[{i}] at {list(at)}: either a location "
                                "(\"card\") or a reactor (\"reactor\": true, \"cubes\")",
                                action=a)
    return out


def lay(step: Step) -> None:
    """``do: lay``: one player's station as it lies, with credits and track VP."""
    state, a = step.state, step.a
    setup = state.setup
    player = a.get("player")
    if not isinstance(player, str) or player not in state.players:
        raise IllegalAction("wrong-player", f"'{player}' is not a player in this game", action=a)
    if setup.options.get("laid") is None:
        raise IllegalAction("lay", "a station is laid from the table only in a game whose setup "
                            "says so (setup.options.laid: \"final\" or \"now\")", action=a)
    if state.index != len(state.laid):
        raise IllegalAction("lay", "a station is laid before any other action of the game "
                            f"({state.index - len(state.laid)} entered after the stations "
                            "laid: undo them to lay again)", action=a)
    if player in state.laid:
        raise IllegalAction("lay", f"{player}'s station is laid already (undo that entry to "
                            "lay it again)", action=a)
    extra = set(a) - LAY_KEYS
    if extra:
        raise IllegalAction("malformed", f"unknown key '{sorted(extra)[0]}' in a lay entry",
                            action=a)
    for key in ("credits", "vp"):
        if not _whole(a.get(key)):
            raise IllegalAction("malformed", f"{key}: the {key} in front of {player} "
                                "(a whole number from 0)" if key == "credits" else
                                f"vp: {player}'s position on the score track (a whole "
                                "number from 0)", action=a)
    cells = _cells(a)
    # each cell once; the Main Reactor at [0, 0] (B 3)
    seen: dict[Cell, dict[str, Any]] = {}
    for c in cells:
        at = as_cell(c["at"])
        if at in seen:
            raise IllegalAction("occupied", f"{list(at)} is laid twice: {_where(seen[at])} and "
                                f"{_where(c)}", action=a)
        if at == MAIN and "card" in c:
            raise IllegalAction("occupied", f"[0, 0] holds the Main Reactor (B 3), not "
                                f"'{c['card']}'", action=a)
        seen[at] = c
    if MAIN not in seen:
        raise IllegalAction("malformed", "give the Main Reactor's energy cubes: {\"at\": [0, 0], "
                            "\"reactor\": true, \"cubes\": n}", action=a)
    # the cards, the cubes, the area
    station = Station(bounds=setup.bounds_of(player))
    cards = {}
    for c in cells:
        at = as_cell(c["at"])
        if "card" in c:
            try:
                card = location_card(step.catalogue, c["card"])
            except IllegalAction as e:
                raise IllegalAction(e.rule, f"{e.detail} at {list(at)}", action=a) from None
            if card.category == "conflict":
                raise IllegalAction("conflict", f"'{card.name}' at {list(at)} is a Conflict card: "
                                    "it is applied, never built (B 7)", action=a)
            c["card"] = card.name
            cards[at] = card
        elif c["cubes"] > REACTOR_CUBES:
            raise IllegalAction("cubes", f"{_where(c)} holds {c['cubes']} cubes: a reactor comes "
                                f"into play with {REACTOR_CUBES} (B 4: \"They both come into "
                                "play with 2 Energy Cubes on them\") and only loses them",
                                action=a)
        if not station.in_bounds(at):
            raise IllegalAction("limited-space", f"{_where(c)} is outside the agreed area "
                                f"{list(station.bounds or [])}", action=a)
    # connected to the Main Reactor, orthogonally (B 4)
    reached, todo = {MAIN}, [MAIN]
    while todo:
        r, col = todo.pop()
        for n in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)):
            if n in seen and n not in reached:
                reached.add(n)
                todo.append(n)
    for c in cells:
        if as_cell(c["at"]) not in reached:
            raise IllegalAction("not-adjacent", f"{_where(c)} is not connected to the Main "
                                "Reactor through orthogonally adjacent locations "
                                f"({ADJACENT_QUOTE})", action=a)
    # MAX in one station, the copies of the box in every station laid
    by_name: dict[str, list[Cell]] = {}
    for at, card in cards.items():
        by_name.setdefault(card.name, []).append(at)
    for name, where in by_name.items():
        card = cards[where[0]]
        if len(where) > 1 and card.max is None:
            raise UnknownCardValues(card.name, ["max"], action=a,
                                    why=f"the station holds {len(where)} copies")
        if card.limit is not None and len(where) > card.limit:
            raise IllegalAction("max", f"MAX {card.limit}: {player}'s station holds "
                                f"{len(where)} '{name}' (at "
                                + ", ".join(str(list(w)) for w in sorted(where)) + ")", action=a)
        most, _ = deck_copies(setup, card)
        if most is not None:
            built = copies_built(state, name) + len(where)
            if built > most:
                raise copies_refusal(setup, card, built, "are laid (at " + ", ".join(
                    str(list(w)) for w in sorted(where)) + f" in {player}'s station)", a)
    reactors = sum(1 for at, c in seen.items() if "card" not in c and at != MAIN)
    if reactors > state.reactor_supply:
        raise IllegalAction("reactor-supply", f"{player}'s station holds {reactors} Power "
                            f"Reactors and the supply has {state.reactor_supply} left",
                            action=a)
    # spaceships (Revival, R 3): on an empty space next to a card of the station
    ships: list[Cell] = []
    if "spaceships" in a:
        raw = a["spaceships"]
        if not setup.options.get("spaceships"):
            raise IllegalAction("malformed", "spaceships are in play with the Revival "
                                "spaceships only (setup.options.spaceships)", action=a)
        try:
            ships = [as_cell(x) for x in raw] if isinstance(raw, list) else []
        except ValueError as e:
            raise IllegalAction("malformed", f"spaceships: {e}", action=a) from None
        if not isinstance(raw, list):
            raise IllegalAction("malformed", "spaceships is a list of [row, col]", action=a)
        for s in ships:
            if s in seen:
                raise IllegalAction("spaceships", f"a spaceship at {list(s)} is on "
                                    f"{_where(seen[s])}: R 3, \"on an empty space\"", action=a)
            if ships.count(s) > 1:
                raise IllegalAction("spaceships", f"two spaceships at {list(s)}: at most 1 per "
                                    "space (R 3)", action=a)
            r, col = s
            if not any(n in seen for n in ((r - 1, col), (r + 1, col), (r, col - 1),
                                           (r, col + 1))):
                raise IllegalAction("spaceships", f"the spaceship at {list(s)} is next to no "
                                    f"card of {player}'s station: R 3, \"on an empty space "
                                    "adjacent to an existing card in that Station\"", action=a)
        a["spaceships"] = [list(s) for s in ships]
    # lay it
    for c in cells:
        at = as_cell(c["at"])
        if at == MAIN:
            station.place(at, Placed(MAIN_REACTOR, cubes=c["cubes"]))
        elif "card" in c:
            card = cards[at]
            station.place(at, Placed(LOCATION, card.name, card.types, cost=card.cost))
        else:
            station.place(at, Placed(REACTOR, cubes=c["cubes"]))
    check_energy(station, cards, player, a)
    station.spaceships = set(ships)
    a["cells"] = cells
    ps = state.players[player]
    ps.station = station
    ps.credits = a["credits"]
    state.reactor_supply -= reactors
    gain(state, player, a["vp"], "track", "score track", None, TRACK_RULE, state.index)
    state.laid.append(player)
    if len(state.laid) == len(state.players) and setup.options.get("laid") == "final":
        state.finished = True                       # every station laid: the game's end
        state.year = YEARS
        state.turn = setup.turns_in_year(YEARS)
    # laid "now": the state stands at the start of ``options.laid_at``'s turn already
    # (State.initial); once every station is laid the turn's actions come, every rule
    # checked as for a game entered from its start (turns.apply)


def _cells_text(where: list[tuple[Cell, Card]]) -> str:
    return " and ".join(f"'{card.name}' at {list(at)}" for at, card in where)


def check_energy(station: Station, cards: dict[Cell, Card], player: str,
                 a: dict[str, Any]) -> None:
    """B 4, a laid station's energy: refuse what could not have been paid, accept what
    could (which reactor paid is never asked).  Each card whose energy is known and
    above 0 needs a reactor (Main or Power) within :data:`ENERGY_REACH` through built
    locations (``energy-reach``), and the cubes the reactors lost (each came into play
    with :data:`REACTOR_CUBES`: spent = 2 - cubes left) must cover the cards' energy,
    each cube from a reactor within reach of the card it paid (``energy-spent``; a
    transport problem solved as a max flow).  Judged on the station as it lies: built
    locations only add paths, so a card within reach when built is within reach now
    (the converse is the ambiguity accepted).  A card whose energy is unknown (null) is
    not counted: it only ever adds to what must be paid, so leaving it out refuses
    nothing it could decide (the player types it when the scoring asks).

    No ability of the vocabulary adds or moves energy cubes (per, flat, choice,
    manual, spaceships, remove_spaceships: VP, credits and spaceships only; B 4:
    "There are 2 Energy-providing locations in the game: The Main Reactor ... and the
    Power Reactor"), so no card exempts the cube count; an ability kind that did would
    have to skip it here."""
    need: dict[Cell, int] = {}
    reach: dict[Cell, list[Cell]] = {}
    for at, card in sorted(cards.items()):
        if card.energy is None:
            continue
        n = card.known("energy")                 # "X" is 1 (Revival FAQ)
        if n <= 0:
            continue
        in_range = [c for c, _, _ in station.reactors_in_range(at, ENERGY_REACH)]
        if not in_range:
            raise IllegalAction("energy-reach", f"'{card.name}' at {list(at)} in {player}'s "
                                f"station needs {n} energy and no reactor is within "
                                f"{ENERGY_REACH} of it through built locations ({REACH_QUOTE})",
                                action=a)
        need[at], reach[at] = n, in_range
    if not need:
        return
    spent = {c: REACTOR_CUBES - station.cells[c].cubes for c in station.reactors()}
    flow = nx.DiGraph()
    for at, n in need.items():
        flow.add_edge("paid", ("card", at), capacity=n)
        for r in reach[at]:
            flow.add_edge(("card", at), ("reactor", r))      # no capacity: unbounded
    for r, k in spent.items():
        flow.add_edge(("reactor", r), "spent", capacity=k)
    paid, (side, _) = nx.minimum_cut(flow, "paid", "spent")   # the Main Reactor: "spent"
    if paid >= sum(need.values()):
        return
    # the cards no payment reaches (the min cut's side): their reactors lost fewer cubes
    short = [(at, cards[at]) for at in sorted(need) if ("card", at) in side]
    reactors = sorted({r for at, _ in short for r in reach[at]})
    cost, lost = sum(need[at] for at, _ in short), sum(spent[r] for r in reactors)
    raise IllegalAction("energy-spent", f"{_cells_text(short)} in {player}'s station "
                        f"need{'s' if len(short) == 1 else ''} {cost} energy and the "
                        f"reactor{'s' if len(reactors) > 1 else ''} within {ENERGY_REACH} ("
                        + ", ".join(str(list(r)) for r in reactors)
                        + f") lost {lost} cube{'' if lost == 1 else 's'} ({SPENT_QUOTE}: "
                        f"{REACTOR_CUBES} each less the cubes left)", action=a)
