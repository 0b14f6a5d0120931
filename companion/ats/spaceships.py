"""Among the Stars, Revival spaceships (R 3): where a card's spaceships go, the
option ``spaceship_filled`` (a space filled before its spaceship arrives), the
spaceships next to reactors (Recharging Station) and their removal (Travelling
Exhibition; the ``remove_spaceships`` action).

Each ``check_*`` function checks an action's answers before anything changes and
returns them normalised; :func:`put_ship` places one when its effect resolves.
"""
from __future__ import annotations

from typing import Any

from . import abilities as abl
from .abilitykinds import of_kind
from ..core.errors import IllegalAction
from .catalogue import Card
from .setup import MAX_SPACESHIP_REMOVAL
from .state import Pending, PlayerState, State, Step, VPLine
from .station import Cell, Station, as_cell, neighbours


def check_spaceships(state: State, owner: str, card: Card, a: dict[str, Any],
                     built: Cell | None = None, strict: bool = False) -> list[list[Any]]:
    """The spaceships a build puts (R 3: "place it on an empty space adjacent to an
    existing card in that Station").  Checked before the card is placed; the card
    being built (``built``) already counts in its owner's station: the ability is
    applied once the card is there."""
    abilities = [ab for ab in of_kind(card.abilities, "spaceships") if ab.when == "immediate"]
    given = a.get("spaceships")
    if not abilities:
        if given:
            raise IllegalAction("spaceships", f"'{card.name}' places no spaceships", action=a)
        a.pop("spaceships", None)
        return []
    if not state.setup.options.get("spaceships"):
        raise IllegalAction("spaceships", "the Spaceships module is not in play "
                            "(setup.options.spaceships)", action=a)
    if not isinstance(given, list):
        raise IllegalAction("spaceships", "say where the spaceships go: a list of "
                            "{player, at} (empty if there is no room)", action=a)
    allowed = sum(ab.need("spaceships", card.name) for ab in abilities)
    targets = {ab.target for ab in abilities}
    if len(given) > allowed:
        raise IllegalAction("spaceships", f"'{card.name}' places at most {allowed}", action=a)
    out, seen = [], set()
    for g in given:
        try:
            who, cell = g["player"], as_cell(g["at"])
        except (KeyError, TypeError, ValueError):
            raise IllegalAction("malformed", "a spaceship is {\"player\": name, \"at\": "
                                "[row, col]}", action=a) from None
        if who not in state.players:
            raise IllegalAction("spaceships", f"'{who}' is not a player", action=a)
        if "any" not in targets and (("self" in targets) != (who == owner)):
            raise IllegalAction("spaceships", f"'{card.name}' puts spaceships in "
                                f"{'your own' if 'self' in targets else 'other players'}' "
                                "stations", action=a)
        st = state.players[who].station
        if cell in st.cells or (who, cell) in seen or (who == owner and cell == built) \
                or not could_hold_ship(state, owner, who, cell, built):
            raise IllegalAction("spaceships", f"{list(cell)} in {who}'s station is not an "
                                "empty space next to a card without a spaceship", action=a)
        if (who, cell) in reserved(state, strict):
            raise IllegalAction("spaceships", f"another spaceship is on its way to "
                                f"{list(cell)} in {who}'s station this turn: a space holds "
                                "at most 1 spaceship (R 3)", action=a)
        seen.add((who, cell))
        out.append([who, list(cell)])
    return out


def may_still_change(state: State, owner: str, who: str) -> bool:
    """Simultaneous play: ``who``'s station may still change this turn before
    ``owner``'s spaceships are placed (B Playing Order: they are placed "after all
    other players' actions are completed"): ``who`` has not acted yet, or their own
    effects (a spaceship removal, Travelling Exhibition) still wait.  Never in the
    Revival 2-player game, whose actions resolve at once (R 2.2, R 5)."""
    if state.setup.consecutive or who == owner:
        return False
    return who not in state.acted or any(p.owner == who and p.kind == "own"
                                         and p.data.get("spaceships_removed")
                                         for p in state.pending)


