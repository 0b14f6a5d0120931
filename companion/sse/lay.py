"""Small Star Empires, a position laid from the table (issue 39, "Score the table as it
lies"): a ``lay`` entry gives one player's pieces as they lie on the laid map, with the
score track's VP, instead of every move from the first.  A game whose setup says
``options.laid`` holds one ``lay`` entry per player, before any other action.
``"final"``: the position at the game's end; once every player is laid the game is over
and :mod:`companion.sse.scoring` gives the final table and the book's tiebreak as for a
game entered move by move.  ``"now"``: a game under way; once every player is laid, the
turn is the player's whose entry says ``"next": true`` and the game goes on action by
action with every rule checked (:func:`companion.sse.turns.apply_lay`).

The entry::

    {"do": "lay", "player": "Ana",
     "pieces": [{"at": [1, 0], "piece": "city"},
                {"at": [2, 0], "piece": "trade_station"},
                {"at": [3, 1], "piece": "city", "reveal": {"effect": "tennar_union"}}],
     "revealed": [{"at": [4, 0], "effect": "asteroid_field"}],
     "conquered": [], "ships": [{"at": [1, 0]}, {"at": [4, 0], "damaged": true}],
     "vp": 12, "received": 0, "paid": 0, "next": true}

What the final map shows and what it cannot (the rulebook, "S ..."):

* Each colonised system holds its colonist's piece: "After you move one of your ships
  into a system, you will colonize it by placing either a City or a Trade Station in that
  system" (S Objective), "you cannot choose to replace a City with a Trade Station or vice
  versa during the game" (S Colonize).  So the planets (S Colonize: "you will immediately
  score points on the Score Track equal to the number of planets present in that system")
  and the Unexplored tiles' VP ("colonize it with a City. Score 1.", "Score 2.") are read
  from the map, as the moves would have scored them (:func:`~.movement.colonise`), and the
  nebulae, Trade Stations, territory and federations at the end by the existing scoring.
* The score track cannot be read from the map where a City left it: the Nordinn Empire
  ("choose one of them to destroy (return the City back to your reserves)").  The VP of
  such a City stay on the track: ``vp`` is the track's position when the game ended
  (before the end-game points, S Scoring: "players continue to count down their end game
  points and add them on the score track"), taken on trust; the part the map does not
  show is a VP line "from the score track, typed" (:data:`TRACK_RULE`).
* Open Borders: the Cities a player "got from their opponents during the game" lie in
  front of them, not on the map (``received``), and those paid left the reserve
  (``paid``); both typed.
* The reserves (the tiebreak: "the player that has the most Cities left in his reserve")
  follow: the setup's pieces, minus those on the map, minus the Cities paid (a destroyed
  City went back to the reserve).

Each check is an :class:`~companion.core.errors.IllegalAction` naming the piece and the
system (the codes: docs/record-format.md, "A Small Star Empires position laid from the
table"): a piece on no system of the map (``off-map``); on a homeworld, a Black Hole, a
Wormhole, a revealed Asteroid Field or Nordinn Empire, a conquered system (the movement
rule that keeps ships out: ``own-homeworld``, ``opponent-system``, ``black-hole``,
``wormhole-end``, ``blocked-system``, ``conquered``); two pieces on one system
(``occupied``); more Cities or Trade Stations than the setup gives (``no-pieces``); a
Trade Station on an Unexplored System (``unexplored-city``), a tile not given or not
matching the map (``reveal``); conquest markers (``destroy``); the ships (``ships``,
``damaged``); the track below what the map shows, or above it with no Nordinn Empire to
explain it (``track``); Cities paid that nobody received (``open-borders``); a final
position in which a player can still move (``not-over``); when a lay may come (``lay``).
Checks of the whole map run on the last player's entry.  No count the book does not
state is checked (the Unexplored tiles of each kind, the planets a destroyed City held).
"""
from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction, RecordError
from ..core.safeio import terminal_line
from . import hexmap as hm
from .hexmap import EFFECT_NAMES, EFFECTS, KIND_NAMES, Hex, as_hex, label
from .movement import colonise, destinations, gain
from .rules import (BLOCKING_EFFECTS, EFFECT_VP, LAY_ONLY_KEYS, PIECE_NAMES, PIECES, PLANETS,
                    is_whole)
