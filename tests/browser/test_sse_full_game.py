"""A whole 2-player Small Star Empires game played through clicks in headless Chromium,
from the setup screen to the final table (issue 10, item 6).

Every move is a click on a ship and a click on a green system; the "Colonise with" choice
is left on its default (City) except for the Trade Stations placed on purpose, after each
of which the next move must start from City again.  The game runs until nobody can move.
The final table the page shows must equal the engine's score of the stored record, and
``python -m companion score --json`` on the record exported from the page.
"""
from __future__ import annotations

import base64
import json
import time

import pytest
from playwright.sync_api import expect

import test_sse as ui                      # the SSE page helpers (settle, play_move, ...)
from browser_harness import screenshot
from companion.sse import SseGame
from companion.sse.record import FORMAT
from companion.sse.scoring import CATEGORIES, CATEGORY_NAMES, shown_table
from companion.table.store import Store

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob"]
SHIPS = 3
#: (player, n): that player's n-th move (1-based) places a Trade Station on purpose.  Bob
#: places all 4 of his, so his last moves are offered City only; nobody runs out of Cities
#: (this deterministic game ends with Ann blocked after 15 moves and Bob after 18)
TRADE_STATIONS = {("Ann", 3), ("Ann", 7), ("Bob", 4), ("Bob", 9), ("Bob", 12), ("Bob", 15)}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 1400}

_FINAL = """() => {
  const t = document.querySelector('.sse-final table.sse-final-table');
  if (!t) return null;
  const head = Array.from(t.querySelectorAll('thead th')).map(th => th.textContent.trim());
  const rows = Array.from(t.querySelectorAll('tbody tr')).map(
      tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent.trim()));
  return {head, rows};
}"""


def opponents_next_to(g: SseGame, h) -> int:
    st = g.state
    return sum(1 for n in st.map.neighbours(h) if st.controller(n) not in (None, g.current))


def choose(g: SseGame, piece: str) -> tuple[int, tuple]:
    """The move for the player to move: a Trade Station next to the most opponent systems,
    else a City on the most planets (a nebula, else anything).  Deterministic."""
    p = g.current
    options = [(ship, m) for ship in range(SHIPS) for m in g.legal_moves(p, ship, piece=piece)]
    assert options, f"{p} has no legal move for a {piece}"

    def value(o):
        ship, m = o
        s = m.system
        if piece == "trade_station":
            return (opponents_next_to(g, m.to), -ship, tuple(-x for x in m.to))
        planets = s.planets if s.kind == "planetary" else 0
        return (planets, s.kind == "nebula", -ship, tuple(-x for x in m.to))
    ship, m = max(options, key=value)
    return ship, m.to


def select_ship(page, g: SseGame, ship: int) -> None:
    """Click the ship on the board, or in the ship picker when ships share a system."""
    ships = g.state.players[g.current].ships
    at = ships[ship].at
    if [s.id for s in ships if s.at == at][0] == ship:
        ui.hexbtn(page, at).click()
    else:
        page.locator(".sse-ship-pick button", has_text=f"{ship} at").click()


