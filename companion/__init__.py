"""Among the Stars and Small Star Empires table companion: rules engines, records,
scoring (no widgets here).

The layout (docs/architecture.md): ``companion.core`` (the base: errors, rules, record
I/O, the game descriptor), ``companion.table`` (the table layer: the game registry,
store, history, stats, exports), ``companion.ats`` (Among the Stars),
``companion.sse`` (Small Star Empires), ``companion.ui`` (the dashboard's widgets).

Importing this package loads no game (issue 38): the names below are the Among the
Stars engine's, kept for scripts and notebooks (``from companion import Game``), and
each is imported the first time it is asked for (PEP 562's module ``__getattr__``).
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

#: each public name and the module it lives in
_WHERE = {
    "Card": "ats.catalogue", "Catalogue": "ats.catalogue",
    "Game": "ats.game", "Setup": "ats.game", "State": "ats.game",
    "FORMAT": "ats.record", "parse_record": "ats.record", "read_record": "ats.record",
    "CatalogueError": "core.errors", "CompanionError": "core.errors",
    "IllegalAction": "core.errors", "MissingEntry": "core.errors",
    "RecordError": "core.errors", "UnknownCardValues": "core.errors",
    "write_record": "core.record",
}

__all__ = list(_WHERE)


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'companion' has no attribute {name!r}")
    value = getattr(import_module(f".{where}", __name__), name)
    globals()[name] = value            # asked once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