from .state import PlayerState, Ship, State, VPLine

#: the keys of a ``lay`` entry (in the order it is stored) and of its parts
LAY_ORDER = ("do", "player", "pieces", "revealed", "conquered", "ships", "vp", "received",
             "paid", "next", "note")
LAY_KEYS = {"do", "player", "note"} | LAY_ONLY_KEYS
PIECE_KEYS = {"at", "piece", "reveal"}
TILE_KEYS = {"effect", "planets"}
SHIP_KEYS = {"at", "damaged"}
#: the most VP, Cities received or paid a lay entry may say
MAX_NUMBER = 999
#: the VP line of the track's VP the map does not show
TRACK_SOURCE = "score track"
TRACK_RULE = ("VP during the game the map cannot show (a City destroyed later): from the "
              "score track, typed")
COLONISE_QUOTE = "S Colonize: \"you MUST COLONIZE the system your ship has moved into\""
REVEAL_QUOTE = ("S Unexplored Systems: \"When you enter and reveal this system, colonize it "
                "with a City\"")


def _show(v: Any) -> str:
    return terminal_line(repr(v), 60)


def _hex(v: Any, what: str, a: dict[str, Any]) -> Hex:
    try:
        return as_hex(v, what)
    except RecordError as e:
        raise IllegalAction("malformed", str(e), action=a) from None


def _list(a: dict[str, Any], key: str, what: str) -> list[Any]:
    raw = a.get(key, [])
    if not isinstance(raw, list) or len(raw) > hm.MAX_SYSTEMS:
        raise IllegalAction("malformed", f"{key} is a list of {what}", action=a)
    return raw


def _tile(d: Any, where: str, a: dict[str, Any]) -> dict[str, Any]:
    """An Unexplored System tile turned face-up, ``{"effect", "planets"}``, checked."""
    if not isinstance(d, dict) or not TILE_KEYS.issuperset(d):
        raise IllegalAction("malformed", f"{where}: a tile is {{\"effect\": E}} (and "
                            "\"planets\" for a planetary tile)", action=a)
    effect, planets = d.get("effect"), d.get("planets")
    if effect not in EFFECTS:
        raise IllegalAction("reveal", f"{where}: the tile's effect is one of "
                            f"{', '.join(EFFECTS)}, not {_show(effect)}", action=a)
    if effect == "planetary":
        if not is_whole(planets, *PLANETS):
            raise IllegalAction("reveal", f"{where}: a planetary tile has 1 to 3 planets: give "
                                "'planets'", action=a)
        return {"effect": effect, "planets": planets}
    if planets is not None:
        raise IllegalAction("reveal", f"{where}: only a planetary tile has planets", action=a)
    return {"effect": effect}


