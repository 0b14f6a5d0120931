"""An Among the Stars action said back in words before it is confirmed (issue 52, "Say
it back"): "Ben: build Bio Lab at 1,0, below the Main Reactor; energy from the Main
Reactor x2".  A misreading of a sentence is seen on the page before Confirm.  A query:
nothing changes; the words come from the action and the player's station as it stands."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .station import MAIN, neighbours

if TYPE_CHECKING:
    from .game import Game

#: a cell's side of its neighbour, in the page's words (rows grow downward)
SIDES = {(1, 0): "below", (-1, 0): "above", (0, 1): "right of", (0, -1): "left of"}


def say_back(game: Game, action: dict[str, Any]) -> str:
    """``action`` (a whole action, as ``value.to_dict()``) in a player's words, with where
    its cell lies beside a location already built."""
    who, kind = action.get("player"), action.get("do")
    card = action.get("card")
    head = f"{who}: " if who else ""
    if kind == "discard":
        return f"{head}discard {card} for 3 credits"
    if kind == "advisor":
        take = action.get("take")
        tile = action.get("tile")
        return (f"{head}take the {tile} bonus" if take == "bonus"
                else f"{head}decline the {tile} bonus for 1 VP")
    if kind not in ("build", "reactor"):
        return game.describe(action)
    at = action.get("at")
    cell = (int(at[0]), int(at[1])) if isinstance(at, (list, tuple)) and len(at) == 2 else None
    what = f"build {card}" if kind == "build" else "Power Reactor"
    out = f"{head}{what}"
    if cell is not None:
        out += f" at {cell[0]},{cell[1]}" + _beside(game, str(who), cell)
    if kind == "reactor":
        out += f", giving up {card}"
    paid = action.get("energy_from") or []
    if paid and who in game.state.players:
        cells = game.state.station(str(who)).cells
        counts = Counter((int(c[0]), int(c[1])) for c in paid)
        parts = []
        for c, n in sorted(counts.items()):
            label = cells[c].label if c in cells else f"the reactor at {c[0]},{c[1]}"
            parts.append(f"the {label} at {c[0]},{c[1]}" if c != MAIN else f"the {label}")
            if n > 1:
                parts[-1] += f" x{n}"
        out += "; energy from " + " and ".join(parts)
    return out


def _beside(game: Game, who: str, cell: tuple[int, int]) -> str:
    """", below the Main Reactor": the main reactor when it is a neighbour, else the
    first built neighbour (top to bottom, left to right)."""
    if who not in game.state.players:
        return ""
    cells = game.state.station(who).cells
    built = [n for n in neighbours(cell) if n in cells]
    if not built:
        return ""
    ref = MAIN if MAIN in built else sorted(built)[0]
    side = SIDES.get((cell[0] - ref[0], cell[1] - ref[1]))
    return f", {side} the {cells[ref].label}" if side else ""
