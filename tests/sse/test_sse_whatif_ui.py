"""What-if per ship, and the Small Star Empires tab driven from Python (no browser):
the map editor saves a map the setup then offers, a game is stored action by action,
unexplored tiles are entered, the final table shows the deciding tiebreak."""
from __future__ import annotations

import random

import pandas as pd
import pytest

from companion.core.errors import CompanionError
from companion.sse import SseGame
from companion.sse.hexmap import load_named
from companion.sse.whatif import destinations

from ssekit import game, move


def test_whatif_rows_are_the_legal_moves_and_agree_with_real_pushes():
    rng = random.Random(5)
    g = SseGame({"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2},
                 "variants": {"open_borders": True}})
    for _ in range(12):
        p = g.current
        opts = [(i, m) for i in range(2) for m in g.legal_moves(p, i)]
        i, m = rng.choice(opts)
        move(g, p, m.to, piece=rng.choice(m.pieces), ship=i)
    p = g.current
    before = g.score(project=True).table.set_index("player")
    df = destinations(g, p, 0)
    assert len(df) == sum(len(m.pieces) for m in g.legal_moves(p, 0))
    assert list(df.change) == sorted(df.change, reverse=True)        # best first
    for r in df.itertuples():
        g.push({"player": p, "ship": 0, "to": r.to, "piece": r.piece})
        after = g.score(project=True).table.set_index("player")
        assert r.projected == after.loc[p].total
        assert r.change == after.loc[p].total - before.loc[p].total
        assert r.vp_now == after.loc[p].planets - before.loc[p].planets
        assert r.trade_stations == after.loc[p].trade_stations - before.loc[p].trade_stations
        assert r.territory == after.loc[p].territory - before.loc[p].territory
        others = [q for q in g.setup.players if q != p]
        assert r.opponents == sum(after.loc[q].total - before.loc[q].total for q in others)
        g.pop()
    assert g.score(project=True).table.set_index("player").equals(before)


def test_whatif_trade_station_and_unexplored_rows():
    g = game("H1 E E U H2\nE  E E E E")
    df = destinations(g, "Ann", 0)
    ts = df[(df.piece == "trade_station") & (df.to.apply(tuple) == (2, 0))].iloc[0]
    city = df[(df.piece == "city") & (df.to.apply(tuple) == (2, 0))].iloc[0]
    assert ts.trade_stations == 0 and city.trade_stations == 0
    explore = df[df.kind == "explore"].iloc[0]
    assert explore.to == [3, 0] and pd.isna(explore.change) and "unexplored" in explore.note
    assert df.iloc[-1].kind == "explore"                     # unknown rows come last


@pytest.fixture
def tab(tmp_path):
    from companion.table.store import Store
    from companion.ui.app import App
    app = App(Store(tmp_path / "games.sqlite"))
    app.tabs.selected_index = 1
    return app.sse


def test_tab_editor_saves_a_map_offered_at_setup(tab, companion_home):
    tab.show_editor()
    tab.editor_part.ed_base.value = "basic-2p"
    tab.editor_part.load()
    assert "Approximate" in tab.editor_part.ed_info.value
    n = len(tab.editor_part.ed_map)
    tool = {label: i for i, (label, _) in enumerate(__import__("companion.ui.sse_screen", fromlist=["x"]).PALETTE)}
    tab.editor_part.ed_tool.value = tool["wormhole"]
    centre = (-2, -1)         # a main sector tile's middle (empty) system
    assert tab.editor_part.ed_map[centre].kind == "empty"
    tab.editor_part.click(centre)
    assert tab.editor_part.ed_map[centre].kind == "wormhole"
    ghost = next(h for h in tab.editor_part.ed_board.buttons if h not in tab.editor_part.ed_map)
    tab.editor_part.ed_tool.value = tool["3 planets"]
    tab.editor_part.click(ghost)
    assert len(tab.editor_part.ed_map) == n + 1
    tab.editor_part.ed_name.value = "our table"
    tab.editor_part.save()
    assert (companion_home / "sse-maps" / "our table.json").exists()
    m = load_named("our table")
    assert not m.approximate and m[centre].kind == "wormhole" and m.players == 2
    tab.show_setup()
    assert "our table" in [v for _, v in tab.setup_part.map_pick.options]


