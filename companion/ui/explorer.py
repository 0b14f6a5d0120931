"""The what-if explorer panel of the dashboard: heatmap, hand ranking,
"if the game ended now", VP by year.  Widgets only; the numbers come from
companion.ats.whatif and the pictures from companion.ats.render."""
from __future__ import annotations

from ..core.htmlsafe import escape

import ipywidgets as w

from ..ats import render, whatif
from ..core.errors import CompanionError
from .style import scroll_into_view
from .writes import writes

TOP_ROWS = 15


class Explorer:
    def __init__(self, app):
        self.app = app
        self.player = w.Dropdown(description="Player")
        self.player.add_class("wi-player")
        self.card = w.Combobox(description="Card", placeholder="a card to place",
                               ensure_option=False, layout=w.Layout(width="340px"))
        self.card.add_class("wi-card")
        # any name is kept as typed (issue 21: a list of allowed names silently dropped a
        # name typed in another case or a card added later); hand_ranking names the
        # cards it does not know, with the reason, in the ranking
        self.hand = w.TagsInput(allowed_tags=[], allow_duplicates=False)
        self.hand.add_class("wi-hand")
        # the card form for a card whose values the what-if needs (ui/cardform.py)
        self.form_box = writes(w.VBox())          # saves card values (Write.CARDS)
        self.form_box.add_class("wi-card-form")
        self.form_for: str | None = None
        self.heat = w.HTML()
        self.heat.add_class("wi-heatmap")
        self.best = w.HTML()
        self.best.add_class("wi-best")
        self.ranking = w.HTML()
        self.ranking.add_class("wi-ranking")
        self.now = w.HTML()
        self.now.add_class("wi-ended-now")
        self.chart = w.HTML()
        self.chart.add_class("wi-chart")
        # the player shown follows who acts now (issue 37: in Revival the explorer showed
        # the first player in the other's turn, every cell "revival-order") until the
        # person picks one; the page's own seat first
        self._picked = False
        self._setting = False
        self.player.observe(lambda _: self._setting or setattr(self, "_picked", True), "value")
        for x in (self.player, self.card):
            x.observe(app.guarded(lambda _: self.refresh()), "value")
        self.hand.observe(app.guarded(lambda _: self.refresh()), "value")
        self.body = w.VBox([
            w.HTML("<div>Where would a card score most? Pick a player and a card: every cell "
                   "of the station shows the projected change to the final score "
                   "(green = better, ★ = best, grey = not legal: hover for the reason). "
                   "Nothing here changes the game.</div>"),
            w.HBox([self.player, self.card]), self.best, self.form_box, self.heat,
            w.HTML("<b>Hand ranking</b>: type the cards in hand (Enter after each)"),
            self.hand, self.ranking,
            w.HTML("<b>If the game ended now</b>"), self.now, self.chart])
        self.box = w.Accordion(children=[self.body], selected_index=None)
        self.box.set_title(0, "What-if explorer")
        self.box.add_class("whatif")
        self.box.observe(app.guarded(lambda _: self.refresh()), "selected_index")

    @property
    def open(self) -> bool:
        return self.box.selected_index == 0

    def reset(self, game):
        names = game.catalogue.names("location")
        self.card.options = tuple(names)
        players = list(game.setup.players)
        self._picked = False
        if list(self.player.options) != players:
            self._setting = True
            try:
                self.player.options = players
                self.player.value = players[0]
            finally:
                self._setting = False
        self._follow(game)

    def _follow(self, game) -> bool:
        """Show the player who acts now (the page's seat if it still acts this turn), unless
        the person picked one.  True if the player shown changed (the change's own
        refresh has drawn the explorer for them)."""
        if self._picked or game.state.finished:
            return False
        waiting = game.waiting_in_order()
        seat = getattr(self.app, "seat", None)
        now = seat if seat in waiting else (waiting[0] if waiting else None)
        if now is None or now == self.player.value or now not in self.player.options:
            return False
        self._setting = True
        try:
            self.player.value = now
        finally:
            self._setting = False
        return True

    def refresh(self):
        g = self.app.game
        if g is None or not self.open:
            return
        st = g.state
        if self._follow(g):
            return
        try:
            proj = whatif.if_ended_now(g)
        except CompanionError as e:     # the game is over and its final scoring waits
            self.now.value = (f"<div class='wi-now-waiting'>The final table is not known yet: "
                              f"{escape(getattr(e, 'detail', str(e)))}</div>")
        else:
            t = proj.table.rename(columns={"credits": "credits VP", "credits_left": "credits left",
                                           "during_game": "so far",
                                           "end_abilities": "end abilities",
                                           "empty_reactors": "empty reactors"})
            self.now.value = (f"<div>{escape(proj.explanation)}</div>"
                              + t.to_html(index=False, border=0, classes="wi-now-table"))
        self.chart.value = render.vp_chart_svg(whatif.vp_by_year(g))
        player = self.player.value
        name = (self.card.value or "").strip()
        self.heat.value, self.best.value = "", ""
        form_for = None
        if player and name and not st.finished:
            card = g.catalogue.get(name)
            if card is None:
                sug = g.catalogue.suggest(name)
                self.best.value = (f"<span style='color:#b00020'>No card called '{escape(name)}'."
                                   + (f" Did you mean {escape(', '.join(sug))}?" if sug else "")
                                   + "</span>")
            elif (need := self._needs(g, player, card)) is not None:
                # issue 21: the card form, not "No legal cell"
                self.best.value = (f"<span class='wi-needs-values'>To see where "
                                   f"'{escape(card.name)}' scores most, type the printed values "
                                   f"of '{escape(need['card'])}' "
                                   f"({escape(', '.join(need['fields']))}):</span>")
                self.ask_values(need, player)
                form_for = need["card"]
            else:
                df = self._df
                cell = whatif.best_cell(df)
                if cell is None:
                    self.best.value = f"No legal cell for '{escape(card.name)}' now."
                else:
                    row = df[(df.action == "build") & (df.cell == cell)].iloc[0]
                    self.best.value = (f"<b>Best cell for {escape(card.name)}: {list(cell)}</b>: "
                                       f"{int(row.vp_now):+d} VP now, projected final "
                                       f"{int(row.projected_total)} VP")
                self.heat.value = render.heatmap_svg(st.station(player), df,
                                                     title=f"{player}: {card.name}")
        if form_for is None and self.form_for is not None:
            self.close_form()              # nobody needs those values here any more
        hand = list(self.hand.value)
        if player and hand and not st.finished:
            df = whatif.hand_ranking(g, player, hand)

            def shown(rows):
                rows = rows.copy()
                rows["cell"] = [list(c) if isinstance(c, tuple) else "" for c in rows.cell]
                rows = rows[["card", "action", "cell", "legal", "vp_now", "projected_total",
                             "reason"]]
                return rows.rename(columns={"vp_now": "VP now",
                                            "projected_total": "projected final"})
            # one row per card (its best option), so one card's many cells never hide
            # the others; every option is one tap away
            best = df.drop_duplicates("card", keep="first")
            rest = df.head(TOP_ROWS * 2)
            self.ranking.value = (
                "<div><b>Best option for each card</b></div>"
                + shown(best).to_html(index=False, border=0, na_rep="",
                                      classes="wi-rank-table wi-rank-best")
                + f"<details><summary>All options ({len(df)})</summary>"
                + shown(rest).to_html(index=False, border=0, na_rep="", classes="wi-rank-table")
                + (f"<i>{len(df) - len(rest)} more options not shown</i>"
                   if len(df) > len(rest) else "") + "</details>")
        else:
            self.ranking.value = ""

    # -- the card form (unknown printed values) ------------------------------------------
    def _needs(self, g, player, card):
        """The values the what-if still needs (whatif.missing_values), asked only when
        the card's own numbers are unknown or a cell was refused for unknown values;
        otherwise None, with the placement map kept in ``_df``."""
        self._df = None
        if card.unknown_for_build():
            return whatif.missing_values(g, player, card.name)
        df = whatif.placement_map(g, player, card.name)
        if (df.rule == "unknown-values").any():
            need = whatif.missing_values(g, player, card.name)
            if need is not None:
                return need
        self._df = df
        return None

    def ask_values(self, need: dict, player):
        """Show the card form for ``need["card"]`` once (the values typed in it are kept
        while it is needed); saving goes through the page's own save (AtsEntry.save_values)."""
        if self.form_for == need["card"] and self.form_box.children:
            return
        from .cardform import CardForm
        card = self.app.game.catalogue.get(need["card"])
        if card is None:
            return
        app = self.app
        entry = app.entry_part          # the screen's turn entry owns the card-values form
        preview = entry.previewer(player, None) if card.category in ("location", "conflict") \
            else None
        form = CardForm(card, app.guarded(self.save_values), app.guarded(self.close_form),
                        missing=list(need["fields"]), preview=preview)
        self.form_for = card.name
        self.form_box.children = [form.box]

    def save_values(self, card):
        """Saved through the page's own save (its refresh draws the heatmap the values
        unlock); then the best cell and the heatmap on the screen (issue 37: on a phone
        the player had scrolled down to the form's Save, above them)."""
        self.app.entry_part.save_values(card)
        scroll_into_view(self.heat, self.best)

    def close_form(self):
        self.form_box.children = []
        self.form_for = None
