"""The page around the game screens: the tabs (one per game screen, then History), the
status line (:meth:`Shell.say`, :meth:`Shell.error`), :meth:`Shell.guarded` (a rule
message goes to the status line, never a traceback), the page's role, its address
(``?seat=``, ``?view=table``, ``?game=``) and the live poll and heartbeat of the game
tabs.  The tabs are the registry's games that have a screen (:mod:`companion.ui.screens`),
then History; the first game's screen (the default game's) is built with the page, the
others and History when first opened."""
from __future__ import annotations

import logging
import traceback
from typing import Any

import ipywidgets as w

from ..core.errors import CompanionError, IllegalAction, RoleRefused
from ..core.htmlsafe import escape
from ..core.roles import Role, role_of_page
from ..table import club
from ..table.store import StaleGame, Store
from ..table.backends import open_store
from . import follow, screens
from .common import ERR, OK, log, log_path
from .live import (SCREEN_CLASS, Heartbeat, Poller, capabilities_in_force, live_widgets,
                   page_token, parse_query, query_string, show, tab_slug)
from .playdetails import CSS as DETAILS_CSS
from .session import GameSession
from .style import CSS
from .writes import CSS as ROLE_CSS
from .writes import apply_role, role_note

STYLE = """<style>
.companion-root .grid-cell { white-space: normal !important; line-height: 1.05;
  font-size: 10px; padding: 1px !important; overflow: hidden; }
.companion-root .grid-cell.legal { font-size: 20px; font-weight: bold; }
.companion-root a.export-link { display: inline-block; padding: 8px 14px; margin: 4px 6px 4px 0;
  background: #2f6fd6; color: white !important; border-radius: 4px; text-decoration: none;
  font-weight: 600; min-height: 20px; }
.companion-root a.export-link:hover { background: #1f55ad; }
.companion-root .entry-message:empty { display: none; }
.companion-root .objectives-panel { margin: 4px 0; }
.companion-root .score-table td, .companion-root .score-table th { padding: 2px 10px; }
.companion-root .final-table td, .companion-root .final-table th,
.companion-root .wi-rank-table td, .companion-root .wi-rank-table th,
.companion-root .wi-now-table td, .companion-root .wi-now-table th { padding: 2px 8px; text-align: left; }
</style>"""


