"""Small Star Empires movement and colonising (S Movement, S Wormholes, S Black Holes,
S Colonize; the reach of a damaged ship and the Open Borders toll are checked here too):
where a ship may go and what it may place there.  Pure functions of a :class:`State`;
each raises :class:`~companion.core.errors.IllegalAction` with the rule that forbids a
move.  Applying a move (the ``"move"`` handler) is in companion/sse/turns.py; the
Unexplored System tiles' effects in companion/sse/effects.py.

Each rule is checked once, by a function that returns its answer or a :class:`Refusal`
(the rule and its message, the message made only when it is shown): :func:`route`,
:func:`line_move`, :func:`wormhole_move`, :func:`landing` and :func:`afford` raise the
refusal as an :class:`IllegalAction`; :func:`destinations` and :func:`can_move`, which
try many systems and only keep the legal ones, skip it without building any message."""
from __future__ import annotations

from typing import Any, Callable, Iterator, TypeVar

from ..core.errors import IllegalAction
from . import hexmap as hm
from .hexmap import Hex, label
from .rules import DAMAGED_REACH, PIECE_NAMES, PIECES
from .state import Colony, Move, PlayerState, Ship, State, VPLine

_T = TypeVar("_T")


class Refusal:
    """Why the rules forbid a move: the rule's code and the message, made on demand."""

    __slots__ = ("rule", "_message")

    def __init__(self, rule: str, message: Callable[[], str]) -> None:
        self.rule = rule
        self._message = message

    @property
    def detail(self) -> str:
        return self._message()

    def error(self) -> IllegalAction:
        return IllegalAction(self.rule, self.detail)


def _checked(answer: _T | Refusal) -> _T:
    """``answer``, or its refusal raised as an :class:`IllegalAction`."""
    if isinstance(answer, Refusal):
        raise answer.error()
    return answer


# ---------------------------------------------------------------------------
# where a ship may go
# ---------------------------------------------------------------------------
def destinations(st: State, ps: PlayerState, ship: Ship, first: bool = False) -> dict[Hex, Move]:
    """Every legal destination of ``ship`` (``first``: stop at the first one found)."""
    worms = st.map.of_kind("wormhole")
    out: dict[Hex, Move] = {}
    tried = {ship.at}
    for h, line in _candidates(st, ship, worms):
        if h in tried:
            continue
        tried.add(h)
        move = _route(st, ps, ship, h, None, worms, line)
        if isinstance(move, Refusal):
            continue
        out[h] = move
        if first:
            return out
    return out


def _candidates(st: State, ship: Ship,
                worms: list[Hex]) -> Iterator[tuple[Hex, tuple[str, int] | None]]:
    """The systems ``ship`` might reach, in order, some more than once, each with its
    straight line from the ship (:func:`~companion.sse.hexmap.direction_to`), made as
    they are tried (:func:`can_move` stops at the first legal one): each straight line to
    the map's edge (a damaged ship's reach), then the systems next to each Wormhole if the
    ship is next to one."""
    for dname, d in hm.DIRECTIONS.items():
        h = ship.at
        n = 0
        while True:
            h = hm.add(h, d)
            n += 1
            if h not in st.map:
                break
            yield h, (dname, n)
            if ship.damaged and hm.distance(h, ship.at) >= DAMAGED_REACH:
                break
    if any(hm.distance(w, ship.at) == 1 for w in worms):
        for w in worms:
            for h in st.map.neighbours(w):
                yield h, hm.direction_to(ship.at, h)


def can_move(st: State, player: str) -> bool:
    """``player`` has a ship with at least one legal destination."""
    ps = st.players[player]
    return any(destinations(st, ps, s, first=True) for s in ps.ships)


def route(st: State, ps: PlayerState, ship: Ship, to: Hex, via: str | None = None) -> Move:
    """How ``ship`` can reach ``to`` (a straight line, or a wormhole jump), or the rule
    that forbids it."""
    return _checked(_route(st, ps, ship, to, via))


#: :func:`_route`'s ``line`` when it is not known yet
_UNKNOWN: Any = object()


