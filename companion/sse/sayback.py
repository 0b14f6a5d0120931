"""A Small Star Empires action said back in words before it is confirmed (issue 52,
"Say it back"): "Ben: city on the blue nebula at 0,2, 1 step east (right) of ship 0".  A
misreading of a sentence is seen on the page before Confirm.  A query: nothing changes;
the words come from the action and the map."""
from __future__ import annotations

from typing import Any

from .hexmap import DIRECTIONS
from .incontext import SseGame

#: a hex direction in compass words and the page's words (E right, NE up-right, ...)
SAID = {"E": "east (right)", "W": "west (left)", "NE": "north-east (up-right)",
        "NW": "north-west (up-left)", "SE": "south-east (down-right)",
        "SW": "south-west (down-left)"}
PIECES = {"city": "city", "trade_station": "trade station"}


def say_back(game: SseGame, action: dict[str, Any]) -> str:
    """``action`` (a whole action, as ``value.to_dict()``) in a player's words: the
    piece, the system and its hex, and how far and which way from the ship."""
    who, kind, ship = action.get("player"), action.get("do"), action.get("ship")
    head = f"{who}: " if who else ""
    if kind == "damage":
        return f"{head}ship {ship} is damaged"
    frm, to = _hex(action.get("from")), _hex(action.get("to"))
    if kind != "move" or to is None:
        return head + str(kind)
    system = game.state.map.get(to)
    where = f"the {system.describe()}" if system is not None else "the system"
    piece = action.get("piece")
    what = f"{PIECES.get(piece, piece)} on " if piece else "no piece, to "
    out = f"{head}{what}{where} at {to[0]},{to[1]}"
    if frm is None:
        return out
    if action.get("via") == "wormhole":
        return out + f", through the wormhole from ship {ship} at {frm[0]},{frm[1]}"
    way = _line(frm, to)
    if way is not None:
        n, d = way
        return out + f", {n} step{'s' if n != 1 else ''} {SAID[d]} of ship {ship}"
    return out + f", from ship {ship} at {frm[0]},{frm[1]}"


def _hex(v: Any) -> tuple[int, int] | None:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return int(v[0]), int(v[1])
    return None


def _line(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, str] | None:
    """(steps, direction) when ``b`` lies in a straight line from ``a``."""
    for name, (dq, dr) in DIRECTIONS.items():
        for n in range(1, 40):
            if (a[0] + n * dq, a[1] + n * dr) == b:
                return n, name
    return None
