"""The words of the Small Star Empires sentence reader (:mod:`companion.sse.spoken`): its
vocabulary, and the phrases read the same wherever they stand (issue 52, "read what a
table says"):

- a direction in compass words ("east", "north east", "north-east", "northeast", "ne")
  or in the page's words ("right", "left", "up right", "up-right", "up and to the
  right", "upper left", "down left"; "to the left", "on the left", "towards the east");
  the page's hexes: E right, W left, NE up-right, NW up-left, SE down-right, SW
  down-left.  "up", "down", "north" or "south" alone name no line of the hexes;
- a count: a number, "a", "an", "a single" or "single" before a distance noun ("two
  systems", "a single step", "won hex"), or a number right before a direction ("four to
  the left", "one to the east": "to" is then no number, issue 52's "one to" read as the
  hex "1, 2").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..core import spoken as sp
from ..core.notation import NotationError
from .hexmap import Hex, System
from .incontext import SseGame

KIND = "sentence"
#: words that say nothing here (besides companion.core.spoken.FILLER)
FILLER = sp.FILLER | {
    "it", "its", "there", "let's", "lets", "let", "us", "go", "goes", "going", "gonna",
    "want", "wanna", "will", "i'm", "im", "me", "turn", "of", "yes", "yeah", "alright",
    "his", "her", "their", "our", "your", "is", "was", "got", "gets", "get",
    "be", "been", "system", "systems", "space", "spaces", "hex", "hexes", "step", "steps",
    "tile", "field", "sector", "back", "over", "well", "colonize", "colonise",
    "colonizes", "colonises", "colonized", "colonised", "colonizing", "colonising",
    "colony", "colonies", "settle", "settles", "build", "builds", "building", "place",
    "places", "placing", "put", "puts", "drop", "drops", "with", "one's", "which",
    "that", "this", "who", "plays", "says", "here", "piece", "world", "for", "thanks",
    "thank", "you", "cheers", "guys", "i'd", "like", "would", "i've", "i'm",
    # issue 52: what a table says around the action ("her only ship", "all the way east",
    # "the far blue nebula", "on the west edge"): only ever narrows nothing, so a place
    # that fits two hexes is still asked about
    "only", "edge", "side", "i'll", "ill",
    "gonna", "gotta", "drop", "dropping", "puts", "putting", "sets", "setting", "lays",
    "laying", "plop", "plops", "leave", "leaves", "make", "makes", "do", "does", "then",
    "establish", "establishes", "establishing", "found", "founds", "founding", "claim",
    "claims", "claiming", "set", "sets",
    "right", "away", "diagonal", "diagonally", "direction", "directly"}
MOVE_WORDS = {"move", "moves", "moving", "moved", "fly", "flies", "flying", "flew", "send",
              "sends", "sail", "sails", "travel", "travels", "jump", "jumps", "head",
              "heads", "warp", "warps", "take", "takes", "bring", "brings", "return",
              "returns", "returning", "limp", "limps", "limping", "sending", "zip",
              "zips", "hop", "hops", "cruise", "cruises", "steer", "steers", "drive",
              "drives", "went", "zoom", "zooms", "zooming", "scoot", "scoots"}
SHIP_WORDS = {"ship", "ships", "spaceship", "starship", "vessel", "boat"}
PREPOSITIONS = {"to", "into", "onto", "at", "on", "in", "towards", "toward", "unto", "till"}
VIA_WORDS = {"through", "thru", "via", "by", "using"}
#: a system passed on the way in a line ("past the wormhole", "beyond the blue nebula")
#: ("across the wormhole": over its hex in a line; "through the wormhole" is the jump)
PAST_WORDS = {"past", "beyond", "passing", "across"}
REPAIR_WORDS = {"repair", "repairs", "repaired", "repairing", "fix", "fixed", "fixes"}
NEGATIONS = {"not", "don't", "dont", "never", "undo", "cancel", "instead", "or", "but",
             "except", "unless", "isn't", "wasn't", "didn't", "no", "without", "doesn't",
             "won't", "can't", "cannot", "shouldn't", "wouldn't", "aren't"}
COLOURS = {"red": "red", "blue": "blue", "green": "green"}
KIND_WORDS = {"nebula": "nebula", "nebulae": "nebula", "nebulas": "nebula",
              "nebular": "nebula", "planet": "planetary", "planets": "planetary",
              "planetary": "planetary", "empty": "empty", "wormhole": "wormhole",
              "wormholes": "wormhole", "unexplored": "unexplored",
              "homeworld": "homeworld", "homeworlds": "homeworld", "home": "homeworld"}
COMPASS = {"east": "E", "west": "W", "northeast": "NE", "northwest": "NW",
           "southeast": "SE", "southwest": "SW", "ne": "NE", "nw": "NW", "se": "SE",
           "sw": "SW", "e": "E", "w": "W", "eastward": "E", "eastwards": "E",
           "westward": "W", "westwards": "W"}
#: words a phone writes for a word of the reader, that no spelling distance finds
SOUNDS_LIKE = {"blew": "blue", "bleu": "blue", "read": "red", "reds": "red"}
#: a count said after the direction ("up left twice")
TIMES = {"once": 1, "twice": 2, "thrice": 3}
#: "the broken ship": the damaged one
DAMAGED = {"damaged", "broken", "crippled", "wrecked", "busted", "hurt", "disabled"}
#: the page's words: right, left; up/down with right/left
SCREEN = {"right": "E", "left": "W"}
UP = {"up": "N", "upper": "N", "top": "N", "upward": "N", "upwards": "N", "down": "S",
      "lower": "S", "bottom": "S", "downward": "S", "downwards": "S"}
DISTANCE_NOUNS = {"space", "spaces", "step", "steps", "hex", "hexes", "system", "systems",
                  "jump", "jumps", "tile", "tiles"}
#: "a single step", "an hex": one
ONE_WORDS = {"a", "an", "single", "one"}
#: words that name a system only with their other half
HALF_WORDS = {"hole": "a black hole or a wormhole?", "holes": "black holes or wormholes?",
              "black": "a black hole?", "worm": "a wormhole?"}
#: the words a misheard word may stand for (one letter or so off)
VOCABULARY = sorted(set(MOVE_WORDS) | SHIP_WORDS | REPAIR_WORDS | set(COLOURS)
                    | set(KIND_WORDS) | {"north", "south", "east", "west", "city", "cities",
                                         "trade", "station", "stations", "damage",
                                         "damaged", "nothing", "straight", "line",
                                         "second", "third", "fourth", "first", "black",
                                         "hole", "wormhole", "colonize", "colony", "right",
                                         "left", "single"})
FUZZY = 0.85


def name_key(word: str) -> str:
    return word[:-2] if word.endswith("'s") else word


def misheard(w: str) -> str | None:
    """The one vocabulary word ``w`` is a letter or so away from, if there is one."""
    if w in SOUNDS_LIKE:
        return SOUNDS_LIKE[w]
    if len(w) < 4 or not w.isalpha():      # and only a letter longer or shorter
        return None
    ranked = [m for m in sp.rank(w, VOCABULARY) if abs(len(m.name) - len(w)) <= 1]
    if not ranked or ranked[0].score < FUZZY:
        return None
    if len(ranked) > 1 and ranked[1].score >= FUZZY:
        return None
    return ranked[0].name


def _at(ws: list[str], i: int) -> str:
    return ws[i] if 0 <= i < len(ws) else ""


def direction_at(ws: list[str], i: int) -> tuple[str, int] | None:
    """The hex direction said from ``ws[i]`` ("east", "north east", "up and to the
    right", "to the left", "on the right"), with the index after it; None when no
    direction starts there ("up" or "north" alone is none)."""
    j = i
    if _at(ws, j) in ("to", "towards", "toward", "on", "off", "in"):
        j += 1
    if _at(ws, j) in ("the", "my", "your", "his", "her", "their", "our"):
        j += 1
    w = _at(ws, j)
    if w in COMPASS:
        return COMPASS[w], j + 1
    if w in ("north", "south") and _at(ws, j + 1) in ("east", "west"):
        return COMPASS[w + ws[j + 1]], j + 2
    if w in SCREEN:                     # "right and up", "left down": up right, ...
        k = j + 1 + (_at(ws, j + 1) == "and")
        if _at(ws, k) in UP and _at(ws, k) not in ("top", "bottom"):
            return UP[_at(ws, k)] + SCREEN[w], k + 1
    if w in SCREEN and j > i and _at(ws, j + 1) not in ("next", "beside", "by"):
        return SCREEN[w], j + 1
    if w in SCREEN and j == i and _at(ws, j + 1) not in ("next", "beside", "by", "away",
                                                          "now", "there", "here"):
        return SCREEN[w], j + 1
    if w in UP:
        k = j + 1
        for skip in ("and", "to", "the"):
            if _at(ws, k) == skip:
                k += 1
        side = _at(ws, k)
        if side in SCREEN:
            return UP[w] + SCREEN[side], k + 1
    return None


def count_at(ws: list[str], i: int) -> tuple[int, int] | None:
    """A count said from ``ws[i]`` ("two systems", "a single step", "3 hexes", or a
    number right before a direction: "four to the left"), with the index after it (the
    distance noun read); None when none starts there."""
    j, n = i, None
    if _at(ws, j) in ("a", "an") and _at(ws, j + 1) == "single":
        j, n = j + 2, 1
    elif _at(ws, j) in ("a", "an", "single"):
        j, n = j + 1, 1
    else:
        n = sp.number(_at(ws, j))
        if n is None:
            return None
        j += 1
    if _at(ws, j) in DISTANCE_NOUNS and (ws[i] not in ("a", "an") or _at(ws, j) not in (
            "system", "systems")):          # "a system east" is some system east
        return n, j + 1
    if ws[i] not in ("a", "an") and (direction_at(ws, j) is not None
                                     or _at(ws, j) in ("away", "over")):
        return n, j
    return None


def passed(ws: list[str], j: int) -> int:
    """The index after a system named as passed on the way ("the wormhole", "Ann's two
    planets", "the blue nebula", "Ben's trade station"); ``j`` when none is named."""
    start, named = j, False
    while j < len(ws):
        w, nxt = ws[j], _at(ws, j + 1)
        if named and w in ("city", "cities", "trade", "station", "stations", "the", "a", "an"):
            break                       # "past the wormhole, city": the piece, not the system
        if w in ("the", "a", "an", "my", "his", "her", "their", "own") or w.endswith("'s"):
            j += 1
        elif w in COLOURS or w in KIND_WORDS and w not in ("home", "homeworld") or w in (
                "city", "station", "stations", "cities", "system", "systems"):
            j, named = j + 1, True
        elif w in ("worm", "black", "trade") and nxt in ("hole", "holes", "station"):
            j, named = j + 2, True
        elif sp.number(w) is not None and nxt in ("planet", "planets", "planetary"):
            j, named = j + 2, True
        else:
            break
    return j if named else start


# -- the phrases: read into what the sentence said ---------------------------------------
@dataclass
class Said:
    """What the sentence said, field by field (None: not said)."""
    player: str | None = None
    kind: str | None = None
    ship: int | None = None
    frm: Hex | None = None
    frm_home: bool = False
    frm_on: "Said | None" = None        # "the ship on the blue nebula"
    damaged: bool = False
    undamaged: bool = False
    to: Hex | None = None
    home_of: str | None = None          # "" for the player's own homeworld
    system: str | None = None           # a system's kind
    colour: str | None = None
    planets: int | None = None
    direction: str | None = None
    distance: int | None = None
    via: str | None = None
    piece: str | None = None
    nothing: bool = False
    repair: bool = False
    vertical: str | None = None         # "up" / "down" alone: N / S, no hex direction
    ref: Hex | None = None              # a direction counted from a hex ("east of 2 2")
    ref_home: str | None = None         # ... from a homeworld ("" the player's own)
    farthest: bool = False              # "all the way": the last hex of the line
    nearest: bool = False               # "the nearest blue nebula"
    near_on: "Said | None" = None       # next to a system so described ("her green one")
    near_owner: str | None = None       # ... of that player ("" the one acting)
    near_other: bool = False            # ... the other end of the wormhole
    of_system: bool = False             # the direction is from that system ("east of")
    near: bool = False                  # next to the reference ("next to my homeworld")

    def put(self, key: str, value: Any) -> None:
        old = getattr(self, key)
        if old is not None and old is not False and old != value:
            raise NotationError(f"{KIND}: two {key.replace('frm', 'ships')}s said: "
                                f"{show(old)} and {show(value)}")
        setattr(self, key, value)


def show(v: Any) -> str:
    return f"{v[0]},{v[1]}" if isinstance(v, tuple) else str(v)


def player_named(game: SseGame, w: str) -> str | None:
    """The player a word names: spelt so, or (a word of four letters or more that is no
    other word of the reader) sounding so ("Been" for Ben, "Anne's" for Ann); None when
    it names none or two."""
    key = sp.squash(name_key(w))
    players = list(game.setup.players)
    exact = next((p for p in players if key and sp.squash(p) == key), None)
    if exact is not None or len(key) < 4 or key in VOCABULARY or key in COMPASS:
        return exact
    heard = sp.skeleton(key)            # how it sounds, as both readers compare names
    alike = [p for p in players if len(heard) >= 2 and sp.skeleton(p) == heard]
    if not alike and key.endswith("s"):                 # "bens": Ben's, unwritten
        alike = [p for p in players if sp.squash(p) == key[:-1]]
    return alike[0] if len(alike) == 1 else None


def corner(game: SseGame, vertical: str, side: str) -> Hex:
    """The map's corner system: of its top (N) or bottom (S) row, the leftmost (W) or
    rightmost (E) one."""
    hexes = list(game.state.map.systems)
    row = (min if vertical == "N" else max)(h[1] for h in hexes)
    return (min if side == "W" else max)((h for h in hexes if h[1] == row), key=lambda h: h[0])


def place_words(game: SseGame, ws: list[str], i: int, s: Said) -> int | None:
    """A count, a direction or "next to it" starting at ``ws[i]``: the index after it
    (None: none starts there)."""
    w = ws[i]
    nxt = _at(ws, i + 1)
    k = i
    while _at(ws, k) in ("to", "in", "at", "into", "the"):
        k += 1
    if _at(ws, k) in UP and _at(ws, k + 1) in SCREEN and _at(ws, k + 2) == "corner":
        s.put("to", corner(game, UP[ws[k]], SCREEN[ws[k + 1]]))     # "the top right corner"
        return k + 3
    if w in sp.HOMOPHONES and nxt in DISTANCE_NOUNS and nxt.endswith("s"):
        return _distance((sp.HOMOPHONES[w], i + 1), s)     # "to spaces east": two
    if w in ("single", "lone", "double", "triple") and nxt in ("planet", "planets", "planetary"):
        s.put("planets", {"single": 1, "lone": 1, "double": 2, "triple": 3}[w])
        s.put("system", "planetary")
        return i + 2
    if w in ("one", "a", "any") and nxt in SHIP_WORDS:
        return i + 1                    # "fly one ship west": a ship, not ship #1
    if w in ("first", "last") and (nxt in SHIP_WORDS or nxt in ("one", "ones")):
        return None                     # "my first ship": an ordinal
    if w in ("far", "farthest", "furthest", "farther", "further", "last", "end"):
        s.farthest = True               # "the far blue nebula": of them, the farthest
        return i + 1
    if w in ("nearest", "closest", "near", "nearer", "closer", "first"):
        s.nearest = True
        return i + 1
    if w == "all" and ws[i + 1:i + 3] == ["the", "way"]:
        s.farthest = True               # "all the way east": as far as the line goes
        return i + 3
    if w in ("a", "an", "single"):
        counted = count_at(ws, i)
        if counted is not None:
            return _distance(counted, s)
    if w in ("next", "beside", "adjacent", "besides", "neighbouring", "neighboring"):
        return _next_to(game, ws, i, s)
    if direction_at(ws, i) is not None:
        return direction_phrase(game, ws, i, s)
    return None


def _next_to(game: SseGame, ws: list[str], i: int, s: Said, *,
             what: str = "next to what? say the hex (\"to one zero\") or the way "
                         "(\"one step east\")") -> int:
    """ "next to it" (one step), "next to my homeworld", "next to her green one", "next
    to the other end" (of the wormhole): the index after it."""
    j = i + 1 + (i + 1 < len(ws) and ws[i + 1] in ("to", "door"))
    on = Said()
    k, named, owner = system_words(game, ws, j, on)
    x, nx = _at(ws, k), _at(ws, k + 1)
    if not named and (x in ("it", "me", "us", "him", "her", "them") or x in SHIP_WORDS):
        s.put("distance", 1)
        return k + 1
    if not named and x in ("home", "homeworld"):
        s.put("ref_home", owner or "")
        s.near = True
        return k + 1 + (nx == "world")
    if not named:
        raise NotationError(f"{KIND}: {what}")
    s.near_on, s.near_owner = on, owner
    return k


def system_words(game: SseGame, ws: list[str], j: int, on: Said
                 ) -> tuple[int, bool, str | None]:
    """A system described from ``ws[j]`` ("her green one", "Ann's three planet system",
    "the other end", "Ben's trade station"), put in ``on``: the index after it, whether
    a system was named, and its owner ("" the one acting; None: not said)."""
    owner: str | None = None
    named = False
    while j < len(ws):
        x, nx = ws[j], _at(ws, j + 1)
        if x in ("my", "our", "his", "their", "own") or x == "her" and nx not in (
                "", "and", "then"):
            owner, j = owner or "", j + 1
        elif x.endswith("'s") and player_named(game, x) is not None:
            owner, j = player_named(game, x), j + 1
        elif sp.number(x) is not None and nx in ("planet", "planets", "planetary"):
            on.put("planets", sp.number(x))
            on.put("system", "planetary")
            j, named = j + 2, True
        elif x in ("the", "a", "an", "system", "systems") or (
                x in ("one", "ones") and named and count_at(ws, j) is None):
            j += 1                      # "her green one" (not "... one step right")
        elif x in COLOURS or x in KIND_WORDS and x not in ("home", "homeworld"):
            on.put("colour" if x in COLOURS else "system", (COLOURS | KIND_WORDS)[x])
            j, named = j + 1, True
        elif x in ("other", "far") and nx in ("end", "side", "wormhole"):
            on.put("system", "wormhole")
            on.near_other, j, named = True, j + 2, True
        elif x in ("worm", "black") and nx in ("hole", "holes"):
            on.put("system", "wormhole" if x == "worm" else "black_hole")
            j, named = j + 2, True
        elif not named and (x in ("city", "cities") or x == "trade" and nx in (
                "station", "post")):            # "next to Ben's city" (not "..., city")
            on.put("piece", "city" if x != "trade" else "trade_station")
            j, named = j + (1 if x != "trade" else 2), True
        else:
            break
    return j, named, owner


def _distance(counted: tuple[int, int], s: Said) -> int:
    if counted[0] <= 0:
        raise NotationError(f"{KIND}: a ship moves at least one system")
    s.put("distance", counted[0])
    return counted[1]


def from_place(ws: list[str], i: int, s: Said, game: SseGame | None = None) -> int | None:
    """Where the ship stands, said after ``ws[i]`` ("from one zero", "at 1 0", "from
    home", with ``game`` "from the three planet system"): put in ``s``, with the index
    after it; None when no place follows."""
    got = sp.pair(ws, i + 1)
    if got:
        s.put("frm", got[0])
        return got[1]
    j = i + 1
    while j < len(ws) and (ws[j] in ("my", "the", "own", "our") or ws[i] in ("on", "from")
                           and ws[j] in ("his", "her", "their")):
        j += 1
    if j < len(ws) and ws[j] in ("home", "homeworld"):
        s.frm_home = True
        return j + 1 + (j + 1 < len(ws) and ws[j + 1] == "world")
    if game is not None:
        on = Said()
        j, named, _ = system_words(game, ws, i + 1, on)
        if named and not on.near_other:
            s.frm_on = on               # "the ship on my three planet system"
            return j
    return None


def ship_phrase(game: SseGame, ws: list[str], i: int, s: Said) -> int:
    """After "ship": its number, or where it stands ("at 1 0", "at home")."""
    if i < len(ws) and ws[i] in ("number", "no", "num"):
        i += 1
    while i < len(ws) and ws[i] in SHIP_LINKS:
        i += 1                                  # "the ship still at home"
    if i >= len(ws):
        return i
    w, after = ws[i], (ws[i + 1] if i + 1 < len(ws) else "")
    n = sp.number(w)
    if n is not None and (count_at(ws, i) is not None and (
            after in DISTANCE_NOUNS or s.damaged or s.undamaged or _no_ship(game, s, n))):
        return i                                # "ship one space east": a distance
    if n is not None:
        if n < 0:
            raise NotationError(f"{KIND}: no ship {n}: ships are numbered from 0")
        s.put("ship", n)
        return i + 1
    if w in sp.HOMOPHONES and (after in PREPOSITIONS or after in VIA_WORDS or after in COMPASS
                               or after in ("and", "then", "city", "cities", "trade",
                                            "from", "north", "south")):
        s.put("ship", sp.HOMOPHONES[w])         # "ship too to one zero"
        return i + 1
    if w in ("at", "on", "in", "from"):
        j = from_place(ws, i, s, game)
        if j is not None:
            return j
    return i


#: words between "ship" and where it stands ("the ship still at home")
SHIP_LINKS = {"still", "that's", "thats", "which", "that", "is", "currently", "sitting",
              "standing", "parked", "waiting", "now", "already"}


def _no_ship(game: SseGame, s: Said, n: int) -> bool:
    """The acting player has one ship, and ``n`` can be no ship even counted from 1
    ("send the ship two west"); with more ships, or "ship one" (the first?), a ship."""
    who = acting(game, s)
    ps = game.state.players.get(who) if who is not None else None
    return ps is not None and len(ps.ships) == 1 and n >= 2


def direction_phrase(game: SseGame, ws: list[str], i: int, s: Said) -> int:
    got = direction_at(ws, i)
    if got is None:
        w = ws[i]
        raise NotationError(f"{KIND}: \"{w}\" alone is no line of the hexes: "
                            f"{w} east or {w} west?")
    s.put("direction", got[0])
    i = got[1]
    if _at(ws, i) == "by" and sp.number(_at(ws, i + 1)):   # "east by two"
        i += 1
    n = sp.signed(ws, i)
    if _at(ws, i) in TIMES:                   # "up left twice"
        n = TIMES[ws[i]], i + 1
    if n is not None and n[0] > 0 and sp.pair(ws, i) is None \
            and _at(ws, n[1]) not in ("planet", "planets", "planetary"):   # "east, one planet"
        s.put("distance", n[0])
        i = n[1]
        if i < len(ws) and ws[i] in DISTANCE_NOUNS:
            i += 1
    if i < len(ws) and ws[i] == "of":       # "east of my homeworld"
        return _reference(game, ws, i + 1, s)
    return i


def _reference(game: SseGame, ws: list[str], i: int, s: Said) -> int:
    """What a direction is counted from ("of my homeworld", "of it", "of 2 2", "of the
    red nebula": a system described, :func:`_next_to`)."""
    start = i
    if _at(ws, i) in ("him", "her", "them") and not (
            _at(ws, i + 1) in COLOURS or _at(ws, i + 1) in KIND_WORDS
            or _at(ws, i + 1) in ("own", "city", "trade", "ship", "one", "two", "three")):
        return i + 1                    # "up right of him": of the ship that moves
    while i < len(ws) and ws[i] in ("the", "my", "his", "her", "their", "our", "own"):
        i += 1
    w = ws[i] if i < len(ws) else ""
    if w in ("it", "me", "us", "here") or w in SHIP_WORDS:
        return i + 1                    # the ship itself: what a direction is from
    got = sp.pair(ws, i)
    if got:
        s.put("ref", got[0])
        return got[1]
    owner = w[:-2] if w.endswith("'s") else None
    if owner is not None and i + 1 < len(ws):
        i, w = i + 1, ws[i + 1]
    if w in ("home", "homeworld"):
        s.put("ref_home", owner or "")
        return i + 1 + (i + 1 < len(ws) and ws[i + 1] == "world")
    s.of_system = True                  # "east of the red nebula"
    return _next_to(game, ws, start - 1, s, what="a direction from what? (\"east of my "
                    "homeworld\")")


def number_phrase(ws: list[str], i: int, s: Said) -> int:
    """A number not after "ship" or "to": a hex (two numbers), a distance (before a
    direction), or the planets of a system ("the two planet system")."""
    n = sp.number(ws[i])
    assert n is not None
    nxt = ws[i + 1] if i + 1 < len(ws) else ""
    if nxt in ("planet", "planets", "planetary"):
        s.put("planets", n)
        s.put("system", "planetary")
        return i + 2
    counted = count_at(ws, i)
    if counted is not None:
        return _distance(counted, s)
    got = sp.pair(ws, i)
    if got:
        s.put("to", got[0])
        return got[1]
    raise NotationError(f"{KIND}: the number \"{ws[i]}\" alone: a hex is two numbers "
                        "(\"to one zero\"), a ship \"ship one\"")


# -- the action -----------------------------------------------------------------------
def acting(game: SseGame, s: Said) -> str | None:
    if s.player is not None:
        return s.player
    able = [p for p in game.setup.players if game.may_act(p)]
    return able[0] if len(able) == 1 else None


def describe(s: Said) -> str:
    parts = []
    if s.planets is not None:
        parts.append(f"{s.planets}-planet")
    if s.colour:
        parts.append(s.colour)
    parts.append({"planetary": "planetary system", "black_hole": "black hole",
                  "homeworld": "homeworld", None: "system"}.get(s.system, s.system or ""))
    if s.direction:
        parts.append(f"{s.distance or ''} {s.direction}".strip())
    return " ".join(parts)


def fits(s: Said, sys: System | None) -> bool:
    if sys is None:
        return False
    kind = s.system or ("nebula" if s.colour else None)
    if kind == "planetary" and sys.kind == "unexplored" and sys.effect == "planetary":
        return False
    if kind is not None and sys.kind != kind:
        return False
    if s.colour is not None and sys.colour != s.colour:
        return False
    return s.planets is None or sys.planets == s.planets


def on_line(a: Hex, d: Hex, h: Hex, n: int | None) -> bool:
    return any((a[0] + k * d[0], a[1] + k * d[1]) == h and n in (None, k) for k in range(1, 99))