def _entry(st: State, a: dict[str, Any]) -> dict[str, Any]:
    """The entry's parts, their shapes checked (``malformed``): the stored entry."""
    setup, player = st.setup, a["player"]
    extra = set(a) - LAY_KEYS
    if extra:
        raise IllegalAction("malformed", f"unknown key {_show(sorted(extra)[0])} in a lay entry",
                            action=a)
    if not is_whole(a.get("vp"), 0, MAX_NUMBER):
        raise IllegalAction("malformed", f"vp: {player}'s position on the score track when "
                            "the game ended, before the end-game points (a whole number from 0 "
                            f"to {MAX_NUMBER})", action=a)
    for key in ("received", "paid"):
        if key in a:
            if not setup.variant("open_borders"):
                raise IllegalAction("malformed", f"'{key}' counts the Cities of Open Borders: "
                                    "the variant is not in play", action=a)
            if not is_whole(a[key], 0, MAX_NUMBER):
                raise IllegalAction("malformed", f"{key}: the Cities {player} "
                                    + ("received from players passing" if key == "received"
                                       else "paid to pass") + " (a whole number from 0)",
                                    action=a)
    if "next" in a:
        if setup.laid != "now":
            raise IllegalAction("malformed", "'next' says whose turn it is in a game laid now "
                                "(setup.options.laid: \"now\")", action=a)
        if not isinstance(a["next"], bool):
            raise IllegalAction("malformed", "next is true (this player's turn) or false",
                                action=a)
    if "pieces" not in a:
        raise IllegalAction("malformed", f"give {player}'s pieces on the map (\"pieces\": [] "
                            "when none)", action=a)
    pieces = []
    for i, p in enumerate(_list(a, "pieces", "{\"at\": [q, r], \"piece\": ...}")):
        if not isinstance(p, dict) or "at" not in p or not PIECE_KEYS.issuperset(p):
            raise IllegalAction("malformed", f"pieces[{i}] is {{\"at\": [q, r], \"piece\": "
                                "\"city\" or \"trade_station\"} (and \"reveal\" on an "
                                "Unexplored System)", action=a)
        at = _hex(p["at"], f"pieces[{i}].at", a)
        if p.get("piece") not in PIECES:
            raise IllegalAction("malformed", f"pieces[{i}] at {label(at)}: the piece is 'city' or "
                                f"'trade_station', not {_show(p.get('piece'))}", action=a)
        out = {"at": list(at), "piece": p["piece"]}
        if "reveal" in p:
            out["reveal"] = _tile(p["reveal"], f"the tile at {label(at)}", a)
        pieces.append(out)
    revealed = []
    for i, t in enumerate(_list(a, "revealed", "{\"at\": [q, r], \"effect\": E}")):
        if not isinstance(t, dict) or "at" not in t:
            raise IllegalAction("malformed", f"revealed[{i}] is {{\"at\": [q, r], \"effect\": "
                                "E}", action=a)
        at = _hex(t["at"], f"revealed[{i}].at", a)
        revealed.append({"at": list(at),
                         **_tile({k: v for k, v in t.items() if k != "at"},
                                 f"the tile at {label(at)}", a)})
    conquered = [list(_hex(h, f"conquered[{i}]", a))
                 for i, h in enumerate(_list(a, "conquered", "[q, r]"))]
    stored: dict[str, Any] = {"do": "lay", "player": player, "pieces": pieces}
    if "revealed" in a:
        stored["revealed"] = revealed
    if "conquered" in a:
        stored["conquered"] = conquered
    if "ships" in a:
        ships = []
        for i, s in enumerate(_list(a, "ships", "{\"at\": [q, r]}")):
            if not isinstance(s, dict) or "at" not in s or not SHIP_KEYS.issuperset(s) \
                    or not isinstance(s.get("damaged", False), bool):
                raise IllegalAction("malformed", f"ships[{i}] is {{\"at\": [q, r]}} (and "
                                    "\"damaged\": true for a damaged ship)", action=a)
            ships.append({"at": list(_hex(s["at"], f"ships[{i}].at", a)),
                          **({"damaged": s["damaged"]} if "damaged" in s else {})})
        stored["ships"] = ships
    elif setup.laid == "now":
        raise IllegalAction("ships", f"a game laid now goes on: give where each of {player}'s "
                            "ships stands (\"ships\")", action=a)
    for key in ("vp", "received", "paid", "next", "note"):
        if key in a:
            stored[key] = a[key]
    return stored


def may_lay(st: State) -> frozenset[str]:
    """What a ``lay`` entry of this game may hold beyond the pieces and the track's VP (a
    query: the laying panel offers these and nothing else): ``"ships"`` and ``"next"`` in
    a game under way, ``"damaged"`` ships there with the variants that damage them (S
    Damaged Ships: "most of the Variants and Expansions ... utilize the 'Damaged Ships'
    rule"), ``"revealed"`` tiles and ``"conquered"`` systems on a map with Unexplored
    Systems (the variant, or the map's own), ``"received"`` and ``"paid"`` with Open
    Borders."""
    setup = st.setup
    out = set()
    if setup.laid == "now":
        out |= {"ships", "next"}
        if _damages_ships(st):
            out.add("damaged")
    if setup.variant("unexplored") or any(s.kind == "unexplored"
                                          for s in st.map.systems.values()):
        out |= {"revealed", "conquered"}
    if setup.variant("open_borders"):
        out |= {"received", "paid"}
    return frozenset(out)


