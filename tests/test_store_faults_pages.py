"""Issue 35 on the pages, without a browser (the screens' Python interface):

- "Read-only stores show everything they hold: History, statistics and exports computed
  in memory when the derived tables cannot be written, with a one-line note."  The
  History tab reads History as the command line does (companion.table.history.current):
  on a read-only SQLite folder and with a SELECT-only PostgreSQL role it lists every game
  and every table, with the note, instead of "Not saved: … could not be written".
- A seat's page of a finished game does not show *Undo last action* (the session
  refuses it anyway: companion/ui/seats.py); the screens ask GameSession.may_undo.
- A refusal shown on a page ("Ben's page cannot undo Ana's action") is taken away when
  another page changes the game (the live poll); the page's own news stays.
"""
from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from companion.ats.game import Game
from companion.sse import SseGame
from companion.table.store import MemoryStore, Store
from companion.table.backends import open_store
from companion.ui.app import App
from test_history import records
from test_seat_rules import discard, host_session, seat_session, sse_move
from as_user import as_user
from test_store_limits import (ROOT, _history_store, _with_user, digest,
                               read_only_history_folder)

PLAYERS = ["Ana", "Ben", "Cleo"]


# ------------------------------------------------------------------ 1. History, read-only
class Shell:
    """The History tab's stand-in shell (as tests/test_history_golden.py's)."""

    def __init__(self, store: Store):
        self.store = store
        self.said: list[str] = []

    def guarded(self, fn: Any, **how: Any) -> Any:
        return fn

    def say(self, text: str, colour: str | None = None) -> None:
        self.said.append(text)


def tab_shows(tab) -> dict:
    """What the History tab shows of History: the note, the games, the tables."""
    from companion.ui.history_tab import PEOPLE_PREFIX
    out = {"note": tab.memory_note.value, "note_shown": tab.memory_note.layout.display != "none",
           "games": [gid for _, gid in tab.list.options],
           "tables": list(tab.stat.options), "win_rate": tab.stat_out.value,
           "charts": tab.charts.value}
    tab.stat.value = PEOPLE_PREFIX + "head-to-head"
    out["people"] = tab.stat_out.value
    tab.make_plays_csv()
    out["plays_csv"] = tab.links.value
    tab.list.value = out["games"][0]
    tab.open_selected()                  # a game's replay and its VP by year
    out["viewer"] = len(tab.viewer.children)
    return out


def check_shown(shown: dict, first: str, second: str) -> None:
    assert shown["note_shown"] and "History, statistics and exports were computed in " \
        "memory" in shown["note"] and "cannot be written, so they were not saved there" \
        in shown["note"], shown["note"]
    assert "\n" not in shown["note"]
    assert sorted(shown["games"]) == sorted([first, second])
    assert "win rate by player" in shown["tables"]
    assert "George" in shown["win_rate"] and "No finished games" not in shown["win_rate"]
    assert "win rate by player" in shown["charts"]
    assert "history-table" in shown["people"] or "No finished games" in shown["people"]
    assert "history-plays-csv" in shown["plays_csv"]
    assert shown["viewer"] >= 4


def check_exports(html: str, *, memory: bool) -> None:
    """The final table's exports of a finished game (ui/play_exports.py): made, with the
    note when History was computed in memory."""
    assert "export-bgstats" in html and "export-bgg" in html, html[:500]
    assert ("computed in memory" in html) is memory
    assert "Not saved" not in html


