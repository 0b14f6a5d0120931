"""A driver per game screen (issue 38): what a player does on the screen, and what it shows,
as calls: ``tap(cell)``, ``choose(...)``, ``confirm()``, ``undo()``, ``message``,
``pending`` ...  Tests, notebooks and other screens use these instead of the screen's
parts.

Each action goes through the page's ``guarded``, as a button's click does. So a refusal
is the page's message, never a traceback, and the action returns what the callback
returned (None if it was refused).  No rule is here: every check is the screen's,
and behind it the engine's.

``page.driver()`` gives the first game's driver (Among the Stars), and
``page.driver("sse")`` gives Small Star Empires's, opening its tab if it was not open.
"""
from __future__ import annotations

from typing import Any, Callable

#: ``choose(player=KEEP)``: leave that field as it is
KEEP: Any = object()


def _run(self: Any, fn: Callable[..., Any], *args: Any) -> Any:
    return self.screen.guarded(fn)(*args)


def _status(self: Any) -> str:
    """The page's status line (HTML)."""
    page = getattr(self.screen, "page", None) or self.screen.app
    return str(page.status.value)


def _undo_question(self: Any) -> str:
    """The "Undo …?" row's text, once Undo was pressed (empty if none is asked)."""
    return " ".join(str(c.value) for c in self.screen.undo_box.children if hasattr(c, "value"))


def _say(self: Any, text: str) -> Any:
    """Type (or dictate) ``text`` in the line of entry and press *Read*: what the game
    understood is staged in the entry (nothing recorded), or the line says what it
    missed (``reply``)."""
    line = self.say_line
    self._run(setattr, line.text, "value", text)
    return self._run(line.read, True)


def _reply(self: Any) -> str:
    """The line of entry's reply: what was understood, or what was missed (HTML)."""
    return str(self.say_line.reply.value)


def _call(method: str, doc: str) -> Callable[..., Any]:
    """A driver's action: the screen's ``method`` through the page's ``guarded``."""
    def act(self: Any, *args: Any) -> Any:
        return self._run(getattr(self.screen, method), *args)
    act.__name__, act.__doc__ = method, doc
    return act


def _shown(name: str, doc: str) -> property:
    return property(lambda self: getattr(self.screen, name), doc=doc)


# what both games' drivers offer (no class of companion/ui inherits another: each driver
# class lists these in its body)
GAME = _shown("game", "The game shown (the replay of the stored record), or None.")
GID = _shown("gid", "The stored game's id, or None.")
SEAT = _shown("seat", "The seat's player on a seat page, else None.")
VIEW = _shown("view", "``table`` on the table view, else None.")
STATUS = property(_status, doc=_status.__doc__)
UNDO_QUESTION = property(_undo_question, doc=_undo_question.__doc__)
OPEN_GAME = _call("open_game", "Open a saved game.")
SET_VIEW = _call("set_view", "Show the page as a seat's (``set_view(seat, view)``).")
ASK_UNDO = _call("ask_undo", "Press *Undo last action*: the question row, or the refusal.")
UNDO = _call("undo", "*Undo last action*, then *Yes, undo it*.")
TAP_TIMER = _call("tap_timer", "Tap the play timer (start, pause, go on).")
SAVE_FINAL_DETAILS = _call("save_final_details", "Save the final table's play details.")
SAY = _say
REPLY = property(_reply, doc=_reply.__doc__)


