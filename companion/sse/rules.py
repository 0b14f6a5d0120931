"""Small Star Empires: the book's numbers, the variants and readings, and the rule codes.

What every chapter of the engine shares (companion/sse/setup.py, state.py, movement.py,
effects.py, turns.py, game.py): the pieces in the box, Campaign Mode's table, the Unexplored
System tiles' VP, the variants and the readings of the book's text (``OPTIONS``), the rule
codes an :class:`IllegalMove` names (``RULES``).  Book references: "S Movement",
"S Colonize", "S Game End", "S Variants ..." are the sections of the rulebook.
"""
from __future__ import annotations

from typing import Any, TypeGuard

from ..core.errors import IllegalAction
from ..core.rules import SSE, texts

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
#: the players of one game (the setup's check: "setup.players: 2 to 4 players")
PLAYERS = (2, 4)
#: the most Cities or Trade Stations per player a setup may give (setup.pieces' bound)
MAX_PIECES = 200
#: a planetary system or tile has 1 to 3 planets (S Components: "Each Planetary System can
#: contain a number of planets in it, usually from one to three planets"; the map and the
#: tile's checks: "a planetary tile has 1 to 3 planets")
PLANETS = (1, 3)
#: the Unexplored System tiles that colonise nothing (S Unexplored Systems, the Asteroid
#: Field and the Nordinn Empire: "When you enter and reveal this system, Damage your ship.
#: From now on, no other ships can enter or pass through this system."); every other tile
#: says "When you enter and reveal this system, colonize it with a City."
BLOCKING_EFFECTS = ("asteroid_field", "nordinn_empire")
MODES = ("standard", "epic")
#: ``setup.options.laid`` (issue 39, companion/sse/lay.py): the game is laid from the table,
#: one ``lay`` entry per player; "final": the position at the game's end (scored at once),
#: "now": a game under way, which goes on action by action
LAID = ("final", "now")
#: the keys only a ``lay`` entry has
LAY_ONLY_KEYS = {"pieces", "revealed", "conquered", "ships", "vp", "received", "paid", "next"}
ACTION_KEYS = {"do", "player", "ship", "from", "to", "piece", "via", "pay", "reveal", "destroy",
               "then", "note"} | LAY_ONLY_KEYS
DEFAULT_COLOURS = ["#e0a800", "#8e44ad", "#e8590c", "#1c7c7c"]

#: code -> what the rule says in this game: the texts of companion.core.rules.Rule
#: (one place; docs/rules.md is generated from it: ``python -m companion rules``)
RULES = texts(SSE)


class IllegalMove(IllegalAction):
    """An illegal Small Star Empires action: the message names the player, the ship, the
    destination and the rule."""

    def _compose(self) -> str:
        a = self.action
        head = str(a.get("player", "?"))
        if a.get("do") == "damage":
            head += f" damage ship {a.get('ship', '?')}"
        elif a.get("do") == "lay":
            head += " lay"
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


def is_whole(v: Any, lo: int = 0, hi: int = 10_000) -> TypeGuard[int]:
    """``v`` is a whole number (not a bool) from ``lo`` to ``hi``."""
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
