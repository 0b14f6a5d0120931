"""Small Star Empires movement and colonising (S Movement, S Wormholes, S Black Holes,
S Colonize; the reach of a damaged ship and the Open Borders toll are checked here too):
where a ship may go and what it may place there.  Pure functions of a :class:`State`;
each raises :class:`~companion.core.errors.IllegalAction` with the rule that forbids a
move.  Applying a move (the ``"move"`` handler) is in companion/sse/turns.py; the
Unexplored System tiles' effects in companion/sse/effects.py."""
from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction
from . import hexmap as hm
from .hexmap import Hex, label
from .rules import DAMAGED_REACH, PIECE_NAMES, PIECES
from .state import Colony, Move, PlayerState, Ship, State, VPLine


# ---------------------------------------------------------------------------
# where a ship may go
# ---------------------------------------------------------------------------
def destinations(st: State, ps: PlayerState, ship: Ship, first: bool = False) -> dict[Hex, Move]:
    """Every legal destination of ``ship`` (``first``: stop at the first one found)."""
    cands: list[Hex] = []
    for d in hm.DIRS:
        h = ship.at
        while True:
            h = hm.add(h, d)
            if h not in st.map:
                break
            cands.append(h)
            if ship.damaged and hm.distance(h, ship.at) >= DAMAGED_REACH:
                break
    worms = st.map.of_kind("wormhole")
    if any(hm.distance(w, ship.at) == 1 for w in worms):
        for w in worms:
            cands.extend(n for n in st.map.neighbours(w))
    out: dict[Hex, Move] = {}
    for h in cands:
        if h in out or h == ship.at:
            continue
        try:
            out[h] = route(st, ps, ship, h)
        except IllegalAction:
            continue
        if first:
            return out
    return out


def can_move(st: State, player: str) -> bool:
    """``player`` has a ship with at least one legal destination."""
    ps = st.players[player]
    return any(destinations(st, ps, s, first=True) for s in ps.ships)


def route(st: State, ps: PlayerState, ship: Ship, to: Hex, via: str | None = None) -> Move:
    """How ``ship`` can reach ``to`` (a straight line, or a wormhole jump), or the rule
    that forbids it."""
    if to == ship.at:
        raise IllegalAction("no-move", f"the ship is already at {label(to)}")
    line = hm.direction_to(ship.at, to)
    if via == "line":
        if line is None:
            raise IllegalAction("not-straight", f"{label(to)} is not in a straight line from "
                                f"{label(ship.at)}")
        return line_move(st, ps, ship, to, *line)
    if via == "wormhole":
        return wormhole_move(st, ps, ship, to)
    by_line: Move | None = None
    worm: Move | None = None
    line_err: IllegalAction | None = None
    worm_err: IllegalAction | None = None
    if line is not None:
        try:
            by_line = line_move(st, ps, ship, to, *line)
        except IllegalAction as e:
            line_err = e
    if by_line is None or by_line.pay:
        try:
            worm = wormhole_move(st, ps, ship, to)
        except IllegalAction as e:
            worm_err = e
    if worm is not None:               # free, so better than a line that pays to pass
        return worm
    if by_line is not None:
        return by_line
    if line_err is not None:
        raise line_err
    if worm_err is not None and worm_err.rule != "wormhole":
        raise worm_err                 # the jump is possible but the end is not
    raise IllegalAction("not-straight", f"{label(to)} is not in a straight line from "
                        f"{label(ship.at)}" + (" nor next to another Wormhole"
                                               if worm_err is not None and "jumps" in worm_err.detail
                                               else ""))


def line_move(st: State, ps: PlayerState, ship: Ship, to: Hex, dname: str, n: int) -> Move:
    """``ship`` going ``n`` systems in direction ``dname`` to ``to`` (S Movement)."""
    d = hm.DIRECTIONS[dname]
    if n >= len(st.map):     # bounded by the map before any path is built
        raise IllegalAction("off-map", f"{label(to)} is {n} systems away; the map has only "
                            f"{len(st.map)} systems")
    if ship.damaged and n > DAMAGED_REACH:
        raise IllegalAction("damaged-reach", f"the ship is damaged: it moves at most "
                            f"{DAMAGED_REACH} systems, {label(to)} is {n} away")
    path = [hm.add(ship.at, d, k) for k in range(1, n)]
    pay: list[tuple[Hex, str]] = []
    for h in path:
        s = st.map.get(h)
        if s is None:
            raise IllegalAction("off-map", f"no system at {label(h)} on the way")
        if s.kind == "black_hole":
            raise IllegalAction("black-hole", f"the Black Hole at {label(h)} is in the way")
        if h in st.blocked:
            raise IllegalAction("blocked-system", f"the {st.blocked[h]} at {label(h)} is in the way")
        owner = st.controller(h)
        if owner is not None and owner != ps.name:
            if st.setup.variant("open_borders"):
                pay.append((h, owner))
            else:
                raise IllegalAction("opponent-system", f"{owner}'s system at {label(h)} is in "
                                    "the way")
    kind, pieces = landing(st, ps, ship, to, paying=len(pay))
    return Move(to, "line", kind, pieces, dname, n, tuple(path), tuple(pay), st.map.get(to))


