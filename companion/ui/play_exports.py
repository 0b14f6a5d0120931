"""The final table's exports to other play loggers, and a progress bar (split out of
companion.ui.playdetails, which re-exports them):

* :func:`final_exports`: the final table's BG Stats play file, BoardGameGeek play XML,
  BG Stats' "create play" link and its QR code;
* :class:`FinalExports`: the folded panel that makes them when opened;
* :class:`Progress`: a progress bar with counts for long work (the first History sync
  after an upgrade).

Widgets and reads only (nothing here writes): the files come from
companion.table.plays_export.  Every text shown is escaped."""
from __future__ import annotations

import base64
import re
import time
from typing import Any

import ipywidgets as w

from ..table import history, plays_export
from ..core.errors import CompanionError
from ..core.htmlsafe import escape

#: at most this many progress updates a second reach the page
PROGRESS_HZ = 10


# ---------------------------------------------------------------------------
# progress
# ---------------------------------------------------------------------------
class Progress:
    """A progress bar with counts (``done/total``), hidden until work starts.
    Call it as ``progress(done, total)``; at most :data:`PROGRESS_HZ` updates a
    second reach the page (the last one always)."""

    def __init__(self, css: str, what: str):
        self.what = what
        # no side margins: 100% plus the widget's default 2 px margins would overflow a phone
        self.bar = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="100%", margin="2px 0"))
        self.label = w.HTML()
        self.box = w.VBox([self.label, self.bar], layout=w.Layout(display="none"))
        self.box.add_class(css)
        self._last = 0.0
        self.updates = 0

    def __call__(self, done: int, total: int) -> None:
        t = time.monotonic()
        if done not in (0, total) and t - self._last < 1 / PROGRESS_HZ:
            return
        self._last = t
        self.updates += 1
        total = max(1, int(total))
        with self.bar.hold_sync():
            self.bar.max = total
            self.bar.value = min(int(done), total)
        self.label.value = (f"<div class='progress-words'>{escape(self.what)}: {done:,} of "
                            f"{total:,} games ({100 * done // total}%)</div>")
        self.box.layout.display = ""

    def hide(self) -> None:
        self.box.layout.display = "none"


# ---------------------------------------------------------------------------
# the final table's exports
# ---------------------------------------------------------------------------
def _data_link(data: bytes, filename: str, mime: str, label: str, cls: str) -> str:
    b64 = base64.b64encode(data).decode()
    return (f"<a class='{cls} export-link' download='{escape(filename)}' "
            f"href='data:{mime};base64,{b64}'>{escape(label)}</a>")


#: what is not offered for a play imported from a logger (the source's key in
#: companion.table.plays_import.SOURCES): that logger has the play already
SENT_BACK = {
    "bgstats": ("This play came from BG Stats, which has it already: no BG Stats file or "
                "link here (it would be a second play there). Send it to BoardGameGeek."),
    "bgg": ("This play came from BoardGameGeek, which has it already: no BoardGameGeek "
            "XML here. Send it to BG Stats."),
}


def final_exports(store, gid: str, *, progress=None, slug: str = "play",
                  source: str | None = None) -> str:
    """The final table's exports of one finished game as HTML (every text escaped,
    everything inline: works offline): BG Stats' play file and BoardGameGeek's play
    XML as downloads, BG Stats' "create play" link and its QR code.  A store whose
    History cannot be written (read-only) gives them from History computed in memory
    (companion.table.history.current, as the History tab and the command line), with its
    one-line note (issue 35).  ``source``: the logger a play was imported from
    ("bgstats", "bgg"): its own exports are left out, in one line (:data:`SENT_BACK`)."""
    view, memory = history.current(store, progress=progress)
    try:
        html = _final_exports(view, gid, slug, source)
    finally:
        if view is not store:
            view.close()
    if memory:
        html += (f"<div class='play-exports-memory-note'><small>{escape(memory)}</small>"
                 "</div>")
    return html


