"""The Among the Stars final screen: the forms for values the scoring still needs (races,
cards, manual VP), then the final table with its breakdown and the tiebreak chain.  A part of
:class:`companion.ui.ats_screen.AtsScreen`."""
from __future__ import annotations

import base64
from ..table.csvsafe import frame_csv
from ..core.htmlsafe import escape

import ipywidgets as w

from ..core.errors import CompanionError, IllegalAction, UnknownCardValues
from ..ats import decks
from ..ats.catalogue import Catalogue
from ..ats.kind import KIND
from ..ats.scoring import SECRET, secret_objectives
from .common import export_name, stacked_table_html
from .writes import writes



#: the secret objective's "which card" before a card is chosen (no card has this name:
#: a name is one line of printable text)
CHOOSE = "\n"
OTHER = "\t"                  # "another card (type its name)" (issue 50)


def _box_objectives() -> list[str]:
    """The objective cards of the player's catalogue now ([] if it cannot be read: the
    game's own are offered then)."""
    try:
        return Catalogue.default().names("objective")
    except CompanionError:
        return []


def _tiebreak_words(result) -> str:
    return {
        "vp": "Decided on victory points: no tie for first place.",
        "locations": "Tied on VP: the tie was broken by the most locations in the station "
                     "(reactors not counted).",
        "credits": "Tied on VP and on locations: the tie was broken by the most credits left.",
        "shared": "Tied on VP, locations and credits: the tied players share the victory.",
    }.get(result.decided_by, "")