def _damages_ships(st: State) -> bool:
    return st.setup.variant("damaged_ships") or st.setup.variant("unexplored")


# ---------------------------------------------------------------------------
# one player's pieces
# ---------------------------------------------------------------------------
def lay(st: State, ps: PlayerState, a: dict[str, Any]) -> dict[str, Any]:
    """``do: lay``: ``ps``'s pieces as they lie on the map, with the track's VP."""
    setup, player = st.setup, ps.name
    if setup.laid is None:
        raise IllegalAction("lay", "a position is laid from the table only in a game whose "
                            "setup says so (setup.options.laid: \"final\" or \"now\")", action=a)
    if player in st.laid:
        raise IllegalAction("lay", f"{player}'s pieces are laid already (undo that entry to "
                            "lay them again)", action=a)
    if st.index != len(st.laid):
        raise IllegalAction("lay", "a position is laid before any other action of the game",
                            action=a)
    stored = _entry(st, a)
    if stored.get("next") is True and st.laid_next is not None:
        raise IllegalAction("lay", f"the entry of {st.laid_next} says it is their turn "
                            "already: one entry says next", action=a)
    index = st.index
    pieces = {tuple(p["at"]): p for p in reversed(stored["pieces"])}
    _counts(st, ps, stored, a)
    for t in stored.get("revealed", []):
        _face_up(st, ps, (t["at"][0], t["at"][1]), t, pieces, a)
    mine: set[Hex] = set()
    for p in stored["pieces"]:
        _place(st, ps, (p["at"][0], p["at"][1]), p, mine, a, index)
    _markers(st, ps, stored, a)
    paid = stored.get("paid", 0)
    ps.cities -= paid
    ps.paid, ps.received = paid, stored.get("received", 0)
    _track(st, ps, stored["vp"], a, index)
    if "ships" in stored:
        _ships(st, ps, stored["ships"], a)
        st.laid_ships.append(player)
    st.laid.append(player)
    if stored.get("next") is True:
        st.laid_next = player
    st.index += 1
    if len(st.laid) == len(st.players):
        _complete(st, a)
    return stored


def _counts(st: State, ps: PlayerState, stored: dict[str, Any], a: dict[str, Any]) -> None:
    """No more Cities (with those paid) and Trade Stations than the setup gives the player
    (S Components: "16 Cities and 4 Trade Stations per player"; Campaign Mode's table; the
    record's epic or custom pieces)."""
    given = {"city": st.setup.cities_for(ps.name), "trade_station": st.setup.trade_stations}
    on_map = {k: sum(1 for p in stored["pieces"] if p["piece"] == k) for k in PIECES}
    paid = stored.get("paid", 0)
    for k in PIECES:
        if on_map[k] + (paid if k == "city" else 0) > given[k]:
            names = "Cities" if k == "city" else "Trade Stations"
            extra = f" and paid {paid} to pass" if k == "city" and paid else ""
            raise IllegalAction("no-pieces", f"{ps.name} lays {on_map[k]} {names} on the map"
                                f"{extra}: the setup gives each player {given[k]} (S Colonize: "
                                "\"placing either a City or a Trade Station from your "
                                "reserves\")", action=a)


