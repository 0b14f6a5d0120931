"""The History tab's pure helpers (split out of companion.ui.history_tab, which
imports them from here): download links, bar charts, scalable SVG, the games list's
orders, the statistics tables' search and sort, a game's state in the list; and
:class:`GameExports`, an opened game's exports to BG Stats / BoardGameGeek (issue 37),
whose one write is the BoardGameGeek id the player types (loggers.json)."""
from __future__ import annotations

import base64

import pandas as pd

from ..core.htmlsafe import escape


def data_link(text: str, filename: str, mime: str, label: str, cls: str) -> str:
    data = base64.b64encode(text.encode("utf-8")).decode()
    # styled inline: the notebook theme shows plain <a> like body text
    return (f"<a class='{cls}' download='{escape(filename)}' "
            f"style='color:#2f6fd6;text-decoration:underline' "
            f"href='data:{mime};base64,{data}'>{escape(label)}</a>")


def bars_svg(labels, values, *, title: str, width: int = 420, fmt="{:.0%}") -> str:
    """A horizontal bar chart (pure SVG)."""
    h = 22 * len(labels) + 30
    vmax = max([v for v in values if v == v] + [1e-9])
    # the viewBox lets the chart scale down to a phone's width (issue 15)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="bars" width="{width}" height="{h}" '
           f'viewBox="0 0 {width} {h}" font-family="sans-serif" font-size="11">'
           f'<text x="4" y="14" font-weight="bold">'
           f'{escape(title)}</text>']
    for i, (lab, v) in enumerate(zip(labels, values)):
        y = 24 + 22 * i
        bw = 0 if v != v else (width - 200) * v / vmax
        out.append(f'<text x="4" y="{y + 12}">{escape(str(lab))[:22]}</text>'
                   f'<rect x="140" y="{y}" width="{bw:.1f}" height="16" fill="#2f6fd6"/>'
                   f'<text x="{144 + bw:.1f}" y="{y + 12}">{fmt.format(v) if v == v else "-"}'
                   f'</text>')
    out.append("</svg>")
    return "".join(out)


def scalable(svg: str) -> str:
    """``svg`` with a viewBox from its width and height when it has none, so the stylesheet's
    ``max-width: 100%`` scales it down to a phone's width instead of cutting it (issue 15)."""
    import re
    head = svg[:svg.find(">") + 1]
    if "viewBox" in head:
        return svg
    m_w = re.search(r'\swidth="([\d.]+)"', head)
    m_h = re.search(r'\sheight="([\d.]+)"', head)
    if not (m_w and m_h):
        return svg
    return svg.replace("<svg ", f'<svg viewBox="0 0 {m_w.group(1)} {m_h.group(1)}" ', 1)


def stat_note(df) -> str:
    """The note a statistics table carries (``df.attrs["note"]``, companion.table.stats:
    e.g. the games laid from the table whose figures are not known), as HTML; "" when none."""
    note = getattr(df, "attrs", {}).get("note") if df is not None else None
    return (f"<div class='history-stat-note'><small>{escape(str(note))}</small></div>"
            if note else "")


def vp_by_year_html(by_year, chart_svg) -> str:
    """One game's chart of VP by year (``chart_svg``: the game's line chart of a
    stats.vp_by_year table), then its note: the years not known of a game laid from
    the table (issue 39), "" when there is nothing to show."""
    chart = scalable(chart_svg(by_year, title="VP gained during the game, by year "
                               "(before the end scoring)")) if not by_year.empty else ""
    return chart + stat_note(by_year).replace("history-stat-note", "history-vp-by-year-note")


def sort_games(df, order: str):
    """The games list in one of :data:`~companion.ui.history_tab.GAME_ORDERS` (stable: ties keep newest first)."""
    if order == "old":
        return df.iloc[::-1]
    if order in ("game", "players", "location"):
        key = df[order].fillna("").str.lower()
        if order == "location":            # games without a location last
            key = key.where(key != "", "\uffff")
        return df.iloc[key.argsort(kind="stable")]
    if order == "long":
        return df.sort_values("duration_min", ascending=False, na_position="last",
                              kind="stable")
    return df


def search_sort(df, query: str | None, column: str | None, reverse: bool = False):
    """The rows of ``df`` in which any cell (or the index) contains ``query``
    (case-insensitive, plain text), sorted by ``column`` (a column or the index's
    name; "" keeps the order): numbers largest first, text A to Z; ``reverse``
    turns that round.  Empty cells stay last."""
    q = (query or "").strip().lower()
    if q:
        text = df.astype(str)
        hay = text.apply(lambda c: c.str.lower().str.contains(q, regex=False))
        mask = hay.any(axis=1)
        if not isinstance(df.index, pd.RangeIndex):
            mask |= df.index.to_series().astype(str).str.lower() \
                .str.contains(q, regex=False).to_numpy()
        df = df[mask.to_numpy()]
    if column:
        names = list(map(str, df.columns))
        col = df.columns[names.index(column)] if column in names else column
        try:
            values = df[col] if col in df.columns else df.index.get_level_values(col)
        except KeyError:
            return df
        numeric = pd.api.types.is_numeric_dtype(values)
        asc = reverse if numeric else not reverse
        df = df.sort_values(by=col, ascending=asc, na_position="last", kind="stable",
                            key=None if numeric else (lambda s: s.astype(str).str.lower()))
    return df


