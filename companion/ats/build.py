"""Among the Stars, building and energy (B 4): Build Location, Build Power Reactor
and Discard; where a card may go (orthogonally next to a built location, not on a
spaceship, inside the Limited Space area), its cost in credits, its MAX, and the
energy it takes from reactors within distance 2 (counted through built locations).

The handlers (:func:`build_location`, :func:`build_reactor`, :func:`discard`)
apply one action of their kind; :func:`legal_cells` and :func:`energy_options`
are queries.
"""
from __future__ import annotations

import itertools
from typing import Any

from ..core.errors import IllegalAction, UnknownCardValues
from .abilitykinds import ability_kind
from .catalogue import Card, Catalogue
from .composition import basic_copies_in_deck
from .effects import resolve
from .modes import location_card
from .setup import DISCARD_GAIN, ENERGY_REACH, REACTOR_COST, Setup
from .spaceships import check_reactor_ships, check_removals, check_spaceships, reserved, \
    waiting_ships_allow
from .state import Pending, PlayerState, State, Step
from .station import LOCATION, REACTOR, Cell, Placed, Station, as_cell
from .vocabulary import Ability


def discard(step: Step, ps: PlayerState, card: Card) -> None:
    """``do: discard``: the card for 3 credits."""
    for k in ("at", "energy_from"):
        step.a.pop(k, None)
    ps.credits += DISCARD_GAIN
    step.state.discards.append(card.name)


def placement_cell(step: Step, ps: PlayerState) -> Cell:
    """The cell a location or a reactor goes on (``at``), checked: empty, no
    spaceship (on its way), inside the agreed area, next to a built location."""
    state, a = step.state, step.a
    try:
        cell = as_cell(a.get("at"))
    except ValueError as e:
        raise IllegalAction("malformed", str(e), action=a) from None
    a["at"] = list(cell)
    station = ps.station
    if cell in station:
        raise IllegalAction("occupied", f"{list(cell)} already holds the "
                            f"{station.cells[cell].label}", action=a)
    if cell in station.spaceships:
        raise IllegalAction("spaceship", "a spaceship occupies that space", action=a)
    if (ps.name, cell) in reserved(state, not step.boxed):
        raise IllegalAction("spaceship", "a spaceship is on its way to that space this "
                            "turn: it is placed after every player's action on an empty "
                            "space (R 3)", action=a)
    if not station.in_bounds(cell):
        raise IllegalAction("limited-space", f"{list(cell)} is outside the agreed area "
                            f"{list(station.bounds or [])}", action=a)
    if not station.is_adjacent_to_built(cell):
        raise IllegalAction("not-adjacent", f"{list(cell)} is not orthogonally adjacent "
                            "to a built location", action=a)
    return cell


def build_reactor(step: Step, ps: PlayerState, card: Card) -> None:
    """``do: reactor``: a Power Reactor (1 credit, from the supply) instead of the card."""
    state, a = step.state, step.a
    cell = placement_cell(step, ps)
    a.pop("energy_from", None)
    if state.reactor_supply <= 0:
        raise IllegalAction("reactor-supply", "no Power Reactor cards are left", action=a)
    if ps.credits < REACTOR_COST:
        raise IllegalAction("reactor-credits", f"{ps.name} has no credits left "
                            "(a Power Reactor costs 1)", action=a)
    ps.credits -= REACTOR_COST
    state.reactor_supply -= 1
    reactor = object.__new__(Placed)    # Placed(REACTOR, cubes=2, year=..., turn=...),
    reactor.__dict__.update(kind=REACTOR, card=None, types=(), cubes=2,   # its frozen
                            year=state.year, turn=state.turn, cost=None)  # fields set
    ps.station.place(cell, reactor)
    state.discards.append(card.name)


def build_location(step: Step, ps: PlayerState, card: Card) -> None:
    """``do: build``: the card as a location of the station."""
    if card.category == "conflict":
        raise IllegalAction("conflict", "a Conflict card cannot be built: apply it (1 credit), "
                            "build a reactor or discard it", action=step.a)
    cell = placement_cell(step, ps)
    try:
        build(step, ps, card, cell)
    except IllegalAction as e:
        raise e.with_action(step.a)


