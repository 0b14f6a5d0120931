"""Among the Stars table companion: rules engine, records, scoring (no widgets here).

The layout (docs/architecture.md): ``companion.core`` (the base: errors, rules, record
I/O, the game descriptor), ``companion.table`` (the table layer: the game registry,
store, history, stats, exports), ``companion.ats`` (Among the Stars),
``companion.sse`` (Small Star Empires), ``companion.ui`` (the dashboard's widgets).
The names below are the Among the Stars engine's, kept here for scripts and notebooks.
"""
from .ats.catalogue import Card, Catalogue
from .ats.game import Game, Setup, State
from .ats.record import FORMAT, parse_record, read_record
from .core.errors import (CatalogueError, CompanionError, IllegalAction, MissingEntry,
                          RecordError, UnknownCardValues)
from .core.record import write_record

__all__ = ["Card", "Catalogue", "CatalogueError", "CompanionError", "IllegalAction",
           "MissingEntry", "RecordError", "UnknownCardValues", "Game", "Setup", "State",
           "FORMAT", "parse_record", "read_record", "write_record"]