def could_hold_ship(state: State, owner: str, who: str, cell: Cell,
                    built: Cell | None = None) -> bool:
    """Whether a spaceship of ``owner``'s for ``cell`` in ``who``'s station may be
    placed when it resolves.  R 3: "place it on an empty space adjacent to an
    existing card in that Station", judged when it is placed: after every player's
    action (B Playing Order), whatever order the actions were typed in.  So, while
    ``who`` may still build (or remove spaceships) this turn, a space next to where
    they could build, or holding a spaceship they could remove, is accepted now and
    judged when it resolves (:func:`put_ship`); otherwise it is judged now (the
    card ``owner`` is building at ``built`` counts in their own station)."""
    st = state.players[who].station
    if cell in st.cells:
        return False
    later = may_still_change(state, owner, who)
    if cell in st.spaceships and not later:
        return False
    if st.is_adjacent_to_built(cell) or (who == owner and built is not None
                                         and cell in neighbours(built)):
        return True
    return later and any(n not in st.cells and st.is_adjacent_to_built(n)
                         for n in neighbours(cell))


def check_waiting_ships(state: State, a: dict[str, Any], *, acting: str | None = None,
                        built: Cell | None = None) -> None:
    """After a new entry (simultaneous play): every spaceship still on its way can be
    placed when it resolves, after every player's action.  R 3: "place it on an empty
    space adjacent to an existing card in that Station"; "Each empty space cannot have
    more than 1 Spaceship in it".  A location built on its space, two spaceships
    aimed at one space, or (once the target's station can no longer change this
    turn) a space next to no card or holding a spaceship, is refused whichever entry
    was typed first: the record must name the space each spaceship really went to.
    With the option ``spaceship_filled: lost`` such a spaceship is lost instead.

    ``acting``/``built`` (the legality queries, :func:`waiting_ships_allow`): judge as
    if ``acting`` had just taken an action that places no spaceship and removes none,
    building at ``built`` (None: nothing built, e.g. a discard); the state is not
    changed."""
    if state.setup.options.get("spaceship_filled", "refuse") == "lost":
        return
    aimed: dict[tuple[str, tuple[int, ...]], str] = {}
    for p in state.pending:
        if p.kind != "spaceships":
            continue
        for who, at in p.data["at"]:
            cell = tuple(at)
            st = state.players[who].station
            new_card = built if who == acting else None
            ship = f"{p.owner}'s '{p.card}' sends a spaceship to {list(cell)} in {who}'s station"
            fix = (f"undo back to {p.owner}'s entry and name the space the spaceship really "
                   "went to, or enter this one differently")
            if (who, cell) in aimed:
                raise IllegalAction("spaceships", f"{aimed[(who, cell)]} and {ship}: a space "
                                    "holds at most 1 spaceship (R 3); the one placed first "
                                    "(most VP, then most credits) takes it: " + fix, action=a)
            aimed[(who, cell)] = ship
            why = None
            if cell in st.cells or cell == new_card:
                why = "a location is built there this turn"
            elif not (who != acting and may_still_change(state, p.owner, who)):
                if cell in st.spaceships:
                    why = "another spaceship is there"
                elif not (st.is_adjacent_to_built(cell)
                          or (new_card is not None and cell in neighbours(new_card))):
                    why = "no card of that station is next to it"
            if why:
                raise IllegalAction("spaceships", f"{ship}; it is placed after every player's "
                                    f"action on an empty space next to a card (R 3), but {why}: "
                                    + fix, action=a)


def waiting_ships_allow(state: State, player: str, built: Cell | None = None) -> bool:
    """A query for the legality queries (``legal_cells``, ``legal_actions``): whether
    every spaceship still on its way could still be placed if ``player`` took an
    action now that builds at ``built`` (None: builds nothing) and places or removes
    no spaceship -- what :func:`check_waiting_ships` judges after the entry, so the
    cells offered are the cells ``push`` accepts."""
    if state.setup.consecutive or not any(p.kind == "spaceships" for p in state.pending):
        return True
    try:
        check_waiting_ships(state, {}, acting=player, built=built)
    except IllegalAction:
        return False
    return True