class AtsDriver:
    """The Among the Stars screen (:class:`companion.ui.ats_screen.AtsScreen`), and
    what both drivers offer (``game``, ``gid``, ``seat``, ``view``, ``status``,
    ``undo_question``, ``open_game``, ``set_view``, ``ask_undo``, ``undo``, ``tap_timer``,
    ``save_final_details``)."""

    _run = _run
    game, gid, seat, view, status, undo_question = GAME, GID, SEAT, VIEW, STATUS, UNDO_QUESTION
    open_game, set_view, ask_undo, undo = OPEN_GAME, SET_VIEW, ASK_UNDO, UNDO
    tap_timer, save_final_details = TAP_TIMER, SAVE_FINAL_DETAILS
    say, reply = SAY, REPLY

    def __init__(self, screen: Any) -> None:
        self.screen = screen

    @property
    def say_line(self) -> Any:
        """The line of entry (:class:`companion.ui.sayline.SayLine`)."""
        return self.screen.entry_part.say_line

    @property
    def message(self) -> str:
        """The line beside the entry: what was recorded, or why not."""
        return str(self.screen.entry_msg.value)

    @property
    def final_message(self) -> str:
        return str(self.screen.final_msg.value)

    @property
    def hint(self) -> str:
        return str(self.screen.hint.value)

    @property
    def pending(self) -> dict | None:
        """A build or reactor waiting for its answers (energy, choices), else None."""
        return self.screen.pending

    @property
    def players(self) -> tuple:
        """Whom the entry offers now (the seat's own player on a seat page; on the host's
        page the players still to act: the dropdown lists every player, those who have
        acted marked)."""
        return tuple(self.screen.views_part.offered())

    @property
    def choices(self) -> dict:
        """The other players' choice widgets of a build being confirmed ({player: widget})."""
        return dict(self.screen.entry_part.school)

    def choose(self, player: Any = KEEP, action: Any = KEEP, card: Any = KEEP) -> "AtsDriver":
        """Fill the entry as a player does, in its order: player, action, card."""
        s = self.screen
        for widget, value in ((s.entry_player, player), (s.entry_action, action),
                              (s.entry_card, card)):
            if value is not KEEP:
                self._run(setattr, widget, "value", value)
        return self

    def tap(self, cell: Any) -> Any:
        """Tap a cell of the grid (a build's or reactor's place)."""
        return self._run(self.screen.entry_part.clicked, tuple(cell))

    def confirm(self) -> Any:
        """*Confirm* a pending build with its answers."""
        return self._run(self.screen.entry_part.confirm)

    def cancel(self) -> Any:
        return self._run(self.screen.entry_part.cancel_pending)

    def discard(self) -> Any:
        """Press *Discard* (the card typed is the one discarded)."""
        return self._run(self.screen.entry_part.discard)

    def answer(self, **choices: str) -> "AtsDriver":
        """The other players' answers to a build's choice (``Ben="pay"``)."""
        school = self.screen.entry_part.school
        for player, value in choices.items():
            self._run(setattr, school[player], "value", value)
        return self

    def manual_vp(self, text: str) -> "AtsDriver":
        """Type the VP of an ability the companion cannot count."""
        self._run(setattr, self.screen.entry_part.manual_vp, "value", text)
        return self

    def save_values(self, card: Any) -> Any:
        """Save a card's printed values, typed from the physical card, in the form."""
        return self._run(self.screen.entry_part.save_values, card)


class SseDriver:
    """The Small Star Empires screen (:class:`companion.ui.sse_screen.SseScreen`), and
    what both drivers offer (``game``, ``gid``, ``seat``, ``view``, ``status``,
    ``undo_question``, ``open_game``, ``set_view``, ``ask_undo``, ``undo``, ``tap_timer``,
    ``save_final_details``)."""

    _run = _run
    game, gid, seat, view, status, undo_question = GAME, GID, SEAT, VIEW, STATUS, UNDO_QUESTION
    open_game, set_view, ask_undo, undo = OPEN_GAME, SET_VIEW, ASK_UNDO, UNDO
    tap_timer, save_final_details = TAP_TIMER, SAVE_FINAL_DETAILS
    say, reply = SAY, REPLY

    def __init__(self, screen: Any) -> None:
        self.screen = screen

    @property
    def say_line(self) -> Any:
        """The line of entry (:class:`companion.ui.sayline.SayLine`)."""
        return self.screen.say_line

    @property
    def said(self) -> dict | None:
        """A sentence's action staged on the board, waiting for *Confirm*, else None."""
        return self.screen.board_part.said

    def confirm_said(self) -> Any:
        """*Confirm* the sentence's action staged on the board."""
        return self._run(self.screen.board_part.confirm_said)

    @property
    def pending(self) -> dict | None:
        """A move onto an Unexplored tile waiting for the tile revealed, else None."""
        return self.screen.reveal_part.pending

    @property
    def selected(self) -> int | None:
        return self.screen.selected

    def legal(self) -> dict:
        """The green destinations of the selected ship and piece."""
        return dict(self.screen.board_part.legal())

    def select(self, ship: int | None) -> Any:
        """Select one of the current player's ships."""
        return self._run(self.screen.select, ship)

    def choose_piece(self, piece: str) -> Any:
        """*Colonise with*: city or trade station."""
        return self._run(setattr, self.screen.piece, "value", piece)

    def tap(self, h: Any) -> Any:
        """Tap a hex of the map (the selected ship's destination)."""
        return self._run(self.screen.board_part.clicked, tuple(h))

    def push(self, action: dict) -> Any:
        """Record one action as the page does once its form is filled."""
        return self._run(self.screen.push, action)

    def damage(self) -> Any:
        """*Damage* the selected ship (the Damaged Ships variant)."""
        return self._run(self.screen.damage)
