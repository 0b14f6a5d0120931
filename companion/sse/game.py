"""The Small Star Empires engine: a game is its setup plus an ordered list of moves.

Same model as the Among the Stars engine (python-chess style):
:meth:`SseGame.push` applies an action or raises
:class:`~companion.core.errors.IllegalAction` (with a rule code) and changes
nothing, :meth:`SseGame.pop` takes the last one back, :meth:`SseGame.check` and
:meth:`SseGame.legal_moves` are queries.  The state is always the replay of the
record.  An action is a value of :mod:`companion.sse.actions` (``push`` and ``check``
answer a value with a value, a dict with a dict), and :meth:`SseGame.parse` reads a line
of notation in the context of the position (:mod:`companion.sse.incontext`).  Book
references: "S Movement", "S Colonize", "S Game End", "S Variants ..." are the sections
of the Small Star Empires rulebook.

The rules live in one module per chapter of the book; this module holds the game
(:class:`SseGame`) and keeps every name it held before the split importable:

* ``rules.py``: the book's numbers, variants, readings (``OPTIONS``), rule codes
  (``RULES``), :class:`IllegalMove`;
* ``setup.py``: :class:`SseSetup`, :func:`legacy_setup`;
* ``state.py``: :class:`State`, :class:`PlayerState`, :class:`Ship`, :class:`Colony`,
  :class:`VPLine`, :class:`Move`;
* ``movement.py``: movement and colonising (S Movement, S Wormholes, S Colonize);
* ``effects.py``: the variants' effects (Unexplored Systems, Damaged Ships);
* ``turns.py``: applying an action (a handler per kind, :data:`~.turns.HANDLERS`),
  turn order, passing and the end of the game;
* ``scoring.py``: the score (S Scoring).
"""
from __future__ import annotations

import re
from typing import Any, ClassVar, Iterable, overload

from ..core.errors import IllegalAction, RecordError
from ..core.notation import notation_or_sentence, read_entry
from ..core.protocol import LegalityQueries
from ..core.undo import UndoStack
from .actions import SseAction
from .actions import from_dict as action_from_dict
from ..core.record import copy_json
from .effects import nordinn_targets, refuel_targets
from .hexmap import EFFECT_NAMES, Hex, HexMap, System, as_hex
from .incontext import complete, parse_in_context
from .movement import can_move, destinations
from .render import map_svg
from .record import FORMAT, validate_record  # the one definition: companion/sse/record.py
from .rules import (ACTION_KEYS, BOOK_SHIPS, BOX, CAMPAIGN_PIECES, CAMPAIGN_TARGET,
                    DAMAGED_REACH, DEFAULT_COLOURS, EFFECT_VP, EPIC_NEBULAE, MODES, NEBULA_TABLE,
                    OPTIONS, PIECE_NAMES, PIECES, RULES, VARIANTS, IllegalMove, rule_text)
from .scoring import Score, score
from .sayback import say_back as _say_back
from .spoken import read_sentence
from .setup import SseSetup, legacy_setup
from .state import Colony, Move, PlayerState, Ship, State, VPLine
from .turns import apply, settle

__all__ = ["ACTION_KEYS", "BOOK_SHIPS", "BOX", "CAMPAIGN_PIECES", "CAMPAIGN_TARGET",
           "DAMAGED_REACH", "DEFAULT_COLOURS", "EFFECT_VP", "EPIC_NEBULAE", "FORMAT", "MODES",
           "NEBULA_TABLE", "OPTIONS", "PIECE_NAMES", "PIECES", "RULES", "VARIANTS",
           "EFFECT_NAMES", "Hex", "HexMap", "System", "IllegalAction", "IllegalMove",
           "rule_text", "SseSetup", "legacy_setup", "Colony", "Move", "PlayerState", "Ship",
           "State", "VPLine", "SseGame", "describe_action"]