def _route(st: State, ps: PlayerState, ship: Ship, to: Hex, via: str | None = None,
           worms: list[Hex] | None = None, line: tuple[str, int] | None = _UNKNOWN
           ) -> Move | Refusal:
    """:func:`route`'s answer or refusal (``worms``: the map's Wormholes, ``line``:
    ``direction_to(ship.at, to)``, if known)."""
    if to == ship.at:
        return Refusal("no-move", lambda: f"the ship is already at {label(to)}")
    if line is _UNKNOWN:
        line = hm.direction_to(ship.at, to)
    if via == "line":
        if line is None:
            return Refusal("not-straight", lambda: f"{label(to)} is not in a straight line "
                           f"from {label(ship.at)}")
        return _line_move(st, ps, ship, to, *line)
    if via == "wormhole":
        return _wormhole_move(st, ps, ship, to, worms)
    by_line: Move | None = None
    worm: Move | None = None
    line_err: Refusal | None = None
    worm_err: Refusal | None = None
    if line is not None:
        m = _line_move(st, ps, ship, to, *line)
        if isinstance(m, Refusal):
            line_err = m
        else:
            by_line = m
    if by_line is None or by_line.pay:
        m = _wormhole_move(st, ps, ship, to, worms)
        if isinstance(m, Refusal):
            worm_err = m
        else:
            worm = m
    if worm is not None:               # free, so better than a line that pays to pass
        return worm
    if by_line is not None:
        return by_line
    if line_err is not None:
        return line_err
    if worm_err is not None and worm_err.rule != "wormhole":
        return worm_err                # the jump is possible but the end is not
    return Refusal("not-straight", lambda: f"{label(to)} is not in a straight line from "
                   f"{label(ship.at)}" + (" nor next to another Wormhole"
                                          if worm_err is not None and "jumps" in worm_err.detail
                                          else ""))


def line_move(st: State, ps: PlayerState, ship: Ship, to: Hex, dname: str, n: int) -> Move:
    """``ship`` going ``n`` systems in direction ``dname`` to ``to`` (S Movement)."""
    return _checked(_line_move(st, ps, ship, to, dname, n))


def _line_move(st: State, ps: PlayerState, ship: Ship, to: Hex, dname: str,
               n: int) -> Move | Refusal:
    """:func:`line_move`'s answer or refusal."""
    d = hm.DIRECTIONS[dname]
    if n >= len(st.map):     # bounded by the map before any path is built
        return Refusal("off-map", lambda: f"{label(to)} is {n} systems away; the map has only "
                       f"{len(st.map)} systems")
    if ship.damaged and n > DAMAGED_REACH:
        return Refusal("damaged-reach", lambda: f"the ship is damaged: it moves at most "
                       f"{DAMAGED_REACH} systems, {label(to)} is {n} away")
    path = [hm.add(ship.at, d, k) for k in range(1, n)] if n > 1 else []
    pay: list[tuple[Hex, str]] = []
    for h in path:        # a refusal returns at once: its message reads this ``h``
        s = st.map.get(h)
        if s is None:
            return Refusal("off-map", lambda: f"no system at {label(h)} on the way")
        if s.kind == "black_hole":
            return Refusal("black-hole", lambda: f"the Black Hole at {label(h)} is in the way")
        if h in st.blocked:
            return Refusal("blocked-system",
                           lambda: f"the {st.blocked[h]} at {label(h)} is in the way")
        owner = st.controller(h)
        if owner is not None and owner != ps.name:
            if st.setup.variant("open_borders"):
                pay.append((h, owner))
            else:
                return Refusal("opponent-system", lambda: f"{owner}'s system at "
                               f"{label(h)} is in the way")
    landed = _landing(st, ps, ship, to, paying=len(pay))
    if isinstance(landed, Refusal):
        return landed
    kind, pieces = landed
    return Move(to, "line", kind, pieces, dname, n, tuple(path), tuple(pay), st.map.get(to))


def wormhole_move(st: State, ps: PlayerState, ship: Ship, to: Hex) -> Move:
    """``ship`` jumping from next to one Wormhole to ``to``, next to another (S Wormholes)."""
    return _checked(_wormhole_move(st, ps, ship, to))


