"""Small Star Empires turn flow (S Movement, S Game End): applying one action to a state,
through a table of handlers by action kind (:data:`HANDLERS`, ``{"move": ..., "damage":
...}``), then giving the turn to the next player who can move; a player who cannot move
passes for the rest of the game, and the game ends when nobody can move or every piece
is on the board.  The end scoring is companion/sse/scoring.py.

:func:`apply` changes the state it is given; :class:`~companion.sse.game.SseGame` gives it
a copy, so an illegal action changes nothing."""
from __future__ import annotations

from typing import Any, Callable

from ..core.errors import IllegalAction, RecordError
from ..core.record import copy_json
from ..core.safeio import terminal_line
from .effects import damage_ship, explore
from .hexmap import as_hex, label
from .lay import lay
from .movement import can_move, colonise, route
from .rules import ACTION_KEYS, LAY_ONLY_KEYS, IllegalMove, is_whole
from .state import PlayerState, Ship, State

#: the order of an action's keys as stored
ACTION_ORDER = ("do", "player", "ship", "from", "to", "via", "piece", "pay", "reveal", "destroy",
                "then", "note")

#: a handler applies one kind of action (``a["do"]``) for ``ps``'s player to ``st`` and
#: returns the action as stored; ``a`` is the caller's copy (it is filled in)
Handler = Callable[[State, PlayerState, dict[str, Any]], dict[str, Any]]


def apply(st: State, action: Any, strict: bool = False) -> dict[str, Any]:
    """Apply ``action`` to ``st`` (changed in place); the action as stored.  Raises
    :class:`IllegalMove` (naming the player, the ship and the destination).  ``strict``
    (a record's replay) is accepted for the API's sake: the checks are the same."""
    try:
        return _dispatch(st, action)
    except IllegalMove:
        raise
    except IllegalAction as e:
        raise IllegalMove(e.rule, e.detail,
                          action=e.action or (action if isinstance(action, dict) else {})) from None


def _dispatch(st: State, action: Any) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise IllegalAction("malformed", "an action must be an object")
    a = copy_json(action)          # the caller's action is never changed
    extra = set(a) - ACTION_KEYS
    if extra:
        raise IllegalAction("malformed", f"unknown key '{sorted(extra)[0]}'", action=a)
    do = a.setdefault("do", "move")
    handler = HANDLERS.get(do) if isinstance(do, str) else None
    if handler is None:
        kinds = " or ".join(repr(k) for k in HANDLERS)
        raise IllegalAction("malformed", f"'do' is {kinds}, not {terminal_line(repr(do), 80)}",
                            action=a)
    if do != "lay":
        lay_only = sorted(set(a) & LAY_ONLY_KEYS)
        if lay_only:
            raise IllegalAction("malformed", f"'{lay_only[0]}' is only for a lay entry", action=a)
        if st.setup.laid and len(st.laid) < len(st.players):
            raise IllegalAction("lay", "this game is laid from the table (setup.options.laid): "
                                "lay every player's pieces first (still to lay: "
                                + ", ".join(p for p in st.setup.players if p not in st.laid)
                                + ")", action=a)
    player = a.get("player")
    if not isinstance(player, str) or player not in st.players:
        raise IllegalAction("wrong-player", f"{terminal_line(repr(player), 80)} is not a "
                            "player of this game", action=a)
    return handler(st, st.players[player], a)


def ordered(a: dict[str, Any]) -> dict[str, Any]:
    """The action as stored: its keys in :data:`ACTION_ORDER`, the empty ones left out
    (``piece`` is kept: ``None`` says nothing was placed)."""
    return {k: a[k] for k in ACTION_ORDER if k in a and (a[k] is not None or k == "piece")}


def find_ship(ps: PlayerState, a: dict[str, Any]) -> Ship:
    """The ship the action names (``ship``: its number, or ``from``: where it is; both:
    they must agree); ``a["ship"]`` is filled in."""
    sid, frm = a.get("ship"), a.get("from")
    if sid is None and frm is None:
        raise IllegalAction("no-ship", "name the ship ('ship': number, or 'from': [q, r])", action=a)
    if sid is not None:
        if not is_whole(sid, 0, 99) or sid >= len(ps.ships):
            raise IllegalAction("no-ship", f"{ps.name} has ships 0 to {len(ps.ships) - 1}, "
                                f"not {sid!r}", action=a)
        ship = ps.ships[sid]
        if frm is not None:
            try:
                at = as_hex(frm, "'from'")
            except RecordError as e:
                raise IllegalAction("malformed", str(e), action=a) from None
            if at != ship.at:
                raise IllegalAction("no-ship", f"ship {sid} is at {list(ship.at)}, not {list(at)}",
                                    action=a)
    else:
        try:
            at = as_hex(frm, "'from'")
        except RecordError as e:
            raise IllegalAction("malformed", str(e), action=a) from None
        here = [s for s in ps.ships if s.at == at]
        if not here:
            raise IllegalAction("no-ship", f"{ps.name} has no ship at {label(at)}", action=a)
        ship = here[0]
    a["ship"] = ship.id
    return ship


