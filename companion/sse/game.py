"""The Small Star Empires engine: a game is its setup plus an ordered list of moves.

Same model as the Among the Stars engine (python-chess style):
:meth:`SseGame.push` applies an action or raises
:class:`~companion.core.errors.IllegalAction` (with a rule code) and changes
nothing, :meth:`SseGame.pop` takes the last one back, :meth:`SseGame.check` and
:meth:`SseGame.legal_moves` are queries.  The state is always the replay of the
record.  Book references: "S Movement", "S Colonize", "S Game End",
"S Variants ..." are the sections of the Small Star Empires rulebook.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CompanionError, IllegalAction, RecordError
from . import hexmap as hm
from .hexmap import EFFECT_NAMES, Hex, HexMap, System, as_hex, label
from .record import FORMAT  # the one definition: companion/sse/record.py

PIECES = ("city", "trade_station")
PIECE_NAMES = {"city": "City", "trade_station": "Trade Station"}
#: per player in the box (S Components: 4 Ships, 16 Cities and 4 Trade Stations per player)
BOX = {"ships": 4, "cities": 16, "trade_stations": 4}
#: Campaign Mode: Cities and Trade Stations per player, and the wins that take the campaign
CAMPAIGN_PIECES = {2: (14, 4), 3: (12, 3), 4: (10, 2)}
CAMPAIGN_TARGET = {2: 5, 3: 4, 4: 3}
NEBULA_TABLE = (2, 5, 8)          # 1, 2, 3 nebulae of a colour (S Scoring)
EPIC_NEBULAE = 6                  # the epic table has columns for 1 to 6 nebulae
DAMAGED_REACH = 2                 # a damaged ship moves at most 2 systems (S Damaged Ships)
EFFECT_VP = {"abandoned_trade_station": 1, "refuelling_station": 1,
             "hollana_federation": 2, "tennar_union": 2}
VARIANTS = ("damaged_ships", "unexplored", "open_borders")
#: Readings of the book's text where it can be taken two ways (setup.options; the
#: first value is the default, the book's literal words; docs/small-star-empires.md).
#: nordinn: "If you don't have any Cities adjacent to this system, then choose another
#:   player's City and destroy that instead.  If you destroy an adjacent City this way,
#:   place the conquest marker" -- "any_city": any other player's City, adjacent or not
#:   (a marker only for an adjacent one); "adjacent_city": only an adjacent one.
#: refuel: "move the ship in this system into an adjacent uncolonized system and
#:   colonize that system" -- "uncolonised": an Unexplored System is uncolonised too
#:   (it is revealed and applied as usual); "explored": only an explored system.
#: pieces: "book": ships 2-4 ("each player starts with 2-4 ships", S Setup) and the mode's
#:   Cities and Trade Stations (S Components: 16 and 4 per player; Campaign Mode's table;
#:   epic mode: the record's, from the book's epic tables), anything else is refused;
#:   "custom": any ships from 1 to 12 and any Cities and Trade Stations (house and test
#:   setups; :meth:`SseSetup.off_book` says how they differ from the book).
OPTIONS = {"nordinn": ("any_city", "adjacent_city"), "refuel": ("uncolonised", "explored"),
           "pieces": ("book", "custom")}
#: S Setup: "each player starts with 2-4 ships of his color on his Homeworld System"
BOOK_SHIPS = (2, 4)
MODES = ("standard", "epic")
ACTION_KEYS = {"do", "player", "ship", "from", "to", "piece", "via", "pay", "reveal", "destroy",
               "then", "note"}
DEFAULT_COLOURS = ["#e0a800", "#8e44ad", "#e8590c", "#1c7c7c"]

RULES = {
    "wrong-player": "it is another player's turn (players move in seat order; a player who "
                    "cannot move has passed for the rest of the game)",
    "game-over": "the game has ended (nobody can move, or every piece is on the board)",
    "no-ship": "that ship does not exist",
    "no-move": "a ship must move to another system",
    "not-straight": "a ship moves in a straight line in one of the six directions (S Movement)",
    "off-map": "there is no system there: ships move from system to system on the board",
    "opponent-system": "a ship may never move into or pass through a system another player "
                       "controls, nor another player's homeworld (S Movement)",
    "black-hole": "a ship may never move into or pass through a Black Hole (S Black Holes)",
    "blocked-system": "no ship may enter or pass through a revealed Asteroid Field or Nordinn "
                      "Empire system (S Unexplored Systems)",
    "conquered": "a system with a Nordinn conquest marker cannot be entered (S Unexplored Systems)",
    "wormhole-end": "a ship may pass through a Wormhole but never stop in it (S Movement)",
    "wormhole": "a wormhole jump starts next to one Wormhole and ends next to another (S Wormholes)",
    "own-system": "a ship may not end its move in a system its owner already controls (S Movement)",
    "own-homeworld": "a ship may not move into its own homeworld, except a damaged ship going "
                     "home for repair (S Movement, S Damaged Ships)",
    "damaged-reach": "a damaged ship moves at most 2 systems (S Damaged Ships)",
    "damaged-unexplored": "a damaged ship cannot enter an Unexplored System (S Damaged Ships)",
    "unexplored-city": "an Unexplored System is colonised with a City: without a City left you "
                       "cannot enter it (S Unexplored Systems)",
    "no-pieces": "the colonising City or Trade Station must come from the reserve",
    "piece": "colonise the system with 'city' or 'trade_station' from the reserve (S Colonize)",
    "repair": "a damaged ship that goes home is repaired and colonises nothing (S Damaged Ships)",
    "reveal": "name the effect of the Unexplored System tile just turned face-up",
    "destroy": "Nordinn Empire: destroy one of your own adjacent Cities, else another player's "
               "City (setup.options.nordinn: any_city, the default, or adjacent_city) "
               "(S Unexplored Systems)",
    "refuel": "Refuelling Station: the ship may go on to an adjacent uncolonised system and "
              "colonise it (S Unexplored Systems)",
    "open-borders": "Open Borders: passing an opponent's system costs one of your unused Cities, "
                    "paid to that opponent (S Open Borders)",
    "damaged": "damaging a ship (an expansion's effect) needs the damaged-ships variant, "
               "and the ship must be undamaged",
    "malformed": "the action is not in the record format",
}


class IllegalMove(IllegalAction):
    """An illegal Small Star Empires action: the message names the player, the ship, the
    destination and the rule."""

    def _compose(self) -> str:
        a = self.action
        head = str(a.get("player", "?"))
        if a.get("do") == "damage":
            head += f" damage ship {a.get('ship', '?')}"
        else:
            head += " move"
            if a.get("ship") is not None:
                head += f" ship {a['ship']}"
            elif a.get("from") is not None:
                head += f" from {a['from']}"
            if a.get("to") is not None:
                head += f" to {a['to']}"
        return f"{head}: {self.detail} [rule: {self.rule}]"


def rule_text(rule: str) -> str:
    return RULES.get(rule, rule)


def _whole(v, lo=0, hi=10_000) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------
@dataclass
class SseSetup:
    players: list[str]
    map: HexMap
    ships: int
    cities: int
    trade_stations: int
    variants: dict[str, bool] = field(default_factory=dict)
    mode: str = "standard"
    nebula_table: list[int] | None = None
    campaign: dict | None = None        # {"wins": {player: n}, "game": k}
    colours: dict[str, str] = field(default_factory=dict)
    pieces_given: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: Any) -> "SseSetup":
        if not isinstance(d, dict):
            raise RecordError("'setup' must be an object")
        known = {"players", "map", "pieces", "variants", "mode", "nebula_table", "campaign",
                 "colours", "options"}
        extra = set(d) - known
        if extra:
            raise RecordError(f"setup: unknown key '{sorted(extra)[0]}'")
        players = d.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise RecordError("setup.players must be a list of names")
        players = [p.strip() for p in players]
        if not 2 <= len(players) <= 4:
            raise RecordError(f"setup.players: 2 to 4 players, not {len(players)}")
        if len({p.lower() for p in players}) != len(players):
            raise RecordError("setup.players: two players have the same name")
        n = len(players)
        raw_map = d.get("map")
        if isinstance(raw_map, str):
            the_map = hm.load_named(raw_map)
        elif isinstance(raw_map, dict):
            the_map = HexMap.from_dict(raw_map)
        else:
            raise RecordError("setup.map must be a map (object) or the name of a map file")
        the_map.validate_for(n)
        mode = d.get("mode", "standard")
        if mode not in MODES:
            raise RecordError(f"setup.mode must be one of {', '.join(MODES)}")
        variants = d.get("variants") or {}
        if not isinstance(variants, dict):
            raise RecordError("setup.variants must be an object")
        for k, v in variants.items():
            if k not in VARIANTS:
                raise RecordError(f"setup.variants: unknown variant '{k}' (known: {', '.join(VARIANTS)})")
            if not isinstance(v, bool):
                raise RecordError(f"setup.variants.{k} must be true or false")
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("setup.options must be an object")
        for k, v in options.items():
            if k not in OPTIONS:
                raise RecordError(f"setup.options: unknown option '{k}' (known: "
                                  f"{', '.join(OPTIONS)})")
            if v not in OPTIONS[k]:
                raise RecordError(f"setup.options.{k} is one of {', '.join(OPTIONS[k])}")
        campaign = d.get("campaign")
        if campaign is not None:
            if not isinstance(campaign, dict) or set(campaign) - {"wins", "game"}:
                raise RecordError("setup.campaign must be {\"wins\": {player: n}, \"game\": k}")
            wins = campaign.get("wins") or {}
            if not isinstance(wins, dict) or not all(p in players and _whole(v, 0, 99)
                                                     for p, v in wins.items()):
                raise RecordError("setup.campaign.wins must map player names to whole numbers")
            if n not in CAMPAIGN_PIECES:
                raise RecordError("Campaign Mode is for 2 to 4 players")
            if any(v >= CAMPAIGN_TARGET[n] for v in wins.values()):
                raise RecordError("setup.campaign: a player has already won the campaign")
            game_no = campaign.get("game", 1)
            if not _whole(game_no, 1, 999):
                raise RecordError("setup.campaign.game must be a whole number >= 1")
            campaign = {"wins": {p: int(wins.get(p, 0)) for p in players}, "game": game_no}
        pieces = d.get("pieces")
        if not isinstance(pieces, dict):
            raise RecordError("setup.pieces must give at least 'ships': each player starts with 2 to 4 "
                              "ships depending on the number of players (see the book's setup pictures)")
        if set(pieces) - {"ships", "cities", "trade_stations"}:
            raise RecordError(f"setup.pieces: unknown key '{sorted(set(pieces) - set(BOX))[0]}'")
        ships = pieces.get("ships")
        if not _whole(ships, 1, 12):
            raise RecordError("setup.pieces.ships: how many ships each player starts with (a whole "
                              "number; the book says 2 to 4 depending on the number of players, "
                              "a custom setup 1 to 12)")
        if mode == "epic":
            if not all(k in pieces for k in ("cities", "trade_stations")):
                raise RecordError("epic mode: give setup.pieces.cities and trade_stations "
                                  "(the book's epic component table)")
        cities_default, ts_default = BOX["cities"], BOX["trade_stations"]
        if campaign is not None:
            cities_default, ts_default = CAMPAIGN_PIECES[n]
        cities = pieces.get("cities", cities_default)
        ts = pieces.get("trade_stations", ts_default)
        if not _whole(cities, 0, 200) or not _whole(ts, 0, 200):
            raise RecordError("setup.pieces: cities and trade_stations are whole numbers")
        table = d.get("nebula_table")
        if mode != "epic":
            if table is not None and list(table) != list(NEBULA_TABLE):
                raise RecordError("setup.nebula_table is only for epic mode (the base game scores 2/5/8)")
            table = None
        elif table is not None:
            if not (isinstance(table, list) and len(table) == EPIC_NEBULAE
                    and all(_whole(v, 0, 999) for v in table)):
                raise RecordError(f"setup.nebula_table: {EPIC_NEBULAE} whole numbers, the VP for 1 "
                                  f"to {EPIC_NEBULAE} nebulae of a colour, from your rulebook")
        colours = d.get("colours") or {}
        if not isinstance(colours, dict) or not all(p in players and isinstance(c, str)
                                                    and len(c) < 40 for p, c in colours.items()):
            raise RecordError("setup.colours must map player names to colours")
        setup = cls(players, the_map, ships, cities, ts, dict(variants), mode,
                    list(table) if table is not None else None, campaign, dict(colours),
                    dict(pieces), dict(options))
        off = setup.off_book()
        if off and setup.option("pieces") == "book":
            raise RecordError("setup.pieces: " + "; ".join(off) + ". For a custom setup set "
                              "setup.options.pieces to \"custom\"")
        return setup

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"players": list(self.players), "map": self.map.to_dict(),
                             "pieces": {"ships": self.ships, "cities": self.cities,
                                        "trade_stations": self.trade_stations},
                             "variants": dict(self.variants), "mode": self.mode}
        if self.mode == "epic":
            d["nebula_table"] = list(self.nebula_table) if self.nebula_table else None
        if self.campaign is not None:
            d["campaign"] = copy.deepcopy(self.campaign)
        if self.colours:
            d["colours"] = dict(self.colours)
        if self.options:
            d["options"] = dict(self.options)
        return d

    def variant(self, name: str) -> bool:
        return bool(self.variants.get(name))

    def option(self, name: str) -> str:
        """A reading of the book (:data:`OPTIONS`): the record's, else the literal one."""
        return self.options.get(name, OPTIONS[name][0])

    def off_book(self) -> list[str]:
        """How the pieces differ from the book's (refused unless ``options.pieces`` is
        ``custom``): ships outside "2-4" (S Setup); Cities and Trade Stations other than the
        mode's (S Components: 16 and 4 per player; Campaign Mode's table).  Epic mode takes
        its pieces from the record (the book's epic tables, up to 5 ships): never off."""
        out: list[str] = []
        if self.mode == "epic":
            return out
        lo, hi = BOOK_SHIPS
        if not lo <= self.ships <= hi:
            out.append(f"{self.ships} ship{'s' if self.ships != 1 else ''} per player, the book "
                       f"says {lo}-{hi} (S Setup: \"each player starts with {lo}-{hi} ships\")")
        n = len(self.players)
        if self.campaign is not None:
            want = CAMPAIGN_PIECES[n]
            where = (f"Campaign Mode gives {want[0]} and {want[1]} (\"{n} Players - {want[0]} "
                     f"Cities and {want[1]} Trade Stations\")")
        else:
            want = (BOX["cities"], BOX["trade_stations"])
            where = (f"the box gives {want[0]} and {want[1]} (S Components: \"{BOX['ships']} "
                     f"Ships, {want[0]} Cities and {want[1]} Trade Stations per player\")")
        if (self.cities, self.trade_stations) != tuple(want):
            out.append(f"{self.cities} Cities and {self.trade_stations} Trade Stations per "
                       f"player, {where}")
        return out

    def cities_for(self, player: str) -> int:
        """Cities at the start of this game (Campaign Mode: minus the player's win pile)."""
        wins = (self.campaign or {}).get("wins", {}).get(player, 0)
        return max(0, self.cities - wins)

    def colour(self, player: str) -> str:
        return self.colours.get(player) or DEFAULT_COLOURS[self.players.index(player) % 4]

    def start_map(self) -> HexMap:
        """The board at the start: with the Unexplored Systems variant a face-down tile lies
        on every Empty System (S Unexplored Systems, setup)."""
        m = self.map.copy()
        if self.variant("unexplored"):
            for h, s in list(m.systems.items()):
                if s.kind == "empty":
                    m.systems[h] = System("unexplored")
        return m


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------


