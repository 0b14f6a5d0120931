"""Issue 20, phones that sleep, in-process: the kernel's half of the page watchdog.

The page template's script pings the kernel through the hidden ``.companion-ping`` field;
the page's :class:`companion.ui.live.Heartbeat` answers in ``.companion-beat`` with the
ping's value, the game the page shows and its number of actions (what a page that reloads
itself opens again).  The kernel never beats by itself (a kernel whose page has gone
must still be culled), and "● live" is only marked up, never shown by the kernel alone.
(The browser test is tests/browser/test_sleep.py.)
"""
from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from companion.ats.game import Game
from companion.table.store import Store
from companion.sse import SseGame
from companion.ui.app import App
from companion.ui.live import Heartbeat, show_live


def beat(app: App) -> dict:
    return dict(re.findall(r"data-([a-z]+)='([^']*)'", app.heartbeat.beat.value))


def test_a_ping_is_answered_with_its_value_the_game_and_its_actions(store):
    gid = store.create(Game({"players": ["Ana", "Ben"]}).to_record())
    app = App(Store(store.path))
    app.apply_query(f"seat=Ana&game={gid}")
    assert app.heartbeat.box in app.root.children
    first = beat(app)
    assert first["beat"] == "" and first["ping"] == app.heartbeat.ping.model_id
    app.heartbeat.ping.value = "abc-1"                   # what the page's script does
    assert beat(app) == {"beat": "abc-1", "ping": app.heartbeat.ping.model_id,
                         "game": gid, "actions": "0",
                         "screen": "companion-screen-among-the-stars-1"}
    # a seat page enters for its own player
    app.driver().choose(player="Ana", action="discard", card="Garden")
    app.driver().discard()
    assert len(app.ats.game.actions) == 1
    app.heartbeat.ping.value = "abc-2"
    assert beat(app)["beat"] == "abc-2" and beat(app)["actions"] == "1"
    # the live line says what the page shows, for the script's check after a reconnection
    assert f"data-game='{gid}'" in app.live_state.value
    assert "data-actions='1'" in app.live_state.value and "actions: 1" in app.live_state.value


def test_the_beat_names_the_small_star_empires_game_when_its_tab_is_shown(store):
    store.create(Game({"players": ["Ana", "Ben"]}).to_record())
    sid = store.create(SseGame({"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2}}).to_record())
    app = App(Store(store.path))
    app.apply_query(f"seat=Ann&game={sid}")
    assert app.tabs.selected_index == 1
    app.heartbeat.ping.value = "x-1"
    assert beat(app)["game"] == sid and beat(app)["actions"] == "0"
    assert beat(app)["screen"] == "companion-screen-small-star-empires-1"


def test_the_beat_names_the_screen_the_page_must_show_and_its_widget_carries_it(store):
    """Issue 34: a page whose widgets did not all arrive lacks the screen its kernel
    says it shows (data-screen); the page's watchdog reloads it with ?tab= of it."""
    store.create(Game({"players": ["Ana", "Ben"]}).to_record())
    app = App(Store(store.path))
    app.apply_query("")
    for i, want in enumerate(["small-star-empires-1", "history", "among-the-stars-1"]):
        app.tabs.selected_index = [1, 2, 0][i]
        app.heartbeat.ping.value = f"t-{i}"
        cls = beat(app)["screen"]
        assert cls == "companion-screen-" + want
        box = app.tabs.children[app.tabs.selected_index].children[0]
        assert cls in box._dom_classes                  # the class the page looks for


@pytest.mark.parametrize("tab, index", [("small-star-empires-1", 1), ("history", 2),
                                         ("among-the-stars-1", 0), ("no-such-tab", 0),
                                         ("<script>", 0)])
def test_the_address_opens_its_tab(store, tab, index):
    """?tab= (what a page that reloads itself keeps), with ?game= of another tab's game
    too: the tab named is shown; an unknown or hostile name changes nothing."""
    gid = store.create(Game({"players": ["Ana", "Ben"]}).to_record())
    app = App(Store(store.path))
    app.apply_query(f"game={gid}&tab={quote(tab)}")
    assert app.tabs.selected_index == index
    assert app.main.gid == gid


def test_the_kernel_never_beats_by_itself_and_escapes_what_it_echoes(store):
    store.create(Game({"players": ["Ana", "Ben"]}).to_record())
    app = App(Store(store.path))
    app.apply_query("")
    before = app.heartbeat.beat.value
    for _ in range(3):
        app.live_tick()                                   # the poller's ticks: no beat
    assert app.heartbeat.beat.value == before
    app.heartbeat.ping.value = "<b>'x'</b>" + "y" * 200
    value = app.heartbeat.beat.value
    assert "<b>" not in value and "&lt;b&gt;&#x27;x&#x27;" in value
    assert len(beat(app)["beat"]) < 120                   # cut to the query's maximum


def test_a_failing_question_still_gets_an_answer():
    def broken():
        raise RuntimeError("no game")
    hb = Heartbeat(broken)
    hb.ping.value = "p-1"
    assert "data-beat='p-1'" in hb.beat.value and "data-game" not in hb.beat.value


def test_live_line_marks_live_and_not_connected_for_the_page_script():
    class W:
        value = ""
    w = W()
    show_live(w, 3, "g<1>")
    assert "<span class='live-on'><span class='live-dot'>●</span> live · </span>" in w.value
    assert "<span class='live-off'>○ not connected · </span>" in w.value
    assert "actions: 3" in w.value and "data-game='g&lt;1&gt;'" in w.value
