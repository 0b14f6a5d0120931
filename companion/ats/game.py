"""The Among the Stars engine: a game is its setup plus an ordered list of actions.

Modelled on python-chess: :meth:`Game.push` applies an action (or raises
:class:`~companion.core.errors.IllegalAction` and changes nothing), :meth:`Game.pop`
takes the last one back, :meth:`Game.check` and :meth:`Game.legal_cells` are
queries.  The state is always the replay of the record.  An action is a value of
:mod:`companion.ats.actions` (``push`` and ``check`` answer a value with a value, a dict
with a dict), and :meth:`Game.parse` reads a line of notation in the context of the
position (:mod:`companion.ats.incontext`), as python-chess's ``Board.parse_san``.

The rules live in the modules the rulebook's chapters name (the dependency runs
one way: station -> abilities -> the rules -> game -> scoring):

- :mod:`~companion.ats.setup`: the setup, the constants and the rule codes (RULES);
- :mod:`~companion.ats.state`: the state, the VP lines;
- :mod:`~companion.ats.turns`: the turn flow, applying one entry through the handler
  of its kind;
- :mod:`~companion.ats.build`: building locations and reactors, energy, discarding;
- :mod:`~companion.ats.effects`: resolving the effects that wait (B Playing Order);
- :mod:`~companion.ats.spaceships`: the Revival spaceships;
- :mod:`~companion.ats.modes`: Conflict cards, virtual seats, the timing rules,
  advisors and the round-end check;
- :mod:`~companion.ats.manual`: the checks of the players' typed final-scoring entries.

In Jupyter a game shows itself as every player's station (``_repr_svg_``,
:func:`companion.ats.render.stations_svg`).

Every name other modules imported from here before the split is still importable
from here (``from companion.ats.game import Game, Setup, State, round_end_report``;
``describe_action``, now in :mod:`~companion.ats.actions`).
"""
from __future__ import annotations

import copy
from typing import Any, ClassVar, Iterable, overload

from . import scoring
from .action_kinds import ActionKind, action_kinds
from .actions import AtsAction, from_dict
from .actions import describe_action as describe_action
from .build import energy_options, legal_cells
from .catalogue import Card, Catalogue, record_cards
from .effects import settle_own
from ..core.errors import IllegalAction, RecordError, UnknownCardValues
from ..core.notation import notation_or_sentence, read_entry
from ..core.protocol import LegalityQueries
from ..core.record import copy_json
from ..core.undo import UNDO_DEPTH as UNDO_DEPTH, UndoStack
from .incontext import complete, parse_in_context
from .sayback import say_back as _say_back
from .spoken import read_sentence
from .modes import (drawn_turn_order, leaning, location_card, move_advisors, round_end_due,
                    round_end_report,
                    unsettled_advisors)
from .manual import check_claims, check_entries, check_secret
from .record import FORMAT, validate_record
from .render import stations_svg
from .setup import (ACTION_KEYS, ACTIONS, ADVISOR_ACTIONS, BASE_REACTOR_SUPPLY, CONFLICT_COST,
                    DISCARD_GAIN, ENERGY_REACH, LARGE_REACTOR_SUPPLY, MAX_SPACESHIP_REMOVAL,
                    MODES, REACTOR_COST, REVIVAL_REACTOR_SUPPLY, RULES, SIDE_ENTRIES,
                    SPACESHIP_FILLED, START_CREDITS, VIRTUAL_SEATS, YEARS, Setup, book_setup_problems,
                    check_book_setup, rule_text)
from .state import Pending, PlayerState, State, VPLine, at_round_end
from .needs import needs
from .spaceships import waiting_ships_allow
from .station import Cell, as_cell
from .turns import apply

