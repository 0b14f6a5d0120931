"""Issue 37, the Among the Stars entry as a real table met it (in-process, the page's own
widgets; the browser path of the same screens is tests/browser/test_revival_two_players.py
and tests/browser/test_table_game.py)."""
from __future__ import annotations

from companion.ats.game import Game
from companion.ui.app import App


def revival_in_year_two(store) -> App:
    """A Revival 2-player game (R 2.2: "the active player ... alternates by round") played
    to year 2 with discards: Ben is the active player and acts first."""
    g = Game({"players": ["Ana", "Ben"], "options": {"two_player": "revival"}},
             book_setup=False)
    while g.state.year == 1:
        g.push({"player": g.waiting_in_order()[0], "do": "discard", "card": "Garden"})
    assert g.setup.active_player(2) == "Ben" and g.waiting_in_order()[0] == "Ben"
    store.create(g.to_record())
    return App(store)


def test_the_what_if_explorer_opens_on_the_player_who_acts_now(store):
    """Issue 37: "What-if in Revival opens on the first player even when it is the other's
    turn: every cell reads 'revival-order' and every ranked option is illegal"."""
    app = revival_in_year_two(store)
    app.ats.explorer.box.selected_index = 0
    app.ats.explorer.refresh()
    assert app.ats.explorer.player.value == "Ben"
    app.ats.explorer.card.value = "Garden"
    assert "revival-order" not in app.ats.explorer.heat.value
    # a player the person picks stays picked
    app.ats.explorer.player.value = "Ana"
    app.ats.explorer.refresh()
    assert app.ats.explorer.player.value == "Ana"


def test_a_seat_page_explorer_shows_its_own_player_while_it_still_acts(store):
    g = Game({"players": ["Ana", "Ben", "Cy"]}, book_setup=False)
    store.create(g.to_record())
    app = App(store)
    app.apply_query("seat=Cy")
    assert app.ats.seat == "Cy"
    app.ats.explorer.box.selected_index = 0
    app.ats.explorer.refresh()
    assert app.ats.explorer.player.value == "Cy"


def test_the_table_views_refusal_names_a_page_that_can_do_the_write():
    """Issue 37: "The table view's refusal for host-only writes says 'do it on a player's
    page or the host's page', but a seat cannot do them either"."""
    from companion.core.roles import ALLOWED, Role, Write, may, refusal
    for write in Write:
        text = refusal(Role.TABLE, write)
        if write in (Write.ACTION, Write.UNDO):
            continue
        if may(Role.SEAT, write):
            assert "a player's page or the host's page" in text, write
        else:
            assert "do it on the host's page (the laptop)" in text, write
            assert "player's page" not in text, write
    assert Write.NEW_GAME not in ALLOWED[Role.SEAT]


def test_opening_a_finished_game_does_not_say_resumed(store):
    """Issue 37: "opening a finished game says 'Resumed'"."""
    g = Game({"players": ["Ana", "Ben"]}, book_setup=False)
    while not g.state.finished:
        g.push({"player": g.waiting_in_order()[0], "do": "discard", "card": "Garden"})
    store.create(g.to_record(), title="done")
    app = App(store)
    assert "Resumed" not in app.status.value
    assert "Opened the finished game &#x27;done&#x27;: its final table is below." in \
        app.status.value


def test_an_export_is_named_after_its_game_and_day():
    """Issue 37: "the exported file is always `among-the-stars-game.json`"."""
    from types import SimpleNamespace
    from companion.ui.common import export_name
    s = SimpleNamespace(gid="94707ed69f2b", meta={"timer": {"started": 1_800_000_000.0}})
    name = export_name("among-the-stars", s)
    assert name.startswith("among-the-stars-20") and name.endswith("-94707ed69f2b.json")
    assert export_name("small-star-empires", s, "final-table", "csv").startswith(
        "small-star-empires-final-table-20")
    # no play date, a hostile id: letters, digits and dashes only
    odd = SimpleNamespace(gid="../<x>", meta={})
    assert export_name("among-the-stars", odd) == "among-the-stars-x.json"


def test_the_vp_chart_names_each_line_at_its_end():
    """Issue 37: "the VP-by-year chart's names are not next to their lines"."""
    import re
    import pandas as pd
    from companion.ats.render import vp_chart_svg
    df = pd.DataFrame({"Ana": [5, 20, 30], "<b>Ben</b>": [2, 4, 6], "Cy": [2, 4, 7]},
                      index=pd.Index([1, 2, 3], name="year"))
    svg = vp_chart_svg(df)
    names = {m.group(3): (float(m.group(1)), float(m.group(2))) for m in re.finditer(
        r'<text class="vp-chart-name" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg)}
    assert set(names) == {"Ana 30", "&lt;b&gt;Ben&lt;/b&gt; 6", "Cy 7"}
    ends = {m.group(3): float(m.group(2)) for m in re.finditer(
        r'<circle cx="([\d.]+)" cy="([\d.]+)"[^>]*><title>([^,]*), year 3', svg)}
    # each name beside its own line's last point (within a line of text)
    assert abs(names["Ana 30"][1] - ends["Ana"]) < 14
    # close lines' names do not overlap
    assert abs(names["Cy 7"][1] - names["&lt;b&gt;Ben&lt;/b&gt; 6"][1]) >= 12


def test_the_history_list_shows_the_chosen_games_whole_line(store):
    """Issue 37: "the History game list is cut off on a phone": a list line cannot wrap,
    so the chosen game's whole line is shown under the list, wrapped (escaped)."""
    g = Game({"players": ["Ana", "<b>Ben</b>"]}, book_setup=False)
    store.create(g.to_record(), title="long")
    app = App(store)
    app.tabs.selected_index = len(app.formats)            # History
    tab = app.history
    tab.refresh()
    assert tab.list.options
    label = tab.list.options[0][0]
    assert "&lt;b&gt;Ben&lt;/b&gt;" in tab.chosen.value and "<b>Ben</b>" not in tab.chosen.value
    assert "white-space:normal" in tab.chosen.value and "Chosen:" in tab.chosen.value
    assert label.split(" · ")[1] in tab.chosen.value
