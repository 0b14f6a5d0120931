"""Photos instead of typing (issue 40, "Hands-free"): the phone's camera through the page's
file input, read on the server by :mod:`companion.ats.photo` (OCR on the CPU, offline,
with the optional ``[camera]`` extra: ``./dashboard --camera``).

- :class:`CardPhoto`: a photo of one card on the turn entry: its name is put into the
  entry's card box (or close names offered as buttons); nothing is recorded, the ordinary
  entry goes on (a tap on the cell).
- :class:`StationPhoto`: a photo of a station on *Score the table as it lies*: every card
  read is proposed on its cell, the uncertain ones first with their close names; the
  player puts each (or all the sure ones with one tap) into the station being laid,
  corrects any cell by tapping it, and *Lay the station* records it (the engine checks
  it as a typed one).  Nothing is put or recorded without the player's tap.

Without the OCR package both stay hidden: the page works as before.  No rule here; every
text shown is escaped."""
from __future__ import annotations

from typing import Any, Callable

import ipywidgets as w

from ..ats import photo
from ..core.errors import CompanionError
from ..core.htmlsafe import escape
from .common import ERR
from .writes import writes

#: a phone's photo is a few MB; more is no photo a page should send
MAX_BYTES = 25_000_000
REACTORS = ("Main Reactor", "Power Reactor")


def uploaded(upload: w.FileUpload) -> bytes | None:
    """The bytes of the file just chosen (None when the value was cleared)."""
    files = upload.value
    if not files:
        return None
    f = files[0]
    content = f["content"] if isinstance(f, dict) else f.content
    size = len(content)
    if size > MAX_BYTES:
        raise CompanionError(f"That photo is {size // 1_000_000} MB: take it again at the "
                             "phone's usual size (under 25 MB).")
    return bytes(content)


def camera_input(label: str, css: str, *, icon_only: bool = False) -> w.FileUpload:
    """The page's file input, which a phone offers as its camera.  ``icon_only``: a
    camera button (the label is its tooltip; the style sheet hides the text)."""
    up = w.FileUpload(accept="image/*", multiple=False, description=label, icon="camera",
                      tooltip=label, layout=w.Layout(width="48px" if icon_only else "auto",
                                                     min_height="40px"))
    if icon_only:
        up.add_class("camera-icon")
    up.add_class(css)
    writes(up)
    return up


class CardPhoto:
    """A photo of the card a player holds: its name into the entry (see the module)."""

    def __init__(self, screen: Any, take: Callable[[str], None]) -> None:
        self.screen = screen
        self.take = take
        # the button sits beside the line of entry (SayLine's ``beside``); its answer here
        self.upload = camera_input("Photo of the card", "card-photo", icon_only=True)
        self.upload.layout.display = "" if photo.available() else "none"
        self.reply = w.HTML()
        self.reply.add_class("card-photo-reply")
        self.options = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.box = w.VBox([self.reply, self.options], layout=w.Layout(display="none"))
        self.box.add_class("card-photo-box")
        self.upload.observe(screen.guarded(lambda _: self.read()), "value")

    def read(self) -> None:
        data = uploaded(self.upload)
        if data is None:
            return
        self.upload.value = ()             # the same photo may be chosen again
        game = self.screen.game
        names = game.catalogue.names("location") + game.catalogue.names("conflict")
        self.box.layout.display = ""
        ranked = photo.read_card(data, names)
        self.options.children = []
        if not ranked:
            self.reply.value = (f"<span style='color:{ERR}'>No card name was read on that "
                                "photo: type the name, or take the photo again closer to "
                                "the card's title.</span>")
            return
        best = photo.sure_name(ranked)
        if best is not None:
            self.take(best)
            self.reply.value = (f"Read <b>{escape(best)}</b> on the photo: check the name, "
                                "then tap where it goes.")
            return
        self.reply.value = "Which card is it? (read on the photo, not sure)"
        kids = []
        for name in [n for n, _ in ranked[:4]]:
            b = w.Button(description=name, layout=w.Layout(width="auto", min_height="40px"))
            b.add_class("card-photo-option")
            b.on_click(self.screen.guarded(lambda _, n=name: self._took(n)))
            kids.append(b)
        self.options.children = kids[:4]

    def _took(self, name: str) -> None:
        self.options.children = []
        self.reply.value = f"<b>{escape(name)}</b>: tap where it goes."
        self.take(name)


