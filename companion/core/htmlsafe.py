"""The one place where user text becomes HTML or SVG.

Every string the dashboard and the renderers build from something a person
typed or a file brought (player names, card names, titles, messages, colours)
goes through :func:`escape` (text and attribute values, quotes included) or
:func:`colour` (a CSS colour, validated against a strict pattern or a list of
names: ipywidgets' own check only looks at the start of the string, so
``"red;}</style><script>…"`` would pass it).
"""
from __future__ import annotations

import html
import re
from typing import TypeGuard

__all__ = ["escape", "colour", "COLOUR_NAMES"]

#: CSS colour names accepted as they are (the common ones; anything else must be #hex)
COLOUR_NAMES = frozenset("""
black white red green blue yellow orange purple pink brown grey gray cyan magenta lime
navy teal olive maroon silver gold violet indigo turquoise crimson coral salmon khaki
tan beige ivory lavender orchid plum sienna chocolate tomato firebrick darkred darkgreen
darkblue darkorange darkviolet darkcyan darkmagenta darkgrey darkgray lightgrey lightgray
lightblue lightgreen lightyellow lightpink skyblue steelblue royalblue slateblue seagreen
forestgreen limegreen springgreen olivedrab goldenrod peru hotpink deeppink aqua fuchsia
""".split())
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


def escape(text: object, quote: bool = True) -> str:
    """``text`` (anything: it is turned into a string first) safe inside HTML/SVG
    text and quoted attribute values."""
    return html.escape(str(text), quote=quote)


def is_colour(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a colour we put into markup: #rgb, #rgba, #rrggbb,
    #rrggbbaa or a plain CSS colour name."""
    if not isinstance(value, str):
        return False
    v = value.strip()
    return bool(_HEX.fullmatch(v)) or v.lower() in COLOUR_NAMES


def colour(value: object, default: str = "#888888") -> str:
    """``value`` if it is a valid colour (see :func:`is_colour`), else ``default``."""
    return value.strip() if is_colour(value) else default
