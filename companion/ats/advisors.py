"""Advisor cards (R 4) as a shape the players type once.

R 4: "Some of the Advisors have an ability written on both sides of the card. In these
cases, one side is for use in 2-player games, while the other one is for games with 3 or
more players."  An advisor card is a catalogue entry ``{name, category: advisor, sides:
{"2 players": text, "3+ players": text}}``.  No source gives any advisor's name or bonus
text, so none is shipped: each side's text is ``null`` until a player types it from the
card where the advisor is settled; it is then kept in the player's catalogue (and the
game's cards) like any typed value, exported and imported with it.  A one-sided card
holds the same text on both sides, typed once.

The engine only stores and shows the texts: the bonus's effect is still typed as VP and
credits each time it is taken (companion.ats.modes.advisor_claim); the texts are never
machine-read.
"""
from __future__ import annotations

from typing import Any

from ..core.errors import CatalogueError
from .cards import ADVISOR_SIDES, MAX_BONUS_TEXT, Card, parse_card

#: the entry's category
ADVISOR = "advisor"


def side_in_play(players: int) -> str:
    """The side of an advisor card a game of ``players`` players uses (R 4: "one side is
    for use in 2-player games, while the other one is for games with 3 or more
    players").  The 2 virtual seats of the base 2-player rules (B 8) are not players."""
    if players < 2:
        raise ValueError(f"a game has at least 2 players, not {players}")
    return ADVISOR_SIDES[0] if players == 2 else ADVISOR_SIDES[1]


def advisor_name(setup: Any, tile: str) -> str:
    """The advisor card's name on the Influence tile ``tile`` (setup.options.advisors),
    as typed at the setup ("" when nobody typed it, or no such tile)."""
    for t in setup.options.get("advisors") or ():
        if isinstance(t, dict) and t.get("name") == tile:
            return str(t.get("advisor") or "").strip()
    return ""


def bonus_text(catalogue: Any, name: str, players: int) -> str | None:
    """The bonus text of the side of advisor ``name`` in play with ``players``, as the
    players typed it; None when nobody has typed it yet (never invented)."""
    card = catalogue.get(name) if name else None
    if card is None or card.category != ADVISOR:
        return None
    text = (card.extra.get("sides") or {}).get(side_in_play(players))
    return text if isinstance(text, str) and text.strip() else None


def typed_side(catalogue: Any, name: str, players: int, text: str, *,
               both_sides: bool = False) -> Card:
    """The advisor card to save when a player types the bonus text of the side in play
    (``both_sides``: the card has one side, the same text for every player count).
    CatalogueError (one line) for an empty or too long text, a missing name, or a name
    another kind of entry already has (an advisor never replaces a location card)."""
    name = str(name or "").strip()
    text = " ".join(str(text or "").split())
    if not name:
        raise CatalogueError("name the advisor card on its Influence tile first (setup): "
                             "its bonus text is kept under its name")
    if not text:
        raise CatalogueError(f"type the bonus text printed on '{name}'")
    if len(text) > MAX_BONUS_TEXT:
        raise CatalogueError(f"the bonus text is {len(text)} characters long; at most "
                             f"{MAX_BONUS_TEXT}")
    old = catalogue.get(name)
    if old is not None and old.category != ADVISOR:
        raise CatalogueError(f"'{old.name}' is already a {old.category} card in the catalogue; "
                             "an advisor card cannot share its name")
    sides = {s: text for s in ADVISOR_SIDES} if both_sides else {side_in_play(players): text}
    return parse_card({"name": old.name if old is not None else name, "category": ADVISOR,
                       "sides": sides, "source": "typed by the players"},
                      file="your entry")
