"""The Among the Stars engine: a game is its setup plus an ordered list of actions.

Modelled on python-chess: :meth:`Game.push` applies an action (or raises
:class:`~companion.core.errors.IllegalAction` and changes nothing), :meth:`Game.pop`
takes the last one back, :meth:`Game.check` and :meth:`Game.legal_cells` are
queries.  The state is always the replay of the record.
"""
from __future__ import annotations

import copy
import itertools
import random
from dataclasses import dataclass, field
from typing import Any, Iterable

from . import abilities as abl
from .catalogue import Card, Catalogue, parse_entries
from ..core.errors import CatalogueError, IllegalAction, RecordError, UnknownCardValues
from .station import LOCATION, PLACEHOLDER, REACTOR, Cell, Placed, Station, as_cell, neighbours

from .record import FORMAT  # noqa: E402
YEARS = 4
MODES = ("standard", "aggressive")
ACTIONS = ("build", "reactor", "discard", "conflict", "remove_spaceships")
#: entries that are not a player's action for the turn
SIDE_ENTRIES = ("virtual", "remove", "advisor")
ACTION_KEYS = {"year", "turn", "player", "do", "card", "at", "energy_from", "choices", "manual_vp",
               "resolve_order", "note", "effects", "spaceships", "cells", "seat", "turn_order",
               "tile", "take", "reactor_spaceships", "spaceships_removed"}
ADVISOR_ACTIONS = ("build", "reactor", "discard", "conflict", "remove_spaceships")
VIRTUAL_SEATS = ("virtual 1", "virtual 2")
CONFLICT_COST = 1
MAX_SPACESHIP_REMOVAL = 3
START_CREDITS = 10
REACTOR_COST = 1
DISCARD_GAIN = 3
ENERGY_REACH = 2
BASE_REACTOR_SUPPLY = 16          # B 2: 16 Power Reactor cards
REVIVAL_REACTOR_SUPPLY = 8        # R 1 / R 2.1: the Revival box's 8, "all ... in a single pile"
LARGE_REACTOR_SUPPLY = 16 + 8     # 5-6 players (R 6): both boxes' (ruling, docs/modes.md)
#: what happens to a spaceship whose empty space was filled before it was placed
SPACESHIP_FILLED = ("lost", "reserve")

RULES = {
    "not-adjacent": "a location must be built orthogonally adjacent to a built location (B 4, Build Location)",
    "occupied": "that cell already holds a location",
    "no-energy": "the energy must come from reactors within distance 2, counted through built locations (B 4; FAQ)",
    "energy-from": "the reactors named in energy_from must be within distance 2 and hold the cubes",
    "credits": "not enough credits to pay the card's cost (B 4: a player who cannot pay must take another action)",
    "max": "the card's MAX build limit for one station is reached",
    "reactor-supply": "no Power Reactor cards are left in the supply (B 4, Build Power Reactor)",
    "reactor-credits": "building a Power Reactor costs 1 credit (B 4, Build Power Reactor)",
    "wrong-player": "that player is not in this game or has already acted this turn",
    "wrong-turn": "actions are entered for the current year and turn only",
    "game-over": "the game has ended after year 4",
    "unknown-card": "the card is not in the catalogue",
    "spaceship": "a spaceship occupies that space: no location may be built there (R 3)",
    "limited-space": "outside the agreed table area (Limited Space variant)",
    "choice": "School of Alien Cultures: every other player pays 1 credit or loses 2 VP; enter each choice",
    "manual-vp": "this ability's VP is typed by the players",
    "malformed": "the action is not in the record format",
    "resolve-order": "simultaneous effects resolve by VP, then credits, then a random order stored in the record",
    "conflict": "Aggressive mode: a Conflict card cannot be built; applying it costs 1 credit (B 7)",
    "conflict-year": "Conflict cards are in the deck from year 2 (year 3 with 5-6 players) in aggressive mode",
    "revival-order": "Revival 2-player rules: the active player acts first each turn; it alternates by round (R 2.2)",
    "virtual-seat": "2-player rules: each turn each virtual seat's hand loses one card to the face-up pile (B 8)",
    "spaceships": "a spaceship goes on an empty space next to a card of that station, at most 1 per space (R 3)",
    "round-end": "at round end a station that breaks a rule loses locations until it is valid, "
                 "before the next round begins (B 5)",
    "timing": "timing rules (R 5): players announce and perform their actions in VP order, then "
              "credits, then a random order stored in the record",
    "advisor": "Advisors (R 4): at each round's end the player an advisor leans to takes its bonus "
               "or declines it for 1 VP",
}


def rule_text(rule: str) -> str:
    return RULES.get(rule, rule)


# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------
@dataclass
class Setup:
    players: list[str]
    mode: str = "standard"
    races: dict[str, str] = field(default_factory=dict)
    objectives: list[str] = field(default_factory=list)
    secret_objectives: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: Any) -> "Setup":
        if not isinstance(d, dict):
            raise RecordError("'setup' must be an object")
        known = {"players", "mode", "races", "objectives", "secret_objectives", "options"}
        extra = set(d) - known
        if extra:
            raise RecordError(f"setup: unknown key '{sorted(extra)[0]}'")
        players = d.get("players")
        if (not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players)):
            raise RecordError("setup.players must be a list of names")
        players = [p.strip() for p in players]
        if not 2 <= len(players) <= 6:
            raise RecordError(f"setup.players: 2 to 6 players, not {len(players)}")
        if len({p.lower() for p in players}) != len(players):
            raise RecordError("setup.players: two players have the same name")
        mode = d.get("mode", "standard")
        if mode not in MODES:
            raise RecordError(f"setup.mode must be one of {', '.join(MODES)}")
        races = d.get("races") or {}
        objectives = d.get("objectives") or []
        secret = d.get("secret_objectives") or {}
        options = d.get("options") or {}
        if not isinstance(races, dict) or not all(p in players and isinstance(r, str)
                                                 for p, r in races.items()):
            raise RecordError("setup.races must map player names to race names")
        if not isinstance(objectives, list) or not all(isinstance(o, str) for o in objectives):
            raise RecordError("setup.objectives must be a list of objective names")
        if not isinstance(secret, dict) or not all(p in players and isinstance(o, str)
                                                  for p, o in secret.items()):
            raise RecordError("setup.secret_objectives must map player names to objective names")
        if not isinstance(options, dict):
            raise RecordError("setup.options must be an object")
        bounds = options.get("limited_space")
        per_player = bounds if isinstance(bounds, dict) else ({p: bounds for p in players}
                                                               if bounds is not None else {})
        for who, b in per_player.items():
            if who not in players or not (
                    isinstance(b, list) and len(b) == 4
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in b)
                    and b[0] <= 0 <= b[1] and b[2] <= 0 <= b[3]):
                raise RecordError("setup.options.limited_space must be [min_row, max_row, min_col, "
                                  "max_col] around [0, 0], or a map of player names to such bounds")
        two = options.get("two_player")
        if two is not None:
            if two not in ("virtual", "revival") or len(players) != 2:
                raise RecordError("setup.options.two_player is 'virtual' (base 2-player rules) or "
                                  "'revival' (Revival 2-player rules), for 2 players")
            if two == "revival" and options.get("first_active", players[0]) not in players:
                raise RecordError("setup.options.first_active must name a player")
        if "spaceships" in options and not isinstance(options["spaceships"], bool):
            raise RecordError("setup.options.spaceships must be true or false")
        if "timing_rules" in options and not isinstance(options["timing_rules"], bool):
            raise RecordError("setup.options.timing_rules must be true or false")
        if options.get("timing_rules") and two == "revival":
            raise RecordError("setup.options.timing_rules are for simultaneous play; the Revival "
                              "2-player rules have the players play consecutively (R 5)")
        if options.get("spaceship_filled", "lost") not in SPACESHIP_FILLED:
            raise RecordError("setup.options.spaceship_filled is 'lost' or 'reserve'")
        _check_advisors(options.get("advisors"), players)
        sup = options.get("reactor_supply", 0)
        if not (isinstance(sup, int) and not isinstance(sup, bool) and sup >= 0):
            raise RecordError("setup.options.reactor_supply must be a whole number >= 0")
        return cls(players, mode, dict(races), list(objectives), dict(secret), dict(options))

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"players": list(self.players), "mode": self.mode,
                             "races": dict(self.races), "objectives": list(self.objectives)}
        if self.secret_objectives:
            d["secret_objectives"] = dict(self.secret_objectives)
        d["options"] = copy.deepcopy(self.options)
        return d

    @property
    def reactor_supply(self) -> int:
        """Power Reactors in the supply at the start: ``options.reactor_supply``, else
        what the mode puts there: 8 with the Revival 2-player rules (R 2.1: "all the
        Power Reactor cards in a single pile", R 1: 8), 16 + 8 with 5-6 players (both
        boxes, ruling), 16 otherwise (B 2)."""
        sup = self.options.get("reactor_supply")
        if sup is not None:
            return sup
        if self.options.get("two_player") == "revival":
            return REVIVAL_REACTOR_SUPPLY
        if len(self.players) >= 5:
            return LARGE_REACTOR_SUPPLY
        return BASE_REACTOR_SUPPLY

    @property
    def consecutive(self) -> bool:
        """Revival 2-player rules: the players play one after the other, each action
        resolving in full (abilities included) before the other player chooses (R 2.2:
        "When the active player is done, the other player chooses ..."; R 5: "the
        2-player rules ... have the players play consecutively")."""
        return self.options.get("two_player") == "revival"

    @property
    def timing_rules(self) -> bool:
        """R 5: step 3 places the cards without their abilities; step 4 applies each
        player's effects and VP in the same order."""
        return bool(self.options.get("timing_rules")) and not self.consecutive

    @property
    def conflict_year(self) -> int:
        """The year the Conflict cards join the deck (aggressive mode)."""
        return 3 if len(self.players) >= 5 else 2

    def turns_in_year(self, year: int) -> int:
        if self.mode == "aggressive" and year >= self.conflict_year:
            return 7
        return 6

    def bounds_of(self, player: str):
        b = self.options.get("limited_space")
        if isinstance(b, dict):
            b = b.get(player)
        return tuple(b) if b else None

    @property
    def virtual_seats(self) -> tuple[str, ...]:
        return VIRTUAL_SEATS if self.options.get("two_player") == "virtual" else ()

    def active_player(self, year: int) -> str | None:
        """Revival 2-player rules: who acts first in ``year`` (alternates by round)."""
        if self.options.get("two_player") != "revival":
            return None
        first = self.options.get("first_active", self.players[0])
        other = [p for p in self.players if p != first][0]
        return first if year % 2 == 1 else other

    @staticmethod
    def passing(year: int) -> str:
        """Years 1 and 3 pass clockwise (to the left), years 2 and 4 counter-clockwise."""
        return "clockwise" if year % 2 == 1 else "counter-clockwise"