# run as a user without root's permission override: the tab on a read-only folder
_TAB_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[2])
from companion.table.store import Store
from test_store_faults_pages import Shell, tab_shows
from companion.ui.history_tab import HistoryTab
from companion.ui.play_exports import final_exports
store = Store(sys.argv[1])
tab = HistoryTab(Shell(store))
shown = tab_shows(tab)
shown["final_exports"] = final_exports(store, sys.argv[3])
print(json.dumps(shown))
"""


def test_the_history_tab_of_a_read_only_folder_shows_every_game_with_the_note(tmp_path):
    """The tab failed with "Not saved: … could not be written" on a read-only folder once
    a game had been added after History was last derived; it now shows History computed
    in memory, says so in one line, and writes nothing."""
    with read_only_history_folder("ro-history-tab") as (folder, path, first, second, before):
        env = {"PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
               "COMPANION_HOME": str(folder)}
        r = subprocess.run(as_user([sys.executable, "-c", _TAB_SCRIPT, str(path),
                                     str(Path(__file__).parent), second]),
                           cwd=str(ROOT), env=env, capture_output=True, text=True,
                           timeout=300)
        assert r.returncode == 0, r.stderr[-3000:]
        shown = json.loads(r.stdout.strip().splitlines()[-1])
        check_shown(shown, first, second)
        check_exports(shown["final_exports"], memory=True)
        assert digest(path) == before
        assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite"]


def test_the_history_tab_of_a_writable_store_keeps_history_there_without_a_note(tmp_path):
    from companion.ui.history_tab import HistoryTab
    path = tmp_path / "games.sqlite"
    first, second = _history_store(path)
    s = Store(path)
    tab = HistoryTab(Shell(s))
    assert tab.view is s and tab.memory_note.layout.display == "none"
    assert tab.memory_note.value == ""
    assert sorted(gid for _, gid in tab.list.options) == sorted([first, second])
    assert s.query_one("SELECT COUNT(*) FROM g_results") == (2,)       # saved there
    from companion.ui.play_exports import final_exports
    check_exports(final_exports(s, second), memory=False)
    s.close()


@pytest.mark.postgres
def test_the_history_tab_of_a_select_only_role_shows_every_game_with_the_note(pg_url, pg_admin):
    from companion.ui.history_tab import HistoryTab
    first, second = _history_store(pg_url)
    role = "ro_" + uuid.uuid4().hex[:10]
    pg_admin.execute(f"CREATE ROLE {role} LOGIN")
    try:
        pg_admin.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
        s = open_store(_with_user(pg_url, role))
        before = s.query("SELECT game_id, derived_at FROM g_results ORDER BY game_id")
        tab = HistoryTab(Shell(s))
        assert isinstance(tab.view, MemoryStore)
        check_shown(tab_shows(tab), first, second)
        tab.refresh()                                    # again: a new copy, the same
        assert sorted(gid for _, gid in tab.list.options) == sorted([first, second])
        from companion.ui.play_exports import final_exports
        check_exports(final_exports(s, second), memory=True)
        assert s.query("SELECT game_id, derived_at FROM g_results ORDER BY game_id") == before
        s.close()
    finally:
        pg_admin.execute(f"DROP OWNED BY {role}")
        pg_admin.execute(f"DROP ROLE {role}")


# ------------------------------------------------------ 2. no undo on a finished game
def undo_shown(screen) -> bool:
    screen = screen.ats if isinstance(screen, App) else screen      # either game's screen
    return screen.undo_btn.layout.display != "none"


def test_a_seat_page_of_a_finished_game_shows_no_undo_the_host_page_does(store):
    gid = store.create(records()["G1"], title="G1")         # Ann and Bea, finished
    seat = App(Store(store.path))
    seat.apply_query(f"game={gid}&seat=Bea")
    assert seat.ats.seat == "Bea" and seat.ats.game.state.finished
    assert not undo_shown(seat)
    assert not seat.session.may_undo()
    view = App(Store(store.path))
    view.apply_query(f"game={gid}&seat=Ana")                # no player: a view of it
    assert view.ats.seat is None and not undo_shown(view)
    host = App(Store(store.path))
    host.apply_query(f"game={gid}")
    assert undo_shown(host) and host.session.may_undo()


def test_the_undo_goes_from_a_seat_page_when_the_game_ends_on_another_page(store):
    rec = records()["G1"]
    last = rec["actions"][-1]
    rec["actions"] = rec["actions"][:-1]
    gid = store.create(rec, title="G1 but the last action")
    seat = App(Store(store.path))
    seat.apply_query(f"game={gid}&seat=Ann")
    assert not seat.ats.game.state.finished and undo_shown(seat)
    host_session(store, gid).push(dict(last))               # the end, on the laptop
    seat.live_tick()
    assert seat.ats.game.state.finished and not undo_shown(seat)


def test_a_small_star_empires_seat_page_of_a_finished_game_shows_no_undo(store):
    gid = store.create(records()["S2"], title="S2")         # Ann and Bob, finished
    seat = App(Store(store.path))
    seat.apply_query(f"game={gid}&seat=Ann")
    assert seat.tabs.selected_index == 1 and seat.sse.seat == "Ann"
    assert seat.sse.game.state.finished and not undo_shown(seat.sse)
    host = App(Store(store.path))
    host.apply_query(f"game={gid}")
    assert undo_shown(host.sse)
    live = store.create(SseGame({"players": ["Ann", "Bob"], "map": "basic-2p",
                                 "pieces": {"ships": 2}}).to_record())
    playing = App(Store(store.path))
    playing.apply_query(f"game={live}&seat=Ann")
    assert undo_shown(playing.sse)


# -------------------------------------------------- 3. a stale refusal is taken away
def test_a_refusal_goes_when_another_page_undid_what_it_spoke_of(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    ana = seat_session(store, gid, "Ana")
    ana.push(discard("Ana"))
    ben = App(Store(store.path))
    ben.apply_query(f"game={gid}&seat=Ben")
    ben.driver().ask_undo()                             # *Undo last action*
    refusal = "Ben&#x27;s page cannot undo Ana&#x27;s action"
    assert refusal in ben.status.value and refusal in ben.ats.entry_msg.value
    ben.live_tick()                                          # nothing changed: it stays
    assert refusal in ben.status.value
    ana.undo()                                               # on Ana's page
    ben.live_tick()
    assert len(ben.ats.game.actions) == 0
    assert refusal not in ben.status.value and refusal not in ben.ats.entry_msg.value
    assert "Updated from another page: undone:" in ben.live_note.value


def test_the_pages_own_news_stays_when_another_page_changes_the_game(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    ben = App(Store(store.path))
    ben.apply_query(f"game={gid}&seat=Ben")
    ben.say("Recorded: Ben's own entry.")                    # this page's own news
    seat_session(store, gid, "Ana").push(discard("Ana"))
    ben.live_tick()
    assert "Recorded: Ben" in ben.status.value
    ben.error("Not saved: the disk is full.")               # not a refusal: it stays
    seat_session(store, gid, "Cleo").push(discard("Cleo"))
    ben.live_tick()
    assert "Not saved: the disk is full." in ben.status.value


def test_a_small_star_empires_refusal_goes_when_another_page_undid_it(store):
    gid = store.create(SseGame({"players": ["Ann", "Bob"], "map": "basic-2p",
                                "pieces": {"ships": 2}}).to_record())
    ann = seat_session(store, gid, "Ann")
    ann.push(sse_move(ann.game))
    bob = App(Store(store.path))
    bob.apply_query(f"game={gid}&seat=Bob")
    assert bob.tabs.selected_index == 1
    bob.sse.guarded(bob.sse.ask_undo)()
    refusal = "Bob&#x27;s page cannot undo Ann&#x27;s action"
    assert refusal in bob.status.value and refusal in bob.sse.msg.value
    ann.undo()
    bob.live_tick()
    assert len(bob.sse.game.actions) == 0
    assert refusal not in bob.status.value and refusal not in bob.sse.msg.value