# ---------------------------------------------------------------------------
# the handlers
# ---------------------------------------------------------------------------
def apply_damage(st: State, ps: PlayerState, a: dict[str, Any]) -> dict[str, Any]:
    """``"damage"``: a ship is damaged (Damaged Ships); nobody's turn passes."""
    ship = find_ship(ps, a)
    damage_ship(st, ship, a)
    st.index += 1
    # damage_ship refused a finished game, so a player has the turn
    assert st.current is not None
    settle(st, st.setup.players.index(st.current))
    return ordered(a)


def apply_move(st: State, ps: PlayerState, a: dict[str, Any]) -> dict[str, Any]:
    """``"move"``: the player whose turn it is moves a ship and colonises, explores or is
    repaired where it stops (S Movement, S Colonize); the turn passes on."""
    player = ps.name
    if st.finished:
        raise IllegalAction("game-over", f"the game is over ({st.end_reason})", action=a)
    if player != st.current:
        why = (f"{player} cannot move any ship and has passed for the rest of the game"
               if ps.passed else f"it is {st.current}'s turn")
        raise IllegalAction("wrong-player", why, action=a)
    ship = find_ship(ps, a)
    try:
        to = as_hex(a.get("to"), "'to'")
    except RecordError as e:
        raise IllegalAction("malformed", str(e), action=a) from None
    via = a.get("via")
    if via not in (None, "line", "wormhole"):
        raise IllegalAction("malformed", "'via' is 'line' or 'wormhole'", action=a)
    try:
        move = route(st, ps, ship, to, via)
    except IllegalAction as e:
        raise IllegalMove(e.rule, e.detail, action=a) from None
    a["via"] = move.via
    given_pay = a.get("pay")
    pay = [{"at": list(h), "to": o} for h, o in move.pay]
    if given_pay is not None and given_pay != pay:
        raise IllegalAction("open-borders", f"the Cities paid to pass are {pay or 'none'}",
                            action=a)
    if pay:
        a["pay"] = pay
    else:
        a.pop("pay", None)
    index = st.index
    # Open Borders payments
    for h, owner in move.pay:
        ps.cities -= 1
        ps.paid += 1
        st.players[owner].received += 1
    start = ship.at
    ship.at = to
    piece = a.get("piece")
    if move.kind == "repair":
        if piece is not None:
            raise IllegalAction("repair", "a ship repaired at home colonises nothing: no piece",
                                action=a)
        ship.damaged = False
        a["piece"] = None
        for k in ("reveal", "destroy", "then"):
            if a.get(k) is not None:
                raise IllegalAction("malformed", f"'{k}' has no meaning for a repair", action=a)
    elif move.kind == "explore":
        explore(st, ps, ship, to, a, index)
    else:
        for k in ("reveal", "destroy", "then"):
            if a.get(k) is not None:
                raise IllegalAction("malformed", f"'{k}' is only for an Unexplored System",
                                    action=a)
        colonise(st, ps, to, piece, a, index, move.pieces)
    a["from"] = list(start)
    a["to"] = list(to)
    st.index += 1
    st.moves += 1
    ps.last = a
    settle(st, ps.seat)        # next seat (0-based index of the next player)
    return ordered(a)


def apply_lay(st: State, ps: PlayerState, a: dict[str, Any]) -> dict[str, Any]:
    """``"lay"``: ``ps``'s pieces as they lie on the table (companion/sse/lay.py).  Once
    every player is laid, a game laid now goes on: the turn is the ``next`` player's (or,
    if that player cannot move, the next one's who can, S Game End)."""
    stored = lay(st, ps, a)
    if st.setup.laid == "now" and len(st.laid) == len(st.players):
        assert st.laid_next is not None          # lay() refused a last entry without it
        settle(st, st.setup.players.index(st.laid_next))
    return stored


#: the action kinds (``a["do"]``; ``"move"`` when absent) and how each is applied; ``lay``:
#: a player's pieces as they lie on the table (issue 39, companion/sse/lay.py)
HANDLERS: dict[str, Handler] = {"move": apply_move, "damage": apply_damage, "lay": apply_lay}


# ---------------------------------------------------------------------------
# turn order and the end of the game
# ---------------------------------------------------------------------------
def settle(st: State, first: int) -> None:
    """Give the turn to the next player (from seat index ``first``, wrapping) who can move.
    A player who cannot move passes for the rest of the game (S Game End)."""
    if st.finished:
        st.current = None
        return
    players = st.setup.players
    if all(st.players[p].reserve() == 0 for p in players):
        st.finished, st.current = True, None
        st.end_reason = "every City and Trade Station is on the board"
        return
    n = len(players)
    for k in range(n):
        p = players[(first + k) % n]
        ps = st.players[p]
        if ps.passed:
            continue
        if can_move(st, p):
            st.current = p
            return
        ps.passed = True
        ps.passed_at = st.index
    st.finished, st.current = True, None
    st.end_reason = "no player can move a ship"
