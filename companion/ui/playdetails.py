"""Play details on the dashboard (issue 16), shared by both games' tabs:

* :class:`PlayTimer`: the one 44 px button in the play screen's status area that
  shows the play timer (clock and state) and starts, pauses or resumes it on a tap;
* :class:`DetailsForm`: location, notes and "new player" flags (the setup screen
  and the final screen);
* :class:`PlayDetailsPart`: what a game screen does with them (a part it holds).

The final table's exports (:func:`final_exports`, :class:`FinalExports`) and the
progress bar (:class:`Progress`) are in companion.ui.play_exports (imported from here
too).

Widgets and reads only: the timer's arithmetic is companion.table.playtime, and every
write of the details goes through the page's session
(:meth:`companion.ui.session.GameSession.set_play_details`, the record's ``meta`` in
the store: the record is the only state, so another page or a reload sees the same
timer; the page's role is checked there).  Every text shown is escaped; a refused
detail gets a plain message (CompanionError), never a traceback.
"""
from __future__ import annotations

import base64
import re
from typing import Any

import ipywidgets as w

from ..table import playtime
from ..core.errors import CompanionError, StaleGame, StoreError
from ..core.htmlsafe import escape
from ..core.safeio import BAD_CHAR
from .play_exports import PROGRESS_HZ, FinalExports, Progress, final_exports
from .session import GameSession
from .writes import writes

__all__ = ["CSS", "MAX_LOCATION", "MAX_NOTES", "PROGRESS_HZ", "GameGone", "check_text",
           "timer_label", "stored_meta", "PlayTimer", "DetailsForm", "save_details",
           "details_words", "PlayDetailsPart", "Progress", "FinalExports", "final_exports"]

#: the longest texts the forms accept (the record's own bounds, companion.table.playtime)
MAX_LOCATION = playtime.MAX_LOCATION
MAX_NOTES = playtime.MAX_NOTES


#: the forms' and the timer's layout on a phone (appended to the dashboard's stylesheet)
CSS = """<style>
.companion-root .play-details-form .widget-textarea { max-width: 100%; box-sizing: border-box; }
.companion-root .play-details-form .widget-textarea textarea { min-height: 64px; }
.companion-root .play-details-form .new-player { width: auto; margin-right: 14px; }
.companion-root .play-timer { font-variant-numeric: tabular-nums; }
.companion-root .play-timer.compact { flex: 0 0 auto; padding: 0 10px; margin-left: 6px; }
.companion-root .timer-row { flex-wrap: nowrap !important; align-items: center; }
.companion-root .timer-row > .sse-turn { flex: 1 1 auto; min-width: 0; }
.companion-root .play-exports-panel { margin-top: 6px; }
.companion-root .export-qr svg { background: white; }
@media (max-width: 600px) {
  .companion-root .play-details-form .widget-textarea { width: auto !important; flex: 1 1 auto;
    max-width: calc(100% - 4px); align-self: stretch; }
}
</style>"""


class GameGone(CompanionError):
    """The game this page shows is no longer in the store (deleted on another page)."""


# ---------------------------------------------------------------------------
# checks
# ---------------------------------------------------------------------------
def check_text(what: str, text, limit: int, *, lines: bool = False) -> str:
    """``text`` stripped, or a CompanionError that says plainly what is wrong:
    too long, or a control character (the record refuses them: a detail must never
    make the stored record unreadable).  ``lines``: line breaks and tabs allowed."""
    if text is None:
        return ""
    if not isinstance(text, str):
        raise CompanionError(f"{what}: type text.")
    text = text.strip()
    if len(text) > limit:
        raise CompanionError(f"{what}: too long ({len(text):,} characters, at most "
                             f"{limit:,}). Shorten it, then save again.")
    m = BAD_CHAR.search(text)
    if m is None and not lines:
        m = re.search("[\t\n\r]", text)
    if m is not None:
        ch = m.group()
        kind = ("an invalid character (a lone surrogate)" if "\ud800" <= ch <= "\udfff"
                else "a line break" if ch in "\n\r" else
                f"a control character (U+{ord(ch):04X})")
        raise CompanionError(f"{what}: contains {kind} at character {m.start() + 1}; remove "
                             "it, then save again.")
    return text


