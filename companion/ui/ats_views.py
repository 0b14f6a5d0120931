"""The Among the Stars screen on many devices (issue 14): the live update, a player's
seat (``?seat=Ana``) and the read-only table view (``?view=table``).  A part of
:class:`companion.ui.ats_screen.AtsScreen`; the polling itself is :mod:`companion.ui.live`
(the page's poller and heartbeat are the shell's: :mod:`companion.ui.shell`)."""
from __future__ import annotations

import ipywidgets as w

from ..ats import render
from ..ats.game import describe_action as describe  # the page's words are the engine's
from ..ats.scoring import objective_claims, secret_holders, secret_objectives
from ..core.errors import CompanionError, IllegalAction, UnknownCardValues
from ..core.htmlsafe import escape
from ..table import playtime
from .ats_secret import AtsSecret
from .common import refresh_undo
from .joinpanel import Reissue, join_panel_html, links_stamp, public_url
from .live import show, show_live, show_note
from .seatswitch import SeatSwitch
from .session import Change
from .tableview import TV_CLASS, ats_display


class AtsViews:
    """The seat, table-view and live parts of an :class:`~companion.ui.ats_screen.AtsScreen`, and its
    boards (turn line, objectives, scoreboard, stations)."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.guarded = screen.guarded
        self.say = screen.say
        self.error = screen.error
        self.seat_score = w.HTML(layout=w.Layout(display="none"))
        self.seat_score.add_class("seat-score")
        self.seat_station = w.HTML()
        self.seat_station.add_class("seat-station")
        self.table_stations = w.HTML()
        self.table_stations.add_class("table-stations")
        # Qualeen's secret objective, asked on its own seat page (issue 36): ats_secret.py
        self.secret = AtsSecret(screen)
        # a seat stays its player (issue 20): "done, waiting for …" and the explicit switch
        self.seat_switch = SeatSwitch(self.act_for, lambda: self.act_for(None),
                                      self.guarded)
        # QR codes: the table view and every seat (play screen: this game; setup screen:
        # the saved game chosen in the list)
        self.join_box = w.HTML()
        self.join_box.add_class("join-box")
        self._join_for: tuple | None = None
        # under --lan, the host's New link for a seat (issue 35)
        self.reissue = Reissue(screen.session, self.guarded, self.say, self._rejoin)
        self.join_panel = w.VBox([self.join_box, self.reissue.box])
        self.setup_join = w.HTML()
        self.setup_join.add_class("setup-join")
        self.setup_join_panel = w.Accordion(children=[self.setup_join], selected_index=None)
        self.setup_join_panel.set_title(0, "Join from other devices (QR codes)")
        self.setup_join_panel.add_class("setup-join-panel")

    def set_view(self, seat: str | None, view: str | None) -> None:
        self.screen.view_of(seat, view)
        self.screen.page.root.remove_class("view-table")
        self.screen.page.root.remove_class("view-seat")
        if self.screen.view:
            self.screen.page.root.add_class("view-table")
        elif self.screen.seat:
            self.screen.page.root.add_class("view-seat")
        # the controls that write are hidden by the role (ui/writes.py); the what-if
        # explorer and the folded panels are for the players' pages
        self.screen.apply_role()
        for wd in (self.screen.explorer.box, self.screen.more):
            wd.layout.display = "none" if self.screen.view == "table" else ""
        self.table_stations.layout.display = "" if self.screen.view == "table" else "none"
        # a seat page's entry is its own player's (or the one chosen with the switch): no
        # Player list to pick from (issue 20)
        self.screen.entry_player.layout.display = "none" if self.screen.seat else ""
        if self.screen.game is not None:
            opts = self.entry_options(self.screen.waiting())
            with self.screen.hush(), self.screen.entry_player.hold_sync():   # this seat's entry first
                self.screen.entry_player.options = opts
                self.screen.entry_player.value = self.default_player(self.screen.waiting())
            self.screen.refresh()

    def join_html(self, gid: str | None) -> str:
        """The QR panel of saved game ``gid`` (its table view and every seat)."""
        players: list[str] = []
        if gid:
            try:
                players = list(self.screen.store.load(gid)["setup"].get("players") or [])
            except CompanionError:
                gid = None
        return join_panel_html(public_url(), token=self.screen.page.token, gid=gid,
                               players=players, role=self.screen.session.role,
                               store=self.screen.store)

    def _refresh_join(self) -> None:
        key = (self.screen.gid, self.screen.page.token, public_url(), self.screen.session.role,
               links_stamp())
        if key != self._join_for:
            self._join_for = key
            self.join_box.value = self.join_html(self.screen.gid)
        g = self.screen.game
        self.reissue.update(self.screen.gid, list(g.setup.players) if g is not None else [])

    def _rejoin(self) -> None:
        """The panel again (a seat's link re-issued)."""
        self._join_for = None
        self._refresh_join()

    def refresh_setup_join(self) -> None:
        self.setup_join.value = self.join_html(self.screen.setup_part.saved.value or None)

    def default_player(self, waiting: list[str]) -> str | None:
        """The entry's player after a change: on a seat page always the seat's (or the
        player the switch names); elsewhere the first still to act."""
        if self.screen.seat:
            return self.screen.session.acting_for or self.screen.seat
        return waiting[0] if waiting else None

    def entry_options(self, waiting: list[str]) -> list:
        """Whom the entry may be for: a seat page, its player only (or the one the switch
        names, for one action); the host page, every player in seat order, those who have
        acted this turn marked.  The list never shrinks during a turn: the browser's
        dropdown answers by position, and a pick made as another page's action removed a
        name ahead of it landed on the next player (issue 50: Ben picked, Cy recorded)."""
        if self.screen.seat:
            return [self.screen.session.acting_for or self.screen.seat]
        return [(p if p in waiting else f"{p} (acted)", p)
                for p in self.screen.game.setup.players]

    def kept_player(self, opts: list, waiting: list[str]) -> str | None:
        """The entry's player through a refresh: the one chosen stays while it can act;
        None: the default (the next to act).  A player who acted on another page takes
        the card typed for them away with them: the entry moves on empty, so that no tap
        records it for the next player (issue 50: nothing aimed at the wrong player)."""
        value = self.screen.entry_player.value
        if value in waiting and value in [o[1] if isinstance(o, tuple) else o for o in opts]:
            return value
        if value is not None and not self.screen.seat and (self.screen.entry_card.value
                                                           or "").strip():
            self.screen.entry_card.value = ""
        return None

    def offered(self) -> list[str]:
        """The players whose action the entry takes now (the dropdown's names not marked
        as having acted)."""
        waiting = set(self.screen.waiting())
        opts = [o[1] if isinstance(o, tuple) else o for o in self.screen.entry_player.options]
        return [p for p in opts if p in waiting or self.screen.seat]

    # -- a seat stays its player (issue 20) ---------------------------------------------
    def act_for(self, player: str | None) -> None:
        """The switch: the next entry is ``player``'s (None: back to the seat's)."""
        self.screen.session.act_for(player)
        self.screen.pending = None
        self.screen.extra.children = []
        with self.screen.hush():
            self.screen.entry_card.value = ""
            self.screen.entry_action.value = "build"
        self.screen.entry_msg.value = self.screen.status.value = ""
        self.screen.refresh()

    def seat_done(self) -> bool:
        """A seat page whose own player has acted this turn (and no switch is on)."""
        st = self.screen.game.state
        return bool(self.screen.seat and self.screen.session.acting_for is None and not st.finished
                    and self.screen.seat not in st.waiting)

    def done_words(self) -> str:
        waiting = self.screen.waiting()
        return (f"{self.screen.seat}: done, waiting for {', '.join(waiting)}" if waiting
                else f"{self.screen.seat}: done")

    def check_acting_for(self) -> None:
        """Before a refresh: another game opened on this page has the session's seat (the
        player of the seat's name there, or none: the page is a view of it, issue 35); the
        player the switch names has acted meanwhile (on another page): the page is its
        seat's again."""
        s = self.screen
        if s.view is None and s.seat != s.session.seat:
            s.seat = s.session.seat
            s.entry_player.layout.display = "none" if s.seat else ""
        who = self.screen.session.acting_for
        if who is not None and (self.screen.game.state.finished or who not in self.screen.game.state.waiting):
            self.screen.session.act_for(None)

    def _refresh_seat_bar(self) -> None:
        g = self.screen.game
        if not self.screen.seat or g.state.finished:
            self.seat_switch.show(None, None, [])
            return
        waiting = self.screen.waiting()
        others = [p for p in waiting if p != self.screen.seat]
        note = ""
        if self.seat_done():
            note = (f"<div class='seat-done' style='font-size:1.15em;padding:4px 0'>"
                    f"<b>{escape(self.screen.seat)}</b>: done, waiting for "
                    f"<b>{escape(', '.join(waiting)) or 'nobody'}</b></div>")
        self.seat_switch.show(self.screen.seat, self.screen.session.acting_for, others, note)

    def live_changed(self, change: Change) -> None:
        """Another page changed the game: show it, keep what is being typed, check it."""
        note = f"Updated from another page: {change.words(self.screen.session.describe)}."
        if self.screen.pending is not None:
            # checked as the build being confirmed stands: without the answers still
            # being typed (a manual VP, the energy's reactors), which the engine asks for
            # and does not count against it (issue 50: a VP being typed was lost to
            # another phone's build "[rule: manual-vp]")
            why = None
            try:
                self.screen.game.needs(self.screen.pending)
            except IllegalAction as e:
                why = str(e)
            if why:
                self.screen.pending = None
                self.screen.extra.children = []
                note += f" The build you were confirming is no longer legal: {why}"
        self.screen.timer.bind(self.screen.gid, self.screen.session.meta)
        self.screen.refresh()
        if change.added or change.undone:
            # a refusal shown here spoke of the game as it was (issue 35)
            self.screen.page.forget_refusal(self.screen)
            show_note(self.screen.live_note, note)

    def refresh_views(self) -> None:
        """The parts of the screen that depend on the seat or the table view."""
        g = self.screen.game
        show_live(self.screen.live_state, len(g.actions), self.screen.gid,
                  self.screen.live.session.trouble)
        st = g.state
        self._refresh_join()
        if self.screen.view == "table":             # the play timer is a control: not shown here
            self.screen.timer.button.layout.display = "none"
        self._refresh_seat_bar()
        self._place_secret()
        self.secret.refresh()
        if self.screen.seat:
            ps = st.players[self.screen.seat]
            to_act = (" · your turn to act" if self.screen.seat in st.waiting else
                      " · done" if not st.finished else "")
            n, cubes, where = ps.credits, ps.station.cubes(), len(
                ps.station.locations(reactors=False))
            unlaid = bool(g.setup.options.get("laid")) and self.screen.seat not in st.laid
            # issue 39: nothing of a station still to lay is known: its numbers wait
            show(self.seat_score,
                f"<div class='seat-line'><b>{escape(self.screen.seat)}</b> · lay your "
                "station below</div>" if unlaid else
                f"<div class='seat-line'><b>{escape(self.screen.seat)}</b> · {ps.vp} VP · "
                f"{n} credit{'' if n == 1 else 's'} · {cubes} cube{'' if cubes == 1 else 's'}"
                f" · {where} location{'' if where == 1 else 's'}{to_act}</div>")
            show(self.seat_station, "" if unlaid else
                "<div class='seat-station-svg' style='max-width:100%;overflow-x:auto'>"
                + render.station_svg(ps.station, title=self.screen.seat, cell_size=64) + "</div>")
        else:
            show(self.seat_score, "")
            show(self.seat_station, "")
        # the table view is a display (issue 37): companion/ui/tableview.py
        tv = self.screen.view == "table"
        (self.screen.play_screen.add_class if tv else self.screen.play_screen.remove_class)(TV_CLASS)
        show(self.table_stations, ats_display(g, self.screen.waiting(),
                                              self.screen.objectives_panel.value) if tv else "")

    def _place_secret(self) -> None:
        """The secret objective's panel goes under the seat's score line, once (the play
        screen is the screen's; this part adds its own panel to it)."""
        box = getattr(self.screen, "play_screen", None)
        if box is None or self.secret.box in box.children:
            return
        kids = list(box.children)
        at = kids.index(self.seat_score) + 1 if self.seat_score in kids else 0
        box.children = kids[:at] + [self.secret.box] + kids[at:]

    def still_to_lay(self) -> list[str]:
        """The players whose station is still to be laid (issue 39; [] otherwise)."""
        return self.screen.game.still_to_lay()

    def refresh_timer(self) -> None:
        """The play timer as of now; hidden while the stations are laid, until started
        (nothing is played yet: the table starts it when the game goes on)."""
        timer = self.screen.timer
        timer.over = self.screen.game.state.finished
        timer.show()               # the clock as of now (the heartbeat ticks it: tick())
        if self.still_to_lay() and playtime.state(timer.meta) == "not started":
            timer.button.layout.display = "none"

    def refresh_undo(self) -> None:
        """*Undo last action* where the session allows it (common.refresh_undo); while
        the stations are laid, only once a lay is recorded (nothing to undo before)."""
        refresh_undo(self.screen)
        if self.still_to_lay() and not self.screen.game.actions:
            self.screen.undo_btn.layout.display = "none"
            self.screen.undo_box.children = []

    def undo_question(self, last: dict) -> str:
        """The "Undo …?" question for the game's last entry (a lay names no turn)."""
        when = (f" year {last['year']}, turn {last['turn']}" if "year" in last
                and "turn" in last else "")
        return f"Undo{when}: {describe(last)}?"

    def refresh_info(self):
        st = self.screen.game.state
        if st.finished:
            self.screen.turn_info.value = "<h3 style='margin:4px 0'>The game is over: final scoring</h3>"
            return
        g = self.screen.game
        todo = self.still_to_lay()
        if todo:            # issue 39: no turn is played while the stations are laid
            at = (f" (the game goes on from year {st.year}, turn {st.turn})"
                  if g.setup.options.get("laid") == "now" else "")
            self.screen.turn_info.value = (
                f"<div style='font-size:1.1em'><b>Laying the table</b> · still to lay: "
                f"<b>{escape(', '.join(todo))}</b></div><div style='font-size:0.9em;"
                f"color:#444'>Each station as it lies{escape(at)}; the scores below are the "
                "laid stations' only.</div>")
            return
        arrow = "↻" if st.passing == "clockwise" else "↺"
        n = st.setup.turns_in_year(st.year)
        waiting = ", ".join(escape(p) for p in self.screen.waiting())
        if g.setup.options.get("timing_rules"):
            waiting += f" <small>(order this turn: {escape(', '.join(g.turn_order()))})</small>"
        active = g.setup.active_player(st.year)
        if active:
            waiting += f" <small>(active player this year: {escape(active)})</small>"
        if g.setup.consecutive:
            # Revival 2-player rules: no hands pass (R 2.2: "places them face-up between the
            # 2 players" ... "the active player draws the first 2 cards from the face-down
            # pile next to them and adds them face-up to the rest")
            cards = ("cards face up between the players; after each turn the active player "
                     "adds 2 from the face-down pile")
        else:
            cards = f"cards pass {st.passing} {arrow}"
        # one line: where we are and whose entry; the rest small underneath
        self.screen.turn_info.value = (
            f"<div style='font-size:1.1em'><b>Year {st.year}</b> · <b>Turn {st.turn}</b> of {n}"
            f" · Waiting for: <b>{waiting}</b></div>"
            f"<div style='font-size:0.9em;color:#444'><span class='cards-flow'>{cards}</span>"
            f" · reactors left in supply: {st.reactor_supply}</div>")

    def refresh_objectives(self):
        """The objectives in play, each with who leads it now (a query of the engine)."""
        g = self.screen.game
        setup = g.setup
        holders = secret_holders(g, g.state)     # never the name: revealed at the end
        if not setup.objectives and not holders:
            self.screen.objectives_panel.value = ""
            return
        parts = []
        try:
            claims = objective_claims(g)
        except UnknownCardValues as e:
            claims = None
            note = f" <small>(leaders not known: {escape(e.detail)})</small>"
        else:
            note = ""
        # issue 39: a station still to lay is not an empty one: nobody is ranked yet
        todo = self.still_to_lay()
        for name in setup.objectives:
            lead = ""
            if claims is not None:
                row = claims[claims.objective == g.catalogue.get(name).name]
                if len(row):
                    r = row.iloc[0]
                    if r.claimant == "(typed at the end)":
                        lead = "players say who claims it at the end"
                    else:
                        measures = ", ".join(f"{escape(p)} {int(r[p])}" for p in setup.players
                                             if p in r and r[p] == r[p] and p not in todo)
                        if todo:
                            lead = "who leads is known once every station is laid"
                            measures += ("; " if measures else "") + (
                                f"still to lay: {escape(', '.join(todo))}")
                        else:
                            lead = (f"leads: <b>{escape(str(r.claimant))}</b>" if
                                    r.claimant != "nobody (tie)" else "tied: nobody leads")
                        lead += f" <small>({measures})</small>"
            parts.append(f"<li><b>{escape(name)}</b> — {lead}</li>")
        # issue 50: revealed on every page once the game is over (B FAQ, Qualeen: "do I
        # still reveal it at the end of the game?"); never named before
        known = secret_objectives(g) if g.state.finished else {}
        for p in holders:
            if p not in known:
                when = ("not said yet: " + escape(p) + "'s page asks"
                        if g.state.finished else "revealed at the end")
                parts.append(f"<li>{escape(p)} holds a secret objective ({when})</li>")
            elif known[p]:
                parts.append(f"<li class='secret-revealed'><b>{escape(known[p])}</b> — "
                             f"{escape(p)}'s secret objective, revealed</li>")
            else:
                parts.append(f"<li class='secret-revealed'>{escape(p)} had no secret "
                             "objective card (none was left)</li>")
        self.screen.objectives_panel.value = (f"<div><b>Objectives in play</b>{note}<ul style='margin:2px "
                                       f"0 2px 18px;padding:0'>{''.join(parts)}</ul></div>")

    def refresh_scoreboard(self):
        st = self.screen.game.state
        todo = self.still_to_lay()
        rows, details = [], []
        for p in st.setup.players:
            ps = st.players[p]
            last = ps.last
            if last:
                what = f"Y{last['year']}T{last['turn']}: {describe(last)[len(p) + 1:]}"
            else:
                what = "—"
            acted = " ✓" if p in st.acted else ""
            race = st.setup.races.get(p, "")
            # issue 39: a station still to lay has no numbers yet (not the starting VP and credits)
            nums = (("—",) * 4 if p in todo else (ps.vp, ps.credits, ps.station.cubes(),
                                                  len(ps.station.locations(reactors=False))))
            if p in todo:
                acted = " <small class='not-laid'>not laid yet</small>"
            rows.append(
                f"<tr class='score-row' data-player='{escape(p)}'><td class='who'><b>{escape(p)}"
                f"</b>{acted}</td>" + "".join(f"<td class='{c}'>{v}</td>" for c, v in zip(
                    ("vp", "credits", "cubes", "locations"), nums)) + "</tr>")
            details.append(f"<tr><td><b>{escape(p)}</b></td><td>{escape(race) or '—'}</td>"
                           f"<td>{escape(what)}</td></tr>")
        self.screen.scoreboard.value = (
            "<table class='score-table' style='border-collapse:collapse'>"
            "<tr style='text-align:left;border-bottom:1px solid #999'><th>Player</th><th>VP</th>"
            "<th>Credits</th><th>Cubes</th><th>Locations</th></tr>" + "".join(rows) + "</table>")
        self.screen.score_details.value = (
            "<div class='scroll-x'><table class='score-table'><tr style='text-align:left'>"
            "<th>Player</th><th>Race</th><th>Last action</th></tr>" + "".join(details)
            + "</table></div>")

    def refresh_stations(self):
        st = self.screen.game.state
        parts, todo = [], self.still_to_lay()
        for p in st.setup.players:
            svg = (f"<div class='not-laid'><b>{escape(p)}</b>: not laid yet</div>" if p in todo
                   else render.station_svg(st.players[p].station, title=p, cell_size=56))
            parts.append(f"<div class='station' style='display:inline-block;vertical-align:top;"
                         f"margin:6px 14px 6px 0;max-width:100%'>{svg}</div>")
        self.screen.stations.value = render.legend_html() + "".join(parts)

    def resume_latest(self) -> None:
        """Show what a page built now would: the most recent game, or the setup screen
        with the saved games as they are now.  A preheated kernel built its page when the
        server started, before the games the table has played since."""
        games = self.screen.store.games(table=self.screen.store.table)
        if (games[0]["id"] if games else None) != self.screen.gid:
            self.screen.open_latest()

