"""The one bounded reader for every file the companion reads, and safe output.

Records (both games), catalogues (YAML), maps and the JSON read back from the
saved-games store all go through here, so a hostile or broken file gives one
clear error (exit 2 on the command line) instead of a crash, a hang or a
memory blow-up:

* :func:`read_bytes` reads at most ``limit + 1`` bytes of a **regular file**
  (the size the file system reports is never trusted: a FIFO, ``/dev/zero``,
  a folder or any other non-regular file is refused, and a FIFO is opened
  without blocking);
* :func:`decode` accepts UTF-8 only (a leading byte-order mark is dropped);
* :func:`loads_json` / :func:`loads_yaml` parse with limits on nesting depth,
  number length, item count and string length, and accept only the JSON types
  (YAML: the safe loader with a budget of 100 aliases, whose expansion counts
  against the item and text limits, and only text, whole
  numbers, true/false, null, lists and mappings (and finite decimal numbers,
  which the validators then refuse where a whole number is needed): no dates,
  binary data or sets); :func:`check_tree` applies the same limits to a value
  that did not come from a file (a record built in memory, a store row);
* :func:`terminal_line` / :func:`terminal_text` make text safe for a
  terminal (control characters escaped, lone surrogates replaced);
* :func:`safe_filename` turns an id into a file name that stays in its folder.

Every refusal is raised through the caller's ``error`` factory with a message
of the form ``"NAME: problem"`` (the domain error: RecordError, CatalogueError,
MapError).  See docs/record-format.md ("Limits").
"""
from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any, Callable

from .errors import CompanionError, write_failed

#: nesting depth of any document (a record needs about 7 levels, a catalogue 6)
MAX_DEPTH = 32
#: values (list items + mapping entries) in one document
MAX_ITEMS = 200_000
#: characters in one string of a document
MAX_STRING = 10_000
#: digits in one number
MAX_DIGITS = 30
#: characters of a name (player, card, map)
MAX_NAME = 100
#: characters of free text (a card's notes, a map's note, an action's note)
MAX_NOTE = 4_000
#: characters of all the texts of one document together, counted as expanded
#: (a YAML alias counts again each time it is used)
MAX_TEXT = 4_000_000
#: YAML aliases (*name) in one document
MAX_ALIASES = 100
#: an error line is cut to this many characters
MAX_LINE = 2_000

ErrorFactory = Callable[[str], Exception]


class InputError(CompanionError):
    """A file or document refused by the reader (used when no ``error`` factory is given)."""


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file beside it, then
    rename: a reader sees the old file or the new one, never half of it; the folder is
    made if missing, and the temporary file never stays behind.  A folder that cannot
    be written (read-only, a full disk): one line, ``errors.FileWriteFailed`` (an
    ``OSError`` too), and the file as it was."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as e:
        raise write_failed(path, e) from None
    finally:
        try:
            if tmp.exists():
                tmp.unlink()
        except OSError:
            pass


def _default_error(message: str) -> Exception:
    return InputError(message)


class _Refused(Exception):
    """Raised inside the parsers' hooks; turned into the caller's error."""


