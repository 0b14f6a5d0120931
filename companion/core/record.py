"""Reading and writing game records (JSON) of either game: the one bounded reader
(sizes, depth, numbers, texts; see companion.core.safeio) and the checks both games'
records share.  Each game's own shape checks and ``FORMAT`` live in its package
(companion.ats.record, companion.sse.record).  See docs/record-format.md."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable, Collection, Iterable

from . import chance, safeio
from .errors import RecordError
from .jsontypes import JSON

#: A record file larger than this is refused (by the bytes actually read, at most
#: MAX_BYTES + 1; see companion.core.safeio).  A complete 6-player game with every
#: card embedded is about 60 kB.
MAX_BYTES = 2_000_000


def _error(message: str) -> RecordError:
    return RecordError(message)


def read_text(path: str | Path) -> str:
    """A record file's text through the bounded reader (companion.core.safeio): a missing
    file, a folder, a FIFO or device, more than MAX_BYTES bytes actually read, or
    text that is not UTF-8 is refused with one clear message."""
    return safeio.read_text(path, MAX_BYTES, what="record", error=_error)


def parse_json(text: str | bytes, name: str = "record") -> Any:
    """JSON of any record (either game), with every limit of the bounded reader
    (size, nesting depth, number length, item count, text) and a message
    instead of a traceback."""
    return safeio.loads_json(text, name, limit=MAX_BYTES, error=_error, what="record")


def read_json(path: str | Path) -> Any:
    """Any record file (either game) parsed through every limit: the one reader
    of the command line and the history import."""
    return parse_json(read_text(path), str(path))


#: every whole number in a setup or an action (coordinates, years, turns, seats,
#: supplies, ...) lies within -NUMBER_LIMIT..NUMBER_LIMIT (a setup's ``seed`` excepted:
#: 0 <= seed < 2**53, :func:`check_seed`)
NUMBER_LIMIT = 1000


def check_tree(data: Any, name: str = "record") -> None:
    """The bounded reader's limits (depth, items, digits, text, types) on a record
    that did not come from a file (the dashboard, the store)."""
    # whole-number keys: a card's table (distinct_table) built in memory before it
    # is written as JSON (where the keys become texts)
    safeio.check_tree(data, name, error=_error, int_keys=True)


def check_numbers(value: Any, where: str, *, limit: int = NUMBER_LIMIT,
                  skip: tuple[str, ...] = (), index: int | None = None) -> None:
    """Refuse any whole number in ``value`` outside -limit..limit, naming where it is."""
    stack = [(value, where)]
    while stack:
        v, at = stack.pop()
        if isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        if isinstance(v, int):
            if not -limit <= v <= limit:
                raise RecordError(f"{at}: {v} is out of range (numbers here are from "
                                  f"{-limit} to {limit})", index=index)
        elif isinstance(v, float):
            if not -limit <= v <= limit:
                raise RecordError(f"{at}: {v!r} is out of range", index=index)
        elif isinstance(v, dict):
            stack += [(x, f"{at}.{k}" if at else str(k)) for k, x in v.items() if k not in skip]
        elif isinstance(v, (list, tuple)):
            stack += [(x, f"{at}[{i}]") for i, x in enumerate(v)]


def check_seed(setup: Any) -> None:
    """``setup.seed``, when the record has one: a whole number 0 <= seed < 2**53
    (true/false refused).  See companion.core.chance."""
    if isinstance(setup, dict) and "seed" in setup:
        why = chance.seed_problem(setup["seed"])
        if why:
            raise RecordError(f"setup.seed {why}")


def check_names(setup: Any) -> None:
    """Player names: texts of at most 100 characters without control characters."""
    players = setup.get("players") if isinstance(setup, dict) else None
    if isinstance(players, list):
        for i, p in enumerate(players):
            if isinstance(p, str):
                why = safeio.name_problem(p)
                if why:
                    raise RecordError(f"setup.players[{i}] {why}")


def check_action_texts(a: JSON, i: int) -> None:
    for k in ("player", "card"):
        v = a.get(k)
        if isinstance(v, str) and len(v) > safeio.MAX_NAME:
            raise RecordError(f"'{k}' is {len(v)} characters long; a name has at most "
                              f"{safeio.MAX_NAME}", index=i)
    note = a.get("note")
    if isinstance(note, str) and len(note) > safeio.MAX_NOTE:
        raise RecordError(f"'note' is {len(note)} characters long; at most {safeio.MAX_NOTE}",
                          index=i)


# -- the checks every game's validate_record makes, in this order ---------------------
def check_top(data: Any, fmt: str, top_keys: Collection[str], *, wrong_format: str) -> JSON:
    """A record's outside: a JSON object of the format ``fmt`` (else "unknown format
    …; ``wrong_format`` ``fmt``"), with no key but ``top_keys``, with a setup, within
    the reader's limits (:func:`check_tree`).  Returns the record."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    got = data.get("format")
    if got != fmt:
        raise RecordError(f"unknown format {safeio.terminal_line(repr(got), 80)}; "
                          f"{wrong_format} {fmt!r}")
    extra = set(data) - set(top_keys)
    if extra:
        raise RecordError(f"unknown key '{sorted(map(str, extra))[0]}' at the top of the record")
    if "setup" not in data:
        raise RecordError("the record has no 'setup'")
    check_tree(data)
    return data


def check_lists(data: JSON, keys: Iterable[str]) -> None:
    """Each of ``keys`` that the record has is a list (or null)."""
    for key in keys:
        if key in data and data[key] is not None and not isinstance(data[key], list):
            raise RecordError(f"'{key}' must be a list")


def check_entries(data: JSON, validate_manual: Callable[[Any, int], None]) -> None:
    """Every action is an object with names and notes of a bounded length and its
    numbers in range (:data:`NUMBER_LIMIT`); every manual entry passes the game's
    ``validate_manual(entry, index)``."""
    for i, a in enumerate(data.get("actions") or []):
        if not isinstance(a, dict):
            raise RecordError("an action must be an object", index=i)
        check_action_texts(a, i)
        check_numbers(a, "", index=i)
    for i, m in enumerate(data.get("manual") or []):
        validate_manual(m, i)


def copy_json(value: Any) -> Any:
    """An independent copy of JSON-shaped data (dicts, lists, tuples and scalars), several
    times faster than ``copy.deepcopy``: what a game keeps of a record it did not read
    from a file, so that a later change of the caller's dicts cannot change the game.
    Texts, numbers, true/false and null are immutable and shared; anything else is
    deep-copied."""
    t = type(value)
    if t is dict:
        return {k: v if type(v) in _ATOMS else copy_json(v) for k, v in value.items()}
    if t is list:
        return [v if type(v) in _ATOMS else copy_json(v) for v in value]
    if t in _ATOMS:
        return value
    if t is tuple:
        return tuple(copy_json(v) for v in value)
    return copy.deepcopy(value)


#: the immutable JSON values :func:`copy_json` shares
_ATOMS = frozenset({str, int, float, bool, type(None)})


def dumps(record: JSON) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False)


def write_record(record: JSON, path: str | Path) -> Path:
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(dumps(record), encoding="utf-8")
    tmp.replace(path)
    return path
