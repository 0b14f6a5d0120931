"""The History tab: every stored game, filterable and sortable; a finished game
replayed step by step with its play details; charts; every statistics table
(people statistics too) searchable and sortable, with a CSV export; a printable
score sheet; a progress bar while the first sync after an upgrade derives every
game.  Widgets only: the numbers come from companion.table.history/stats, the tables'
search and sort and the charts from companion.ui.history_view; every write (delete,
imports) goes through the page's session (companion.ui.session.GameSession)."""
from __future__ import annotations

from ..table.csvsafe import frame_csv
from ..core.htmlsafe import escape

import ipywidgets as w
import pandas as pd

from ..table import history, plays_import, registry, stats
from ..ats import render
from ..core.errors import CompanionError
from .history_view import GameExports
from .history_view import (bars_svg, data_link, game_state, scalable, search_sort,  # noqa: F401
                           sort_games, stat_note, vp_by_year_html)
from .play_exports import Progress
from .playdetails import details_words
from ..core.roles import Write
from .writes import writes

#: the games list's orders (label, key)
GAME_ORDERS = [("newest first", "new"), ("oldest first", "old"), ("game", "game"),
               ("players", "players"), ("longest play first", "long"), ("location", "location")]
#: the people statistics in the table list (stats.PEOPLE), after the other tables
PEOPLE_PREFIX = "people: "
#: rows of a statistics table drawn at most (the search narrows; the CSV has every row)
MAX_ROWS = 300
#: games in the list at most (a club's 10,000: the filter finds the others)
MAX_GAMES = 300