# ---------------------------------------------------------------------------
# reading bytes
# ---------------------------------------------------------------------------
def read_bytes(path: str | Path, limit: int, *, what: str = "file",
               error: ErrorFactory = _default_error) -> bytes:
    """The bytes of the regular file ``path``, refusing anything larger than
    ``limit`` bytes by what is actually read (at most ``limit + 1`` bytes are
    read, whatever the file system says the size is)."""
    name = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(name, flags)
    except OSError as e:
        raise error(f"{name}: cannot read: {e.strerror or type(e).__name__}") from None
    except ValueError:             # e.g. a NUL byte in the path
        raise error(f"{name}: cannot read: not a valid file name") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{name}: cannot read: it is a folder")
        if not stat.S_ISREG(mode):
            raise error(f"{name}: cannot read: not a regular file (a pipe, a socket or a device); "
                        f"a {what} must be an ordinary file")
        chunks, got = [], 0
        while got <= limit:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            except BlockingIOError:            # cannot happen for a regular file
                break
            except OSError as e:
                raise error(f"{name}: cannot read: {e.strerror or type(e).__name__}") from None
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise error(f"{name}: larger than {limit} bytes; a {what} may be at most "
                        f"{limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def decode(data: bytes, name: str, *, error: ErrorFactory = _default_error) -> str:
    """UTF-8 text (a leading byte-order mark is dropped); anything else is refused."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(f"{name}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
                    "save the file as UTF-8") from None


def read_text(path: str | Path, limit: int, *, what: str = "file",
              error: ErrorFactory = _default_error) -> str:
    return decode(read_bytes(path, limit, what=what, error=error), str(path), error=error)


# ---------------------------------------------------------------------------
# checking a parsed value
# ---------------------------------------------------------------------------
#: C0 controls except tab, newline and carriage return; DEL; C1 controls; lone surrogates
BAD_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_INT_LIMIT = 10 ** MAX_DIGITS


def _where(path: list[str | int]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


def _check_string(s: str, path: list[str | int], name: str, error: ErrorFactory,
                  max_string: int) -> None:
    if len(s) > max_string:
        raise error(f"{name}: a text of {len(s)} characters at {_where(path)}; "
                    f"at most {max_string}")
    m = BAD_CHAR.search(s)
    if m is not None:
        ch = m.group()
        what = ("a lone surrogate" if "\ud800" <= ch <= "\udfff" else "a control character")
        raise error(f"{name}: {what} ({ch.encode('unicode_escape', 'backslashreplace').decode()}) "
                    f"in a text at {_where(path)}")


def check_tree(value: Any, name: str = "document", *, error: ErrorFactory = _default_error,
               max_depth: int = MAX_DEPTH, max_items: int = MAX_ITEMS,
               max_string: int = MAX_STRING, int_keys: bool = False,
               floats: bool = True) -> None:
    """Refuse anything but JSON-like data within the limits: dict (text keys;
    ``int_keys``: whole-number keys too), list, str, int, bool, None, and
    (``floats``) finite floats.  Iterative: a deep value cannot blow the stack."""
    items = text = 0
    stack: list[tuple[Any, list[str | int], int]] = [(value, [], 1)]
    while stack:
        v, path, depth = stack.pop()
        if v is None or isinstance(v, bool):
            continue
        if isinstance(v, int):
            if not -_INT_LIMIT < v < _INT_LIMIT:
                raise error(f"{name}: a number of more than {MAX_DIGITS} digits at {_where(path)}")
            continue
        if isinstance(v, str):
            _check_string(v, path, name, error, max_string)
            text += len(v)
            if text > MAX_TEXT:
                raise error(f"{name}: more than {MAX_TEXT} characters of text; too large to be read")
            continue
        if isinstance(v, float):
            if not floats:
                raise error(f"{name}: a decimal number ({v!r}) at {_where(path)}; "
                            "only whole numbers are used")
            if not math.isfinite(v):
                raise error(f"{name}: {v!r} at {_where(path)} is not a number")
            continue
        if isinstance(v, (list, tuple, dict)):
            if depth > max_depth:
                raise error(f"{name}: nested too deeply (more than {max_depth} levels) "
                            f"at {_where(path[:8])}...")
            items += len(v)
            if items > max_items:
                raise error(f"{name}: more than {max_items} values; too large to be read")
            if isinstance(v, dict):
                for k, x in v.items():
                    if isinstance(k, str):
                        _check_string(k, path, name, error, MAX_NAME * 2)
                    elif not (int_keys and isinstance(k, int) and not isinstance(k, bool)
                              and -_INT_LIMIT < k < _INT_LIMIT):
                        raise error(f"{name}: a key that is not a text ({type(k).__name__}) "
                                    f"at {_where(path)}")
                    stack.append((x, path + [k], depth + 1))
            else:
                stack.extend((x, path + [i], depth + 1) for i, x in enumerate(v))
            continue
        raise error(f"{name}: a value of type {type(v).__name__} at {_where(path)}; only text, "
                    "whole numbers, true/false, null, lists and mappings are allowed")


# ---------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------
def _parse_int(s: str) -> int:
    if len(s) > MAX_DIGITS + 1:
        raise _Refused(f"a number of {len(s.lstrip('-'))} digits; numbers have at most "
                       f"{MAX_DIGITS} digits")
    return int(s)


def _parse_float(s: str) -> float:
    if len(s) > MAX_DIGITS + 10:
        raise _Refused(f"a number of {len(s)} characters; numbers have at most {MAX_DIGITS} digits")
    v = float(s)
    if not math.isfinite(v):
        raise _Refused(f"the number {s[:40]} is too large")
    return v


def _parse_constant(s: str) -> Any:
    raise _Refused(f"{s} is not a JSON number")


def loads_json(text: str | bytes, name: str = "document", *, limit: int,
               error: ErrorFactory = _default_error, what: str = "file") -> Any:
    """JSON with the limits (size, depth, digits, items, text) and one clear message."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > limit:
            raise error(f"{name}: larger than {limit} bytes; a {what} may be at most {limit} bytes")
        text = decode(bytes(text), name, error=error)
    elif len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise error(f"{name}: larger than {limit} bytes; a {what} may be at most {limit} bytes")
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant)
    except json.JSONDecodeError as e:
        raise error(f"{name}: not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") \
            from None
    except RecursionError:
        raise error(f"{name}: nested too deeply (more than {MAX_DEPTH} levels) to be "
                    f"a {what}") from None
    except _Refused as e:
        raise error(f"{name}: {e}") from None
    except (ValueError, OverflowError, MemoryError) as e:     # belt and braces
        raise error(f"{name}: not valid JSON ({type(e).__name__})") from None
    check_tree(data, name, error=error)
    return data