def legacy_setup(setup: Any) -> dict | None:
    """A setup saved before ``options.pieces`` existed (every piece count was accepted
    then): when it is refused only because its pieces are off the book, the same setup
    marked ``options.pieces = "custom"``, as it was played; otherwise None.  Used once
    per saved-games file (companion.core.store), so a game saved then still resumes."""
    if not isinstance(setup, dict) or "pieces" in (setup.get("options") or {}):
        return None
    if not isinstance(setup.get("options", {}), dict):
        return None
    try:
        SseSetup.from_dict(setup)
        return None                       # accepted as it is
    except RecordError:
        pass
    new = copy.deepcopy(setup)
    new["options"] = {**(setup.get("options") or {}), "pieces": "custom"}
    try:
        SseSetup.from_dict(new)
    except (RecordError, CompanionError):
        return None                       # refused for another reason: left as it is
    return new


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
    last: dict | None = None

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
    revealed: dict[Hex, dict] = field(default_factory=dict)    # unexplored tiles turned up
    blocked: dict[Hex, str] = field(default_factory=dict)      # asteroid field / Nordinn Empire
    conquered: set = field(default_factory=set)                # Nordinn conquest markers
    current: str | None = None
    finished: bool = False
    end_reason: str = ""
    index: int = 0
    moves: int = 0

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
                     self.index, self.moves)

    # -- who controls what ---------------------------------------------------------
    def controller(self, h: Hex) -> str | None:
        """The player controlling ``h``: a colony's owner, or a homeworld's player."""
        c = self.colonies.get(h)
        if c is not None:
            return c.owner
        s = self.map.get(h)
        if s is not None and s.kind == "homeworld":
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

    def to_dict(self) -> dict:
        d = {"to": list(self.to), "via": self.via, "kind": self.kind, "pieces": list(self.pieces)}
        if self.pay:
            d["pay"] = [{"at": list(h), "to": o} for h, o in self.pay]
        return d


