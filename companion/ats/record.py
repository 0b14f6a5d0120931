"""Among the Stars records: the format, the shape checks that need no rules (those run
during replay, Game.from_record) and reading.  See docs/record-format.md.  Files are read
by the one bounded reader (companion.core.record / companion.core.safeio)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import safeio
from ..core.errors import RecordError
from ..core.record import (NUMBER_LIMIT, check_entries, check_lists, check_names,
                           check_numbers, check_seed, check_top, parse_json, read_text)

FORMAT = "among-the-stars/1"
TOP_KEYS = {"format", "setup", "cards", "actions", "manual", "meta"}
#: VP typed at the table (``manual``): -MANUAL_VP_LIMIT..MANUAL_VP_LIMIT
MANUAL_VP_LIMIT = 999


def read_record(path: str | Path) -> dict[str, Any]:
    """Load a record file, refusing oversized or malformed files with a clear message."""
    return parse_record(read_text(path), str(path))


def parse_record(text: str, name: str = "record") -> dict[str, Any]:
    data: dict[str, Any] = parse_json(text, name)
    validate_record(data)
    return data


def validate_record(data: Any) -> None:
    """Shape checks that do not need the rules (those run during replay), and
    the limits: the reader's (depth, items, digits, text), player names, the seed
    (``setup.seed`` 0..2**53-1; an older ``setup.options.seed`` any whole number), and
    every other number of the setup and the actions within its range."""
    check_top(data, FORMAT, TOP_KEYS, wrong_format="this companion reads")
    check_lists(data, ("cards", "actions", "manual"))
    setup = data["setup"]
    check_names(setup)
    check_seed(setup)
    options = setup.get("options") if isinstance(setup, dict) else None
    old = options.get("seed") if isinstance(options, dict) else None
    if isinstance(options, dict) and "seed" in options and (
            isinstance(old, bool) or not isinstance(old, int)):
        raise RecordError("setup.options.seed (an older record's setup draw seed) must be a "
                          "whole number")
    check_numbers(setup, "setup", skip=("seed",))
    check_entries(data, validate_manual)


def validate_manual(m: Any, i: int = 0) -> None:
    where = f"manual[{i}]"
    if not isinstance(m, dict):
        raise RecordError(f"{where} must be an object")
    extra = set(m) - {"source", "player", "at", "vp", "note"}
    if extra:
        raise RecordError(f"{where}: unknown key '{sorted(map(str, extra))[0]}'")
    if not isinstance(m.get("source"), str):
        raise RecordError(f"{where}: 'source' must name the card, race or objective")
    if m.get("player") is not None and not isinstance(m["player"], str):
        raise RecordError(f"{where}: 'player' must be a player name or null (nobody)")
    vp = m.get("vp")
    if not (isinstance(vp, int) and not isinstance(vp, bool)):
        raise RecordError(f"{where}: 'vp' must be a whole number")
    if not -MANUAL_VP_LIMIT <= vp <= MANUAL_VP_LIMIT:
        raise RecordError(f"{where}: 'vp' is {vp}; VP typed at the table are from "
                          f"{-MANUAL_VP_LIMIT} to {MANUAL_VP_LIMIT}")
    at = m.get("at")
    if at is not None and not (isinstance(at, list) and len(at) == 2
                               and all(safeio.is_whole(x, -NUMBER_LIMIT, NUMBER_LIMIT)
                                       for x in at)):
        raise RecordError(f"{where}: 'at' must be [row, col] (whole numbers from "
                          f"{-NUMBER_LIMIT} to {NUMBER_LIMIT})")
