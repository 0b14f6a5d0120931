"""Small Star Empires actions as values with a notation (issue 23), after python-chess's
``Move``: one frozen dataclass per kind :data:`companion.sse.turns.HANDLERS` applies
(``move``, ``damage``, ``lay``), each with

- ``to_dict()``: exactly the JSON the record stores (same keys, same order);
- :func:`from_dict`: the right class for an action of the record (a RecordError names an
  unknown kind or key);
- ``str(action)``: a short notation, e.g. ``Ann move #1 1,-3->1,-1 line city``;
- :func:`parse`: reads it back, ``parse(str(a)) == a``.

The notation, token by token (see docs/small-star-empires.md, "Notation"):

``WHO KIND [#SHIP] [FROM->TO | @FROM | ->TO] [line|wormhole] [city|trade_station] [key=JSON ...]``

- ``WHO``: the player, quoted unless it is a plain word; ``?`` when the action names
  nobody;
- ``#1``: the ship's number (``ship``);
- ``1,-3->1,-1``: the hex the ship leaves and the hex it reaches (``from``, ``to``);
  ``@1,-3`` when only ``from`` is given (a ``damage``), ``->1,-1`` when only ``to``;
- ``line`` / ``wormhole``: the way the ship went (``via``);
- ``city`` / ``trade_station``: the piece placed (``piece``; ``piece=null``: none);
- every other field as ``key=JSON`` (``pay=[...]``, ``reveal={...}``, ``destroy=[0,1]``,
  ``then={...}``, ``note="..."``).

The engine judges legality (:func:`companion.sse.turns.apply`); a value here only says
what the action is.  A field whose value has not the usual shape is kept as it is (as
``key=JSON``), so every action of a record reads back unchanged.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core import notation as nt
from ..core.errors import RecordError
from .hexmap import EFFECT_NAMES
from .rules import ACTION_KEYS, PIECE_NAMES, PIECES

Hex = tuple[int, int]

#: the order of an action's keys when it is built here (companion.sse.turns.ACTION_ORDER)
KEY_ORDER = ("do", "player", "ship", "from", "to", "via", "piece", "pay", "reveal", "destroy",
             "then", "pieces", "revealed", "conquered", "ships", "vp", "received", "paid", "next",
             "note")
VIAS = ("line", "wormhole")
#: the fields held typed (the others are kept as ``key=JSON``)
TYPED = ("player", "ship", "from", "to", "via", "piece")
_SHIP = re.compile(r"#([0-9]{1,6})\Z")


@dataclass(frozen=True, kw_only=True)
class SseAction(nt.RecordFields):
    """An action of a Small Star Empires record.  Fields absent from the action are None
    (``frm`` is the key ``from``); ``extra``: every other field, as ``(key, compact
    JSON)`` sorted by key."""

    kind: ClassVar[str] = ""
    key_order: ClassVar[tuple[str, ...]] = KEY_ORDER
    attrs: ClassVar[dict[str, str]] = {"from": "frm"}

    player: str | None = None
    ship: int | None = None
    frm: Hex | None = None
    to: Hex | None = None
    via: str | None = None
    piece: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    #: the action's own key order (to_dict keeps it); not part of the value
    order: tuple[str, ...] = field(default=(), compare=False, repr=False)

    # -- JSON (RecordFields: get, keys, to_dict) ------------------------------------------
    def typed_keys(self) -> tuple[str, ...]:
        return TYPED

    # -- notation ----------------------------------------------------------------------
    def __str__(self) -> str:
        out = [nt.name(self.player) if self.player is not None else "?", self.kind]
        if self.ship is not None:
            out.append(f"#{self.ship}")
        if self.frm is not None and self.to is not None:
            out.append(f"{nt.cell(self.frm)}->{nt.cell(self.to)}")
        elif self.frm is not None:
            out.append("@" + nt.cell(self.frm))
        elif self.to is not None:
            out.append("->" + nt.cell(self.to))
        out += [v for v in (self.via, self.piece) if v is not None]
        out += [nt.keyed(k, json.loads(v)) for k, v in self.extra]
        return " ".join(out)

    # -- words (describe) --------------------------------------------------------------
    def what(self) -> str:
        return self.kind

    def words(self, with_player: bool = True) -> str:
        """The action in words, e.g. ``"Ann moved ship 0 [0, 0] → [1, 0], colonised with
        a City"`` (``with_player``: the player's name first)."""
        text = self.what()
        who = self.get("player") if "player" in self.keys() else "?"
        return f"{who} {text}" if with_player else text


