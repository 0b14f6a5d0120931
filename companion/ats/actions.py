"""Among the Stars actions as values with a notation (issue 23), after python-chess's
``Move``: one frozen dataclass per kind of entry :mod:`companion.ats.turns` handles
(``TURN_ACTIONS`` and ``SIDE_HANDLERS``), each with

- ``to_dict()``: exactly the JSON the record stores (same keys, same order);
- :func:`from_dict`: the right class for an entry of the record (a RecordError names an
  unknown kind or key);
- ``str(action)``: a short notation, e.g. ``1.3 Ana build "Bio Lab" @1,0 e[0,1]``;
- :func:`parse`: reads it back, ``parse(str(a)) == a``.

The notation, token by token (see docs/record-format.md, "Notation"):

``[YEAR.TURN] WHO KIND ["CARD"] [@ROW,COL] [e[CELLS]] [x[CELLS]] [bonus|decline] [key=JSON ...]``

- ``YEAR.TURN``: ``1.3``, year 1, turn 3 (left out when the entry has none);
- ``WHO``: the player (the seat for ``virtual``), quoted unless it is a plain word;
  ``?`` when the entry names nobody;
- ``"CARD"``: the card (for ``advisor``: the Influence tile), always quoted;
- ``@0,1``: the cell (``at``); ``e[0,0;1,0]``: the reactors paying energy
  (``energy_from``); ``x[1,0;0,2]``: the cells of ``remove_spaceships``;
- ``bonus`` / ``decline``: an advisor's bonus taken or declined (``take``);
- every other field of the entry as ``key=JSON`` (``note="..."``, ``choices={...}``,
  ``resolve_order=[...]``).

The engine judges legality (:func:`companion.ats.turns.apply`); a value here only says
what the entry is.  A field whose value has not the usual shape is kept as it is (as
``key=JSON``), so every entry of a record reads back unchanged.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from ..core import notation as nt
from ..core.errors import RecordError
from .setup import ACTION_KEYS

Cell = tuple[int, int]

#: the order of an entry's keys when it is built here (the samples' order)
KEY_ORDER = ("year", "turn", "player", "seat", "do", "card", "tile", "take", "at",
             "energy_from", "cells")


@dataclass(frozen=True, kw_only=True)
class AtsAction(nt.RecordFields):
    """An entry of an Among the Stars record.  Fields absent from the entry are None;
    ``extra``: every other field, as ``(key, compact JSON)`` sorted by key."""

    kind: ClassVar[str] = ""
    key_order: ClassVar[tuple[str, ...]] = KEY_ORDER
    #: the keys this class holds as typed fields (beyond year, turn, player)
    typed: ClassVar[tuple[str, ...]] = ()
    #: the key written in the WHO slot
    actor: ClassVar[str] = "player"

    year: int | None = None
    turn: int | None = None
    player: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    #: the entry's own key order (to_dict keeps it); not part of the value
    order: tuple[str, ...] = field(default=(), compare=False, repr=False)

    # -- JSON (RecordFields: get, keys, to_dict) ------------------------------------------
    def typed_keys(self) -> tuple[str, ...]:
        return ("year", "turn", "player") + self.typed

    # -- notation ----------------------------------------------------------------------
    def __str__(self) -> str:
        out: list[str] = []
        done = {"do"}
        if self.year is not None and self.turn is not None:
            out.append(f"{self.year}.{self.turn}")
            done |= {"year", "turn"}
        who = getattr(self, self.actor)
        out.append(nt.name(who) if who is not None else "?")
        done.add(self.actor)
        out.append(self.kind)
        for key in self.typed:
            value = getattr(self, key)
            if value is None or key in done:
                continue
            done.add(key)
            if key in ("card", "tile"):
                out.append(nt.quote(value))
            elif key == "at":
                out.append("@" + nt.cell(value))
            elif key == "energy_from":
                out.append("e" + nt.cells(value))
            elif key == "cells":
                out.append("x" + nt.cells(value))
            elif key == "take":
                out.append(value)
            else:
                done.discard(key)
        for key in ("year", "turn", "player") + self.typed:
            if key not in done and getattr(self, key) is not None:
                out.append(nt.keyed(key, nt.to_json(getattr(self, key))))
        out += [nt.keyed(k, json.loads(v)) for k, v in self.extra]
        return " ".join(out)

    # -- words (describe) --------------------------------------------------------------
    def who(self) -> str:
        return self.get("player") or self.get("seat") or ""

    def what(self) -> str:
        return self.kind

    def words(self) -> str:
        """The entry in words, as the page and the History tab show it: 'Ana built
        Garden at [0, 1]'."""
        return f"{self.who()} {self.what()}".strip()


@dataclass(frozen=True, kw_only=True)
class Build(AtsAction):
    """``build``: a location card built at a cell, energy paid by reactors (B 4.1)."""
    kind: ClassVar[str] = "build"
    typed: ClassVar[tuple[str, ...]] = ("card", "at", "energy_from")
    card: str | None = None
    at: Cell | None = None
    energy_from: tuple[Cell, ...] | None = None

    def what(self) -> str:
        return f"built {self.get('card')} at {self.get('at')}"


