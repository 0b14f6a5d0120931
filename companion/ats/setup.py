"""Among the Stars: the setup of a game, its constants and the rule codes.

The setup is what a record's ``setup`` holds (players, mode, races, objectives,
options); the constants are the rulebook's numbers (B = base rulebook, R =
Revival rulebook).  Every :class:`~companion.core.errors.IllegalAction` names one
of the codes in :data:`RULES`.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..core import chance
from ..core.errors import IllegalAction, RecordError
from ..core.rules import ATS, texts
from .vocabulary import TYPES
from .decks import objectives_wanted     # B 3 / B 8: one per player, 2 with 2 players

YEARS = 4
MODES = ("standard", "aggressive")
ACTIONS = ("build", "reactor", "discard", "conflict", "remove_spaceships")
#: entries that are not a player's action for the turn
SIDE_ENTRIES = ("virtual", "remove", "advisor", "lay")
#: ``setup.options.laid``: the game is laid from the table (issue 39), each station
#: entered as it lies with a ``lay`` entry; "final": the position at the game's end;
#: "now": a game under way, at the start of the turn ``options.laid_at`` names
LAID = ("final", "now")
#: the keys of ``setup.options.laid_at`` (a game laid "now": the year and turn whose
#: first action comes next, every player still to act)
LAID_AT_KEYS = ("year", "turn")
ACTION_KEYS = {"year", "turn", "player", "do", "card", "at", "energy_from", "choices", "manual_vp",
               "resolve_order", "note", "effects", "spaceships", "cells", "seat", "turn_order",
               "tile", "take", "reactor_spaceships", "spaceships_removed", "credits", "vp"}
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
SPACESHIP_FILLED = ("refuse", "lost", "reserve")

#: code -> what the rule says in this game: the texts of companion.core.rules.Rule
#: (one place; docs/rules.md is generated from it: ``python -m companion rules``)
RULES = texts(ATS)


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
    #: ``setup.seed`` as the record gives it (None: the record has none)
    seed: int | None = None
    #: the seed every draw of the game comes from; see :attr:`draw_seed`
    _draw_seed: int | None = field(default=None, repr=False, compare=False)

    @property
    def draw_seed(self) -> int:
        """The game's seed (docs/record-format.md, "The seed"): ``setup.seed``, else
        ``options.seed`` (older records), else derived from the setup's content as the
        companion writes it (:meth:`to_dict`, so a record and its ``to_record()``
        agree): the base's :func:`companion.core.chance.draw_seed`, both games' one."""
        return chance.draw_seed(self)

    @classmethod
    def from_dict(cls, d: Any) -> "Setup":
        if not isinstance(d, dict):
            raise RecordError("'setup' must be an object")
        known = {"players", "mode", "races", "objectives", "secret_objectives", "options", "seed"}
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
        if options.get("spaceship_filled", "refuse") not in SPACESHIP_FILLED:
            raise RecordError("setup.options.spaceship_filled is 'refuse', 'lost' or 'reserve'")
        check_advisors(options.get("advisors"), players)
        trust = options.get("on_trust", [])
        if not (isinstance(trust, list) and set(trust) <= set(ON_TRUST)):
            raise RecordError(f"setup.options.on_trust lists what a partial record takes on "
                              f"trust of the books' setup rules: {', '.join(ON_TRUST)}")
        if "laid" in options and options["laid"] not in LAID:
            raise RecordError("setup.options.laid says the game is laid from the table: "
                              "'final' (the position at the game's end) or 'now' (a game "
                              "under way, at the turn setup.options.laid_at names)")
        sup = options.get("reactor_supply", 0)
        if not (isinstance(sup, int) and not isinstance(sup, bool) and sup >= 0):
            raise RecordError("setup.options.reactor_supply must be a whole number >= 0")
        seed = chance.setup_seed(d)
        old = options.get("seed")
        if "seed" in options and (isinstance(old, bool) or not isinstance(old, int)):
            raise RecordError("setup.options.seed (the seed of an older record's setup draw) "
                              "must be a whole number")
        setup = cls(players, mode, dict(races), list(objectives), dict(secret), dict(options),
                    seed)
        setup.check_laid_at()
        return setup

    def check_laid_at(self) -> None:
        """``options.laid_at`` (issue 39, a game laid "now"): ``{"year": Y, "turn": T}``,
        the turn whose first action comes next, with 1 <= Y <= 4 and T one of that year's
        turns (:meth:`turns_in_year`: 6, or 7 in the aggressive mode's years with
        Conflict cards, B 7).  Required with ``laid: "now"``, refused otherwise; refused
        with the Influence tiles (R 4): where their advisors stand cannot be read from
        the stations laid.  Raises RecordError."""
        laid, at = self.options.get("laid"), self.options.get("laid_at")
        if laid != "now":
            if "laid_at" in self.options:
                raise RecordError("setup.options.laid_at names the turn of a game laid under "
                                  "way: it comes with setup.options.laid: \"now\"")
            return
        shape = ("setup.options.laid_at is {\"year\": Y, \"turn\": T}: the year (1 to "
                 f"{YEARS}) and turn whose first action comes next, every player still to act")
        if not (isinstance(at, dict) and set(at) == set(LAID_AT_KEYS)
                and all(isinstance(at[k], int) and not isinstance(at[k], bool)
                        for k in LAID_AT_KEYS)):
            raise RecordError(f"{shape}, not {at!r}")
        year, turn = at["year"], at["turn"]
        if not 1 <= year <= YEARS:
            raise RecordError(f"{shape}: the game lasts {YEARS} years (B 4: \"The game is "
                              f"played over a period of 4 years\"), not year {year}")
        turns = self.turns_in_year(year)
        if not 1 <= turn <= turns:
            raise RecordError(f"{shape}: year {year} has {turns} turns (B 4: \"Every round "
                              f"consists of 6 turns\"; B 7: 7 cards a year in the aggressive "
                              f"mode's years with Conflict cards), not turn {turn}")
        if self.options.get("advisors"):
            raise RecordError("setup.options.laid \"now\" with the Influence tiles "
                              "(setup.options.advisors): where each advisor stands (R 4) "
                              "cannot be read from the stations laid; enter this game from "
                              "its start")

    @property
    def laid_at(self) -> tuple[int, int] | None:
        """A game laid "now" (issue 39): the (year, turn) it goes on from; else None."""
        at = self.options.get("laid_at")
        if self.options.get("laid") != "now" or not isinstance(at, dict):
            return None
        return int(at["year"]), int(at["turn"])

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"players": list(self.players), "mode": self.mode,
                             "races": dict(self.races), "objectives": list(self.objectives)}
        if self.secret_objectives:
            d["secret_objectives"] = dict(self.secret_objectives)
        d["options"] = copy.deepcopy(self.options)
        if self.seed is not None:
            d["seed"] = self.seed
        return d

    @property
    def reactor_supply(self) -> int:
        """Power Reactors in the supply at the start: ``options.reactor_supply``, else
        what the mode puts there: 8 with the Revival 2-player rules (R 2.1: "all the
        Power Reactor cards in a single pile", R 1: 8), 16 + 8 with 5-6 players (both
        boxes, ruling), 16 otherwise (B 2)."""
        sup: int | None = self.options.get("reactor_supply")
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

    def bounds_of(self, player: str) -> tuple[int, int, int, int] | None:
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


def check_advisors(tiles: Any, players: list[str]) -> None:
    """setup.options.advisors: the Influence tiles in play (R 4)."""
    if tiles is None:
        return
    msg = ("setup.options.advisors is a list of {name, between: [player, player], actions: [...], "
           "advisor, slots}; actions are build, build:<type>, reactor, discard, conflict, "
           "remove_spaceships; slots = slots from the middle to each end")
    if not isinstance(tiles, list):
        raise RecordError(msg)
    names = set()
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


#: what ``setup.options.on_trust`` may list: the book setup rules (the codes of
#: :func:`book_setup_problems`) a partial record does not follow and says so (the base
#: rulebook's worked example names 2 of George's 4 objectives; docs/record-format.md)
ON_TRUST = ("objectives", "advisor-tiles")


def book_setup_problems(setup: Setup) -> list[tuple[str, str]]:
    """What a new game's setup breaks of the books' setup rules, as (rule code,
    message): the number of objectives (B 3, B 8) and the Influence tiles (R 4).
    Empty when the setup is the book's.  A query: a stored record is replayed
    whatever this says (older records, and the base rulebook's worked example,
    which names 2 of George's 4 objectives); :func:`check_book_setup` refuses a
    new game."""
    out: list[tuple[str, str]] = []
    players = list(setup.players)
    n = len(players)
    objectives = list(setup.objectives)
    want = objectives_wanted(n)
    if objectives and len(objectives) != want:
        out.append(("objectives", f"{len(objectives)} objective(s) named for {n} players: the "
                    f"book draws {want} (B 3: \"as many Objectives as the number of players\""
                    + ("; B 8: \"only 2 Objective Cards are drawn\"" if n == 2 else "")
                    + "); name every objective drawn (add the missing ones to the catalogue), "
                    "or play without objectives"))
    lowered = [o.lower() for o in objectives]
    dup = sorted({o for o in objectives if lowered.count(o.lower()) > 1})
    if dup:
        out.append(("objectives", f"the objective '{dup[0]}' is named twice: each objective "
                    "card is drawn once"))
    for who, secret in sorted(setup.secret_objectives.items()):
        if secret.lower() in lowered:
            out.append(("objectives", f"{who}'s secret objective '{secret}' is one of the "
                        "objectives face up (B 3: \"Put these cards face up on the table\"; "
                        "the secret one is another card)"))
    tiles = setup.options.get("advisors")
    if tiles:
        if len(tiles) != n:
            out.append(("advisor-tiles", f"{len(tiles)} Influence tile(s) for {n} players: R 4 "
                        "takes \"as many as the number of players\""))
        if n >= 3:
            seats = {frozenset((players[i], players[(i + 1) % n])) for i in range(n)}
            pairs = [frozenset(t["between"]) for t in tiles]
            wrong = [t for t, pair in zip(tiles, pairs) if pair not in seats]
            twice = sorted({" and ".join(sorted(p)) for p in pairs if pairs.count(p) > 1})
            for t in wrong:
                out.append(("advisor-tiles", f"the Influence tile '{t['name']}' lies between "
                            f"{t['between'][0]} and {t['between'][1]}, who do not sit side by "
                            "side (R 4: \"place one randomly between each player and the player "
                            "on his left\"; seats in setup.players order)"))
            for pair in twice:
                out.append(("advisor-tiles", f"two Influence tiles lie between {pair}: R 4, "
                            "\"All players should end with one Influence tile on each side, "
                            "each between them and a different player\""))
    return out


def check_book_setup(setup: Setup, on_trust: Iterable[str] = ()) -> None:
    """Refuse a new game whose setup breaks the books' setup rules
    (:func:`book_setup_problems`): IllegalAction naming the first problem's rule.
    ``on_trust``: rule codes not checked (a partial record that says so)."""
    skip = set(on_trust)
    problems = [pr for pr in book_setup_problems(setup) if pr[0] not in skip]
    if problems:
        code, msg = problems[0]
        # literal codes: tests/test_core_rules.py reads every raised code from the source
        if code == "objectives":
            raise IllegalAction("objectives", msg)
        raise IllegalAction("advisor-tiles", msg)
