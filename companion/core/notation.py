"""The notation's shared pieces (base layer: no game): reading a line of notation into
tokens, quoting names, writing and reading cells, and the one error a bad line gets.

An action's notation (``companion.ats.actions``, ``companion.sse.actions``) is a line of
tokens separated by spaces:

- a quoted name, ``"Bio Lab"``: JSON string syntax (so any name can be written);
- ``key=VALUE`` with VALUE any JSON value (``note="first game"``, ``effects={}``): the
  entry's fields that have no shorter form;
- any other run of non-space characters (``Ana``, ``build``, ``@1,0``).

python-chess's moves (``Move.uci()``, ``Move.from_uci``) are the model: an action is a
small immutable value; ``str`` writes it, ``parse`` reads it back, and
``parse(str(a)) == a``.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from .errors import IllegalAction, RecordError

A = TypeVar("A")

#: the longest line of notation read (a record's action is far shorter)
MAX_NOTATION = 4000
#: a name written without quotes: a letter first, then letters, digits, _ ' . -
BARE_NAME = re.compile(r"[^\W\d_][\w'.-]*\Z")
CELL = re.compile(r"(-?\d{1,6}),(-?\d{1,6})\Z")
_KEY = re.compile(r"([a-z_]{1,30})=")
_DECODER = json.JSONDecoder()


class NotationError(RecordError):
    """A line of notation that cannot be read: one line saying why."""

    def __init__(self, message: str):
        super().__init__(f"notation: {message}")


class IncompleteNotation(NotationError):
    """A line that leaves out what the position does not settle (a game's ``parse``, read
    in the context of the position, as python-chess's ``Board.parse_san``): ``missing``,
    the field to write, and ``options``, what the game sees it could be (none, or two or
    more: a game never guesses between them)."""

    def __init__(self, missing: str, message: str, options: Iterable[Any] = ()):
        self.missing = missing
        self.options = tuple(options)
        #: what the line did say, as a partial entry (set by a game's ``complete``): a
        #: page puts it into its form, which asks for the rest
        self.partial: dict[str, Any] = {}
        super().__init__(message)


class Quoted(str):
    """A token that was written quoted (a name, never a keyword)."""


class Keyed:
    """A ``key=VALUE`` token."""

    __slots__ = ("key", "value")

    def __init__(self, key: str, value: Any):
        self.key, self.value = key, value


Token = str | Keyed
K = TypeVar("K")


def entry_class(d: Any, kinds: Mapping[str, K], known_keys: Collection[str]) -> K:
    """The class of a record's entry (``d["do"]`` among ``kinds``); RecordError when it
    is not an object, its kind is unknown or it has a key no entry has."""
    if not isinstance(d, dict):
        raise RecordError(f"an action is an object, not {type(d).__name__}")
    do = d.get("do")
    cls = kinds.get(do) if isinstance(do, str) else None
    if cls is None:
        raise RecordError(f"unknown kind of action {do!r}; one of {', '.join(kinds)}")
    extra_keys = set(d) - set(known_keys)
    if extra_keys:
        raise RecordError(f"{do}: unknown key {sorted(map(str, extra_keys))[0]!r}")
    return cls


def read_entry(action: Any, read: Callable[[Any], Any]) -> Any:
    """A dict ``action`` (what the record, the store and a page hand) as a game's rules
    read it, taken at the record's edge through its action value (issue 38: the action
    values are the currency; ``read`` is the game's ``from_dict``): the rules get exactly
    what the value holds, in new dicts and lists shared with nothing the caller keeps.
    Anything that is no action value (not an object, an unknown kind or key, a value JSON
    does not hold or would change: a tuple, a number as a key) is given back as it is,
    for the rules to read or refuse word for word as before.  (A value itself:
    ``value.to_dict()``.)"""
    if isinstance(action, dict):
        try:
            entry = read(action).to_dict()
        except (RecordError, TypeError, ValueError, RecursionError):
            return action
        if entry == action:
            return entry
    return action


def compact(value: Any) -> str:
    """``value`` as compact JSON (an entry's field kept as ``key=JSON``)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def key_order(keys: Iterable[str], own: tuple[str, ...], usual: tuple[str, ...]) -> list[str]:
    """The order of an entry's keys: the entry's ``own`` order when it has exactly these
    keys, else the ``usual`` order, then any other key alphabetically."""
    keys = set(keys)
    if set(own) == keys:
        return list(own)
    return [k for k in usual if k in keys] + sorted(keys - set(usual))


def to_json(value: Any) -> Any:
    """A typed field's JSON: tuples (cells, hexes, lists of cells) as lists."""
    if isinstance(value, tuple):
        return [to_json(v) for v in value]
    return value


class RecordFields:
    """What both games' action values share (issue 38: the notation helpers in one place):
    the record's JSON of the value.  ``get(key)`` one field, ``keys()`` those present,
    ``to_dict()`` the entry as the record stores it, in the entry's own key order when it
    has one, else the game's ``key_order``.  A game's value class says which JSON keys it
    holds as typed fields (:meth:`typed_keys`) and, in ``attrs``, the field of a key whose
    name differs (Small Star Empires' ``from`` is ``frm``); every other key is in
    ``extra`` as ``(key, compact JSON)``."""

    kind: ClassVar[str] = ""
    key_order: ClassVar[tuple[str, ...]] = ()
    attrs: ClassVar[Mapping[str, str]] = {}
    extra: tuple[tuple[str, str], ...]
    order: tuple[str, ...]

    def typed_keys(self) -> tuple[str, ...]:
        """The JSON keys this value holds as typed fields."""
        raise NotImplementedError

    def _field(self, key: str) -> Any:
        return getattr(self, self.attrs.get(key, key))

    def get(self, key: str) -> Any:
        """The JSON value of the entry's field ``key`` (None if absent)."""
        if key == "do":
            return self.kind
        for k, text in self.extra:
            if k == key:
                return json.loads(text)
        if key in self.typed_keys():
            return to_json(self._field(key))
        return None

    def keys(self) -> list[str]:
        out = ["do"] + [k for k in self.typed_keys() if self._field(k) is not None]
        return out + [k for k, _ in self.extra]

    def to_dict(self) -> dict[str, Any]:
        """The entry as the record stores it."""
        return {k: self.get(k) for k in key_order(self.keys(), self.order, self.key_order)}


def only_one(key: str, options: Sequence[Any], what: str, kind: str,
             show: Callable[[Any], str] = str, none: str = "none is possible now",
             rule_first: Callable[[], None] | None = None) -> Any:
    """The one option for ``key`` of a line read in the context of the position (both
    games' ``parse``); else :class:`IncompleteNotation` naming ``what`` and the options,
    never a guess.  With no option, ``rule_first()`` may first raise the rule that stands
    in the way."""
    if len(options) == 1:
        return options[0]
    if not options:
        if rule_first is not None:
            rule_first()
        raise IncompleteNotation(key, f"{kind}: write {what}: {none}")
    shown = [show(o) for o in options]
    listed = ", ".join(shown[:-1]) + " or " + shown[-1]
    raise IncompleteNotation(key, f"{kind}: write {what}: {listed}", options)


def complete_keeping(complete: Callable[[Any, dict[str, Any]], A], game: Any,
                     d: dict[str, Any]) -> A:
    """``complete(game, work)`` on a copy of the partial entry ``d`` (both games'
    ``incontext.complete``); an :class:`IncompleteNotation` it raises carries what the
    line did say, filled in so far (``partial``), for a page to stage in its form."""
    work = dict(d)
    try:
        return complete(game, work)
    except IncompleteNotation as e:
        e.partial = {k: v for k, v in work.items() if v is not None}
        raise


def notation_or_sentence(text: Any, notation: Callable[[], A], sentence: Callable[[], A],
                         looks_like_notation: Callable[[str], bool],
                         retry: Callable[[IllegalAction], bool] = lambda e: False) -> A:
    """Both games' ``parse``: a line read as notation, else (a plain NotationError, not
    an IncompleteNotation; or an IllegalAction that ``retry`` says came from reading
    words as notation) as a sentence.  When both fail, the notation's error for a line
    that ``looks_like_notation``, else the sentence's."""
    try:
        return notation()
    except IncompleteNotation:
        raise
    except IllegalAction as e:
        if not isinstance(text, str) or not retry(e):
            raise
        return sentence()
    except NotationError as as_notation:
        if not isinstance(text, str):
            raise
        try:
            return sentence()
        except NotationError:
            if looks_like_notation(text):
                raise as_notation from None
            raise


def who(token: Token) -> str | None:
    """The WHO token: the name (None for ``?``, an entry that names nobody); a name that
    is not a plain word must be quoted."""
    if isinstance(token, Keyed):
        raise NotationError(f"who acts comes first, not {show(token)}")
    if not isinstance(token, Quoted) and token == "?":
        return None
    if not isinstance(token, Quoted) and not BARE_NAME.match(token):
        raise NotationError(f"a name that is not a plain word is quoted: {show(token)}")
    return str(token)


def tokens(text: Any) -> list[Token]:
    """``text`` split into tokens (:class:`Quoted`, :class:`Keyed` or plain ``str``).
    Raises :class:`NotationError` (one line) on anything else."""
    if not isinstance(text, str):
        raise NotationError(f"expected a line of text, not {type(text).__name__}")
    if len(text) > MAX_NOTATION:
        raise NotationError(f"the line is {len(text)} characters long; at most {MAX_NOTATION}")
    if "\n" in text or "\r" in text:
        raise NotationError("one action is one line")
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        m = _KEY.match(text, i)
        try:
            if text[i] == '"':
                value, i = _DECODER.raw_decode(text, i)
                out.append(Quoted(value))
            elif m:
                value, i = _DECODER.raw_decode(text, m.end())
                out.append(Keyed(m.group(1), value))
            else:
                j = i
                while j < n and not text[j].isspace():
                    j += 1
                out.append(text[i:j])
                i = j
                continue
        except (ValueError, RecursionError):
            raise NotationError(f"cannot read the value at character {i + 1}: "
                                f"{_show(text[i:i + 20])}") from None
        if i < n and not text[i].isspace():
            raise NotationError(f"a space is missing at character {i + 1}")
    return out


def _show(text: str) -> str:
    return json.dumps(text, ensure_ascii=True)


def name(value: str) -> str:
    """A player's (or seat's) name as a token: bare when it reads back unchanged."""
    return value if BARE_NAME.match(value) else quote(value)


def quote(value: str) -> str:
    """A card's or tile's name as a token: always quoted."""
    return json.dumps(value, ensure_ascii=False)


def keyed(key: str, value: Any) -> str:
    """A ``key=VALUE`` token (compact JSON)."""
    return f"{key}=" + json.dumps(value, ensure_ascii=False, separators=(",", ":"))


#: the largest number a cell or a year/turn holds in notation (6 digits)
MAX_NUMBER = 999_999


def is_whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def is_small(x: Any) -> bool:
    """A whole number the notation writes as digits (at most 6 of them)."""
    return is_whole(x) and -MAX_NUMBER <= x <= MAX_NUMBER


def as_pair(x: Any) -> tuple[int, int] | None:
    """``[a, b]`` of whole numbers as a tuple, else None."""
    if isinstance(x, list) and len(x) == 2 and all(is_small(v) for v in x):
        return (x[0], x[1])
    return None


def as_pairs(x: Any) -> tuple[tuple[int, int], ...] | None:
    """A list of ``[a, b]`` as a tuple of tuples, else None."""
    if not isinstance(x, list) or len(x) > 100:
        return None
    out = [as_pair(v) for v in x]
    return None if any(p is None for p in out) else tuple(p for p in out if p is not None)


def cell(c: tuple[int, int]) -> str:
    return f"{c[0]},{c[1]}"


def read_cell(text: str, what: str) -> tuple[int, int]:
    m = CELL.match(text)
    if not m:
        raise NotationError(f"{what} is two whole numbers like 1,-2, not {_show(text[:40])}")
    return (int(m.group(1)), int(m.group(2)))


def cells(cs: tuple[tuple[int, int], ...]) -> str:
    """``[0,1;1,1]``: a list of cells."""
    return "[" + ";".join(cell(c) for c in cs) + "]"


def read_cells(text: str, what: str) -> tuple[tuple[int, int], ...]:
    if not (text.startswith("[") and text.endswith("]")):
        raise NotationError(f"{what} is a list of cells like [0,1;1,1], not {_show(text[:40])}")
    inner = text[1:-1]
    return tuple(read_cell(t, what) for t in inner.split(";")) if inner else ()


def show(token: Token) -> str:
    """A token as the user wrote it, for an error message."""
    if isinstance(token, Keyed):
        return f"{token.key}=..."
    if isinstance(token, Quoted):
        return _show(str(token)[:40])
    return _show(token[:40])