def _face_up(st: State, ps: PlayerState, at: Hex, tile: dict[str, Any],
             pieces: dict[Hex, dict[str, Any]], a: dict[str, Any]) -> None:
    """A tile ``ps`` turned face-up where none of the player's pieces stands: an Asteroid
    Field or a Nordinn Empire ("When you enter and reveal this system, Damage your ship.
    From now on, no other ships can enter or pass through this system."), or a tile whose
    City a Nordinn Empire destroyed later."""
    name = EFFECT_NAMES[tile["effect"]]
    what = f"the {name} {ps.name} turned face-up at {label(at)}"
    s = st.map.get(at)
    if s is None:
        raise IllegalAction("off-map", f"{what}: there is no system at {label(at)} on the laid "
                            "map", action=a)
    if s.kind != "unexplored":
        raise IllegalAction("reveal", f"{what}: {label(at)} is a {s.describe()}, not an "
                            "Unexplored System", action=a)
    if at in st.revealed:
        raise IllegalAction("reveal", f"{what}: that tile is face-up already", action=a)
    if at in st.colonies or at in pieces:
        raise IllegalAction("reveal", f"{what}: a piece stands there; give the tile with that "
                            "piece (\"reveal\")", action=a)
    _known(s, tile, what, a)
    st.revealed[at] = {k: v for k, v in tile.items() if k != "at"}
    if tile["effect"] in BLOCKING_EFFECTS:
        st.blocked[at] = name


def _known(s: hm.System, tile: dict[str, Any], what: str, a: dict[str, Any]) -> None:
    if s.effect and (s.effect != tile["effect"]
                     or (s.effect_planets or None) != tile.get("planets")):
        raise IllegalAction("reveal", f"{what}: the map says this tile is "
                            f"{EFFECT_NAMES[s.effect]}", action=a)


def _place(st: State, ps: PlayerState, at: Hex, p: dict[str, Any], mine: set[Hex],
           a: dict[str, Any], index: int) -> None:
    """``ps``'s piece at ``at``, checked against the map and the pieces laid so far, placed
    and scored as the move that placed it would have scored it (:func:`.movement.colonise`,
    the Unexplored tile's VP as :func:`.effects.explore` gives them)."""
    piece = p["piece"]
    what = f"{ps.name}'s {PIECE_NAMES[piece]} at {label(at)}"
    if at in mine:
        raise IllegalAction("occupied", f"{label(at)} is laid twice in {ps.name}'s pieces "
                            "(S Colonize: one piece colonises a system)", action=a)
    other = st.colonies.get(at)
    if other is not None:
        raise IllegalAction("occupied", f"{what}: {label(at)} holds {other.owner}'s "
                            f"{PIECE_NAMES[other.piece]} (S Colonize: \"No other players may "
                            "later colonize that system\")", action=a)
    s = st.map.get(at)
    if s is None:
        raise IllegalAction("off-map", f"{what}: there is no system at {label(at)} on the laid "
                            "map", action=a)
    if s.kind == "homeworld":
        if at == ps.home:
            raise IllegalAction("own-homeworld", f"{what}: {label(at)} is {ps.name}'s own "
                                "homeworld (S Movement: your ship CANNOT \"MOVE INTO into your "
                                "Homeworld System\")", action=a)
        raise IllegalAction("opponent-system", f"{what}: {label(at)} is "
                            f"{st.controller(at) or 'another seat'}'s homeworld (S Movement)",
                            action=a)
    if s.kind == "black_hole":
        raise IllegalAction("black-hole", f"{what}: {label(at)} is a Black Hole (S Black Holes: "
                            "\"your ships cannot pass through or move into a Black Hole "
                            "system\")", action=a)
    if s.kind == "wormhole":
        raise IllegalAction("wormhole-end", f"{what}: {label(at)} is a Wormhole (S Wormholes: "
                            "\"you cannot move your ship into a Wormhole System\")", action=a)
    if at in st.blocked:
        raise IllegalAction("blocked-system", f"{what}: {label(at)} is a revealed "
                            f"{st.blocked[at]}: \"no other ships can enter or pass through "
                            "this system\"", action=a)
    if at in st.conquered:
        raise IllegalAction("conquered", f"{what}: {label(at)} carries a Nordinn conquest "
                            "marker (\"you cannot move your ships into those systems\")",
                            action=a)
    effect: str | None = None
    planets: int | None = None
    rv = p.get("reveal")
    if s.kind == "unexplored" and at not in st.revealed:
        if rv is None and s.effect:
            rv = {"effect": s.effect, **({"planets": s.effect_planets}
                                         if s.effect_planets else {})}
        if rv is None:
            raise IllegalAction("reveal", f"{what}: {label(at)} is an Unexplored System: give "
                                "the tile turned face-up (\"reveal\": {\"effect\": E})", action=a)
        _known(s, rv, what, a)
        effect = rv["effect"]
        if effect in BLOCKING_EFFECTS:
            raise IllegalAction("blocked-system", f"{what}: the {EFFECT_NAMES[effect]} colonises "
                                "nothing (S Unexplored Systems: \"When you enter and reveal "
                                "this system, Damage your ship.\"): give it under \"revealed\"",
                                action=a)
        if piece != "city":
            raise IllegalAction("unexplored-city", f"{what}: an Unexplored System is colonised "
                                "with a City (S Unexplored Systems: \"You may only move your "
                                "ship into these systems and colonize them using Cities.\")",
                                action=a)
        planets = rv.get("planets")
        st.revealed[at] = dict(rv)
    elif rv is not None:
        why = ("its tile is face-up already" if at in st.revealed
               else f"it is a {s.describe()}, not an Unexplored System")
        raise IllegalAction("reveal", f"{what}: no tile is turned face-up at {label(at)}: {why}",
                            action=a)
    mine.add(at)
    colonise(st, ps, at, piece, {}, index, (piece,), effect=effect, planets=planets)
    if effect in EFFECT_VP:
        name = EFFECT_NAMES[effect]
        gain(ps, EFFECT_VP[effect], "exploration", name, at, f"revealed the {name}", index)


