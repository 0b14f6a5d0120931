"""A 2-player Small Star Empires game played through the real page: the tab is opened by
clicking it, the game is set up by typing and choosing, and every turn is a click on a
ship and a click on a green system.  After each move the page is checked against a
*shadow* engine in the test process (legal destinations highlighted, the score panel,
whose turn it is); an illegal click is refused with its rule; undo takes a move back;
the stored record replays to the same score; a reload resumes the game.

The same game then goes on to its end (issue 10, item 6; one flow, one server, issue 51:
this was test_sse_full_game.py): the "Colonise with" choice is left on its default (City)
except for the Trade Stations placed on purpose, after each of which the next move must
start from City again; one move is made at a phone's size.  The game runs until nobody can
move.  The final table the page shows must equal the engine's score of the stored record,
and ``python -m companion score --json`` on the record exported from the page.

Then "New game" on the same page: a map saved in the editor is offered at setup; an
unexplored tile is entered through the page; the final table names the deciding step;
the campaign goes on to game 2.
"""
from __future__ import annotations

import base64
import json
import time

import pytest
from playwright.sync_api import TimeoutError as PWTimeout
from playwright.sync_api import expect

from dashboard_driver import SSE_FINAL_TABLE
from browser_harness import screenshot
from companion.sse import SseGame
from companion.sse.record import FORMAT
from companion.sse.scoring import CATEGORIES, CATEGORY_NAMES, shown_table
from companion.table.store import Store
from companion.ui.sse_screen import hex_class

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob"]
SHIPS = 3
SETTLE_MS = 15_000
#: (player, n): that player's n-th move (1-based) places a Trade Station on purpose (Bob's
#: 2nd is the one of the first turns).  Bob places all 4 of his, so his last moves are
#: offered City only; nobody runs out of Cities (this deterministic game ends with Ann
#: blocked after 16 moves and Bob after 17)
TRADE_STATIONS = {("Bob", 2), ("Ann", 6), ("Ann", 9), ("Bob", 6), ("Bob", 9), ("Bob", 12)}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 1400}

_LEGAL = """() => Array.from(document.querySelectorAll('.sse-board .sse-hex.legal'))
  .map(b => Array.from(b.classList).find(c => c.startsWith('hx_'))).sort()"""

_NO_STALE_PLUS = """() => Array.from(document.querySelectorAll('.sse-board .sse-hex'))
  .every(b => b.classList.contains('legal') || !b.textContent.trim().startsWith('+'))"""

_SCORE = """() => {
  const out = {};
  for (const tr of document.querySelectorAll('table.sse-score tr.sse-score-row')) {
    const c = (k) => tr.querySelector('td.' + k).textContent.trim();
    out[tr.dataset.player] = {vp: c('vp'), cities: c('cities'), trade: c('trade'),
                              ended: c('if-ended')};
  }
  const cur = document.querySelector('.sse-turn .sse-current');
  return {rows: out, current: cur ? cur.textContent.trim() : null};
}"""


def expected(g: SseGame) -> dict:
    proj = g.score(project=True).table.set_index("player")
    rows = {p: {"vp": str(ps.vp), "cities": str(ps.cities), "trade": str(ps.trade_stations),
                "ended": str(int(proj.loc[p].total))}
            for p, ps in g.state.players.items()}
    return {"rows": rows, "current": g.current}


def settle(page, g: SseGame) -> None:
    want = expected(g)
    try:
        page.wait_for_function(f"(want) => JSON.stringify(({_SCORE})()) === JSON.stringify(want)",
                               arg=want, timeout=SETTLE_MS, polling="raf")
    except PWTimeout:
        raise AssertionError(f"the page did not reach the expected state\nexpected {want}\n"
                             f"shown    {page.evaluate(_SCORE)}\nstatus   "
                             f"{page.locator('.companion-status').inner_text()}") from None


def hexbtn(page, h):
    return page.locator(f".sse-board .{hex_class(h)}")


def wait_legal(page, cells) -> None:
    want = sorted(hex_class(h) for h in cells)
    try:
        page.wait_for_function(f"(want) => JSON.stringify(({_LEGAL})()) === JSON.stringify(want)",
                               arg=want, timeout=SETTLE_MS, polling="raf")
    except PWTimeout:
        raise AssertionError(f"legal hexes shown {page.evaluate(_LEGAL)}, expected {want}") from None


PIECE_LABEL = {"city": "City", "trade_station": "Trade Station"}