def reserved(state: State, strict: bool = False) -> set[tuple[str, tuple[int, ...]]]:
    """Options ``spaceship_filled: refuse`` (the default) and ``reserve``: the
    (player, cell) spaces a spaceship entered this turn is still on its way to;
    nothing else may go there (R 3: it goes on an empty space when it is placed).
    ``strict`` (a stored record replayed): ``refuse`` reserves nothing, so records
    made before issue 21 still replay."""
    filled = state.setup.options.get("spaceship_filled", "refuse")
    if filled == "lost" or (strict and filled == "refuse") or not state.pending:
        return set()
    out = set()
    for p in state.pending:
        if p.kind == "spaceships":
            out |= {(who, tuple(at)) for who, at in p.data["at"]}
        elif p.kind == "own":
            out |= {(p.owner, tuple(c)) for c in p.data.get("reactor_spaceships") or ()}
    return out


def put_ship(state: State, who: str, cell: Cell, p: Pending, strict: bool = True) -> bool:
    """Place a spaceship when its effect resolves (after every player's action in
    simultaneous play): R 3, "place it on an empty space adjacent to an existing card
    in that Station", judged now.  If its space is not such a space now (a location
    was built there this turn, another spaceship came first, or no card is next to
    it), a new entry is refused (rule ``spaceships``: the record names the space the
    spaceship really went to); with the option ``spaceship_filled: lost``, and when
    a stored record is replayed (``strict``: records made before the refusal), the
    spaceship is lost and the owner's VP lines say so."""
    st = state.players[who].station
    if cell not in st.cells and cell not in st.spaceships and st.is_adjacent_to_built(cell):
        st.spaceships.add(cell)
        return True
    what = ("holds a location" if cell in st.cells else
            "holds another spaceship" if cell in st.spaceships else "is next to no card")
    if not strict and state.setup.options.get("spaceship_filled", "refuse") != "lost":
        raise IllegalAction("spaceships", f"{p.owner}'s '{p.card}': when its spaceship is "
                            f"placed, after every player's action, {list(cell)} in {who}'s "
                            f"station {what} (R 3: \"place it on an empty space adjacent to "
                            "an existing card in that Station\"): enter the space it really "
                            f"went to in {p.owner}'s entry")
    ps = state.players[p.owner]
    ps.ledger.append(VPLine(p.owner, 0, "spaceship", p.card, p.cell,
                            f"the spaceship for {list(cell)} in {who}'s station is lost: "
                            f"that space {what} now (option spaceship_filled: lost)",
                            state.year, state.turn, p.index))
    return False


def check_reactor_ships(state: State, owner: str, card: Card, a: dict[str, Any]) -> list[list[int]]:
    """``per: reactor_spaceship`` (Recharging Station, R FAQ): a spaceship on a free
    side of each of the player's reactors that has one, one per reactor; "If one of
    your Power Reactors has locations on all sides of it then you can't put a
    Spaceship adjacent to it and thus you don't gain any VP from it".  Checked on the
    station with the card placed.  Omitted: the engine's default, stored."""
    abilities = [ab for ab in card.abilities or () if ab.per == "reactor_spaceship"
                 and ab.when == "immediate"]
    given = a.get("reactor_spaceships")
    if not abilities:
        if given:
            raise IllegalAction("spaceships", f"'{card.name}' puts no spaceships next to "
                                "reactors", action=a)
        a.pop("reactor_spaceships", None)
        return []
    if not state.setup.options.get("spaceships"):
        raise IllegalAction("spaceships", "the Spaceships module is not in play "
                            "(setup.options.spaceships)", action=a)
    st = state.players[owner].station
    taken = {c for w, c in reserved(state) if w == owner}
    free = {n for r in st.reactors() for n in neighbours(r)
            if n not in st.cells and n not in st.spaceships and n not in taken}
    best = abl.reactor_matching(st, free)
    cells: list[Cell] | None
    if given is None:
        cells = [best[r] for r in sorted(best)]
    else:
        try:
            cells = [as_cell(c) for c in given] if isinstance(given, list) else None
        except ValueError:
            cells = None
        if cells is None:
            raise IllegalAction("malformed", "reactor_spaceships is a list of [row, col]",
                                action=a)
        bad = [c for c in cells if c not in free]
        if bad or len(set(cells)) != len(cells):
            raise IllegalAction("spaceships", f"{list(bad[0]) if bad else 'a cell twice'}: "
                                "a spaceship goes on an empty space next to one of "
                                f"{owner}'s reactors, one per space", action=a)
        if len(abl.reactor_matching(st, set(cells))) != len(cells):
            raise IllegalAction("spaceships", "one spaceship per reactor: two of them are "
                                "next to the same reactor only", action=a)
        if len(cells) != len(best):
            raise IllegalAction("spaceships", f"{len(best)} of {owner}'s reactors have a free "
                                f"side: put a spaceship next to each ({len(cells)} given)",
                                action=a)
    a["reactor_spaceships"] = [list(c) for c in cells]
    return [list(c) for c in cells]