def _final_exports(store, gid: str, slug: str, source: str | None = None) -> str:
    """:func:`final_exports` from a store whose History is up to date."""
    note = ""
    try:
        bgg_ids = plays_export.load_settings()["bgg_ids"]
    except CompanionError as e:            # a broken settings file: ids left out, said
        bgg_ids = {}
        note = f"<div><small>BoardGameGeek ids not used: {escape(str(e))}</small></div>"
    found = plays_export.plays(store, {gid}, finished_only=True)
    if not found:
        return ("<div class='play-exports'><i>This play cannot be exported yet (its final "
                "scoring is not complete).</i></div>")
    play = found[0]
    # the day, the hour it started and the game's id: two plays of one evening download
    # under two names (issue 50: they shared one and the second replaced the first)
    day = (time.strftime("%Y-%m-%d-%H%M", time.localtime(play["played"])) + "-"
           + re.sub(r"[^A-Za-z0-9]", "", str(gid))[:8])
    if source in SENT_BACK:         # an imported play: not back to where it came from
        note = f"<div class='play-exports-sent-back'>{escape(SENT_BACK[source])}</div>" + note
    # a download of each exporter's file (companion.table.plays_export.EXPORTERS, which
    # the command line's --format lists too), but not back to where a play came from
    files = "".join(_data_link(e.text([play], bgg_ids=bgg_ids).encode(),
                               f"{slug}-{day}{e.suffix}", e.mime, e.link, e.css)
                    for key, e in plays_export.EXPORTERS.items() if key != source)
    open_link = qr_html = ""
    if source != "bgstats":        # BG Stats also opens a play from a link (and its QR)
        link = plays_export.bgstats_play_link(play, bgg_ids=bgg_ids)
        open_link = (f"<a class='export-bgstats-link export-link' target='_blank' "
                     f"rel='noopener noreferrer' href='{escape(link)}'>Open in BG Stats "
                     "(create play)</a>")
        qr_html = _qr_html(link)
    return (f"<div class='play-exports'><div>{files}{open_link}</div>{qr_html}{note}</div>")


def _qr_html(link: str) -> str:
    """BG Stats' create-play link as a QR code (or the line saying it is too long)."""
    qr = plays_export.qr_svg(link)
    if qr is None:
        return ("<div class='export-qr-missing'><small>The play is too long for a QR "
                "code (long notes?): use the link.</small></div>")
    # segno's SVG holds the QR's paths only (no text of ours): inline, with a viewBox
    # so that it scales down to a phone's width instead of being cut
    m = re.match(r'<svg width="(\d+)" height="(\d+)"', qr)
    if m:
        qr = qr.replace("<svg ", f'<svg viewBox="0 0 {m.group(1)} {m.group(2)}" ', 1)
    return ("<div class='export-qr' title='QR code of the BG Stats create-play link'>"
            f"{qr}<div><small>Scan it with the phone that has BG Stats: it opens the "
            "same link.</small></div></div>")


class FinalExports:
    """The final table's exports, folded: *Send this play to BG Stats or
    BoardGameGeek* (class ``css``).  They are made when the panel is opened
    (plays_export reads the derived tables: the first time after an upgrade that
    derives every stored game, with a progress bar; a page that opens on a
    finished game never waits for it), and again when the game or its details
    change while it is open."""

    def __init__(self, store, css: str, slug: str, guarded, log=None):
        self.store, self.slug, self.log = store, slug, log
        self.progress = Progress(f"{css}-progress", "Updating the history for the exports")
        self.html = w.HTML()
        self.html.add_class(f"{css}-links")
        self.panel = w.Accordion(children=[w.VBox([self.progress.box, self.html])],
                                 selected_index=None)
        self.panel.set_title(0, "Send this play to BG Stats or BoardGameGeek")
        self.panel.add_class(css)
        self.panel.add_class("play-exports-panel")
        self.panel.observe(guarded(lambda _: self.refresh()), "selected_index")
        self.gid: str | None = None
        self._want: Any = None          # what the exports should be made of
        self._made: Any = None               # what they were made of

    def show(self, gid: str, key) -> None:
        """The final table of game ``gid`` is shown; ``key`` changes whenever what the
        exports hold may have changed (the game's revision, its details)."""
        self.gid, self._want = gid, (gid, key)
        self.refresh()

    def refresh(self) -> None:
        if self.panel.selected_index is None or self.gid is None or self._made == self._want:
            return
        made = self._want
        try:
            html = final_exports(self.store, self.gid, progress=self.progress, slug=self.slug)
        except CompanionError as e:
            made = None                     # tried again at the next refresh
            html = ("<div class='play-exports'><i>The exports to play loggers are not "
                    f"available: {escape(str(e))}</i></div>")
        except Exception as e:              # a bug: the final table stays usable
            made = None
            if self.log is not None:
                import traceback
                self.log.error("exports failed:\n%s", traceback.format_exc())
            html = ("<div class='play-exports'><i>The exports to play loggers failed "
                    f"({escape(type(e).__name__)}: {escape(str(e))}).</i></div>")
        finally:
            self.progress.hide()
        self.html.value = html
        self._made = made
