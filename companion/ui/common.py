"""What the Among the Stars screen's modules share: the log, colours, the station grid's
cell names.  No game rule here."""
from __future__ import annotations

import logging

from ..core.paths import user_dir

log = logging.getLogger("companion.ui")
MAX_PLAYERS = 6
CELL_PX = 58
ERR = "#b00020"
LEGAL = "#9be7a8"          # legal cells: green reads as "you may build here"
OK = "#1b6e20"


def cell_class(r: int, c: int) -> str:
    """Stable CSS class of a station grid cell (tests click on it)."""
    return f"cell_r{'m' if r < 0 else ''}{abs(r)}_c{'m' if c < 0 else ''}{abs(c)}"


def log_path():
    """The dashboard's log file (tracebacks of bugs go there, never to the page)."""
    d = user_dir()
    d.mkdir(parents=True, exist_ok=True)
    return d / "dashboard.log"


def refresh_undo(screen) -> None:
    """Both game screens' *Undo last action* (``screen.undo_btn``) shown only while the
    session lets this page undo in its game (GameSession.may_undo, companion/table/seats.py:
    not on a seat's page of a finished game, nor on a view; issue 35); where it may not,
    an open "Undo …?" row goes too.  No rule here: the session answers."""
    may = screen.session.may_undo()
    screen.undo_btn.layout.display = "" if may else "none"
    if not may:
        screen.undo_box.children = []


def ask_undo(screen, question, css: str, undo) -> None:
    """Both game screens' "Undo …?" row: ``question(last action)`` (plain text, escaped
    here) with *Yes, undo it* (class ``{css}-yes``) and *Keep it* (``{css}-no``) in
    ``screen.undo_box``; yes calls ``undo()``."""
    import ipywidgets as w

    from ..core.errors import CompanionError
    from ..core.htmlsafe import escape
    if not screen.game.actions:
        raise CompanionError("There is nothing to undo.")
    # the session says at once what it would refuse at *Yes, undo it* (issue 35: a seat
    # undoes only its own player's last action, in its own game, not finished)
    screen.session.check_undo()
    question = question(screen.game.actions[-1])
    yes = w.Button(description="Yes, undo it", button_style="danger",
                   layout=w.Layout(width="auto"))
    yes.add_class(f"{css}-yes")
    no = w.Button(description="Keep it", layout=w.Layout(width="auto"))
    no.add_class(f"{css}-no")
    yes.on_click(screen.guarded(lambda _: undo()))
    no.on_click(screen.guarded(lambda _: setattr(screen.undo_box, "children", [])))
    screen.undo_box.children = [w.HTML(f"<b>{escape(question)}</b>&nbsp;"), yes, no]


class Via:
    """``screen.<name>`` is ``screen.<part>.<attr>``: the names the app and the tests use
    stay the screen's while a part holds the widget or the method.  ``part`` may be a
    dotted path (``"ats.entry_part"``: the app's screen's part)."""

    def __init__(self, part: str, attr: str = ""):
        self.part, self.attr = part, attr
        self.path = tuple(part.split("."))
        self.__doc__ = f"``{part}.{attr}``" if attr else None

    def __set_name__(self, owner, name: str) -> None:
        self.attr = self.attr or name
        self.__doc__ = f"``{'.'.join(self.path)}.{self.attr}``"

    def _owner(self, obj):
        for name in self.path:
            obj = getattr(obj, name)
        return obj

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return getattr(self._owner(obj), self.attr)

    def __set__(self, obj, value) -> None:
        setattr(self._owner(obj), self.attr, value)


class Built:
    """``screen.<name>``: a part built when first read, ``factory(screen)`` (then
    ``then(screen, part)``), kept in ``screen._<name>``, which ``__init__`` sets to None
    (issue 34: a page's widgets it never shows were still sent to every joining page)."""

    def __init__(self, factory, then=None):
        self.factory, self.then = factory, then
        self.slot = ""

    def __set_name__(self, owner, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        part = obj.__dict__.get(self.slot)
        if part is None:
            part = self.factory(obj)
            setattr(obj, self.slot, part)
            if self.then is not None:
                self.then(obj, part)
        return part


def export_name(family: str, session, what: str = "game", ext: str = "json") -> str:
    """The file name of a game's export: its family, the day it was played (its play
    timer's start) and its id, e.g. ``among-the-stars-2026-11-28-94707ed69f2b.json``
    (issue 37: every export was ``among-the-stars-game.json``).  Only letters, digits
    and dashes: safe as a download name on every system."""
    import re
    import time
    started = ((session.meta or {}).get("timer") or {}).get("started") \
        if isinstance((session.meta or {}).get("timer"), dict) else None
    day = (time.strftime("%Y-%m-%d", time.localtime(started))
           if isinstance(started, (int, float)) and not isinstance(started, bool) else "")
    gid = re.sub(r"[^A-Za-z0-9-]", "", str(session.gid or ""))[:40]
    parts = [family, what if what != "game" else "", day, gid]
    return "-".join(p for p in parts if p) + f".{ext}"


#: on a phone the wide final table gives way to one card per player (issue 37: "on a phone
#: the final table's breakdown columns (objectives included) hide behind a sideways scroll
#: with no cue"); on a wider screen the table as before
STACKED_STYLE = ("<style>.final-cards{display:none}.final-card{border:1px solid #ccc;"
                 "border-radius:6px;padding:4px 8px;margin:4px 0}.final-card dl{display:grid;"
                 "grid-template-columns:1fr auto;gap:0 12px;margin:2px 0}.final-card dt{color:"
                 "#555;white-space:nowrap}.final-card dd{margin:0;text-align:right;white-space:nowrap;font-variant-numeric:"
                 "tabular-nums}@media (max-width:560px){.final-wide{display:none}"
                 ".final-cards{display:block}}</style>")


def stacked_table_html(df, name_column: str = "player") -> str:
    """The rows of a final table as one card per row (the name, then every column as
    "label  value"), shown instead of the table on a screen narrower than 560 px.  Every
    value is escaped."""
    from ..core.htmlsafe import escape
    cards = []
    for _, row in df.iterrows():
        items = "".join(
            f"<dt>{escape(str(col))}</dt><dd>{escape('' if _blank(row[col]) else str(row[col]))}</dd>"
            for col in df.columns if col != name_column)
        cards.append(f"<div class='final-card'><b>{escape(str(row[name_column]))}</b>"
                     f"<dl>{items}</dl></div>")
    return STACKED_STYLE + "<div class='final-cards'>" + "".join(cards) + "</div>"


def _blank(v) -> bool:
    return v is None or (isinstance(v, float) and v != v) or str(v) in ("<NA>", "nan")
