"""The laying panel's draft and map (companion/ui/sse_lay.py, issue 39): one player's pieces
as tapped so far, the Unexplored System tiles turned face-up, the Nordinn conquest
markers, the ships (damaged or not), the track's VP and the Open Borders counts; the
``lay`` entry they make (companion/sse/lay.py, docs/record-format.md) and the cells of
the map that shows them.

No rule here: what the draft holds is what was tapped; the engine checks the entry.
The choices of a tile are the engine's names (:data:`companion.sse.hexmap.EFFECTS`,
:func:`companion.sse.offer.planet_choices`)."""
from __future__ import annotations

from typing import Any

from ..sse.game import PIECE_NAMES
from ..sse.hexmap import EFFECT_NAMES, EFFECTS
from ..sse.lay import MAX_NUMBER
from ..sse.offer import planet_choices
from ..sse.render import KIND_FILL
from .sse_board import system_cell

Hex = tuple[int, int]
LETTER = {"city": "C", "trade_station": "T"}
#: a ship on the map, and a damaged one; a Nordinn conquest marker
SHIP_MARK, DAMAGED_MARK, MARKER = "▲", "△", "✖"
#: the most ships a draft keeps (a record holds up to 12 a player)
MAX_SHIPS = 16
#: the tile dropdown's value for no tile chosen (a Planetary System tile's: "planetary:2")
NONE = ""


def tile_key(tile: dict | None) -> str:
    """The tile dropdown's value for a tile ``{"effect", "planets"?}`` (NONE: none)."""
    if not tile or tile.get("effect") not in EFFECTS:
        return NONE
    return f"{tile['effect']}:{tile['planets']}" if "planets" in tile else tile["effect"]


def tile_choices() -> list[tuple[str, str]]:
    """What the tile dropdown offers: none chosen, then each tile the box holds (a
    Planetary System tile with its planets: they are on the tile)."""
    out = [("— which tile? —", NONE)]
    for e in EFFECTS:
        if e == "planetary":
            out += [(f"{EFFECT_NAMES[e]} ({n} planet{'' if n == 1 else 's'})",
                     tile_key({"effect": e, "planets": n})) for n in planet_choices()]
        else:
            out.append((EFFECT_NAMES[e], e))
    return out


TILES = {key for _, key in tile_choices()}


def tile_of(key: str) -> dict[str, Any]:
    """The tile of a dropdown value ({} for none)."""
    if key not in TILES or key == NONE:
        return {}
    effect, _, planets = key.partition(":")
    return {"effect": effect, **({"planets": int(planets)} if planets else {})}


def short(tile: dict) -> str:
    """A tile on a hex: its planets, or its name's initials (the tooltip says it all)."""
    if tile.get("effect") == "planetary" and isinstance(tile.get("planets"), int):
        return "●" * tile["planets"]
    name = EFFECT_NAMES.get(tile.get("effect") or "", "")
    return "".join(w[0] for w in name.split()) or "?"


def named(tile: dict) -> str:
    name = EFFECT_NAMES.get(tile.get("effect") or "", "tile not chosen")
    n = tile.get("planets")
    return f"{name} ({n} planet{'' if n == 1 else 's'})" if isinstance(n, int) else name


def _hex(v: Any) -> Hex | None:
    if isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v):
        return (v[0], v[1])
    return None


def _count(v: Any) -> int:
    return v if type(v) is int and 0 <= v <= MAX_NUMBER else 0


