"""Among the Stars table companion: rules engine, records, scoring (no widgets here)."""
from .catalogue import Card, Catalogue
from .errors import (CatalogueError, CompanionError, IllegalAction, MissingEntry, RecordError,
                     UnknownCardValues)
from .game import Game, Setup, State
from .record import FORMAT, parse_record, read_record, write_record

__all__ = ["Card", "Catalogue", "CatalogueError", "CompanionError", "IllegalAction",
           "MissingEntry", "RecordError", "UnknownCardValues", "Game", "Setup", "State",
           "FORMAT", "parse_record", "read_record", "write_record"]