def describe_action(action: dict[str, Any], with_player: bool = True) -> str:
    """A stored action in words, e.g. ``"Ann moved ship 0 [0, 0] → [1, 0], colonised with a
    City"`` (``with_player``: the player's name first).  No game needed: the words come from
    the action alone, as stored (``SseGame.push`` returns it so), through its typed action
    (:func:`companion.sse.actions.from_dict`, :meth:`~companion.sse.actions.SseAction.words`)."""
    try:
        typed = action_from_dict({k: v for k, v in action.items() if k in ACTION_KEYS})
    except RecordError:         # a kind no handler applies: read as a move, as before
        typed = action_from_dict({k: v for k, v in action.items() if k in ACTION_KEYS}
                                 | {"do": "move"})
    return typed.words(with_player)


#: what only a line of notation holds (a sentence never does): its error is the notation's
NOTATION_MARKS = re.compile(r'#|->|@|"|=')

class SseGame(LegalityQueries[SseAction]):
    """Setup + actions; the state is derived by replaying them."""

    format: ClassVar[str] = FORMAT

    def __init__(self, setup: SseSetup | dict[str, Any], *,
                 manual: list[dict[str, Any]] | None = None,
                 meta: dict[str, Any] | None = None) -> None:
        self.setup = setup if isinstance(setup, SseSetup) else SseSetup.from_dict(setup)
        self.manual: list[dict[str, Any]] = list(manual or [])
        self.meta = dict(meta or {})
        self.actions: list[dict[str, Any]] = []
        self.state = self._initial()
        #: the states before the last actions (:mod:`companion.core.undo`): a cache that
        #: lets :meth:`pop` skip the replay of the record
        self._undo: UndoStack[State] = UndoStack()

    def _initial(self) -> State:
        """The state before the first action."""
        state = State.initial(self.setup)
        if not self.setup.laid:         # laid from the table: the turn comes after the lay
            settle(state, 0)
        return state

    # -- record in and out ---------------------------------------------------------
    @classmethod
    def from_record(cls, record: dict[str, Any], *, trusted: bool = False) -> "SseGame":
        """Replay a record.  Raises RecordError / IllegalAction naming the action index.

        ``trusted=False`` (the default) is for a record from outside (a file, an import,
        the command line, JSON pasted on a page): it first passes every check of the
        bounded reader (:func:`~companion.sse.record.validate_record`).  ``trusted=True``
        is for a record this companion wrote itself (the store, :meth:`to_record`): those
        checks are skipped.  The rules are checked by the replay either way, and the game
        shares no dict or list with ``record`` (each action is copied as it is applied;
        the setup, manual entries and play details are copied here)."""
        if not trusted:
            validate_record(record)
        game = cls(copy_json(record["setup"]), manual=copy_json(record.get("manual") or []),
                   meta=copy_json(record.get("meta")))
        game.replay(record.get("actions") or [])
        return game

    def replay(self, actions: Iterable[dict[str, Any]]) -> None:
        """Apply further entries of this game's record, as stored (by this companion:
        the store, memory), with the checks of a replay (:meth:`from_record`'s).  All or
        nothing: an illegal entry raises IllegalAction naming its index in the record,
        and the game is as before."""
        state, n, kept = self.state, len(self.actions), self._undo.copy()
        try:
            for i, action in enumerate(actions, n):
                try:
                    self._push(action, strict=True)
                except IllegalAction as e:
                    raise e.at_index(i)
        except BaseException:
            self.state, self._undo = state, kept
            del self.actions[n:]
            raise

    def to_record(self) -> dict[str, Any]:
        """The record of the game: new dicts and lists, shared with nothing the game keeps."""
        rec = {"format": FORMAT, "setup": self.setup.to_dict(),
               "actions": copy_json(self.actions)}
        if self.manual:
            rec["manual"] = copy_json(self.manual)
        return rec

    # -- the python-chess style API ----------------------------------------------------
    @overload
    def push(self, action: SseAction, *, strict: bool = False) -> SseAction: ...
    @overload
    def push(self, action: dict[str, Any], *, strict: bool = False) -> dict[str, Any]: ...

    def push(self, action: SseAction | dict[str, Any], *,
             strict: bool = False) -> SseAction | dict[str, Any]:
        """Apply ``action`` (an :class:`~companion.sse.actions.SseAction`, or its dict);
        returns it normalised, as stored (a value for a value, else a copy of the dict).
        Raises IllegalAction (nothing changes)."""
        stored = self._push(self._entry(action), strict=strict)
        if isinstance(action, SseAction):
            return action_from_dict(stored)
        out: dict[str, Any] = copy_json(stored)
        return out

    def _push(self, action: Any, *, strict: bool) -> dict[str, Any]:
        """:meth:`push` returning the stored action itself (not a copy): the replay's."""
        trial = self.state.copy()
        norm = apply(trial, action, strict=strict)     # apply copies ``action`` first
        self._undo.push(self.state)
        self.state = trial
        self.actions.append(norm)
        return norm

    @staticmethod
    def _entry(action: Any) -> Any:
        """What the rules read: a value's dict; a dict read at the record's edge as its
        value (:func:`companion.core.notation.read_entry`; without ``do``, a move)."""
        if isinstance(action, SseAction):
            return action.to_dict()
        if isinstance(action, dict) and "do" not in action:
            moved = {"do": "move", **action}
            entry = read_entry(moved, action_from_dict)
            return action if entry is moved else entry
        return read_entry(action, action_from_dict)

    def pop(self) -> dict[str, Any]:
        """Undo the last action (returns it): the state before it is the one kept, else
        the replay of the rest of the record.  Nothing to undo: IllegalAction
        ``nothing-to-undo``, as in Among the Stars."""
        if not self.actions:
            raise IllegalAction("nothing-to-undo", "there is no action to undo")
        last = self.actions.pop()
        self.state = self._undo.pop(self.replayed)
        return last

    def replayed(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default); a fresh object."""
        state = self._initial()
        for a in self.actions[:upto]:
            apply(state, a, strict=True)
        return state

    @overload
    def check(self, action: SseAction) -> SseAction: ...
    @overload
    def check(self, action: dict[str, Any]) -> dict[str, Any]: ...

    def check(self, action: SseAction | dict[str, Any]) -> SseAction | dict[str, Any]:
        """The normalised action if it is legal now (a value for a value, a dict for a
        dict); raises IllegalAction if not.  A query."""
        norm = apply(self.state.copy(), self._entry(action), strict=False)
        return action_from_dict(norm) if isinstance(action, SseAction) else norm

    def parse(self, text: str, *, player: str | None = None) -> SseAction:
        """A line of notation, or a sentence as a player says it, read in the context of
        the position, as python-chess's ``Board.parse_san``
        (:func:`companion.sse.incontext.parse_in_context`): what it leaves out and the
        game knows is filled in (the player whose turn it is, a ``move``, the only ship,
        destination and piece), and the action must be legal now.  A line that is no
        notation (a plain NotationError) is read as a sentence ("Ben: trade station to
        the red nebula", :func:`companion.sse.spoken.read_sentence`) and completed the
        same way (:func:`companion.sse.incontext.complete`).  When both fail, the error
        is the notation's for a line that looks like notation (``#``, ``->``, ``@``,
        ``key=``, quotes), else the sentence's.  A line of plain words whose first word
        is no player of the game, which the notation took for the player ("home", "pass":
        IllegalAction ``wrong-player``), is read as a sentence too.  NotationError
        (``IncompleteNotation`` names what is missing and its options) or IllegalAction;
        nothing changes.  ``player``: a seat page's player, whose action a sentence
        naming nobody is; a line for another player (or on another player's turn) is
        refused first (IllegalMove ``wrong-player``, issue 52)."""
        if player is not None and player not in self.setup.players:
            raise IllegalMove("wrong-player", f"'{player}' is not a player in this game",
                              action={"player": player})

        def words_read_as_a_player(e: IllegalAction) -> bool:
            # a first word that is no player ("home", "pass") was read as the WHO
            first = text.split()[0] if text.split() else ""
            return (e.rule == "wrong-player" and first not in self.setup.players
                    and not NOTATION_MARKS.search(text))
        value = notation_or_sentence(
            text, lambda: parse_in_context(self, text),
            lambda: complete(self, read_sentence(self, text, player)),
            lambda t: bool(NOTATION_MARKS.search(t)), retry=words_read_as_a_player)
        if player is not None and value.to_dict().get("player") != player:
            raise IllegalMove("wrong-player", f"this page enters {player}'s actions, not "
                              f"{value.to_dict().get('player')}'s", action=value.to_dict())
        return value

    def _repr_svg_(self) -> str:
        """The map with every piece and ship: the game as a picture in Jupyter (its rich
        display, as python-chess's ``Board._repr_svg_``; :func:`companion.sse.render.map_svg`)."""
        return map_svg(self.state.map, self.state)

    def trial(self, action: SseAction | dict[str, Any]) -> State:
        """The state after ``action`` (raises IllegalAction); the game is unchanged."""
        st = self.state.copy()
        apply(st, action.to_dict() if isinstance(action, SseAction) else action, strict=False)
        return st

    def say_back(self, action: dict[str, Any]) -> str:
        """A whole action in a player's words with where it lands (issue 52: "Say it
        back", shown beside the marked cell before Confirm).  A query."""
        return _say_back(self, action)

    def describe(self, action: SseAction | dict[str, Any]) -> str:
        """``action`` (a value, or as stored) in words, the player's name first: ``"Ann
        moved ship 0 [0, 0] → [1, 0], colonised with a City"`` (:func:`describe_action`)."""
        return action.words() if isinstance(action, SseAction) else describe_action(action)

    @property
    def current(self) -> str | None:
        return self.state.current

    def may_act(self, player: str) -> bool:
        """Whether ``player`` has an entry to make now (a query, issue 38): while the
        pieces are laid from the table, each player not laid yet (their ``lay``); then
        only the player whose turn it is ("on your turn, you MUST do the following: Move
        one of you ships and then colonize"; a player who passed takes no more turns);
        nobody once the game is over."""
        st = self.state
        if st.finished or player not in st.players:
            return False
        todo = self.still_to_lay()
        return player in todo if todo else player == st.current

    def still_to_lay(self) -> list[str]:
        """The players whose pieces are still to be laid from the table (issue 39), in
        seat order; [] for a game entered move by move, or once it is over.  A query."""
        st = self.state
        if not self.setup.laid or st.finished:
            return []
        return [p for p in self.setup.players if p not in st.laid]

    def ships(self, player: str) -> list[Ship]:
        return list(self.state.players[player].ships)

    def legal_moves(self, player: str, ship: int, state: State | None = None, *,
                    piece: str | None = None) -> list[Move]:
        """Every legal destination of ``player``'s ship number ``ship`` (a query; whether or
        not it is that player's turn).

        ``piece`` (``city`` or ``trade_station``): only the destinations where a move
        colonising with that piece is legal, i.e. the piece is in the move's ``pieces``
        (none left, or no City left after paying to pass under Open Borders, and the
        destination is not offered; an Unexplored System is entered with a City).  A repair
        at home places no piece and is kept whatever the piece.  ``None``: every move."""
        if piece is not None and piece not in PIECES:
            raise ValueError(f"piece is one of {', '.join(PIECES)} or None, not {piece!r}")
        st = state or self.state
        ps = st.players[player]
        if not (0 <= ship < len(ps.ships)):
            return []
        moves = list(destinations(st, ps, ps.ships[ship]).values())
        if piece is not None:
            moves = [m for m in moves if m.kind == "repair" or piece in m.pieces]
        return moves

    def legal_destinations(self, player: str, ship: int, *, piece: str | None = None) -> set[Hex]:
        return {m.to for m in self.legal_moves(player, ship, piece=piece)}

    def pieces_left(self, player: str, state: State | None = None) -> dict[str, int]:
        """The player's reserve: ``{"city": n, "trade_station": m}``."""
        ps = (state or self.state).players[player]
        return {"city": ps.cities, "trade_station": ps.trade_stations}

    def placeable_pieces(self, player: str, state: State | None = None) -> tuple[str, ...]:
        """The pieces ``player`` can colonise with now, City first: each kind with at least
        one left in the reserve (S Colonize: "from your reserves").  Nothing once the game
        is over or the player has passed for the rest of the game.  Whether a given
        destination takes that piece is :meth:`legal_moves` with ``piece=``."""
        st = state or self.state
        ps = st.players[player]
        if st.finished or ps.passed:
            return ()
        left = self.pieces_left(player, st)
        return tuple(p for p in PIECES if left[p] > 0)

    def can_move(self, player: str, state: State | None = None) -> bool:
        return can_move(state or self.state, player)

    def score(self, *, project: bool = False) -> Score:
        return score(self, project=project)

    # -- the entry form's queries for the Unexplored System tiles -------------------------
    def nordinn_choices(self, player: str, at: Any, state: State | None = None) -> list[Hex]:
        """The Cities a Nordinn Empire revealed at ``at`` by ``player`` may destroy, under
        the game's ``options.nordinn`` (a query, for the entry form): the player's own
        Cities next to it; else another player's City (any of them by default, the book's
        literal words; only adjacent ones with ``adjacent_city``).  Empty: nothing is
        destroyed."""
        st = state if state is not None else self.state
        return nordinn_targets(st, player, as_hex(at, "'at'"))[0]

    def refuel_choices(self, player: str, at: Any, *, ship: int | None = None,
                       state: State | None = None) -> list[Move]:
        """Where a ship on a Refuelling Station at ``at`` may go on (``then.to``), under the
        game's ``options.refuel`` (a query, for the entry form).  "You may then move the
        ship in this system into an adjacent uncolonized system and colonize that system":
        each :class:`Move` (``via`` "refuel") is a system next to ``at`` with the pieces
        that may colonise it; kind ``explore`` is an Unexplored System (``uncolonised``,
        the default: a City, its tile revealed as it is entered), never offered with
        ``explored``.

        ``ship``: the state after ``player``'s ship number ``ship`` has moved to ``at`` and
        revealed the Refuelling Station there (its City placed, any Open Borders payment
        made); an illegal move gives [].  ``state``: a state in which the ship already
        stands at ``at`` (e.g. :meth:`trial`'s, for a Refuelling Station reached by another
        one).  Neither: the current state."""
        at = as_hex(at, "'at'")
        if state is None and ship is not None:
            try:
                state = self.trial({"player": player, "ship": ship, "to": list(at),
                                    "reveal": {"effect": "refuelling_station"}})
            except IllegalAction:
                return []
        st = state if state is not None else self.state
        ps = st.players[player]
        if ship is not None and 0 <= ship < len(ps.ships):
            sh = ps.ships[ship]
        else:
            sh = next((s for s in ps.ships if s.at == at), Ship(-1, at))
        return refuel_targets(st, ps, sh, at)

    # -- the players' typed final-scoring entries (issue 23: every write checked) ------
    def check_manual(self, entries: Any) -> None:
        """Refuse typed final-scoring entries (record ``manual``) the engine would not take,
        before anything is stored (a query: nothing changes).  The only one is the epic
        nebula table (``{"source": "nebula_table", "values": [6 whole numbers 0..999]}``),
        at most once; once the game is over, only when the scoring asks for it (the epic
        mode, and no table in the setup).  Raises :class:`IllegalAction` ``malformed``."""
        from ..core.errors import RecordError
        from .record import validate_manual
        entries = list(entries)
        for i, m in enumerate(entries):
            try:
                validate_manual(m, i)
            except RecordError as e:
                raise IllegalAction("malformed", f"final-scoring entry: {e}") from None
        if len(entries) > 1:
            raise IllegalAction("malformed", "the epic nebula table is typed once (one entry)")
        if entries and self.state.finished and (self.setup.mode != "epic"
                                                or self.setup.nebula_table):
            raise IllegalAction("malformed", "the final scoring asks for no nebula table: "
                                + ("the setup gives it" if self.setup.mode == "epic"
                                   else "the nebula VP of the standard game are the book's"))