def _markers(st: State, ps: PlayerState, stored: dict[str, Any], a: dict[str, Any]) -> None:
    """The Nordinn conquest markers ``ps`` placed: S Unexplored Systems, Nordinn Empire:
    "choose one of them to destroy" (one City each) and "If you destroy an adjacent City
    this way, place put the Nordinn Empire conquest marker on the system"."""
    nordinns = [(t["at"][0], t["at"][1]) for t in stored.get("revealed", [])
                if t["effect"] == "nordinn_empire"]
    markers = [(h[0], h[1]) for h in stored.get("conquered", [])]
    if len(markers) > len(nordinns):
        raise IllegalAction("destroy", f"{ps.name} lays {len(markers)} conquest marker(s) and "
                            f"turned up {len(nordinns)} Nordinn Empire(s): each destroys one "
                            "City (\"choose one of them to destroy\")", action=a)
    for h in markers:
        what = f"the conquest marker {ps.name} placed at {label(h)}"
        s = st.map.get(h)
        if s is None:
            raise IllegalAction("off-map", f"{what}: there is no system at {label(h)} on the "
                                "laid map", action=a)
        if h in st.conquered or s.kind in ("homeworld", "black_hole", "wormhole"):
            raise IllegalAction("destroy", f"{what}: no City of the map was destroyed there "
                                f"({'a marker lies there already' if h in st.conquered else s.describe()})",
                                action=a)
        if not any(hm.distance(h, n) == 1 for n in nordinns):
            raise IllegalAction("destroy", f"{what}: it is next to no Nordinn Empire "
                                f"{ps.name} turned up (\"If you destroy an adjacent City this "
                                "way, place ... the conquest marker on the system\")", action=a)
        if h in st.colonies:
            raise IllegalAction("conquered", f"{what}: {label(h)} holds "
                                f"{st.colonies[h].owner}'s {PIECE_NAMES[st.colonies[h].piece]}: "
                                "a conquered system is one \"you cannot move your ships into\"",
                                action=a)
        st.conquered.add(h)