def test_full_game_cities_and_trade_stations_to_the_final_table(voila_server, page, tmp_path,
                                                                run_cli):
    t0 = time.monotonic()
    page.set_viewport_size(DESKTOP)
    page.goto(voila_server.url)
    page.locator(".start-game").wait_for(state="visible")
    page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
    page.locator(".sse-setup").wait_for(state="visible")
    page.fill(".sse-name-1 input", PLAYERS[0])
    page.fill(".sse-name-2 input", PLAYERS[1])
    page.select_option(".sse-ships select", label=str(SHIPS))
    page.click(".sse-start")
    expect(page.locator(".companion-status")).to_contain_text("new game on 'basic-2p'")
    g = SseGame({"players": PLAYERS, "map": "basic-2p",
                 "pieces": {"ships": SHIPS, "cities": 16, "trade_stations": 4},
                 "variants": {"damaged_ships": False, "unexplored": False, "open_borders": False}})
    ui.settle(page, g)
    ui.piece_shown(page, g, "city")

    counts = {p: 0 for p in PLAYERS}
    placed_ts = []
    phone_done = exhausted_seen = False
    while not g.state.finished:
        p = g.current
        counts[p] += 1
        piece = "trade_station" if (p, counts[p]) in TRADE_STATIONS else "city"
        ship, to = choose(g, piece)
        # the choice offers exactly what the engine says the player can place
        buttons = page.locator(".sse-piece button")
        expect(buttons).to_have_count(len(g.placeable_pieces(p)))
        if g.pieces_left(p)["trade_station"] == 0:
            expect(buttons).to_have_text([f"City ({g.pieces_left(p)['city']} left)"])
            expect(page.locator(".sse-piece-note")).to_contain_text(f"{p} has no Trade Stations left")
            exhausted_seen = True
        if piece == "trade_station" and not phone_done:
            # a move in progress at phone size: the ship selected, Trade Station chosen
            page.set_viewport_size(PHONE)
            select_ship(page, g, ship)
            ui.wait_legal(page, g.legal_destinations(p, ship, piece="city"))
            ui.choose_piece(page, g, "trade_station")
            ui.wait_legal(page, g.legal_destinations(p, ship, piece="trade_station"))
            screenshot(page, "sse-full-phone-move")
            ui.hexbtn(page, to).scroll_into_view_if_needed()
            screenshot(page, "sse-full-phone-board")
            ui.choose_piece(page, g, "city")        # play_move selects the ship again
            page.set_viewport_size(DESKTOP)
            phone_done = True
        ui.play_move(page, g, ship, to, piece=piece)      # also checks the reserves shown
        if piece == "trade_station":
            placed_ts.append(len(g.actions) - 1)
            if not g.state.finished:
                # the next move starts from City, for the next player, with their counts
                ui.piece_shown(page, g, "city")
                expect(page.locator(".sse-piece button")).to_have_count(
                    len(g.placeable_pieces(g.current)))
    assert len(placed_ts) == len(TRADE_STATIONS) and exhausted_seen

    # ------------------------------------------------- the game ended: nobody can move
    st = g.state
    assert st.end_reason == "no player can move a ship"
    assert all(st.players[p].passed for p in PLAYERS)
    expect(page.locator(".sse-turn")).to_contain_text("The game is over: no player can move a ship")
    expect(page.locator(".sse-piece")).to_be_hidden()

    # ------------------------------------------------------- the stored record
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        games = store.games(format=FORMAT)
        assert len(games) == 1
        rec = store.load(games[0]["id"])
    finally:
        store.close()
    assert rec["actions"] == g.actions
    pieces = [a["piece"] for a in rec["actions"]]
    assert [i for i, x in enumerate(pieces) if x == "trade_station"] == placed_ts
    assert set(pieces) == {"city", "trade_station"}
    stored = SseGame.from_record(rec).score()

    # --------------------------------------- the final table shown = the engine's score
    final = page.locator(".sse-final")
    expect(final.locator(".sse-winner")).to_contain_text(stored.explanation)
    expect(final.locator(".sse-tiebreak")).to_have_attribute("data-decided", stored.decided_by)
    # the final table comes with the last move's refresh: wait for it (a busy machine)
    page.wait_for_function(f"({_FINAL})() !== null", timeout=60_000)
    shown = page.evaluate(_FINAL)
    assert shown is not None
    # issue 21: the categories this game has, the total right after the name
    table = shown_table(stored, SseGame.from_record(rec).state)
    assert shown["head"][:2] == ["player", "total"]
    assert len(shown["head"]) == len(table.columns)
    assert shown["rows"] == [[str(v) for v in row] for row in table.itertuples(index=False)]
    by_player = {r[0]: dict(zip(shown["head"], r)) for r in shown["rows"]}

    # ... and = `python -m companion score --json` on the record exported from the page
    href = final.locator("a.sse-export-json").get_attribute("href")
    exported = json.loads(base64.b64decode(href.split(",", 1)[1]))
    assert exported["actions"] == rec["actions"] and exported["setup"] == rec["setup"]
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(exported))
    out = run_cli("score", str(path), "--json")
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["final"] and cli["winners"] == stored.winners
    assert cli["decided_by"] == stored.decided_by
    for row in cli["players"]:
        mine = by_player[row["player"]]
        assert mine["total"] == str(row["total"]) and mine["rank"] == str(row["rank"])
        assert mine["Cities left"] == str(row["cities_left"])
        assert mine["Trade St. left"] == str(row["trade_stations_left"])
        assert mine["planets controlled"] == str(row["planets"])
        assert mine["largest territory size"] == str(row["largest_territory"])
        for c in CATEGORIES:
            if CATEGORY_NAMES[c] in mine:
                assert mine[CATEGORY_NAMES[c]] == str(row["breakdown"][c]), c
            else:                       # a module this game does not have: no VP from it
                assert row["breakdown"][c] == 0 and c in ("exploration", "hollana", "tennar",
                                                          "open_borders"), c
    # the Trade Stations on purpose: one per placement gone from each reserve
    for p in PLAYERS:
        n_ts = sum(1 for who, _ in TRADE_STATIONS if who == p)
        assert by_player[p]["Trade St. left"] == str(4 - n_ts)
        assert int(by_player[p]["Cities left"]) > 0          # every City placed on purpose

    final.locator(".sse-final-table").scroll_into_view_if_needed()
    screenshot(page, "sse-full-final")
    assert time.monotonic() - t0 < 180, "the full game took more than 3 minutes"