@dataclass(frozen=True, kw_only=True)
class MoveShip(SseAction):
    """``move``: a ship moved in a straight line or through the wormholes, then a piece
    placed (or repaired at home); ``then``: a Refuelling Station's extra move."""
    kind: ClassVar[str] = "move"

    def what(self) -> str:
        g = self.get
        text = f"moved ship {g('ship')} {g('from')} → {g('to')}"
        if g("via") == "wormhole":
            text += " through the wormholes"
        reveal = g("reveal")
        if reveal:
            text += f", revealed {EFFECT_NAMES[reveal['effect']]}"
        if g("piece"):
            text += f", colonised with a {PIECE_NAMES[g('piece')]}"
        elif not reveal:
            text += ", repaired at home"
        if g("destroy"):
            text += f", destroyed the City at {g('destroy')}"
        step = g("then")
        while step:             # a Refuelling Station's extra move (into another tile too)
            text += f", then to {step['to']}"
            if step.get("reveal"):
                text += f", revealed {EFFECT_NAMES[step['reveal']['effect']]}"
            if step.get("piece"):
                text += f" ({PIECE_NAMES[step['piece']]})"
            if step.get("destroy"):
                text += f", destroyed the City at {step['destroy']}"
            step = step.get("then")
        if g("pay"):
            text += ", paid " + ", ".join(f"a City to {p['to']}" for p in g("pay"))
        return text


@dataclass(frozen=True, kw_only=True)
class DamageShip(SseAction):
    """``damage``: a ship damaged where it stands (an Asteroid Field)."""
    kind: ClassVar[str] = "damage"

    def what(self) -> str:
        return f"damaged ship {self.get('ship')} at {self.get('from')}"


@dataclass(frozen=True, kw_only=True)
class LayPosition(SseAction):
    """``lay``: a player's pieces as they lie on the table, with the score track's VP
    (issue 39, :mod:`companion.sse.lay`); ``pieces``, ``ships``, ``vp`` and the others are
    kept as ``key=JSON``: ``Ana lay pieces=[{"at":[1,0],"piece":"city"}] vp=2``."""
    kind: ClassVar[str] = "lay"

    def what(self) -> str:
        pieces = self.get("pieces")
        n = len(pieces) if isinstance(pieces, list) else 0
        text = f"laid the position from the table ({n} piece{'' if n == 1 else 's'}"
        ships = self.get("ships")
        if isinstance(ships, list):
            text += f", {len(ships)} ship{'' if len(ships) == 1 else 's'}"
        text += f", {self.get('vp')} VP on the score track)"
        if self.get("next") is True:
            text += "; their turn next"
        return text


KINDS: dict[str, type[SseAction]] = {c.kind: c for c in (MoveShip, DamageShip, LayPosition)}


def _typed(key: str, value: Any) -> Any:
    """``value`` as the typed field ``key`` holds it, or None if it has not the usual
    shape (it is then kept as ``key=JSON``)."""
    if key == "player":
        return value if isinstance(value, str) else None
    if key == "ship":
        return value if nt.is_small(value) and value >= 0 else None
    if key in ("from", "to"):
        return nt.as_pair(value)
    if key == "via":
        return value if value in VIAS else None
    if key == "piece":
        return value if value in PIECES else None
    return None


def from_dict(d: Any) -> SseAction:
    """The typed action of an action of the record (any kind :mod:`.turns` handles).
    RecordError: not an object, an unknown kind, an unknown key."""
    cls = nt.entry_class(d, KINDS, ACTION_KEYS)
    values: dict[str, Any] = {}
    extra: list[tuple[str, str]] = []
    for key, value in d.items():
        if key == "do":
            continue
        typed = _typed(key, value)
        if typed is not None:
            values["frm" if key == "from" else key] = typed
        else:
            extra.append((key, nt.compact(value)))
    return cls(**values, extra=tuple(sorted(extra)), order=tuple(d))


