"""One game as one page sees it: the store, the game replayed from its record, and the
revision the page has seen.  Shared by both game screens (``app.App`` for Among the Stars,
``sse_screen.SseScreen`` for Small Star Empires), which keep only their widgets.

The record in the store is the only state (boardgame.io's log).  A page never changes
its game without the store agreeing first:

- :meth:`GameSession.push` checks the action with the engine, stores it at the revision
  the page has seen, and only then keeps it.  If another page wrote in between, nothing is
  recorded: the session replays the store and raises :class:`PageBehind`, whose message
  says what changed.  If the file cannot be written (busy, disk), the game is as before
  and the message says the entry is kept, to press again.
- :meth:`GameSession.undo` is the same for taking back the last action.
- every other write of a page goes through the session too (issue 23), the role checked
  first: ``save_card``, ``add_manual``/``set_manual`` (the engine's ``check_manual``
  first), ``set_play_details``, ``create``, ``delete``, the imports, ``save_map``, the
  sector tiles and forms (issue 24), a laying draft.  tests/test_writes_through_session.py.
- a seat's page writes only to its player's game, and no finished game's actions
  (issue 35: :class:`companion.table.seats.SeatRules`, which the session inherits); it
  keeps only its player's drafts (issue 39).
- :meth:`GameSession.sync` is what a live page polls: the game replayed when the store
  holds what this page has not seen (a :class:`Change`).  No widgets (tests/test_session.py).

Part of the table layer (issue 38): it names no game.  The player's own documents of a
game (Among the Stars' catalogue, Small Star Empires' maps, sector tiles and forms) are
written by that game's writers, ``GameKind.user_writers``, found through the registry;
``companion.ui.session`` re-exports it for the screens.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..core.errors import CompanionError, StaleGame, StoreBusy, StoreWriteFailed
from ..core.jsontypes import JSON
from ..core.roles import Role, Write, check as check_role
from . import registry
from .changes import Change, PageBehind, diff as _diff
from .registry import load_game
from .seats import SeatRules
from .store import Store


@dataclass
class GameSession(SeatRules):
    """The store, the open game and the revision this page has seen; the seat rules
    (:class:`SeatRules`) are its methods too."""
    store: Store
    gid: str | None = None
    game: Any = None
    rev: int | None = None
    parts: JSON = field(default_factory=dict)    # the record without its actions, as read
    words: Callable[[JSON], str] | None = None   # how the screen puts an action in words
    again: str = PageBehind.AGAIN                # what a refused page asks the person to do
    seen: int | None = None                      # the store's data_version last polled
    trouble: str | None = None                   # why the last poll got no answer (issue 35)
    seat: str | None = None                      # a seat page (?seat=Ana): Ana, a player of
    #                                              the open game (None: the page is a view)
    seat_name: str | None = None                 # the address's seat as typed (set_seat)
    acting_for: str | None = None                # the explicit switch: one entry for him
    #: the page's role (companion.core.roles): host, seat or the table view; every write
    #: is checked against it here, and again by the store
    role: Role = Role.HOST
    #: (game id, index, action): the last action this page recorded, the one a seat may
    #: undo although it is another player's (entered for him with act_for)
    entered: tuple[str, int, JSON] | None = field(default=None, repr=False)
    cap_id: str | None = None           # under --lan (issue 35, seats.py): the page's
    seat_game: str | None = None        # capability's id; a seat's capability's one game

    _PARTS = ("format", "setup", "cards", "manual", "meta", "title")

    def __post_init__(self) -> None:
        self.role = Role(self.role)

    @classmethod
    def catalogue_only(cls, role: Role | str = Role.HOST) -> "GameSession":
        """A session for a screen that writes only the player's own catalogue (the
        catalogue screen opened on its own): no saved-games file, no game."""
        return cls(store=None, role=Role(role))        # type: ignore[arg-type]

    # -- the page's role ---------------------------------------------------------------
    @property
    def read_only(self) -> bool:
        """The table view: shows, records nothing (``role == Role.TABLE``)."""
        return self.role == Role.TABLE

    @read_only.setter
    def read_only(self, value: bool) -> None:
        self.set_role(Role.TABLE if value else Role.HOST)

    def set_role(self, role: Role | str) -> None:
        """This page's role, for the session and its store (both refuse what the role
        may not write)."""
        self.role = Role(role)
        self.store.role = self.role

    def require(self, write: Write | str) -> None:
        """Refuse ``write`` (RoleRefused, one line) unless the role (and capability) allow it."""
        check_role(self.role, write)
        self._check_capability(write)

    # a seat is its player's, in its game (issue 35): the methods of SeatRules (seats.py)

    # -- opening --------------------------------------------------------------------
    def open(self, gid: str) -> Any:
        """Replay game ``gid`` from the store (either game: the registry picks the class)."""
        rec, rev = self.store.load_revision(gid)
        return self._opened(gid, rec, rev, load_game(rec, trusted=True))

    def _opened(self, gid: str, rec: JSON, rev: int, game: Any) -> Any:
        """Keep ``game``, the replay of the store's ``rec`` at revision ``rev``."""
        other = gid != self.gid
        if other:
            self.acting_for = None           # the switch was for the game shown before
            self.entered = None
            if self.seat_name is None and self.seat is not None:
                self.seat_name = self.seat   # a seat named directly: its name from now on
        self.gid, self.game, self.rev = gid, game, rev
        self.parts = {k: rec.get(k) for k in self._PARTS}
        if other and self.seat_name is not None:
            # another game opened here (the address's, the saved-games list): the seat is
            # its player there, or the page is a view of it (issue 35)
            self.seat = self._seat_in_game()
        return game

    def _follow(self, rec: JSON) -> Any:
        """The open game brought to the store's ``rec``: its actions undone back to where
        the two agree, the store's further ones replayed (trusted).  The whole replay when
        anything but the actions changed or the game cannot; the game open before is
        never changed then."""
        g = self.game
        parts = {k: rec.get(k) for k in self._PARTS}
        if g is None or parts != self.parts or not hasattr(g, "replay"):
            return load_game(rec, trusted=True)
        stored = rec.get("actions") or []
        same = 0
        while same < min(len(g.actions), len(stored)) and g.actions[same] == stored[same]:
            same += 1
        undone: list[JSON] = []
        try:
            while len(g.actions) > same:
                undone.insert(0, g.pop())
            g.replay(stored[same:])
        except CompanionError:
            g.replay(undone)                      # the game as it was
            return load_game(rec, trusted=True)   # says what is wrong with the record
        return g

    def close(self) -> None:
        self.gid, self.game, self.rev, self.parts = None, None, None, {}

    @property
    def meta(self) -> JSON:
        """The record's play details (timer, place, notes) as last read."""
        return dict(self.parts.get("meta") or {})

    def describe(self, action: JSON) -> str:
        """The action in words, from the engine."""
        if self.words is not None:
            return self.words(action)
        return str(self.game.describe(action))

    # -- reading the store again ------------------------------------------------------
    def reload(self) -> Change:
        """Replay the stored record; say what changed since the page last read it."""
        if self.gid is None:
            return Change()
        parts = self.parts
        before = list(self.game.actions) if self.game is not None else []
        rec, rev = self.store.load_revision(self.gid)
        self._opened(self.gid, rec, rev, self._follow(rec))
        added, undone = _diff(before, list(self.game.actions))
        if undone:
            self.entered = None               # the action this page recorded may be gone
        return Change(added, undone, other=parts != self.parts)

    def behind(self) -> bool:
        """Does the store hold actions this page has not seen?  (A query: cheap, changes
        nothing.)"""
        return self.gid is not None and self.store.revision(self.gid) != self.rev

    def sync(self) -> Change:
        """Replay the store if it changed since this page read it (any page, any part of
        the record); an empty :class:`Change` if not."""
        if self.gid is None:
            return Change()
        rec, rev = self.store.load_revision(self.gid)
        if rev == self.rev and {k: rec.get(k) for k in self._PARTS} == self.parts:
            return Change()
        return self.reload()

    def poll(self) -> Change:
        """What a live page calls a few times a second: nothing but a ``PRAGMA
        data_version`` unless another connection has written to the file since the last
        poll; then :meth:`sync`."""
        if self.gid is None:
            return Change()
        v: int = self.store.data_version()
        if v == self.seen:
            return Change()
        change = self.sync()
        # kept only once the page has read the change: a read that failed (a busy file,
        # a lost server) is tried again at the next poll, not taken as seen for ever
        self.seen = v
        return change

    # -- writing --------------------------------------------------------------------
    # every write of a screen goes through one of these: the role is checked first
    # (companion.core.roles), then the store checks it again
    def push(self, action: JSON) -> JSON:
        """Check ``action`` with the engine, store it, keep it; return it as recorded.
        Illegal: the engine's :class:`IllegalAction`, nothing stored.  Another page wrote
        first: :class:`PageBehind` (the session shows the current game).  The file cannot
        be written: :class:`CompanionError` saying the entry is kept; the game is as before.
        A seat page (``seat``) refuses another player's action unless :meth:`act_for`
        named him; after one recorded action ``acting_for`` is back to None.  A seat's
        page records nothing in a game it is no player of, or a finished one (issue 35)."""
        self.require(Write.ACTION)
        self._seat_may(Write.ACTION)
        self._check_seat(action)
        g = self.game
        norm: JSON = g.push(action)
        try:
            self.rev = self.store.append(self._open_gid(), len(g.actions) - 1, norm, rev=self.rev)
        except StaleGame:
            g.pop()
            norm, g = self._again_behind(action)
        except (StoreBusy, StoreWriteFailed) as e:
            g.pop()
            raise CompanionError(f"{e} ({self.describe(norm)}: your entry is kept, press "
                                 "again to save it.)") from None
        except BaseException:
            g.pop()
            raise
        self.acting_for = None
        self.entered = (self._open_gid(), len(g.actions) - 1, norm)
        return norm

    def _again_behind(self, action: JSON, tries: int = 3) -> tuple[JSON, Any]:
        """Another page wrote first.  The store is replayed; if it only added other
        players' actions (nothing undone, nothing else changed) and ``action`` is still
        legal on the game as it is now, it is recorded now: seats laying their stations or
        playing a turn at the same moment each keep their entry (issue 39: the second of
        two taps a second apart was refused).  Anything else, or still illegal:
        :class:`PageBehind`, nothing recorded.  Returns the action as recorded and the game."""
        change = Change()
        for _ in range(tries):
            change = self._behind()
            who = action.get("player")
            if (change.undone or change.other or not change.added or who is None
                    or any(a.get("player") == who for a in change.added)):
                break
            g = self.game
            try:
                norm = g.push(action)
            except CompanionError:
                break                       # not legal any more: the page says what changed
            try:
                self.rev = self.store.append(self._open_gid(), len(g.actions) - 1, norm,
                                             rev=self.rev)
            except StaleGame:
                g.pop()
                continue
            except BaseException:
                g.pop()
                raise
            return norm, g
        raise PageBehind(change, self.describe, self.again) from None

    def undo(self) -> JSON:
        """Take back the last action, in the store first; return it.  Refused with
        :class:`PageBehind` if another page changed the game meanwhile (even by an undo
        and a different entry).  A seat's page undoes only what :meth:`check_undo` allows:
        its own player's action, in its own game, not finished."""
        self.check_undo()
        g = self.game
        try:
            self.rev = self.store.pop(self._open_gid(), len(g.actions) - 1, rev=self.rev)
        except StaleGame:
            raise PageBehind(self._behind(), self.describe, self.again) from None
        self.entered = None
        popped: JSON = g.pop()
        return popped

    def create(self, record: JSON, title: str | None = None, *,
               write: Write | str = Write.NEW_GAME) -> str:
        """Store a new game (``write``: a new game, or an import of a record file);
        returns its id.  The page opens it itself."""
        self.require(write)
        return self.store.create(record, title=title, write=write)

    def delete(self, gid: str) -> None:     # the host's page only
        self.require(Write.DELETE)
        self.store.delete(gid)

    def import_records(self, paths: Iterable[str | Path]) -> list[str]:  # record files: new ids
        from . import history
        self.require(Write.IMPORT)
        return history.import_records(self.store, paths)

    def import_plays(self, paths: Iterable[str | Path]) -> JSON:  # BG Stats / BGG: imported, ...
        from . import plays_import
        self.require(Write.IMPORT)
        return plays_import.import_plays(self.store, paths)

    def save_bgg_ids(self, ids: JSON) -> None:   # BoardGameGeek game ids typed (issue 37)
        from . import plays_export
        self.require(Write.IMPORT)               # the host's settings, as an import
        plays_export.save_bgg_ids(ids)

    # -- the player's own documents: each game's writers (GameKind.user_writers) -------
    def _user_write(self, name: str, write: Write, *args: Any) -> Any:
        """``write`` checked (the role), then the game's writer ``name``
        (``GameKind.user_writers``) called with ``args`` and the page's role."""
        self.require(write)
        return self._writer(name)(*args, role=self.role)

    def _writer(self, name: str) -> Callable[..., Any]:
        """The writer of the player's documents called ``name``: the open game's, else
        the first registered game's that has one (none: a one-line CompanionError)."""
        fmt = self.parts.get("format") if self.game is not None else None
        own = [registry.kind_of(fmt)] if isinstance(fmt, str) else []
        for kind in own + registry.kinds():
            writer = kind.user_writers.get(name)
            if writer is not None:
                return writer
        raise CompanionError(f"No game here keeps that document ({name}).")

    def import_catalogue(self, path: str | Path) -> list[str]:   # merged into my-cards.yaml
        names: list[str] = self._user_write("import_catalogue", Write.IMPORT, path)
        return names

    def save_map(self, hexmap: Any, name: str | None = None) -> Any:  # maps folder; path
        return self._user_write("save_map", Write.MAP, hexmap, name)

    # -- Small Star Empires sector tiles and forms (issue 24), the player's own files ---
    def save_tile(self, tile: Any) -> Any:
        """Save a typed sector tile (role: Write.TILES; the same id replaced); its path."""
        return self._user_write("save_tile", Write.TILES, tile)

    def delete_tile(self, tile_id: str) -> None:
        self._user_write("delete_tile", Write.TILES, tile_id)

    def import_tiles(self, path: str | Path) -> list[str]:  # all or nothing; the ids imported
        ids: list[str] = self._user_write("import_tiles", Write.IMPORT, path)
        return ids

    def save_form(self, form: Any, name: str | None = None) -> Any:    # its path
        return self._user_write("save_form", Write.MAP, form, name)

    def save_card(self, card: Any, *, game: bool = True) -> None:
        """Printed values typed at the table, in this order: (``game``) defined on the
        open game, which replays with them (refused: the engine's error, nothing saved);
        the player's catalogue (my-cards.yaml); (``game``) the game's cards in the store
        (other pages' values kept); (``game``) the game replayed from the store.
        Idempotent; a write that fails after the first step replays the store, so the
        open game is never ahead of it."""
        self.require(Write.CARDS)
        write_card = self._writer("save_card")     # the game's (GameKind.user_writers)
        in_game = game and self.gid is not None and self.game is not None
        if in_game:
            self._seat_may(Write.CARDS)     # a seat: only its own game's
        if in_game and hasattr(self.game, "define"):
            self.game.define(card)          # refused: nothing saved
        try:
            write_card(card, role=self.role)
            if in_game:
                self.store.merge_cards(self._open_gid(), [card.to_dict()])
        except BaseException:
            if in_game:
                try:
                    self.reload()
                except CompanionError:
                    pass
            raise
        if in_game:
            self.reload()

    def _check_manual(self, entries: list[JSON]) -> None:
        """The engine's check of typed final-scoring entries (``Game.check_manual``)."""
        check = getattr(self.game, "check_manual", None)
        if check is None:
            raise CompanionError("Open a game first.")
        check(entries)

    def add_manual(self, entries: list[JSON], cards: Any = ()) -> list[JSON]:
        """The players' typed final-scoring entries: checked by the engine first (refused:
        IllegalAction, nothing stored), merged with other pages' entries; the stored ones
        returned (and the game's ``manual``).  ``cards``: the cards the entries reveal,
        merged into the game's cards (a replay when one was not in its catalogue)."""
        self.require(Write.FINAL)
        self._seat_may(Write.FINAL)
        self._check_secret(entries := list(entries))   # a secret: its own seat's only
        self._check_manual(entries)
        cards = [c for c in cards if c is not None]
        manual = self.store.add_manual(self._open_gid(), entries)
        self.game.manual = manual
        if cards:
            catalogue = getattr(self.game, "catalogue", None)
            fresh = catalogue is None or any(catalogue.get(c.name) is None for c in cards)
            self.store.merge_cards(self._open_gid(), [c.to_dict() for c in cards])
            if fresh:
                self.reload()
        return manual

    def set_manual(self, manual: list[JSON]) -> None:
        """Replace the game's final-scoring entries (SSE's epic table), engine-checked."""
        self.require(Write.FINAL)
        self._seat_may(Write.FINAL)
        self._check_secret(manual := list(manual), before=getattr(self.game, "manual", None))
        self._check_manual(manual)
        self.store.set_manual(self._open_gid(), manual)
        self.game.manual = manual

    def set_play_details(self, meta: JSON, *, expect_timer: Any = None,
                         timer: bool = False, gid: str | None = None) -> JSON:
        """Store the open game's play details (the record's ``meta``: location, notes,
        new players, the timer).  ``timer``: a tap of the play timer (role: Write.TIMER),
        refused with :class:`StaleGame` when the stored timer is not ``expect_timer``
        (the one the page last saw); otherwise the details form (Write.DETAILS).
        ``gid``: another saved game than the open one (a timer bound to it).
        The game's revision does not change.  Returns the game's details."""
        from . import history
        self.require(Write.TIMER if timer else Write.DETAILS)
        self._seat_may(Write.TIMER if timer else Write.DETAILS, gid)   # its own game only
        gid = gid if gid is not None else self.gid
        if gid is None:
            raise CompanionError("Start or open a game first.")
        if timer:
            return history.set_play_details(self.store, gid, meta, expect_timer=expect_timer)
        return history.set_play_details(self.store, gid, meta)

    def _open_gid(self) -> str:
        """The open game's id (a write with no game open is refused in one line)."""
        if self.gid is None or self.game is None:
            raise CompanionError("Start or open a game first.")
        return self.gid

    def _behind(self) -> Change:
        try:
            return self.reload()
        except CompanionError:          # the game itself is gone: the screen says so
            raise StaleGame("this game is no longer in the saved-games file (deleted on "
                            "another page?)") from None

