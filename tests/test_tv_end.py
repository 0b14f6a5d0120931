"""Issue 50, "A TV at the end", without a browser: the table view's display of a finished
game (companion/ui/tableview.py) leads with the winner and the final totals, the book's
final score (every category), never the track's VP under a total's name; while the final
table still waits for something, it says so and shows no total.  The table view's page
carries ``tv-page`` (its stylesheet hides the tabs, the title and the news banners).
The browser test (sizes, font sizes, nothing cut) is tests/browser/test_tv_end_browser.py.
"""
from __future__ import annotations

import re

import test_ats_lay_now as now_kit
import test_sse_lay_position as sse_kit
from companion.ats.game import Game
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.tableview import ats_display, sse_display
from recordkit import play_to_the_end


def totals_shown(html: str) -> dict[str, int]:
    return {p: int(v) for p, v in re.findall(
        r"<tr class='tv-final-row[^']*' data-player='([^']+)'>.*?<td class='tv-total'>(\d+)</td>",
        html)}


def test_among_the_stars_at_the_end_shows_the_final_totals_not_the_track():
    g = play_to_the_end(now_kit.laid_game())
    result = g.score()
    html = ats_display(g, [])
    want = {r["player"]: int(r["total"]) for r in result.rows}
    assert totals_shown(html) == want
    assert want != {p: g.state.players[p].vp for p in g.state.setup.players}
    assert html.index("tv-winner") < html.index("tv-final") < html.index("tv-stations")
    assert f"{result.winners[0]} wins with {want[result.winners[0]]} VP" in html
    assert "tv-score" not in html                  # no scoreboard of track VP at the end


def test_small_star_empires_at_the_end_shows_the_books_final_score():
    g = sse_kit.laid_game()
    assert g.state.finished
    result = g.score()
    html = sse_display(g)
    assert totals_shown(html) == {r["player"]: int(r["total"]) for r in result.rows}
    assert "If ended" not in html and "tv-score" not in html
    assert html.index("tv-winner") < html.index("tv-map")
    assert "decided by" in html                     # the tie on VP, and what broke it


def test_a_final_table_still_waiting_says_so_and_shows_no_total(monkeypatch):
    g = play_to_the_end(now_kit.laid_game())
    monkeypatch.setattr(type(g), "final_needs", lambda self: {
        "blocked": [], "values": [{"card": "X", "fields": ["vp"], "why": "t"}], "manual": []})
    html = ats_display(g, [])
    assert "waiting for the players" in html and "tv-total" not in html
    monkeypatch.setattr(type(g), "final_needs", lambda self: {
        "blocked": ["the advisor of 'Z' leans to Ana"], "values": [], "manual": []})
    html = ats_display(g, [])
    assert "Before the final scoring: the advisor of" in html
    assert "tv-total" not in html


def test_a_shared_victory_and_user_text_escaped():
    g = play_to_the_end(Game({"players": ["<b>Ana</b>", "Ben"]}))
    html = ats_display(g, [])
    assert "<b>Ana</b>" not in html and "&lt;b&gt;Ana&lt;/b&gt;" in html
    assert "share the victory" in html


def test_the_table_views_page_is_marked_as_the_display_alone(tmp_path):
    store = Store(path=tmp_path / "games.sqlite")
    store.create(Game({"players": ["Ana", "Ben"]}).to_record())
    tv, host = App(Store(store.path)), App(Store(store.path))
    tv.apply_query("view=table")
    host.apply_query("")
    assert "tv-page" in tv.root._dom_classes and "tv-page" not in host.root._dom_classes
