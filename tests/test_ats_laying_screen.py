"""Issue 39, the play screen around the laying panel (no browser): while the stations
are laid from the table, the scoreboard and the objectives panel show no made-up numbers
for a station still to lay (the default 10 credits and 0 VP of a player who has not
laid is not a position), the play timer waits, *Undo last action* comes with the first
lay and takes it back; once every station of a game under way is laid, the seat line
and the scoreboard show the lay entries' credits and VP; the final table's "Every VP with
its source" swipes sideways in its own box on a phone.

Driven in-process as tests/test_lay_page.py does: an App on a store, the laying panel's
widgets, the rendered HTML read back.

The books' sentences relied on:
- B 6: "Each Objective can only be claimed by 1 player" (the most-credits objective
  has one leader once both stations are laid: 5 credits against 4).

Every number is a fixture's ("Fixture: ..." cards defined in the record)."""
from __future__ import annotations

import html
import re

from companion.ats.game import Game
from companion.table.store import Store
from companion.ui.app import App
from recordkit import fixture_objective
from test_lay_page import CARDS, PLAYERS, POST, put
from widgetkit import one, shown

MOST_CREDITS = "Fixture: most credits"
MOST_MILITARY = "Fixture: most military"
OBJECTIVES = [fixture_objective(MOST_CREDITS, vp=5, most={"per": "credit"}),
              fixture_objective(MOST_MILITARY, vp=4,
                                most={"per": "station_location", "types": ["military"]})]


def now_game(store) -> str:
    """A game under way at year 2, turn 3, with a most-credits and a most-military
    objective (B 3: as many objectives as players)."""
    g = Game({"players": PLAYERS, "objectives": [MOST_CREDITS, MOST_MILITARY],
              "options": {"laid": "now", "laid_at": {"year": 2, "turn": 3}}},
             cards=CARDS + OBJECTIVES)
    return store.create(g.to_record(), title="under way")


def lay(app, player: str, credits: int, vp: int) -> None:
    """``player``'s station through the panel: the Main Reactor (2 cubes) and a post."""
    panel = one(app.root, "lay-panel")
    if shown(one(panel, "lay-player")):
        one(panel, "lay-player").value = player
    put(app, (0, 0), "reactor", cubes=2)
    put(app, (0, 1), "card", card=POST)
    one(panel, "lay-credits").value = credits
    one(panel, "lay-vp").value = vp
    one(panel, "lay-station").click()


def row(app, player: str) -> dict[str, str]:
    """The scoreboard's row of ``player``: each cell's text by its class."""
    m = re.search(rf"<tr class='score-row' data-player='{player}'>(.*?)</tr>",
                  app.ats.scoreboard.value, flags=re.S)
    assert m, app.scoreboard.value
    return {c: html.unescape(re.sub(r"<[^>]+>", "", v)).strip()
            for c, v in re.findall(r"<td class='(\w+)'>(.*?)</td>", m.group(1), flags=re.S)}


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def test_a_station_still_to_lay_shows_no_numbers_and_ranks_on_no_objective(store):
    gid = now_game(store)
    app = App(store)
    app.ats.open_game(gid)
    for p in PLAYERS:      # not "0 VP, 10 credits": the default of a player who has not laid
        assert row(app, p) == {"who": f"{p} not laid yet", "vp": "—", "credits": "—",
                               "cubes": "—", "locations": "—"}, row(app, p)
    words = text(app.ats.objectives_panel.value)
    assert MOST_CREDITS in words and "still to lay: Ana, Ben" in words, words
    assert words.count("who leads is known once every station is laid") == 2, words
    assert "leads:" not in words and "tied" not in words and "10" not in words, words
    lay(app, "Ana", credits=5, vp=10)
    assert row(app, "Ana") == {"who": "Ana", "vp": "10", "credits": "5", "cubes": "2",
                               "locations": "1"}, row(app, "Ana")
    assert row(app, "Ben")["who"] == "Ben not laid yet" and row(app, "Ben")["credits"] == "—"
    words = text(app.ats.objectives_panel.value)
    assert "(Ana 5; still to lay: Ben)" in words and "(Ana 1; still to lay: Ben)" in words
    assert "leads:" not in words and "tied" not in words, words
    # the station list says so too: no empty station drawn for Ben
    stations = html.unescape(re.sub(r"<[^>]+>", "", app.ats.stations.value))
    assert "Ben: not laid yet" in stations and "Ana: not laid yet" not in stations
    lay(app, "Ben", credits=4, vp=7)
    assert row(app, "Ben") == {"who": "Ben", "vp": "7", "credits": "4", "cubes": "2",
                               "locations": "1"}, row(app, "Ben")
    words = text(app.ats.objectives_panel.value)
    assert "leads: Ana (Ana 5, Ben 4)" in words and "still to lay" not in words, words
    assert "tied: nobody leads (Ana 1, Ben 1)" in words, words        # a post each
    assert "not laid yet" not in app.ats.scoreboard.value + app.ats.stations.value