def _track(st: State, ps: PlayerState, vp: int, a: dict[str, Any], index: int) -> None:
    """The track's VP: at least those the map shows were scored during play; the rest a
    VP line from the track, typed (whether anything explains it: :func:`_complete`)."""
    shown = ps.vp
    if vp < shown:
        raise IllegalAction("track", f"{ps.name}'s score track says {vp} VP and the map shows "
                            f"{shown} VP scored during play (planets, Unexplored tiles): the "
                            "track holds at least these (S Colonize: \"you will immediately "
                            "score points on the Score Track equal to the number of planets "
                            "present in that system\")", action=a)
    if vp > shown and "revealed" not in may_lay(st):
        # checked on this player's own lay (issue 50: it was refused only when the last
        # player laid, on that phone, naming another player): with no Unexplored System
        # on this map no Nordinn Empire can have taken a City, and with it the VP
        raise IllegalAction("track", f"{ps.name}'s score track says {vp} VP and the map shows "
                            f"{shown} VP scored during play: only a City destroyed by a "
                            "Nordinn Empire (S Unexplored Systems: \"choose one of them to "
                            "destroy (return the City back to your reserves)\") takes VP off "
                            "the map, and this map has no Unexplored System: check the track "
                            "and the pieces", action=a)
    if vp > shown:
        ps.vp = vp
        ps.ledger.append(VPLine(ps.name, vp - shown, "planets", TRACK_SOURCE, None, TRACK_RULE,
                                index))


def _ships(st: State, ps: PlayerState, ships: list[dict[str, Any]], a: dict[str, Any]) -> None:
    """The player's ships, as many as the setup gives (S Setup: "each player starts with
    2-4 ships of his color"; none ever leaves the board), each on a system; where each may
    stand is checked with the whole map (:func:`_ship_problem`)."""
    if len(ships) != st.setup.ships:
        raise IllegalAction("ships", f"{ps.name} lays {len(ships)} ship(s): each player has "
                            f"{st.setup.ships} (the setup's; S Setup: \"each player starts with "
                            "2-4 ships\"), and no ship leaves the board", action=a)
    out = []
    for i, s in enumerate(ships):
        at = (s["at"][0], s["at"][1])
        if at not in st.map:
            raise IllegalAction("off-map", f"{ps.name}'s ship {i} at {label(at)}: there is no "
                                "system there on the laid map", action=a)
        if s.get("damaged") and not _damages_ships(st):
            raise IllegalAction("damaged", f"{ps.name}'s ship {i} at {label(at)} is damaged: "
                                "ships are damaged only with the variants (S Damaged Ships)",
                                action=a)
        out.append(Ship(i, at, bool(s.get("damaged"))))
    ps.ships = out


# ---------------------------------------------------------------------------
# the whole map, on the last player's entry
# ---------------------------------------------------------------------------
def _complete(st: State, a: dict[str, Any]) -> None:
    """Every player is laid: the checks that need the whole map, then a final position is
    the game's end."""
    nordinns = sum(1 for rv in st.revealed.values() if rv["effect"] == "nordinn_empire")
    for h, rv in sorted(st.revealed.items()):
        if rv["effect"] not in BLOCKING_EFFECTS and h not in st.colonies and not nordinns:
            raise IllegalAction("reveal", f"the {EFFECT_NAMES[rv['effect']]} at {label(h)} lies "
                                f"face-up with no City on it ({REVEAL_QUOTE}), and no Nordinn "
                                "Empire on the map destroyed one", action=a)
    extra = [p for p in st.setup.players
             if any(l.source == TRACK_SOURCE for l in st.players[p].ledger)]
    if len(extra) > nordinns:
        p = extra[0] if not nordinns else ", ".join(extra)
        raise IllegalAction("track", f"the score track of {p} holds more VP than the map shows "
                            "were scored during play: only a City destroyed by a Nordinn Empire "
                            "(\"choose one of them to destroy (return the City back to your "
                            f"reserves)\") takes VP off the map, and {nordinns} Nordinn "
                            f"Empire{'' if nordinns == 1 else 's'} on the map destroyed at most "
                            f"{nordinns} Cit{'y' if nordinns == 1 else 'ies'}", action=a)
    _ship_places(st, a, bool(nordinns))
    if st.setup.variant("open_borders"):
        paid = sum(ps.paid for ps in st.players.values())
        received = sum(ps.received for ps in st.players.values())
        if paid != received:
            raise IllegalAction("open-borders", f"the players paid {paid} Cit"
                                f"{'y' if paid == 1 else 'ies'} to pass and received {received}: "
                                "each City paid lies in front of the player passed (S Open "
                                "Borders: \"the opponent puts the City in front of him\")",
                                action=a)
    if st.setup.laid == "now":
        if st.laid_next is None:
            raise IllegalAction("lay", "say whose turn it is: \"next\": true in that player's "
                                "entry", action=a)
        return
    reason = "laid from the table at the game's end"
    if all(ps.reserve() == 0 for ps in st.players.values()):
        reason = "every City and Trade Station is on the board"
    elif not nordinns and len(st.laid_ships) == len(st.players):
        for ps in st.players.values():
            for ship in ps.ships:
                moves = destinations(st, ps, ship, first=True)
                if moves:
                    raise IllegalAction("not-over", f"{ps.name}'s ship {ship.id} at "
                                        f"{label(ship.at)} can still move (to "
                                        f"{label(next(iter(moves)))}): the game goes on \"until "
                                        "all of the players cannot move their ships anymore\" "
                                        "or \"all of the players have put all of their City and "
                                        "Trade Station on the board\" (S Game End)", action=a)
        reason = "no player can move a ship"
    st.finished, st.current = True, None
    st.end_reason = reason if reason.startswith("laid") else f"{reason} (laid from the table)"