# ---------------------------------------------------------------------------
# the timer button
# ---------------------------------------------------------------------------
def timer_label(meta: dict | None, now: float | None = None, *, compact: bool = False) -> str:
    """The button's words: the clock and what a tap does (``compact``: the clock
    and the state only, for a button beside the turn line)."""
    s = playtime.state(meta)
    hms = playtime.clock(meta, now).split(" ", 1)[0]
    if compact:
        return {"not started": "Start timer", "running": f"{hms} running",
                "paused": f"{hms} paused", "stopped": f"{hms} played"}[s]
    # words only: a phone without an emoji font shows a box for ⏱ / ⏸
    if s == "not started":
        return "Start the play timer"
    if s == "running":
        return f"Timer {hms} · running · tap to pause"
    if s == "paused":
        return f"Timer {hms} · paused · tap to resume"
    return f"Timer {hms} · played (stopped)"


def stored_meta(store, gid: str) -> dict:
    """The record's meta as stored now (title included)."""
    try:
        return dict(store.load(gid).get("meta") or {})
    except StoreError as e:
        if "no saved game" in str(e):
            raise GameGone("This game is no longer in the saved-games file (deleted on "
                           "another page or tab).") from None
        raise


class PlayTimer:
    """The play timer of the game a page shows: one button (class ``play-timer``
    and ``css``), its words the clock and the state.  The timer lives in the
    record's ``meta`` in the store; the page's copy is :attr:`meta`.

    A tap reads the stored timer first: if another page changed it since this
    page last saw it, nothing is written and the page shows the stored one (a
    tap on a stale page must not undo the other page's pause).  Writing the
    details does not change the game's revision (docs/store.md): an entry on
    another page is never refused because of a tap here.

    ``session``: the page's :class:`GameSession`, through which every tap writes."""

    STATE_CLASSES = {s: "timer-" + s.replace(" ", "-") for s in playtime.STATES}

    def __init__(self, session: GameSession, css: str, *, compact: bool = False):
        self.session = session
        self.compact = compact
        #: the game is over (set by the page before :meth:`show`): a timer never
        #: started is not offered any more
        self.over = False
        self.gid: str | None = None
        self.meta: dict = {}
        self.button = w.Button(layout=w.Layout(width="auto", min_height="44px",
                                               max_width="100%"))
        self.button.add_class("play-timer")
        self.button.add_class(css)
        if compact:
            self.button.add_class("compact")

    @property
    def store(self):
        """The page's store (the session's)."""
        return self.session.store

    def bind(self, gid: str | None, meta: dict | None) -> None:
        """Show the timer of game ``gid`` whose stored meta is ``meta``."""
        self.gid, self.meta = gid, dict(meta or {})
        self.show()

    def show(self, now: float | None = None) -> None:
        try:
            self.button.description = timer_label(self.meta, now, compact=self.compact)
        except playtime.TimerError:          # a clock far off: never a traceback
            self.button.description = "Play timer"
        s = playtime.state(self.meta)
        self.button.layout.display = "none" if self.over and s == "not started" else ""
        self.button.tooltip = {
            "not started": "Start the play timer",
            "running": "Play timer: tap to pause (a pause is not counted)",
            "paused": "Play timer: tap to resume",
            "stopped": "The play timer stopped at the final table"}[s]
        self.button.button_style = "info" if s == "running" else ""
        for st, cls in self.STATE_CLASSES.items():
            if st == s and cls not in self.button._dom_classes:
                self.button.add_class(cls)
            elif st != s and cls in self.button._dom_classes:
                self.button.remove_class(cls)

    def tick(self, now: float | None = None) -> None:
        """A running timer's clock as of now (the page's heartbeat calls it, issue 21):
        words only, nothing written; a paused or stopped timer does not change."""
        if self.gid and playtime.state(self.meta) == "running":
            self.show(now)

    def sync(self) -> None:
        """Read the stored timer again (another page may have tapped)."""
        if self.gid:
            self.meta = stored_meta(self.store, self.gid)
            self.show()

    def _write(self, new: dict, base: dict) -> None:
        """Store ``new``, made from the stored meta ``base``: refused when another page
        changed the timer since ``base`` was read."""
        try:
            self.session.set_play_details(new, expect_timer=playtime.timer(base), timer=True,
                                          gid=self.gid)
        except StaleGame:
            self.sync()
            raise CompanionError(
                "Not changed: the play timer was changed on another page or tab. It is now "
                f"{playtime.state(self.meta)}; tap again if you still want to change it.") from None
        except StoreError as e:
            if "no saved game" in str(e):
                raise GameGone("This game is no longer in the saved-games file (deleted on "
                               "another page or tab).") from None
            raise
        self.meta = new
        self.show()

    def tap(self, now: float | None = None) -> str:
        """Start, pause or resume; returns what happened in words."""
        if not self.gid:
            raise CompanionError("Start or open a game first.")
        stored = stored_meta(self.store, self.gid)
        if playtime.timer(stored) != playtime.timer(self.meta):
            self.meta = stored
            self.show(now)
            raise CompanionError(
                "Not changed: the play timer was changed on another page or tab. It is now "
                f"{playtime.state(stored)} ({playtime.clock(stored, now).split(' ')[0]}); tap "
                "again if you still want to change it.")
        s = playtime.state(stored)
        if s == "not started" and self.over:
            raise CompanionError("The game is over: a play timer can no longer be started.")
        if s == "stopped":
            raise CompanionError(f"The play timer stopped at the final table: "
                                 f"{playtime.clock(stored).split(' ')[0]} played.")
        self._write(playtime.toggle(stored, now), stored)
        hms = playtime.clock(self.meta, now).split(" ")[0]
        return {"not started": "Play timer started.",
                "running": f"Play timer paused at {hms}: tap it again to resume.",
                "paused": f"Play timer resumed at {hms}."}[s]

    def stop(self, now: float | None = None) -> bool:
        """The final table: stop a running or paused timer (once; writes
        ``duration_min``).  Returns whether it stopped now."""
        if not self.gid:
            return False
        stored = stored_meta(self.store, self.gid)
        if playtime.state(stored) not in ("running", "paused"):
            if playtime.timer(stored) != playtime.timer(self.meta):
                self.meta = stored
                self.show(now)
            return False
        self._write(playtime.stop(stored, now), stored)
        return True