def piece_shown(page, g: SseGame, piece: str) -> None:
    """The piece choice shows ``piece`` selected, with how many the player to move has left."""
    left = g.pieces_left(g.current)[piece]
    expect(page.locator(".sse-piece button.mod-active")).to_have_text(
        f"{PIECE_LABEL[piece]} ({left} left)")


def choose_piece(page, g: SseGame, piece: str) -> None:
    page.locator(".sse-piece button", has_text=PIECE_LABEL[piece]).first.click()
    piece_shown(page, g, piece)


def play_move(page, g: SseGame, ship: int, to, piece: str = "city") -> dict:
    """Select ``ship`` of the player to move by clicking it, check the green hexes, choose
    the piece and click ``to``.  Applies the move to the shadow game and waits for the page."""
    player = g.current
    at = g.state.players[player].ships[ship].at
    # ships stacked on the homeworld: the ship picker chooses among them
    if [s.id for s in g.state.players[player].ships if s.at == at][0] != ship:
        page.locator(".sse-ship-pick button", has_text=f"{ship} at").click()
    else:
        hexbtn(page, at).click()
    # the choice is back on City: the green systems are those a City can colonise
    piece_shown(page, g, "city")
    wait_legal(page, g.legal_destinations(player, ship, piece="city"))
    if piece != "city":
        choose_piece(page, g, piece)
        wait_legal(page, g.legal_destinations(player, ship, piece=piece))
    hexbtn(page, to).click()
    norm = g.push({"player": player, "ship": ship, "to": list(to), "piece": piece})
    settle(page, g)
    # no ship selected now: nothing is green and no hex keeps a stale '+' label
    wait_legal(page, [])
    page.wait_for_function(_NO_STALE_PLUS, timeout=SETTLE_MS, polling="raf")
    expect(page.locator(".companion-status")).to_contain_text(f"{player} moved ship {ship}")
    return norm




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
        hexbtn(page, at).click()
    else:
        page.locator(".sse-ship-pick button", has_text=f"{ship} at").click()


def pick(g: SseGame, ship: int, prefer=("planetary", "nebula")):
    """A legal destination for the player to move: the first planetary or nebula one."""
    moves = g.legal_moves(g.current, ship)
    for kind in prefer:
        for m in sorted(moves, key=lambda m: m.to):
            if m.system is not None and m.system.kind == kind:
                return m.to
    return sorted(moves, key=lambda m: m.to)[0].to


