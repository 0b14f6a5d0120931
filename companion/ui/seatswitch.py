"""A seat page's own bar (issue 20): a seat stays its player.  It says when the seat's player
is done and who the table waits for, and offers the explicit switch to enter one action for
another player (a friend without a phone): a 44 px button, then a choice of player; while the
switch is on, a large banner names that player ("Entering for Ben": the name as typed) with a Cancel.  The switch
itself is :meth:`companion.ui.session.GameSession.act_for`; after one recorded action the
session is back to the seat's player.  Shared by both game screens; no game rule here (the
screen says who may be chosen)."""
from __future__ import annotations

from typing import Callable

import ipywidgets as w

from ..core.htmlsafe import escape

SWITCH = "Enter for another player…"
BANNER_STYLE = ("font-size:1.6em;font-weight:700;line-height:1.2;padding:8px 10px;margin:4px 0;"
                "background:#fde68a;border:2px solid #b45309;border-radius:6px;"
                "overflow-wrap:anywhere")


def _hide(wd, hidden: bool) -> None:
    wd.layout.display = "none" if hidden else ""


class SeatSwitch:
    """The bar; ``box`` goes at the top of the screen's entry.  ``on_pick(player)`` and
    ``on_cancel()`` are the screen's (guarded) callbacks; :meth:`show` draws the bar from
    the session's ``seat`` and ``acting_for``."""

    def __init__(self, on_pick: Callable[[str], None], on_cancel: Callable[[], None],
                 guarded: Callable[[Callable], Callable]):
        self.on_pick, self.on_cancel, self.guarded = on_pick, on_cancel, guarded
        self.note = w.HTML()
        self.note.add_class("seat-note")
        self.banner = w.HTML()
        self.banner.add_class("acting-for")
        self.back = w.Button(description="Cancel", icon="times",
                             layout=w.Layout(width="auto", max_width="100%"))
        self.back.add_class("acting-for-cancel")
        self.back.on_click(guarded(lambda _: self._cancel()))
        self.switch = w.Button(description=SWITCH, icon="user",
                               layout=w.Layout(width="auto", max_width="100%"))
        self.switch.add_class("seat-switch")
        self.switch.on_click(guarded(lambda _: self._open()))
        self.pick = w.HBox(layout=w.Layout(flex_flow="row wrap", max_width="100%"))
        self.pick.add_class("seat-pick")
        self.box = w.VBox([self.note, self.banner, self.back, self.switch, self.pick],
                          layout=w.Layout(display="none", max_width="100%"))
        self.box.add_class("seat-bar")
        self._others: list[str] = []
        self._direct = False
        self.opened = False

    def show(self, seat: str | None, acting_for: str | None, others: list[str],
             note: str = "", switch_label: str | None = None) -> None:
        """Draw the bar.  ``others``: the players the switch may choose now; ``note``:
        HTML (escaped by the caller); ``switch_label``: the button's words when the switch
        goes straight to ``others[0]`` (Small Star Empires: one player moves at a time)."""
        _hide(self.box, seat is None)
        if seat is None:
            self.opened = False
            return
        self._others = list(others)
        self._direct = switch_label is not None and len(others) == 1
        if acting_for is not None:
            self.opened = False
            self.banner.value = (f"<div class='acting-for-banner' style='{BANNER_STYLE}'>"
                                 f"Entering for {escape(acting_for)}</div>"
                                 f"<div style='font-size:0.9em'>One action for "
                                 f"<b>{escape(acting_for)}</b>, then this page is "
                                 f"{escape(seat)}'s again.</div>")
            self.back.description = f"Cancel: back to {seat}"
            self.note.value = ""
        else:
            self.banner.value = ""
            self.note.value = note
            self.switch.description = switch_label if self._direct else SWITCH
            if not others:
                self.opened = False
        _hide(self.banner, acting_for is None)
        _hide(self.back, acting_for is None)
        _hide(self.note, acting_for is not None or not note)
        _hide(self.switch, acting_for is not None or not others or self.opened)
        self._draw_pick(acting_for is None and self.opened and bool(others))

    def _draw_pick(self, shown: bool) -> None:
        _hide(self.pick, not shown)
        if not shown:
            self.pick.children = []
            return
        kids = [w.HTML("<b>Enter the next action for:</b>",
                       layout=w.Layout(width="100%"))]
        for p in self._others:
            b = w.Button(description=p, tooltip=f"enter one action for {p}",
                         layout=w.Layout(width="auto", max_width="100%"))
            b.add_class("seat-pick-player")
            b.on_click(self.guarded(lambda _, p=p: self._choose(p)))
            kids.append(b)
        no = w.Button(description="Cancel", layout=w.Layout(width="auto"))
        no.add_class("seat-pick-cancel")
        no.on_click(self.guarded(lambda _: self._close()))
        kids.append(no)
        self.pick.children = kids

    def _open(self) -> None:
        if self._direct:
            self._choose(self._others[0])
            return
        self.opened = True
        _hide(self.switch, True)
        self._draw_pick(True)

    def _close(self) -> None:
        self.opened = False
        _hide(self.switch, not self._others)
        self._draw_pick(False)

    def _choose(self, player: str) -> None:
        self.opened = False
        self.on_pick(player)

    def _cancel(self) -> None:
        self.opened = False
        self.on_cancel()