class AtsFinal:
    """The final screen of an :class:`~companion.ui.ats_screen.AtsScreen`."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.guarded = screen.guarded
        self.say = screen.say
        self.error = screen.error

    # -- final table ----------------------------------------------------------------------
    def refresh_final(self):
        g = self.screen.game
        if not g.state.finished:
            self.screen.final_box.children = []
            return
        if not self.screen.session.read_only:     # the table view writes nothing
            self.screen.stop_timer()
        needs = g.final_needs()
        if needs["blocked"]:            # the mode panel above offers the fixes
            self.screen.final_box.children = [self.screen.final_msg, w.HTML(
                "<div class='final-blocked'><b>Before the final scoring:</b><ul>"
                + "".join(f"<li>{escape(b)}</li>" for b in needs["blocked"]) + "</ul></div>")]
            return
        if needs["values"] or needs["manual"]:
            if self.screen.session.read_only:
                self.screen.final_box.children = [w.HTML(
                    "<div class='final-waiting'><b>Final scoring:</b> waiting for the players "
                    "to type what the scoring needs (card values, VP typed at the table) on "
                    "their own pages.</div>")]
                return
            self.screen.final_box.children = [self.screen.final_msg, *self._final_forms(needs)]
            return
        try:
            result = g.score()
        except UnknownCardValues as e:   # found only while scoring (e.g. types counted)
            self.screen.final_box.children = [self.screen.final_msg, *self._final_forms(
                {"values": [{"card": e.card, "fields": e.fields, "why": e.detail}], "manual": []})]
            return
        except IllegalAction as e:
            self.screen.final_box.children = [self.screen.final_msg, w.HTML(
                f"<div class='final-blocked'><b>Before the final scoring:</b> "
                f"{escape(e.detail)}</div>")]
            return
        t = result.table.rename(columns={"credits": "credits VP", "credits_left": "credits left",
                                         "during_game": "during game", "end_abilities": "end abilities",
                                         "empty_reactors": "empty reactors"})
        # issue 21 (layout only): the total right after the name, seen on a phone unswiped
        t = t[["player", "total"] + [c for c in t.columns if c not in ("player", "total")]]
        table_html = t.to_html(index=False, classes="final-table", border=0)
        # a line with no cell (credits, objectives) shows an empty cell, not "None"
        lines = result.lines.assign(cell=[
            "" if c is None else ", ".join(str(x) for x in c) for c in result.lines["cell"]])
        lines_html = lines.to_html(index=False, classes="final-lines", border=0)
        rec_link = self.screen.stored_record_b64(g)     # the stored record, details included
        csv = base64.b64encode(frame_csv(result.table).encode()).decode()
        names = (export_name(KIND.family, self.screen.session),
                 export_name(KIND.family, self.screen.session, "final-table", "csv"))
        self.screen.final_box.children = [self.screen.final_msg, w.HTML(
            f"<div class='final-winner' style='font-size:1.3em;margin:6px 0'><b>★ "
            f"{escape(result.explanation)}</b></div>"
            f"<div class='final-tiebreak'>{escape(_tiebreak_words(result))}</div>"
            f"<div class='scroll-x final-wide'>{table_html}</div>{stacked_table_html(t)}<details><summary>Every VP with its source"
            f"</summary><div class='scroll-x final-sources'>{lines_html}</div></details>"
            f"<p><a class='export-json export-link' download='{names[0]}' "
            f"href='data:application/json;base64,{rec_link}'>⬇ Export the record (JSON)</a>"
            f"<a class='export-csv export-link' download='{names[1]}' "
            f"href='data:text/csv;base64,{csv}'>⬇ Export the table (CSV)</a></p>"),
            self.screen.final_details_box, self.screen.exports.panel]
        self.screen.fill_final_details()
        self.screen.refresh_exports()

    def _final_forms(self, needs: dict) -> list:
        """Every value the final scoring still needs, on one screen: the printed
        values of races, objectives and cards (one form at a time, the rest
        listed), then what only the players can type (manual VP, claims)."""
        kids = [w.HTML("<h3 style='margin:4px 0'>Before the final table</h3>")]
        values = needs["values"]
        if values:
            items = "".join(f"<li><b>{escape(v['card'])}</b>: {escape(', '.join(v['fields']))}"
                            f" <small>({escape(v['why'])})</small></li>" for v in values)
            kids.append(w.HTML(f"<div class='final-values-list'>The final scoring needs the "
                               f"printed values of {len(values)} tile(s) or card(s):<ul>{items}"
                               "</ul></div>"))
            box = w.VBox()
            box.add_class("final-values")
            writes(box)
            self.screen.form_for = None
            self.screen.entry_part.ask_values(values[0]["card"], values[0]["fields"], box=box)
            kids.append(box)
        if needs["manual"]:
            kids.append(self.manual_form(needs["manual"]))
        return kids

    def _secret_row(self, req: dict):
        """The question for a secret objective the setup did not record (drawn from the
        box, or none was left in the catalogue): which objective card it is."""
        g = self.screen.game
        taken = {o.lower() for o in g.state.setup.objectives}
        taken |= {o.lower() for o in secret_objectives(g).values() if o}
        # the game's objectives and the ones typed in the catalogue since the game began
        names = sorted({n for n in g.catalogue.names("objective") + _box_objectives()
                        if n.lower() not in taken})
        opts = ([("choose the card…", CHOOSE)] + [(n, n) for n in names]
                + [("another card (type its name)", OTHER), ("no objective card was left", "")])
        which = w.Dropdown(options=opts, value=CHOOSE, description="which card",
                           style={"description_width": "initial"},
                           layout=w.Layout(width="100%", max_width="360px"))
        which.add_class("secret-which")
        # issue 50: a card the catalogue does not name, typed by its name right here
        other = w.Text(placeholder="the card's name, as printed",
                       layout=w.Layout(width="100%", max_width="360px", display="none"))
        other.add_class("secret-other")
        which.observe(lambda _: setattr(other.layout, "display",
                                        "" if which.value == OTHER else "none"), "value")
        race = f" ({req['race']})" if req.get("race") else ""
        hint = ("" if names else " <i>No objective card of the catalogue is free: choose "
                "<b>another card</b> and type its name (or type it on the catalogue screen).</i>")
        row = w.VBox([w.HTML(f"<b>Secret objective of {escape(req['player'])}{escape(race)}</b>:"
                             f" {escape(req['player'])} reveals it now; which objective card is "
                             f"it?{hint}"), which, other])
        row.add_class("secret-objective-row")
        return row, (req, which, other)

    def manual_form(self, requests: list[dict]):
        g = self.screen.game
        rows, entries = [], []
        for req in requests:
            if req["kind"] == "secret":
                seat = self.screen.seat
                if seat and req["player"] != seat:
                    # a secret objective is saved on its own player's page only (issue 36)
                    rows.append(w.HTML(
                        f"<div class='secret-objective-elsewhere'>{escape(req['player'])} "
                        f"reveals {escape(req['player'])}'s secret objective on "
                        f"{escape(req['player'])}'s own page (or the host's).</div>"))
                    continue
                row, entry = self._secret_row(req)
                rows.append(row)
                entries.append(entry)
            elif req["kind"] == "objective":
                owner = req.get("player")
                opts = [("nobody", None)] + [(p, p) for p in g.state.setup.players
                                             if owner is None or p == owner]
                who = w.Dropdown(options=opts, description="claimed by",
                                 style={"description_width": "initial"})
                who.add_class("manual-who")
                vp = w.Text(description="VP", placeholder="VP on the objective")
                vp.add_class("manual-entry-vp")
                title = (f"Secret objective of {escape(owner)}: " if owner else "Objective ")
                rows.append(w.VBox([w.HTML(f"{title}<b>{escape(req['source'])}</b>"), who, vp]))
                entries.append((req, who, vp))
            else:
                vp = w.Text(description="VP", placeholder="VP it gives")
                vp.add_class("manual-entry-vp")
                where = f" at {req['at']}" if req.get("at") else ""
                rows.append(w.VBox([w.HTML(f"{escape(req['player'])}: <b>{escape(req['source'])}</b>"
                                           f"{escape(where)}"), vp]))
                entries.append((req, None, vp))
        save = w.Button(description="Save and score", button_style="success",
                        layout=w.Layout(width="auto"))
        save.add_class("manual-save")

        def do_save(_):
            new, reveal = [], []
            for req, who, vp in entries:
                if req["kind"] == "secret":
                    name = who.value
                    if name == OTHER:
                        name = " ".join(vp.value.split())
                        if not name:
                            raise CompanionError(f"Secret objective of {req['player']}: type "
                                                 "the card's name")
                        known = g.catalogue.get(name) or Catalogue.default().get(name)
                        if known is not None and known.category != "objective":
                            raise CompanionError(f"'{known.name}' is a {known.category} card, "
                                                 "not an objective card")
                        name = known.name if known is not None else name
                    if name == CHOOSE:
                        raise CompanionError(f"Secret objective of {req['player']}: choose the "
                                             "objective card (or 'no objective card was left')")
                    entry = {"source": SECRET, "player": req["player"], "vp": 0}
                    if name:
                        entry["note"] = name
                        reveal.append(name)
                    new.append(entry)
                    continue
                txt = vp.value.strip()
                if who is not None and who.value is None:
                    new.append({"source": req["source"], "player": None, "vp": 0})
                    continue
                try:
                    v = int(txt)
                except ValueError:
                    raise CompanionError(f"VP for {req['source']}: type a whole number") from None
                entry = {"source": req["source"], "player": who.value if who else req["player"],
                         "vp": v}
                if req.get("at"):
                    entry["at"] = req["at"]
                new.append(entry)
            # the role and the engine's check first; the revealed cards' definitions
            # travel with the record (one typed after the game began is the catalogue's)
            # (a name the catalogue does not hold joins it, by its name: issue 50)
            cards = [g.catalogue.get(name) or Catalogue.default().get(name)
                     or decks.named_objective(name) for name in reveal]
            self.screen.session.add_manual(new, cards=cards)
            mine = Catalogue.default()
            for card in cards:
                if mine.get(card.name) is None:
                    self.screen.session.save_card(card, game=False)
            self.say(f"Saved {len(new)} final-scoring entr{'y' if len(new) == 1 else 'ies'}.")
            self.screen.refresh()
        save.on_click(self.guarded(do_save))
        box = w.VBox([w.HTML("<b>The final scoring needs a few values only you can read "
                             "from the table:</b>"), *rows, save])
        box.add_class("manual-form")
        return writes(box)

