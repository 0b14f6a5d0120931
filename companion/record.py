"""Reading and writing game records (JSON).  See docs/record-format.md."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import RecordError

FORMAT = "among-the-stars/1"
#: A record file larger than this is refused before it is parsed.  A complete
#: 6-player game with every card embedded is about 60 kB.
MAX_BYTES = 2_000_000
TOP_KEYS = {"format", "setup", "cards", "actions", "manual", "meta"}


def read_text(path: str | Path) -> str:
    """A record file's text, refusing a missing, oversized or non-UTF-8 file."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    if size > MAX_BYTES:
        raise RecordError(f"{path} is {size} bytes; a record may be at most {MAX_BYTES} bytes")
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None
    except OSError as e:          # a directory, no permission, ...
        raise RecordError(f"cannot read {path}: {e.strerror}") from None


def parse_json(text: str, name: str = "record") -> Any:
    """JSON of any record, with the size limit and a message instead of a traceback."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise RecordError(f"{name} is larger than {MAX_BYTES} bytes")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{name} is not valid JSON: {e.msg} at line {e.lineno}, "
                          f"column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"{name} is nested too deeply to be a game record") from None


def read_record(path: str | Path) -> dict:
    """Load a record file, refusing oversized or malformed files with a clear message."""
    return parse_record(read_text(path), str(path))


def parse_record(text: str, name: str = "record") -> dict:
    data = parse_json(text, name)
    validate_record(data)
    return data


def validate_record(data: Any) -> None:
    """Shape checks that do not need the rules (those run during replay)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(f"unknown format {fmt!r}; this companion reads {FORMAT!r}")
    extra = set(data) - TOP_KEYS
    if extra:
        raise RecordError(f"unknown key '{sorted(extra)[0]}' at the top of the record")
    if "setup" not in data:
        raise RecordError("the record has no 'setup'")
    for key in ("cards", "actions", "manual"):
        if key in data and data[key] is not None and not isinstance(data[key], list):
            raise RecordError(f"'{key}' must be a list")
    for i, a in enumerate(data.get("actions") or []):
        if not isinstance(a, dict):
            raise RecordError("an action must be an object", index=i)
    for i, m in enumerate(data.get("manual") or []):
        validate_manual(m, i)


def validate_manual(m: Any, i: int = 0) -> None:
    where = f"manual[{i}]"
    if not isinstance(m, dict):
        raise RecordError(f"{where} must be an object")
    extra = set(m) - {"source", "player", "at", "vp", "note"}
    if extra:
        raise RecordError(f"{where}: unknown key '{sorted(extra)[0]}'")
    if not isinstance(m.get("source"), str):
        raise RecordError(f"{where}: 'source' must name the card, race or objective")
    if m.get("player") is not None and not isinstance(m["player"], str):
        raise RecordError(f"{where}: 'player' must be a player name or null (nobody)")
    vp = m.get("vp")
    if not (isinstance(vp, int) and not isinstance(vp, bool)):
        raise RecordError(f"{where}: 'vp' must be a whole number")
    at = m.get("at")
    if at is not None and not (isinstance(at, list) and len(at) == 2
                               and all(isinstance(x, int) and not isinstance(x, bool) for x in at)):
        raise RecordError(f"{where}: 'at' must be [row, col]")


def dumps(record: dict) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False)


def write_record(record: dict, path: str | Path) -> Path:
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(dumps(record), encoding="utf-8")
    tmp.replace(path)
    return path
