"""Small Star Empires variants and their effects (S Variants): the Unexplored System tiles
(S Unexplored Systems: revealing a tile, its VP, the Asteroid Field and the Nordinn Empire
that damage the ship, the Refuelling Station's extra move) and Damaged Ships (S Damaged
Ships: the ``"damage"`` action's checks).  Open Borders' toll is part of the movement
(companion/sse/movement.py), its VP of the end scoring (companion/sse/scoring.py).

Pure functions of a :class:`State`; each raises
:class:`~companion.core.errors.IllegalAction` with its rule code."""
from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction, RecordError
from . import hexmap as hm
from .hexmap import EFFECT_NAMES, Hex, as_hex, label
from .movement import colonise, gain, landing
from .rules import EFFECT_VP, is_whole
from .state import Move, PlayerState, Ship, State


# ---------------------------------------------------------------------------
# Damaged Ships
# ---------------------------------------------------------------------------
def damage_ship(st: State, ship: Ship, a: dict[str, Any]) -> None:
    """The ``"damage"`` action (an expansion's effect): needs the damaged-ships variant,
    an undamaged ship and nothing else in the action."""
    if not st.setup.variant("damaged_ships"):
        raise IllegalAction("damaged", "the damaged-ships variant is not in play", action=a)
    if st.finished:
        raise IllegalAction("game-over", f"the game is over ({st.end_reason})", action=a)
    if ship.damaged:
        raise IllegalAction("damaged", f"ship {ship.id} is already damaged", action=a)
    for k in ("to", "piece", "via", "pay", "reveal", "destroy", "then"):
        if a.get(k) is not None:
            raise IllegalAction("malformed", f"'{k}' has no meaning when a ship is damaged",
                                action=a)
    ship.damaged = True
    a["from"] = list(ship.at)


# ---------------------------------------------------------------------------
# Unexplored Systems
# ---------------------------------------------------------------------------
def explore(st: State, ps: PlayerState, ship: Ship, to: Hex, a: dict[str, Any], index: int) -> None:
    """``ship`` has entered the Unexplored System ``to``: its tile is turned face-up
    (``a["reveal"]``, or the map's known tile) and applied."""
    if a.get("piece") not in (None, "city"):
        # whatever the tile shows, a Trade Station never enters: say so before the tile
        raise IllegalAction("unexplored-city", "an Unexplored System is colonised with a City",
                            action=a)
    known = st.map[to]
    rv = a.get("reveal")
    if rv is None and known.effect:
        rv = {"effect": known.effect}
        if known.effect_planets:
            rv["planets"] = known.effect_planets
    if not isinstance(rv, dict) or rv.get("effect") not in hm.EFFECTS:
        raise IllegalAction("reveal", f"turn the tile at {label(to)} face-up and give its effect: "
                            f"{', '.join(hm.EFFECTS)}", action=a)
    if set(rv) - {"effect", "planets"}:
        raise IllegalAction("malformed", "'reveal' holds 'effect' (and 'planets')", action=a)
    effect = rv["effect"]
    planets = rv.get("planets")
    if effect == "planetary":
        if not is_whole(planets, 1, 3):
            raise IllegalAction("reveal", "a planetary tile has 1 to 3 planets: give 'planets'",
                                action=a)
    elif planets is not None:
        raise IllegalAction("reveal", "only a planetary tile has planets", action=a)
    if known.effect and (known.effect != effect or (known.effect_planets or None) != planets):
        raise IllegalAction("reveal", f"the map says this tile is "
                            f"{EFFECT_NAMES[known.effect]}", action=a)
    a["reveal"] = {"effect": effect, **({"planets": planets} if planets else {})}
    st.revealed[to] = dict(a["reveal"])
    name = EFFECT_NAMES[effect]
    piece = a.get("piece")
    if effect in ("asteroid_field", "nordinn_empire"):
        if piece is not None:
            raise IllegalAction("piece", f"{name}: the ship is damaged and nothing is colonised",
                                action=a)
        a["piece"] = None
        ship.damaged = True
        st.blocked[to] = name
        if a.get("then") is not None:
            raise IllegalAction("malformed", "'then' is only for a Refuelling Station", action=a)
        if effect == "nordinn_empire":
            nordinn(st, ps, to, a)
        elif a.get("destroy") is not None:
            raise IllegalAction("malformed", "'destroy' is only for the Nordinn Empire", action=a)
        return
    if a.get("destroy") is not None:
        raise IllegalAction("malformed", "'destroy' is only for the Nordinn Empire", action=a)
    if piece is None:
        piece = "city"
    if piece != "city":
        raise IllegalAction("unexplored-city", "an Unexplored System is colonised with a City",
                            action=a)
    colonise(st, ps, to, piece, a, index, ("city",), effect=effect, planets=planets)
    if effect in EFFECT_VP:
        gain(ps, EFFECT_VP[effect], "exploration", name, to, f"revealed the {name}", index)
    then = a.get("then")
    if then is not None:
        if effect != "refuelling_station":
            raise IllegalAction("malformed", "'then' is only for a Refuelling Station", action=a)
        refuel(st, ps, ship, to, then, a, index)