def test_two_player_game_to_its_end_then_the_editor_and_a_campaign(voila_server, page,
                                                                   tmp_path, run_cli):
    t0 = time.monotonic()
    page.set_viewport_size(DESKTOP)
    page.goto(voila_server.url)
    page.locator(".start-game").wait_for(state="visible")      # the Among the Stars tab
    page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
    setup = page.locator(".sse-setup")
    setup.wait_for(state="visible")
    expect(page.locator(".sse-map-approx")).to_contain_text("Approximate layout")
    page.fill(".sse-name-1 input", "Ann")
    page.fill(".sse-name-2 input", "Bob")
    page.click(".sse-start")                                  # no ship count yet: refused
    expect(page.locator(".companion-status .status-error")).to_contain_text(
        "Choose how many ships each player starts with")
    page.select_option(".sse-ships select", label=str(SHIPS))
    screenshot(page, "sse-01-setup")
    page.click(".sse-start")
    expect(page.locator(".companion-status")).to_contain_text("new game on 'basic-2p'")

    g = SseGame({"players": PLAYERS, "map": "basic-2p",
                 "pieces": {"ships": SHIPS, "cities": 16, "trade_stations": 4},
                 "variants": {"damaged_ships": False, "unexplored": False, "open_borders": False}})
    settle(page, g)
    piece_shown(page, g, "city")
    expect(page.locator(".sse-board .sse-hex")).to_have_count(len(g.state.map))

    # ------------------------------------------------------------ turns 1-4
    play_move(page, g, 0, pick(g, 0))                          # Ann
    play_move(page, g, 0, pick(g, 0), piece="trade_station")   # Bob
    play_move(page, g, 1, pick(g, 1, ("nebula", "planetary")))  # Ann, another ship
    screenshot(page, "sse-02-after-three-moves")
    play_move(page, g, 1, pick(g, 1))                          # Bob

    # ------------------------------------ an illegal click is refused with its rule
    ann = g.current
    assert ann == "Ann"
    hexbtn(page, g.state.players[ann].ships[0].at).click()
    wait_legal(page, g.legal_destinations(ann, 0, piece="city"))
    bob_home = g.state.players["Bob"].home
    before = page.evaluate(_SCORE)
    hexbtn(page, bob_home).click()
    err = page.locator(".companion-status .status-error")
    expect(err).to_contain_text("[rule: ")
    rule = g.why_illegal({"player": ann, "ship": 0, "to": list(bob_home), "piece": "city"})
    assert rule is not None
    expect(err).to_contain_text(rule.split("[rule: ")[1].rstrip("]"))
    screenshot(page, "sse-03-illegal-click")
    assert page.evaluate(_SCORE) == before

    # the what-if panel lists every legal destination of the selected ship
    expect(page.locator(".sse-whatif")).to_contain_text("What-if for ship 0")
    n_rows = page.locator(".sse-whatif-table tr").count() - 1
    assert n_rows == sum(max(1, len(m.pieces)) for m in g.legal_moves(ann, 0))

    # ------------------------------------------------------------ turn 5, then undo
    play_move(page, g, 0, pick(g, 0))                          # Ann
    page.click(".sse-undo")
    expect(page.locator(".sse-undo-confirm")).to_contain_text("Undo: Ann moved ship 0")
    screenshot(page, "sse-04-undo-confirm")
    page.click(".sse-undo-yes")
    g.pop()
    settle(page, g)
    expect(page.locator(".companion-status")).to_contain_text("Undone: Ann moved ship 0")
    play_move(page, g, 2, pick(g, 2))                          # Ann, her third ship instead
    play_move(page, g, 0, pick(g, 0))                          # Bob
    play_move(page, g, 0, pick(g, 0))                          # Ann
    screenshot(page, "sse-05-mid-game")

    # ---------------- the stored record replays to what the page and the shadow show
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        games = store.games(format=FORMAT)
        assert len(games) == 1 and games[0]["actions"] == len(g.actions) == 7
        rec = store.load(games[0]["id"])
    finally:
        store.close()
    assert rec["actions"] == g.actions
    replay = SseGame.from_record(rec)
    assert replay.score(project=True).to_json() == g.score(project=True).to_json()

    # --------------------------------- a reload resumes the game in the tab
    page.goto(voila_server.url)
    page.locator(".start-game").wait_for(state="visible")
    page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
    page.locator(".sse-play").wait_for(state="visible")
    settle(page, g)
    expect(page.locator(".companion-status")).to_contain_text("resumed")
    play_move(page, g, 1, pick(g, 1))                          # Bob, after the reload
    screenshot(page, "sse-06-after-reload")

    # ------------------------------- on to the end: nobody can move (issue 10, item 6)
    counts = {p: sum(1 for a in g.actions if a["player"] == p) for p in PLAYERS}
    placed_ts = [i for i, a in enumerate(g.actions) if a["piece"] == "trade_station"]
    assert placed_ts == [1]                 # Bob's 2nd move above: ("Bob", 2)
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
            wait_legal(page, g.legal_destinations(p, ship, piece="city"))
            choose_piece(page, g, "trade_station")
            wait_legal(page, g.legal_destinations(p, ship, piece="trade_station"))
            screenshot(page, "sse-full-phone-move")
            hexbtn(page, to).scroll_into_view_if_needed()
            screenshot(page, "sse-full-phone-board")
            choose_piece(page, g, "city")        # play_move selects the ship again
            page.set_viewport_size(DESKTOP)
            phone_done = True
        play_move(page, g, ship, to, piece=piece)      # also checks the reserves shown
        if piece == "trade_station":
            placed_ts.append(len(g.actions) - 1)
            if not g.state.finished:
                # the next move starts from City, for the next player, with their counts
                piece_shown(page, g, "city")
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
        assert len(games) == 1      # the game resumed after the reload, not a second one
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
    page.wait_for_function(f"({SSE_FINAL_TABLE})() !== null", timeout=60_000)
    shown = page.evaluate(SSE_FINAL_TABLE)
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

    # ========== New game: a map saved in the editor is offered at setup; an unexplored
    # tile is entered through the page; the final table names the deciding step; the
    # campaign goes on to game 2 (the same page: this was
    # test_editor_unexplored_tile_final_table_and_campaign, a server of its own)
    _editor_unexplored_tile_final_table_and_campaign(voila_server, page)