class HistoryTab:
    def __init__(self, app, *, load: bool = True):
        """``load=False``: the caller shows :attr:`box` first, then calls
        :meth:`refresh` (the first sync's progress bar is then in view)."""
        self.app = app
        self.store = app.store
        #: where History is read: the store, or its copy in memory when the store cannot
        #: be written (companion.table.history.current; :meth:`refresh`)
        self.view = self.store
        self.memory_note = w.HTML(layout=w.Layout(display="none"))
        self.memory_note.add_class("history-memory-note")
        self.progress = Progress("history-progress", "Updating the history")
        self.filter = w.Text(placeholder="player, game, date, location, notes",
                             description="Find")
        self.filter.add_class("history-filter")
        self.order = w.Dropdown(options=GAME_ORDERS, value="new", description="Sort")
        self.order.add_class("history-order")
        self.list = w.Select(options=[], rows=8, layout=w.Layout(width="100%", max_width="960px"))
        self.list.add_class("history-games")
        self.open_btn = w.Button(description="Open", icon="folder-open")
        self.open_btn.add_class("history-open")
        self.delete_btn = w.Button(description="Delete…", icon="trash")
        self.delete_btn.add_class("history-delete")
        writes(self.delete_btn, host_only=True)
        self.confirm = writes(w.HBox(), host_only=True)     # "Yes, delete it"
        self.upload = w.FileUpload(accept=".json", multiple=True, description="Import records")
        self.upload.add_class("history-import")
        writes(self.upload, host_only=True)
        # plays logged in BG Stats / on BoardGameGeek (issue 22): the host's import
        self.plays_upload = w.FileUpload(accept=".bgsplay,.json,.xml", multiple=True,
                                         description="Import plays (BG Stats / BGG)",
                                         layout=w.Layout(width="auto"))
        self.plays_upload.add_class("history-import-plays")
        writes(self.plays_upload, host_only=True)
        # every finished play as a CSV for play loggers, made when asked for (a club's
        # 10,000 plays are ~1 MB that a phone would otherwise receive at every refresh)
        self.plays_btn = w.Button(description="Prepare the plays CSV (every finished play)",
                                  icon="download", layout=w.Layout(width="auto"))
        self.plays_btn.add_class("history-plays-csv-make")
        self.links = w.HTML()
        self.list_note = w.HTML()
        self.list_note.add_class("history-games-note")
        # the chosen game's whole line, wrapped (issue 37: a list line is cut on a phone)
        self.chosen = w.HTML()
        self.chosen.add_class("history-chosen")
        self.list.observe(lambda _: self._show_chosen(), "value")
        self.viewer = w.VBox()
        self.exports = GameExports(self)       # a game's BG Stats / BGG files (issue 37)
        self.viewer.add_class("history-viewer")
        self.stat = w.Dropdown(options=[], description="Table",
                               layout=w.Layout(width="440px"))
        self.stat.add_class("history-stat")
        # search and sort over the table shown (pandas; the CSV is what is shown)
        self.stat_find = w.Text(placeholder="rows containing…", description="Search")
        self.stat_find.add_class("history-stat-search")
        self.stat_sort = w.Dropdown(options=[("as listed", "")], value="", description="Sort by")
        self.stat_sort.add_class("history-stat-sort")
        self.stat_reverse = w.ToggleButton(value=False, description="reverse order",
                                           tooltip="numbers: smallest first; text: Z to A",
                                           layout=w.Layout(width="auto"))
        self.stat_reverse.add_class("history-stat-reverse")
        self.stat_out = w.HTML()
        self.stat_out.add_class("history-stat-table")
        self.charts = w.HTML()
        self.charts.add_class("history-charts")
        g = app.guarded
        self.filter.observe(g(lambda _: self.refresh_list()), "value")
        self.order.observe(g(lambda _: self.refresh_list()), "value")
        self.stat_find.observe(g(lambda _: self.show_stat(keep_sort=True)), "value")
        self.stat_sort.observe(g(lambda _: self.show_stat(keep_sort=True)), "value")
        self.stat_reverse.observe(g(lambda _: self.show_stat(keep_sort=True)), "value")
        self.open_btn.on_click(g(lambda _: self.open_selected()))
        self.delete_btn.on_click(g(lambda _: self.ask_delete()))
        self.upload.observe(g(lambda _: self.do_import()), "value")
        # a bad file: "Nothing was imported: <the file's fault>" (plays_import stores all
        # or nothing), never the entry screen's words about the board
        self.plays_upload.observe(app.guarded(lambda _: self.do_import_plays(),
                                              nothing_done="Nothing was imported"), "value")
        self.plays_btn.on_click(g(lambda _: self.make_plays_csv()))
        self.stat.observe(g(lambda _: self.show_stat()), "value")
        self.box = w.VBox([
            self.progress.box, self.memory_note,
            w.HTML("<h3>Games</h3>"), w.HBox([self.filter, self.order]), self.list,
            self.chosen, self.list_note,
            w.HBox([self.open_btn, self.delete_btn, self.upload, self.plays_upload]),
            self.confirm, w.HBox([self.plays_btn, self.links]),
            self.viewer,
            w.HTML("<h3>Statistics</h3>"), self.charts, self.stat,
            w.HBox([self.stat_find, self.stat_sort, self.stat_reverse]), self.stat_out])
        self.box.add_class("history-tab")
        self._tables: dict = {}
        self.games_table = None
        self._quiet = False
        if load:
            self.refresh()

    # -- list -------------------------------------------------------------------------
    def refresh(self):
        """The games, the statistics and the charts, from History brought up to date.

        Issue 35: "Read-only stores show everything they hold: History, statistics and
        exports computed in memory when the derived tables cannot be written, with a
        one-line note."  History is the command line's: :func:`companion.table.history.
        current` syncs the store, or, when its derived tables cannot be written (a
        read-only SQLite file or folder, a SELECT-only PostgreSQL role, a full disk),
        gives a copy in memory brought up to date there, and the note this tab shows in
        one line.  Everything the tab reads of History (the list, the tables, the
        charts, the people tables, the plays CSV, a game's VP by year) is read from
        :attr:`view`; nothing is written to a store that cannot be written."""
        # the first sync after an upgrade derives every game: a bar with counts
        try:
            view, note = history.current(self.store, progress=self.progress)
        finally:
            self.progress.hide()
        if self.view is not self.store and self.view is not view:
            self.view.close()               # the copy made at the last refresh
        self.view = view
        self.memory_note.value = (f"<div class='history-memory-note'><small>{escape(note)}"
                                  "</small></div>") if note else ""
        self.memory_note.layout.display = "" if note else "none"
        # one sync and one read of each table for everything below (issue 26)
        with stats.one_read(self.view):
            self._refresh()

    def _refresh(self):
        stats.mark_synced(self.view)        # the tables below: no sync again
        self.games_table = stats.games(self.view)
        self.refresh_list()
        self._tables = stats.all_statistics(self.view)
        keep = self.stat.value
        names = list(self._tables) + [PEOPLE_PREFIX + n for n in stats.PEOPLE]
        self._quiet = True              # one drawing of the table, below
        try:
            self.stat.options = names
            self.stat.value = keep if keep in names else "win rate by player"
        finally:
            self._quiet = False
        self.show_stat()
        self.show_charts()
        self.links.value = ""            # made again when asked for: the games changed

    def make_plays_csv(self):
        """The plays CSV of every finished game, as a link to save it."""
        csv = history.plays_csv(self.view)
        self.links.value = data_link(csv, "plays.csv", "text/csv",
                                     "Export all finished plays (CSV for play loggers)",
                                     "history-plays-csv export-link")

    def refresh_list(self):
        df = self.games_table
        if df is None:
            return
        q = (self.filter.value or "").strip().lower()
        if q:
            hay = (df.game + " " + df.players + " " + df.date + " " + df.title.fillna("")
                   + " " + df.location + " " + df.notes).str.lower()
            df = df[hay.str.contains(q, regex=False)]
        df = sort_games(df, self.order.value)
        found = len(df)
        df = df.head(MAX_GAMES)
        self.list_note.value = "" if found <= MAX_GAMES else (
            f"<small>The first {MAX_GAMES} of {found:,} games in this order: type in "
            "<b>Find</b> (a player, a date, a place) to list the others.</small>")
        opts = []
        for r in df.itertuples():
            extra = ""
            if r.location:
                extra += f" · at {r.location[:40]}"
            if r.duration_min is not pd.NA and r.duration_min == r.duration_min:
                extra += f" · {int(r.duration_min) // 60}:{int(r.duration_min) % 60:02d} h"
            opts.append((f"{r.date} · {r.game} · {r.players} · {game_state(r)}{extra}",
                         r.game_id))
        self.list.options = opts
        if opts:
            self.list.value = opts[0][1]
        self._show_chosen()

    def _show_chosen(self) -> None:
        label = next((t for t, v in self.list.options if v == self.list.value), "")
        self.chosen.value = (f"<div style='white-space:normal;overflow-wrap:anywhere'>"
                             f"<b>Chosen:</b> {escape(label)}</div>" if label else "")

    # -- one game -----------------------------------------------------------------------
    def open_selected(self):
        gid = self.list.value
        if not gid:
            raise CompanionError("Choose a game in the list first.")
        rec = self.store.load(gid)
        self.record = rec
        self.gid = gid
        if rec.get("format") == plays_import.IMPORTED_FORMAT:
            self.show_imported(gid, rec)
            return
        n = len(rec.get("actions") or [])
        self.step = w.IntSlider(value=n, min=0, max=n, description="step",
                                layout=w.Layout(width="520px", max_width="100%"))
        self.step.add_class("history-step")
        prev = w.Button(description="◀ previous")
        prev.add_class("history-prev")
        nxt = w.Button(description="next ▶")
        nxt.add_class("history-next")
        prev.on_click(self.app.guarded(lambda _: setattr(self.step, "value", max(0, self.step.value - 1))))
        nxt.on_click(self.app.guarded(lambda _: setattr(self.step, "value", min(n, self.step.value + 1))))
        self.what = w.HTML()
        self.what.add_class("history-step-what")
        self.board = w.HTML()
        self.board.add_class("history-board")
        self.step.observe(self.app.guarded(lambda _: self.show_step()), "value")
        game = history.open_game(rec, trusted=True)    # the store's record
        sheet = self.score_sheet(rec, game)
        try:
            details = details_words(history.play_details(self.store, gid))
        except CompanionError:
            details = ""
        rows = [w.HTML(f"<h3>{escape((rec.get('meta') or {}).get('title') or gid)}</h3>"
                       + (f"<div class='history-details'>{details}</div>" if details else "")),
                w.HBox([prev, self.step, nxt]), self.what, self.board]
        links = [data_link(history.dumps(rec), f"{gid}.json", "application/json",
                           "Export this record (JSON)", "history-export-json export-link")]
        if sheet:
            links.append(data_link(sheet, f"score-sheet-{gid}.html", "text/html",
                                   "Printable score sheet", "history-sheet export-link"))
        # a game laid from the table (issue 39): the years not known are said, not drawn
        chart = vp_by_year_html(stats.vp_by_year(self.view, gid), render.vp_chart_svg)
        rows.append(w.HTML("<div class='history-links'>" + "".join(links) + "</div>" + chart))
        if not game.state.finished:
            rows.append(w.HTML("<small>Exports to BG Stats / BoardGameGeek: when it is over."))
        else:
            rows.append(self.exports.show(gid, registry.kind_of(rec).logger_names[0]))
        self.viewer.children = rows
        self.show_step()

    def show_step(self):
        rec = self.record
        k = self.step.value
        actions = rec.get("actions") or []
        part = {**rec, "actions": actions[:k]}
        game = history.open_game(part, trusted=True)   # a prefix of the store's record
        if k == 0:
            what = "<i>The setup, before the first action.</i>"
        else:
            a = actions[k - 1]
            when = f"year {a['year']}, turn {a['turn']}: " if "year" in a else ""
            text = registry.kind_of(rec).describe_action(a)
            what = f"<b>Step {k}/{len(actions)}</b> — {escape(when + text)}"
        # the board first: the step's words are the sign that the step is shown
        self.board.value = self.board_html(game)
        self.what.value = what

    @staticmethod
    def board_html(game) -> str:
        return registry.kind_of(rec_format(game)).picture(game)

    def score_sheet(self, rec, game) -> str | None:
        """A standalone, printable HTML page of a finished game."""
        if not game.state.finished:
            return None
        try:
            res = game.score()
        except CompanionError:
            return None
        title = escape((rec.get("meta") or {}).get("title") or ", ".join(rec["setup"]["players"]))
        name = registry.GAME_NAMES.get(rec.get("format"), rec.get("format"))
        return ("<!doctype html><html><head><meta charset='utf-8'><title>Score sheet</title>"
                "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
                "td,th{border:1px solid #999;padding:3px 8px;text-align:left}"
                "@media print{a{display:none}}</style></head><body>"
                f"<h1>{escape(name)} — score sheet</h1><h2>{title}</h2>"
                f"<p><b>{escape(res.explanation)}</b></p>"
                # the columns in words, an empty cell for a line with none (issue 50)
                + res.shown_table().to_html(index=False)
                + "<h3>Every VP with its source</h3>"
                + res.shown_lines().to_html(index=False)
                + "<h3>Final position</h3>" + self.board_html(game)
                + "</body></html>")

    # -- delete -------------------------------------------------------------------------
    def ask_delete(self):
        self.app.session.require(Write.DELETE)     # the page's role: asked before anything
        gid = self.list.value
        if not gid:
            raise CompanionError("Choose a game in the list first.")
        label = dict((v, k) for k, v in self.list.options).get(gid, gid)
        yes = w.Button(description="Yes, delete it", button_style="danger")
        yes.add_class("history-delete-yes")
        no = w.Button(description="Keep it")
        no.on_click(self.app.guarded(lambda _: setattr(self.confirm, "children", [])))

        def delete(_):
            self.app.session.delete(gid)
            self.confirm.children = []
            self.viewer.children = []
            self.app.say("The game was deleted.")
            self.refresh()
        yes.on_click(self.app.guarded(delete))
        self.confirm.children = [w.HTML(f"<b>Delete {escape(label)}? This cannot be undone "
                                        "(export its record first if unsure).</b>&nbsp;"), yes, no]

    # -- import -------------------------------------------------------------------------
    def do_import(self):
        import os
        import tempfile
        files = self.upload.value
        if not files:
            return
        self.app.session.require(Write.IMPORT)     # before any file is written or read
        paths = []
        with tempfile.TemporaryDirectory() as d:
            for f in files:
                name = f["name"] if isinstance(f, dict) else f.name
                content = bytes(f["content"]) if isinstance(f, dict) else bytes(f.content)
                p = os.path.join(d, os.path.basename(name) or "record.json")
                with open(p, "wb") as out:
                    out.write(content)
                paths.append(p)
            try:
                ids = self.app.session.import_records(paths)
            finally:
                self.upload.value = ()             # the same file can be chosen again
        # what was new and what was already there (issue 37: an import is idempotent)
        result = ids if isinstance(ids, history.ImportedRecords) \
            else history.ImportedRecords(ids)
        self.app.say(history.import_summary(result) + ".")
        self.refresh()

    def do_import_plays(self):
        """Plays from a BG Stats export or BGG plays XML (companion.table.plays_import)."""
        files = self.plays_upload.value
        if not files:
            return
        try:
            self._import_plays(files)
        finally:
            self.plays_upload.value = ()           # the same file can be chosen again

    def _import_plays(self, files) -> None:
        import os
        import tempfile
        self.app.session.require(Write.IMPORT)     # before any file is written or read
        paths = []
        with tempfile.TemporaryDirectory() as d:
            for i, f in enumerate(files):
                name = f["name"] if isinstance(f, dict) else f.name
                content = bytes(f["content"]) if isinstance(f, dict) else bytes(f.content)
                base = os.path.basename(str(name))[-80:] or "plays"
                os.mkdir(os.path.join(d, str(i)))     # each file keeps its own name
                p = os.path.join(d, str(i), base)
                with open(p, "wb") as out:
                    out.write(content)
                paths.append(p)
            result = self.app.session.import_plays(paths)
        words = plays_import.summary(result)
        self.app.say(words[:1].upper() + words[1:] + ".")
        self.refresh()

    def show_imported(self, gid: str, rec: dict) -> None:
        """An imported play: what its file said (there is no action record to step through)."""
        s = rec["setup"]
        try:
            details = details_words(history.play_details(self.store, gid))
        except CompanionError:
            details = ""
        rows = "".join(
            f"<tr><td>{escape(p)}</td><td>{'' if v is None else v}</td>"
            f"<td>{'' if r is None else r}</td><td>{'★' if p in s['winners'] else ''}</td></tr>"
            for p, v, r in zip(s["players"], s["scores"], s["ranks"]))
        self.viewer.children = [w.HTML(
            f"<h3>{escape((rec.get('meta') or {}).get('title') or gid)}</h3>"
            f"<div class='history-imported'>Imported from "
            f"{escape(plays_import.SOURCES.get(s.get('source'), 'another logger'))}: "
            f"the scores as logged there; there is no action record to replay.</div>"
            + (f"<div class='history-details'>{details}</div>" if details else "")
            + "<table class='history-table history-imported-scores'><tr><th>player</th>"
              "<th>score</th><th>rank</th><th>won</th></tr>" + rows + "</table>"
            + data_link(history.dumps(rec), f"{gid}.json", "application/json",
                        "Export this record (JSON)", "history-export-json export-link")),
            # to the other logger (issue 37): an imported BG Stats play to BGG, and back
            self.exports.show(gid, registry.kind_of(s["game"]).logger_names[0], s.get("source"))]

    # -- statistics ---------------------------------------------------------------------
    def table(self, name: str):
        """A statistics table by name (people tables computed when first shown)."""
        df = self._tables.get(name)
        if df is None and name and name.startswith(PEOPLE_PREFIX):
            fn = stats.PEOPLE.get(name[len(PEOPLE_PREFIX):])
            if fn is not None:
                df = self._tables[name] = fn(self.view)
        return df

    def show_stat(self, keep_sort: bool = False):
        if self._quiet:
            return
        name = self.stat.value
        df = self.table(name)
        if not keep_sort:
            # the sort choices are this table's columns (an index with a name too)
            cols = ([n for n in df.index.names if n] if df is not None
                    and not isinstance(df.index, pd.RangeIndex) else []) + \
                (list(map(str, df.columns)) if df is not None else [])
            opts = [("as listed", "")] + [(c, c) for c in dict.fromkeys(cols)]
            keep = self.stat_sort.value
            self._quiet = True
            try:
                self.stat_sort.options = opts
                self.stat_sort.value = keep if keep in [v for _, v in opts] else ""
            finally:
                self._quiet = False
        if df is None:
            self.stat_out.value = ""
            return
        note = stat_note(df)     # e.g. the games laid from the table it leaves out (issue 39)
        if df.empty:
            self.stat_out.value = note or "<i>No finished games for this table yet.</i>"
            return
        shown = search_sort(df, self.stat_find.value, self.stat_sort.value,
                            self.stat_reverse.value)
        # a plain row number (RangeIndex) is neither shown nor exported
        index = not isinstance(df.index, pd.RangeIndex)
        csv = frame_csv(shown, index=index)   # no cell runs as a formula
        count = (f"<div class='history-stat-count'><small>{len(shown):,} of {len(df):,} rows"
                 + (f"; the first {MAX_ROWS} shown (search to narrow, the CSV has them all)"
                    if len(shown) > MAX_ROWS else "") + "</small></div>") \
            if len(shown) != len(df) or len(shown) > MAX_ROWS else ""
        chart = ""
        if name.startswith(PEOPLE_PREFIX) and not shown.empty:
            chart = ("<div class='history-people-chart' style='max-width:100%'>"
                     + scalable(stats.people_chart_svg(name[len(PEOPLE_PREFIX):], shown))
                     + "</div>")
        # a wide table scrolls inside its own box, never the page (issue 15)
        self.stat_out.value = (note + count + "<div class='scroll-x'>"
                               + shown.head(MAX_ROWS).to_html(border=0, classes="history-table",
                                                              na_rep="", index=index)
                               + "</div>"
                               + data_link(csv, f"{name.replace(PEOPLE_PREFIX, 'people-').replace(' ', '-')}.csv",
                                           "text/csv", "Export this table (CSV)",
                                           "history-csv export-link")
                               + chart)

    def show_charts(self):
        bd = self._tables["average breakdown"]
        parts = []
        # every game's win rate by player (issue 37: the chart left out Small Star Empires)
        for name, wr in self._tables.items():
            if name.endswith("win rate by player") and not wr.empty:
                title = f"{name.split(':')[0]}: win rate by player" if ":" in name else \
                    "Among the Stars: win rate by player"
                parts.append(bars_svg(list(wr.player), list(wr.win_rate), title=title))
        if not bd.empty:
            # the categories in the final table's words (issue 50: "during_game")
            from ..ats.scoring import SHOWN_COLUMNS
            parts.append(bars_svg([SHOWN_COLUMNS.get(c, c) for c in bd.category],
                                  list(bd.average),
                                  title="Among the Stars: average VP by category",
                                  fmt="{:.1f}"))
        self.charts.value = "".join(f"<div style='display:inline-block;vertical-align:top;"
                                    f"margin-right:20px;max-width:100%'>{p}</div>"
                                    for p in parts)


def rec_format(game) -> str:
    return registry.format_of(game)