def build(step: Step, ps: PlayerState, card: Card, cell: Cell) -> None:
    """Build ``card`` at ``cell`` (checked free): its values, MAX, cost, energy and the
    answers its abilities need are checked before anything changes; then it is paid
    for and placed, and its effects resolve or wait (:mod:`companion.ats.effects`)."""
    state, a = step.state, step.a
    station = ps.station
    missing = card.unknown_for_build()
    if missing:
        raise UnknownCardValues(card.name, missing, action=a)
    if card.types is None and not step.strict:
        why = types_needed_now(step.catalogue, state, ps.name)
        if why:
            raise UnknownCardValues(card.name, ["types"], action=a, why=why)
    copies = station.copies_of(card.name)
    if copies >= 1 and card.max is None:
        raise UnknownCardValues(card.name, ["max"], action=a,
                                why="needed because a second copy is being built")
    if card.limit is not None and copies >= card.limit and not step.strict:
        # entering a new action: refused.  Replaying a record (entered after
        # the fact, or a card's MAX corrected since): kept, and reported by
        # round_end_report() until a `remove` entry fixes it (B 5).
        raise IllegalAction("max", f"MAX {card.limit}: the station already has {copies} "
                            f"'{card.name}'", action=a)
    if step.boxed:
        check_copies(state, card, a)
    cost, energy = card.known("cost"), card.known("energy")
    if ps.credits < cost:
        raise IllegalAction("credits", f"costs {cost} credits, {ps.name} has {ps.credits}",
                            action=a)
    # energy (no reactor is looked for when the card takes none: the only paid list
    # then accepted is the empty one, checked by its length below)
    in_range = station.reactors_in_range(cell, ENERGY_REACH) if energy else []
    payers = {c: (d, cubes) for c, d, cubes in in_range}
    if "energy_from" in a and a["energy_from"] is not None:
        raw = a["energy_from"]
        try:
            paid = [as_cell(x) for x in raw] if isinstance(raw, list) else None
        except ValueError:
            paid = None
        if paid is None:
            raise IllegalAction("malformed", "energy_from must be a list of [row, col] reactor cells",
                                action=a)
        if len(paid) != energy:
            raise IllegalAction("energy-from", f"the card needs {energy} energy, "
                                f"energy_from names {len(paid)} cube(s)", action=a)
        for c in set(paid):
            if c not in payers:
                what = station.cells[c].label if c in station.cells else "nothing"
                raise IllegalAction("energy-from", f"{list(c)} ({what}) is not a reactor within "
                                    f"distance 2 of {list(cell)}", action=a)
            if paid.count(c) > payers[c][1]:
                raise IllegalAction("energy-from", f"the reactor at {list(c)} has only "
                                    f"{payers[c][1]} cube(s)", action=a)
    else:
        # the documented default payer (Station.default_energy), from the reactors
        # found above: nearest first, then more cubes, then the lowest (row, col)
        paid = []
        for c, _, cubes in in_range:
            if len(paid) == energy:
                break
            paid += [c] * min(cubes, energy - len(paid))
        if len(paid) != energy:
            have = sum(cubes for _, cubes in payers.values())
            raise IllegalAction("no-energy", f"needs {energy} energy, reactors within "
                                f"distance 2 of {list(cell)} hold {have} cube(s)", action=a)
    a["energy_from"] = [list(c) for c in paid]
    # the choices the card will need, checked before anything changes
    others = [p for p in state.setup.players if p != ps.name] if card.abilities else []
    for ab in card.abilities or ():
        if ab.when != "immediate":
            continue
        check = ability_kind(ab).check           # the players' answer (choice, manual VP)
        if check is not None:
            check(ab, a, card.name, others)
    if card.abilities or a.get("spaceships") or a.get("spaceships_removed"):
        ships = check_spaceships(state, ps.name, card, a, built=cell, strict=not step.boxed)
        removed = check_removals(state, ps.name, card, a)
    else:                           # what they do for a card without abilities
        ships, removed = [], []
        a.pop("spaceships", None)
        a.pop("spaceships_removed", None)
    # pay and place
    ps.credits -= cost
    for c in paid:
        station.take_cube(c)
    built = object.__new__(Placed)      # Placed(LOCATION, card.name, ...), its frozen
    built.__dict__.update(kind=LOCATION, card=card.name, types=card.types, cubes=0,
                          year=state.year, turn=state.turn, cost=card.cost)   # fields set
    station.place(cell, built)
    if card.abilities or a.get("reactor_spaceships"):
        reactor_ships = check_reactor_ships(state, ps.name, card, a)
    else:                           # what it does for a card without abilities
        reactor_ships = []
        a.pop("reactor_spaceships", None)
    # effects that touch other players resolve after everyone's action (B Playing
    # Order), in the Revival 2-player game at once (R 2.2), with the timing rules
    # at the player's step 4 (R 5)
    choices, others_vp = [], []
    for ab in card.abilities or ():
        if ab.when != "immediate":
            continue
        kind = ability_kind(ab)
        if kind.pending and kind.answer is not None:     # the others' answer, after everyone
            choices.append(Pending(ps.name, kind.name, card.name, cell, ab, step.index,
                                   dict(a.get(kind.answer) or {})))
        elif ab.reads_other_stations:
            others_vp.append(Pending(ps.name, "ability", card.name, cell, ab, step.index))
    effects = choices + ([Pending(ps.name, "spaceships", card.name, cell, {"at": ships},
                                  step.index)] if ships else [])
    own = Pending(ps.name, "own", card.name, cell,
                  {"manual_vp": a.get("manual_vp"), "reactor_spaceships": reactor_ships,
                   "spaceships_removed": removed}, step.index)
    if state.setup.timing_rules:
        # R 5 step 3: placed "without applying the effect of the ability yet"; step 4:
        # "applies any necessary effects and then updates the scoring track"
        state.pending += effects + [own] + others_vp
    else:
        resolve(step.catalogue, state, own)   # printed VP and the player's own abilities now
        state.pending += effects + others_vp