def _editor_unexplored_tile_final_table_and_campaign(voila_server, page) -> None:
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sse"))
    from ssekit import grid

    maps = voila_server.home / "sse-maps"
    maps.mkdir(parents=True, exist_ok=True)
    (maps / "tiny.json").write_text(json.dumps(grid("H1 U P3 Nr\nE E P2 H2", name="tiny").to_dict()))
    page.set_viewport_size({"width": 1280, "height": 900})     # its pictures' size as before
    page.locator(".sse-new").click()
    page.locator(".sse-setup").wait_for(state="visible")

    # ---------------------------------------------------------------- the map editor
    page.click(".sse-edit-maps")
    page.locator(".sse-editor").wait_for(state="visible")
    page.select_option(".sse-ed-base select", value="tiny")
    page.click(".sse-ed-load")
    expect(page.locator(".sse-editor-board .sse-hex:not(.ghost)")).to_have_count(8)
    page.select_option(".sse-ed-tool select", label="2 planets")
    page.locator(".sse-editor-board .hx_3_0").click()             # the red nebula -> 2 planets
    page.locator(".sse-editor-board .hx_4_0.ghost").click()       # a new system east of it
    expect(page.locator(".sse-editor-board .sse-hex:not(.ghost)")).to_have_count(9)
    page.fill(".sse-ed-name input", "our table")
    page.click(".sse-ed-save")
    expect(page.locator(".companion-status")).to_contain_text("Saved the map 'our table' (9 systems)")
    saved = json.loads((maps / "our table.json").read_text())
    kinds = {tuple(s["at"]): s for s in saved["systems"]}
    assert kinds[(3, 0)] == {"at": [3, 0], "type": "planetary", "planets": 2}
    assert kinds[(4, 0)]["planets"] == 2 and not saved.get("approximate")
    screenshot(page, "sse-07-editor")
    page.click(".sse-ed-back")

    # ---------------------------------------------- a campaign game on the saved map
    page.fill(".sse-name-1 input", "Ann")
    page.fill(".sse-name-2 input", "Bob")
    # one ship each on this tiny map is not the book's 2-4: 'Custom pieces' (folded under
    # Pieces and variants) is ticked first, and the ships choice then offers 1
    page.locator(".sse-options .jupyter-widget-Collapse-header, "
                 ".sse-options .lm-AccordionPanel-title").first.click()
    page.locator(".sse-custom-pieces input").wait_for(state="visible")
    page.locator(".sse-custom-pieces input").check()
    page.select_option(".sse-ships select", label="1")
    page.select_option(".sse-map select", value="our table")
    page.locator(".sse-variant-campaign input").check()
    page.click(".sse-start")
    expect(page.locator(".companion-status")).to_contain_text("new game on 'our table'")
    g = SseGame({"players": PLAYERS, "map": saved, "pieces": {"ships": 1},
                 "options": {"pieces": "custom"}, "campaign": {"wins": {}, "game": 1}})
    settle(page, g)
    assert expected(g)["rows"]["Ann"]["cities"] == "14"          # the book's campaign table

    # Ann explores (1, 0): the players turn the tile up, it is the Hollana Federation
    hexbtn(page, (0, 0)).click()
    wait_legal(page, g.legal_destinations("Ann", 0, piece="city"))
    hexbtn(page, (1, 0)).click()
    page.select_option(".sse-reveal select", label="Hollana Federation")
    screenshot(page, "sse-08-reveal")
    page.click(".sse-confirm")
    g.push({"player": "Ann", "ship": 0, "to": [1, 0], "reveal": {"effect": "hollana_federation"}})
    settle(page, g)
    play_move(page, g, 0, (2, 1))                                  # Bob
    play_move(page, g, 0, (2, 0))                                  # Ann
    while not g.state.finished:
        play_move(page, g, 0, pick(g, 0))
    result = g.score()
    final = page.locator(".sse-final")
    expect(final.locator(".sse-winner")).to_contain_text(result.explanation)
    expect(final.locator(".sse-tiebreak")).to_have_attribute("data-decided", result.decided_by)
    campaign = page.locator(".sse-campaign")
    expect(campaign).to_contain_text("After 1 game(s), first to 5 wins")
    screenshot(page, "sse-09-final-and-campaign")
    page.click(".sse-next-game")
    expect(page.locator(".companion-status")).to_contain_text("Campaign game 2")
    winner = result.winners[0]
    g2 = SseGame({"players": PLAYERS, "map": saved, "pieces": {"ships": 1},
                  "options": {"pieces": "custom"},
                  "campaign": {"wins": {p: int(p in result.winners) for p in PLAYERS}, "game": 2}})
    settle(page, g2)
    assert expected(g2)["rows"][winner]["cities"] == "13"