def _check_advisors(tiles, players) -> None:
    """setup.options.advisors: the Influence tiles in play (R 4)."""
    if tiles is None:
        return
    msg = ("setup.options.advisors is a list of {name, between: [player, player], actions: [...], "
           "advisor, slots}; actions are build, build:<type>, reactor, discard, conflict, "
           "remove_spaceships; slots = slots from the middle to each end")
    if not isinstance(tiles, list):
        raise RecordError(msg)
    names = set()
    from .catalogue import TYPES
    for t in tiles:
        if not (isinstance(t, dict) and isinstance(t.get("name"), str)
                and isinstance(t.get("between"), list) and len(t["between"]) == 2
                and all(p in players for p in t["between"]) and t["between"][0] != t["between"][1]
                and isinstance(t.get("actions"), list) and t["actions"]
                and all(isinstance(x, str) and (x in ADVISOR_ACTIONS or (
                    x.startswith("build:") and x[6:] in TYPES)) for x in t["actions"])
                and isinstance(t.get("slots"), int) and not isinstance(t["slots"], bool)
                and t["slots"] >= 1 and set(t) <= {"name", "between", "actions", "advisor",
                                                   "slots"}):
            raise RecordError(msg)
        if t["name"] in names:
            raise RecordError(f"setup.options.advisors: two tiles are called '{t['name']}'")
        names.add(t["name"])


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------
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
    last: dict | None = None

    def copy(self) -> "PlayerState":
        return PlayerState(self.name, self.vp, self.credits, self.station.copy(),
                           list(self.ledger), self.last)


@dataclass
class Pending:
    owner: str
    kind: str              # choice | ability
    card: str
    cell: Cell
    data: dict
    index: int
    choices: dict = field(default_factory=dict)


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

    @classmethod
    def initial(cls, setup: Setup) -> "State":
        players = {p: PlayerState(p, credits=START_CREDITS,
                                  station=Station(bounds=setup.bounds_of(p)))
                   for p in setup.players}
        return cls(setup, players, reactor_supply=setup.reactor_supply,
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
                     list(self.advisor_claims))

    @property
    def waiting(self) -> list[str]:
        """Players who have not acted yet this turn, in seat order."""
        return [] if self.finished else [p for p in self.setup.players if p not in self.acted]

    @property
    def passing(self) -> str:
        return self.setup.passing(self.year)

    def station(self, player: str) -> Station:
        return self.players[player].station