def _ship_places(st: State, a: dict[str, Any], nordinn: bool) -> None:
    """Where a ship may stand: its homeworld, a system its player colonised (a ship ends
    every move in the system it colonises; no other ship may then enter it, S Movement:
    "CANNOT MOVE INTO ... a system that is already colonized by another player", "MOVE INTO
    a system you have already colonized"), or, damaged, the Asteroid Field or Nordinn
    Empire it revealed.  A Nordinn Empire on the map may have destroyed the City under a
    ship: then any system a ship can stop in."""
    seen: dict[Hex, str] = {}
    for ps in st.players.values():
        if ps.name not in st.laid_ships:
            continue
        for ship in ps.ships:
            h, s = ship.at, st.map[ship.at]
            where = f"{ps.name}'s ship {ship.id} at {label(h)}"
            if s.kind in ("black_hole", "wormhole"):
                raise IllegalAction("ships", f"{where}: a ship never stops in a "
                                    f"{KIND_NAMES[s.kind]} (S Movement)", action=a)
            if s.kind == "homeworld":
                if h != ps.home:
                    raise IllegalAction("ships", f"{where}: {label(h)} is another player's "
                                        "homeworld: a ship never moves into it (S Movement)",
                                        action=a)
                continue
            if h in st.blocked and not ship.damaged:
                raise IllegalAction("ships", f"{where}: the {st.blocked[h]} damaged the ship that "
                                    "revealed it (\"When you enter and reveal this system, Damage "
                                    "your ship.\") and no other ship enters it", action=a)
            if nordinn:
                continue
            c = st.colonies.get(h)
            if h not in st.blocked and (c is None or c.owner != ps.name):
                held = "uncolonised" if c is None else f"{c.owner}'s"
                raise IllegalAction("ships", f"{where}: {label(h)} is {held}, and a ship stops "
                                    f"only in the system it colonises ({COLONISE_QUOTE})",
                                    action=a)
            if h in seen:
                raise IllegalAction("ships", f"{where}: {seen[h]}'s ship stands there too; once "
                                    "colonised no ship enters a system (S Movement)", action=a)
            seen[h] = ps.name


def trusted(actions: list[dict[str, Any]], st: State) -> list[str]:
    """What a laid record takes on trust, one line per ``lay`` entry (``check`` prints
    them): the track's VP, and the part of them the map does not show; Open Borders'
    Cities."""
    out = []
    for a in actions:
        if a.get("do") != "lay" or a.get("player") not in st.players:
            continue
        p = a["player"]
        rest = sum(l.vp for l in st.players[p].ledger if l.source == TRACK_SOURCE)
        line = (f"taken on trust (laid from the table): VP during the game taken from the "
                f"score track: {p} {a['vp']} VP (the map shows {a['vp'] - rest}")
        line += f"; {rest} from the track alone)" if rest else ")"
        if "received" in a or "paid" in a:
            line += (f"; Open Borders: {p} received {a.get('received', 0)} and paid "
                     f"{a.get('paid', 0)} Cities, as laid")
        out.append(line)
    return out