def _counts_types(ab: Ability | None) -> bool:
    """Whether an ability (or an objective's measure) reads location types."""
    if ab is None:
        return False
    if ab.per is not None and (ab.types or ab.per == "distinct_type"):
        return True
    return ab.condition is not None and ab.condition.test in ("more", "adjacent_to")


def types_needed_now(catalogue: Catalogue, state: State, player: str) -> str | None:
    """Why a location built now by ``player`` must have its type(s) known, or None:
    an advisor next to the player reacts to a type (R 4), an objective in play
    counts types, or an ability in play (a race's, a built card's) counts them.  The
    page then asks for the type(s) before the build (issue 21: U-Cannon was built
    without its type, so an advisor reacting to military locations could not)."""
    for t in state.setup.options.get("advisors") or []:
        if player in t.get("between", ()) and any(str(x).startswith("build:")
                                                   for x in t.get("actions", ())):
            return f"the advisor of '{t['name']}' reacts to the type of a location built"
    for name in list(state.setup.objectives) + list(state.setup.secret_objectives.values()):
        obj = catalogue.get(name)
        if obj is not None and _counts_types(obj.measure):
            return f"the objective '{obj.name}' counts location types"
    names = [r for r in state.setup.races.values()]
    for p in state.setup.players:
        names += sorted({str(pl.card) for pl in state.players[p].station.cells.values()
                         if pl.kind == LOCATION and pl.card})
    for name in names:
        card = catalogue.get(name)
        for ab in (card.abilities or ()) if card is not None else ():
            if _counts_types(ab):
                # card is not None here (the loop runs over () otherwise); mypy cannot narrow it
                return f"'{card.name}' counts location types"     # type: ignore[union-attr]
    return None


def copies_built(state: State, card: str) -> int:
    """How many copies of ``card`` stand in all the stations now."""
    return sum(state.players[p].station.copies_of(card) for p in state.setup.players)


def deck_copies(setup: Setup, card: Card) -> tuple[int | None, str | None]:
    """The copies of ``card`` the game's deck holds, and the book's words when the
    mode and player count hold fewer than the box (``deck-copies``): a basic location
    has 3 with 3 players (B 3) and with the Revival 2-player rules (R 2.1),
    :func:`~companion.ats.composition.basic_copies_in_deck`; otherwise the box's
    ``copies`` (None: not typed, nothing checked)."""
    n = card.copies
    if n is None or card.extra.get("kind") != "basic":
        return n, None
    per, words = basic_copies_in_deck(len(setup.players), setup.options.get("two_player"),
                                      bool(setup.options.get("all_in")))
    return (per, words) if per < n else (n, None)


