"""What the Small Star Empires page offers, as the engine says it.

The page (companion/ui/sse_*.py) holds no rule and no number of the book: how many
player names it asks for, the ships, Cities and Trade Stations it offers, the campaign's
table in words, the planets a tile may show, which tiles are colonised with a City,
whether a ship may be damaged, and the texts of the rules its hints quote all come from
here, built on the book's numbers in :mod:`companion.sse.rules` and the rule texts of
:class:`companion.core.rules.Rule`.  Queries only: nothing here changes a game.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..core.rules import SSE, Rule
from .rules import (BLOCKING_EFFECTS, BOOK_SHIPS, BOX, CAMPAIGN_PIECES, CAMPAIGN_TARGET,
                    EPIC_NEBULAE, MAX_PIECES, PLANETS, PLAYERS)

#: with custom pieces or in epic mode the page offers 1 to 6 ships each (the book's epic
#: tables give more than its standard 2-4; a custom record may hold up to 12)
WIDE_SHIPS = (1, 6)


def seats() -> int:
    """How many player names the new-game form asks for (the most players a game has)."""
    return PLAYERS[1]


def seat_optional(i: int) -> bool:
    """Is the ``i``-th name (from 0) optional?  The first ``PLAYERS[0]`` are needed."""
    return i >= PLAYERS[0]


def players_words() -> str:
    """'2 to 4 players'."""
    return f"{PLAYERS[0]} to {PLAYERS[1]} players"


def seat_needed() -> int:
    """The fewest players a game has."""
    return PLAYERS[0]


def enough_players(names: list[str]) -> bool:
    return len(names) >= PLAYERS[0]


def ship_choices(wide: bool) -> list[int]:
    """The ships each player may start with: the book's 2 to 4 ("each player starts with
    2-4 ships", S Setup), or :data:`WIDE_SHIPS` with custom pieces or in epic mode."""
    lo, hi = WIDE_SHIPS if wide else BOOK_SHIPS
    return list(range(lo, hi + 1))


def ships_words() -> str:
    """'2 to 4' (S Setup)."""
    return f"{BOOK_SHIPS[0]} to {BOOK_SHIPS[1]}"


def box_pieces() -> tuple[int, int]:
    """Cities and Trade Stations per player in the box (S Components)."""
    return BOX["cities"], BOX["trade_stations"]


def max_pieces() -> int:
    """The most Cities or Trade Stations per player a setup may give."""
    return MAX_PIECES


def box_words() -> str:
    cities, trade = box_pieces()
    return f"The box holds {cities} Cities and {trade} Trade Stations per player."


def campaign_words() -> str:
    """Campaign Mode's table in words (the book's pieces per player and the wins that take
    the campaign)."""
    rows = sorted(CAMPAIGN_PIECES.items())
    (n0, (c0, t0)), rest = rows[0], rows[1:]
    pieces = ", ".join([f"{n0} players {c0} Cities and {t0} Trade Stations"]
                       + [f"{n} players {c} and {t}" for n, (c, t) in rest])
    targets = sorted(CAMPAIGN_TARGET.items())
    wins = [f"{targets[0][1]} ({targets[0][0]} players)"] + [f"{v} ({n})" for n, v in targets[1:]]
    wins_txt = ", ".join(wins[:-1]) + f" or {wins[-1]}" if len(wins) > 1 else wins[0]
    return (f"Campaign pieces per player (the book): {pieces}; each win puts a City on your "
            f"win pile. The first to {wins_txt} wins wins the campaign.")


def epic_columns() -> int:
    """The epic nebula table's values: VP for 1 to this many nebulae of a colour."""
    return EPIC_NEBULAE


def epic_numbers(text: str) -> list[int]:
    """The whole numbers typed for the epic table (commas, semicolons or spaces between);
    ValueError if one is not a whole number."""
    return [int(x) for x in text.replace(";", ",").replace(" ", ",").split(",") if x]


def planet_choices() -> list[int]:
    """The planets a planetary system or tile may show."""
    return list(range(PLANETS[0], PLANETS[1] + 1))


def homeworld_numbers() -> list[int]:
    """The homeworlds a map may hold: one per seat."""
    return list(range(1, PLAYERS[1] + 1))


def usual_piece(pieces: Sequence[str]) -> str | None:
    """The piece a choice among ``pieces`` starts from: a City (the usual piece; a Trade
    Station is only ever placed on purpose), else the first one offered."""
    return "city" if "city" in pieces else (pieces[0] if pieces else None)


def map_players(homes: Iterable[int]) -> int | None:
    """The players a map is for: its homeworlds numbered 1 to n give n; any other
    numbering gives None (the map says no number of players)."""
    homes = list(homes)
    return len(homes) if set(homes) == set(range(1, len(homes) + 1)) else None


def tile_piece(effect: str) -> str | None:
    """The piece an exploring ship colonises its Unexplored System with once the tile
    shows ``effect``: a City, or nothing for a tile that damages the ship."""
    return None if effect in BLOCKING_EFFECTS else "city"


def may_damage(state: Any) -> bool:
    """May a ship be damaged now (an expansion's effect)?  Only with the damaged-ships
    variant, in a game not over."""
    return bool(state.setup.variant("damaged_ships")) and not state.finished


def rule_text(code: str) -> str:
    """What rule ``code`` says in Small Star Empires (the text hints quote)."""
    return Rule(code).text(SSE)