# ---------------------------------------------------------------------------
# location, notes, new players
# ---------------------------------------------------------------------------
class DetailsForm:
    """Location, notes and a "new to the game" checkbox per player.  CSS hooks:
    ``{css}-location``, ``{css}-notes``, ``{css}-new-players`` (and ``new-player``
    on each checkbox).  :meth:`values` checks what was typed."""

    def __init__(self, css: str):
        self.css = css
        self.location = w.Text(description="Location", placeholder="where you play (optional)",
                               layout=w.Layout(width="340px", max_width="100%"))
        self.location.add_class(f"{css}-location")
        self.notes = w.Textarea(description="Notes", placeholder="anything to remember "
                                "(optional)", rows=2,
                                layout=w.Layout(width="340px", max_width="100%"))
        self.notes.add_class(f"{css}-notes")
        self.new_box = w.HBox()
        self.new_box.add_class(f"{css}-new-players")
        self.new_boxes: dict[str, w.Checkbox] = {}
        self.new_label = w.HTML("<div>New to the game:</div>")
        self.box = w.VBox([self.location, self.notes, self.new_label, self.new_box])
        self.box.add_class(f"{css}-details")
        self.box.add_class("play-details-form")
        self.set_players([])

    def set_players(self, names: list[str]) -> None:
        """One checkbox per player (ticks kept by name)."""
        names = list(dict.fromkeys(n for n in names if n))
        old = self.new_boxes
        self.new_boxes = {}
        for n in names:
            cb = old.get(n)
            if cb is None:
                cb = w.Checkbox(value=False, description=n, indent=False,
                                layout=w.Layout(width="auto"))
                cb.add_class("new-player")
            self.new_boxes[n] = cb
        self.new_box.children = list(self.new_boxes.values())
        shown = "" if names else "none"
        self.new_label.layout.display = self.new_box.layout.display = shown

    def fill(self, details: dict) -> None:
        self.location.value = details.get("location") or ""
        self.notes.value = details.get("notes") or ""
        new = set(details.get("new_players") or [])
        for n, cb in self.new_boxes.items():
            cb.value = n in new

    def clear(self) -> None:
        self.fill({})

    def values(self) -> dict:
        """``{"location", "notes", "new_players"}`` checked (CompanionError otherwise)."""
        return {"location": check_text("Location", self.location.value, MAX_LOCATION),
                "notes": check_text("Notes", self.notes.value, MAX_NOTES, lines=True),
                "new_players": [n for n, cb in self.new_boxes.items() if cb.value]}

    def meta(self, meta: dict | None) -> dict:
        """``meta`` with the typed details (companion.table.playtime.with_details)."""
        return playtime.with_details(meta or {}, **self.values())


def final_details_form(guarded, save, prefix: str = "") -> tuple[DetailsForm, w.Button]:
    """The final table's *Play details* form and its *Save the play details* button, as
    both games' screens show them (classes ``{prefix}final…``); the button writes (hidden
    on the table view) and calls ``save()`` through the page's ``guarded``."""
    form = DetailsForm(f"{prefix}final")
    button = w.Button(description="Save the play details", icon="save",
                      layout=w.Layout(width="auto"))
    button.add_class(f"{prefix}final-details-save")
    writes(button)
    button.on_click(guarded(lambda _: save()))
    return form, button