class StationPhoto:
    """A photo of a station on the laying panel (see the module).  ``put(at, name)``
    puts a location (or a Power Reactor) on a cell of the station being laid."""

    def __init__(self, panel: Any, put: Callable[[tuple[int, int], str], None]) -> None:
        self.panel = panel
        self.put_cell = put
        self.upload = camera_input("Photo of the station", "station-photo")
        self.reply = w.HTML()
        self.reply.add_class("station-photo-reply")
        self.rows = w.VBox()
        self.rows.add_class("station-photo-cells")
        self.proposed: dict[tuple[int, int], photo.CellGuess] = {}
        self.box = w.VBox([self.upload, self.reply, self.rows])
        self.box.add_class("station-photo-box")
        self.box.layout.display = "" if photo.available() else "none"
        self.upload.observe(panel.app.guarded(lambda _: self.read()), "value")

    def read(self) -> None:
        data = uploaded(self.upload)
        if data is None:
            return
        self.upload.value = ()
        game = self.panel.app.game
        names = list(game.catalogue.names("location")) + list(REACTORS)
        seen = photo.read_station(data, names)
        self.proposed = {(c.at[0], c.at[1]): c for c in seen.cells
                         if tuple(c.at) != (0, 0) and (c.name or c.options)}
        notes = " ".join(escape(n) for n in seen.notes)
        if not self.proposed:
            self.reply.value = (f"<span style='color:{ERR}'>No card was read on that photo. "
                                f"{notes}</span>")
            self.rows.children = []
            return
        unsure = sum(1 for c in self.proposed.values() if c.uncertain or c.name is None)
        self.reply.value = (f"Read {len(self.proposed)} cards on the photo"
                            + (f", <b>{unsure} to check</b>" if unsure else "")
                            + ". Put each on its cell (or all the sure ones); nothing is laid "
                            "before <i>Lay the station</i>." + (f" {notes}" if notes else ""))
        self.show()

    def show(self) -> None:
        kids = []
        sure = [at for at, c in self.proposed.items() if c.name and not c.uncertain]
        if sure:
            every = w.Button(description=f"Put the {len(sure)} sure ones", icon="check",
                             button_style="success",
                             layout=w.Layout(width="auto", min_height="44px"))
            every.add_class("station-photo-all")
            every.on_click(self.panel.app.guarded(lambda _: self.put_sure()))
            kids.append(every)
        order = sorted(self.proposed, key=lambda at: (not (self.proposed[at].uncertain
                                                           or self.proposed[at].name is None), at))
        for at in order:
            kids.append(self._row(at, self.proposed[at]))
        self.rows.children = kids

    def _row(self, at: tuple[int, int], c: photo.CellGuess) -> w.Widget:
        unsure = c.uncertain or c.name is None
        head = w.HTML(f"<b>[{at[0]}, {at[1]}]</b> "
                      + (f"<span style='color:{ERR}'>check:</span> " if unsure else "")
                      + f"read “{escape(c.read)}”")
        names = ([c.name] if c.name else []) + [n for n in c.options if n != c.name]
        kids: list[w.Widget] = [head]
        for name in names[:3]:
            b = w.Button(description=name, tooltip=f"put {name} on [{at[0]}, {at[1]}]",
                         layout=w.Layout(width="auto", min_height="40px"))
            b.add_class("station-photo-put")
            b.on_click(self.panel.app.guarded(lambda _, at=at, n=name: self.put(at, n)))
            kids.append(b)
        row = w.HBox(kids, layout=w.Layout(flex_flow="row wrap", align_items="center"))
        row.add_class("station-photo-row")
        row.add_class("station-photo-unsure" if unsure else "station-photo-sure")
        return row

    def put(self, at: tuple[int, int], name: str) -> None:
        if at not in self.proposed:
            raise CompanionError("That proposal was already put or replaced by a new photo.")
        self.put_cell(at, name)
        del self.proposed[at]
        self.show()

    def put_sure(self) -> None:
        for at in [at for at, c in self.proposed.items() if c.name and not c.uncertain]:
            self.put(at, str(self.proposed[at].name))

    def clear(self) -> None:
        self.proposed = {}
        self.rows.children = []
        self.reply.value = ""
