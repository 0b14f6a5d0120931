"""Small Star Empires state: the ships, the colonies, the score track (``VPLine``), who
controls what, and :class:`Move` (a legal destination).  Derived by replaying a game's
actions (companion/sse/turns.py); never stored."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .hexmap import Hex, HexMap, System
from .setup import SseSetup


@dataclass
class Ship:
    id: int
    at: Hex
    damaged: bool = False


@dataclass(frozen=True)
class Colony:
    owner: str
    piece: str                 # city | trade_station
    index: int                 # the action that placed it
    planets: int = 0           # planets controlled through it
    colour: str | None = None  # nebula colour; "chromatic" for the wild nebula
    effect: str | None = None  # the Unexplored System tile it colonised

    @property
    def counts_as_trade_station(self) -> bool:
        return self.piece == "trade_station" or self.effect == "abandoned_trade_station"


@dataclass(frozen=True)
class VPLine:
    player: str
    vp: int
    category: str              # planets | exploration
    source: str
    at: Hex | None
    rule: str
    index: int


@dataclass
class PlayerState:
    name: str
    seat: int                  # 1-based
    home: Hex
    ships: list[Ship]
    cities: int
    trade_stations: int
    vp: int = 0
    ledger: list[VPLine] = field(default_factory=list)
    passed: bool = False
    passed_at: int | None = None      # number of actions applied when they passed
    received: int = 0                 # Open Borders: Cities received
    paid: int = 0                     # Open Borders: Cities paid
    last: dict[str, Any] | None = None

    def copy(self) -> "PlayerState":
        return PlayerState(self.name, self.seat, self.home, [Ship(s.id, s.at, s.damaged) for s in self.ships],
                           self.cities, self.trade_stations, self.vp, list(self.ledger), self.passed,
                           self.passed_at, self.received, self.paid, self.last)

    def reserve(self) -> int:
        return self.cities + self.trade_stations


@dataclass
class State:
    setup: SseSetup
    map: HexMap
    players: dict[str, PlayerState]
    colonies: dict[Hex, Colony] = field(default_factory=dict)
    revealed: dict[Hex, dict[str, Any]] = field(default_factory=dict)  # unexplored tiles turned up
    blocked: dict[Hex, str] = field(default_factory=dict)      # asteroid field / Nordinn Empire
    conquered: set[Hex] = field(default_factory=set)                # Nordinn conquest markers
    current: str | None = None
    finished: bool = False
    end_reason: str = ""
    index: int = 0
    moves: int = 0
    #: the players whose pieces were laid from the table (``lay`` entries, issue 39)
    laid: list[str] = field(default_factory=list)
    #: a game laid now: the player whose turn it is once every player is laid
    laid_next: str | None = None
    #: the laid players whose entry gives their ships (optional in a final position)
    laid_ships: list[str] = field(default_factory=list)

    @classmethod
    def initial(cls, setup: SseSetup) -> "State":
        m = setup.start_map()
        homes = m.homeworlds()
        players = {}
        for seat, p in enumerate(setup.players, 1):
            h = homes[seat]
            players[p] = PlayerState(p, seat, h, [Ship(i, h) for i in range(setup.ships)],
                                     setup.cities_for(p), setup.trade_stations)
        return cls(setup, m, players)

    def copy(self) -> "State":
        return State(self.setup, self.map, {k: v.copy() for k, v in self.players.items()},
                     dict(self.colonies), dict(self.revealed), dict(self.blocked),
                     set(self.conquered), self.current, self.finished, self.end_reason,
                     self.index, self.moves, list(self.laid), self.laid_next,
                     list(self.laid_ships))

    # -- who controls what ---------------------------------------------------------
    def controller(self, h: Hex) -> str | None:
        """The player controlling ``h``: a colony's owner, or a homeworld's player."""
        c = self.colonies.get(h)
        if c is not None:
            return c.owner
        s = self.map.get(h)
        if s is not None and s.kind == "homeworld" and s.home is not None:
            return self.setup.players[s.home - 1] if s.home <= len(self.setup.players) else None
        return None

    def controlled(self, player: str) -> set[Hex]:
        """Every system ``player`` controls, the homeworld included (ruling, see docs)."""
        out = {h for h, c in self.colonies.items() if c.owner == player}
        out.add(self.players[player].home)
        return out

    def ships_at(self, h: Hex) -> list[tuple[str, Ship]]:
        return [(p, s) for p, ps in self.players.items() for s in ps.ships if s.at == h]

    def unexplored(self, h: Hex) -> bool:
        s = self.map.get(h)
        return s is not None and s.kind == "unexplored" and h not in self.revealed

    def pieces_on_board(self, player: str) -> dict[str, int]:
        out = {"city": 0, "trade_station": 0}
        for c in self.colonies.values():
            if c.owner == player:
                out[c.piece] += 1
        return out


@dataclass
class Move:
    """A legal destination of one ship (what :meth:`SseGame.legal_moves` returns)."""
    to: Hex
    via: str                        # line | wormhole (refuel: refuel_choices)
    kind: str                       # colonise | explore | repair
    pieces: tuple[str, ...]         # pieces that may colonise it ( () for a repair)
    direction: str | None = None
    distance: int | None = None
    passes: tuple[Hex, ...] = ()
    pay: tuple[tuple[Hex, str], ...] = ()      # Open Borders: (system passed, its owner)
    system: System | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {"to": list(self.to), "via": self.via, "kind": self.kind, "pieces": list(self.pieces)}
        if self.pay:
            d["pay"] = [{"at": list(h), "to": o} for h, o in self.pay]
        return d
