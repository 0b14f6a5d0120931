"""A seat is its player's, in its game (issues 20 and 35): the rules of a seat's page
(``?seat=Ana``), :class:`SeatRules`, which :class:`companion.table.session.GameSession`
inherits; they apply on top of the role's (companion.core.roles).

- ``seat_name`` is the address's seat as typed (:meth:`SeatRules.set_seat`); ``seat`` is
  that name's player in the *open* game, found again whenever another game is opened on
  the page (``GameSession._opened``): the address's ``?game=``, the latest, or one chosen
  in the saved-games list, even forced through the page's socket.  A name that is no
  player of the open game leaves ``seat`` None: the page is a view of that game.
- ``_seat_may``: a seat's page writes only to the open game, whose player its seat is;
  a finished game's actions stay as they are (final entries, card values, play details
  and the timer may still be saved: the final entries are typed after the end).
- ``check_undo``: a seat undoes only its own player's last action, one naming no
  player (any seat may enter those), or the action this page itself recorded last (one
  it entered for another player with ``act_for``: the friend without a phone).
- ``may_undo``: whether the page shows *Undo last action* at all now (its role and
  the seat rules of the open game: not on a view, not once the game is over for a seat).
- ``act_for``, ``_check_seat``: the explicit switch, one action for another player.
- ``_check_secret``: a secret objective (Qualeen) is saved on its own player's seat
  page only (or the host's): never for another player, not even with the switch.  Which
  entries are secret is the game's (``GameKind.secret_sources``, through the registry).

Every refusal is a one-line :class:`RoleRefused` (a ``CompanionError``); nothing is
written.  The host and the table view are the roles' alone.  tests/test_seat_rules.py.

The class imports nothing of the session (issue 38: no import cycle): it declares the
attributes and the three methods of the session it uses.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import CompanionError, RoleRefused
from ..core.jsontypes import JSON
from ..core.roles import Role, Write, words_of
from . import drafts, registry
from .store import Store


def _line(text: Any) -> str:
    """``text`` on one line (a name from a page's address or a record may hold any)."""
    return " ".join(str(text).split())


class SeatRules:
    """The seat rules of a page's session (a mixin of ``GameSession``, whose dataclass
    fields these are)."""
    store: Store
    gid: str | None
    game: Any
    role: Role
    seat: str | None
    seat_name: str | None
    acting_for: str | None
    entered: tuple[str, int, JSON] | None
    cap_id: str | None
    seat_game: str | None
    parts: JSON

    if TYPE_CHECKING:       # the session's own (companion.table.session.GameSession)
        def require(self, write: Write | str) -> None: ...
        def describe(self, action: JSON) -> str: ...
        def _open_gid(self) -> str: ...

    def set_seat(self, name: str | None) -> str | None:
        """The address's seat (``?seat=ana``, as typed; None: no seat).  Its player in
        the open game (case-insensitive) is ``seat``, found again whenever another game
        is opened here; a name that is no player of the open game leaves ``seat`` None,
        and the page is a view of that game (``_seat_may``).  Returns ``seat``."""
        self.seat_name = str(name).strip() if name is not None and str(name).strip() else None
        self.seat = self._seat_in_game()
        self.acting_for = None
        return self.seat

    def bind_capability(self, cap_id: str | None, game: str | None) -> None:
        """Under ``--lan`` (issue 35): the page was opened with the capability ``cap_id``
        (its public id, from the server); a seat's capability is bound to ``game``: its
        seat is its player's there and nowhere else (another game opened on the page is
        a view)."""
        self.cap_id = cap_id or None
        self.seat_game = game or None
        if self.seat_name is not None:
            self.seat = self._seat_in_game()

    def _check_capability(self, write: Write | str) -> None:
        """Refuse every write of a page whose capability the host has re-issued (a lost
        or borrowed phone): one line, nothing written.  Nothing for a page opened
        without one."""
        if self.cap_id is None:
            return
        from . import capabilities
        if not capabilities.is_current(self.cap_id):
            raise RoleRefused(str(self.role), str(Write(write)),
                              f"This page's link no longer works (the host gave this seat a "
                              f"new one): it cannot {words_of(write)}; scan the new code on "
                              "the host's page.")

    def _seat_in_game(self) -> str | None:
        """The open game's player the seat's name is (None: none, no game open, or a
        game other than the one the page's capability is bound to)."""
        if self.seat_name is None or self.game is None:
            return None
        if self.seat_game is not None and self.gid != self.seat_game:
            return None
        name = self.seat_name.lower()
        return next((p for p in self.game.setup.players if p.lower() == name), None)

    @property
    def is_seat(self) -> bool:
        """A seat's page: the seat role, or a seat named (``seat`` or ``seat_name``)."""
        return self.role == Role.SEAT or self.seat is not None or self.seat_name is not None

    def _seat_may(self, write: Write | str, gid: str | None = None) -> None:
        """A seat's page writes only to the game it is a seat of (issue 35): the open
        one, whose player its seat is; a finished game's actions stay as they are (its
        final entries, card values, play details and timer may still be saved).  Refused
        with :class:`RoleRefused`, one line; nothing is changed.  Nothing for other
        pages."""
        if not self.is_seat:
            return
        write = Write(write)
        target = self.gid if gid is None else gid
        if target is None:                      # no game open: the write says so itself
            return
        name = _line(self.seat or self.seat_name or "this seat")
        if target != self.gid or self.game is None:
            raise RoleRefused(str(Role.SEAT), str(write),
                              f"{name}'s page cannot {words_of(write)} for another game "
                              "than the one it shows: do it on the host's page (the laptop).")
        if self.seat is None and self.seat_game is not None and target != self.seat_game:
            raise RoleRefused(str(Role.SEAT), str(write),
                              f"{name}'s link is for another game: this page is a view of "
                              f"this one and cannot {words_of(write)}; do it on the host's "
                              "page (the laptop).")
        if self.seat is None:
            players = _line(", ".join(self.game.setup.players))
            raise RoleRefused(str(Role.SEAT), str(write),
                              f"'{name}' is not a player of this game ({players}): this "
                              f"page is a view and cannot {words_of(write)}; open a "
                              "player's seat or the host's page (the laptop).")
        # a finished game's actions stay as they are; what the books still ask of the
        # seat's own player after the last turn is :meth:`_check_seat`'s (issue 50)
        if write == Write.UNDO and self.game.state.finished:
            raise self._game_over(write)

    def _game_over(self, write: Write) -> RoleRefused:
        name = _line(self.seat or self.seat_name or "this seat")
        return RoleRefused(str(Role.SEAT), str(write),
                           f"This game is over: {name}'s page cannot {words_of(write)} "
                           "any more (final entries and play details still can be "
                           "saved); the host can, on the laptop.")

    def check_undo(self) -> JSON:
        """May this page undo the game's last action?  Returns it; refused (one line,
        nothing changed) for the table view, with nothing to undo, and on a seat's page
        unless it is its own player's action (or one naming no player), or the one this
        page itself recorded last, for another player with :meth:`act_for` (issue 35)."""
        self.require(Write.UNDO)
        self._seat_may(Write.UNDO)
        g = self.game
        if g is None or not g.actions:
            raise CompanionError("There is nothing to undo.")
        last: JSON = g.actions[-1]
        who = last.get("player")
        if not self.is_seat or who is None or who == self.seat:
            return last
        if self.entered == (self.gid, len(g.actions) - 1, last):
            return last                         # entered here, for him, with the switch
        seat, who = _line(self.seat), _line(who)
        raise RoleRefused(str(Role.SEAT), str(Write.UNDO),
                          f"{seat}'s page cannot undo {who}'s action "
                          f"({_line(self.describe(last))}): {who} undoes it on {who}'s "
                          "page, or the host on the laptop.")

    def may_undo(self) -> bool:
        """Whether this page may undo in its open game now: its role may undo and the
        seat rules (``_seat_may``) let it undo in this game (a seat's page of a finished
        game, or a seat name that is no player of it, may not).  The screens show *Undo
        last action* only then (issue 35: a seat's page of a finished game still showed
        it).  Which action is last (its player's, or nothing to undo) is
        :meth:`check_undo`'s, at the tap: the button does not come and go with every
        action."""
        if self.game is None:
            return False
        try:
            self.require(Write.UNDO)
            self._seat_may(Write.UNDO)
        except CompanionError:
            return False
        return True

    def act_for(self, player: str | None) -> None:
        """The explicit switch of a seat page: its next entry is ``player``'s (a friend
        without a phone); ``None`` cancels it.  After one recorded action the page is
        back to its seat's player (``GameSession.push``)."""
        if player is None:
            self.acting_for = None
            return
        players = list(self.game.setup.players) if self.game is not None else []
        if player not in players:
            raise CompanionError(f"No player called '{player}' in this game (players: "
                                 + ", ".join(players) + ").")
        self.acting_for = player

    def _check_seat(self, action: JSON) -> None:
        """A seat page records its own player's actions, or the one player chosen with
        :meth:`act_for` (an action naming no player, such as a virtual seat's, passes).
        Once the game is over (issue 50): only what the books still ask of the seat's own
        player after the last turn, as the engine takes it (Among the Stars: the last
        round's advisor leaning to that player, R 4: "At the end of every round, the
        players check the location of the Advisor markers on the Influence tiles. If an
        Advisor is towards one of the 2 players, that player gets the special bonus
        listed on the Advisor card."); anything else is refused, the game's actions
        staying as they are."""
        who = action.get("player")
        if self.is_seat and self.game is not None and self.game.state.finished:
            if self.seat is None or who != self.seat or self.game.why_illegal(action):
                raise self._game_over(Write.ACTION)
            return
        if who is None or who == self.acting_for or self.seat is None or who == self.seat:
            return              # (a seat's page whose seat is no player: _seat_may refused)
        raise CompanionError(f"This is {self.seat}'s page: to enter {who}'s action, choose "
                             "'Enter for another player' first.")

    def _secret_sources(self) -> set[str]:
        """The final-scoring entries' sources that are a player's secret: the open game's
        (``GameKind.secret_sources``), or every game's when none is open."""
        if self.game is not None:
            fmt = getattr(type(self.game), "format", None) or self.parts.get("format")
            return set(registry.kind_of(fmt).secret_sources)
        return {s for k in registry.kinds() for s in k.secret_sources}

    def _check_secret(self, entries: list[JSON], *, before: list[JSON] | None = None) -> None:
        """A seat's page saves a secret objective entry (a source of the game's
        ``secret_sources``; Among the Stars: which objective card a Qualeen holds, kept
        secret until the end) for its own player only: not for another player, not even
        with the switch (:meth:`act_for`), since the card is that player's secret.
        Refused with :class:`RoleRefused`, one line, nothing written.  Nothing for other
        pages (the host enters it for a player without a phone).  ``before``: the
        entries stored now, when ``entries`` replaces them all (the entries added or
        taken away are checked)."""
        if not self.is_seat:
            return
        secret = self._secret_sources()
        if before is not None:
            entries = [m for m in entries if m not in before] + [m for m in before
                                                                 if m not in entries]
        for m in entries:
            who = m.get("player") if isinstance(m, dict) else None
            if not isinstance(m, dict) or m.get("source") not in secret or who == self.seat:
                continue
            name = _line(self.seat or self.seat_name or "this seat")
            who = _line(who or "another player")
            raise RoleRefused(str(Role.SEAT), str(Write.FINAL),
                              f"{name}'s page cannot save {who}'s secret objective: {who} "
                              f"enters it on {who}'s own page (or the host on the laptop).")

    # -- drafts (issue 39: what a player typed and has not recorded yet, in the store) ---
    def _draft_for(self, player: str, kind: str) -> str:
        """The open game's id, once ``player``'s draft may be kept by this page: the
        host's page any player's, a seat's its own player's only (not with the switch
        either: the draft is that player's), the table view none (its role writes
        nothing)."""
        self.require(Write.ACTION)
        gid = self._open_gid()
        if player not in getattr(self.game.setup, "players", ()):
            raise CompanionError(f"'{_line(player)}' is not a player of this game")
        if self.is_seat and player != self.seat:
            raise RoleRefused(str(Role.SEAT), str(Write.ACTION),
                              f"This is {_line(self.seat or 'a seat')}'s page: it keeps no "
                              f"draft for {_line(player)}.")
        return gid

    def save_draft(self, kind: str, player: str, body: Any) -> None:
        """Keep ``player``'s draft (companion.table.drafts) of the open game."""
        drafts.save(self.store, self._draft_for(player, kind), player, kind, body)

    def draft(self, kind: str, player: str) -> Any:
        """``player``'s draft kept for the open game, or None (also when this page may
        not keep one for that player)."""
        if self.gid is None or self.game is None:
            return None
        if self.is_seat and player != self.seat:
            return None
        return drafts.load(self.store, self.gid, player, kind)

    def drop_draft(self, kind: str, player: str) -> None:
        """Forget ``player``'s draft of the open game (laid)."""
        drafts.drop(self.store, self._draft_for(player, kind), player, kind)
