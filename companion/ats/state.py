"""Among the Stars: the state of a game (derived by replaying its actions).

:class:`State` holds every player's VP, credits and station, the year and turn,
who has acted, the effects still to resolve (:class:`Pending`) and the modes'
bookkeeping; :func:`gain` is the one way VP change (with a traceable line).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .catalogue import Catalogue
from .setup import BASE_REACTOR_SUPPLY, START_CREDITS, Setup
from .station import Cell, Station


@dataclass(frozen=True)
class VPLine:
    """One VP change, traceable to its source."""
    player: str
    vp: int
    category: str          # printed | ability | interaction | manual
    source: str            # card name (or what)
    cell: Cell | None
    rule: str
    year: int
    turn: int
    index: int             # action index that caused it


@dataclass
class PlayerState:
    name: str
    vp: int = 0
    credits: int = 0
    station: Station = field(default_factory=Station)
    ledger: list[VPLine] = field(default_factory=list)
    last: dict[str, Any] | None = None

    def copy(self) -> "PlayerState":
        return PlayerState(self.name, self.vp, self.credits, self.station.copy(),
                           list(self.ledger), self.last)


@dataclass
class Pending:
    owner: str
    kind: str              # choice | ability | conflict | spaceships | own | gain
    card: str
    cell: Cell | None
    data: Any
    index: int
    choices: dict[str, Any] = field(default_factory=dict)


@dataclass
class State:
    setup: Setup
    players: dict[str, PlayerState]
    year: int = 1
    turn: int = 1
    acted: list[str] = field(default_factory=list)
    reactor_supply: int = BASE_REACTOR_SUPPLY
    pending: list[Pending] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    finished: bool = False
    index: int = 0          # number of actions applied
    virtual_done: list[str] = field(default_factory=list)   # virtual seats done this turn
    face_up: list[str] = field(default_factory=list)        # cards the virtual seats dropped
    turn_order: list[str] = field(default_factory=list)     # timing rules: this turn's order
    advisors: dict[str, int] = field(default_factory=dict)  # tile -> position (<0: 1st player)
    advisor_claims: list[str] = field(default_factory=list) # tiles settled at this round end
    #: simultaneous play: this turn's advisor moves (player, tile, index), made at the
    #: turn's end in score order (R 4, R 5, B Playing Order)
    advisor_moves: list[tuple[str, str, int]] = field(default_factory=list)
    #: the players whose station was laid from the table (``lay`` entries, issue 39)
    laid: list[str] = field(default_factory=list)

    @classmethod
    def initial(cls, setup: Setup) -> "State":
        players = {p: PlayerState(p, credits=START_CREDITS,
                                  station=Station(bounds=setup.bounds_of(p)))
                   for p in setup.players}
        # a game laid under way (issue 39, ``options.laid: "now"``) stands at the start of
        # the turn ``options.laid_at`` names while its stations are laid
        year, turn = setup.laid_at or (1, 1)
        return cls(setup, players, year=year, turn=turn, reactor_supply=setup.reactor_supply,
                   advisors={t["name"]: 0 for t in setup.options.get("advisors") or []})

    def copy(self, only: str | None = None) -> "State":
        """A full, independent copy to change: every player's part is copied (a
        station's graph is copied on write, so this is cheap).  ``only`` is accepted
        for compatibility and ignored: sharing the other players' parts let an action
        that touches them (an advisor's bonus, School of Alien Cultures, a spaceship)
        change the state it was copied from (issue 11)."""
        players = {k: v.copy() for k, v in self.players.items()}
        return State(self.setup, players, self.year,
                     self.turn, list(self.acted), self.reactor_supply, list(self.pending),
                     list(self.discards), self.finished, self.index, list(self.virtual_done),
                     list(self.face_up), list(self.turn_order), dict(self.advisors),
                     list(self.advisor_claims), list(self.advisor_moves), list(self.laid))

    @property
    def waiting(self) -> list[str]:
        """Players who have not acted yet this turn, in seat order."""
        return [] if self.finished else [p for p in self.setup.players if p not in self.acted]

    @property
    def passing(self) -> str:
        return self.setup.passing(self.year)

    def station(self, player: str) -> Station:
        return self.players[player].station


def gain(state: State, player: str, vp: int, category: str, source: str, cell: Cell | None,
         rule: str, index: int) -> int:
    """Move ``player`` on the VP track by ``vp`` (never below 0, B FAQ) with a line
    saying why; returns the change actually made."""
    ps = state.players[player]
    actual = max(-ps.vp, vp)          # VP never below 0 (B FAQ)
    if actual != vp:
        rule += f" (only {-actual} could be lost: VP never goes below 0)"
    ps.vp += actual
    if actual or actual != vp or category == "printed":    # a clamped loss is explained too
        line = object.__new__(VPLine)   # VPLine(...) with its frozen fields set directly:
        line.__dict__.update(player=player, vp=actual, category=category,   # (a replay
                             source=source, cell=cell, rule=rule,   # makes one per build)
                             year=state.year, turn=state.turn, index=index)
        ps.ledger.append(line)
    return actual


def turn_complete(state: State) -> bool:
    """Every player (and every virtual seat) has acted this turn."""
    return (len(state.acted) == len(state.players)
            and len(state.virtual_done) == len(state.setup.virtual_seats))


def at_round_end(state: State) -> bool:
    """Between two rounds: after the last turn of a year and before anything of
    the next year's first turn (or after year 4).  Round-end entries (advisors,
    removals) are made here."""
    return state.finished or (state.year > 1 and state.turn == 1 and not state.acted
                              and not state.virtual_done)


@dataclass
class Step:
    """One entry being applied to ``state`` (changed in place), with what the rules
    need besides the state.  ``a`` is the entry, normalised as it is checked;
    ``strict`` is set when a record is replayed (what was stored must be complete);
    ``draw_order`` draws the timing rules' order of a turn whose players tie."""
    catalogue: Catalogue
    state: State
    a: dict[str, Any]
    strict: bool = False
    end_turn: bool = True
    draw_order: Callable[[State], list[str]] | None = None
    #: a record from outside replayed (a file, an import: issue 36)
    outside: bool = False

    @property
    def boxed(self) -> bool:
        """Whether the checks no real game can break apply (the copies the box holds, a
        spaceship's space): to a new entry, and to a record from outside replayed; not to
        the store's own records (older games still open as they were entered)."""
        return not self.strict or self.outside

    @property
    def index(self) -> int:
        """The index of the entry in the record (the entries applied before it)."""
        return self.state.index
