"""Issue 37, "The table view is not a table display", in-process: the table view's page
(``?view=table``) of each game is a display (companion/ui/tableview.py): every station
(or the map) and a band with the turn, who is still to act and the scoreboard; the
player's names are text; the host's and a seat's pages keep their layout; the display
follows an action written elsewhere on the page's next poll.  The browser test (sizes,
fonts, screenshots) is tests/browser/test_table_view_display_browser.py."""
from __future__ import annotations

from companion.ats.game import Game
from companion.sse import SseGame
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.tableview import TV_CLASS, ats_display, sse_display

PLAYERS = ["Ana", "<b>Cy</b>", "Ben", "Dov"]
SSE_PLAYERS = ["Ann", "<i>Bo</i>"]


def env(tmp_path):
    path = tmp_path / "games.sqlite"
    s = Store(path)
    g = Game({"players": PLAYERS})
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    gid = s.create(g.to_record(), title="AtS")
    sid = s.create(SseGame({"players": SSE_PLAYERS, "map": "basic-2p",
                            "pieces": {"ships": 2}}).to_record(), title="SSE")
    s.close()
    return path, gid, sid


def page(path, query: str) -> App:
    app = App(Store(path))
    app.apply_query(query)
    return app


def test_the_among_the_stars_table_view_is_a_display(tmp_path):
    path, gid, _ = env(tmp_path)
    table = page(path, f"view=table&game={gid}")
    html = table.ats.views_part.table_stations.value
    assert TV_CLASS in table.ats.play_screen._dom_classes
    for cls in ("tv tv-ats", "tv-stations", "tv-band", "tv-where", "tv-score", "tv-waiting"):
        assert cls in html, cls
    # one station a player, each once (the page's tests count the SVGs)
    assert html.count("<svg") == len(PLAYERS) and html.count("class='tv-station'") == 4
    assert "Year 1 · Turn 1" in html
    # Ana discarded: the others are still to act, in the rules' order
    assert "waiting for: <b>&lt;b&gt;Cy&lt;/b&gt;, Ben, Dov</b>" in html
    assert "<b>Cy</b>" not in html.replace("<b>&lt;b&gt;", "")
    assert "data-player='&lt;b&gt;Cy&lt;/b&gt;'" in html
    # the scoreboard: Ana has 3 more credits than the others
    g = Game.from_record(Store(path).load(gid))
    ana = g.state.players["Ana"]
    assert (f"<tr class='tv-row tv-done' data-player='Ana'><td class='tv-who'>Ana</td>"
            f"<td class='vp'>{ana.vp}</td><td class='credits'>{ana.credits}</td>") in html
    assert "<tr class='tv-row tv-todo' data-player='Ben'>" in html


def test_the_host_and_a_seat_keep_their_layout(tmp_path):
    path, gid, _ = env(tmp_path)
    for query in ("", "seat=Ana"):
        app = page(path, query)
        assert TV_CLASS not in app.ats.play_screen._dom_classes
        assert app.ats.views_part.table_stations.value == "" and app.ats.views_part.table_stations.layout.display == "none"


def test_the_small_star_empires_table_view_is_a_display(tmp_path):
    path, _, sid = env(tmp_path)
    table = page(path, f"view=table&game={sid}")
    tab = table.sse
    disp = tab.views_part.display
    assert disp in tab.play_screen.children and tab.play_screen.children[0] is disp
    assert TV_CLASS in tab.play_screen._dom_classes
    html = disp.value
    for cls in ("tv tv-sse", "tv-map", "sse-map", "tv-band", "tv-score", "tv-waiting"):
        assert cls in html, cls
    assert "to move: <b>Ann</b>" in html
    assert "&lt;i&gt;Bo&lt;/i&gt;" in html and "<i>Bo</i>" not in html
    # the hex board stays (a tap on it is refused: tests/browser/test_four_pages.py)
    assert tab.board_part.board.box in tab.play_screen.children
    # a seat's page of the same game: no display
    seat = page(path, f"seat=Ann&game={sid}")
    assert seat.sse.views_part.display.value == ""
    assert TV_CLASS not in seat.sse.play_screen._dom_classes


def test_the_display_follows_an_action_written_elsewhere(tmp_path):
    path, gid, sid = env(tmp_path)
    table = page(path, f"view=table&game={gid}")
    s = Store(path)
    g = Game.from_record(s.load(gid))
    act = g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    s.append(gid, len(g.actions) - 1, act)
    s.close()
    table.live_tick()
    html = table.ats.views_part.table_stations.value
    if "waiting for: <b>&lt;b&gt;Cy&lt;/b&gt;, Dov</b>" not in html:
        raise AssertionError(html[-1500:])


def test_the_pure_displays_escape_and_end(tmp_path):
    g = Game({"players": PLAYERS})
    html = ats_display(g, g.waiting_in_order(), "<div>objectives</div>")
    assert "tv-objectives" in html and "&lt;b&gt;Cy&lt;/b&gt;" in html
    sg = SseGame({"players": SSE_PLAYERS, "map": "basic-2p", "pieces": {"ships": 2}})
    assert sse_display(sg).count("<svg") == 1