class Draft:
    """One player's pieces as tapped so far, and the track's VP."""

    def __init__(self) -> None:
        self.pieces: dict[Hex, str] = {}
        #: the tile turned face-up at a system: under a piece (``reveal``) or, with no
        #: piece there, a tile lying face-up alone (``revealed``); {}: not chosen yet
        self.tiles: dict[Hex, dict[str, Any]] = {}
        self.conquered: list[Hex] = []               # Nordinn conquest markers placed
        self.vp = 0
        self.ships: list[tuple[Hex, bool]] = []      # a game under way: where, damaged
        self.next = False                           # ... and whether it is this player's turn
        self.received = 0                           # Open Borders: Cities got from others
        self.paid = 0                               # ... and paid to pass

    def entry(self, player: str, now: bool = False, open_borders: bool = False) -> dict:
        """The ``lay`` entry of this draft (docs/record-format.md); ``now``: a game under
        way (its ships and whose turn it is); ``open_borders``: the variant's counts."""
        pieces = []
        for h in sorted(self.pieces):
            p: dict[str, Any] = {"at": list(h), "piece": self.pieces[h]}
            if self.tiles.get(h):
                p["reveal"] = dict(self.tiles[h])
            pieces.append(p)
        a: dict[str, Any] = {"do": "lay", "player": player, "pieces": pieces, "vp": self.vp}
        alone = [{"at": list(h), **t} for h, t in sorted(self.tiles.items())
                 if h not in self.pieces]
        if alone:
            a["revealed"] = alone
        if self.conquered:
            a["conquered"] = [list(h) for h in sorted(self.conquered)]
        if now:
            a["ships"] = [{"at": list(h), **({"damaged": True} if hurt else {})}
                          for h, hurt in sorted(self.ships)]
            a["next"] = self.next
        if open_borders:
            a["received"], a["paid"] = self.received, self.paid
        return a

    def to_json(self) -> dict:
        """What is kept in the store between taps (companion.table.drafts)."""
        ships = sorted(self.ships)
        return {"pieces": [[list(h), p] for h, p in sorted(self.pieces.items())],
                "tiles": [[list(h), dict(t)] for h, t in sorted(self.tiles.items())],
                "conquered": [list(h) for h in sorted(self.conquered)],
                "vp": self.vp, "ships": [list(h) for h, _ in ships],
                "damaged": [hurt for _, hurt in ships], "next": self.next,
                "received": self.received, "paid": self.paid}

    @classmethod
    def from_json(cls, data) -> "Draft":
        """A draft read back; anything that does not read as one is left out."""
        d = cls()
        if not isinstance(data, dict):
            return d
        for item in _items(data.get("pieces")):
            if isinstance(item, list) and len(item) == 2 and item[1] in LETTER:
                h = _hex(item[0])
                if h is not None:
                    d.pieces[h] = item[1]
        for item in _items(data.get("tiles")):
            if isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict):
                h = _hex(item[0])
                if h is not None:
                    d.tiles[h] = tile_of(tile_key(item[1]))
        d.conquered = sorted({h for h in map(_hex, _items(data.get("conquered")))
                              if h is not None})
        d.vp = _count(data.get("vp"))
        hurt = _items(data.get("damaged"))
        for i, v in enumerate(_items(data.get("ships"))[:MAX_SHIPS]):
            h = _hex(v)
            if h is not None:
                d.ships.append((h, i < len(hurt) and hurt[i] is True))
        d.next = data.get("next") is True
        d.received, d.paid = _count(data.get("received")), _count(data.get("paid"))
        return d

    @classmethod
    def from_entry(cls, entry: dict) -> "Draft":
        """The draft a ``lay`` entry was laid from (the inverse of :meth:`entry`): a lay
        undone is the player's draft again, nothing typed lost.  Read as a kept draft is
        (:meth:`from_json`): what does not read is left out."""
        def tile(d: Any) -> dict:
            return {k: d[k] for k in ("effect", "planets") if k in d} \
                if isinstance(d, dict) else {}
        pieces = [p for p in _items(entry.get("pieces")) if isinstance(p, dict)]
        alone = [t for t in _items(entry.get("revealed")) if isinstance(t, dict)]
        ships = [x for x in _items(entry.get("ships")) if isinstance(x, dict)]
        return cls.from_json({
            "pieces": [[p.get("at"), p.get("piece")] for p in pieces],
            "tiles": ([[p.get("at"), tile(p["reveal"])] for p in pieces if "reveal" in p]
                      + [[t.get("at"), tile(t)] for t in alone]),
            "conquered": _items(entry.get("conquered")), "vp": entry.get("vp"),
            "ships": [x.get("at") for x in ships],
            "damaged": [x.get("damaged") is True for x in ships],
            "next": entry.get("next"), "received": entry.get("received"),
            "paid": entry.get("paid")})

    # -- taps ----------------------------------------------------------------------------
    def put(self, h: Hex, what: str) -> None:
        """A City or Trade Station tapped at ``h`` (tapped again: taken away, its tile too)."""
        if self.pieces.get(h) == what:
            self.pieces.pop(h, None)
            self.tiles.pop(h, None)
        else:
            self.pieces[h] = what

    def alone(self, h: Hex) -> bool:
        """A tile face-up alone tapped at ``h`` (no piece there); False: taken away."""
        if h in self.tiles and h not in self.pieces:
            self.tiles.pop(h)
            return False
        self.pieces.pop(h, None)
        self.tiles.setdefault(h, {})
        return True

    def marker(self, h: Hex) -> None:
        if h in self.conquered:
            self.conquered.remove(h)
        else:
            self.conquered.append(h)

    def clear(self, h: Hex) -> None:
        """Nothing at ``h``: its piece, tile, marker and ships taken away."""
        self.pieces.pop(h, None)
        self.tiles.pop(h, None)
        if h in self.conquered:
            self.conquered.remove(h)
        self.ships = [s for s in self.ships if s[0] != h]

    def ship(self, h: Hex, most: int, damaged: bool = False) -> bool:
        """Ship (``damaged``: Damaged ship) tapped at ``h``: a ship of this player there
        marked damaged (Damaged) or one more ship there, as many as ``most``; when all
        stand, one there is taken away (Ship) or repaired (Damaged).  False: all stand and
        none is here."""
        here = [i for i, (at, _) in enumerate(self.ships) if at == h]
        if damaged:
            fine = [i for i in here if not self.ships[i][1]]
            if fine:
                self.ships[fine[0]] = (h, True)
                return True
        if len(self.ships) < most:
            self.ships.append((h, damaged))
            return True
        if not here:
            return False
        if damaged:
            self.ships[here[0]] = (h, False)
        else:
            self.ships.pop(here[-1])
        return True


