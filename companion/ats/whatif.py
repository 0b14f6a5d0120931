"""What-if views: pure functions of a game (and optionally one of its states).

* :func:`placement_map`: for a player and a card, every frontier cell with the
  VP it gives now, the change to the end-of-game VP, the energy it would use,
  and the reason when it is not legal; plus "a reactor here" for every cell.
* :func:`hand_ranking`: every (card, action, cell) option for a hand, ranked by
  the projected final VP.
* :func:`if_ended_now`: every player's projected final score (a Score).
* :func:`vp_by_year`: the VP each player gained in each year so far.
* :class:`Sandbox`: a branch of the record to try a sequence of actions in.

Nothing here changes the game: every option is a trial on a copy.
"""
from __future__ import annotations

import copy
import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

if TYPE_CHECKING:        # imported where a table is made, not when the module is:
    import pandas as pd  # a page's kernel and every command start ~0.3 s sooner

from ..core.errors import CompanionError, IllegalAction, UnknownCardValues
from .game import DISCARD_GAIN, Game, PlayerState, State
from .abilitykinds import ability_kind
from .catalogue import Card
from .scoring import CREDITS_PER_VP, Memo, Score, project_player, score
from .station import Cell, Placed, Station

T = TypeVar("T")

MAP_COLUMNS = ["action", "card", "cell", "legal", "rule", "reason", "vp_now", "end_change",
               "empty_reactor_change", "energy_from", "projected_total", "projected_change"]


def _base(game: Game, state: State, player: str) -> dict[str, Any]:
    return project_player(game, state, player)


def _planning(state: State, player: str) -> State:
    """The state to explore from: a player who has already acted this turn is
    looking at their next action on the station as it stands."""
    if player in state.acted:
        state = state.copy(only=player)
        state.acted.remove(player)
    return state


def _fill_choices(game: Game, state: State, action: dict[str, Any]) -> dict[str, Any]:
    """Choices a trial cannot ask for: every other player pays (the owner's VP
    does not depend on it), and a manual ability counts 0 now."""
    card = game.catalogue.get(action.get("card", ""))
    if card is None or not card.abilities:
        return action
    for ab in card.abilities:
        if ab.when != "immediate":
            continue
        kind = ability_kind(ab)      # the answer a trial assumes (the kind's ``default``)
        if kind.default is not None and kind.answer is not None and kind.answer not in action:
            others = [p for p in state.setup.players if p != action["player"]]
            action = {**action, kind.answer: kind.default(ab, others)}
    return action


class _ScratchStation(Station):
    """A copy of one player's station that the options are tried on one after
    another: each is placed, projected and taken back (:meth:`restore`), instead
    of copying the whole station (its networkx graph) for every option, which
    cost more than the rest of the trial.  Distances from a built cell and the
    list of reactors are remembered until the station changes: the end-of-game
    projection asks for the same ones once per card (every "farthest from the
    Main Reactor" card measures the whole station from the Main Reactor)."""

    def __init__(self, station: Station) -> None:
        # a copy of ``station`` (Station.copy: the graph shared until changed)
        # with this class's memo and the cells to go back to
        vars(self).update(vars(station.copy()))
        self._memo: dict[Any, Any] = {}
        self._cells0: dict[Cell, Placed] = dict(self.cells)
        self._spaceships0: set[Cell] = set(self.spaceships)

    @classmethod
    def of(cls, station: Station) -> "_ScratchStation":
        return cls(station)

    def restore(self) -> None:
        """Back to the station as it was copied."""
        graph = self.own_graph()
        for cell in [c for c in self.cells if c not in self._cells0]:
            graph.remove_node(cell)
        self.cells = dict(self._cells0)
        self.spaceships = set(self._spaceships0)
        self._memo.clear()

    def copy(self) -> Station:
        return Station.copy(self)            # a plain Station (Station.copy builds one)

    def place(self, cell: Cell, placed: Placed) -> None:
        self._memo.clear()
        super().place(cell, placed)

    def take_cube(self, cell: Cell) -> None:
        self._memo.clear()
        super().take_cube(cell)

    def distances_from(self, cell: Cell, cutoff: int | None = None) -> dict[Cell, int]:
        if cell not in self.cells:
            return super().distances_from(cell, cutoff)
        key = ("d", cell, cutoff)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = super().distances_from(cell, cutoff)
        return dict(got)

    def reactors(self) -> list[Cell]:
        got = self._memo.get("r")
        if got is None:
            got = self._memo["r"] = super().reactors()
        return list(got)


