"""The Among the Stars final screen: the forms for values the scoring still needs (races,
cards, manual VP), then the final table with its breakdown and the tiebreak chain.  A part of
:class:`companion.ui.ats_screen.AtsScreen`."""
from __future__ import annotations

import base64
from ..table.csvsafe import frame_csv
from ..core.htmlsafe import escape

import ipywidgets as w

from ..core.errors import CompanionError, IllegalAction, UnknownCardValues
from ..ats.catalogue import Catalogue
from ..ats.kind import KIND
from ..ats import decks, scoring
from ..ats.cards import parse_card
from ..ats.needs import missing_parts
from ..ats.scoring import END_ABILITIES, SECRET, secret_objectives
from .cardform_ability import describe_missing
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


def _whose(part: dict) -> str:
    """Whose table a missing part holds up: "Ana's station", "Ana's race" or "every player"."""
    if not part.get("player"):
        return "every player"
    return f"{part['player']}'s {'station' if part.get('at') else 'race or objective'}"


class AtsFinal:
    """The final screen of an :class:`~companion.ui.ats_screen.AtsScreen`."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.guarded = screen.guarded
        self.say = screen.say
        self.error = screen.error
        #: the cards this page was told have a yellow box (asked one by one, not again
        #: in the "which cards" question)
        self.picked: set[str] = set()
        # issue 50: the table's next game, its players in the same seats (the host's)
        self.next_btn = w.Button(description="Next game with the same players",
                                 icon="repeat", layout=w.Layout(width="auto"))
        self.next_btn.add_class("next-game-same")
        self.next_btn.on_click(self.guarded(lambda _: self.next_game()))
        writes(self.next_btn, host_only=True)

    def next_game(self) -> None:
        """The New game form with this game's players in the same seats (the race and
        objective choices as they were; nothing laid): the host presses *Start the game*,
        and every seat's phone and the TV follow the table to it."""
        from ..core.roles import Write
        self.screen.session.require(Write.NEW_GAME)
        players = list(self.screen.game.setup.players)
        part = self.screen.setup_part
        part.show_setup()
        for box, name in zip(part.name_boxes, players + [""] * len(part.name_boxes)):
            box.value = name
        part.laid.value = part.laid_now.value = False
        self.say(f"Next game: {', '.join(players)} in the same seats. Press 'Start the game'; "
                 "every phone and the table view follow it (nothing to scan again).")

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
            # what can be shown is (issue 50): the table with every total that does not
            # wait for a value, the missing parts named, then one form at a time
            partial = self._partial_table(g)
            if self.screen.session.read_only:
                self.screen.final_box.children = [partial, w.HTML(
                    "<div class='final-waiting'><b>Final scoring:</b> waiting for the players "
                    "to type what the scoring needs (card values, VP typed at the table) on "
                    "their own pages.</div>")]
                return
            self.screen.final_box.children = [self.screen.final_msg, partial,
                                              *self._final_forms(needs)]
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
        # issue 21 (layout only): the total right after the name, seen on a phone unswiped;
        # issue 50: the columns in words, an empty cell where a line has none
        t = result.shown_table()
        table_html = t.to_html(index=False, classes="final-table", border=0)
        lines_html = result.shown_lines().to_html(index=False, classes="final-lines", border=0)
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
            self.screen.final_details_box, self.screen.exports.panel, self.next_btn]
        self.screen.fill_final_details()
        self.screen.refresh_exports()

    def _partial_table(self, g):
        """The final table as far as it is known: every total that waits for no value,
        "?" where one is missing, and each missing part named (whose station, which card,
        which value)."""
        parts = missing_parts(g)
        try:
            result = scoring.score(g, partial=True)
        except CompanionError:
            result = None
        items = "".join(
            f"<li>{escape(_whose(p))}: <b>{escape(str(p['card']))}</b>"
            + (f" at {escape(str(p['at']))}" if p.get("at") else "")
            + f" — {escape(describe_missing([p['what']]))}</li>" for p in parts)
        html = ("<div class='final-partial'><b>The final table so far</b> (? waits for a "
                f"value still to type):<ul class='final-missing'>{items}</ul>")
        if result is not None:
            t = result.table.copy()
            t = t.astype({c: object for c in t.columns})
            for p in parts:
                rows = t.index if p.get("player") is None else t.index[t.player == p["player"]]
                for col in (p["column"], "total"):
                    t.loc[rows, col] = "?"
            shown = scoring.shown_table(t.drop(columns=["rank"], errors="ignore"))
            # its own classes: the final table's (.final-table) comes once nothing misses
            html += ("<style>@media (max-width:560px){.final-partial-wide{display:none}}"
                     "</style><div class='scroll-x final-partial-wide'>"
                     + shown.to_html(index=False, classes="final-partial-table", border=0)
                     + "</div>" + stacked_table_html(shown))
        return w.HTML(html + "</div>")

    def _yellow_form(self, names: list[str]):
        """One question for every laid card whose abilities nobody typed (issue 50): which
        of them have a yellow box (an end-of-game ability)?  The others are saved with no
        end-of-game ability (their white box stays unknown: a build asks for it); each one
        picked is asked on its own next."""
        pick = w.SelectMultiple(options=names, value=(), rows=min(10, len(names)),
                                layout=w.Layout(width="100%", max_width="420px"))
        pick.add_class("final-yellow-pick")
        save = w.Button(description="Save", button_style="success", icon="check",
                        layout=w.Layout(width="auto", min_height="44px"))
        save.add_class("final-yellow-save")
        g = self.screen.game

        def do_save(_):
            chosen = set(pick.value)
            self.picked |= chosen           # asked one by one next, on this page
            for name in names:
                card = g.catalogue.get(name)
                if card is None or name in chosen:
                    continue
                d = card.to_dict()
                d.update(abilities=[], end_only=True)
                self.screen.session.save_card(parse_card(d, file="your entry"))
            self.say(f"Saved: {len(names) - len(chosen)} card(s) with no end-of-game ability.")
            self.screen.refresh()
        save.on_click(self.guarded(do_save))
        box = w.VBox([w.HTML(
            "<div class='card-form-intro'><b>Which of these cards have a yellow box</b> (an "
            "ability scored at the end of the game)? Pick them (Ctrl or ⌘ for several on a "
            "laptop); the others score nothing more.</div>"), pick, save])
        box.add_class("card-form")
        box.add_class("final-yellow")
        return writes(box)

    def _final_forms(self, needs: dict) -> list:
        """Every value the final scoring still needs, on one screen: the printed
        values of races, objectives and cards (one form at a time, the rest
        listed), then what only the players can type (manual VP, claims)."""
        kids = [w.HTML("<h3 style='margin:4px 0'>Before the final table</h3>")]
        values = needs["values"]
        yellow = [v["card"] for v in values if v["fields"] == [END_ABILITIES]
                  and getattr(self.screen.game.catalogue.get(v["card"]), "category", "")
                  == "location"]
        yellow = [n for n in yellow if n not in self.picked]
        if len(yellow) > 1:
            kids.append(self._yellow_form(yellow))
            values = []
        if values:
            kids.append(w.HTML(f"<div class='final-values-list'>{len(values)} card(s) or "
                               "tile(s) to type, one at a time: <small>"
                               f"{escape(values[0]['why'])}</small></div>"))
            box = w.VBox()
            box.add_class("final-values")
            writes(box)
            self.screen.form_for = None
            self.screen.entry_part.ask_values(values[0]["card"], values[0]["fields"], box=box)
            kids.append(box)
        if needs["manual"] and len(kids) == 1:      # one form at a time: the values first
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
        """What only the players can type, a few rows at a time (issue 50: one form of 10
        inputs for 4 objectives and a secret one): rows up to MANUAL_INPUTS inputs, the
        rest after this form's Save."""
        g = self.screen.game
        rows, entries = [], []
        shown = _manual_chunk(requests, self.screen.seat)
        later = len(requests) - len(shown)
        for req in shown:
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
        for row in rows:
            row.add_class("manual-row")
        more = (f" <span class='manual-more'>({later} more after "
                f"{'these' if len(shown) > 1 else 'this'})</span>" if later else "")
        box = w.VBox([w.HTML("<b>The final scoring needs a few values only you can read "
                             f"from the table{more}:</b>"), *rows, save])
        box.add_class("manual-form")
        return writes(box)


#: the most inputs one form of the final scoring's typed values shows (issue 50: "<= 4
#: inputs a form"); a request that needs more is shown alone
MANUAL_INPUTS = 4


def _manual_chunk(requests: list[dict], seat: str | None) -> list[dict]:
    """The first requests whose inputs fit one form: a claim asks who and the VP (2), a
    secret objective which card (1; its name typed only for another card), any other
    value its VP (1); another player's secret asks nothing here (a line)."""
    out: list[dict] = []
    n = 0
    for req in requests:
        if req["kind"] == "secret":
            cost = 0 if seat and req["player"] != seat else 1
        else:
            cost = 2 if req["kind"] == "objective" else 1
        if out and n + cost > MANUAL_INPUTS:
            break
        out.append(req)
        n += cost
    return out