def read_json(path: str | Path, limit: int, *, what: str = "file",
              error: ErrorFactory = _default_error) -> Any:
    """A JSON file through every limit."""
    data = read_bytes(path, limit, what=what, error=error)
    return loads_json(decode(data, str(path), error=error), str(path), limit=limit, error=error,
                      what=what)


# ---------------------------------------------------------------------------
# YAML
# ---------------------------------------------------------------------------
def _yaml_loader_class() -> type[Any]:
    import yaml
    from yaml.constructor import SafeConstructor

    # PyYAML ships no type information here (no types-PyYAML): its SafeLoader is Any, a
    # subclass of Any is refused under --strict (unused where plain mypy allows it)
    class Loader(yaml.SafeLoader):  # type: ignore[misc, unused-ignore]
        """The safe loader with an alias budget, a depth and item budget,
        constructing only text, numbers, true/false, null, lists and mappings."""

        yaml_constructors: dict[str | None, Callable[..., Any]] = {}
        yaml_multi_constructors: dict[str | None, Callable[..., Any]] = {}

        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self._depth = 0
            self._nodes = 0
            self._aliases = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()
            line = event.start_mark.line + 1 if event.start_mark else "?"
            if isinstance(event, yaml.AliasEvent):
                # an alias is a reference, not a copy: the budget bounds how many there
                # are, and check_tree then bounds what they expand to (values and text)
                self._aliases += 1
                if self._aliases > MAX_ALIASES:
                    raise _Refused(f"line {line}: more than {MAX_ALIASES} YAML aliases (*name)")
            self._nodes += 1
            if self._nodes > MAX_ITEMS:
                raise _Refused(f"more than {MAX_ITEMS} values; too large to be read")
            self._depth += 1
            try:
                if self._depth > MAX_DEPTH:
                    raise _Refused(f"line {line}: nested too deeply (more than {MAX_DEPTH} levels)")
                return super().compose_node(parent, index)
            finally:
                self._depth -= 1

    def construct_int(loader: Any, node: Any) -> Any:
        if len(node.value) > MAX_DIGITS + 1:
            raise _Refused(f"line {node.start_mark.line + 1}: a number of {len(node.value)} "
                           f"characters; numbers have at most {MAX_DIGITS} digits")
        return SafeConstructor.construct_yaml_int(loader, node)

    def construct_float(loader: Any, node: Any) -> Any:
        if len(node.value) > MAX_DIGITS + 10:
            raise _Refused(f"line {node.start_mark.line + 1}: a number of {len(node.value)} "
                           f"characters; numbers have at most {MAX_DIGITS} digits")
        v = SafeConstructor.construct_yaml_float(loader, node)
        if not math.isfinite(v):
            raise _Refused(f"line {node.start_mark.line + 1}: {node.value[:40]} is not a number")
        return v

    def refuse(loader: Any, node: Any) -> Any:
        kind = str(node.tag).rsplit(":", 1)[-1]
        raise _Refused(f"line {node.start_mark.line + 1}: a value of YAML type '{kind}' "
                       "(dates, binary data, sets and other tags are not allowed; "
                       "put text in quotes)")

    for tag, fn in (("tag:yaml.org,2002:null", SafeConstructor.construct_yaml_null),
                    ("tag:yaml.org,2002:bool", SafeConstructor.construct_yaml_bool),
                    ("tag:yaml.org,2002:int", construct_int),
                    ("tag:yaml.org,2002:float", construct_float),
                    ("tag:yaml.org,2002:str", SafeConstructor.construct_yaml_str),
                    ("tag:yaml.org,2002:seq", SafeConstructor.construct_yaml_seq),
                    ("tag:yaml.org,2002:map", SafeConstructor.construct_yaml_map),
                    (None, refuse)):
        Loader.add_constructor(tag, fn)
    return Loader