# The fields State.copy / PlayerState.copy know.  If they change, every option
# is tried through Game.trial (a full copy each), which is always right.
_STATE_FIELDS = ("setup", "players", "year", "turn", "acted", "reactor_supply", "pending",
                 "discards", "finished", "index", "virtual_done", "face_up", "turn_order",
                 "advisors", "advisor_claims")
_PLAYER_FIELDS = ("name", "vp", "credits", "station", "ledger", "last")
_FAST = (tuple(f.name for f in dataclasses.fields(State)) == _STATE_FIELDS
         and tuple(f.name for f in dataclasses.fields(PlayerState)) == _PLAYER_FIELDS)


class _Trials:
    """Tries options for one player from one state exactly as ``Game.trial``
    does (a full copy of the state, the turn not ended), but on one scratch
    station put back after each option.  The other players' parts are copied too
    (cheap: a station's graph is copied on write), so an option that touches them
    (School of Alien Cultures, a spaceship, the Revival 2-player rules resolving
    at once) never changes the state it was tried from."""

    def __init__(self, game: Game, state: State, player: str) -> None:
        self.game, self.state, self.player = game, state, player
        self.memo: Memo = {}     # other players' objective measures (they do not change)
        self.station = _ScratchStation.of(state.players[player].station) if _FAST else None

    def run(self, action: dict[str, Any], fn: Callable[[dict[str, Any], State], T]) -> T:
        """``fn(normalised action, state after)``; IllegalAction propagates."""
        state, player = self.state, self.player
        if self.station is None or action.get("player") != player:
            return fn(*self.game.trial(action, state=state))
        trial = state.copy()
        ps = state.players[player]
        trial.players[player] = PlayerState(ps.name, ps.vp, ps.credits, self.station,
                                            list(ps.ledger), ps.last)
        try:
            norm = self.game.trial_in_place(trial, action)
            return fn(norm, trial)
        finally:
            self.station.restore()


def _option(game: Game, state: State, player: str, action: dict[str, Any], base: dict[str, Any],
            trials: _Trials | None = None) -> dict[str, Any]:
    """Row of one option: tried on a copy, scored as if the game ended then."""
    row = {"action": action["do"], "card": action.get("card"),
           "cell": tuple(action["at"]) if "at" in action else None}
    trials = trials if trials is not None else _Trials(game, state, player)

    def scored(norm: dict[str, Any], after: State) -> dict[str, Any]:
        proj = project_player(game, after, player, trials.memo)
        return dict(
            legal=True, rule=None, reason=None,
            vp_now=after.players[player].vp - state.players[player].vp,
            end_change=((proj["total"] - proj["during_game"])
                        - (base["total"] - base["during_game"])),
            empty_reactor_change=proj["empty_reactors"] - base["empty_reactors"],
            energy_from=[tuple(c) for c in norm.get("energy_from", [])],
            projected_total=proj["total"],
            projected_change=proj["total"] - base["total"])

    try:
        row.update(trials.run(_fill_choices(game, state, action), scored))
    except IllegalAction as e:
        row.update(legal=False, rule=e.rule, reason=e.detail)
    return row


_INT_COLUMNS = ("vp_now", "end_change", "empty_reactor_change", "projected_total",
                "projected_change")