def _items(v: Any) -> list:
    return v[:4000] if isinstance(v, list) else []


def cells(st, d: Draft, player: str) -> dict:
    """The map's cells: the board as laid so far (earlier entries' pieces, tiles face-up
    and conquest markers) with ``player``'s draft on it."""
    seats = {i + 1: p for i, p in enumerate(st.setup.players)}
    out = {}
    for h, sy in st.map.systems.items():
        c = system_cell(sy)
        tip = f"[{h[0]}, {h[1]}] {sy.describe()}"
        if sy.kind == "homeworld":
            owner = seats.get(sy.home)
            c = {"label": f"{owner} home" if owner else f"home {sy.home}",
                 "fill": st.setup.colour(owner) if owner else "#fff", "text": "white"}
        base = c["label"] if sy.kind != "nebula" else (sy.colour or "")
        tile = st.revealed.get(h)
        if tile is not None:                         # face-up in an earlier entry
            base = short(tile)
            c = {**c, "label": base}
            tip += f" — revealed: {named(tile)}"
        state = ""
        col = st.colonies.get(h)
        if col is not None:                          # laid already (another entry)
            c = {"label": f"{LETTER[col.piece]} {base}".strip(),
                 "fill": st.setup.colour(col.owner), "text": "white"}
            tip += f" — {col.owner}'s {PIECE_NAMES[col.piece]}"
            state = "colony"
        if h in d.tiles:                             # this draft's tile
            base = short(d.tiles[h]) if d.tiles[h] else "?"
            tip += f" — tile turned up: {named(d.tiles[h])} (to lay)"
            if h not in d.pieces:
                c = {"label": f"{base} up", "fill": KIND_FILL["unexplored"], "text": "white"}
                state = "selected"
        piece = d.pieces.get(h)
        if piece is not None:                        # this draft's
            c = {"label": f"{LETTER[piece]} {base}".strip(),
                 "fill": st.setup.colour(player), "text": "white"}
            tip += f" — {player}'s {PIECE_NAMES[piece]} (to lay)"
            state = "selected colony"
        if h in st.conquered or h in d.conquered:
            c = {**c, "label": f"{MARKER} {c['label']}".strip()}
            tip += " — Nordinn conquest marker" + ("" if h in st.conquered else " (to lay)")
            state = state or "selected"
        ships = [hurt for at, hurt in d.ships if at == h]
        if ships:                                    # this draft's ships (a game under way)
            marks = "".join(DAMAGED_MARK if hurt else SHIP_MARK for hurt in sorted(ships))
            c = {**c, "label": f"{marks} {c['label']}".strip()}
            tip += f" — {len(ships)} of {player}'s ships"
            if any(ships):
                tip += f" ({sum(ships)} damaged)"
        c["tip"], c["state"] = tip, state
        out[h] = c
    return out
