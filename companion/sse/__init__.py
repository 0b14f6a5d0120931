"""Small Star Empires: hex map, rules engine, scoring (no widgets here).

``SseGame`` follows the Among the Stars engine's API (push/pop/check, records,
``IllegalAction`` with rule codes); see docs/small-star-empires.md.
"""
from .game import FORMAT, IllegalMove, Move, SseGame, SseSetup, State
from .hexmap import HexMap, MapError, System, available_maps, load_named
from .record import parse_record, read_record
from . import laying  # noqa: F401  (registers the check of a map's layout, issue 24)

__all__ = ["FORMAT", "IllegalMove", "Move", "SseGame", "SseSetup", "State", "HexMap", "MapError",
           "System", "available_maps", "load_named", "parse_record", "read_record"]
