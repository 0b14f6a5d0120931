"""A line of Small Star Empires notation read in the context of the position
(:meth:`companion.sse.game.SseGame.parse`), as python-chess's ``Board.parse_san`` reads a
move: what the line leaves out and the game already knows is filled in, and nothing is
guessed between two possibilities.

- the WHO: the player whose turn it is (while the pieces are laid from the table, the
  only player still to lay);
- the kind: a ``move`` (as the rules read an action without one);
- a move's ship (``#N``) and where it stands (``FROM``): the only ship of the player that
  can make the move written (or the ship standing at ``FROM``);
- its destination (``->TO``): the only legal one of that ship (with the piece written);
- the way (``line`` / ``wormhole``): the rules' way to that destination;
- the piece: the only one that may colonise it (none for a repair at home);
- a damage's ship and hex: the only undamaged ship, or the one written.

What cannot be filled in raises :class:`~companion.core.notation.IncompleteNotation`
naming the field and the options the game sees; an illegal action raises the rules'
:class:`~companion.core.errors.IllegalAction` (:meth:`SseGame.check`); a line that is no
notation, :class:`~companion.core.notation.NotationError`.  A query: nothing changes.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

from ..core import notation as nt
from ..core.errors import IllegalAction
from .actions import KEY_ORDER, SseAction, from_dict, parse
from .setup import SseSetup
from .state import Move, Ship, State


class SseGame(Protocol):
    """What the reading asks of the game (:class:`companion.sse.game.SseGame`, whose
    module imports this one)."""
    @property
    def setup(self) -> SseSetup: ...
    @property
    def state(self) -> State: ...
    def may_act(self, player: str) -> bool: ...
    def ships(self, player: str) -> list[Ship]: ...
    def legal_moves(self, player: str, ship: int, state: State | None = None, *,
                    piece: str | None = None) -> list[Move]: ...
    def check(self, action: Any) -> Any: ...


def parse_in_context(game: SseGame, text: str) -> SseAction:
    """The action ``text`` writes, completed from ``game``'s position and legal now."""
    return complete(game, parse(text, who_optional=True).to_dict())


def complete(game: SseGame, d: dict[str, Any]) -> SseAction:
    """The partial entry ``d`` completed from ``game``'s position and legal now (see
    :func:`_complete`); an ``IncompleteNotation`` carries what was said (``partial``)."""
    return nt.complete_keeping(_complete, game, d)


def _complete(game: SseGame, d: dict[str, Any]) -> SseAction:
    """The partial action ``d`` (what a line of notation or a sentence wrote:
    :mod:`companion.sse.spoken`) completed from ``game``'s position and legal now (``d`` is
    filled in place)."""
    if d.get("player") is None:
        d["player"] = _only(game, d, "player",
                            [p for p in game.setup.players if game.may_act(p)],
                            "the player", nt.name)
    if d["player"] in game.state.players:
        if d["do"] == "move":
            _move(game, d)
        elif d["do"] == "damage":
            _damage(game, d)
    value = from_dict({k: d[k] for k in KEY_ORDER if k in d}
                      | {k: v for k, v in d.items() if k not in KEY_ORDER})
    game.check(value)                   # legal now, or the rules' IllegalAction
    return value


def _ships(game: SseGame, d: dict[str, Any], damaged: bool | None = None) -> list[int]:
    """The player's ships the line may mean: the one numbered, the one at ``from``."""
    ships = game.ships(d["player"])
    frm = nt.as_pair(d.get("from"))
    return [s.id for s in ships if d.get("ship") in (None, s.id) and frm in (None, s.at)
            and (damaged is None or s.damaged == damaged)]


def _ship_label(game: SseGame, player: str) -> Callable[[int], str]:
    ships = game.ships(player)
    return lambda i: f"#{i} at {nt.cell(ships[i].at)}"


def _move(game: SseGame, d: dict[str, Any]) -> None:
    """A move: its ship, the hex it leaves, the destination, the way, the piece."""
    player, piece = d["player"], d.get("piece")
    to = nt.as_pair(d.get("to"))
    found: list[tuple[int, Move]] = []
    for i in _ships(game, d):
        for m in game.legal_moves(player, i):
            if to in (None, m.to) and (piece is None or piece in m.pieces):
                found.append((i, m))
    if d.get("ship") is None:
        able = list(dict.fromkeys(i for i, _ in found))
        mine = _ships(game, d)
        if not able and len(mine) == 1:
            able = mine                 # the only ship: the rules say why it cannot
        ships = game.ships(player)
        if len(able) > 1 and len({(ships[i].at, ships[i].damaged) for i in able}) == 1:
            # issue 52: ships on one system, none damaged or all: every answer gives the
            # same move (the opening turn's three ships on the homeworld): the lowest
            able = [min(able)]
        where = f"reach {nt.cell(to)}" if to is not None else "move"
        d["ship"] = _only(game, d, "ship", able, "the ship (#N)", _ship_label(game, player),
                          none=f"no ship of {player} can {where}"
                               + (f" with a {piece}" if piece else "") + " now")
    ships = game.ships(player)
    if isinstance(d["ship"], int) and 0 <= d["ship"] < len(ships):
        d.setdefault("from", list(ships[d["ship"]].at))
    moves = [m for i, m in found if i == d["ship"]]
    if to is None:
        m = _only(game, d, "to", moves, "the destination (->q,r)",
                  lambda m: "->" + nt.cell(m.to))
        d["to"] = list(m.to)
        moves = [m]
    if len(moves) != 1:
        return                          # the rules say why (check)
    move = moves[0]
    d.setdefault("via", move.via)
    if "piece" not in d and move.kind != "repair":
        pieces = list(move.pieces)
        if pieces:
            d["piece"] = _only(game, d, "piece", pieces, "the piece placed", str)


def _damage(game: SseGame, d: dict[str, Any]) -> None:
    """A ship damaged where it stands: the ship, its hex."""
    player = d["player"]
    if d.get("ship") is None:
        d["ship"] = _only(game, d, "ship", _ships(game, d, damaged=False), "the ship (#N)",
                          _ship_label(game, player))
    ships = game.ships(player)
    if isinstance(d["ship"], int) and 0 <= d["ship"] < len(ships):
        d.setdefault("from", list(ships[d["ship"]].at))


def _only(game: SseGame, d: dict[str, Any], key: str, options: Sequence[Any], what: str,
          show: Callable[[Any], str], none: str = "none is possible now") -> Any:
    """The one option for ``key`` (:func:`companion.core.notation.only_one`); with none,
    first the rule that stands in the way, if the rules name one."""
    def rule_first() -> None:
        if game.state.finished:
            raise IllegalAction("game-over", f"the game is over ({game.state.end_reason})",
                                action=d)
        try:
            game.check(d)
        except IllegalAction as e:
            if e.rule not in ("malformed", "wrong-player", "no-ship"):
                raise
    return nt.only_one(key, options, what, d["do"], show, none, rule_first)
