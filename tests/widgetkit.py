"""Reading a page's widgets in-process, as the tests that drive a screen through its
widgets do: widgets found by their CSS class, the status line as a player reads it."""
from __future__ import annotations

import html
import re


def find(box, cls: str) -> list:
    """Every widget under ``box`` (itself included) carrying the CSS class ``cls``."""
    out = []

    def walk(x):
        if cls in getattr(x, "_dom_classes", ()):
            out.append(x)
        for k in getattr(x, "children", ()):
            walk(k)
    walk(box)
    return out


def one(box, cls: str):
    """The one widget under ``box`` carrying ``cls`` (fails if none or several)."""
    got = find(box, cls)
    assert len(got) == 1, (cls, len(got))
    return got[0]


def said(app) -> str:
    """The status line as the player reads it (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", "", app.status.value))


def shown(widget) -> bool:
    return widget.layout.display != "none"