def game_state(r) -> str:
    """A game's state in the list, from its stats.games() row (``status`` decides:
    never the truth value of ``error``, which pandas may hold as NaN)."""
    if r.status == "record fails":
        return "record no longer replays"
    if r.status == "waiting for values":
        return f"final scoring waits for values: {r.waiting}"
    if r.status == "finished":
        return f"won by {r.winners}"
    return "in progress"


class GameExports:
    """An opened game's exports in the History tab (issue 37): the final screen's BG
    Stats play file, BoardGameGeek play XML and create-play link
    (companion.ui.play_exports.final_exports).  While the game's BoardGameGeek id is
    not set, the box above them asks for it once (never guessed, never shipped):
    saved in loggers.json in the player's data folder, every export then carries it.
    A play imported from BG Stats or BoardGameGeek (``source``) is offered to the other
    logger only, and the box says so in one line (play_exports.SENT_BACK)."""

    def __init__(self, tab):
        import ipywidgets as w
        self.tab, self.gid, self.game = tab, None, ""
        self.source: str | None = None     # the logger an imported play came from
        self.words = w.HTML()
        self.id_box = w.Text(placeholder="BoardGameGeek id, e.g. the number in its address",
                             layout=w.Layout(width="320px", max_width="100%"))
        self.id_box.add_class("history-bgg-id")
        save = w.Button(description="Save the BoardGameGeek id",
                        layout=w.Layout(width="auto"))
        save.add_class("history-bgg-id-save")
        save.on_click(tab.app.guarded(lambda _: self.save_id()))
        self.ask = w.VBox([self.words, w.HBox([self.id_box, save])])
        self.ask.add_class("history-bgg-ask")
        self.html = w.HTML()
        self.html.add_class("history-game-exports-links")
        self.heading = w.HTML()
        self.heading.add_class("history-game-exports-heading")
        self.box = w.VBox([self.heading, self.ask, self.html])
        self.box.add_class("history-game-exports")

    def show(self, gid: str, game: str, source: str | None = None):
        """The exports of game ``gid`` (of the game called ``game`` in the loggers);
        ``source``: the logger a play imported from another one came from ("bgstats",
        "bgg"; None for a game played here)."""
        self.gid, self.game, self.source = gid, game, source
        self.refresh()
        return self.box

    def refresh(self) -> None:
        from ..core.errors import CompanionError
        from ..table import plays_export
        from .play_exports import final_exports
        # the game's id, then each expansion the play used (issue 50: a Revival play's
        # expansion was exported with no id and nothing asked for it): one at a time
        self.asked = self._missing_ids()
        missing = bool(self.asked)
        ask = plays_export.bgg_id_request(self.asked[:1] or [self.game])
        self.words.value = ("<div class='history-bgg-ask-words'>"
                            + escape(ask[:1].upper() + ask[1:]) + ".</div>")
        # an imported play goes to the other logger only (play_exports.SENT_BACK)
        to = {"bgstats": "BoardGameGeek", "bgg": "BG Stats"}.get(self.source or "",
                                                                 "BG Stats or BoardGameGeek")
        self.heading.value = f"<b>Send this play to {escape(to)}</b>"
        # asked for the BoardGameGeek XML: not for a play BoardGameGeek has already
        self.ask.layout.display = "" if missing and self.source != "bgg" else "none"
        slug = "-".join(self.game.lower().replace(":", "").split())
        self.html.value = final_exports(self.tab.view, self.gid, slug=slug, source=self.source)

    def _missing_ids(self) -> list[str]:
        """The game and the play's expansions whose BoardGameGeek id is not set yet."""
        from ..core.errors import CompanionError
        from ..table import plays_export
        try:
            ids = plays_export.load_settings()["bgg_ids"]
        except CompanionError:        # a broken settings file: final_exports says so
            return []
        try:
            found = plays_export.plays(self.tab.view, {self.gid}, finished_only=False)
        except CompanionError:
            found = []
        names = [self.game] + [e for e in (found[0]["expansions"] if found else [])
                               if e in ids]
        return [n for n in names if not ids.get(n)]

    def save_id(self) -> None:
        from ..core.errors import CompanionError
        value = self.id_box.value.strip()
        name = (getattr(self, "asked", None) or [self.game])[0]
        if not value:
            raise CompanionError(f"Type the BoardGameGeek id of {name} first.")
        # through the page's session: the host's settings, as an import (a whole number)
        self.tab.app.session.save_bgg_ids({name: value})
        self.id_box.value = ""
        self.tab.app.say(f"Saved: {name} is BoardGameGeek "
                         f"{'game' if name == self.game else 'expansion'} {value}; every "
                         "export to BoardGameGeek and BG Stats now carries it.")
        self.refresh()