# ---------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------
class Game:
    """Setup + actions; the state is derived by replaying them."""

    format = FORMAT

    def __init__(self, setup: Setup | dict, *, cards: Iterable[dict] = (),
                 catalogue: Catalogue | None = None, manual: Iterable[dict] = (),
                 rng: random.Random | None = None):
        self.setup = setup if isinstance(setup, Setup) else Setup.from_dict(setup)
        base = catalogue if catalogue is not None else Catalogue.default()
        try:
            own = parse_entries(list(cards), file="record cards")
        except CatalogueError as e:
            raise RecordError(str(e)) from None
        self._own: dict[str, Card] = {c.name.lower(): c for c in own}
        self.catalogue = base.overlay(own)
        self.actions: list[dict] = []
        self.manual: list[dict] = list(manual)
        self.rng = rng or random.Random()
        self._check_setup_names()
        self.state = State.initial(self.setup)

    # -- record in and out ----------------------------------------------------
    @classmethod
    def from_record(cls, record: dict, catalogue: Catalogue | None = None) -> "Game":
        """Replay a record.  Raises RecordError / IllegalAction naming the action index."""
        from .record import validate_record
        validate_record(record)
        record = copy.deepcopy(record)      # the game's actions never alias the caller's record
        game = cls(record["setup"], cards=record.get("cards") or [], catalogue=catalogue,
                   manual=record.get("manual") or [])
        state = game.state
        for i, action in enumerate(record.get("actions") or []):
            try:
                norm = game._apply(state, action, strict=True)
            except IllegalAction as e:
                raise e.at_index(i)
            game.actions.append(norm)
        return game

    def to_record(self) -> dict:
        return {"format": FORMAT, "setup": self.setup.to_dict(),
                "cards": [c.to_dict() for c in self.used_cards()],
                "actions": copy.deepcopy(self.actions),
                "manual": copy.deepcopy(self.manual)}

    def used_cards(self) -> list[Card]:
        """Definitions of every card, race and objective this game refers to."""
        names: list[str] = []
        names += list(self.setup.races.values()) + list(self.setup.objectives)
        names += list(self.setup.secret_objectives.values())
        names += [a["card"] for a in self.actions if a.get("card")]
        seen, out = set(), []
        for n in names:
            c = self.catalogue.get(n)
            if c is not None and c.name.lower() not in seen:
                seen.add(c.name.lower())
                out.append(c)
        for k, c in self._own.items():       # keep definitions the record brought
            if k not in seen:
                seen.add(k)
                out.append(c)
        return sorted(out, key=lambda c: c.name)

    def define(self, card: Card) -> None:
        """Add or correct a card definition for this game (e.g. values a player typed).

        The record is replayed with the new definition; if that makes an earlier
        action illegal, nothing changes and the error is raised.
        """
        old_cat, old_own = self.catalogue, dict(self._own)
        self._own[card.name.lower()] = card
        self.catalogue = self.catalogue.overlay([card])
        try:
            self._replay()
        except Exception:
            self.catalogue, self._own = old_cat, old_own
            self._replay()
            raise

    def _check_setup_names(self) -> None:
        for p, r in self.setup.races.items():
            c = self.catalogue.get(r)
            if c is None or c.category != "race":
                raise RecordError(f"setup.races: unknown race '{r}' for {p}")
        for o in list(self.setup.objectives) + list(self.setup.secret_objectives.values()):
            c = self.catalogue.get(o)
            if c is None or c.category != "objective":
                raise RecordError(f"setup: unknown objective '{o}'")
        for p in self.setup.secret_objectives:
            race = self.catalogue.get(self.setup.races.get(p, "")) if p in self.setup.races else None
            if race is None or not race.extra.get("secret_objective"):
                raise RecordError(f"setup.secret_objectives: {p}'s race holds no secret objective")

    # -- the python-chess style API ----------------------------------------------
    def check(self, action: dict) -> dict:
        """The normalised action if it is legal now; raises IllegalAction if not.

        A query: the game is not changed.
        """
        trial = self.state.copy()
        return self._apply(trial, action, strict=False, rng=random.Random(0))

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

    def push(self, action: dict) -> dict:
        """Apply ``action``; returns (a copy of) the stored, normalised action.

        The stored action shares nothing with the caller's dict, so changing either
        afterwards cannot make the record disagree with the state.
        """
        trial = self.state.copy()
        norm = self._apply(trial, copy.deepcopy(action), strict=False, rng=self.rng)
        self.state = trial
        self.actions.append(norm)
        return copy.deepcopy(norm)

    def pop(self) -> dict:
        """Undo: drop the last action and replay the rest."""
        if not self.actions:
            raise IllegalAction("nothing-to-undo", "there is no action to undo")
        last = self.actions.pop()
        self._replay()
        return last

    def _replay(self) -> None:
        state = State.initial(self.setup)
        for i, a in enumerate(self.actions):
            try:
                self._apply(state, a, strict=True)
            except IllegalAction as e:
                raise e.at_index(i)
        self.state = state

    def replayed(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default); a fresh object."""
        state = State.initial(self.setup)
        for a in self.actions[:upto]:
            self._apply(state, a, strict=True)
        return state

    # -- queries for the table -------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.state.finished

    def card(self, name: str) -> Card:
        c = self.catalogue.get(name)
        if c is None or c.category not in ("location", "conflict"):
            sug = self.catalogue.suggest(name) if c is None else []
            hint = f"; did you mean {', '.join(sug)}?" if sug else ""
            raise IllegalAction("unknown-card", f"no location card called '{name}'{hint}",
                                action={"card": name})
        return c

    def _may_act(self, player: str) -> bool:
        """Whether ``player`` may take their action now: in the game, not acted yet,
        the round end's advisors settled, and first in the order the rules ask for
        (Revival 2-player active player, timing rules)."""
        st = self.state
        if st.finished or player not in st.players or player in st.acted:
            return False
        if self.unsettled_advisors() or self.round_end_due():
            return False
        if self.setup.options.get("timing_rules") or self.setup.active_player(st.year) in st.waiting:
            return self.waiting_in_order()[:1] == [player]
        return True

    def legal_cells(self, player: str, card: str | None = None, do: str = "build") -> list[Cell]:
        """Cells where ``player`` may build ``card`` (or a reactor) right now."""
        st = self.state
        if not self._may_act(player):
            return []
        ps = st.players[player]
        station = ps.station
        if do == "reactor":
            if ps.credits < REACTOR_COST or st.reactor_supply <= 0:
                return []
            return station.frontier()
        c = self.card(card)
        if c.unknown_for_build():
            raise UnknownCardValues(c.name, c.unknown_for_build(),
                                    action={"do": "build", "card": c.name, "player": player})
        if ps.credits < c.cost:
            return []
        if station.copies_of(c.name) >= 1:
            if c.max is None:
                raise UnknownCardValues(c.name, ["max"], why="a second copy is being built",
                                        action={"do": "build", "card": c.name, "player": player})
            if c.limit is not None and station.copies_of(c.name) >= c.limit:
                return []
        return [cell for cell in station.frontier()
                if c.energy == 0 or station.energy_in_range(cell, ENERGY_REACH) >= c.energy]

    def payers(self, player: str, cell: Cell) -> list[tuple[Cell, int, int]]:
        """Reactors that could pay energy for ``cell``: (cell, distance, cubes)."""
        return [r for r in self.state.station(player).reactors_in_range(as_cell(list(cell)), ENERGY_REACH)
                if r[2] > 0]

    def energy_options(self, player: str, cell, energy: int) -> list[dict]:
        """Every way the reactors within reach of ``cell`` can pay ``energy`` cubes:
        ``{"energy_from": [[r, c], ...], "label": str, "default": bool}``; the
        documented default payer (nearest reactor, then most cubes) is marked."""
        if not energy:
            return []
        station = self.state.station(player)
        cell = as_cell(list(cell))
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

    def needs(self, action: dict) -> dict:
        """What ``action`` still needs from the players before it can be pushed.

        A query (nothing changes).  Raises :class:`IllegalAction` if the action
        breaks a rule whatever the players answer.  Returns a dict with, when
        needed:

        - ``values``: ``{"card", "fields"}``: printed values nobody has typed yet
          (ask them first: nothing else can be checked without them);
        - ``energy_from``: the options of :meth:`energy_options` when there is a
          choice of reactors (and ``energy_from`` is not given);
        - ``choices``: ``{"card", "players", "options": [(value, label), ...]}``
          for an ability that makes every other player choose (School of Alien
          Cultures: pay 1 credit or lose 2 VP);
        - ``manual_vp``: ``{"card", "prompt"}`` when the VP an ability gives now
          is typed by the players;
        - ``spaceships``: ``{"card", "count", "spots": [[player, [r, c]], ...]}``.
        """
        if not isinstance(action, dict):
            raise IllegalAction("malformed", "an action must be an object")
        a = dict(action)
        out: dict = {}
        if a.get("do") != "build":
            self.check(a)
            return out
        name = a.get("card")
        try:
            card = self.card(name if isinstance(name, str) else "")
        except IllegalAction as e:
            raise IllegalAction(e.rule, e.detail, action=a) from None
        player = a.get("player")
        if not self._may_act(player) and player in self.state.players:
            self.check(a)               # names the rule (order, already acted, ...)
        station = self.state.station(player) if player in self.state.players else None
        missing = card.unknown_for_build()
        if not missing and station is not None and card.max is None \
                and station.copies_of(card.name) >= 1:
            missing = ["max"]
        if missing:
            try:                        # a cell that no values can make legal: say so first
                cell = as_cell(a.get("at"))
                if station is not None and (cell in station or not station.is_adjacent_to_built(cell)):
                    self.check({**a, "card": card.name})
            except ValueError:
                pass
            return {"values": {"card": card.name, "fields": missing}}
        filled = dict(a)
        others = [p for p in self.setup.players if p != player]
        for ab in card.abilities or ():
            if ab.get("when") != "immediate":
                continue
            if "choice" in ab and "choices" not in a:
                out["choices"] = {"card": card.name, "players": others,
                                  "options": [("pay", f"pay {ab['pay']} credit"
                                               + ("s" if ab["pay"] != 1 else "")),
                                              ("lose", f"lose {ab['lose']} VP")]}
                filled["choices"] = {p: "pay" for p in others}
            if "manual" in ab and "manual_vp" not in a:
                out["manual_vp"] = {"card": card.name,
                                    "prompt": f"VP '{card.name}' gives now (from its ability)"}
                filled["manual_vp"] = 0
            if "spaceships" in ab and "spaceships" not in a and self.setup.options.get("spaceships"):
                spec = out.setdefault("spaceships", {"card": card.name, "count": 0, "spots": []})
                spec["count"] += ab["spaceships"]
                target = ab.get("target", "other")
                for p in self.setup.players:
                    if target != "any" and ((target == "self") != (p == player)):
                        continue
                    for c in self.state.station(p).frontier():
                        if [p, list(c)] not in spec["spots"]:
                            spec["spots"].append([p, list(c)])
                filled["spaceships"] = []
        self.check(filled)              # every other rule, whatever the answers
        if "energy_from" not in a and card.energy:
            opts = self.energy_options(player, a["at"], card.energy)
            if len(opts) > 1:
                out["energy_from"] = opts
        return out

    def legal_actions(self, player: str, card: str) -> list[dict]:
        """Every legal action for ``player`` holding ``card`` (default energy payers)."""
        st = self.state
        base = {"year": st.year, "turn": st.turn, "player": player, "card": card}
        out = []
        try:
            cells = self.legal_cells(player, card)
        except UnknownCardValues:
            cells = []
        for cell in cells:
            out.append({**base, "do": "build", "at": list(cell)})
        for cell in self.legal_cells(player, do="reactor"):
            out.append({**base, "do": "reactor", "at": list(cell)})
        if self._may_act(player):
            out.append({**base, "do": "discard"})
        return out

    def score(self):
        from .scoring import score
        return score(self)

    def final_needs(self) -> dict:
        """What stands between the game and its final table, all at once (a query):

        - ``blocked``: messages for what must be entered in the game first
          (advisors to settle, round-end removals);
        - ``values``: cards, races and objectives whose printed values are needed
          (``{"card", "fields", "why"}``), for the card form;
        - ``manual``: entries only the players can type (scoring.manual_requests).

        All empty once :meth:`score` can give the final table.
        """
        from .scoring import manual_requests, unknown_for_scoring
        out: dict = {"blocked": [], "values": [], "manual": []}
        if not self.state.finished:
            return out
        for tile, who in self.unsettled_advisors().items():
            out["blocked"].append(f"the advisor of '{tile}' leans to {who}: take its bonus or "
                                  "decline it for 1 VP (R 4)")
        for v in round_end_report(self):
            out["blocked"].append(f"{v['message']} (B 5)")
        out["values"] = unknown_for_scoring(self)
        out["manual"] = manual_requests(self)
        return out

    def trial(self, action: dict, *, state: State | None = None,
              end_turn: bool = False) -> tuple[dict, State]:
        """Apply ``action`` to a copy of ``state`` (default: now) and return
        (normalised action, the new state).  The game is not changed.

        With ``end_turn=False`` the turn does not end even if this was the last
        player to act (no year change, no +10 credits): what-if views use that to
        see the action's own effect.
        """
        base = state if state is not None else self.state
        player = action.get("player") if isinstance(action, dict) else None
        trial = base.copy()                 # a full copy: a trial never touches ``base``
        norm = self._apply(trial, action, strict=False, rng=random.Random(0), end_turn=end_turn)
        if not end_turn and isinstance(player, str):
            self._settle_own(trial, player)
        return norm, trial

    def _settle_own(self, state: State, player: str) -> None:
        """For a what-if trial whose turn does not end: the VP ``player``'s own
        action gives, which the timing rules put on the track only at step 4 (R 5),
        are resolved now so the trial shows them."""
        own = [p for p in state.pending if p.owner == player and p.kind in ("own", "gain")]
        if own:
            ids = {id(p) for p in own}
            state.pending = [p for p in state.pending if id(p) not in ids]
            for p in own:
                self._resolve(state, p)

    def branch(self) -> "Game":
        """An independent copy of this game (same record) to try things in."""
        g = Game.__new__(Game)
        g.setup, g._own, g.catalogue = self.setup, dict(self._own), self.catalogue
        g.actions = copy.deepcopy(self.actions)
        g.manual = copy.deepcopy(self.manual)
        g.rng = random.Random()
        g.state = self.state.copy()
        return g

    # -- the rules ---------------------------------------------------------------------
    def _apply(self, state: State, action: Any, *, strict: bool,
               rng: random.Random | None = None, end_turn: bool = True) -> dict:
        """Check and apply one action to ``state`` (mutated).  Returns it normalised."""
        if not isinstance(action, dict):
            raise IllegalAction("malformed", "an action must be an object")
        a = dict(action)
        extra = set(a) - ACTION_KEYS
        if extra:
            raise IllegalAction("malformed", f"unknown key '{sorted(extra)[0]}' in the action",
                                action=a)
        do = a.get("do")
        if do in SIDE_ENTRIES:
            return self._side_entry(state, a, strict, rng, end_turn)
        if do not in ACTIONS:
            raise IllegalAction("malformed", f"'do' must be one of "
                                f"{', '.join(ACTIONS + SIDE_ENTRIES)}, not {do!r}", action=a)
        player = a.get("player")
        if state.finished:
            raise IllegalAction("game-over", "the game has ended after year 4", action=a)
        if not isinstance(player, str) or player not in state.players:
            raise IllegalAction("wrong-player", f"'{player}' is not a player in this game", action=a)
        year, turn = a.setdefault("year", state.year), a.setdefault("turn", state.turn)
        if year != state.year or turn != state.turn:
            raise IllegalAction("wrong-turn",
                                f"it is year {state.year}, turn {state.turn}, not year {year}, turn {turn}",
                                action=a)
        if player in state.acted:
            raise IllegalAction("wrong-player",
                                f"{player} has already acted in year {year}, turn {turn}", action=a)
        self._check_round_end_settled(state, a, strict)
        if state.setup.options.get("timing_rules"):
            self._timing_order(state, a, strict, rng)
        active = state.setup.active_player(state.year)
        if active is not None and player != active and active not in state.acted:
            raise IllegalAction("revival-order", f"{active} is the active player in year "
                                f"{state.year} and acts first", action=a)
        name = a.get("card")
        if not isinstance(name, str) or not name.strip():
            raise IllegalAction("malformed", "name the card that was selected", action=a)
        try:
            card = self.card(name)
        except IllegalAction as e:      # name the whole action (player, cell), not just the card
            raise IllegalAction(e.rule, e.detail, action=a) from None
        a["card"] = card.name
        ps = state.players[player]
        index = state.index

        if card.category == "conflict" and do == "build":
            raise IllegalAction("conflict", "a Conflict card cannot be built: apply it (1 credit), "
                                "build a reactor or discard it", action=a)
        if do == "discard":
            for k in ("at", "energy_from"):
                a.pop(k, None)
            ps.credits += DISCARD_GAIN
            state.discards.append(card.name)
        elif do == "conflict":
            self._conflict(state, ps, card, a, index)
        elif do == "remove_spaceships":
            self._remove_spaceships(state, ps, card, a)
        else:
            try:
                cell = as_cell(a.get("at"))
            except ValueError as e:
                raise IllegalAction("malformed", str(e), action=a) from None
            a["at"] = list(cell)
            station = ps.station
            if cell in station:
                raise IllegalAction("occupied", f"{list(cell)} already holds the "
                                    f"{station.cells[cell].label}", action=a)
            if cell in station.blocked:
                raise IllegalAction("spaceship", "a spaceship occupies that space", action=a)
            if (player, cell) in self._reserved(state):
                raise IllegalAction("spaceship", "a spaceship is on its way to that space this "
                                    "turn (option spaceship_filled: reserve)", action=a)
            if not station.in_bounds(cell):
                raise IllegalAction("limited-space", f"{list(cell)} is outside the agreed area "
                                    f"{list(station.bounds or [])}", action=a)
            if not station.is_adjacent_to_built(cell):
                raise IllegalAction("not-adjacent", f"{list(cell)} is not orthogonally adjacent "
                                    "to a built location", action=a)
            if do == "reactor":
                a.pop("energy_from", None)
                if state.reactor_supply <= 0:
                    raise IllegalAction("reactor-supply", "no Power Reactor cards are left", action=a)
                if ps.credits < REACTOR_COST:
                    raise IllegalAction("reactor-credits", f"{player} has no credits left "
                                        "(a Power Reactor costs 1)", action=a)
                ps.credits -= REACTOR_COST
                state.reactor_supply -= 1
                station.place(cell, Placed(REACTOR, cubes=2, year=year, turn=turn))
                state.discards.append(card.name)
            else:
                try:
                    self._build(state, ps, card, cell, a, index, strict)
                except IllegalAction as e:
                    raise e.with_action(a)
        ps.last = a
        state.acted.append(player)
        self._influence(state, player, card, a, index)
        state.index += 1
        if state.setup.consecutive and state.pending:
            # Revival 2-player rules: the action resolves in full, abilities included,
            # before the other player chooses (R 2.2, R 5)
            try:
                self._resolve_all(state, state.pending)
            except IllegalAction as e:
                raise e.with_action(a)
            state.pending = []
        if end_turn and self._turn_complete(state):
            try:
                self._end_turn(state, a, strict, rng)
            except IllegalAction as e:
                raise e.with_action(a)
        return a

    def _build(self, state: State, ps: PlayerState, card: Card, cell: Cell, a: dict,
               index: int, strict: bool) -> None:
        station = ps.station
        missing = card.unknown_for_build()
        if missing:
            raise UnknownCardValues(card.name, missing, action=a)
        copies = station.copies_of(card.name)
        if copies >= 1 and card.max is None:
            raise UnknownCardValues(card.name, ["max"], action=a,
                                    why="needed because a second copy is being built")
        if card.limit is not None and copies >= card.limit and not strict:
            # entering a new action: refused.  Replaying a record (entered after
            # the fact, or a card's MAX corrected since): kept, and reported by
            # round_end_report() until a `remove` entry fixes it (B 5).
            raise IllegalAction("max", f"MAX {card.limit}: the station already has {copies} "
                                f"'{card.name}'", action=a)
        if ps.credits < card.cost:
            raise IllegalAction("credits", f"costs {card.cost} credits, {ps.name} has {ps.credits}",
                                action=a)
        # energy
        payers = {c: (d, cubes) for c, d, cubes in station.reactors_in_range(cell, ENERGY_REACH)}
        if "energy_from" in a and a["energy_from"] is not None:
            raw = a["energy_from"]
            try:
                paid = [as_cell(x) for x in raw] if isinstance(raw, list) else None
            except ValueError:
                paid = None
            if paid is None:
                raise IllegalAction("malformed", "energy_from must be a list of [row, col] reactor cells",
                                    action=a)
            if len(paid) != card.energy:
                raise IllegalAction("energy-from", f"the card needs {card.energy} energy, "
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
            paid = station.default_energy(cell, card.energy, ENERGY_REACH)
            if paid is None:
                have = sum(cubes for _, cubes in payers.values())
                raise IllegalAction("no-energy", f"needs {card.energy} energy, reactors within "
                                    f"distance 2 of {list(cell)} hold {have} cube(s)", action=a)
        a["energy_from"] = [list(c) for c in paid]
        # the choices the card will need, checked before anything changes
        others = [p for p in state.setup.players if p != ps.name]
        for ab in card.abilities or ():
            if ab.get("when") != "immediate":
                continue
            if "choice" in ab:
                ch = a.get("choices")
                if (not isinstance(ch, dict) or set(ch) != set(others)
                        or not all(v in ("pay", "lose") for v in ch.values())):
                    raise IllegalAction("choice", f"each other player ({', '.join(others)}) must "
                                        f"choose 'pay' ({ab['pay']} credit) or 'lose' ({ab['lose']} VP)",
                                        action=a)
            if "manual" in ab:
                mv = a.get("manual_vp")
                if not (isinstance(mv, int) and not isinstance(mv, bool)):
                    raise IllegalAction("manual-vp", f"type the VP '{card.name}' gave now "
                                        "(manual_vp)", action=a)
        ships = self._check_spaceships(state, ps.name, card, a, built=cell)
        removed = self._check_removals(state, ps.name, card, a)
        # pay and place
        ps.credits -= card.cost
        for c in paid:
            station.take_cube(c)
        station.place(cell, Placed(LOCATION, card.name, card.types, year=state.year,
                                   turn=state.turn, cost=card.cost))
        reactor_ships = self._check_reactor_ships(state, ps.name, card, a)
        # effects that touch other players resolve after everyone's action (B Playing
        # Order), in the Revival 2-player game at once (R 2.2), with the timing rules
        # at the player's step 4 (R 5)
        choices, others_vp = [], []
        for ab in card.abilities or ():
            if ab.get("when") != "immediate":
                continue
            if "choice" in ab:
                choices.append(Pending(ps.name, "choice", card.name, cell, ab, index,
                                       dict(a.get("choices") or {})))
            elif abl.reads_other_stations(ab):
                others_vp.append(Pending(ps.name, "ability", card.name, cell, ab, index))
        effects = choices + ([Pending(ps.name, "spaceships", card.name, cell, {"at": ships}, index)]
                             if ships else [])
        own = Pending(ps.name, "own", card.name, cell,
                      {"manual_vp": a.get("manual_vp"), "reactor_spaceships": reactor_ships,
                       "spaceships_removed": removed}, index)
        if state.setup.timing_rules:
            # R 5 step 3: placed "without applying the effect of the ability yet"; step 4:
            # "applies any necessary effects and then updates the scoring track"
            state.pending += effects + [own] + others_vp
        else:
            self._resolve(state, own)         # printed VP and the player's own abilities now
            state.pending += effects + others_vp

    # -- Revival spaceships -------------------------------------------------------------
    def _check_spaceships(self, state: State, owner: str, card: Card, a: dict,
                          built: Cell | None = None) -> list:
        """The spaceships a build puts (R 3: "place it on an empty space adjacent to an
        existing card in that Station").  Checked before the card is placed; the card
        being built (``built``) already counts in its owner's station: the ability is
        applied once the card is there."""
        abilities = [ab for ab in card.abilities or () if "spaceships" in ab
                     and ab.get("when") == "immediate"]
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
        allowed = sum(ab["spaceships"] for ab in abilities)
        targets = {ab.get("target", "other") for ab in abilities}
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
            next_to_new = who == owner and built is not None and cell in neighbours(built)
            if cell in st.cells or cell in st.blocked or (who, cell) in seen \
                    or (who == owner and cell == built) \
                    or not (st.is_adjacent_to_built(cell) or next_to_new):
                raise IllegalAction("spaceships", f"{list(cell)} in {who}'s station is not an "
                                    "empty space next to a card without a spaceship", action=a)
            if (who, cell) in self._reserved(state):
                raise IllegalAction("spaceships", f"another spaceship is on its way to "
                                    f"{list(cell)} in {who}'s station this turn (option "
                                    "spaceship_filled: reserve)", action=a)
            seen.add((who, cell))
            out.append([who, list(cell)])
        return out

    def _reserved(self, state: State) -> set:
        """Option ``spaceship_filled: reserve``: the (player, cell) spaces a spaceship
        entered this turn is still on its way to; nothing else may go there."""
        if state.setup.options.get("spaceship_filled", "lost") != "reserve" or not state.pending:
            return set()
        out = set()
        for p in state.pending:
            if p.kind == "spaceships":
                out |= {(who, tuple(at)) for who, at in p.data["at"]}
            elif p.kind == "own":
                out |= {(p.owner, tuple(c)) for c in p.data.get("reactor_spaceships") or ()}
        return out

    def _put_ship(self, state: State, who: str, cell: Cell, p: Pending) -> bool:
        """Place a spaceship when its effect resolves.  If its space is no longer empty
        (a location was built there, or another spaceship came first), it is lost
        (option ``spaceship_filled: lost``), and the owner's VP lines say so."""
        st = state.players[who].station
        if cell not in st.cells and cell not in st.blocked and st.is_adjacent_to_built(cell):
            st.blocked.add(cell)
            return True
        what = ("holds a location" if cell in st.cells else
                "holds another spaceship" if cell in st.blocked else "is next to no card")
        ps = state.players[p.owner]
        ps.ledger.append(VPLine(p.owner, 0, "spaceship", p.card, p.cell,
                                f"the spaceship for {list(cell)} in {who}'s station is lost: "
                                f"that space {what} now (option spaceship_filled: lost)",
                                state.year, state.turn, p.index))
        return False

    def _check_reactor_ships(self, state: State, owner: str, card: Card, a: dict) -> list:
        """``per: reactor_spaceship`` (Recharging Station, R FAQ): a spaceship on a free
        side of each of the player's reactors that has one, one per reactor; "If one of
        your Power Reactors has locations on all sides of it then you can't put a
        Spaceship adjacent to it and thus you don't gain any VP from it".  Checked on the
        station with the card placed.  Omitted: the engine's default, stored."""
        abilities = [ab for ab in card.abilities or () if ab.get("per") == "reactor_spaceship"
                     and ab.get("when") == "immediate"]
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
        reserved = {c for w, c in self._reserved(state) if w == owner}
        free = {n for r in st.reactors() for n in neighbours(r)
                if n not in st.cells and n not in st.blocked and n not in reserved}
        best = abl.reactor_matching(st, free)
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

    def _check_removals(self, state: State, owner: str, card: Card, a: dict) -> list:
        """``remove_spaceships: N`` (Travelling Exhibition, R FAQ): the player removes up
        to N of their own spaceships, none if they have none ("you can choose to remove a
        Spaceship even if you don't have any Spaceships in your Station. In that case you
        simply don't do anything")."""
        abilities = [ab for ab in card.abilities or () if "remove_spaceships" in ab
                     and ab.get("when") == "immediate"]
        given = a.get("spaceships_removed")
        if not abilities:
            if given:
                raise IllegalAction("spaceships", f"'{card.name}' removes no spaceships", action=a)
            a.pop("spaceships_removed", None)
            return []
        limit = 0
        for ab in abilities:
            n = ab["remove_spaceships"]
            if not (isinstance(n, int) and not isinstance(n, bool) and n >= 1):
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
            if c not in st.blocked:
                raise IllegalAction("spaceships", f"there is no spaceship at {list(c)} in "
                                    f"{owner}'s station", action=a)
        a["spaceships_removed"] = [list(c) for c in cells]
        return [list(c) for c in cells]

    def _remove_spaceships(self, state: State, ps: PlayerState, card: Card, a: dict) -> None:
        st = ps.station
        if not st.blocked:
            raise IllegalAction("spaceships", f"{ps.name} has no spaceships to remove", action=a)
        cells = a.get("cells")
        try:
            cells = [as_cell(c) for c in cells] if isinstance(cells, list) else None
        except ValueError:
            cells = None
        if not cells or len(cells) > MAX_SPACESHIP_REMOVAL or len(set(cells)) != len(cells):
            raise IllegalAction("spaceships", "name 1 to 3 spaceships to remove (cells)", action=a)
        for c in cells:
            if c not in st.blocked:
                raise IllegalAction("spaceships", f"there is no spaceship at {list(c)}", action=a)
        for k in ("at", "energy_from"):
            a.pop(k, None)
        a["cells"] = [list(c) for c in cells]
        for c in cells:
            st.blocked.discard(c)
        state.discards.append(card.name)

    @staticmethod
    def _clean_spaceships(station: Station) -> None:
        """A spaceship with no card next to it is removed at once (R 3)."""
        for c in list(station.blocked):
            if not station.is_adjacent_to_built(c):
                station.blocked.discard(c)

    # -- Aggressive mode -----------------------------------------------------------------
    def _conflict(self, state: State, ps: PlayerState, card: Card, a: dict, index: int) -> None:
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
        manual = any("manual" in ab for ab in card.abilities or ())
        if effects is None and manual:
            raise IllegalAction("manual-vp", "type what the Conflict did: effects = {\"vp\": "
                                "{player: change}, \"credits\": {player: change}}", action=a)
        effects = effects or {}
        if not (isinstance(effects, dict) and set(effects) <= {"vp", "credits"} and all(
                isinstance(v, dict) and all(p in state.players and isinstance(n, int)
                                            and not isinstance(n, bool) for p, n in v.items())
                for v in effects.values())):
            raise IllegalAction("malformed", "effects is {\"vp\": {player: change}, "
                                "\"credits\": {player: change}}", action=a)
        ps.credits -= CONFLICT_COST
        state.discards.append(card.name)
        state.pending.append(Pending(ps.name, "conflict", card.name, None,
                                     {ab_i: ab for ab_i, ab in enumerate(card.abilities or ())},
                                     index, dict(effects)))

    # -- entries that are not a player's turn action ------------------------------------
    def _side_entry(self, state: State, a: dict, strict: bool, rng, end_turn: bool) -> dict:
        # the round-end fix of year 4 comes after the last turn: allowed once the game is over
        if state.finished and a["do"] not in ("remove", "advisor"):
            raise IllegalAction("game-over", "the game has ended after year 4", action=a)
        year, turn = a.setdefault("year", state.year), a.setdefault("turn", state.turn)
        if year != state.year or turn != state.turn:
            raise IllegalAction("wrong-turn", f"it is year {state.year}, turn {state.turn}, not "
                                f"year {year}, turn {turn}", action=a)
        if a["do"] == "virtual":
            self._check_round_end_settled(state, a, strict)
            seat = a.get("seat")
            if seat not in state.setup.virtual_seats:
                raise IllegalAction("virtual-seat", "virtual seats are used in the base 2-player "
                                    f"game only; they are {', '.join(VIRTUAL_SEATS)}", action=a)
            if seat in state.virtual_done:
                raise IllegalAction("virtual-seat", f"{seat} has already lost its card this turn",
                                    action=a)
            name = a.get("card")
            try:
                a["card"] = self.card(name if isinstance(name, str) else "").name
            except IllegalAction as e:
                raise IllegalAction(e.rule, e.detail, action=a) from None
            state.virtual_done.append(seat)
            state.face_up.append(a["card"])
        elif a["do"] == "advisor":
            self._advisor_claim(state, a)
        else:
            self._remove(state, a)
        state.index += 1
        if end_turn and not state.finished and self._turn_complete(state):
            try:
                self._end_turn(state, a, strict, rng)
            except IllegalAction as e:
                raise e.with_action(a)
        return a

    # -- timing rules and advisors (Revival) --------------------------------------------
    def _timing_order(self, state: State, a: dict, strict: bool, rng) -> None:
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
            elif strict:
                raise IllegalAction("timing", "players tie on VP and credits: the record must "
                                    "store the random order used (turn_order)", action=a)
            else:
                order = self.turn_order(state, rng)
                a["turn_order"] = order
            state.turn_order = order
        else:
            a.pop("turn_order", None)
        nxt = state.turn_order[len(state.acted)]
        if a["player"] != nxt:
            raise IllegalAction("timing", f"this turn the order is {', '.join(state.turn_order)}: "
                                f"{nxt} acts next", action=a)

    def waiting_in_order(self) -> list[str]:
        """Players still to act this turn, in the order the rules ask for: the
        Revival 2-player active player first; with the timing rules, by VP."""
        st = self.state
        waiting = st.waiting
        if self.setup.options.get("timing_rules") and not st.finished:
            return [p for p in self.turn_order() if p in waiting]
        active = self.setup.active_player(st.year)
        if active in waiting:
            return [active] + [p for p in waiting if p != active]
        return waiting

    def turn_order(self, state: State | None = None, rng=None) -> list[str]:
        """Timing rules: this turn's order (most VP, then most credits).  Ties are
        drawn at random once per turn and kept until an action stores them."""
        state = state if state is not None else self.state
        if state.turn_order:
            return list(state.turn_order)
        players = list(state.setup.players)
        key = {p: (state.players[p].vp, state.players[p].credits) for p in players}
        drawn = getattr(self, "_drawn", None)
        if drawn is None:
            drawn = self._drawn = {}
        tag = (state.year, state.turn, tuple(sorted(key.items())))
        if tag not in drawn:
            shuffled = players[:]
            (rng or self.rng).shuffle(shuffled)
            drawn[tag] = sorted(shuffled, key=lambda p: key[p], reverse=True)
        return list(drawn[tag])

    def _tiles(self, state: State):
        return state.setup.options.get("advisors") or []

    def _influence(self, state: State, player: str, card: Card, a: dict, index: int) -> None:
        for t in self._tiles(state):
            if player not in t["between"]:
                continue
            kinds = {a["do"]}
            if a["do"] == "build":
                kinds |= {f"build:{x}" for x in (card.types or ())}
            if not kinds & set(t["actions"]):
                continue
            step = -1 if player == t["between"][0] else 1
            pos = state.advisors[t["name"]] + step
            if abs(pos) > t["slots"]:
                continue                  # already at the nearest slot: no move, no VP
            state.advisors[t["name"]] = pos
            rule = f"moved the advisor of '{t['name']}' towards {player} (R 4)"
            if state.setup.timing_rules:      # on the track at the player's step 4 (R 5)
                state.pending.append(Pending(player, "gain", t["name"], None,
                                             {"vp": 1, "category": "advisor", "rule": rule},
                                             index))
            else:
                self._gain(state, player, 1, "advisor", t["name"], None, rule, index)

    def leaning(self, state: State | None = None) -> dict[str, str]:
        """tile -> the player its advisor leans to now (tiles in the middle left out)."""
        state = state if state is not None else self.state
        out = {}
        for t in self._tiles(state):
            pos = state.advisors[t["name"]]
            if pos:
                out[t["name"]] = t["between"][0] if pos < 0 else t["between"][1]
        return out

    def unsettled_advisors(self, state: State | None = None) -> dict[str, str]:
        """At a round's end: tiles whose bonus has not been taken or declined yet."""
        state = state if state is not None else self.state
        if not self.at_round_end(state):
            return {}
        return {k: v for k, v in self.leaning(state).items() if k not in state.advisor_claims}

    @staticmethod
    def at_round_end(state: State) -> bool:
        """Between two rounds: after the last turn of a year and before anything of
        the next year's first turn (or after year 4).  Round-end entries (advisors,
        removals) are made here."""
        return state.finished or (state.year > 1 and state.turn == 1 and not state.acted
                                  and not state.virtual_done)

    def round_end_due(self, state: State | None = None) -> list[dict]:
        """At a round's end: :func:`round_end_report` (what the stations break, to fix
        with ``remove`` entries before the next round begins, B 5).  Empty during a
        round: a violation found mid-round is fixed at the round's end."""
        state = state if state is not None else self.state
        return round_end_report(self, state) if self.at_round_end(state) else []

    def _check_round_end_settled(self, state: State, a: dict, strict: bool = False) -> None:
        """The round that ended must be settled before the next one begins: its
        advisors (R 4), and (for a new entry) a station that breaks a rule (B 5).  A
        replayed record keeps a violation it did not fix (entered after the fact, or a
        card's MAX corrected since, as the over-limit build itself is kept): it is
        reported, and fixed at the next round's end or before the final scoring."""
        open_ = self.unsettled_advisors(state)
        if open_:
            raise IllegalAction("advisor", "first settle the advisors of the round that ended: "
                                + ", ".join(f"'{k}' ({v} takes the bonus or declines it)"
                                            for k, v in open_.items()), action=a)
        broken = [] if strict else self.round_end_due(state)
        if broken:
            raise IllegalAction("round-end", "before the next round begins, a station that breaks "
                                "a rule loses locations until it is valid (B 5): "
                                + "; ".join(b["message"] for b in broken), action=a)

    def _advisor_claim(self, state: State, a: dict) -> None:
        open_ = self.unsettled_advisors(state)
        tile = a.get("tile")
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
            self._gain(state, a["player"], 1, "advisor", tile, None,
                       "declined the advisor's bonus for 1 VP (R 4)", state.index)
            return
        effects = a.get("effects") or {}
        if not (isinstance(effects, dict) and set(effects) <= {"vp", "credits"} and all(
                isinstance(v, dict) and all(p in state.players and isinstance(n, int)
                                            and not isinstance(n, bool) for p, n in v.items())
                for v in effects.values())):
            raise IllegalAction("malformed", "effects is {\"vp\": {player: change}, "
                                "\"credits\": {player: change}}", action=a)
        for who, n in (effects.get("vp") or {}).items():
            self._gain(state, who, n, "advisor", tile, None,
                       f"advisor's bonus of '{tile}' (typed at the table)", state.index)
        for who, n in (effects.get("credits") or {}).items():
            state.players[who].credits = max(0, state.players[who].credits + n)

    def _remove(self, state: State, a: dict) -> None:
        """Round-end fix (B 5): remove a location that makes the station break a rule;
        its owner loses the VP it gave when built; no credits back."""
        player = a.get("player")
        if not isinstance(player, str) or player not in state.players:
            raise IllegalAction("wrong-player", f"'{player}' is not a player in this game", action=a)
        try:
            cell = as_cell(a.get("at"))
        except ValueError as e:
            raise IllegalAction("malformed", str(e), action=a) from None
        a["at"] = list(cell)
        if not self.at_round_end(state):
            raise IllegalAction("round-end", "a location that breaks a rule is removed at the "
                                "round's end (B 5: \"Before beginning the next round\"): after the "
                                "year's last turn, before the next year's first action", action=a)
        st = state.players[player].station
        placed = st.cells.get(cell)
        broken = {tuple(c) for v in round_end_report(self, state) if v["player"] == player
                  for c in v["cells"]}
        if placed is None or placed.kind != LOCATION or cell not in broken:
            raise IllegalAction("round-end", f"{list(cell)} is not a location that makes "
                                f"{player}'s station break a rule", action=a)
        a["card"] = placed.card
        lines = [l for l in state.players[player].ledger
                 if l.cell == cell and l.source == placed.card
                 and l.category in ("printed", "ability", "manual")]
        lost = sum(l.vp for l in lines)
        why = "the VP it gave when built"
        if not lines:          # cannot be worked out: printed VP + 3 (B 5)
            card = self.catalogue.get(placed.card)
            lost = (card.vp or 0) + 3
            why = "its printed VP + 3 (the VP it gave cannot be worked out)"
        st.remove(cell)
        if not st.is_connected():
            st.place(cell, Placed(PLACEHOLDER, year=state.year, turn=state.turn))
        self._clean_spaceships(st)
        self._gain(state, player, -lost, "removal", placed.card, cell,
                   f"removed at round end (B 5): loses {why}", state.index)

    @staticmethod
    def _turn_complete(state: State) -> bool:
        return (len(state.acted) == len(state.players)
                and len(state.virtual_done) == len(state.setup.virtual_seats))

    @staticmethod
    def _gain(state: State, player: str, vp: int, category: str, source: str, cell: Cell | None,
              rule: str, index: int) -> int:
        ps = state.players[player]
        actual = max(-ps.vp, vp)          # VP never below 0 (B FAQ)
        if actual != vp:
            rule += f" (only {-actual} could be lost: VP never goes below 0)"
        ps.vp += actual
        if actual or actual != vp or category == "printed":    # a clamped loss is explained too
            ps.ledger.append(VPLine(player, actual, category, source, cell, rule, state.year,
                                    state.turn, index))
        return actual

    def _end_turn(self, state: State, a: dict, strict: bool, rng: random.Random | None) -> None:
        if state.pending:
            order = self._resolution_order(state, a, strict, rng)
            for owner in order:
                for p in [p for p in state.pending if p.owner == owner]:
                    self._resolve(state, p)
            state.pending = []
        state.acted = []
        state.virtual_done = []
        state.turn_order = []
        state.turn += 1
        if state.turn > state.setup.turns_in_year(state.year):
            state.advisor_claims = []
        if state.turn > state.setup.turns_in_year(state.year):
            state.turn = 1
            state.year += 1
            if state.year > YEARS:
                state.finished = True
                state.year = YEARS
                state.turn = state.setup.turns_in_year(YEARS)
            else:
                for ps in state.players.values():
                    ps.credits += START_CREDITS

    def _resolution_order(self, state: State, a: dict, strict: bool,
                          rng: random.Random | None) -> list[str]:
        owners = list(dict.fromkeys(p.owner for p in state.pending))
        if state.turn_order:              # timing rules: the order announced this turn
            return [p for p in state.turn_order if p in owners]
        key = {o: (state.players[o].vp, state.players[o].credits) for o in owners}
        tied = len(set(key.values())) < len(owners)
        if not tied:
            a.pop("resolve_order", None)
            return sorted(owners, key=lambda o: key[o], reverse=True)
        given = a.get("resolve_order")
        if given is not None:
            if not (isinstance(given, list) and all(isinstance(x, str) for x in given)
                    and sorted(given) == sorted(owners)):
                raise IllegalAction("resolve-order", f"resolve_order must list {', '.join(owners)}",
                                    action=a)
            for x, y in zip(given, given[1:]):
                if key[x] < key[y]:
                    raise IllegalAction("resolve-order", f"{y} has more VP/credits than {x} and "
                                        "resolves first", action=a)
            return list(given)
        if strict:
            raise IllegalAction("resolve-order", f"{', '.join(owners)} tie on VP and credits: the "
                                "record must store the random order used (resolve_order)", action=a)
        shuffled = owners[:]
        (rng or random).shuffle(shuffled)
        order = sorted(shuffled, key=lambda o: key[o], reverse=True)   # stable: random within ties
        a["resolve_order"] = order
        return order

    def _resolve_all(self, state: State, pending: list[Pending]) -> None:
        for p in list(pending):
            self._resolve(state, p)

    def _own_effects(self, state: State, p: Pending) -> None:
        """A build's effects on its owner's own station and VP: spaceships removed and
        put next to reactors, then the printed VP, then the immediate abilities that
        read only the owner's station (B 4; the timing rules' step 4, R 5)."""
        card = self.catalogue.get(p.card)
        ps = state.players[p.owner]
        station = ps.station
        d = p.data
        for c in d.get("spaceships_removed") or ():
            station.blocked.discard(tuple(c))
        put = sum(1 for c in d.get("reactor_spaceships") or ()
                  if self._put_ship(state, p.owner, tuple(c), p))
        self._gain(state, p.owner, card.vp, "printed", card.name, p.cell,
                   f"printed VP of '{card.name}'", p.index)
        for ab in card.abilities or ():
            if ab.get("when") != "immediate" or "spaceships" in ab or "choice" in ab \
                    or "remove_spaceships" in ab or abl.reads_other_stations(ab):
                continue
            if "manual" in ab:
                self._gain(state, p.owner, d["manual_vp"], "manual", card.name, p.cell,
                           "ability, VP typed by the players", p.index)
            else:
                ctx = abl.Context(station, p.cell, ps.credits, state.year, card.name,
                                  extra={"reactor_spaceship": put})
                vp, why = abl.evaluate(ab, ctx)
                self._gain(state, p.owner, vp, "ability", card.name, p.cell, why, p.index)

    def _resolve(self, state: State, p: Pending) -> None:
        """Effects that touch other players, after everyone's own action (B Playing Order)."""
        ab = p.data
        owner = state.players[p.owner]
        if p.kind == "choice":
            choices = p.choices
            for other in state.setup.players:
                if other == p.owner:
                    continue
                ops = state.players[other]
                if choices.get(other) == "pay" and ops.credits >= ab["pay"]:
                    ops.credits -= ab["pay"]
                else:
                    why = ("chose to lose VP" if choices.get(other) == "lose"
                           else "could not pay, so loses VP")
                    self._gain(state, other, -ab["lose"], "interaction", p.card, p.cell,
                               f"{p.owner}'s '{p.card}': {why}", p.index)
        elif p.kind == "conflict":
            for who, n in (p.choices.get("vp") or {}).items():
                self._gain(state, who, n, "interaction", p.card, None,
                           f"{p.owner}'s Conflict '{p.card}' (typed at the table)", p.index)
            for who, n in (p.choices.get("credits") or {}).items():
                ops = state.players[who]
                ops.credits = max(0, ops.credits + n)
            for ab in ab.values():
                if "per" in ab or "flat" in ab:
                    others = [state.players[o].station for o in state.setup.players if o != p.owner]
                    ctx = abl.Context(owner.station, None, owner.credits, state.year, p.card, others)
                    vp, why = abl.evaluate(ab, ctx)
                    self._gain(state, p.owner, vp, "interaction", p.card, None, why, p.index)
        elif p.kind == "spaceships":
            for who, at in ab["at"]:
                self._put_ship(state, who, tuple(at), p)
        elif p.kind == "own":
            self._own_effects(state, p)
        elif p.kind == "gain":
            self._gain(state, p.owner, ab["vp"], ab["category"], p.card, p.cell, ab["rule"],
                       p.index)
        else:
            others = [state.players[o].station for o in state.setup.players if o != p.owner]
            ctx = abl.Context(owner.station, p.cell, owner.credits, state.year, p.card, others)
            vp, why = abl.evaluate(ab, ctx)
            self._gain(state, p.owner, vp, "ability", p.card, p.cell, why, p.index)


def round_end_report(game: Game, state: State | None = None) -> list[dict]:
    """Every rule each station breaks now, all at once (B 5 round-end check).

    Each entry: player, rule, cells (the locations involved), message.
    """
    state = state if state is not None else game.state
    out = []
    for p in state.setup.players:
        st = state.players[p].station
        by_card: dict[str, list] = {}
        for cell, placed in sorted(st.cells.items()):
            if placed.kind == LOCATION and placed.card:
                by_card.setdefault(placed.card, []).append(cell)
        for name, cells in by_card.items():
            card = game.catalogue.get(name)
            limit = card.limit if card is not None and card.max not in (None, "none") else None
            if limit is not None and len(cells) > limit:
                out.append({"player": p, "rule": "max", "cells": [list(c) for c in cells],
                            "message": f"{p}'s station has {len(cells)} '{name}' (MAX {limit}): "
                                       f"remove {len(cells) - limit}"})
        if not st.is_connected():
            out.append({"player": p, "rule": "not-adjacent", "cells": [],
                        "message": f"{p}'s station is split in two"})
    return out
