"""Small Star Empires records (JSON): shape checks and reading.  See
docs/small-star-empires.md.  The rules are checked by replaying (SseGame.from_record).
Files are read by the one bounded reader (companion.core.record / companion.core.safeio)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.errors import RecordError
from ..core.record import (MAX_BYTES, NUMBER_LIMIT, check_entries, check_lists, check_names,
                           check_numbers, check_seed, check_top, parse_json, read_json)

FORMAT = "small-star-empires/1"
#: ``cards`` is accepted (empty) because the saved-games store writes it for every game
TOP_KEYS = {"format", "setup", "actions", "manual", "meta", "cards"}

__all__ = ["FORMAT", "MAX_BYTES", "NUMBER_LIMIT", "validate_record", "validate_manual",
           "load_json", "sniff_format", "read_record", "parse_record", "dumps"]


def validate_record(data: Any) -> None:
    check_top(data, FORMAT, TOP_KEYS, wrong_format="expected")
    if data.get("cards"):
        raise RecordError("a Small Star Empires record has no cards")
    check_lists(data, ("actions", "manual"))
    if data.get("meta") is not None and not isinstance(data["meta"], dict):
        raise RecordError("'meta' must be an object")
    setup = data["setup"]
    check_names(setup)
    check_seed(setup)
    if isinstance(setup, dict):
        # the map's coordinates and numbers are checked by HexMap.from_dict; the
        # epic nebula table's VP (0..999) by the setup; the seed (0..2**53-1) above
        check_numbers({k: v for k, v in setup.items()
                       if k not in ("map", "nebula_table", "seed")}, "setup")
    check_entries(data, validate_manual)


def validate_manual(m: Any, i: int = 0) -> None:
    """The only entry typed at the end: the epic nebula table, when the setup left it open."""
    where = f"manual[{i}]"
    if not isinstance(m, dict) or m.get("source") != "nebula_table" or set(m) - {"source", "values"}:
        raise RecordError(f"{where} must be {{\"source\": \"nebula_table\", \"values\": [...]}}")
    v = m.get("values")
    if not (isinstance(v, list) and len(v) == 6
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 999 for x in v)):
        raise RecordError(f"{where}: values are the 6 VP of the epic nebula table")


def load_json(path: str | Path) -> Any:
    """Read any record file through the one bounded reader (companion.core.record.read_json)."""
    return read_json(path)


def sniff_format(path: str | Path) -> str | None:
    """The ``format`` of a record file, or None if it cannot be told (the caller's own
    reader then reports the problem)."""
    try:
        data = load_json(path)
    except RecordError:
        return None
    return data.get("format") if isinstance(data, dict) else None


def read_record(path: str | Path) -> dict[str, Any]:
    data: dict[str, Any] = load_json(path)   # validate_record refuses anything but an object
    validate_record(data)
    return data


def parse_record(text: str | bytes, name: str = "record") -> dict[str, Any]:
    data: dict[str, Any] = parse_json(text, name)   # validate_record refuses a non-object
    validate_record(data)
    return data


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False)