@dataclass(frozen=True, kw_only=True)
class Reactor(AtsAction):
    """``reactor``: the card selected built face down as a Power Reactor (B 4.2)."""
    kind: ClassVar[str] = "reactor"
    typed: ClassVar[tuple[str, ...]] = ("card", "at")
    card: str | None = None
    at: Cell | None = None

    def what(self) -> str:
        return f"built a Power Reactor at {self.get('at')}"


@dataclass(frozen=True, kw_only=True)
class Discard(AtsAction):
    """``discard``: the card selected discarded for credits (B 4.3)."""
    kind: ClassVar[str] = "discard"
    typed: ClassVar[tuple[str, ...]] = ("card",)
    card: str | None = None

    def what(self) -> str:
        return f"discarded {self.get('card')} for 3 credits"


@dataclass(frozen=True, kw_only=True)
class Conflict(AtsAction):
    """``conflict``: a Conflict card applied (its ``effects`` kept as ``key=JSON``)."""
    kind: ClassVar[str] = "conflict"
    typed: ClassVar[tuple[str, ...]] = ("card",)
    card: str | None = None

    def what(self) -> str:
        return f"applied the Conflict '{self.get('card')}' (1 credit)"


@dataclass(frozen=True, kw_only=True)
class RemoveSpaceships(AtsAction):
    """``remove_spaceships``: the card discarded to remove spaceships (Revival)."""
    kind: ClassVar[str] = "remove_spaceships"
    typed: ClassVar[tuple[str, ...]] = ("card", "cells")
    card: str | None = None
    cells: tuple[Cell, ...] | None = None

    def what(self) -> str:
        cells = [str(list(c)) for c in (self.get("cells") or ())]
        where = (", ".join(cells[:-1]) + " and " + cells[-1] if len(cells) > 1
                 else cells[0] if cells else "no space")
        return (f"discarded {self.get('card')} and removed the spaceship"
                f"{'s' if len(cells) != 1 else ''} at {where}")


@dataclass(frozen=True, kw_only=True)
class Virtual(AtsAction):
    """``virtual``: a virtual seat's card lost to the face-up pile."""
    kind: ClassVar[str] = "virtual"
    typed: ClassVar[tuple[str, ...]] = ("seat", "card")
    actor: ClassVar[str] = "seat"
    seat: str | None = None
    card: str | None = None

    def what(self) -> str:
        return f"lost {self.get('card')} to the face-up pile"


@dataclass(frozen=True, kw_only=True)
class Remove(AtsAction):
    """``remove``: a location removed at a round's end check (B 5)."""
    kind: ClassVar[str] = "remove"
    typed: ClassVar[tuple[str, ...]] = ("card", "at")
    card: str | None = None
    at: Cell | None = None

    def what(self) -> str:
        return f"removed {self.get('card') or 'a location'} at {self.get('at')} (round-end check)"


@dataclass(frozen=True, kw_only=True)
class Advisor(AtsAction):
    """``advisor``: an advisor's bonus taken or declined for 1 VP (R 4)."""
    kind: ClassVar[str] = "advisor"
    typed: ClassVar[tuple[str, ...]] = ("tile", "take")
    tile: str | None = None
    take: str | None = None

    def what(self) -> str:
        return (f"took the bonus of the advisor on '{self.get('tile')}'"
                if self.get("take") == "bonus"
                else f"declined the advisor's bonus on '{self.get('tile')}' for 1 VP")


@dataclass(frozen=True, kw_only=True)
class Lay(AtsAction):
    """``lay``: a player's station as it lies on the table, with the credits and the
    score track's VP (issue 39, :mod:`companion.ats.lay`); its ``cells``, ``credits``,
    ``vp`` and ``spaceships`` are kept as ``key=JSON``:
    ``Ana lay cells=[{"at":[0,0],"reactor":true,"cubes":0},...] credits=7 vp=23``."""
    kind: ClassVar[str] = "lay"

    def what(self) -> str:
        cells = self.get("cells")
        n = len(cells) if isinstance(cells, list) else 0
        return (f"laid the station from the table ({n} cell{'' if n == 1 else 's'}, "
                f"{self.get('credits')} credits, {self.get('vp')} VP on the score track)")


KINDS: dict[str, type[AtsAction]] = {c.kind: c for c in (
    Build, Reactor, Discard, Conflict, RemoveSpaceships, Virtual, Remove, Advisor, Lay)}
TAKES = ("bonus", "decline")
_DIGITS = re.compile(r"[0-9]{1,6}\Z")


def _typed(key: str, value: Any) -> Any:
    """``value`` as the typed field ``key`` holds it, or None if it has not the usual
    shape (it is then kept as ``key=JSON``)."""
    if key in ("year", "turn"):
        return value if nt.is_small(value) and value >= 0 else None
    if key in ("player", "seat", "card", "tile"):
        return value if isinstance(value, str) else None
    if key == "take":
        return value if value in TAKES else None
    if key == "at":
        return nt.as_pair(value)
    if key in ("energy_from", "cells"):
        return nt.as_pairs(value)
    return None