def wormhole_move(st: State, ps: PlayerState, ship: Ship, to: Hex) -> Move:
    """``ship`` jumping from next to one Wormhole to ``to``, next to another (S Wormholes)."""
    worms = st.map.of_kind("wormhole")
    near = [w for w in worms if hm.distance(w, ship.at) == 1]
    if not near:
        raise IllegalAction("wormhole", f"the ship at {label(ship.at)} is not next to a Wormhole")
    far = [w for w in worms if hm.distance(w, to) == 1 and any(x != w for x in near)]
    if not far:
        raise IllegalAction("wormhole", f"from next to a Wormhole a ship jumps next to another "
                            f"Wormhole; {label(to)} is not next to another one")
    kind, pieces = landing(st, ps, ship, to, paying=0)
    return Move(to, "wormhole", kind, pieces, system=st.map.get(to))


def landing(st: State, ps: PlayerState, ship: Ship, to: Hex,
            paying: int) -> tuple[str, tuple[str, ...]]:
    """Whether ``ship`` may end its move at ``to`` (``paying``: Cities owed to pass
    opponents): the move's kind (``colonise``, ``explore`` or ``repair``) and the pieces
    that may colonise it."""
    s = st.map.get(to)
    if s is None:
        raise IllegalAction("off-map", f"there is no system at {label(to)}")
    if s.kind == "black_hole":
        raise IllegalAction("black-hole", f"{label(to)} is a Black Hole")
    if s.kind == "wormhole":
        raise IllegalAction("wormhole-end", f"{label(to)} is a Wormhole")
    if to in st.blocked:
        raise IllegalAction("blocked-system", f"{label(to)} is a revealed {st.blocked[to]}")
    if to in st.conquered:
        raise IllegalAction("conquered", f"{label(to)} carries a Nordinn conquest marker")
    owner = st.controller(to)
    if owner is not None and owner != ps.name:
        what = "homeworld" if s.kind == "homeworld" else "system"
        raise IllegalAction("opponent-system", f"{label(to)} is {owner}'s {what}")
    if to == ps.home:
        if not ship.damaged:
            raise IllegalAction("own-homeworld", f"{label(to)} is {ps.name}'s own homeworld")
        # a repair trip colonises nothing, but passing opponents still costs Cities
        afford(ps, paying)
        return "repair", ()
    if owner == ps.name:
        raise IllegalAction("own-system", f"{ps.name} already controls {label(to)}")
    if s.kind == "homeworld":     # a seat without a player (a map for more players)
        raise IllegalAction("opponent-system", f"{label(to)} is a homeworld")
    afford(ps, paying)
    cities = ps.cities - paying
    if st.unexplored(to):
        if ship.damaged:
            raise IllegalAction("damaged-unexplored", f"the ship is damaged and {label(to)} is "
                                "unexplored")
        if cities < 1:
            raise IllegalAction("unexplored-city", f"{ps.name} has no City left"
                                + (" after paying to pass" if paying else ""))
        return "explore", ("city",)
    pieces = tuple(p for p, k in (("city", cities), ("trade_station", ps.trade_stations)) if k > 0)
    if not pieces:
        raise IllegalAction("no-pieces", f"{ps.name} has no City or Trade Station left")
    return "colonise", pieces


def afford(ps: PlayerState, paying: int) -> None:
    """Open Borders: each opponent system passed costs one unused City from the reserve
    (S Open Borders), whatever the move is for (a repair trip home included)."""
    if paying > ps.cities:
        raise IllegalAction("open-borders", f"passing {paying} opponent system(s) costs {paying} "
                            f"Cities; {ps.name} has {ps.cities}")


# ---------------------------------------------------------------------------
# colonising (S Colonize) and the score track
# ---------------------------------------------------------------------------
def colonise(st: State, ps: PlayerState, to: Hex, piece: Any, a: dict[str, Any], index: int,
             allowed: tuple[str, ...], effect: str | None = None,
             planets: int | None = None) -> None:
    """Place ``piece`` from ``ps``'s reserve at ``to`` (``effect``: the Unexplored System
    tile it colonises) and score its planets."""
    if piece not in PIECES:
        raise IllegalAction("piece", f"colonise {label(to)} with 'city' or 'trade_station'",
                            action=a)
    if piece not in allowed:
        left = {"city": ps.cities, "trade_station": ps.trade_stations}[piece]
        raise IllegalAction("no-pieces", f"{ps.name} has no {PIECE_NAMES[piece]} left"
                            + (" after paying to pass" if piece == "city" and left else ""),
                            action=a)
    if piece == "city":
        ps.cities -= 1
    else:
        ps.trade_stations -= 1
    s = st.map[to]
    colour = None
    if effect is None:
        if s.kind == "planetary":
            planets = s.planets
        elif s.kind == "nebula":
            colour = s.colour
    elif effect == "chromatic_nebula":
        colour = "chromatic"
    st.colonies[to] = Colony(ps.name, piece, index, planets or 0, colour, effect)
    a["piece"] = piece
    if planets:
        gain(ps, planets, "planets", "planetary system", to,
             f"colonised a system with {planets} planet{'s' if planets > 1 else ''}", index)


def gain(ps: PlayerState, vp: int, category: str, source: str, at: Hex, rule: str,
         index: int) -> None:
    """``vp`` on ``ps``'s score track, with its line in the ledger."""
    ps.vp += vp
    ps.ledger.append(VPLine(ps.name, vp, category, source, at, rule, index))