def parse(text: Any, *, who_optional: bool = False) -> SseAction:
    """An action from its notation (``str(action)``); NotationError (one line) if the
    text is not one.  ``who_optional``: the WHO may be left out, and the kind (a
    ``move``, as the rules read an action without one): ``#1 ->1,-1 city`` (the game
    fills them in, :meth:`companion.sse.game.SseGame.parse`)."""
    toks = nt.tokens(text)
    if who_optional and toks:
        if not _is_word(toks[0], KINDS) or (len(toks) > 1 and _is_word(toks[1], KINDS)):
            if _is_who(toks[0]):
                if len(toks) < 2 or not _is_word(toks[1], KINDS):
                    toks.insert(1, "move")          # WHO, then no kind
            else:
                toks[:0] = ["?", "move"]            # neither WHO nor kind
        else:
            toks.insert(0, "?")                     # the kind first: no WHO
    if len(toks) < 2:
        raise nt.NotationError("write who acts and the kind, e.g. 'Ann move #1 1,-3->1,-1 line city'")
    who, kind = toks[0], toks[1]
    if isinstance(kind, (nt.Keyed, nt.Quoted)) or kind not in KINDS:
        raise nt.NotationError(f"unknown kind {nt.show(kind)}; one of {', '.join(KINDS)}")
    d: dict[str, Any] = {"do": str(kind)}
    name = nt.who(who)
    if name is not None:
        d["player"] = name

    def put(key: str, value: Any) -> None:
        if key in d:
            raise nt.NotationError(f"{kind}: {key} is given twice")
        d[key] = value

    for tok in toks[2:]:
        if isinstance(tok, nt.Keyed):
            put(tok.key, tok.value)
        elif isinstance(tok, nt.Quoted):
            raise nt.NotationError(f"{kind}: a quoted name has no place here: {nt.show(tok)}")
        elif tok.startswith("#"):
            m = _SHIP.match(tok)
            if not m:
                raise nt.NotationError(f"a ship is # and its number, like #1, not {nt.show(tok)}")
            put("ship", int(m.group(1)))
        elif tok.startswith("@"):
            put("from", list(nt.read_cell(tok[1:], "a hex (@q,r)")))
        elif "->" in tok:
            frm, _, to = tok.partition("->")
            if frm:
                put("from", list(nt.read_cell(frm, "the hex left (q,r->q,r)")))
            put("to", list(nt.read_cell(to, "the hex reached (q,r->q,r)")))
        elif tok in VIAS:
            put("via", str(tok))
        elif tok in PIECES:
            put("piece", str(tok))
        else:
            raise nt.NotationError(f"{kind}: cannot read {nt.show(tok)}")
    keys = [k for k in KEY_ORDER if k in d]
    keys += [k for k in d if k not in keys]
    try:
        return from_dict({k: d[k] for k in keys})
    except nt.NotationError:
        raise
    except RecordError as e:
        raise nt.NotationError(str(e)) from None


def _is_word(tok: nt.Token, words: Any) -> bool:
    return not isinstance(tok, (nt.Keyed, nt.Quoted)) and tok in words


def _is_who(tok: nt.Token) -> bool:
    """Whether ``tok`` can be the WHO of a line whose kind is left out: a quoted name, a
    plain word that is no other token of the notation, or ``?``."""
    if isinstance(tok, nt.Keyed):
        return False
    if isinstance(tok, nt.Quoted) or tok == "?":
        return True
    return bool(nt.BARE_NAME.match(tok)) and tok not in VIAS + PIECES and "->" not in tok


def notation(d: dict[str, Any]) -> str:
    """An action of the record in notation (``str(from_dict(d))``)."""
    return str(from_dict(d))


def summary(game: Any) -> str:
    """A short summary of a game's state for a golden playthrough (tests/golden/), from
    the engine's public state and score: whose move is next (``finished`` once the game
    is over), then per player the VP as the score counts them now, the Cities and Trade
    Stations left, and ``passed`` for a player who can no longer move."""
    st = game.state
    totals = {p["player"]: p["total"] for p in game.score().to_json()["players"]}
    head = "finished" if st.finished else f"move {st.moves + 1}, {nt.name(st.current or '?')} to play"
    return head + "; " + "; ".join(
        f"{nt.name(p.name)} {totals.get(p.name, 0)} VP {p.cities} cities "
        f"{p.trade_stations} trade stations" + (" passed" if p.passed else "")
        for p in st.players.values())