def copies_refusal(setup: Setup, card: Card, built: int, where: str,
                   a: dict[str, Any] | None) -> IllegalAction:
    """The one line refusing ``built`` copies of ``card`` (``copies``: the box's;
    ``deck-copies``: the deck the mode uses, quoted)."""
    n, words = deck_copies(setup, card)
    if words is not None:
        return IllegalAction("deck-copies", f"this game's deck holds {n} copies of "
                             f"'{card.name}' ({words}) and {built} {where}", action=a)
    return IllegalAction("copies", f"the box holds {n} cop{'y' if n == 1 else 'ies'} of "
                         f"'{card.name}' and {built} {where}; correct the number of copies "
                         "in your catalogue if the box holds more", action=a)


def check_copies(state: State, card: Card, a: dict[str, Any] | None = None) -> None:
    """Refuse a build past the copies the deck holds (:func:`deck_copies`: the box's
    ``copies``, typed by the players once: the books give only totals, so an untyped
    number checks nothing; fewer for a basic location in the modes whose deck leaves
    copies in the box).  New entries only: a record replayed keeps what was entered."""
    n, _ = deck_copies(state.setup, card)
    if n is None:
        return
    built = copies_built(state, card.name)
    if built >= n:
        where = ", ".join(f"{p} {k}" for p in state.setup.players
                          if (k := state.players[p].station.copies_of(card.name)))
        raise copies_refusal(state.setup, card, built, f"{'is' if built == 1 else 'are'} "
                             f"already built ({where or 'none in a station'})", a)


def energy_options(station: Station, cell: Cell, energy: int) -> list[dict[str, Any]]:
    """Every way the reactors within reach of ``cell`` can pay ``energy`` cubes:
    ``{"energy_from": [[r, c], ...], "label": str, "default": bool}``; the
    documented default payer (nearest reactor, then most cubes) is marked."""
    if not energy:
        return []
    payers = [(c, cubes) for c, _, cubes in station.reactors_in_range(cell, ENERGY_REACH)
              if cubes > 0]
    default = station.default_energy(cell, energy, ENERGY_REACH)
    out = []
    for combo in itertools.combinations_with_replacement([c for c, _ in payers], energy):
        if all(combo.count(c) <= cubes for c, cubes in payers):
            parts = [f"{station.cells[c].label} {list(c)} ×{combo.count(c)}"
                     for c in dict.fromkeys(combo)]
            out.append({"energy_from": [list(c) for c in combo], "label": " + ".join(parts),
                        "default": default is not None and list(combo) == list(default)})
    return out


def legal_cells(catalogue: Catalogue, state: State, player: str, card: str | None = None,
                do: str = "build") -> list[Cell]:
    """Cells where ``player`` (who may act now) may build ``card`` (or a reactor):
    what ``push`` accepts with the default answers (no spaceship placed or removed),
    so a space a spaceship is on its way to, or a build that would leave a waiting
    spaceship without its space, is not offered (R 3, :mod:`.spaceships`)."""
    cells = _open_cells(catalogue, state, player, card, do)
    if not state.pending:
        return cells
    taken = {c for who, c in reserved(state) if who == player}
    return [c for c in cells if c not in taken and waiting_ships_allow(state, player, c)]


def _open_cells(catalogue: Catalogue, state: State, player: str, card: str | None,
                do: str) -> list[Cell]:
    ps = state.players[player]
    station = ps.station
    if do == "reactor":
        if ps.credits < REACTOR_COST or state.reactor_supply <= 0:
            return []
        return station.frontier()
    c = location_card(catalogue, card)
    if c.unknown_for_build():
        raise UnknownCardValues(c.name, c.unknown_for_build(),
                                action={"do": "build", "card": c.name, "player": player})
    if ps.credits < c.known("cost"):
        return []
    most, _ = deck_copies(state.setup, c)
    if most is not None and copies_built(state, c.name) >= most:
        return []
    if station.copies_of(c.name) >= 1:
        if c.max is None:
            raise UnknownCardValues(c.name, ["max"], why="a second copy is being built",
                                    action={"do": "build", "card": c.name, "player": player})
        if c.limit is not None and station.copies_of(c.name) >= c.limit:
            return []
    return [cell for cell in station.frontier()
            if c.energy == 0 or station.energy_in_range(cell, ENERGY_REACH) >= c.known("energy")]
