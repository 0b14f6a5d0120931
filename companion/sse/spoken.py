"""A Small Star Empires action said as a sentence (issue 40, "Hands-free"): what a player
dictates at the table ("Ben: trade station to the red nebula", "move my damaged ship
home and repair it", "damage ship one") read into the partial action a line of notation
gives (``actions.parse(text, who_optional=True).to_dict()``), which
:func:`companion.sse.incontext.complete` completes and checks (:meth:`SseGame.parse`).

Understood (the book's words: "Move one of you ships and then colonize the system you
have moved into" "by placing either a City or a Trade Station"):

- the player: a leading name ("Ben: ...", "Ben moves ...", a misheard letter allowed,
  :func:`companion.core.spoken.pick`), or a name said as it is written;
- the kind: a move (the default) or a damage ("damage ship one", "ship one is damaged");
  a repair ("home and repair it": the damaged ship goes home and colonises nothing);
- the piece: "city", "trade station", "nothing" / "no piece".  "Colony" / "colonize" is
  the book's act, not a piece: the piece is left to the position (never a guess);
- the ship: "ship two", "ship #2", "number two" (the notation's numbers, from 0), "my
  second ship" (the first is #0), "the ship at 1 0", "from home", "the ship on the blue
  nebula", "the damaged ship", "the undamaged ship";
- the destination: a hex ("to 1 -1", "to one minus one", "at 2 0"); what lies there
  ("the red nebula", "the two planet system", "the empty system", "home", "Bob's
  homeworld", "the wormhole"), among the legal destinations, else the only such system
  on the map or in a line from the ship (the rules then say why it cannot be entered);
  a direction and a distance ("two north east", "north-east two", "east"), in the page's
  words too ("three steps up and to the left", "a single space right", "one to the east":
  :mod:`companion.sse.spoken_words`); "all the way east" (the last hex of that line);
  a direction from a homeworld ("the empty system just east of my homeworld"), "next to
  my homeworld", "next to it" (one step);
- the way: "through the wormhole" (``wormhole``), "in a line" / "straight" / "past the
  wormhole" / "through the three planets" (``line``).

Never a wrong action (issue 52): a direction, a count or "up"/"down" said must agree
with the hex chosen (else NotationError); another player's turn is said before any
question.

Never a guess: two ships or systems that fit raise ``IncompleteNotation`` listing them;
a word not understood (it could change the meaning) is a ``NotationError``.  A misheard
word is read as the one vocabulary word a letter away (``spoken.rank`` 0.85 or more, 4
letters or more, one letter longer or shorter at most: "read nebula" is the red nebula,
"plant" a planet; "undamaged" is never "damaged"); "north" or "south" alone are no line
of the hexes (refused).  Reading changes nothing.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..core import spoken as sp
from ..core.errors import IllegalAction
from ..core.notation import IncompleteNotation, NotationError
from .hexmap import DIRECTIONS, Hex, distance, neighbours
from .incontext import SseGame
from .movement import route
from .rules import IllegalMove
from .spoken_words import (COLOURS, COMPASS, DAMAGED, FILLER, HALF_WORDS, KIND, KIND_WORDS,
                           MOVE_WORDS, NEGATIONS, PAST_WORDS, PREPOSITIONS, REPAIR_WORDS,
                           SHIP_WORDS, Said, UP, VIA_WORDS, VOCABULARY, acting, count_at,
                           describe, direction_phrase, fits, from_place, misheard,
                           name_key, number_phrase, on_line, passed, place_words,
                           player_named, ship_phrase, show)
from .spoken_talk import table_talk
from .state import Ship, State

__all__ = ["FILLER", "VOCABULARY", "read_sentence"]

#: the keys in the order a line of notation gives them (``actions.parse(...).to_dict()``)
ORDER = ("do", "player", "ship", "from", "to", "via", "piece")


def read_sentence(game: SseGame, text: Any, player: str | None = None) -> dict[str, Any]:
    """The partial action a sentence says, in the notation's shape (keys ``do``,
    ``player``, ``ship``, ``from``, ``to``, ``via``, ``piece``), for
    :func:`companion.sse.incontext.complete`.  NotationError (IncompleteNotation when
    the position holds two or more things the sentence may mean); a query.  ``player``:
    the seat page's player, whose action an unnamed sentence is (on another player's
    turn the line says so before any question: IllegalAction ``wrong-player``)."""
    if not isinstance(text, str):
        raise NotationError(f"{KIND}: expected a line of text, not {type(text).__name__}")
    if "\n" in text.strip() or "\r" in text.strip():
        raise NotationError(f"{KIND}: one action is one line")
    sp.refuse_question(text)
    text = table_talk(text)
    ws = sp.words(text)
    s = Said()
    i = _leading_player(game, text, ws, s)
    if player is not None and s.player is None and player in game.setup.players:
        s.player = player
    while i < len(ws):
        i = _step(game, ws, i, s)
    if player is not None and s.player != player:
        raise IllegalMove("wrong-player", f"this page enters {player}'s actions, not "
                          f"{s.player}'s", action={"do": s.kind or "move", "player": s.player})
    d = _build(game, s)
    return {k: d[k] for k in ORDER if k in d} | {k: v for k, v in d.items() if k not in ORDER}


# -- the words ------------------------------------------------------------------------
def _leading_player(game: SseGame, text: str, ws: list[str], s: Said) -> int:
    """The name the sentence starts with ("Ben: ...", "Ben moves ..."): the index after it."""
    players = list(game.setup.players)
    head, colon, _ = text.partition(":")
    if colon and re.search(r"[^\W\d_]", head) and not re.search(r"[0-9]", head):
        n = len(sp.words(head))
        named = [name_key(w) for w in ws[:n] if w not in FILLER and w not in MOVE_WORDS]
        if 0 < n <= 4 and named and not all(_known(w) or w in REPAIR_WORDS for w in named):
            # "Ann:", "Ann's turn:" (a word of the game's, "repair:", names nobody)
            s.player = sp.pick(" ".join(named), players, "player", KIND, field="player")
            return n
    for n in (3, 2, 1):
        if n > len(ws) or any(w in FILLER or w in PREPOSITIONS or _known(w) for w in ws[:n]):
            continue
        said = " ".join(name_key(w) for w in ws[:n])
        ranked = sp.rank(said, players)
        if ranked and ranked[0].score >= sp.TAKE:
            s.player = sp.pick(said, players, "player", KIND, field="player")
            return n
    return 0


def _known(w: str) -> bool:
    return (w in VOCABULARY or w in COMPASS or w in VIA_WORDS or w in NEGATIONS
            or sp.number(w) is not None or w in ("from", "number", "pass"))


def _step(game: SseGame, ws: list[str], i: int, s: Said) -> int:
    """Read the phrase starting at ``ws[i]``; the index after it."""
    w = ws[i]
    nxt = ws[i + 1] if i + 1 < len(ws) else ""
    if w in ("no", "without") and nxt in ("piece", "pieces"):
        s.put("nothing", True)
        return i + 2
    if w == "nothing":
        s.put("nothing", True)
        return i + 1
    if w in NEGATIONS:
        raise NotationError(f"{KIND}: \"{w}\" could change what was meant: say the action "
                            "once, as it was done")
    if w == "pass":
        raise NotationError(f"{KIND}: a player who cannot move passes by the rules; "
                            "nothing is entered")
    if w in ("trade", "trading", "tradestation", "tradestations"):
        if w.startswith("tradestation"):
            s.put("piece", "trade_station")
            return i + 1
        if nxt in ("station", "stations", "post"):
            s.put("piece", "trade_station")
            return i + 2
        raise NotationError(f"{KIND}: \"{w}\" alone: a Trade Station?")
    if w in ("city", "cities"):
        s.put("piece", "city")
        return i + 1
    if w in MOVE_WORDS:
        s.put("kind", "move")
        return i + 1
    if w in ("damage", "damages"):
        s.put("kind", "damage")
        return i + 1
    if w in ("undamaged", "healthy", "intact"):
        s.undamaged = True
        return i + 1
    if w in ("put", "puts", "putting", "set", "sets", "lay", "lays", "laying", "place",
             "places", "placing", "drop", "drops", "settle", "settles") and nxt == "down":
        return i + 2
    if w in ("set", "sets", "setting", "setup") and nxt == "up":   # "set up a city"
        return i + 2
    j = place_words(game, ws, i, s)
    if j is not None:
        return j
    if w in ("wormhole", "wormholes") and nxt in ("jump", "jumps"):
        s.put("via", "wormhole")
        return i + 2
    if w in DAMAGED and (w == "damaged" or nxt in SHIP_WORDS):
        if nxt in SHIP_WORDS or nxt == "one":
            s.damaged = True
            return i + (2 if nxt == "one" else 1)
        s.put("kind", "damage")
        return i + 1
    if w in REPAIR_WORDS:
        s.repair = True
        return i + 1
    if w in SHIP_WORDS or w == "number":
        return ship_phrase(game, ws, i + 1, s)
    if w in sp.ORDINALS:
        if nxt in SHIP_WORDS or nxt == "one":
            s.put("ship", sp.ORDINALS[w] - 1)
            return i + 2
        raise NotationError(f"{KIND}: \"{w}\" what? (\"my {w} ship\")")
    if w == "from":
        j = from_place(ws, i, s, game)
        if j is not None:
            return j
        raise NotationError(f"{KIND}: from where? (\"from one zero\", \"from home\")")
    if w in PREPOSITIONS:
        got = sp.pair(ws, i + 1)
        if got:
            s.put("to", got[0])
        return got[1] if got else i + 1
    if w in VIA_WORDS:
        j = i + 1
        while j < len(ws) and ws[j] in FILLER:
            j += 1
        if j < len(ws) and ws[j] in ("wormhole", "wormholes", "worm"):
            s.put("via", "wormhole")
            return j + (2 if ws[j] == "worm" and j + 1 < len(ws) and ws[j + 1] in (
                "hole", "holes") else 1)
        k = passed(ws, j)
        if k > j:                       # through a system on the way: a line
            s.put("via", "line")
            return k
        raise NotationError(f"{KIND}: through what? (\"through the wormhole\")")
    if w in PAST_WORDS:
        j = passed(ws, i + 1)
        if j == i + 1:
            raise NotationError(f"{KIND}: {w} what? (\"past the wormhole\")")
        s.put("via", "line")
        return j
    if w in ("line", "straight"):
        s.put("via", "line")
        return i + 1
    if w == "worm" and nxt in ("hole", "holes"):
        s.put("system", "wormhole")
        return i + 2
    if w == "black" and nxt in ("hole", "holes"):
        s.put("system", "black_hole")
        return i + 2
    if w in ("home", "homeworld", "homeworlds") and (nxt in SHIP_WORDS or (
            nxt == "world" and i + 2 < len(ws) and ws[i + 2] in SHIP_WORDS)):
        s.frm_home = True                       # "the home ship": the ship at home
        return i + 2 + (nxt == "world")
    if w in ("home", "homeworld", "homeworlds"):
        s.put("home_of", "")
        return i + 1 + (nxt == "world")
    if w in COLOURS:                    # "the blue one" (not "blue one step east")
        s.put("colour", COLOURS[w])
        return i + 1 + (nxt in ("one", "ones") and count_at(ws, i + 1) is None)
    if w in KIND_WORDS:
        s.put("system", KIND_WORDS[w])
        return i + 1 + (nxt in ("one", "ones") and count_at(ws, i + 1) is None)
    if w in COMPASS or w in ("north", "south"):
        return direction_phrase(game, ws, i, s)
    if sp.number(w) is not None:
        return number_phrase(ws, i, s)
    if w in UP:                                 # "up" alone: a half of the map
        s.put("vertical", UP[w])
        return i + 1
    owner = player_named(game, w)
    if owner is not None:
        if nxt in ("home", "homeworld"):
            s.put("home_of", owner)
            return i + 2 + (i + 2 < len(ws) and ws[i + 2] == "world")
        s.put("player", owner)
        return i + 1
    if w in FILLER:
        return i + 1
    if w in HALF_WORDS:
        # half of "black hole" or "worm hole": said alone, it names nothing (issue 52: the
        # reader took it for a misheard word, itself, and recursed until RecursionError)
        raise NotationError(f"{KIND}: \"{w}\" alone: {HALF_WORDS[w]}")
    heard = misheard(w)
    if heard is not None and heard != w:
        return _step(game, ws[:i] + [heard] + ws[i + 1:], i, s)
    raise NotationError(f"{KIND}: cannot understand \"{w[:40]}\"")


def _build(game: SseGame, s: Said) -> dict[str, Any]:
    kind = s.kind or "move"
    d: dict[str, Any] = {"do": kind}
    if s.player is not None:
        d["player"] = s.player
    who = acting(game, s)
    if s.colour and s.system not in (None, "nebula"):
        raise NotationError(f"{KIND}: a {s.colour} {s.system}? only a nebula has a colour")
    if s.planets is not None and not 1 <= s.planets <= 3:
        raise NotationError(f"{KIND}: a planetary system has 1 to 3 planets")
    if s.player is not None and not game.state.finished and not game.may_act(s.player) \
            and kind != "damage":       # a ship is damaged on any turn (the rules check it)
        raise IllegalMove("wrong-player", f"it is {game.state.current}'s turn",
                          action=d | {"do": kind})   # before any question (issue 52)
    states = game.state.players
    ps = states.get(who) if who is not None else None
    if s.frm_home and ps is not None:
        s.put("frm", ps.home)
    if kind == "damage" and s.frm_on is None and (s.system or s.colour or s.piece or s.planets
                                                  ) and not (s.to or s.direction or s.via):
        s.frm_on = Said(system=s.system, colour=s.colour, planets=s.planets, piece=s.piece)
        s.system = s.colour = s.piece = s.planets = None   # "is damaged on the trade station"
    if s.frm_on is not None and ps is not None:
        on = s.frm_on
        there = [sh.id for sh in ps.ships if fits(on, game.state.map.get(sh.at))
                 and s.ship in (None, sh.id) and on.piece in (None, getattr(
                     game.state.colonies.get(sh.at), "piece", None))]
        if not there:
            raise NotationError(f"{KIND}: no ship of {who} is on a {describe(on)}")
        if len(there) > 1:
            raise IncompleteNotation("ship", f"{KIND}: which ship on a {describe(on)}: "
                                     + " or ".join(f"#{h}" for h in there) + "?", there)
        s.ship = there[0]
    if s.damaged:
        if ps is None:
            raise IncompleteNotation("player", f"{KIND}: whose damaged ship?")
        hurt = [sh.id for sh in ps.ships if sh.damaged and s.frm in (None, sh.at)]
        if s.ship is not None and s.ship not in hurt:
            raise NotationError(f"{KIND}: ship {s.ship} of {who} is not damaged")
        if not hurt:
            raise NotationError(f"{KIND}: {who} has no damaged ship")
        if len(hurt) > 1 and s.ship is None:
            raise IncompleteNotation("ship", f"{KIND}: which damaged ship: "
                                     + " or ".join(f"#{h}" for h in hurt) + "?", hurt)
        s.ship = hurt[0] if s.ship is None else s.ship
    if s.undamaged and ps is not None:
        whole = [sh.id for sh in ps.ships if not sh.damaged and s.frm in (None, sh.at)
                 and s.ship in (None, sh.id)]
        if len(whole) != 1:
            raise IncompleteNotation("ship", f"{KIND}: which undamaged ship: "
                                     + " or ".join(f"#{h}" for h in whole) + "?", whole)
        s.ship = whole[0]
    if s.ship is not None and ps is not None and not 0 <= s.ship < len(ps.ships):
        raise IllegalMove("no-ship", f"{who} has no ship {s.ship} (ships #0 to "
                          f"#{len(ps.ships) - 1})", action=d | {"ship": s.ship})
    if s.ship is not None:
        d["ship"] = s.ship
    if s.frm is not None:
        d["from"] = list(s.frm)
    if kind == "damage" and s.frm is None and ps is not None and not (
            s.system or s.colour or s.direction or s.piece or s.via or s.repair):
        # "ship two takes damage at home", "... is damaged on 3 1": where the ship stands
        if s.home_of is not None:
            owner = states.get(s.home_of or who or "")
            s.frm, s.home_of = (owner.home if owner is not None else None), None
        elif s.to is not None:
            s.frm, s.to = s.to, None
        if s.frm is not None:
            d["from"] = list(s.frm)
    if kind == "damage":
        if (s.to or s.home_of is not None or s.system or s.colour or s.direction or s.piece
                or s.via or s.repair or s.nothing):
            raise NotationError(f"{KIND}: a damaged ship is damaged where it stands: say "
                                "only which ship (\"damage ship one\")")
        return d
    if s.home_of is not None and ps is not None:
        owner = states.get(s.home_of or who or "")
        home = owner.home if owner is not None else None
        if s.to is not None and s.to != home:
            raise NotationError(f"{KIND}: home and {show(s.to)}: two destinations")
        s.to = home
        if s.system == "homeworld":
            s.system = None
    elif s.repair and ps is not None:
        if s.to is not None and s.to != ps.home:
            raise NotationError(f"{KIND}: a repair is at home, not at {show(s.to)}")
        s.to = ps.home
    if s.repair and s.piece:
        raise NotationError(f"{KIND}: a repair at home colonises nothing")
    if s.ship is None and ps is not None and kind == "move":
        alike = [sh for sh in ps.ships if s.frm in (None, sh.at)]
        # issue 52, "no question whose answers are the same": every ship the sentence may
        # mean stands on one system (the opening turn: all on the homeworld), so the line
        # takes the lowest-numbered (a line of notation too: incontext._move)
        if len(alike) > 1 and len({(sh.at, sh.damaged) for sh in alike}) == 1:
            s.ship = alike[0].id        # the same move whichever: the lowest number
    if ps is not None and who is not None and (s.ref is not None or s.ref_home is not None):
        _from_reference(game, who, s)
    if s.near_on is not None and ps is not None and who is not None:
        _next_to(game, who, s)
    if s.vertical and not s.direction and s.to is None:
        raise NotationError(f"{KIND}: \"{'up' if s.vertical == 'N' else 'down'}\" alone is "
                            "no line of the hexes: up right or up left, down right or down "
                            "left?")
    to_sys = game.state.map.get(s.to) if s.to is not None else None
    if s.system == "wormhole" and to_sys is not None and to_sys.kind != "wormhole" \
            and s.via in (None, "wormhole"):
        s.system, s.via = None, "wormhole"      # "the wormhole to 1 3": the way, not the end
    described = (s.system or s.colour or s.planets is not None or s.direction)
    if (s.farthest or s.nearest) and s.to is not None and who is not None:
        alone = replace(s, to=None, system=None, colour=None, planets=None) if (
            s.direction) else replace(s, to=None)
        if _destination(game, who, alone) != s.to:
            raise NotationError(f"{KIND}: {show(s.to)} is not the "
                                f"{'farthest' if s.farthest else 'nearest'} {describe(s)}")
    if described and s.to is not None:
        if (s.system or s.colour or s.planets is not None) and not fits(
                s, game.state.map.get(s.to)):
            raise NotationError(f"{KIND}: {show(s.to)} is no {describe(s)}")
    elif described and who is not None and ps is not None:
        s.to = _destination(game, who, s)
    if s.to is not None and ps is not None and kind == "move":
        _agree(ps.ships, s)
        if s.via is not None and not s.repair:
            _the_way(game, who, s, d)
    if s.ship is not None and "ship" not in d:
        d["ship"] = s.ship
    if s.to is not None:
        d["to"] = list(s.to)
    if s.via is not None:
        d["via"] = s.via
    if s.piece is not None:
        d["piece"] = s.piece
    elif s.nothing and not (ps is not None and s.to == ps.home):
        d["piece"] = None
    return d


def _destination(game: SseGame, who: str, s: Said) -> Hex:
    """The one hex the description fits among the ships' legal destinations, else the
    one such system on the map (the rules then say why it cannot be entered)."""
    st = game.state
    ps = st.players[who]
    ships = [sh for sh in ps.ships if s.ship in (None, sh.id) and s.frm in (None, sh.at)]
    found: dict[Hex, list[int]] = {}
    for sh in ships:
        for m in game.legal_moves(who, sh.id):
            if s.piece is not None and m.kind != "repair" and s.piece not in m.pieces:
                continue
            if (s.system or s.colour or s.planets is not None) and not fits(s, m.system or
                                                                            st.map.get(m.to)):
                continue
            if s.direction is not None and (m.via != "line" or m.direction != s.direction):
                continue
            if s.distance is not None and m.distance != s.distance:
                continue
            if s.via == "wormhole" and not _by_wormhole(st, who, sh, m.to):
                continue
            if s.via == "line" and m.direction is None:
                continue
            found.setdefault(m.to, []).append(sh.id)
    if (s.farthest or s.nearest) and len(ships) == 1 and found and (
            s.direction or s.system or s.colour or s.planets is not None):
        pick = max if s.farthest else min   # "all the way east", "the far blue nebula"
        end = pick(distance(ships[0].at, h) for h in found)
        found = {h: v for h, v in found.items() if distance(ships[0].at, h) == end}
    if len(found) == 1:
        return next(iter(found))
    if found:
        hexes = sorted(found)
        shown = [f"->{h[0]},{h[1]}" + (f" (#{'/#'.join(map(str, found[h]))})"
                                       if len(ships) > 1 else "") for h in hexes]
        raise IncompleteNotation("to", f"{KIND}: which {describe(s)}: "
                                 + ", ".join(shown[:-1]) + " or " + shown[-1] + "?", hexes)
    # none is legal: the one system so described on the map (or in that line)
    starts = {sh.at for sh in ships}
    on_map = []
    for h, sys in st.map.systems.items():
        if (s.system or s.colour or s.planets is not None) and not fits(s, sys):
            continue
        if s.direction is not None:
            d = DIRECTIONS[s.direction]
            if not any(on_line(a, d, h, s.distance) for a in starts):
                continue
        on_map.append(h)
    in_line = [h for h in on_map if any(on_line(a, DIRECTIONS[k], h, None) for a in starts
                                        for k in DIRECTIONS)]
    if len(on_map) == 1 or len(in_line) == 1:
        return on_map[0] if len(on_map) == 1 else in_line[0]
    raise IncompleteNotation("to", f"{KIND}: no {describe(s)} can be reached now"
                             + (f" (on the map: {', '.join(show(h) for h in sorted(on_map))})"
                                if on_map else ""), ())


def _by_wormhole(st: State, who: str, ship: Ship, to: Hex) -> bool:
    try:
        route(st, st.players[who], ship, to, "wormhole")
    except IllegalAction:
        return False
    return True


def _agree(ships: list[Ship], s: Said) -> None:
    """The direction, count and "up"/"down" said agree with the hex chosen from the ship
    that moves (issue 52: never a wrong action), else NotationError; of several ships,
    the one they agree with."""
    if s.direction is None and s.distance is None and s.vertical is None:
        return
    if s.vertical and s.direction and not s.direction.startswith(s.vertical):
        raise NotationError(f"{KIND}: {s.direction} and {'up' if s.vertical == 'N' else 'down'}"
                            ": two ways said")
    to = s.to
    assert to is not None
    ok = []
    for sh in ships:
        if s.ship not in (None, sh.id) or s.frm not in (None, sh.at):
            continue
        if s.direction is not None:
            fits = on_line(sh.at, DIRECTIONS[s.direction], to, s.distance)
        else:
            fits = s.distance in (None, distance(sh.at, to))
        if s.vertical is not None and not s.direction:
            fits = fits and (to[1] - sh.at[1]) * (1 if s.vertical == "S" else -1) > 0
        if fits:
            ok.append(sh.id)
    way = s.direction or {"N": "up", "S": "down"}.get(s.vertical or "", "")
    steps = f"{s.distance} step{'s' if s.distance != 1 else ''}" if s.distance else ""
    said = " ".join(x for x in (steps, way) if x)
    if not ok:
        raise NotationError(f"{KIND}: {show(to)} is not {said} "
                            f"{'of' if way else 'from'} the ship that moves")
    if s.ship is None and len(ok) == 1:
        s.ship = ok[0]


def _from_reference(game: SseGame, who: str, s: Said) -> None:
    """A direction counted from a homeworld or a hex ("the empty system just east of my
    homeworld"): the one system so described on that line, else a question."""
    st = game.state
    ref = s.ref
    if s.ref_home is not None:
        owner = player_named(game, s.ref_home) if s.ref_home else who
        if owner is None or owner not in st.players:
            raise NotationError(f"{KIND}: whose homeworld is \"{s.ref_home}\"?")
        ref = st.players[owner].home
    assert ref is not None
    ships = [sh for sh in st.players[who].ships if s.ship in (None, sh.id)
             and s.frm in (None, sh.at)]
    if s.direction is None:             # next to it: a neighbour, in any direction
        line = [h for h in neighbours(ref) if h in st.map.systems]
    elif ships and all(sh.at == ref for sh in ships) and not s.near:
        return                          # from where the ship stands: a plain direction
    else:
        line = [h for h in st.map.systems if on_line(ref, DIRECTIONS[s.direction], h,
                                                      1 if s.near else s.distance)]
    line = [h for h in line if s.to in (None, h) and (
        not (s.system or s.colour or s.planets) or fits(s, st.map.get(h)))]
    where = (f"{s.direction} of" if s.direction and not s.near else "next to") + " " + show(ref)
    what = describe(s).replace(f" {s.direction}", "")
    if not line:
        raise NotationError(f"{KIND}: no {what} {where}")
    if len(line) > 1:
        shown = [show(h) for h in sorted(line)]
        raise IncompleteNotation("to", f"{KIND}: which {what} {where}: "
                                 + ", ".join(shown[:-1]) + " or " + shown[-1] + "?",
                                 sorted(line))
    s.to, s.direction, s.distance = line[0], None, None


def _next_to(game: SseGame, who: str, s: Said) -> None:
    """The one system next to a system so described ("the red nebula next to her green
    one"): of those the description fits, the one, else the one a ship can reach; else a
    question."""
    st, on = game.state, s.near_on
    assert on is not None
    owner = (player_named(game, s.near_owner) or s.near_owner) if s.near_owner else who
    ships = [sh for sh in st.players[who].ships if s.ship in (None, sh.id)
             and s.frm in (None, sh.at)]
    refs = [h for h, sys in st.map.systems.items() if fits(on, sys)
            and (s.near_owner is None or st.controller(h) == owner)
            and (on.piece is None or (h in st.colonies and st.colonies[h].piece == on.piece))
            and not (on.near_other and any(distance(sh.at, h) <= 1 for sh in ships))]
    if s.of_system and s.direction is not None:     # "the empty system east of ..."
        d = DIRECTIONS[s.direction]
        around = {h for r in refs for h in st.map.systems if on_line(r, d, h, s.distance)}
    else:
        around = {h for r in refs for h in neighbours(r)}
    near = sorted({h for h in around if h in st.map.systems and s.to in (None, h)
                   and fits(s, st.map.get(h))} - set(refs))
    if len(near) > 1:
        legal = {m.to for sh in ships for m in game.legal_moves(who, sh.id)}
        near = [h for h in near if h in legal] or near
    what = describe(s).replace(f" {s.direction}", "") if s.direction else describe(s)
    them = (describe(on) if on.system or on.colour or on.planets is not None
            else (on.piece or "").replace("_", " "))
    them = (f"{owner}'s " if s.near_owner is not None else "a ") + them
    where = f"{s.direction} of" if s.of_system and s.direction else "next to"
    if not near:
        raise NotationError(f"{KIND}: no {what} {where} {them}")
    if len(near) > 1:
        shown = [show(h) for h in near]
        raise IncompleteNotation("to", f"{KIND}: which {what} {where} {them}: "
                                 + ", ".join(shown[:-1]) + " or " + shown[-1] + "?", near)
    s.to = near[0]
    if s.of_system:
        s.direction = s.distance = None     # said from that system, not from the ship


def _the_way(game: SseGame, who: str | None, s: Said, d: dict[str, Any]) -> None:
    """The way said ("through the wormhole", "in a line") can take a ship said to
    ``s.to``, else the rules' reason, before any question about the piece (issue 52)."""
    st = game.state
    ps = st.players[who or ""]
    assert s.to is not None and s.via is not None
    ships = [sh for sh in ps.ships if s.ship in (None, sh.id) and s.frm in (None, sh.at)]
    first: IllegalAction | None = None
    for sh in ships:
        try:
            route(st, ps, sh, s.to, s.via)
        except IllegalAction as e:
            first = first or e
        else:
            return
    if first is not None:
        raise IllegalMove(first.rule, first.detail, action=d | {
            "player": who, "to": list(s.to), "via": s.via} | (
                {"ship": ships[0].id} if len(ships) == 1 else {}))
