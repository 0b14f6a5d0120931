"""The Small Star Empires scores, what-if table and final screen: each player's score now
and as projected (the score table), then the final table with its breakdown and tiebreak,
the record export, the play details and exports, the epic table's form and the campaign's
panel.  A part of :class:`companion.ui.sse_screen.SseScreen`."""
from __future__ import annotations

import base64

import ipywidgets as w

from ..core import chance
from ..table import playtime
from ..table.csvsafe import frame_csv
from .common import export_name, stacked_table_html
from ..core.errors import CompanionError, MissingEntry
from ..core.htmlsafe import escape
from ..sse.game import FORMAT, SseGame
from ..sse.kind import KIND
from ..sse.offer import epic_columns, epic_numbers
from ..sse.render import map_svg
from ..sse.scoring import CATEGORIES, CATEGORY_NAMES, tiebreak_words
from .playdetails import FinalExports, final_details_form
from .writes import writes
from .sse_protocol import SseScreenProtocol



class SseFinal:
    """The what-if table (``whatif``), the final table (``final``), the play details and
    exports under it (``final_extra``: ``final_details``, ``exports``), the epic table's
    form (``epic_box``) and the campaign (``campaign_box``) of ``screen``."""

    def __init__(self, screen: SseScreenProtocol):
        self.screen = screen
        self.whatif = w.HTML()
        self.whatif.add_class("sse-whatif")
        self.final = w.HTML()
        self.final.add_class("sse-final")
        self.final_details, save = final_details_form(
            screen.guarded, lambda: screen.save_final_details(), "sse-")
        self.exports = FinalExports(screen.store, "sse-final-exports", KIND.family,
                                    screen.guarded)
        # the details form writes (hidden in the table view); the exports only read
        self.final_extra = w.VBox([
            writes(w.HTML("<h4 style='margin:8px 0 2px'>Play details</h4>")),
            writes(self.final_details.box), save, self.exports.panel])
        self.final_extra.add_class("sse-final-extra")
        self.epic_box = w.VBox()
        self.campaign_box = w.VBox()
        self.campaign_box.add_class("sse-campaign")
        self.scoreboard = w.HTML()
        self.scoreboard.add_class("sse-score")
        self.score_details = w.HTML()
        self.score_details.add_class("sse-score-details")
        # folded (widgets keep their open state across refreshes, unlike <details>)
        self.score_more = w.Accordion(children=[self.score_details], selected_index=None)
        self.score_more.set_title(0, "Ships and the score if the game ended now")
        self.score_more.add_class("sse-score-more")

    # -- the score now -----------------------------------------------------------------------
    def refresh_score(self) -> None:
        """The compact score table (``scoreboard``) and, folded, each player's ships and
        the end scoring as if the game ended now (``score_details``)."""
        s = self.screen
        g = s.game
        st = g.state
        try:
            proj = g.score(project=True).table.set_index("player")
        except CompanionError:
            proj = None
        rows, details = [], []
        cats = [c for c in CATEGORIES if proj is not None and c in proj.columns]
        # issue 39: while pieces are laid, a player still to lay has no numbers yet (not
        # an empty map and a full reserve), and no "if ended" counts them as empty
        todo = s.lay_part.still_to_lay()
        for p in st.setup.players:
            ps = st.players[p]
            # one ship a line, never cut inside "at [q, r]"
            ships = "<br>".join(f"<span style='white-space:nowrap'>{'▶' if s.damaged else '▲'} "
                                f"{s.id} at [{s.at[0]}, {s.at[1]}]</span>" for s in ps.ships)
            ended = int(proj.loc[p].total) if proj is not None else "?"
            # short, so the compact table fits a phone: ▶ = to move
            status = ("<small>passed</small>" if ps.passed else
                      ("<span title='to move'>▶</span>" if p == st.current else ""))
            # compact (issue 15): who, VP, the score if it ended now, the reserves
            nums = (ps.vp, ended if not todo else "—", ps.cities, ps.trade_stations)
            if p in todo:
                nums, status = ("—",) * 4, "<small class='not-laid'>not laid yet</small>"
            rows.append(
                f"<tr class='sse-score-row' data-player='{escape(p)}'><td>{s.swatch(p)} "
                f"<b>{escape(p)}</b></td>" + "".join(f"<td class='{c}'>{v}</td>" for c, v in zip(
                    ("vp", "if-ended", "cities", "trade"), nums))
                + f"<td class='status'>{status}</td></tr>")
            parts = "".join(f"<td>{int(proj.loc[p][c])}</td>" for c in cats)
            details.append(f"<tr><td><b>{escape(p)}</b></td><td class='ships'>{ships}</td>"
                           f"{parts}</tr>")
        self.scoreboard.value = (
            "<div class='scroll-x'><table class='sse-score' style='border-collapse:collapse'>"
            "<tr style='border-bottom:1px solid #999'><th>Player</th>"
            "<th title='VP on the track'>VP</th>"
            "<th title='the final score if the game ended now'>If ended</th>"
            "<th title='Cities left in the reserve'>Cities</th>"
            "<th title='Trade Stations left in the reserve'>Trade St.</th><th></th></tr>"
            + "".join(rows) + "</table></div>")
        self.score_details.value = (
            "<div class='scroll-x'><table class='sse-score-more-table'><tr><th>Player</th>"
            "<th>Ships (▶ damaged)</th>" + "".join(f"<th>{escape(CATEGORY_NAMES[c])}</th>"
                                                  for c in cats)
            + "</tr>" + "".join(details) + "</table></div>"
            "<div><small>The categories: the end scoring as if the game ended now.</small></div>")

    # -- what-if ---------------------------------------------------------------------------
    def refresh_whatif(self) -> None:
        s = self.screen
        g = s.game
        if s.selected is None or g.state.finished:
            self.whatif.value = ""
            return
        from ..sse.whatif import destinations
        df = destinations(g, g.state.current, s.selected)
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
            f"<div><b>What-if for ship {s.selected}</b> — every legal destination, "
            "best first (the end scoring as if the game ended after the move)</div>"
            "<div class='scroll-x'><table class='sse-whatif-table'><tr><th>to</th><th>how</th>"
            "<th>VP now</th><th>nebulae</th><th>trade st.</th><th>territory</th><th>other</th>"
            "<th>change</th><th>projected</th><th>opponents</th></tr>" + "".join(rows)
            + "</table></div>")

    # -- final table -------------------------------------------------------------------------
    def refresh(self) -> None:
        s = self.screen
        g = s.game
        self.epic_box.children = []
        self.campaign_box.children = []
        self.final_extra.layout.display = "none"
        if not g.state.finished:
            self.final.value = ""
            return
        if not s.session.read_only:     # the table view writes nothing
            s.stop_timer()
        try:
            result = g.score()
        except MissingEntry as e:
            self.final.value = f"<b>{escape(str(e))}</b>"
            if not s.session.read_only:     # the players type it on their pages
                self.epic_box.children = [self.epic_form()]
            return
        # issue 21: a module's column only when the game has it (the engine says which),
        # and the total right after the name: seen on a phone without swiping
        t = result.shown_table(g.state)
        rec = s.stored_record_b64(g)          # the stored record, details included
        csv = base64.b64encode(frame_csv(result.table).encode()).decode()
        names = (export_name(KIND.family, s.session),
                 export_name(KIND.family, s.session, "final-table", "csv"))
        self.final.value = (
            f"<div class='sse-winner' style='font-size:1.3em;margin:6px 0'><b>★ "
            f"{escape(result.explanation)}</b></div>"
            f"<div class='sse-tiebreak' data-decided='{result.decided_by}'>"
            f"{escape(tiebreak_words(result.decided_by))}</div>"
            # wide tables scroll in their own box; the final position is drawn here only
            + "<div class='scroll-x final-wide'>"
            + t.to_html(index=False, classes="sse-final-table", border=0) + "</div>"
            + stacked_table_html(t)
            + "<details><summary>Every VP with its source</summary><div class='scroll-x'>"
            + result.lines.to_html(index=False, border=0) + "</div></details>"
            f"<p><a class='sse-export-json export-link' download='{names[0]}' "
            f"href='data:application/json;base64,{rec}'>Export the record (JSON)</a>"
            f"<a class='sse-export-csv export-link' download='{names[1]}' "
            f"href='data:text/csv;base64,{csv}'>Export the table (CSV)</a></p>"
            + map_svg(g.state.map, g.state, size=26))
        if g.setup.campaign is not None:
            self.campaign_box.children = self.campaign_panel()
        self.final_extra.layout.display = ""
        s.fill_final_details()
        s.refresh_exports()

    # -- the epic table ----------------------------------------------------------------------
    def epic_form(self):
        s = self.screen
        n = epic_columns()
        t = w.Text(description="Epic table", placeholder=f"{n} numbers from your rulebook",
                   layout=w.Layout(width="420px"))
        t.add_class("sse-epic-values")
        save = w.Button(description="Save and score", button_style="success")

        def do(_):
            try:
                vals = epic_numbers(t.value)
            except ValueError:
                raise CompanionError(f"Type {n} whole numbers.") from None
            if len(vals) != n:
                raise CompanionError(f"The epic nebula table has {n} values (1 to {n} nebulae).")
            s.session.set_manual([{"source": "nebula_table", "values": vals}])
            s.refresh()
        save.on_click(s.guarded(do))
        return writes(w.VBox([w.HTML("The epic nebula table is not in our copy of the rulebook: "
                                     f"type its {n} values (VP for 1 to {n} nebulae of a colour) "
                                     "from yours."),
                              w.HBox([t, save])]))

    # -- campaign ------------------------------------------------------------------------------
    def campaign(self):
        """The campaign of the open game, rebuilt from the store (games sharing its meta id)."""
        from ..sse.campaign import Campaign
        s = self.screen
        cid = (s.game.meta or {}).get("campaign")
        if not cid:
            raise CompanionError("This campaign game was not started from the dashboard: "
                                 "continue it from its campaign file.")
        recs = []
        for info in s.store.games(format=FORMAT):
            rec = s.store.load(info["id"])
            if (rec.get("meta") or {}).get("campaign") == cid:
                recs.append(rec)
        recs.sort(key=lambda r: r["setup"]["campaign"]["game"])
        for r in recs:
            r.pop("cards", None)
        return Campaign(list(s.game.setup.players), recs), cid

    def campaign_panel(self) -> list:
        s = self.screen
        try:
            campaign, cid = self.campaign()
        except CompanionError as e:
            return [w.HTML(f"<i>{escape(str(e))}</i>")]
        html = (f"<h4>Campaign</h4><div class='sse-campaign-words'><b>{escape(campaign.explanation())}"
                f"</b></div><div class='scroll-x'>"
                + campaign.table().to_html(index=False, border=0, classes="sse-final-table")
                + "</div>")
        kids = [w.HTML(html)]
        if not campaign.over:
            nxt = w.Button(description=f"Start campaign game {len(campaign.games) + 1}",
                           button_style="primary", icon="forward")
            nxt.add_class("sse-next-game")
            writes(nxt, host_only=True)
            nxt.on_click(s.guarded(lambda _: self.next_campaign_game(campaign, cid)))
            kids.append(nxt)
        return kids

    def next_campaign_game(self, campaign, cid) -> None:
        s = self.screen
        base = s.game.setup.to_dict()
        base.pop("campaign", None)
        base["pieces"] = {"ships": base["pieces"]["ships"]}
        setup = chance.new_game(campaign.next_setup(base))       # a fresh seed (issue 20)
        game = SseGame(setup)
        rec = game.to_record()
        loc = s.timer.meta.get("location")
        # the play timer starts with the game; the table's location carries over
        rec["meta"] = playtime.start({"campaign": cid, **({"location": loc} if loc else {})})
        k = setup["campaign"]["game"]
        gid = s.session.create(rec, title=f"Small Star Empires: {', '.join(setup['players'])} "
                                        f"(campaign game {k})")
        s.open_game(gid)
        wins = setup["campaign"]["wins"]
        s.app.say(f"Campaign game {k}: win piles " + ", ".join(f"{p} {n}" for p, n in wins.items())
                  + f". {game.current} moves first.")