def _wormhole_move(st: State, ps: PlayerState, ship: Ship, to: Hex,
                   worms: list[Hex] | None = None) -> Move | Refusal:
    """:func:`wormhole_move`'s answer or refusal (``worms``: the map's Wormholes, if known)."""
    if worms is None:
        worms = st.map.of_kind("wormhole")
    near = [w for w in worms if hm.distance(w, ship.at) == 1] if worms else []
    if not near:
        return Refusal("wormhole", lambda: f"the ship at {label(ship.at)} is not next to a "
                       "Wormhole")
    far = [w for w in worms if hm.distance(w, to) == 1 and any(x != w for x in near)]
    if not far:
        return Refusal("wormhole", lambda: "from next to a Wormhole a ship jumps next to another "
                       f"Wormhole; {label(to)} is not next to another one")
    landed = _landing(st, ps, ship, to, paying=0)
    if isinstance(landed, Refusal):
        return landed
    kind, pieces = landed
    return Move(to, "wormhole", kind, pieces, system=st.map.get(to))


def landing(st: State, ps: PlayerState, ship: Ship, to: Hex,
            paying: int) -> tuple[str, tuple[str, ...]]:
    """Whether ``ship`` may end its move at ``to`` (``paying``: Cities owed to pass
    opponents): the move's kind (``colonise``, ``explore`` or ``repair``) and the pieces
    that may colonise it."""
    return _checked(_landing(st, ps, ship, to, paying))


def _landing(st: State, ps: PlayerState, ship: Ship, to: Hex,
             paying: int) -> tuple[str, tuple[str, ...]] | Refusal:
    """:func:`landing`'s answer or refusal."""
    s = st.map.get(to)
    if s is None:
        return Refusal("off-map", lambda: f"there is no system at {label(to)}")
    if s.kind == "black_hole":
        return Refusal("black-hole", lambda: f"{label(to)} is a Black Hole")
    if s.kind == "wormhole":
        return Refusal("wormhole-end", lambda: f"{label(to)} is a Wormhole")
    if to in st.blocked:
        return Refusal("blocked-system", lambda: f"{label(to)} is a revealed {st.blocked[to]}")
    if to in st.conquered:
        return Refusal("conquered", lambda: f"{label(to)} carries a Nordinn conquest marker")
    owner = st.controller(to)
    if owner is not None and owner != ps.name:
        what = "homeworld" if s.kind == "homeworld" else "system"
        return Refusal("opponent-system", lambda: f"{label(to)} is {owner}'s {what}")
    if to == ps.home:
        if not ship.damaged:
            return Refusal("own-homeworld", lambda: f"{label(to)} is {ps.name}'s own homeworld")
        # a repair trip colonises nothing, but passing opponents still costs Cities
        too_dear = _afford(ps, paying)
        if too_dear is not None:
            return too_dear
        return "repair", ()
    if owner == ps.name:
        return Refusal("own-system", lambda: f"{ps.name} already controls {label(to)}")
    if s.kind == "homeworld":     # a seat without a player (a map for more players)
        return Refusal("opponent-system", lambda: f"{label(to)} is a homeworld")
    too_dear = _afford(ps, paying)
    if too_dear is not None:
        return too_dear
    cities = ps.cities - paying
    if st.unexplored(to):
        if ship.damaged:
            return Refusal("damaged-unexplored", lambda: f"the ship is damaged and {label(to)} "
                           "is unexplored")
        if cities < 1:
            return Refusal("unexplored-city", lambda: f"{ps.name} has no City left"
                           + (" after paying to pass" if paying else ""))
        return "explore", ("city",)
    pieces = (("city",) if cities > 0 else ()) + (("trade_station",) if ps.trade_stations > 0
                                                  else ())
    if not pieces:
        return Refusal("no-pieces", lambda: f"{ps.name} has no City or Trade Station left")
    return "colonise", pieces


def afford(ps: PlayerState, paying: int) -> None:
    """Open Borders: each opponent system passed costs one unused City from the reserve
    (S Open Borders), whatever the move is for (a repair trip home included)."""
    too_dear = _afford(ps, paying)
    if too_dear is not None:
        raise too_dear.error()


def _afford(ps: PlayerState, paying: int) -> Refusal | None:
    """:func:`afford`'s refusal, or None."""
    if paying > ps.cities:
        return Refusal("open-borders", lambda: f"passing {paying} opponent system(s) costs "
                       f"{paying} Cities; {ps.name} has {ps.cities}")
    return None


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