def refuel(st: State, ps: PlayerState, ship: Ship, at: Hex, then: Any, a: dict[str, Any],
           index: int) -> None:
    """The Refuelling Station at ``at``: the ship goes on to ``then["to"]``, next to it,
    and colonises it (``options.refuel``: may it be an Unexplored System)."""
    if not isinstance(then, dict) or set(then) - {"to", "piece", "reveal", "destroy", "then"}:
        raise IllegalAction("refuel", "'then' is {\"to\": [q, r], \"piece\": ...} (and "
                            "'reveal' for an Unexplored System)", action=a)
    try:
        nxt = as_hex(then.get("to"), "then.to")
    except RecordError as e:
        raise IllegalAction("refuel", str(e), action=a) from None
    if hm.distance(nxt, at) != 1:
        raise IllegalAction("refuel", f"{label(nxt)} is not next to the Refuelling Station",
                            action=a)
    try:
        kind, pieces = landing(st, ps, ship, nxt, paying=0)
    except IllegalAction as e:
        raise IllegalAction("refuel", f"the ship cannot go on to {label(nxt)}: {e.detail}",
                            action=a) from None
    if kind == "explore" and st.setup.option("refuel") == "uncolonised":
        # "an adjacent uncolonized system": an Unexplored System is uncolonised; the
        # ship enters it and its tile is revealed and applied as for any move
        ship.at = nxt
        sub = {k: then[k] for k in ("piece", "reveal", "destroy", "then") if k in then}
        explore(st, ps, ship, nxt, sub, index)
        a["then"] = {"to": list(nxt), **{k: sub[k] for k in ("piece", "reveal", "destroy",
                                                             "then") if sub.get(k) is not None}}
        a["piece"] = "city"
        return
    for k in ("reveal", "destroy", "then"):
        if then.get(k) is not None:
            raise IllegalAction("refuel", f"'then.{k}' is only for an Unexplored System",
                                action=a)
    if kind != "colonise":
        raise IllegalAction("refuel", f"{label(nxt)} is not an uncolonised, explored system "
                            "(setup.options.refuel: explored)" if kind == "explore" else
                            f"{label(nxt)} is not an uncolonised system", action=a)
    ship.at = nxt
    colonise(st, ps, nxt, then.get("piece"), a, index, pieces)
    a["then"] = {"to": list(nxt), "piece": then.get("piece")}
    a["piece"] = "city"


def refuel_targets(st: State, ps: PlayerState, ship: Ship, at: Hex) -> list[Move]:
    """Where ``ship``, on the Refuelling Station at ``at``, may go on in ``st`` (each a
    :class:`Move` with ``via`` "refuel"), under the game's ``options.refuel``."""
    out = []
    for n in sorted(st.map.neighbours(at)):
        try:
            kind, pieces = landing(st, ps, ship, n, paying=0)
        except IllegalAction:
            continue
        if kind == "colonise" or (kind == "explore"
                                  and st.setup.option("refuel") == "uncolonised"):
            out.append(Move(n, "refuel", kind, pieces, system=st.map.get(n)))
    return out


def nordinn_targets(st: State, player: str, at: Hex) -> tuple[list[Hex], list[Hex]]:
    """The Cities a Nordinn Empire revealed at ``at`` by ``player`` may destroy (under
    ``options.nordinn``), and ``player``'s own Cities next to it."""
    around = [h for h in hm.neighbours(at) if h in st.colonies and st.colonies[h].piece == "city"]
    own = [h for h in around if st.colonies[h].owner == player]
    if own or st.setup.option("nordinn") == "adjacent_city":
        choices = own or around
    else:     # "choose another player's City and destroy that instead" (any of them)
        choices = [h for h, c in st.colonies.items()
                   if c.piece == "city" and c.owner != player]
    return sorted(choices), own


def nordinn(st: State, ps: PlayerState, at: Hex, a: dict[str, Any]) -> None:
    """The Nordinn Empire revealed at ``at``: a City is destroyed (``a["destroy"]``, or the
    only choice) and a conquest marker placed on an adjacent one."""
    choices, own = nordinn_targets(st, ps.name, at)
    given = a.get("destroy")
    if not choices:
        if given is not None:
            raise IllegalAction("destroy", "no City is next to the Nordinn Empire: nothing is "
                                "destroyed", action=a)
        return
    if given is None:
        if len(choices) > 1:
            raise IllegalAction("destroy", "choose the City to destroy: "
                                + ", ".join(label(h) for h in sorted(choices)), action=a)
        target = choices[0]
    else:
        try:
            target = as_hex(given, "'destroy'")
        except RecordError as e:
            raise IllegalAction("destroy", str(e), action=a) from None
        if target not in choices:
            which = ("your own adjacent Cities" if own else "the adjacent Cities"
                     if st.setup.option("nordinn") == "adjacent_city"
                     else "the other players' Cities")
            raise IllegalAction("destroy", f"{label(target)} is not one of {which}: "
                                + ", ".join(label(h) for h in sorted(choices)), action=a)
    victim = st.colonies.pop(target)
    st.players[victim.owner].cities += 1
    if hm.distance(target, at) == 1:   # "If you destroy an adjacent City this way"
        st.conquered.add(target)
    a["destroy"] = list(target)