def test_tab_plays_stores_and_finishes(tab):
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    with pytest.raises(CompanionError, match="ships"):
        tab.start_game()
    tab.setup_part.custom_pieces.value = True             # a short game: 1 ship, 2 Cities
    tab.setup_part.ships.value = 1
    tab.setup_part.cities.value, tab.setup_part.trade.value = 2, 0
    tab.start_game()
    assert tab.game.setup.option("pieces") == "custom"
    g = tab.game
    rng = random.Random(2)
    while not g.state.finished:
        p = g.current
        tab.driver().tap(g.state.players[p].ships[0].at)
        legal = tab.board_part.legal()
        assert set(legal) == g.legal_destinations(p, 0)
        tab.driver().tap(sorted(legal)[rng.randrange(len(legal))])
    rec = tab.store.load(tab.gid)
    assert rec["format"] == "small-star-empires/1" and rec["actions"] == g.actions
    assert "sse-final-table" in tab.final_part.final.value
    assert f"data-decided='{g.score().decided_by}'" in tab.final_part.final.value


def test_tab_unexplored_entry(tab):
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    tab.setup_part.ships.value = 2
    tab.setup_part.v_unexplored.value = True
    tab.start_game()
    g = tab.game
    rng = random.Random(1)
    while not any(m.kind == "explore" for m in g.legal_moves(g.current, 0)):
        p = g.current
        m = rng.choice([m for m in g.legal_moves(p, 1) if m.kind == "colonise"])
        tab.driver().tap(g.state.players[p].ships[1].at)
        tab.selected = 1
        tab.driver().tap(m.to)
    p = g.current
    target = next(m for m in g.legal_moves(p, 0) if m.kind == "explore")
    n = len(g.actions)
    tab.driver().tap(g.state.players[p].ships[0].at)
    tab.selected = 0
    tab.driver().tap(target.to)
    assert tab.reveal_part.pending is not None and len(g.actions) == n       # waits for the tile
    eff = next(c for c in tab.reveal_part.extra.children if "sse-reveal" in getattr(c, "_dom_classes", ()))
    eff.value = "planetary"
    planets = next(c for c in tab.reveal_part.extra.children if "sse-reveal-planets" in getattr(c, "_dom_classes", ()))
    planets.value = 3
    ok = tab.reveal_part.extra.children[-1].children[0]
    ok.click()
    assert g.actions and g.actions[-1]["reveal"] == {"effect": "planetary", "planets": 3}
    assert g.state.players[p].vp == 3


def _descendants(widget):
    yield widget
    for c in getattr(widget, "children", ()):
        yield from _descendants(c)


def test_every_setup_control_is_on_the_setup_screen(tab):
    shown = {id(x) for x in _descendants(tab.setup_part.setup_screen)}
    for ctl in (*tab.setup_part.names, tab.setup_part.map_pick, tab.setup_part.ships, tab.setup_part.custom_pieces, tab.setup_part.cities, tab.setup_part.trade,
                tab.setup_part.v_damaged, tab.setup_part.v_unexplored, tab.setup_part.v_open, tab.setup_part.v_epic, tab.setup_part.epic_table,
                tab.setup_part.v_campaign, tab.setup_part.campaign_note, tab.setup_part.start_btn, tab.setup_part.saved):
        assert id(ctl) in shown, ctl


def test_tab_campaign_next_games(tab):
    from companion.sse.hexmap import save_user_map
    from ssekit import grid
    save_user_map(grid("H1 P3 . P1 H2"), "tiny")
    tab.show_setup()
    tab.setup_part.map_pick.value = "tiny"
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    tab.setup_part.custom_pieces.value = True             # 1 ship on a tiny map
    tab.setup_part.ships.value = 1
    tab.setup_part.v_campaign.value = True
    tab.start_game()
    for k in range(1, 6):
        g = tab.game
        assert g.setup.campaign == {"wins": {"Ann": k - 1, "Bob": 0}, "game": k}
        assert g.state.players["Ann"].cities == 14 - (k - 1)
        for p, to in (("Ann", (1, 0)), ("Bob", (3, 0))):
            tab.driver().tap(g.state.players[p].ships[0].at)
            tab.driver().tap(to)
        assert g.state.finished and g.score().winners == ["Ann"]
        words = tab.final_part.campaign_box.children[0].value
        buttons = [c for c in tab.final_part.campaign_box.children if "sse-next-game" in c._dom_classes]
        if k < 5:
            assert f"After {k} game(s), first to 5 wins" in words and buttons
            buttons[0].click()
        else:
            assert "Ann won the campaign (5 wins) after 5 games" in words and not buttons