__all__ = ["Game", "Setup", "State", "PlayerState", "Pending", "VPLine", "round_end_report",
           "describe_action", "rule_text", "RULES", "FORMAT", "YEARS", "MODES", "ACTIONS",
           "SIDE_ENTRIES", "ACTION_KEYS", "ADVISOR_ACTIONS", "VIRTUAL_SEATS", "CONFLICT_COST",
           "MAX_SPACESHIP_REMOVAL", "START_CREDITS", "REACTOR_COST", "DISCARD_GAIN",
           "ENERGY_REACH", "BASE_REACTOR_SUPPLY", "REVIVAL_REACTOR_SUPPLY",
           "LARGE_REACTOR_SUPPLY", "SPACESHIP_FILLED", "book_setup_problems", "check_book_setup"]


class Game(LegalityQueries[AtsAction]):
    """Setup + actions; the state is derived by replaying them."""

    format: ClassVar[str] = FORMAT
    #: read from a record from outside (a file, an import): its replays keep the box's
    #: checks (copies, a spaceship's space), as live entries do (:meth:`from_record`)
    outside: bool = False

    def __init__(self, setup: Setup | dict[str, Any], *, cards: Iterable[dict[str, Any]] = (),
                 catalogue: Catalogue | None = None, manual: Iterable[dict[str, Any]] = (),
                 book_setup: bool = True):
        """A new game of ``setup``.  ``book_setup`` (the default): the setup must follow
        the books' setup rules (:func:`~companion.ats.setup.check_book_setup`: the
        number of objectives, B 3 / B 8; the Influence tiles, R 4), else IllegalAction
        (rule ``objectives`` or ``advisor-tiles``), but for the rules the setup's
        ``options.on_trust`` lists (a partial record that says so).  :meth:`from_record`
        checks it for a record from outside, not for the store's own (older games still
        open)."""
        self.setup = setup if isinstance(setup, Setup) else Setup.from_dict(setup)
        base = catalogue if catalogue is not None else Catalogue.default()
        own = record_cards(list(cards))
        self._own: dict[str, Card] = {c.name.lower(): c for c in own}
        self.catalogue = base.overlay(own)
        self.actions: list[dict[str, Any]] = []
        self.manual: list[dict[str, Any]] = list(manual)
        self._check_setup_names()               # a name first: then how many
        if book_setup:
            check_book_setup(self.setup, self.setup.options.get("on_trust", ()))
        self.state = State.initial(self.setup)
        #: the states before the last :data:`UNDO_DEPTH` actions (:mod:`companion.core.undo`):
        #: a cache that lets :meth:`pop` skip the replay; emptied by any other replay.
        self._undo: UndoStack[State] = UndoStack()

    # -- record in and out ----------------------------------------------------
    @classmethod
    def from_record(cls, record: dict[str, Any], catalogue: Catalogue | None = None, *,
                    trusted: bool = False) -> "Game":
        """Replay a record.  Raises RecordError / IllegalAction naming the action index.

        ``trusted=False`` (the default) is for a record from outside (a file, an import,
        the command line, JSON pasted on a page): it first passes every check of the
        bounded reader (:func:`~companion.ats.record.validate_record`: shape, depth, sizes,
        numbers, texts).  ``trusted=True`` is for a record this companion wrote itself (the
        store, a game's own :meth:`to_record`): those checks are skipped.  The rules are
        checked by the replay either way, and the game shares no dict or list with
        ``record`` (card definitions are parsed into new objects; the setup, actions and
        manual entries are copied).

        A record from outside meets the checks of a new game and a live entry that no
        real game can break (issue 36: one checking path): the books' setup rules
        (:func:`~companion.ats.setup.check_book_setup`, less what ``options.on_trust``
        lists), the copies the box holds, a spaceship's space.  What a table may enter
        after the fact stays a replay's (a MAX broken and removed at the round's end,
        B 5; the random orders the record stores)."""
        if not trusted:
            validate_record(record)
        actions = record.get("actions") or []
        game = cls(copy_json(record["setup"]), cards=record.get("cards") or [],
                   catalogue=catalogue, manual=copy_json(record.get("manual") or []),
                   book_setup=not trusted)
        game.outside = not trusted
        if not trusted:         # the typed entries meet the page's checks (issue 36)
            game.check_secret_entries(game.manual)
            check_claims(game, game.manual)         # B 6: one objective, one claim
        state = game.state
        last = len(actions) - 1
        # a trusted build, reactor or discard holding nothing nested but its cell and
        # energy payers is not copied first: the rules copy the entry itself, and put
        # new lists for those two (or drop them), so the game still shares nothing
        plain_keys = {"year", "turn", "player", "do", "card", "at", "energy_from"}
        plain_do = ("build", "reactor", "discard")
        for i, action in enumerate(actions):
            if i == last:                   # the first undo needs no replay
                game._undo.push(state.copy())
            own = action if (trusted and type(action) is dict and action.get("do") in plain_do
                             and plain_keys.issuperset(action)) else copy_json(action)
            try:
                norm = game._apply(state, own, strict=True)
            except IllegalAction as e:
                raise e.at_index(i)
            game.actions.append(norm)
        return game

    def replay(self, actions: Iterable[dict[str, Any]]) -> None:
        """Apply further entries of this game's record, as stored (by this companion:
        the store, memory), with the checks of a replay (:meth:`from_record`'s, not
        :meth:`push`'s).  What a page does when another page added actions.  All or
        nothing: an illegal entry raises IllegalAction naming its index in the record,
        and the game is as before."""
        state = self.state.copy()
        kept, done = self._undo.copy(), []
        for i, action in enumerate(actions, len(self.actions)):
            before = state.copy()
            try:
                norm = self._apply(state, copy_json(action), strict=True)
            except IllegalAction as e:
                raise e.at_index(i)
            done.append(norm)
            kept.push(before)
        self.state = state
        self.actions += done
        self._undo = kept

    def to_record(self) -> dict[str, Any]:
        """The record of the game: new dicts and lists, shared with nothing the game keeps."""
        return {"format": FORMAT, "setup": self.setup.to_dict(),
                "cards": [c.to_dict() for c in self.used_cards()],
                "actions": copy_json(self.actions),
                "manual": copy_json(self.manual)}

    def used_cards(self) -> list[Card]:
        """Definitions of every card, race and objective this game refers to."""
        names: list[str] = []
        names += list(self.setup.races.values()) + list(self.setup.objectives)
        names += list(self.setup.secret_objectives.values())
        names += [a["card"] for a in self.actions if a.get("card")]
        names += [c["card"] for a in self.actions if a.get("do") == "lay"     # issue 39
                  for c in a.get("cells") or () if c.get("card")]
        seen, out = set(), []
        for n in names:
            c = self.catalogue.get(n)
            if c is not None and c.name.lower() not in seen:
                seen.add(c.name.lower())
                out.append(c)
        for k, c in self._own.items():       # keep definitions the record brought
            if k not in seen:
                seen.add(k)
                out.append(c)
        return sorted(out, key=lambda c: c.name)

    def define(self, card: Card) -> None:
        """Add or correct a card definition for this game (e.g. values a player typed).

        The record is replayed with the new definition; if that makes an earlier
        action illegal, nothing changes and the error is raised.
        """
        old_cat, old_own = self.catalogue, dict(self._own)
        self._own[card.name.lower()] = card
        self.catalogue = self.catalogue.overlay([card])
        try:
            self._replay()
        except Exception:
            self.catalogue, self._own = old_cat, old_own
            self._replay()
            raise

    def _check_setup_names(self) -> None:
        for p, r in self.setup.races.items():
            c = self.catalogue.get(r)
            if c is None or c.category != "race":
                raise RecordError(f"setup.races: unknown race '{r}' for {p}")
        for o in list(self.setup.objectives) + list(self.setup.secret_objectives.values()):
            c = self.catalogue.get(o)
            if c is None or c.category != "objective":
                raise RecordError(f"setup: unknown objective '{o}'")
        for p in self.setup.secret_objectives:
            race = self.catalogue.get(self.setup.races.get(p, "")) if p in self.setup.races else None
            if race is None or not race.extra.get("secret_objective"):
                raise RecordError(f"setup.secret_objectives: {p}'s race holds no secret objective")

    # -- the python-chess style API ----------------------------------------------
    @overload
    def check(self, action: AtsAction) -> AtsAction: ...
    @overload
    def check(self, action: dict[str, Any]) -> dict[str, Any]: ...

    def check(self, action: AtsAction | dict[str, Any]) -> AtsAction | dict[str, Any]:
        """The normalised action if it is legal now (a value for a value, a dict for a
        dict); raises IllegalAction if not.  A query: the game is not changed."""
        norm = self._apply(self.state.copy(), self._entry(action), strict=False)
        return from_dict(norm) if isinstance(action, AtsAction) else norm

    @overload
    def push(self, action: AtsAction) -> AtsAction: ...
    @overload
    def push(self, action: dict[str, Any]) -> dict[str, Any]: ...

    def push(self, action: AtsAction | dict[str, Any]) -> AtsAction | dict[str, Any]:
        """Apply ``action`` (an :class:`~companion.ats.actions.AtsAction`, or its dict);
        returns the stored, normalised action (a value for a value, else a copy of the
        dict).  The stored action shares nothing with the caller's."""
        trial = self.state.copy()
        norm = self._apply(trial, self._entry(action), strict=False)
        self._undo.push(self.state)         # never changed again: push works on a copy
        self.state = trial
        self.actions.append(norm)
        if isinstance(action, AtsAction):
            return from_dict(norm)
        out: dict[str, Any] = copy_json(norm)
        return out

    @staticmethod
    def _entry(action: Any) -> Any:
        """What the rules read: a value's dict; a dict read at the record's edge as its
        value (:func:`companion.core.notation.read_entry`), in new dicts and lists."""
        if isinstance(action, AtsAction):
            return action.to_dict()
        entry = read_entry(action, from_dict)
        return copy.deepcopy(entry) if entry is action else entry

    def parse(self, text: str, *, player: str | None = None) -> AtsAction:
        """A line of notation read in the context of the position, as python-chess's
        ``Board.parse_san`` (:func:`companion.ats.incontext.parse_in_context`): what it
        leaves out and the game knows is filled in (the year and turn, the only player
        who may act, the only legal cell, the only energy payers), and the action must
        be legal now.  A line that is no notation is read as a sentence as a player says
        it (issue 40: "build garden at one zero, energy from the main reactor",
        :func:`companion.ats.spoken.read_sentence`), completed the same way.
        NotationError (``IncompleteNotation`` names what is missing and its options; when
        neither reading works, the notation's message for a line that looks like notation
        -- quotes, ``@``, ``e[`` --, else the sentence's) or IllegalAction; nothing
        changes.  ``player``: whose action it is when the line names nobody (a seat's
        page enters its own player's actions)."""
        if player is not None and player not in self.setup.players:
            # before any reading (issue 52: a sentence naming a location raised KeyError
            # from the station of a player the game does not have)
            raise IllegalAction("wrong-player", f"'{player}' is not a player in this game",
                                action={"player": player})
        return notation_or_sentence(
            text, lambda: parse_in_context(self, text, player),
            lambda: complete(self, read_sentence(self, text, player)),
            lambda t: (any(mark in t for mark in ('"', "@", "e[", "x[", "="))
                       and not t.lstrip().startswith("=")))

    def pop(self) -> dict[str, Any]:
        """Undo: drop the last action; the state is the one before it (kept from when
        it was pushed or replayed, else the replay of the rest of the record)."""
        if not self.actions:
            raise IllegalAction("nothing-to-undo", "there is no action to undo")
        last = self.actions.pop()
        self.state = self._undo.pop(self.replayed)
        return last

    def _replay(self) -> None:
        state = State.initial(self.setup)
        for i, a in enumerate(self.actions):
            try:
                self._apply(state, a, strict=True)
            except IllegalAction as e:
                raise e.at_index(i)
        self.state = state
        self._undo.clear()

    def replayed(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default); a fresh object."""
        state = State.initial(self.setup)
        for a in self.actions[:upto]:
            self._apply(state, a, strict=True)
        return state

    # -- queries for the table -------------------------------------------------------
    def say_back(self, action: dict[str, Any]) -> str:
        """A whole action in a player's words with where it lands (issue 52: "Say it
        back", shown beside the marked cell before Confirm).  A query."""
        return _say_back(self, action)

    def describe(self, action: AtsAction | dict[str, Any]) -> str:
        """``action`` (a value, or an entry of this game's record) in words, as the page
        shows it: 'Ana built Garden at [0, 1]'.  A query: nothing changes."""
        return action.words() if isinstance(action, AtsAction) else describe_action(action)

    @property
    def finished(self) -> bool:
        return self.state.finished

    def may_act(self, player: str) -> bool:
        """Whether ``player`` has an entry to make now (a query, issue 38): while the
        stations are laid from the table, each player not laid yet (their ``lay``);
        then each player still to act in this turn ("During these turns, all players play
        simultaneously"); nobody once the game is over."""
        st = self.state
        if st.finished or player not in st.players:
            return False
        todo = self.still_to_lay()
        return player in todo if todo else player in st.waiting

    def still_to_lay(self) -> list[str]:
        """The players whose station is still to be laid from the table (issue 39), in
        seat order; [] for a game entered action by action, or once it is over.  A query."""
        st = self.state
        if not self.setup.options.get("laid") or st.finished:
            return []
        return [p for p in self.setup.players if p not in st.laid]

    def card(self, name: str) -> Card:
        """The location (or Conflict) card called ``name``; IllegalAction
        (unknown-card) with the closest names if there is none."""
        return location_card(self.catalogue, name)

    def may_take_action(self, player: str | None) -> bool:
        """Whether ``player`` may take their action now: in the game, not acted yet,
        the round end's advisors settled, and first in the order the rules ask for
        (Revival 2-player active player, timing rules)."""
        st = self.state
        if st.finished or player not in st.players or player in st.acted:
            return False
        if self.setup.options.get("laid") and len(st.laid) < len(st.players):
            return False                # a game laid from the table: every station first
        if self.unsettled_advisors() or self.round_end_due():
            return False
        if self.setup.options.get("timing_rules") or self.setup.active_player(st.year) in st.waiting:
            return self.waiting_in_order()[:1] == [player]
        return True

    def legal_cells(self, player: str, card: str | None = None, do: str = "build") -> list[Cell]:
        """Cells where ``player`` may build ``card`` (or a reactor) right now."""
        if not self.may_take_action(player):
            return []
        return legal_cells(self.catalogue, self.state, player, card, do)

    def payers(self, player: str, cell: Cell) -> list[tuple[Cell, int, int]]:
        """Reactors that could pay energy for ``cell``: (cell, distance, cubes)."""
        return [r for r in self.state.station(player).reactors_in_range(as_cell(list(cell)), ENERGY_REACH)
                if r[2] > 0]

    def energy_options(self, player: str, cell: Cell, energy: int) -> list[dict[str, Any]]:
        """Every way the reactors within reach of ``cell`` can pay ``energy`` cubes:
        ``{"energy_from": [[r, c], ...], "label": str, "default": bool}``; the
        documented default payer (nearest reactor, then most cubes) is marked."""
        if not energy:
            return []
        return energy_options(self.state.station(player), as_cell(list(cell)), energy)

    def needs(self, action: AtsAction | dict[str, Any]) -> dict[str, Any]:
        """What ``action`` (a value or its dict) still needs from the players before it
        can be pushed (:func:`companion.ats.needs.needs`: printed values, energy payers,
        the choices an ability asks for, spaceships' spots).  A query; IllegalAction when
        the action breaks a rule whatever the players answer."""
        return needs(self, action.to_dict() if isinstance(action, AtsAction) else action)

    def legal_actions(self, player: str, card: str) -> list[AtsAction]:
        """Every legal build, reactor and discard for ``player`` holding ``card`` now
        (default energy payers), as action values (:mod:`companion.ats.actions`)."""
        return [from_dict(a) for a in self.legal_entries(player, card)]

    def legal_entries(self, player: str, card: str) -> list[dict[str, Any]]:
        """:meth:`legal_actions` as the record's entries (JSON), to be completed (an
        ability's choices, spaceships) before they are pushed."""
        st = self.state
        base = {"year": st.year, "turn": st.turn, "player": player, "card": card}
        out = []
        try:
            cells = self.legal_cells(player, card)
        except UnknownCardValues:
            cells = []
        for cell in cells:
            out.append({**base, "do": "build", "at": list(cell)})
        for cell in self.legal_cells(player, do="reactor"):
            out.append({**base, "do": "reactor", "at": list(cell)})
        if self.may_take_action(player) and waiting_ships_allow(st, player):
            out.append({**base, "do": "discard"})
        return out

    def _repr_svg_(self) -> str:
        """Every player's station side by side, each with its player's name: the game
        as a picture in Jupyter (its rich display, as python-chess's ``Board._repr_svg_``;
        :func:`companion.ats.render.stations_svg`)."""
        return stations_svg((p, self.state.station(p)) for p in self.setup.players)

    def score(self) -> scoring.Score:
        return scoring.score(self)

    def final_needs(self) -> dict[str, Any]:
        """What stands between the game and its final table, all at once (a query):

        - ``blocked``: messages for what must be entered in the game first
          (advisors to settle, round-end removals);
        - ``values``: cards, races and objectives whose printed values are needed
          (``{"card", "fields", "why"}``), for the card form;
        - ``manual``: entries only the players can type (scoring.manual_requests).

        All empty once :meth:`score` can give the final table.
        """
        out: dict[str, Any] = {"blocked": [], "values": [], "manual": []}
        if not self.state.finished:
            return out
        for tile, who in self.unsettled_advisors().items():
            out["blocked"].append(f"the advisor of '{tile}' leans to {who}: take its bonus or "
                                  "decline it for 1 VP (R 4)")
        for v in round_end_report(self):
            out["blocked"].append(f"{v['message']} (B 5)")
        out["values"] = scoring.unknown_for_scoring(self)
        out["manual"] = scoring.manual_requests(self)
        return out

    def trial(self, action: AtsAction | dict[str, Any], *, state: State | None = None,
              end_turn: bool = False) -> tuple[dict[str, Any], State]:
        """Apply ``action`` to a copy of ``state`` (default: now) and return
        (normalised action, the new state).  The game is not changed.

        With ``end_turn=False`` the turn does not end even if this was the last
        player to act (no year change, no +10 credits): what-if views use that to
        see the action's own effect.
        """
        base = state if state is not None else self.state
        trial = base.copy()                 # a full copy: a trial never touches ``base``
        return self.trial_in_place(trial, action, end_turn=end_turn), trial

    def trial_in_place(self, state: State, action: AtsAction | dict[str, Any], *,
                       end_turn: bool = False) -> dict[str, Any]:
        """:meth:`trial` on ``state`` itself, which the caller has copied (or put back
        after, as the what-if views do with one scratch station): ``state`` is changed;
        the game and its own state are not.  Returns the normalised action (a dict)."""
        if isinstance(action, AtsAction):
            action = action.to_dict()
        player = action.get("player") if isinstance(action, dict) else None
        norm = self._apply(state, action, strict=False, end_turn=end_turn)
        if not end_turn and isinstance(player, str):
            move_advisors(state, only=player)     # its advisor moves, as if alone
            settle_own(self.catalogue, state, player)
        return norm

    def branch(self) -> "Game":
        """An independent copy of this game (same record) to try things in."""
        g = Game.__new__(Game)
        g.setup, g._own, g.catalogue = self.setup, dict(self._own), self.catalogue
        g.actions = copy_json(self.actions)
        g.manual = copy_json(self.manual)
        g.state = self.state.copy()
        g._undo = self._undo.copy()         # states never changed once stored: shared
        return g


    # -- the rules ---------------------------------------------------------------------
    def _apply(self, state: State, action: Any, *, strict: bool,
               end_turn: bool = True) -> dict[str, Any]:
        """Check and apply one action to ``state`` (mutated).  Returns it normalised.  A
        game read from a record from outside (:meth:`from_record`) replays it with the
        box's checks (``outside``)."""
        return apply(self.catalogue, state, action, strict=strict, end_turn=end_turn,
                     draw_order=self.turn_order, outside=self.outside)

    # -- the order of play, advisors, the round's end --------------------------------
    def waiting_in_order(self) -> list[str]:
        """Players still to act this turn, in the order the rules ask for: the
        Revival 2-player active player first; with the timing rules, by VP."""
        st = self.state
        waiting = st.waiting
        if self.setup.options.get("timing_rules") and not st.finished:
            return [p for p in self.turn_order() if p in waiting]
        active = self.setup.active_player(st.year)
        if active in waiting:
            return [active] + [p for p in waiting if p != active]
        return waiting

    def turn_order(self, state: State | None = None) -> list[str]:
        """Timing rules: this turn's order (most VP, then most credits).  Players who
        tie on both are put in an order drawn from the game's seed and the turn
        (:func:`companion.ats.modes.drawn_turn_order`): every page shows the same one
        until an action stores it.  A query: nothing changes."""
        return drawn_turn_order(state if state is not None else self.state)

    def leaning(self, state: State | None = None) -> dict[str, str]:
        """tile -> the player its advisor leans to now (tiles in the middle left out)."""
        return leaning(state if state is not None else self.state)

    def unsettled_advisors(self, state: State | None = None) -> dict[str, str]:
        """At a round's end: tiles whose bonus has not been taken or declined yet."""
        return unsettled_advisors(state if state is not None else self.state)

    #: between two rounds (:func:`companion.ats.state.at_round_end`)
    at_round_end = staticmethod(at_round_end)

    def round_end_due(self, state: State | None = None) -> list[dict[str, Any]]:
        """At a round's end: :func:`round_end_report` (what the stations break, to fix
        with ``remove`` entries before the next round begins, B 5).  Empty during a
        round: a violation found mid-round is fixed at the round's end."""
        return round_end_due(self.catalogue, state if state is not None else self.state)

    def action_kinds(self, player: str | None = None) -> list[ActionKind]:
        """The kinds of turn action the page offers (:mod:`companion.ats.action_kinds`):
        label, cost in credits, hint quoting the rule.  They follow the setup (mode,
        modules); ``player`` is accepted for the page's call and narrows nothing (whether
        a given action is legal is :meth:`check`'s).  A query: nothing changes."""
        return action_kinds(self.setup)

    # -- the players' typed final-scoring entries (issue 23: every write checked) ------
    def check_manual(self, entries: Iterable[Any]) -> None:
        """Refuse typed final-scoring entries (record ``manual``) the engine would not take,
        before anything is stored (a query: nothing changes):
        :func:`companion.ats.manual.check_entries`.  Raises :class:`IllegalAction`:
        ``malformed``, ``wrong-player``, ``objectives`` or ``manual-vp``."""
        check_entries(self, entries)

    def check_secret_entries(self, entries: Iterable[dict[str, Any]]) -> None:
        """Refuse a secret objective entry that names an objective face up or another
        player's secret objective (B 3; :func:`companion.ats.manual.check_secret`):
        :class:`IllegalAction` ``objectives``.  A query: nothing changes."""
        check_secret(self, entries)