def from_dict(d: Any) -> AtsAction:
    """The typed action of an entry of the record (any kind :mod:`.turns` handles).
    RecordError: not an object, an unknown kind, an unknown key."""
    cls = nt.entry_class(d, KINDS, ACTION_KEYS)
    values: dict[str, Any] = {}
    extra: list[tuple[str, str]] = []
    own = {f.name for f in fields(cls)} - {"extra", "order"}
    for key, value in d.items():
        if key == "do":
            continue
        typed = _typed(key, value) if key in own else None
        if typed is not None:
            values[key] = typed
        else:
            extra.append((key, nt.compact(value)))
    return cls(**values, extra=tuple(sorted(extra)), order=tuple(d))


def parse(text: Any, *, who_optional: bool = False) -> AtsAction:
    """An action from its notation (``str(action)``); NotationError (one line) if the
    text is not one.  ``who_optional``: the WHO may be left out, the kind coming first
    (``build "Garden" @1,0``; the game fills it in, :meth:`companion.ats.game.Game.parse`)."""
    toks = nt.tokens(text)
    d: dict[str, Any] = {}
    i = 0
    if i < len(toks) and isinstance(toks[i], str) and not isinstance(toks[i], nt.Quoted) \
            and "." in str(toks[i]) and str(toks[i])[:1].isdigit():
        year, _, turn = str(toks[i]).partition(".")
        if not (_DIGITS.match(year) and _DIGITS.match(turn)):
            raise nt.NotationError(f"year.turn is like 1.3, not {nt.show(toks[i])}")
        d["year"], d["turn"] = int(year), int(turn)
        i += 1
    if who_optional and i < len(toks) and _is_kind(toks[i]) \
            and not (i + 1 < len(toks) and _is_kind(toks[i + 1])):
        toks.insert(i, "?")             # no WHO: the kind comes first
    if len(toks) < i + 2:
        raise nt.NotationError("write who acts and the kind, e.g. 'Ana discard \"Garden\"'")
    who, kind = toks[i], toks[i + 1]
    if isinstance(kind, nt.Keyed) or isinstance(kind, nt.Quoted) or kind not in KINDS:
        raise nt.NotationError(f"unknown kind {nt.show(kind)}; one of {', '.join(KINDS)}")
    cls = KINDS[str(kind)]
    d["do"] = str(kind)
    name = nt.who(who)
    if name is not None:
        d[cls.actor] = name
    name_key = "tile" if cls is Advisor else "card"
    for tok in toks[i + 2:]:
        if isinstance(tok, nt.Keyed):
            key = tok.key
            value = tok.value
        elif isinstance(tok, nt.Quoted):
            key, value = name_key, str(tok)
        elif tok.startswith("@"):
            key, value = "at", list(nt.read_cell(tok[1:], "a cell (@row,col)"))
        elif tok.startswith("e["):
            key = "energy_from"
            value = [list(c) for c in nt.read_cells(tok[1:], "energy_from (e[...])")]
        elif tok.startswith("x["):
            key = "cells"
            value = [list(c) for c in nt.read_cells(tok[1:], "the cells (x[...])")]
        elif tok in TAKES:
            key, value = "take", str(tok)
        else:
            raise nt.NotationError(f"{kind}: cannot read {nt.show(tok)}")
        if key in d:
            raise nt.NotationError(f"{kind}: {key} is given twice")
        d[key] = value
    keys = [k for k in KEY_ORDER if k in d]
    keys += [k for k in d if k not in keys]
    try:
        return from_dict({k: d[k] for k in keys})
    except nt.NotationError:
        raise
    except RecordError as e:
        raise nt.NotationError(str(e)) from None


def _is_kind(tok: nt.Token) -> bool:
    return not isinstance(tok, (nt.Keyed, nt.Quoted)) and tok in KINDS


def notation(d: dict[str, Any]) -> str:
    """An entry of the record in notation (``str(from_dict(d))``)."""
    return str(from_dict(d))


def summary(game: Any) -> str:
    """A short summary of a game's state for a golden playthrough (tests/golden/), from
    the engine's public state: the year and turn, then per player the VP scored so far,
    credits, energy cubes left on the reactors and locations built (reactors included);
    ``finished`` once the game is over."""
    st = game.state
    head = "finished" if st.finished else f"year {st.year} turn {st.turn}"
    return head + "; " + "; ".join(
        f"{nt.name(p.name)} {p.vp} VP {p.credits} credits {p.station.cubes()} energy "
        f"{len(p.station.locations())} locations" for p in st.players.values())


def describe_action(a: dict[str, Any]) -> str:
    """An entry of the record in words: 'Ana built Garden at [0, 1]' (what the page
    and the History tab show for each step), from its typed action
    (:func:`companion.ats.actions.from_dict`, :meth:`~companion.ats.actions.AtsAction.words`)."""
    try:
        return from_dict({k: v for k, v in a.items() if k in ACTION_KEYS}).words()
    except RecordError:             # a kind the engine does not know: its name
        who = a.get("player") or a.get("seat") or ""
        return f"{who} {a['do']}".strip()
