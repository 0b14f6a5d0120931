"""The Small Star Empires what-if table and final screen: each player's score now and as
projected, then the final table with its breakdown and tiebreak, the record export.  A mixin of
:class:`companion.ui.sse_tab.SseTab`."""
from __future__ import annotations

import base64
from ..table.csvsafe import frame_csv
from ..core.htmlsafe import escape


from ..core.errors import MissingEntry
from ..sse.render import map_svg
from ..sse.scoring import CATEGORIES, CATEGORY_NAMES, shown_table, tiebreak_words

PLURAL = {"city": "Cities", "trade_station": "Trade Stations"}


class SseFinal:
    """Methods of :class:`SseTab` (sse_tab.py); see the module docstring."""

    # -- what-if ---------------------------------------------------------------------------
    def _refresh_whatif(self):
        g = self.game
        if self.selected is None or g.state.finished:
            self.whatif.value = ""
            return
        from ..sse.whatif import destinations
        df = destinations(g, g.state.current, self.selected)
        if not len(df):
            self.whatif.value = ""
            return

        def fmt(v, sign=True):
            if v is None or v != v:
                return "?"
            v = int(v)
            return f"{v:+d}" if sign else str(v)
        rows = []
        for r in df.itertuples():
            rows.append(f"<tr><td>[{r.to[0]}, {r.to[1]}]</td><td>{escape(r.note)}</td>"
                        f"<td>{fmt(r.vp_now, False)}</td><td>{fmt(r.nebulae)}</td>"
                        f"<td>{fmt(r.trade_stations)}</td><td>{fmt(r.territory)}</td>"
                        f"<td>{fmt(r.other)}</td><td><b>{fmt(r.change)}</b></td>"
                        f"<td>{fmt(r.projected, False)}</td><td>{fmt(r.opponents)}</td></tr>")
        self.whatif.value = (
            f"<div><b>What-if for ship {self.selected}</b> — every legal destination, "
            "best first (the end scoring as if the game ended after the move)</div>"
            "<div class='scroll-x'><table class='sse-whatif-table'><tr><th>to</th><th>how</th>"
            "<th>VP now</th><th>nebulae</th><th>trade st.</th><th>territory</th><th>other</th>"
            "<th>change</th><th>projected</th><th>opponents</th></tr>" + "".join(rows)
            + "</table></div>")

    # -- final table -------------------------------------------------------------------------
    def _refresh_final(self):
        g = self.game
        self.epic_box.children = []
        self.campaign_box.children = []
        self.final_extra.layout.display = "none"
        if not g.state.finished:
            self.final.value = ""
            return
        if not self.session.read_only:     # the table view writes nothing
            self._stop_timer()
        try:
            result = g.score()
        except MissingEntry as e:
            self.final.value = f"<b>{escape(str(e))}</b>"
            if not self.session.read_only:     # the players type it on their pages
                self.epic_box.children = [self._epic_form()]
            return
        # issue 21: a module's column only when the game has it (the engine says which),
        # and the total right after the name: seen on a phone without swiping
        t = shown_table(result, g.state).rename(columns={**{c: CATEGORY_NAMES[c] for c in CATEGORIES},
                                         "cities_left": "Cities left",
                                         "trade_stations_left": "Trade St. left",
                                         "planets_controlled": "planets controlled",
                                         "largest_territory": "largest territory size"})
        rec = self._stored_record_b64(g)          # the stored record, details included
        csv = base64.b64encode(frame_csv(result.table).encode()).decode()
        self.final.value = (
            f"<div class='sse-winner' style='font-size:1.3em;margin:6px 0'><b>★ "
            f"{escape(result.explanation)}</b></div>"
            f"<div class='sse-tiebreak' data-decided='{result.decided_by}'>"
            f"{escape(tiebreak_words(result.decided_by))}</div>"
            # wide tables scroll in their own box; the final position is drawn here only
            + "<div class='scroll-x'>"
            + t.to_html(index=False, classes="sse-final-table", border=0) + "</div>"
            + "<details><summary>Every VP with its source</summary><div class='scroll-x'>"
            + result.lines.to_html(index=False, border=0) + "</div></details>"
            f"<p><a class='sse-export-json export-link' download='small-star-empires-game.json' "
            f"href='data:application/json;base64,{rec}'>Export the record (JSON)</a>"
            f"<a class='sse-export-csv export-link' download='sse-final-table.csv' "
            f"href='data:text/csv;base64,{csv}'>Export the table (CSV)</a></p>"
            + map_svg(g.state.map, g.state, size=26))
        if g.setup.campaign is not None:
            self.campaign_box.children = self._campaign_panel()
        self.final_extra.layout.display = ""
        self._fill_final_details()
        self._refresh_exports()