# ---------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------
class SseGame:
    """Setup + actions; the state is derived by replaying them."""

    format = FORMAT

    def __init__(self, setup: SseSetup | dict, *, manual: list | None = None,
                 meta: dict | None = None):
        self.setup = setup if isinstance(setup, SseSetup) else SseSetup.from_dict(setup)
        self.manual: list[dict] = list(manual or [])
        self.meta = dict(meta or {})
        self.actions: list[dict] = []
        self.state = State.initial(self.setup)
        self._settle(self.state, 0)
        self._history: list[State] = []

    # -- record in and out ---------------------------------------------------------
    @classmethod
    def from_record(cls, record: dict) -> "SseGame":
        from .record import validate_record
        validate_record(record)
        record = copy.deepcopy(record)
        game = cls(record["setup"], manual=record.get("manual") or [], meta=record.get("meta"))
        for i, action in enumerate(record.get("actions") or []):
            try:
                game.push(action, strict=True)
            except IllegalAction as e:
                raise e.at_index(i)
        return game

    def to_record(self) -> dict:
        rec = {"format": FORMAT, "setup": self.setup.to_dict(),
               "actions": copy.deepcopy(self.actions)}
        if self.manual:
            rec["manual"] = copy.deepcopy(self.manual)
        return rec

    # -- the python-chess style API ----------------------------------------------------
    def push(self, action: dict, *, strict: bool = False) -> dict:
        """Apply ``action``; returns it normalised (as stored).  Raises IllegalAction
        (nothing changes)."""
        trial = self.state.copy()
        norm = self._apply(trial, action, strict=strict)
        self._history.append(self.state)
        self.state = trial
        self.actions.append(norm)
        return copy.deepcopy(norm)

    def pop(self) -> dict:
        """Undo the last action (returns it)."""
        if not self.actions:
            raise IndexError("no action to undo")
        self.state = self._history.pop()
        return self.actions.pop()

    def check(self, action: dict) -> dict:
        """The normalised action if it is legal now; raises IllegalAction if not.  A query."""
        return self._apply(self.state.copy(), action, strict=False)

    def is_legal(self, action: dict) -> bool:
        try:
            self.check(action)
            return True
        except IllegalAction:
            return False

    def why_illegal(self, action: dict) -> str | None:
        try:
            self.check(action)
            return None
        except IllegalAction as e:
            return str(e)

    def trial(self, action: dict) -> State:
        """The state after ``action`` (raises IllegalAction); the game is unchanged."""
        st = self.state.copy()
        self._apply(st, action, strict=False)
        return st

    @property
    def current(self) -> str | None:
        return self.state.current

    def ships(self, player: str) -> list[Ship]:
        return list(self.state.players[player].ships)

    def legal_moves(self, player: str, ship: int, state: State | None = None, *,
                    piece: str | None = None) -> list[Move]:
        """Every legal destination of ``player``'s ship number ``ship`` (a query; whether or
        not it is that player's turn).

        ``piece`` (``city`` or ``trade_station``): only the destinations where a move
        colonising with that piece is legal, i.e. the piece is in the move's ``pieces``
        (none left, or no City left after paying to pass under Open Borders, and the
        destination is not offered; an Unexplored System is entered with a City).  A repair
        at home places no piece and is kept whatever the piece.  ``None``: every move."""
        if piece is not None and piece not in PIECES:
            raise ValueError(f"piece is one of {', '.join(PIECES)} or None, not {piece!r}")
        st = state or self.state
        ps = st.players[player]
        if not (0 <= ship < len(ps.ships)):
            return []
        moves = list(self._destinations(st, ps, ps.ships[ship]).values())
        if piece is not None:
            moves = [m for m in moves if m.kind == "repair" or piece in m.pieces]
        return moves

    def legal_destinations(self, player: str, ship: int, *, piece: str | None = None) -> set[Hex]:
        return {m.to for m in self.legal_moves(player, ship, piece=piece)}

    def pieces_left(self, player: str, state: State | None = None) -> dict[str, int]:
        """The player's reserve: ``{"city": n, "trade_station": m}``."""
        ps = (state or self.state).players[player]
        return {"city": ps.cities, "trade_station": ps.trade_stations}

    def placeable_pieces(self, player: str, state: State | None = None) -> tuple[str, ...]:
        """The pieces ``player`` can colonise with now, City first: each kind with at least
        one left in the reserve (S Colonize: "from your reserves").  Nothing once the game
        is over or the player has passed for the rest of the game.  Whether a given
        destination takes that piece is :meth:`legal_moves` with ``piece=``."""
        st = state or self.state
        ps = st.players[player]
        if st.finished or ps.passed:
            return ()
        left = self.pieces_left(player, st)
        return tuple(p for p in PIECES if left[p] > 0)

    def can_move(self, player: str, state: State | None = None) -> bool:
        st = state or self.state
        ps = st.players[player]
        return any(self._destinations(st, ps, s, first=True) for s in ps.ships)

    def score(self, *, project: bool = False):
        from .scoring import score
        return score(self, project=project)

    # =============================================================== movement rules
    def _destinations(self, st: State, ps: PlayerState, ship: Ship, first: bool = False) -> dict[Hex, Move]:
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
                out[h] = self._route(st, ps, ship, h)
            except IllegalAction:
                continue
            if first:
                return out
        return out

    def _route(self, st: State, ps: PlayerState, ship: Ship, to: Hex, via: str | None = None) -> Move:
        """How ``ship`` can reach ``to`` (a straight line, or a wormhole jump), or the rule
        that forbids it."""
        if to == ship.at:
            raise IllegalAction("no-move", f"the ship is already at {label(to)}")
        line = hm.direction_to(ship.at, to)
        if via == "line":
            if line is None:
                raise IllegalAction("not-straight", f"{label(to)} is not in a straight line from "
                                    f"{label(ship.at)}")
            return self._line(st, ps, ship, to, *line)
        if via == "wormhole":
            return self._wormhole(st, ps, ship, to)
        line_move = line_err = worm_move = worm_err = None
        if line is not None:
            try:
                line_move = self._line(st, ps, ship, to, *line)
            except IllegalAction as e:
                line_err = e
        if line_move is None or line_move.pay:
            try:
                worm_move = self._wormhole(st, ps, ship, to)
            except IllegalAction as e:
                worm_err = e
        if worm_move is not None:          # free, so better than a line that pays to pass
            return worm_move
        if line_move is not None:
            return line_move
        if line_err is not None:
            raise line_err
        if worm_err is not None and worm_err.rule != "wormhole":
            raise worm_err                 # the jump is possible but the end is not
        raise IllegalAction("not-straight", f"{label(to)} is not in a straight line from "
                            f"{label(ship.at)}" + (" nor next to another Wormhole"
                                                   if worm_err is not None and "jumps" in worm_err.detail
                                                   else ""))

    def _line(self, st: State, ps: PlayerState, ship: Ship, to: Hex, dname: str, n: int) -> Move:
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
        kind, pieces = self._end(st, ps, ship, to, paying=len(pay))
        return Move(to, "line", kind, pieces, dname, n, tuple(path), tuple(pay), st.map.get(to))

    def _wormhole(self, st: State, ps: PlayerState, ship: Ship, to: Hex) -> Move:
        worms = st.map.of_kind("wormhole")
        near = [w for w in worms if hm.distance(w, ship.at) == 1]
        if not near:
            raise IllegalAction("wormhole", f"the ship at {label(ship.at)} is not next to a Wormhole")
        far = [w for w in worms if hm.distance(w, to) == 1 and any(x != w for x in near)]
        if not far:
            raise IllegalAction("wormhole", f"from next to a Wormhole a ship jumps next to another "
                                f"Wormhole; {label(to)} is not next to another one")
        kind, pieces = self._end(st, ps, ship, to, paying=0)
        return Move(to, "wormhole", kind, pieces, system=st.map.get(to))

    def _end(self, st: State, ps: PlayerState, ship: Ship, to: Hex, paying: int) -> tuple[str, tuple]:
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
            self._afford(ps, paying)
            return "repair", ()
        if owner == ps.name:
            raise IllegalAction("own-system", f"{ps.name} already controls {label(to)}")
        if s.kind == "homeworld":     # a seat without a player (a map for more players)
            raise IllegalAction("opponent-system", f"{label(to)} is a homeworld")
        self._afford(ps, paying)
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

    @staticmethod
    def _afford(ps: PlayerState, paying: int) -> None:
        """Open Borders: each opponent system passed costs one unused City from the reserve
        (S Open Borders), whatever the move is for (a repair trip home included)."""
        if paying > ps.cities:
            raise IllegalAction("open-borders", f"passing {paying} opponent system(s) costs {paying} "
                                f"Cities; {ps.name} has {ps.cities}")

    # =============================================================== applying actions
    def _apply(self, st: State, action: Any, strict: bool) -> dict:
        try:
            return self._apply_inner(st, action, strict)
        except IllegalMove:
            raise
        except IllegalAction as e:
            raise IllegalMove(e.rule, e.detail,
                              action=e.action or (action if isinstance(action, dict) else {})) from None

    def _apply_inner(self, st: State, action: Any, strict: bool) -> dict:
        if not isinstance(action, dict):
            raise IllegalAction("malformed", "an action must be an object")
        a = copy.deepcopy(action)
        extra = set(a) - ACTION_KEYS
        if extra:
            raise IllegalAction("malformed", f"unknown key '{sorted(extra)[0]}'", action=a)
        do = a.setdefault("do", "move")
        if do not in ("move", "damage"):
            raise IllegalAction("malformed", f"'do' is 'move' or 'damage', not {do!r}", action=a)
        player = a.get("player")
        if not isinstance(player, str) or player not in st.players:
            raise IllegalAction("wrong-player", f"{player!r} is not a player of this game", action=a)
        ps = st.players[player]
        if do == "damage":
            ship = self._ship(ps, a)
            self._damage(st, ps, ship, a)
            st.index += 1
            self._settle(st, st.setup.players.index(st.current))
            return self._order(a)
        if st.finished:
            raise IllegalAction("game-over", f"the game is over ({st.end_reason})", action=a)
        if player != st.current:
            why = (f"{player} cannot move any ship and has passed for the rest of the game"
                   if ps.passed else f"it is {st.current}'s turn")
            raise IllegalAction("wrong-player", why, action=a)
        ship = self._ship(ps, a)
        try:
            to = as_hex(a.get("to"), "'to'")
        except RecordError as e:
            raise IllegalAction("malformed", str(e), action=a) from None
        via = a.get("via")
        if via not in (None, "line", "wormhole"):
            raise IllegalAction("malformed", "'via' is 'line' or 'wormhole'", action=a)
        try:
            move = self._route(st, ps, ship, to, via)
        except IllegalAction as e:
            raise IllegalMove(e.rule, e.detail, action=a) from None
        a["via"] = move.via
        given_pay = a.get("pay")
        pay = [{"at": list(h), "to": o} for h, o in move.pay]
        if given_pay is not None and given_pay != pay:
            raise IllegalAction("open-borders", f"the Cities paid to pass are {pay or 'none'}",
                                action=a)
        if pay:
            a["pay"] = pay
        else:
            a.pop("pay", None)
        index = st.index
        # Open Borders payments
        for h, owner in move.pay:
            ps.cities -= 1
            ps.paid += 1
            st.players[owner].received += 1
        start = ship.at
        ship.at = to
        piece = a.get("piece")
        if move.kind == "repair":
            if piece is not None:
                raise IllegalAction("repair", "a ship repaired at home colonises nothing: no piece",
                                    action=a)
            ship.damaged = False
            a["piece"] = None
            for k in ("reveal", "destroy", "then"):
                if a.get(k) is not None:
                    raise IllegalAction("malformed", f"'{k}' has no meaning for a repair", action=a)
        elif move.kind == "explore":
            self._explore(st, ps, ship, to, a, index)
        else:
            for k in ("reveal", "destroy", "then"):
                if a.get(k) is not None:
                    raise IllegalAction("malformed", f"'{k}' is only for an Unexplored System",
                                        action=a)
            self._colonise(st, ps, to, piece, a, index, move.pieces)
        a["from"] = list(start)
        a["to"] = list(to)
        st.index += 1
        st.moves += 1
        ps.last = a
        self._settle(st, ps.seat)        # next seat (0-based index of the next player)
        return self._order(a)

    @staticmethod
    def _order(a: dict) -> dict:
        keys = ["do", "player", "ship", "from", "to", "via", "piece", "pay", "reveal", "destroy",
                "then", "note"]
        return {k: a[k] for k in keys if k in a and (a[k] is not None or k == "piece")}

    def _ship(self, ps: PlayerState, a: dict) -> Ship:
        sid, frm = a.get("ship"), a.get("from")
        if sid is None and frm is None:
            raise IllegalAction("no-ship", "name the ship ('ship': number, or 'from': [q, r])", action=a)
        if sid is not None:
            if not _whole(sid, 0, 99) or sid >= len(ps.ships):
                raise IllegalAction("no-ship", f"{ps.name} has ships 0 to {len(ps.ships) - 1}, "
                                    f"not {sid!r}", action=a)
            ship = ps.ships[sid]
            if frm is not None:
                try:
                    at = as_hex(frm, "'from'")
                except RecordError as e:
                    raise IllegalAction("malformed", str(e), action=a) from None
                if at != ship.at:
                    raise IllegalAction("no-ship", f"ship {sid} is at {list(ship.at)}, not {list(at)}",
                                        action=a)
        else:
            try:
                at = as_hex(frm, "'from'")
            except RecordError as e:
                raise IllegalAction("malformed", str(e), action=a) from None
            here = [s for s in ps.ships if s.at == at]
            if not here:
                raise IllegalAction("no-ship", f"{ps.name} has no ship at {label(at)}", action=a)
            ship = here[0]
        a["ship"] = ship.id
        return ship

    def _damage(self, st: State, ps: PlayerState, ship: Ship, a: dict) -> None:
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

    def _colonise(self, st: State, ps: PlayerState, to: Hex, piece: Any, a: dict, index: int,
                  allowed: tuple, effect: str | None = None, planets: int | None = None) -> None:
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
            self._gain(st, ps, planets, "planets", "planetary system", to,
                       f"colonised a system with {planets} planet{'s' if planets > 1 else ''}", index)

    def _gain(self, st: State, ps: PlayerState, vp: int, category: str, source: str, at: Hex,
              rule: str, index: int) -> None:
        ps.vp += vp
        ps.ledger.append(VPLine(ps.name, vp, category, source, at, rule, index))

    # -- Unexplored Systems ----------------------------------------------------------
    def _explore(self, st: State, ps: PlayerState, ship: Ship, to: Hex, a: dict, index: int) -> None:
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
            if not _whole(planets, 1, 3):
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
                self._nordinn(st, ps, to, a)
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
        self._colonise(st, ps, to, piece, a, index, ("city",), effect=effect, planets=planets)
        if effect in EFFECT_VP:
            self._gain(st, ps, EFFECT_VP[effect], "exploration", name, to,
                       f"revealed the {name}", index)
        then = a.get("then")
        if then is not None:
            if effect != "refuelling_station":
                raise IllegalAction("malformed", "'then' is only for a Refuelling Station", action=a)
            self._refuel(st, ps, ship, to, then, a, index)

    def _refuel(self, st: State, ps: PlayerState, ship: Ship, at: Hex, then: Any, a: dict,
                index: int) -> None:
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
            kind, pieces = self._end(st, ps, ship, nxt, paying=0)
        except IllegalAction as e:
            raise IllegalAction("refuel", f"the ship cannot go on to {label(nxt)}: {e.detail}",
                                action=a) from None
        if kind == "explore" and st.setup.option("refuel") == "uncolonised":
            # "an adjacent uncolonized system": an Unexplored System is uncolonised; the
            # ship enters it and its tile is revealed and applied as for any move
            ship.at = nxt
            sub = {k: then[k] for k in ("piece", "reveal", "destroy", "then") if k in then}
            self._explore(st, ps, ship, nxt, sub, index)
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
        self._colonise(st, ps, nxt, then.get("piece"), a, index, pieces)
        a["then"] = {"to": list(nxt), "piece": then.get("piece")}
        a["piece"] = "city"

    def nordinn_choices(self, player: str, at, state: State | None = None) -> list[Hex]:
        """The Cities a Nordinn Empire revealed at ``at`` by ``player`` may destroy, under
        the game's ``options.nordinn`` (a query, for the entry form): the player's own
        Cities next to it; else another player's City (any of them by default, the book's
        literal words; only adjacent ones with ``adjacent_city``).  Empty: nothing is
        destroyed."""
        st = state if state is not None else self.state
        return self._nordinn_choices(st, player, as_hex(at, "'at'"))[0]

    def refuel_choices(self, player: str, at, *, ship: int | None = None,
                       state: State | None = None) -> list[Move]:
        """Where a ship on a Refuelling Station at ``at`` may go on (``then.to``), under the
        game's ``options.refuel`` (a query, for the entry form).  "You may then move the
        ship in this system into an adjacent uncolonized system and colonize that system":
        each :class:`Move` (``via`` "refuel") is a system next to ``at`` with the pieces
        that may colonise it; kind ``explore`` is an Unexplored System (``uncolonised``,
        the default: a City, its tile revealed as it is entered), never offered with
        ``explored``.

        ``ship``: the state after ``player``'s ship number ``ship`` has moved to ``at`` and
        revealed the Refuelling Station there (its City placed, any Open Borders payment
        made); an illegal move gives [].  ``state``: a state in which the ship already
        stands at ``at`` (e.g. :meth:`trial`'s, for a Refuelling Station reached by another
        one).  Neither: the current state."""
        at = as_hex(at, "'at'")
        if state is None and ship is not None:
            try:
                state = self.trial({"player": player, "ship": ship, "to": list(at),
                                    "reveal": {"effect": "refuelling_station"}})
            except IllegalAction:
                return []
        st = state if state is not None else self.state
        ps = st.players[player]
        if ship is not None and 0 <= ship < len(ps.ships):
            sh = ps.ships[ship]
        else:
            sh = next((s for s in ps.ships if s.at == at), Ship(-1, at))
        out = []
        for n in sorted(st.map.neighbours(at)):
            try:
                kind, pieces = self._end(st, ps, sh, n, paying=0)
            except IllegalAction:
                continue
            if kind == "colonise" or (kind == "explore"
                                      and st.setup.option("refuel") == "uncolonised"):
                out.append(Move(n, "refuel", kind, pieces, system=st.map.get(n)))
        return out

    @staticmethod
    def _nordinn_choices(st: State, player: str, at: Hex) -> tuple[list, list]:
        around = [h for h in hm.neighbours(at) if h in st.colonies and st.colonies[h].piece == "city"]
        own = [h for h in around if st.colonies[h].owner == player]
        if own or st.setup.option("nordinn") == "adjacent_city":
            choices = own or around
        else:     # "choose another player's City and destroy that instead" (any of them)
            choices = [h for h, c in st.colonies.items()
                       if c.piece == "city" and c.owner != player]
        return sorted(choices), own

    def _nordinn(self, st: State, ps: PlayerState, at: Hex, a: dict) -> None:
        choices, own = self._nordinn_choices(st, ps.name, at)
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

    # -- turn order and the end ----------------------------------------------------------
    def _settle(self, st: State, first: int) -> None:
        """Give the turn to the next player (from seat index ``first``, wrapping) who can move.
        A player who cannot move passes for the rest of the game (S Game End)."""
        if st.finished:
            st.current = None
            return
        players = st.setup.players
        if all(st.players[p].reserve() == 0 for p in players):
            st.finished, st.current = True, None
            st.end_reason = "every City and Trade Station is on the board"
            return
        n = len(players)
        for k in range(n):
            p = players[(first + k) % n]
            ps = st.players[p]
            if ps.passed:
                continue
            if self.can_move(p, st):
                st.current = p
                return
            ps.passed = True
            ps.passed_at = st.index
        st.finished, st.current = True, None
        st.end_reason = "no player can move a ship"