def test_timer_waits_and_undo_comes_with_the_first_lay_and_takes_it_back(store):
    gid = now_game(store)
    app = App(store)
    app.ats.open_game(gid)
    # nothing played, nothing recorded: neither a clock nor an undo
    assert not shown(app.ats.timer.button) and not shown(app.ats.undo_btn)
    lay(app, "Ana", credits=5, vp=10)
    assert shown(app.ats.undo_btn) and not shown(app.ats.timer.button)
    app.ats.undo_btn.click()
    question = text(one(app.root, "undo-confirm").children[0].value)
    assert question.startswith("Undo: Ana laid the station from the table"), question
    one(app.root, "undo-yes").click()
    assert store.load(gid)["actions"] == [] and app.ats.game.state.laid == []
    assert "Traceback" not in app.status.value and "went wrong" not in app.status.value
    assert "Undone: Ana laid the station" in text(app.status.value)
    assert not shown(app.ats.undo_btn) and not shown(app.ats.timer.button)
    # laid again, then Ben's: the game goes on, the table may start its clock
    lay(app, "Ana", credits=5, vp=10)
    lay(app, "Ben", credits=4, vp=7)
    assert [a["do"] for a in store.load(gid)["actions"]] == ["lay", "lay"]
    assert shown(app.ats.timer.button) and shown(app.ats.undo_btn)
    assert shown(one(app.root, "turn-entry"))


def test_a_started_timer_stays_on_screen_while_the_stations_are_laid(store):
    """A timer running already (started on another page) can still be paused."""
    gid = now_game(store)
    app = App(store)
    app.ats.open_game(gid)
    app.ats.timer.button.layout.display = ""           # as a page opened before would show it
    app.ats.tap_timer()
    assert "timer" in (store.load(gid).get("meta") or {})
    app.ats.refresh()
    assert shown(app.ats.timer.button)


def test_after_every_lay_the_seat_lines_and_scoreboard_show_the_laid_numbers(store):
    gid = now_game(store)
    host = App(store)
    host.ats.open_game(gid)
    ana = App(Store(store.path))
    ana.apply_query(f"game={gid}&seat=Ana")
    lay(ana, "Ana", credits=5, vp=10)
    # her own line: her laid numbers, while Ben still lays
    line = text(ana.ats.views_part.seat_score.value)
    assert "Ana · 10 VP · 5 credits · 2 cubes · 1 location" in line, line
    lay(host, "Ben", credits=4, vp=7)
    ana.live_tick()                                # the page's live poll
    line = text(ana.ats.views_part.seat_score.value)
    assert "Ana · 10 VP · 5 credits · 2 cubes · 1 location · your turn to act" in line, line
    for page in (host, ana):
        assert row(page, "Ana") == {"who": "Ana", "vp": "10", "credits": "5", "cubes": "2",
                                    "locations": "1"}, row(page, "Ana")
        assert row(page, "Ben") == {"who": "Ben", "vp": "7", "credits": "4", "cubes": "2",
                                    "locations": "1"}, row(page, "Ben")
    assert "Year 2" in text(host.ats.turn_info.value) and "Turn 3" in text(host.ats.turn_info.value)


def test_every_vp_with_its_source_swipes_in_its_own_box(store):
    g = Game({"players": PLAYERS, "options": {"laid": "final"}}, cards=CARDS)
    gid = store.create(g.to_record(), title="laid")
    app = App(store)
    app.ats.open_game(gid)
    lay(app, "Ana", credits=7, vp=20)
    lay(app, "Ben", credits=0, vp=18)
    assert app.ats.game.state.finished
    final = "".join(getattr(k, "value", "") for k in app.ats.final_box.children)
    m = re.search(r"<summary>Every VP with its source</summary><div class='([^']*)'>\s*"
                  r"<table[^>]*final-lines", final)
    assert m, final[:2000]
    assert "final-sources" in m.group(1).split() and "scroll-x" in m.group(1).split()
    # the page's stylesheet gives that box its own sideways scroll
    css = "".join(x.value for x in app.root.children
                  if isinstance(getattr(x, "value", None), str) and "<style>" in x.value)
    rule = re.search(r"\.companion-root \.final-sources \{([^}]*)\}", css)
    assert rule, "no .final-sources rule in the page's stylesheet"
    body = rule.group(1)
    assert "overflow-x: auto" in body and "max-width: 100%" in body, body
    assert "-webkit-overflow-scrolling: touch" in body, body