_LOADER: type[Any] | None = None


def loads_yaml(text: str | bytes, name: str = "document", *, limit: int,
               error: ErrorFactory = _default_error, what: str = "file") -> Any:
    """YAML restricted to JSON-like data (whole-number mapping keys allowed), with the limits:
    text, whole and finite decimal numbers, true/false, null, lists, mappings."""
    import yaml
    global _LOADER
    if _LOADER is None:
        _LOADER = _yaml_loader_class()
    if isinstance(text, (bytes, bytearray)):
        if len(text) > limit:
            raise error(f"{name}: larger than {limit} bytes; a {what} may be at most {limit} bytes")
        text = decode(bytes(text), name, error=error)
    elif len(text.encode("utf-8", "surrogatepass")) > limit:
        raise error(f"{name}: larger than {limit} bytes; a {what} may be at most {limit} bytes")
    loader = None
    try:
        loader = _LOADER(text)        # the reader refuses some characters (NUL, ...) here
        data = loader.get_single_data()
    except _Refused as e:
        raise error(f"{name}: {e}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or ""
        if isinstance(e, yaml.reader.ReaderError):
            problem = f"a character YAML does not allow, at character {e.position}"
        raise error(f"{name}: not valid YAML{where}" + (f" ({problem})" if problem else "")) \
            from None
    except RecursionError:
        raise error(f"{name}: nested too deeply (more than {MAX_DEPTH} levels)") from None
    except (ValueError, TypeError, OverflowError) as e:        # e.g. an odd base-60 number
        raise error(f"{name}: not valid YAML ({type(e).__name__})") from None
    finally:
        if loader is not None:
            loader.dispose()
    check_tree(data, name, error=error, int_keys=True)
    return data


def read_yaml(path: str | Path, limit: int, *, what: str = "file",
              error: ErrorFactory = _default_error) -> Any:
    data = read_bytes(path, limit, what=what, error=error)
    return loads_yaml(decode(data, str(path), error=error), str(path), limit=limit, error=error,
                      what=what)


# ---------------------------------------------------------------------------
# values with a range
# ---------------------------------------------------------------------------
def is_whole(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def name_problem(v: Any, limit: int = MAX_NAME) -> str | None:
    """Why ``v`` is not a usable name (a text of at most ``limit`` characters
    without control characters), or None."""
    if not isinstance(v, str):
        return "must be a text"
    if len(v) > limit:
        return f"is {len(v)} characters long; a name has at most {limit}"
    if _CONTROL.search(v):
        return "holds a control character (a line break, a tab, ESC, ...)"
    return None


# ---------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------
#: what a terminal must never receive raw: C0 (newline and tab too), DEL, C1, line and
#: paragraph separators, bidirectional overrides, lone surrogates
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069"
                      "\ud800-\udfff]")
_CONTROL_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e"
                           "\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    if ch == "\n":
        return "\\n"
    if ch == "\t":
        return "\\t"
    if ch == "\r":
        return "\\r"
    o = ord(ch)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def terminal_line(text: Any, limit: int = MAX_LINE) -> str:
    """``text`` as one line that is safe to print: every control character
    (newline, ESC, other C0/C1, separators, bidi overrides) escaped, lone
    surrogates escaped, cut to ``limit`` characters."""
    s = _CONTROL.sub(_escape, str(text))
    if len(s) > limit:
        s = s[:limit - 1] + "…"
    return s


def terminal_text(text: Any) -> str:
    """Multi-line output made safe: as :func:`terminal_line`, but newlines and tabs kept."""
    return _CONTROL_TEXT.sub(_escape, str(text))


# ---------------------------------------------------------------------------
# file names
# ---------------------------------------------------------------------------
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_-]+")
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
             *(f"LPT{i}" for i in range(1, 10))}


def safe_filename(raw: Any, used: set[str] | None = None, *, suffix: str = "",
                  limit: int = 64) -> str:
    """A file name made from ``raw`` (e.g. a stored game's id) that cannot leave
    its folder: only letters, digits, '-' and '_' (anything else becomes '_'),
    at most ``limit`` characters, never empty, never a reserved device name;
    made unique (case-insensitively) against ``used`` (which it updates)."""
    stem = _UNSAFE_NAME.sub("_", str(raw))[:limit].strip("_") or "game"
    if stem.upper() in _RESERVED:
        stem = f"_{stem}"
    name, n = stem, 1
    if used is not None:
        while (name + suffix).lower() in used:
            n += 1
            name = f"{stem}-{n}"
        used.add((name + suffix).lower())
    return name + suffix