class Shell:
    """The page: tabs, status line, ``guarded``, role, address, live poll."""

    def __init__(self, store: Store | None = None, *, role: Role | str = Role.HOST):
        """``role``: the page's until its address is read (:meth:`apply_query` sets the
        address's); :func:`companion.ui.app.dashboard` builds every page as the table
        view, so that a page writes nothing before it knows what it is."""
        logging.basicConfig(filename=str(log_path()), level=logging.INFO)
        self.session = GameSession(store or open_store())
        if store is None:
            # the club's catalogues when the store is its database (issue 26)
            club.serve(self.session.store)
        self.session.set_role(role)
        self.query: dict[str, str] = {}
        self.token: str | None = None
        #: a seat's page and the table view follow the table's next game (issue 50:
        #: follow.TableFollower, made when the page's address is read)
        self.follower: Any = None
        # the tabs: one per registered game with a screen (companion.ui.screens), History
        tabs = screens.tabs()
        self.formats: list[str] = [fmt for fmt, _ in tabs]
        self.titles: list[str] = [title for _, title in tabs] + ["History"]
        self.title = w.HTML(f"<h2 style='margin:4px 0'>{self.titles[0]} — table companion</h2>")
        self.title.add_class("companion-title")
        self.status = w.HTML()
        self.status.add_class("companion-status")
        self.live_state, self.live_note = live_widgets()
        # {format: its screen}, each built when its tab is first opened (the first now)
        self.screens: dict[str, Any] = {}
        self.boxes: dict[str, w.VBox] = {fmt: w.VBox() for fmt in self.formats}
        self.history: Any = None         # companion.ui.history_tab.HistoryTab
        self.history_box = w.VBox()
        self.tabs = w.Tab()
        self.tabs.add_class("game-tabs")
        # the first game's screen (building it says nothing on the status line yet)
        self.main: Any = screens.SCREENS[self.formats[0]].build(self)
        self.screens[self.formats[0]] = self.main
        self.boxes[self.formats[0]].children = [self.main.box]
        self.main.box.add_class(SCREEN_CLASS + tab_slug(self.formats[0]))
        self.poller = Poller(self.live_tick)
        # the page's heartbeat (issue 20): answers the page watchdog's pings
        self.heartbeat = Heartbeat(self.shown_game, on_beat=self._tick_clocks,
                                   screen=self._shown_screen_class)
        self.root = w.VBox([w.HTML(STYLE + CSS + DETAILS_CSS + ROLE_CSS), self.title, self.status,
                            self.tabs, self.heartbeat.box])
        self.root.add_class("companion-root")
        # one tab per game screen, then History; the other tabs are built when first opened
        self.tabs.children = [*self.boxes.values(), self.history_box]
        self.tabs.titles = list(self.titles)
        self.tabs.observe(self.guarded(lambda _: self._tab_opened()), "selected_index")
        self.main.start()
        self.apply_role()

    @property
    def store(self) -> Store:
        return self.session.store

    # -- status -----------------------------------------------------------------------
    def say(self, text: str, colour: str = OK):
        show(self.live_note, "")        # this page's own news replaces another page's
        html = f"<div style='color:{colour};font-weight:600;padding:4px 0'>{escape(text)}</div>"
        self.status.value = html
        self._local(html)
        self._refusal = None

    def error(self, text: str, *, refusal: bool = False):
        """A message in red.  ``refusal``: a tap refused by a rule or by the page's role
        (``guarded``: RoleRefused, IllegalAction), which speaks of the game as it was:
        once another page changes that game it is taken away (:meth:`forget_refusal`)."""
        html = (f"<div class='status-error' style='color:{ERR};font-weight:600;"
                f"padding:4px 0'>⚠ {escape(text)}</div>")
        self.status.value = html
        self._local(html)
        self._refusal = (html, self._message_screen()) if refusal else None

    #: the refusal shown now, and the screen it was shown for (error(refusal=True))
    _refusal: tuple[str, Any] | None = None

    def forget_refusal(self, screen: Any) -> None:
        """Another page changed ``screen``'s game (the live poll): a refusal shown for that
        screen ("Ben's page cannot undo Ana's action", "not your turn") spoke of the game
        as it was and no longer applies, so it is taken away from the status line and the
        boxes beside the entry (issue 35).  This page's own news stays: what it recorded,
        "Not recorded: …" (its entry refused because another page wrote first), "Not
        saved: …", and any message shown after the refusal."""
        if self._refusal is None or self._refusal[1] is not screen:
            return
        html = self._refusal[0]
        self._refusal = None
        if self.status.value == html:
            self.status.value = ""
        for box in getattr(screen, "local_boxes", ()):
            if box.value == html:
                box.value = ""

    def _message_screen(self) -> Any:
        """The screen a message is shown for: the tab shown (None: History)."""
        i = self.tabs.selected_index
        return self.main if i is None else self.shown_screen()

    def _local(self, html: str):
        """The same message next to where the person acts (turn entry, final screen), when
        it comes from a screen that has such boxes (``local_boxes``: the first game's; the
        other tabs use the status line only)."""
        for box in getattr(self._message_screen(), "local_boxes", ()):
            box.value = html

    def guarded(self, fn, *, nothing_done: str | None = None):
        """Wrap a callback: a rule message goes to the status area, never a traceback.

        ``nothing_done``: for a callback whose failure leaves everything as it was (an
        import: the table layer stores all or nothing), the words every failure begins
        with ("Nothing was imported"), then the table layer's own line (a refused
        file's ``fault``: the file and what is wrong in it); an unexpected fault says
        the same, not the entry screen's words about the board."""
        def run(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except StaleGame as e:
                try:
                    self.main.reload(stale=str(e))
                except CompanionError:
                    self.main.game_gone()
            except CompanionError as e:
                if nothing_done:
                    self.error(f"{nothing_done}: {getattr(e, 'fault', None) or e}")
                else:
                    # a rule's or the role's refusal speaks of the game as it is now
                    self.error(str(e), refusal=isinstance(e, (RoleRefused, IllegalAction)))
            except Exception as e:   # a bug: log it, say plainly what may not be saved
                log.error("callback failed:\n%s", traceback.format_exc())
                if nothing_done:
                    self.error(f"{nothing_done}: a fault in the companion ({type(e).__name__}: "
                               f"{e}). The details are in {log_path()}.")
                    return
                self.error(f"Something went wrong ({type(e).__name__}: {e}). The actions "
                           "shown on the board are saved; check the board to see whether this "
                           f"entry was recorded. The details are in {log_path()}.")
        return run

    def apply_role(self) -> None:
        """Hide, in every tab, the controls this page's role may not use (ui/writes.py;
        the session and the store refuse those writes anyway)."""
        apply_role(self.root, self.session.role)
        # a setup screen not built yet gets its note when it is built (_fill_role_note)
        for box in [s.setup_role_note for s in self.screens.values()
                    if getattr(s, "setup_built", True)]:
            self.fill_role_note(box)

    def fill_role_note(self, box: Any) -> None:
        """What a setup screen says on this page's role (ui/writes.py: role_note)."""
        note = role_note(self.session.role)
        box.value = f"<div class='role-note'><i>{escape(note)}</i></div>" if note else ""
        box.layout.display = "" if note else "none"

    def shown_screen(self) -> Any:
        """The game screen of the tab shown (None: History, or a screen not built)."""
        i = self.tabs.selected_index
        if i is None or not 0 <= i < len(self.formats):
            return None
        return self.screens.get(self.formats[i])

    def driver(self, fmt: str | None = None) -> Any:
        """The driver of a game's screen (:mod:`companion.ui.drivers`): the first game's,
        or format ``fmt``'s (or its initials: ``"sse"``), its tab opened if it was not yet."""
        fmt = next((f for f in self.formats if fmt in (f, f.split("/")[0], "".join(
            w[0] for w in f.split("/")[0].split("-")))), None) if fmt else self.formats[0]
        if fmt is None:
            raise KeyError("no game screen of that format")
        if fmt not in self.screens:
            self.tabs.selected_index = self.formats.index(fmt)
        return self.screens[fmt].driver()

    def _tab_opened(self):
        i = self.tabs.selected_index
        if i is not None and 0 <= i < len(self.titles):
            # the title names the tab shown; a message about another tab is cleared
            self.title.value = (f"<h2 style='margin:4px 0'>{self.titles[i]} — table companion"
                                "</h2>")
            self.status.value = ""
        if i == len(self.formats):                  # History
            if self.history is None:
                from .history_tab import HistoryTab
                # shown first, then filled: the first sync after an upgrade shows its
                # progress bar with counts
                self.history = HistoryTab(self, load=False)
                self.history.box.add_class(SCREEN_CLASS + "history")
                self.history_box.children = [self.history.box]
                self.apply_role()
            self.history.refresh()
            return
        if i is not None and 0 <= i < len(self.formats) and self.formats[i] not in self.screens:
            self._build_screen(self.formats[i])

    def _build_screen(self, fmt: str) -> Any:
        """Build the screen of a game's tab (when first opened)."""
        try:
            screen = screens.SCREENS[fmt].build(self)
        except ImportError:
            self.boxes[fmt].children = [w.HTML("<i>This game is coming soon.</i>")]
            return None
        self.screens[fmt] = screen
        screen.box.add_class(SCREEN_CLASS + tab_slug(fmt))
        self.boxes[fmt].children = [screen.box]
        # the screen has the page's role and view (its __init__); the address's seat is
        # this tab's too when it names one of its game's players
        seat = (self.query.get("seat") or "").strip().lower()
        if seat and screen.game is not None and seat in [
                p.lower() for p in screen.game.setup.players]:
            screen.set_view(self.query.get("seat"), self.query.get("view"))
        self.apply_role()
        return screen

    # -- the page address -------------------------------------------------------------
    def apply_query(self, qs: str | None = None) -> None:
        """Open what the page address asks for (``seat``, ``view``, ``game``); ``qs``
        defaults to the page's own query (a preheated kernel waits for it here)."""
        raw = query_string() if qs is None else qs
        lost = raw is None
        if lost:            # the address never reached this kernel: the table view's role
            raw = "view=table"
        q = parse_query(raw)
        self.query = q
        # the page's role first (companion.core.roles): nothing below may write what the
        # address does not allow, not even a resume of a finished game
        self.session.set_role(role_of_page(q.get("seat"), q.get("view")))
        # under --lan the server wrote this query from the page's credential (issue 35,
        # notebooks/config/voila.py: the role is the capability's, never the address's):
        # a seat's capability binds the page's seat to its one game
        capid = q.get("capid") if capabilities_in_force() else None
        seat_cap = bool(capid and q.get("seat") and q.get("view") != "table")
        if seat_cap:        # issue 50: the seat's game now, where its link followed the table
            q["game"] = follow.cap_game(self.store, capid, q.get("game")) or q.get("game", "")
        elif q.get("view") == "table" and not q.get("game"):
            q.update(follow.newest(self.store))       # the table's latest game, either game
        self.session.bind_capability(capid, (q.get("game") or "(no game)") if seat_cap else None)
        self.follower = follow.TableFollower(self, capid if seat_cap else None)
        # ... and its seat's name, for every tab's game (issue 35: a seat writes only to
        # a game whose player it is)
        self.session.set_seat(q.get("seat") if q.get("view") != "table" else None)
        main = self.main
        main.view = "table" if q.get("view") == "table" else None
        # the table view's page is its display alone (issue 50: no tabs, no banners)
        (self.root.add_class if main.view == "table" else self.root.remove_class)("tv-page")
        self.token = page_token(raw)
        gid = q.get("game")
        info: dict | None = None
        if gid and gid != main.gid:
            info = next((g for g in self.store.games(format=None) if g["id"] == gid), None)
        if gid and info is None and gid != main.gid:
            main.resume_latest()
            self.error("The game in this page's address is not in the saved-games file; "
                       "showing the most recent game instead.")
        elif not gid:
            main.resume_latest()
        if info is not None:
            # the record's format (through the registry) chooses the screen
            fmt = screens.format_of_record(info.get("format"))
            if fmt != self.formats[0] and fmt in self.formats:
                self.tabs.selected_index = self.formats.index(fmt)     # builds the tab
                screen = self.screens.get(fmt) or self._build_screen(fmt)
                if screen is not None:
                    screen.open_game(q["game"])
                    screen.set_view(q.get("seat"), q.get("view"))
                if main.view == "table":     # the first game's tab: its latest, as a view
                    if main.game is None:
                        main.resume_latest()
                    main.set_view(None, "table")
                self._open_tab(q.get("tab"))
                return
            main.open_game(info["id"])
        main.set_view(q.get("seat"), q.get("view"))
        self._open_tab(q.get("tab"))
        self.live_tick()                 # a preheated page is never stale
        # ... and what the store did before this page was opened is no news to its
        # person: a fresh page says nothing of it either (issue 34)
        for note in {self.live_note, *(s.live_note for s in self.screens.values())}:
            show(note, "")
        if lost:
            self.error("This page did not receive its address (seat, table view, game) from "
                       "the server, so it shows the table view and records nothing: "
                       "reload the page.")

    def _open_tab(self, tab: str | None) -> None:
        """Show the tab the address names (``?tab=``: :func:`companion.ui.live.tab_slug`);
        an unknown name changes nothing."""
        if not tab:
            return
        slugs = [tab_slug(fmt) for fmt in self.formats] + ["history"]
        if tab in slugs:
            self.tabs.selected_index = slugs.index(tab)

    def _shown_screen_class(self) -> str | None:
        """The class of the shown tab's screen (None: not built): the page's watchdog
        reloads a page that lacks it (widgets that never arrived, issue 34)."""
        i = self.tabs.selected_index
        if i is None:
            return None
        if i == len(self.formats):
            return SCREEN_CLASS + "history" if self.history is not None else None
        if 0 <= i < len(self.formats) and self.formats[i] in self.screens:
            return SCREEN_CLASS + tab_slug(self.formats[i])
        return None

    # -- live ---------------------------------------------------------------------------
    def shown_game(self) -> tuple[str | None, int | None]:
        """The game this page shows (the game tab selected) and its number of actions:
        what a page that reloads itself opens again (``?game=``)."""
        shown = self.shown_screen()
        if shown is not None and shown is not self.main and shown.game is not None:
            return shown.gid, len(shown.game.actions)
        if self.main.game is not None:
            return self.main.gid, len(self.main.game.actions)
        return None, None

    def _tick_clocks(self) -> None:
        """The play timers' clocks advance on screen (issue 21) with each heartbeat of
        the page: only the words change, nothing is written to the store."""
        for screen in list(self.screens.values()):
            if screen.game is not None:
                screen.timer.tick()

    def start_live(self) -> bool:
        return self.poller.start()

    def live_tick(self) -> None:
        """One poll of the store (every game tab built); a seat's page and the table view
        follow the table to its next game (companion/ui/follow.py)."""
        for screen in list(self.screens.values()):
            screen.live_tick()
        if self.follower is not None:
            self.follower.tick()

    def show_game(self, gid: str, fmt: str | None) -> Any:
        """Open saved game ``gid`` (record format ``fmt``) on its tab, as the address's
        ``?game=`` does, with the page's seat and view; its screen."""
        fmt = screens.format_of_record(fmt)
        if fmt not in self.formats:
            return None
        i = self.formats.index(fmt)
        if self.tabs.selected_index != i:
            self.tabs.selected_index = i                     # builds the tab
        screen = self.screens.get(fmt) or self._build_screen(fmt)
        if screen is not None:
            screen.open_game(gid)
            screen.set_view(self.query.get("seat"), self.query.get("view"))
        return screen
