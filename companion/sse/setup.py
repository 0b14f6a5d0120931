"""Small Star Empires setup (S Setup, S Components, S Variants): the players, the map, the
pieces, the variants and modes, the readings of the book (``options``); read from a record's
``setup`` and written back unchanged.  :func:`legacy_setup` opens setups saved before
``options.pieces`` existed."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..core import chance
from ..core.errors import CompanionError, RecordError
from . import hexmap as hm
from .hexmap import HexMap, System
from .rules import (BOOK_SHIPS, BOX, CAMPAIGN_PIECES, CAMPAIGN_TARGET, DEFAULT_COLOURS,
                    EPIC_NEBULAE, LAID, MODES, NEBULA_TABLE, OPTIONS, VARIANTS, is_whole)


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
    campaign: dict[str, Any] | None = None        # {"wins": {player: n}, "game": k}
    colours: dict[str, str] = field(default_factory=dict)
    pieces_given: dict[str, int] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)
    #: ``setup.seed`` as the record gives it (None: the record has none)
    seed: int | None = None
    #: the seed every draw of the game comes from; see :attr:`draw_seed`
    _draw_seed: int | None = field(default=None, repr=False, compare=False)

    @property
    def draw_seed(self) -> int:
        """The game's seed (docs/small-star-empires.md): ``setup.seed``, else one
        derived from the setup's content as the companion writes it
        (:meth:`to_dict`): the base's :func:`companion.core.chance.draw_seed`, both
        games' one."""
        return chance.draw_seed(self)

    @classmethod
    def from_dict(cls, d: Any) -> "SseSetup":
        if not isinstance(d, dict):
            raise RecordError("'setup' must be an object")
        known = {"players", "map", "pieces", "variants", "mode", "nebula_table", "campaign",
                 "colours", "options", "seed"}
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
        from .laying import box_problem
        problem = box_problem(the_map, copies=2 if mode == "epic" else 1)
        if problem:
            raise RecordError(f"setup.map: {problem}")
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
            if k == "laid":                 # not a reading of the book: issue 39's entry
                if v not in LAID:
                    raise RecordError("setup.options.laid says the game is laid from the "
                                      f"table: one of {', '.join(LAID)}")
                continue
            if k not in OPTIONS:
                raise RecordError(f"setup.options: unknown option '{k}' (known: "
                                  f"{', '.join([*OPTIONS, 'laid'])})")
            if v not in OPTIONS[k]:
                raise RecordError(f"setup.options.{k} is one of {', '.join(OPTIONS[k])}")
        campaign = d.get("campaign")
        if campaign is not None:
            if not isinstance(campaign, dict) or set(campaign) - {"wins", "game"}:
                raise RecordError("setup.campaign must be {\"wins\": {player: n}, \"game\": k}")
            wins = campaign.get("wins") or {}
            if not isinstance(wins, dict) or not all(p in players and is_whole(v, 0, 99)
                                                     for p, v in wins.items()):
                raise RecordError("setup.campaign.wins must map player names to whole numbers")
            if n not in CAMPAIGN_PIECES:
                raise RecordError("Campaign Mode is for 2 to 4 players")
            if any(v >= CAMPAIGN_TARGET[n] for v in wins.values()):
                raise RecordError("setup.campaign: a player has already won the campaign")
            game_no = campaign.get("game", 1)
            if not is_whole(game_no, 1, 999):
                raise RecordError("setup.campaign.game must be a whole number >= 1")
            campaign = {"wins": {p: int(wins.get(p, 0)) for p in players}, "game": game_no}
        pieces = d.get("pieces")
        if not isinstance(pieces, dict):
            raise RecordError("setup.pieces must give at least 'ships': each player starts with 2 to 4 "
                              "ships depending on the number of players (see the book's setup pictures)")
        if set(pieces) - {"ships", "cities", "trade_stations"}:
            raise RecordError(f"setup.pieces: unknown key '{sorted(set(pieces) - set(BOX))[0]}'")
        ships = pieces.get("ships")
        if not is_whole(ships, 1, 12):
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
        if not is_whole(cities, 0, 200) or not is_whole(ts, 0, 200):
            raise RecordError("setup.pieces: cities and trade_stations are whole numbers")
        table = d.get("nebula_table")
        if mode != "epic":
            if table is not None and list(table) != list(NEBULA_TABLE):
                raise RecordError("setup.nebula_table is only for epic mode (the base game scores 2/5/8)")
            table = None
        elif table is not None:
            if not (isinstance(table, list) and len(table) == EPIC_NEBULAE
                    and all(is_whole(v, 0, 999) for v in table)):
                raise RecordError(f"setup.nebula_table: {EPIC_NEBULAE} whole numbers, the VP for 1 "
                                  f"to {EPIC_NEBULAE} nebulae of a colour, from your rulebook")
        colours = d.get("colours") or {}
        if not isinstance(colours, dict) or not all(p in players and isinstance(c, str)
                                                    and len(c) < 40 for p, c in colours.items()):
            raise RecordError("setup.colours must map player names to colours")
        seed = chance.setup_seed(d)
        setup = cls(players, the_map, ships, cities, ts, dict(variants), mode,
                    list(table) if table is not None else None, campaign, dict(colours),
                    dict(pieces), dict(options), seed)
        off = setup.off_book()
        if off and setup.option("pieces") == "book":
            raise RecordError("setup.pieces: " + "; ".join(off) + ". For a custom setup set "
                              "setup.options.pieces to \"custom\"")
        return setup

    def to_dict(self) -> dict[str, Any]:
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
        if self.seed is not None:
            d["seed"] = self.seed
        return d

    def variant(self, name: str) -> bool:
        return bool(self.variants.get(name))

    @property
    def laid(self) -> str | None:
        """``options.laid`` (issue 39): "final" or "now" when the game is laid from the
        table (companion/sse/lay.py), else None."""
        return self.options.get("laid")

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
        wins: int = (self.campaign or {}).get("wins", {}).get(player, 0)
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


def legacy_setup(setup: Any) -> dict[str, Any] | None:
    """A setup saved before ``options.pieces`` existed (every piece count was accepted
    then): when it is refused only because its pieces are off the book, the same setup
    marked ``options.pieces = "custom"``, as it was played; otherwise None.  Used once
    per saved-games file (companion.table.store), so a game saved then still resumes."""
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
