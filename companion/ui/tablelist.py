"""The saved-games lists of a server given a table (``--table``, issue 26): only that
table's games, and for the host an explicit *every table's games* switch.  Without a
table nothing is added and every game is listed, as before."""
from __future__ import annotations

from typing import Any, Callable

import ipywidgets as w

from .writes import HOST_ONLY


def every_table_switch(store: Any, refill: Callable[[Any], None]) -> list[Any]:
    """``[the switch]`` on a server with a table (host's page only: it is marked
    ``host-only``), else ``[]``; ``refill`` runs when it is turned."""
    if not getattr(store, "table", None):
        return []
    box = w.Checkbox(value=False, description="every table's games", indent=False)
    box.add_class("saved-every-table")
    box.add_class(HOST_ONLY)
    box.observe(refill, "value")
    return [box]


def saved_games(store: Any, switch: list[Any], **kw: Any) -> tuple[list[Any], list[Any]]:
    """(the games, the list's options): this server's table's games, or every table's
    when there is no table or the host turned the switch on (the table then shown
    after the title; an option's label is text, never markup)."""
    every = not getattr(store, "table", None) or bool(switch and switch[0].value)
    games = store.games(table=None if every else store.table, **kw)
    show_table = every and bool(getattr(store, "table", None))
    options = [(f"{g['title']} · {g['actions']} actions"
                + (f" · table {g['table']}" if show_table and g.get("table") else ""), g["id"])
               for g in games]
    return games, options