def check_removals(state: State, owner: str, card: Card, a: dict[str, Any]) -> list[list[int]]:
    """``remove_spaceships: N`` (Travelling Exhibition, R FAQ): the player removes up
    to N of their own spaceships, none if they have none ("you can choose to remove a
    Spaceship even if you don't have any Spaceships in your Station. In that case you
    simply don't do anything")."""
    abilities = [ab for ab in of_kind(card.abilities, "remove_spaceships") if ab.when == "immediate"]
    given = a.get("spaceships_removed")
    if not abilities:
        if given:
            raise IllegalAction("spaceships", f"'{card.name}' removes no spaceships", action=a)
        a.pop("spaceships_removed", None)
        return []
    limit = 0
    for ab in abilities:
        n = ab.remove_spaceships
        if n is None or n < 1:
            raise IllegalAction("malformed", f"'{card.name}': remove_spaceships must be a "
                                "whole number >= 1 in the catalogue", action=a)
        limit += n
    try:
        cells = [as_cell(c) for c in given] if isinstance(given, list) else \
            ([] if given is None else None)
    except ValueError:
        cells = None
    if cells is None:
        raise IllegalAction("malformed", "spaceships_removed is a list of [row, col]", action=a)
    st = state.players[owner].station
    if len(cells) > limit or len(set(cells)) != len(cells):
        raise IllegalAction("spaceships", f"'{card.name}' removes at most {limit} "
                            "spaceship(s)", action=a)
    for c in cells:
        if c not in st.spaceships:
            raise IllegalAction("spaceships", f"there is no spaceship at {list(c)} in "
                                f"{owner}'s station", action=a)
    a["spaceships_removed"] = [list(c) for c in cells]
    return [list(c) for c in cells]


def remove_spaceships(step: Step, ps: PlayerState, card: Card) -> None:
    """``do: remove_spaceships``: the card is discarded to remove 1 to 3 of the
    player's own spaceships."""
    state, a = step.state, step.a
    st = ps.station
    if not st.spaceships:
        raise IllegalAction("spaceships", f"{ps.name} has no spaceships to remove", action=a)
    cells = a.get("cells")
    try:
        cells = [as_cell(c) for c in cells] if isinstance(cells, list) else None
    except ValueError:
        cells = None
    if not cells or len(cells) > MAX_SPACESHIP_REMOVAL or len(set(cells)) != len(cells):
        raise IllegalAction("spaceships", "name 1 to 3 spaceships to remove (cells)", action=a)
    for c in cells:
        if c not in st.spaceships:
            raise IllegalAction("spaceships", f"there is no spaceship at {list(c)}", action=a)
    for k in ("at", "energy_from"):
        a.pop(k, None)
    a["cells"] = [list(c) for c in cells]
    for c in cells:
        st.spaceships.discard(c)
    state.discards.append(card.name)


def clean_spaceships(station: Station) -> None:
    """A spaceship with no card next to it is removed at once (R 3)."""
    for c in list(station.spaceships):
        if not station.is_adjacent_to_built(c):
            station.spaceships.discard(c)