def _table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows ranked (legal first, then the projected total and the VP now,
    highest first, missing last; ties keep their order) and made a DataFrame
    with integer columns that may be missing (Int64).  Sorting the dicts is
    several times faster than sorting the frame (DataFrame.sort_values)."""
    import pandas as pd
    def key(r: dict[str, Any]) -> tuple[bool, bool, int, bool, int]:
        pt, vp = r.get("projected_total"), r.get("vp_now")
        return (not r.get("legal"), pt is None, -(pt or 0), vp is None, -(vp or 0))
    ranked = sorted(rows, key=key)               # stable, like kind="stable"
    nan = float("nan")                           # a missing key, as pd.DataFrame(rows) has it
    data = {c: [r.get(c, nan) for r in ranked] for c in MAP_COLUMNS}
    for c in _INT_COLUMNS:
        data[c] = pd.array(data[c], dtype="Int64")
    data["legal"] = [bool(x) for x in data["legal"]]
    return pd.DataFrame(data, columns=MAP_COLUMNS)


def placement_map(game: Game, player: str, card: str, *, state: State | None = None,
                  reactors: bool = True) -> pd.DataFrame:
    """Every frontier cell of ``player``'s station for building ``card`` (and,
    with ``reactors``, for a Power Reactor), best first; illegal cells last with
    the rule and the reason."""
    state = state if state is not None else game.state
    if player not in state.players:
        raise IllegalAction("wrong-player", f"'{player}' is not a player in this game")
    game.card(card)                                   # unknown name -> clear error
    state = _planning(state, player)
    base = _base(game, state, player)
    station = state.players[player].station
    trials = _Trials(game, state, player)
    rows = []
    for cell in station.frontier():
        a = {"player": player, "do": "build", "card": card, "at": list(cell),
             "year": state.year, "turn": state.turn}
        rows.append(_option(game, state, player, a, base, trials))
        if reactors:
            rows.append(_option(game, state, player, {**a, "do": "reactor"}, base, trials))
    return _table(rows)


def missing_values(game: Game, player: str, card: str, *,
                   state: State | None = None) -> dict[str, Any] | None:
    """The printed values the what-if of building ``card`` still needs (issue 21):
    ``{"card", "fields"}`` — the card's own unknown numbers, or the first values a
    trial at one of the station's cells (its projection included) asks for, which
    may be another card's (a type an objective counts) — or None when every cell can
    be tried.  Nothing changes: each trial is on a copy."""
    c = game.card(card)
    missing = c.unknown_for_build()
    if missing:
        return {"card": c.name, "fields": missing}
    state = state if state is not None else game.state
    if player not in state.players:
        raise IllegalAction("wrong-player", f"'{player}' is not a player in this game")
    state = _planning(state, player)
    trials = _Trials(game, state, player)
    for cell in state.players[player].station.frontier():
        a = {"player": player, "do": "build", "card": c.name, "at": list(cell),
             "year": state.year, "turn": state.turn}
        try:
            trials.run(_fill_choices(game, state, a),
                       lambda norm, after: project_player(game, after, player, trials.memo))
        except UnknownCardValues as e:
            return {"card": e.card, "fields": list(e.fields)}
        except IllegalAction:
            continue
    return None


def best_cell(df: pd.DataFrame, action: str = "build") -> Cell | None:
    """The legal cell with the highest projected total for ``action`` (None if none)."""
    legal = df[(df.action == action) & df.legal]
    if legal.empty:
        return None
    cell: Cell = legal.sort_values(["projected_total", "vp_now"], ascending=False,
                                   kind="stable").iloc[0].cell
    return cell


def hand_ranking(game: Game, player: str, hand: list[str], *,
                 state: State | None = None) -> pd.DataFrame:
    """Every legal (card, action, cell) option for the cards in ``hand``, ranked
    by projected final VP.  A discard shows its +3 credits' worth at the end."""
    state = state if state is not None else game.state
    if player not in state.players:
        raise IllegalAction("wrong-player", f"'{player}' is not a player in this game")
    state = _planning(state, player)
    base = _base(game, state, player)
    station = state.players[player].station
    trials = _Trials(game, state, player)
    rows: list[dict[str, Any]] = []
    reactor_rows: list[dict[str, Any]] | None = None
    notes = []
    for card in hand:
        try:
            c = game.card(card)
        except IllegalAction as e:
            notes.append({"action": "build", "card": card, "cell": None, "legal": False,
                          "rule": e.rule, "reason": e.detail})
            continue
        unknown = c.unknown_for_build()
        if unknown:
            notes.append({"action": "build", "card": c.name, "cell": None, "legal": False,
                          "rule": "unknown-values",
                          "reason": f"printed values not known yet: {', '.join(unknown)}"})
        else:
            for cell in station.frontier():
                a = {"player": player, "do": "build", "card": c.name, "at": list(cell),
                     "year": state.year, "turn": state.turn}
                r = _option(game, state, player, a, base, trials)
                if r["legal"]:
                    rows.append(r)
        # a reactor's effect does not depend on the card given up: try each cell once
        if reactor_rows is None:
            reactor_rows = []
            for cell in station.frontier():
                a = {"player": player, "do": "reactor", "card": c.name, "at": list(cell),
                     "year": state.year, "turn": state.turn}
                r = _option(game, state, player, a, base, trials)
                if r["legal"]:
                    reactor_rows.append(r)
        rows += [{**r, "card": c.name} for r in reactor_rows]
        ps = state.players[player]
        worth = (ps.credits + DISCARD_GAIN) // CREDITS_PER_VP - ps.credits // CREDITS_PER_VP
        # tried like the other options: objectives and end abilities that count
        # credits ("most credits", "+1 per credit") change with the +3 too
        a = {"player": player, "do": "discard", "card": c.name,
             "year": state.year, "turn": state.turn}
        r = _option(game, state, player, a, base, trials)
        if r["legal"]:
            reason = f"+3 credits: worth +{worth} VP at the end"
            if r["end_change"] != worth:
                reason += (f"; {r['end_change'] - worth:+d} VP from objectives or end "
                           "abilities that count credits")
            r["reason"] = reason
        rows.append(r)
    return _table(rows + notes)


