"""What an Among the Stars action still needs from the players before it can be pushed
(:meth:`companion.ats.game.Game.needs`, moved here from the game's module): printed values
nobody has typed, the energy payers to choose among, the answers an ability asks for, the
spaceships' spots.  A query: nothing changes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import IllegalAction
from .abilitykinds import Asking, ability_kind
from .build import types_needed_now
from .spaceships import could_hold_ship, reserved
from .station import LOCATION, as_cell, neighbours
from . import scoring
from .state import State

if TYPE_CHECKING:        # the game's own module imports this one
    from .game import Game


def needs(game: Game, action: Any) -> dict[str, Any]:
    """What ``action`` still needs from the players before it can be pushed.

    A query (nothing changes).  Raises :class:`IllegalAction` if the action
    breaks a rule whatever the players answer.  Returns a dict with, when
    needed:

    - ``values``: ``{"card", "fields"}``: printed values nobody has typed yet
      (ask them first: nothing else can be checked without them);
    - ``energy_from``: the options of :meth:`energy_options` when there is a
      choice of reactors (and ``energy_from`` is not given);
    - ``choices``: ``{"card", "players", "options": [(value, label), ...]}``
      for an ability that makes every other player choose (School of Alien
      Cultures: pay 1 credit or lose 2 VP);
    - ``manual_vp``: ``{"card", "prompt"}`` when the VP an ability gives now
      is typed by the players;
    - ``spaceships``: ``{"card", "count", "spots": [[player, [r, c]], ...]}``.
    """
    if not isinstance(action, dict):
        raise IllegalAction("malformed", "an action must be an object")
    a = dict(action)
    out: dict[str, Any] = {}
    if a.get("do") != "build":
        game.check(a)
        return out
    name = a.get("card")
    try:
        card = game.card(name if isinstance(name, str) else "")
    except IllegalAction as e:
        raise IllegalAction(e.rule, e.detail, action=a) from None
    player = a.get("player")
    if not game.may_take_action(player) and player in game.state.players:
        game.check(a)               # names the rule (order, already acted, ...)
    station = game.state.station(player) if player in game.state.players else None
    missing = card.unknown_for_build()
    if not missing and station is not None and card.max is None \
            and station.copies_of(card.name) >= 1:
        missing = ["max"]
    if not missing and card.types is None and player in game.state.players \
            and types_needed_now(game.catalogue, game.state, player):
        # an advisor, an objective or an ability in play reads the type now (issue 36:
        # U-Cannon with advisors: the build said "enter types", and no form opened)
        missing = ["types"]
    if missing:
        try:                        # a cell that no values can make legal: say so first
            cell = as_cell(a.get("at"))
            if station is not None and (cell in station or not station.is_adjacent_to_built(cell)):
                game.check({**a, "card": card.name})
        except ValueError:
            pass
        return {"values": {"card": card.name, "fields": missing}}
    filled = dict(a)
    others = [p for p in game.setup.players if p != player]

    def spots(target: str) -> list[list[Any]]:
        """The spaces a spaceship of an ability aimed at ``target`` could go to."""
        out_spots: list[list[Any]] = []
        taken = reserved(game.state)
        try:
            built = as_cell(a["at"])
        except (KeyError, TypeError, ValueError):
            built = None
        for p in game.setup.players:
            if target != "any" and ((target == "self") != (p == player)):
                continue
            # R 3: "an empty space adjacent to an existing card", judged when
            # the spaceship is placed, after every action: a space next to
            # where its target may still build this turn is a spot too
            st = game.state.station(p)
            near = set(st.frontier())
            near |= {n for f in list(near) for n in neighbours(f)}
            if p == player and built is not None:
                near |= set(neighbours(built))
            for c in sorted(near):
                if c == built and p == player or (p, c) in taken \
                        or not could_hold_ship(game.state, str(player), p, c, built):
                    continue
                out_spots.append([p, list(c)])
        return out_spots

    asking = Asking(card.name, others, bool(game.setup.options.get("spaceships")), spots)
    for ab in card.abilities or ():     # the kind's question (the ability-kind table)
        kind = ability_kind(ab)
        if ab.when != "immediate" or kind.ask is None or kind.answer is None \
                or kind.answer in a:
            continue
        asked = kind.ask(ab, asking, out.get(kind.answer))
        if asked is not None:
            out[kind.answer], filled[kind.answer] = asked
    game.check(filled)              # every other rule, whatever the answers
    if "energy_from" not in a and card.energy and isinstance(player, str):
        opts = game.energy_options(player, a["at"], card.energy)
        if len(opts) > 1:
            out["energy_from"] = opts
    return out


def missing_parts(game: scoring.ScoredGame, state: State | None = None) -> list[dict[str, Any]]:
    """What the final table still misses, each part named for the players: ``{"player"
    (None: every player's), "column" (the table's category it leaves open), "card",
    "what", "at"?}``: a card's values on a station (each cell that holds it), a race
    tile's, an objective's, a VP typed at the table.  A query; [] once :func:`~companion.ats.scoring.score` can
    give the final table (with :func:`~companion.ats.scoring.unknown_for_scoring` and
    :func:`~companion.ats.scoring.manual_requests`)."""
    state = state if state is not None else game.state
    out: list[dict[str, Any]] = []
    for v in scoring.unknown_for_scoring(game, state):
        name, what = v["card"], ", ".join(v["fields"])
        card = game.catalogue.get(name)
        if card is not None and card.category == "objective":
            out.append({"player": None, "column": "objectives", "card": name, "what": what})
            continue
        found = False
        for p in state.setup.players:
            if (state.setup.races.get(p) or "").lower() == name.lower():
                out.append({"player": p, "column": "end_abilities", "card": name,
                            "what": what})
                found = True
            st = state.players[p].station
            for cell, placed in sorted(st.cells.items()):
                if placed.kind == LOCATION and str(placed.card).lower() == name.lower():
                    out.append({"player": p, "column": "end_abilities", "card": name,
                                "what": what, "at": list(cell)})
                    found = True
        if not found:       # counted by an objective of every player (types, ...)
            out.append({"player": None, "column": "objectives", "card": name, "what": what})
    for r in scoring.manual_requests(game, state):
        objective = r["kind"] in ("objective", "secret")
        out.append({"player": None if objective and r["kind"] == "objective"
                    else r.get("player"),
                    "column": "objectives" if objective else "end_abilities",
                    "card": r.get("source"), "what": "VP typed at the table"
                    if not objective else "who claims it" if r["kind"] == "objective"
                    else "which objective card it is",
                    **({"at": r["at"]} if r.get("at") else {})})
    return out