def save_details(session: GameSession, form: DetailsForm, gid: str | None = None) -> dict:
    """The final screen's *Save details*: the form's details into the stored meta of
    the session's game (or ``gid``), through the session (the timer as stored is
    kept).  Returns the stored meta."""
    values = form.values()                     # refused before anything is read
    gid = gid if gid is not None else session.gid
    if gid is None:
        raise CompanionError("Start or open a game first.")
    meta = stored_meta(session.store, gid)
    new = playtime.with_details(meta, **values)
    try:
        session.set_play_details(new, gid=gid)
    except StoreError as e:
        if "no saved game" in str(e):
            raise GameGone("This game is no longer in the saved-games file (deleted on "
                           "another page or tab).") from None
        raise
    return new


def details_words(details: dict) -> str:
    """The details as one escaped HTML line (History, final screen)."""
    parts = []
    if details.get("duration_min") is not None:
        d = int(details["duration_min"])
        txt = f"played {d // 60}:{d % 60:02d} (h:mm)"
        if details.get("paused_min"):
            txt += f", {int(details['paused_min'])} min paused"
        parts.append(escape(txt))
    elif details.get("timer") in ("running", "paused"):
        parts.append(escape(f"timer {details['timer']}"))
    if details.get("location"):
        parts.append(f"at <b>{escape(details['location'])}</b>")
    if details.get("new_players"):
        parts.append("new: " + escape(", ".join(details["new_players"])))
    html = " · ".join(parts)
    if details.get("notes"):
        html += (("<br>" if html else "") + "<span class='play-notes' style='white-space:"
                 f"pre-wrap'>{escape(details['notes'])}</span>")
    return html


# ---------------------------------------------------------------------------
# the game screen's part
# ---------------------------------------------------------------------------
class PlayDetailsPart:
    """The play timer, the final screen's details and the exports of a game screen
    (both games hold one: ``screen.details``).  The screen has ``session``, ``store``,
    ``gid``, ``rev``, ``timer``, ``final_details``, ``exports``, and says how it names its
    players and talks to the player: ``details_players()``, ``details_said(text)``,
    ``details_error(text)``, ``details_gone()``, ``details_saved()`` (after a save),
    then ``_refresh_final()`` builds the final screen again (its record export reads the
    stored record: :meth:`stored_record_b64`).  ``shown_for``: the game whose details
    the final form shows."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.shown_for: str | None = None

    def tap_timer(self) -> None:
        s = self.screen
        try:
            s.details_said(s.timer.tap())
        except GameGone:
            s.details_gone()

    def stop_timer(self) -> None:
        """The game is over: the play timer stops (once)."""
        s = self.screen
        try:
            if s.timer.stop():
                s.timer.show()
        except GameGone:
            pass                            # the next entry says so
        except CompanionError as e:         # busy or read-only file: said, the table shown
            s.details_error(f"The play timer was not stopped: {e}")

    def fill_final_details(self) -> None:
        """The final form shows the stored details (once per game: typing is kept)."""
        s = self.screen
        if self.shown_for == s.gid:
            return
        players = s.details_players()
        s.final_details.set_players(players)
        s.final_details.fill(playtime.details(s.timer.meta, players))
        self.shown_for = s.gid

    def save_final_details(self) -> None:
        s = self.screen
        try:
            s.timer.meta = save_details(s.session, s.final_details, s.gid)
        except GameGone:
            s.details_gone()
            return
        s.details_saved()
        s.timer.show()
        # the final screen again: its record export is the stored record, with the
        # details just saved (issue 22: it kept the record as it was before the save)
        s.refresh_final()
        s.details_said("Saved the play details.")
        self.refresh_exports()

    def stored_record_b64(self, game) -> str:
        """The final screen's *Export the record (JSON)*: the stored record, play
        details included, as the History tab exports it (base64 for a data: link).
        A screen without a stored game (or a store that cannot be read) exports the
        engine's record with the page's meta."""
        from ..core.record import dumps
        s = self.screen
        rec = None
        if s.gid is not None:
            try:
                rec = s.store.load(s.gid)
            except CompanionError:
                rec = None
        if rec is None:
            rec = game.to_record()
            rec["meta"] = {k: v for k, v in s.timer.meta.items() if v is not None}
        return base64.b64encode(dumps(rec).encode()).decode()

    def refresh_exports(self) -> None:
        """This play's exports to other loggers (made when their panel is open, again
        when the game's revision or its details changed)."""
        s = self.screen
        d = playtime.details(s.timer.meta, s.details_players())
        s.exports.show(s.gid, (s.rev, repr(sorted(d.items()))))