def if_ended_now(game: Game, state: State | None = None) -> Score:
    """Every player's projected final score with its breakdown (a Score)."""
    return score(game, state, project=True)


def vp_by_year(game: Game, state: State | None = None, *, cumulative: bool = True) -> pd.DataFrame:
    """VP gained per year by each player (rows: years so far; columns: players)."""
    import pandas as pd
    state = state if state is not None else game.state
    years = list(range(1, state.year + 1))
    data = {p: [0] * len(years) for p in state.setup.players}
    for p in state.setup.players:
        for line in state.players[p].ledger:
            data[p][line.year - 1] += line.vp
    df = pd.DataFrame(data, index=pd.Index(years, name="year"))
    return df.cumsum() if cumulative else df


class Sandbox:
    """A branch of a game's record.  Try actions in it; the real game is never
    touched until :meth:`apply` pushes the branch's new actions onto it."""

    def __init__(self, game: Game):
        self.real = game
        self.start = len(game.actions)
        self._seen = copy.deepcopy(game.actions)     # the real record at the branch point
        self.branch = game.branch()

    def push(self, action: dict[str, Any]) -> dict[str, Any]:
        return self.branch.push(action)

    def pop(self) -> dict[str, Any]:
        if len(self.branch.actions) <= self.start:
            raise IllegalAction("nothing-to-undo", "the sandbox has no action of its own to undo")
        return self.branch.pop()

    @property
    def new_actions(self) -> list[dict[str, Any]]:
        return self.branch.actions[self.start:]

    def compare(self) -> pd.DataFrame:
        """Projected final totals, real game against the branch, per player."""
        import pandas as pd
        real = if_ended_now(self.real).table.set_index("player")
        mine = if_ended_now(self.branch).table.set_index("player")
        df = pd.DataFrame({"real": real.total, "sandbox": mine.total})
        df["difference"] = df.sandbox - df.real
        return df.loc[list(self.real.setup.players)]

    def apply(self) -> list[dict[str, Any]]:
        """Push the branch's new actions onto the real game; returns them."""
        # compare the actions, not just their number: an undo followed by another
        # action leaves the length as it was but changes the game
        if self.real.actions != self._seen:
            raise CompanionError("the real game changed since the sandbox was opened; "
                                 "open a new sandbox")
        applied = []
        for a in self.new_actions:
            applied.append(self.real.push(a))
        self.start = len(self.real.actions)
        self._seen = copy.deepcopy(self.real.actions)
        return applied


def preview_card(game: Game, card: Card, player: str | None,
                 cell: Sequence[int] | None = None) -> str:
    """What ``card`` (a definition being typed, not yet saved) would score here and
    now, in words: for a location built by ``player`` at ``cell``, the VP it gives
    now and the change to the projected final score; for a race (``cell`` None),
    the VP its end-of-game scoring would give ``player`` if the game ended now.
    Nothing is changed: the definition is tried on a branch of the game."""
    if player is None or player not in game.state.players:
        return ""
    branch = game.branch()
    try:
        branch.define(card)
    except CompanionError as e:
        return f"These values do not fit the game so far: {e}"
    state = _planning(branch.state, player)
    before = project_player(branch, state, player)
    if card.category == "race":
        lines = [l for l in score(branch, state, project=True).lines.itertuples()
                 if l.player == player and l.source == card.name]
        vp = sum(l.vp for l in lines)
        return f"If the game ended now, this race tile would give {player} {vp} VP."
    if cell is None:
        return ""
    action = _fill_choices(branch, state, {"player": player, "do": "build", "card": card.name,
                                           "at": list(cell)})
    try:
        _, after_state = branch.trial(action, state=state)
    except IllegalAction as e:
        return f"Not legal at {list(cell)}: {e.detail}"
    now = after_state.players[player].vp - state.players[player].vp
    after = project_player(branch, after_state, player)
    change = after["total"] - before["total"]
    return (f"Built at {list(cell)} now: {now:+d} VP on the track; projected final score "
            f"{change:+d} VP ({after['total']} in all).")
