"""A line of Among the Stars notation read in the context of the position
(:meth:`companion.ats.game.Game.parse`), as python-chess's ``Board.parse_san`` reads a
move: what the line leaves out and the game already knows is filled in, and nothing is
guessed between two possibilities.

- ``YEAR.TURN``: this year and turn (not for a ``lay``);
- the WHO: the only player who may take their action now (the Revival 2-player active
  player, the timing rules' order, the last one still to act); for an ``advisor``, the
  player its tile leans to; for a ``remove``, the owner of the cell; for a ``lay``, the
  only player still to lay;
- a build's or a reactor's cell (``@ROW,COL``): the only legal one;
- a build's energy payers (``e[...]``): the only way to pay its energy;
- an advisor's tile, a removal's cell: the only one to settle;
- a card's name: as the catalogue spells it.

What cannot be filled in raises :class:`~companion.core.notation.IncompleteNotation`
naming the field and the options the game sees; an illegal action raises the rules'
:class:`~companion.core.errors.IllegalAction` (:meth:`Game.check`); a line that is no
notation, :class:`~companion.core.notation.NotationError`.  A query: nothing changes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..core import notation as nt
from ..core.errors import IllegalAction, UnknownCardValues
from .actions import KEY_ORDER, AtsAction, from_dict, parse
from .setup import ACTIONS

if TYPE_CHECKING:        # the game's own module imports this one
    from .game import Game


def parse_in_context(game: Game, text: str, player: str | None = None) -> AtsAction:
    """The action ``text`` writes, completed from ``game``'s position and legal now
    (``player``: whose it is when the line names nobody, a seat's page)."""
    d = parse(text, who_optional=True).to_dict()
    if d.get("player") is None and player is not None:
        d["player"] = player
    return complete(game, d)


def complete(game: Game, d: dict[str, Any]) -> AtsAction:
    """The partial entry ``d`` completed from ``game``'s position and legal now (see
    :func:`_complete`); an ``IncompleteNotation`` carries what was said (``partial``)."""
    return nt.complete_keeping(_complete, game, d)


def _complete(game: Game, d: dict[str, Any]) -> AtsAction:
    """The partial entry ``d`` (what a line of notation or a sentence wrote:
    :mod:`companion.ats.spoken`) completed from ``game``'s position and legal now (``d`` is
    filled in place)."""
    kind, st = d["do"], game.state
    if kind != "lay":
        d.setdefault("year", st.year)
        d.setdefault("turn", st.turn)
    if kind in ACTIONS:
        _turn_action(game, d)
    elif kind == "advisor":
        _advisor(game, d)
    elif kind == "remove":
        _remove(game, d)
    elif kind == "lay" and d.get("player") is None:
        d["player"] = _only(game, d, "player", game.still_to_lay(), "the player to lay")
    value = from_dict({k: d[k] for k in KEY_ORDER if k in d}
                      | {k: v for k, v in d.items() if k not in KEY_ORDER})
    game.check(value)                   # legal now, or the rules' IllegalAction
    return value


def _turn_action(game: Game, d: dict[str, Any]) -> None:
    """A player's action for the turn: the player, the card's name, the cell, the energy."""
    if d.get("player") is None:
        d["player"] = _only(game, d, "player",
                            [p for p in game.setup.players if game.may_take_action(p)],
                            "the player who takes their action")
    name = d.get("card")
    if not isinstance(name, str):
        raise nt.IncompleteNotation("card", f"{d['do']}: name the card selected, in quotes "
                                    "(the players' hands are not known to the game)")
    card = game.card(name)              # IllegalAction unknown-card, with the closest names
    d["card"] = card.name
    player, kind = d["player"], d["do"]
    if kind in ("build", "reactor") and d.get("at") is None:
        cells = game.legal_cells(player, card.name if kind == "build" else None, do=kind)
        d["at"] = list(_only(game, d, "at", cells, f"the cell (@row,col) of the {kind}",
                             show=lambda c: "@" + nt.cell(c)))
    if kind == "build" and d.get("energy_from") is None and card.energy \
            and player in game.state.players and nt.as_pair(d.get("at")) is not None:
        options = [o["energy_from"] for o in game.energy_options(player, d["at"], card.energy)]
        if len(options) > 1:
            _refused_whatever_pays(game, d, options)
        if options:
            d["energy_from"] = _only(game, d, "energy_from", options,
                                     "the reactors paying the energy (e[row,col;...])",
                                     show=lambda o: "e" + nt.cells(tuple(map(tuple, o))))


def _refused_whatever_pays(game: Game, d: dict[str, Any], options: Sequence[Any]) -> None:
    """Before asking which reactors pay (issue 52): when the rules refuse the build
    whichever reactors pay (a taken cell, another player's turn), that refusal, not a
    question whose every answer is refused."""
    first: IllegalAction | None = None
    for o in options:
        try:
            game.check(d | {"energy_from": o})
        except UnknownCardValues:
            return                      # the card form asks the values first
        except IllegalAction as e:
            first = first or e
        else:
            return
    if first is not None:
        raise first


def _advisor(game: Game, d: dict[str, Any]) -> None:
    """An advisor's bonus taken or declined: the tile and its player (R 4)."""
    open_ = game.unsettled_advisors()
    if d.get("tile") is None:
        tiles = [t for t, p in open_.items() if d.get("player") in (None, p)]
        d["tile"] = _only(game, d, "tile", tiles, "the Influence tile (in quotes)",
                          show=nt.quote)
    if d.get("player") is None and d["tile"] in open_:
        d["player"] = open_[d["tile"]]
    if d.get("take") is None:
        raise nt.IncompleteNotation("take", "advisor: write bonus or decline (R 4)",
                                    ("bonus", "decline"))


def _remove(game: Game, d: dict[str, Any]) -> None:
    """A location removed at the round's end (B 5): its owner and its cell."""
    broken = [(v["player"], tuple(c)) for v in game.round_end_due() for c in v["cells"]]
    at = nt.as_pair(d.get("at"))
    spots = list(dict.fromkeys((p, c) for p, c in broken
                               if d.get("player") in (None, p) and at in (None, c)))
    if d.get("player") is None:
        d["player"] = _only(game, d, "player", list(dict.fromkeys(p for p, _ in spots)),
                            "the player who removes a location")
    if d.get("at") is None:
        d["at"] = list(_only(game, d, "at", [c for p, c in spots if p == d["player"]],
                             "the cell (@row,col) of the location removed",
                             show=lambda c: "@" + nt.cell(c)))


def _only(game: Game, d: dict[str, Any], key: str, options: Sequence[Any], what: str,
          show: Any = nt.name) -> Any:
    """The one option for ``key`` (:func:`companion.core.notation.only_one`); with none,
    first the rule that stands in the way, if the rules name one."""
    def rule_first() -> None:
        try:
            game.check(d)
        except IllegalAction as e:
            if e.rule not in ("malformed", "wrong-player"):
                raise
    return nt.only_one(key, options, what, d["do"], show, rule_first=rule_first)
