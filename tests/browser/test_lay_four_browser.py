"""Issue 39, "Score the table as it lies", in the browser with four players: a 4-player
Among the Stars game played without the companion (races, four objectives face up, a
Qualeen, a card with an end-of-game ability, reactors with and without cubes), each
station laid as it lies by its own seat's phone (390x844, one browser context each), the
table view beside them.  Cy (Qualeen) says on Cy's own page which objective card Cy drew
in secret.  Dee lays a card that is not connected to the Main Reactor: refused in one line
beside the button, nothing recorded, then corrected and laid.  Every page then shows the
final table, in which Ana and Ben tie on VP and the tie is decided on locations; it equals
``python -m companion score --json`` of the record exported from the page, the store's
record and the hand computation below (HAND).

The books' sentences (/work/shared/rules/among-the-stars-rulebook.md):
- B 3: "Finally, shuffle the Objective Cards and randomly draw as many Objectives as the
  number of players. Put these cards face up on the table where everyone can see them."
- B FAQ, Qualeen: "If I draw the "Accelerated Construction" Objective, do I still reveal
  it at the end of the game?" (a secret objective, revealed at the end).
- B 4: "build it anywhere in your Space Station adjacent to an already-built location".
- B 6: "Check all the cards in his Space Station with abilities in yellow boxes for any
  VPs gained."; "Gain 1 VP for every Power Reactor that DOES NOT contain any Energy
  cubes."; "Gain 1 VP for every 3 credits remaining."; "Each Objective can only be claimed
  by 1 player unless stated otherwise. If 2 or more players are tied for any Objective, no
  bonus is given."
- B 6: "The player with the most Victory Points is the winner. In case of a tie, the
  winner is the player with the most locations in his Station (excluding any Power
  Reactors)."

Every card, race and objective here is a "Fixture: ..." entry of the record's ``cards``
(a test's numbers, no real card's), except the Qualeen, the shipped race whose only
known ability is the B FAQ's secret objective (its catalogue entry has no scoring
ability).  Screenshots: tests/artifacts/lay4-*.png.

Then the rest of issue 50's first evening (its "Done when": "that evening's first two
games from an empty data folder with 4 phones and the TV, the Qualeen revealed on every
page at the end, the last advisor settled on the phone, 0 rescans, the TV's final totals
large and whole at both sizes"): the TV's final totals measured at 1920x1080 and
1366x768; the host's laptop opens, presses *Next game with the same players*, adds
Revival's Influence tiles (fixture tiles) and starts game 2; every phone and the TV
follow it with no reload and no new link; game 2 goes to its last turn (entered at once
in the store, as another device's entries), the last turn is entered on the four phones,
the last round's advisor is settled on Ana's phone (Ben's page says it is Ana's), and
every page shows game 2's final table, the TV's again large and whole.
Screenshots: tests/artifacts/evening-*.png."""
from __future__ import annotations

import base64
import copy
import json
import os
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import store_of, wait_actions, wait_taking_entries
from companion.ats.game import Game
from companion.ats.scoring import SECRET
from recordkit import fixture_card, fixture_objective
from test_lay_browser import number, put

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]
POST = "Fixture: four post"            # military, MAX 2
PLOT = "Fixture: four plot"            # business
BONUS = "Fixture: four end bonus"      # diplomatic, a yellow box: +4 at the end
RACE_BONUS = "Fixture: race end +2"    # a race tile scoring +2 at the end
RACE_PLAIN = "Fixture: race plain"     # race tiles without scoring
RACE_QUIET = "Fixture: race quiet"
MILITARY = "Fixture: most military"
CREDITS = "Fixture: most credits"
REACTORS = "Fixture: most reactors"
FEWEST = "Fixture: least reactors"
BUSINESS = "Fixture: most business"    # Cy's secret objective (not face up)
OBJECTIVES = [MILITARY, CREDITS, REACTORS, FEWEST]       # B 3: as many as the players
RACES = {"Ana": RACE_BONUS, "Ben": RACE_PLAIN, "Cy": "Qualeen", "Dee": RACE_QUIET}


def _race(name: str, abilities: list) -> dict:
    return {"name": name, "category": "race", "types": None, "cost": None, "energy": None,
            "vp": None, "max": None, "abilities": abilities,
            "notes": "test fixture: invented race, not a real tile"}


CARDS = [
    fixture_card(POST, types=["military"], cost=1, energy=0, vp=2, max=2),
    fixture_card(PLOT, types=["business"], cost=1, energy=0, vp=1),
    fixture_card(BONUS, types=["diplomatic"], cost=2, energy=1, vp=0, max=1,
                 abilities=[{"when": "end", "flat": 4, "note": "test fixture: +4 at the end"}]),
    _race(RACE_BONUS, [{"when": "end", "flat": 2, "note": "test fixture: +2 at the end"}]),
    _race(RACE_PLAIN, []),
    _race(RACE_QUIET, []),
    fixture_objective(MILITARY, vp=4, most={"per": "station_location", "types": ["military"]}),
    fixture_objective(CREDITS, vp=5, most={"per": "credit"}),
    fixture_objective(REACTORS, vp=3, most={"per": "reactor"}),
    fixture_objective(FEWEST, vp=2, least={"per": "reactor"}),
    fixture_objective(BUSINESS, vp=4, most={"per": "station_location", "types": ["business"]}),
]

#: what lies on the table, seat by seat: (cell, what, card or cubes), then credits, track VP
STATIONS = {
    "Ana": ([((0, 0), "Power Reactor", 0), ((0, 1), "Location", BONUS),
             ((0, 2), "Location", POST), ((1, 0), "Power Reactor", 0),
             ((-1, 0), "Location", PLOT)], 4, 40),
    "Ben": ([((0, 0), "Power Reactor", 1), ((0, 1), "Location", POST),
             ((0, -1), "Location", POST), ((1, 0), "Location", PLOT),
             ((1, 1), "Location", PLOT), ((-1, 0), "Power Reactor", 0)], 6, 42),
    "Cy": ([((0, 0), "Power Reactor", 2), ((0, 1), "Location", PLOT),
            ((0, 2), "Location", PLOT), ((1, 0), "Location", PLOT),
            ((-1, 0), "Power Reactor", 2)], 9, 30),
    "Dee": ([((0, 0), "Power Reactor", 0), ((0, 1), "Location", POST),
             ((0, 2), "Location", PLOT), ((1, 0), "Power Reactor", 2),
             ((1, 1), "Power Reactor", 0)], 2, 35),
}

# -- the final table, by hand (B 6) ---------------------------------------------------------
#: Ana: 40 on the track; "abilities in yellow boxes": the end bonus +4, and her race tile
#:   +2 at the end: +6; "1 VP for every Power Reactor that DOES NOT contain any Energy
#:   cubes": the Main Reactor (0 cubes) and [1, 0] (0 cubes): +2; "1 VP for every 3
#:   credits remaining": 4 credits, +1; no objective.  40 + 6 + 2 + 1 = 49.
#: Ben: 42; no yellow box; the Main Reactor keeps 1 cube, [-1, 0] is empty: +1; 6 credits:
#:   +2; most military (Ben 2 posts; Ana 1, Dee 1, Cy 0): +4.  42 + 1 + 2 + 4 = 49.
#: Cy (Qualeen): 30; both reactors hold 2 cubes: 0; 9 credits: +3; most credits (Cy 9;
#:   Ben 6, Ana 4, Dee 2): +5; the secret objective, most business (Cy 3 plots; Ben 2,
#:   Ana 1, Dee 1), only Cy may claim it: +4.  30 + 3 + 5 + 4 = 42.
#: Dee: 35; the Main Reactor (0 cubes) and [1, 1] (0 cubes) empty, [1, 0] holds 2: +2;
#:   2 credits: 0; most reactors (Dee 3; the others 2 each): +3.  35 + 2 + 3 = 40.
#: Least reactors: Ana, Ben and Cy tie on 2: "If 2 or more players are tied for any
#:   Objective, no bonus is given."
#: Ana and Ben tie on 49: "In case of a tie, the winner is the player with the most
#: locations in his Station (excluding any Power Reactors)": Ben 4 (2 posts, 2 plots),
#: Ana 3 (the end bonus, a post, a plot): Ben wins, Ana is second.
HAND = {
    "Ben": {"rank": 1, "total": 49, "locations": 4, "credits": 6,
            "breakdown": {"during_game": 42, "end_abilities": 0, "empty_reactors": 1,
                          "credits": 2, "objectives": 4}},
    "Ana": {"rank": 2, "total": 49, "locations": 3, "credits": 4,
            "breakdown": {"during_game": 40, "end_abilities": 6, "empty_reactors": 2,
                          "credits": 1, "objectives": 0}},
    "Cy": {"rank": 3, "total": 42, "locations": 3, "credits": 9,
           "breakdown": {"during_game": 30, "end_abilities": 0, "empty_reactors": 0,
                         "credits": 3, "objectives": 9}},
    "Dee": {"rank": 4, "total": 40, "locations": 2, "credits": 2,
            "breakdown": {"during_game": 35, "end_abilities": 0, "empty_reactors": 2,
                          "credits": 0, "objectives": 3}},
}
for _p, _h in HAND.items():          # the hand's sums add up
    assert _h["total"] == sum(_h["breakdown"].values()), _p

WAIT_MS = 30_000


def lay_out(page, player: str) -> None:
    """Every cell of ``player``'s station, then the credits and the track VP."""
    cells, credits, vp = STATIONS[player]
    for at, what, x in cells:
        if what == "Location":
            put(page, at, what, card=x)
        else:
            put(page, at, what, cubes=x)
    number(page, ".lay-credits", credits)
    number(page, ".lay-vp", vp)
    expect(page.locator(".lay-panel .lay-credits input")).to_have_value(str(credits))
    expect(page.locator(".lay-panel .lay-vp input")).to_have_value(str(vp))


def final_shown(page) -> dict:
    """{player: {"rank", "total"}} as the page's final table holds it (the wide table,
    hidden on a phone) and as its stacked cards show it (what a phone shows)."""
    return page.evaluate("""() => {
        const table = document.querySelector('.final-wide table.final-table');
        const heads = [...table.querySelectorAll('thead th')].map(t => t.textContent.trim());
        const wide = {};
        for (const tr of table.querySelectorAll('tbody tr')) {
            const td = [...tr.querySelectorAll('td')].map(t => t.textContent.trim());
            wide[td[heads.indexOf('player')]] = {rank: td[heads.indexOf('rank')],
                                                 total: td[heads.indexOf('total')]};
        }
        const cards = {};
        for (const c of document.querySelectorAll('.final-cards .final-card')) {
            const dt = [...c.querySelectorAll('dt')].map(t => t.textContent.trim());
            const dd = [...c.querySelectorAll('dd')].map(t => t.textContent.trim());
            cards[c.querySelector('b').textContent.trim()] = {
                rank: dd[dt.indexOf('rank')], total: dd[dt.indexOf('total')],
                shown: c.offsetParent !== null};
        }
        return {wide, cards, order: [...table.querySelectorAll('tbody tr')]
                .map(tr => tr.querySelector('td').textContent.trim())};
    }""")


@pytest.mark.dashboard_config
def test_the_first_evening_four_phones_and_the_tv_lay_a_game_then_play_the_next(
        voila_server, phones, open_pages, tmp_path):
    """Game 1: the stations laid on their own phones, the final table on every page (the
    Qualeen's secret revealed), the TV's totals large and whole; game 2 (issue 50's done
    when): the host's *Next game with the same players*, followed by every phone and the
    TV without a reload or a new scan, played to its end, its last advisor settled on the
    phone of the player it leans to."""
    g = Game({"players": PLAYERS, "races": RACES, "objectives": OBJECTIVES,
              "options": {"laid": "final"}}, cards=copy.deepcopy(CARDS))
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="four laid at the table")
    s.close()
    url = voila_server.url
    seats = {p: phones(f"{url}?seat={p}&game={gid}") for p in PLAYERS}
    table = phones(f"{url}?view=table&game={gid}")
    for p, page in seats.items():
        wait_taking_entries(page)
        expect(page.locator(".lay-panel")).to_be_visible(timeout=60_000)
        expect(page.locator(".turn-entry")).to_be_hidden()
        assert page.locator(".lay-player select").is_hidden()     # a seat lays its own
    expect(table.locator(".lay-panel")).to_have_count(0)
    expect(table.locator(".lay-title")).to_contain_text("Still to lay: Ana, Ben, Cy, Dee")

    # -- Cy's page asks which objective card Cy drew (B FAQ, Qualeen); no other page ------
    cy = seats["Cy"]
    ask = cy.locator(".secret-ask")
    ask.wait_for(state="visible", timeout=WAIT_MS)
    assert "which objective card did you draw?" in ask.inner_text()
    for p in ("Ana", "Ben", "Dee"):
        assert seats[p].locator(".secret-ask").count() == 0
    assert table.locator(".secret-ask").count() == 0
    cy.locator(".secret-ask-which select").select_option(BUSINESS)
    cy.locator(".secret-ask-save").click()
    expect(cy.locator(".secret-mine")).to_contain_text(f"Your secret objective: {BUSINESS}",
                                                       timeout=WAIT_MS)
    expect(cy.locator(".secret-ask")).to_have_count(0)
    s = store_of(voila_server)
    assert s.load(gid)["manual"] == [{"source": SECRET, "player": "Cy", "note": BUSINESS,
                                      "vp": 0}]
    assert s.load(gid)["actions"] == []
    s.close()
    screenshot(cy, "lay4-01-cy-secret-saved")

    # -- Ana, Ben and Cy lay their stations, each on their own phone --------------------
    for p in ("Ana", "Ben", "Cy"):
        lay_out(seats[p], p)
    # the three press Lay at the same moment: a page that had not seen the others' lays
    # records its own once it has replayed the store (issue 39: the second of two taps
    # a second apart was refused, "Not recorded: this game was changed on another page")
    for p in ("Ana", "Ben", "Cy"):
        seats[p].locator(".lay-station").click()
    for p in ("Ana", "Ben", "Cy"):
        expect(seats[p].locator(".lay-title")).to_contain_text("Your station is laid",
                                                               timeout=WAIT_MS)
    assert sorted(a["player"] for a in wait_actions(voila_server, gid, 3)) == ["Ana", "Ben",
                                                                              "Cy"]

    # -- Dee: the post at [0, 1] taken away leaves the plot at [0, 2] unconnected --------
    dee = seats["Dee"]
    # the three laid at once: in the record's order, whichever came first
    expect(dee.locator(".lay-title")).to_contain_text("Still to lay: Dee;", timeout=WAIT_MS)
    lay_out(dee, "Dee")
    put(dee, (0, 1), "Nothing")
    dee.locator(".lay-station").click()
    msg = dee.locator(".lay-message")
    expect(msg).to_contain_text("not connected to the Main Reactor")
    expect(msg).to_contain_text(f"'{PLOT}' at [0, 2]")
    said = msg.inner_text().strip()
    assert "\n" not in said, said                          # one line, beside the button
    box, button = msg.bounding_box(), dee.locator(".lay-station").bounding_box()
    assert box and button and 0 <= button["y"] - (box["y"] + box["height"]) < 40, (box, button)
    screenshot(dee, "lay4-02-dee-refused")
    assert len(wait_actions(voila_server, gid, 3)) == 3    # nothing recorded
    expect(dee.locator(".lay-title")).to_contain_text("Still to lay: Dee")
    # her draft is kept: the post put back, and it is laid
    put(dee, (0, 1), "Location", card=POST)
    expect(dee.locator(".lay-panel .lay-credits input")).to_have_value("2")
    expect(dee.locator(".lay-panel .lay-vp input")).to_have_value("35")
    dee.locator(".lay-station").click()
    acts = wait_actions(voila_server, gid, 4)
    # the first three in whichever order their taps reached the store, Dee's last
    assert sorted((a["do"], a["player"]) for a in acts[:3]) == [("lay", p) for p in PLAYERS[:3]]
    assert (acts[3]["do"], acts[3]["player"]) == ("lay", "Dee")

    # -- every page: the final table --------------------------------------------------
    pages = {**seats, "table": table}
    for name, page in pages.items():
        expect(page.locator(".final-winner")).to_contain_text(
            "Ben wins: tied on VP, decided by the most locations without reactors (4)",
            timeout=60_000)
        expect(page.locator(".final-tiebreak")).to_contain_text(
            "broken by the most locations in the station (reactors not counted)")
    want = {p: {"rank": str(h["rank"]), "total": str(h["total"])} for p, h in HAND.items()}
    for name, page in pages.items():
        shown = final_shown(page)
        assert shown["wide"] == want, (name, shown)
        assert shown["order"] == ["Ben", "Ana", "Cy", "Dee"], (name, shown)
        assert {p: {"rank": c["rank"], "total": c["total"]}
                for p, c in shown["cards"].items()} == want, (name, shown)
        assert all(c["shown"] for c in shown["cards"].values()), (name, shown)  # 390 px
    # the final table reveals Cy's secret objective, on every page
    for page in pages.values():
        page.locator(".final-box summary, details summary").last.click()
        expect(page.locator(".final-lines")).to_contain_text(
            f"{BUSINESS} (secret objective of Cy)")
    # "Every VP with its source" open on a phone (390 px): the page itself does not scroll
    # sideways; the sources' long rows swipe in their own box (or fit)
    ana = seats["Ana"]
    expect(ana.locator(".final-sources")).to_be_visible()
    wide = ana.evaluate("""() => {
        const s = document.scrollingElement, cells = document.querySelector('#rendered_cells');
        const box = document.querySelector('.final-sources');
        box.scrollLeft = 60;
        return {page: s.scrollWidth, inner: window.innerWidth,
                cells: cells ? cells.scrollWidth - cells.clientWidth : 0,
                box: box.scrollWidth, client: box.clientWidth, left: box.scrollLeft};
    }""")
    assert wide["inner"] == 390 and wide["page"] <= wide["inner"] + 1, wide
    assert wide["cells"] <= 1, wide                     # Voila's own scrolling element too
    assert wide["box"] <= wide["client"] + 1 or wide["left"] > 0, wide   # swipes, or fits
    screenshot(ana, "lay4-04-ana-sources-open")

    # -- = `python -m companion score --json` of the record exported from the page ------
    href = seats["Ana"].locator("a.export-json").first.get_attribute("href")
    exported = json.loads(base64.b64decode(href.split(",", 1)[1]))
    s = store_of(voila_server)
    stored = s.load(gid)
    s.close()
    assert exported["actions"] == stored["actions"]
    assert exported["manual"] == stored["manual"]
    assert exported["setup"]["races"] == RACES
    assert exported["setup"]["objectives"] == OBJECTIVES
    path = tmp_path / "laid-four.json"
    path.write_text(json.dumps(exported))
    env = {**os.environ, "COMPANION_HOME": str(tmp_path / "home")}
    out = subprocess.run([sys.executable, "-m", "companion", "score", str(path), "--json"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["final"] and cli["winners"] == ["Ben"] and cli["decided_by"] == "locations"
    assert {r["player"]: {"rank": str(r["rank"]), "total": str(r["total"])}
            for r in cli["players"]} == want
    assert {r["player"]: {k: r[k] for k in ("rank", "total", "locations", "credits",
                                            "breakdown")}
            for r in cli["players"]} == HAND

    for name, page in pages.items():
        screenshot(page, f"lay4-03-{name.lower()}-final")
    tv_end_large_and_whole(table, want={p: int(h["total"]) for p, h in HAND.items()},
                           winner="Ben", name="game1")
    the_next_game(voila_server, open_pages, seats, table, gid, tmp_path)


# -- the TV at the end (issue 50: "the winner and the final totals first, in large type
# (>= 32 px at 1920x1080), nothing cut at 1366x768") ------------------------------------
TV_SIZES = [(1920, 1080), (1366, 768)]


def tv_end_large_and_whole(tv, *, want: dict, winner: str, name: str) -> None:
    from test_tv_end_browser import geometry, visible
    for width, height in TV_SIZES:
        tv.set_viewport_size({"width": width, "height": height})
        expect(tv.locator(".tv-winner >> visible=true")).to_contain_text(f"{winner} ",
                                                                         timeout=WAIT_MS)
        tv.wait_for_timeout(800)
        shown = {r.get_attribute("data-player"): int(r.locator("td.tv-total").inner_text())
                 for r in tv.locator("tr.tv-final-row >> visible=true").all()}
        assert shown == want, (name, width, shown, want)
        got = geometry(tv)
        screenshot(tv, f"evening-{name}-tv-{width}")
        assert got["total_px"] >= 32 and got["winner_px"] >= 32, (name, got)
        assert got["sideways"] <= 0, (name, got)
        for b in got["parts"]:
            assert b["width"] > 0 and b["left"] >= -1 and b["top"] >= -1, (name, width, b)
            assert b["right"] <= width + 1 and b["bottom"] <= height + 1, (name, width, b)
        assert not visible(tv, ".game-tabs .lm-TabBar"), name
        assert "Resumed" not in tv.locator(".companion-root").inner_text()
    tv.set_viewport_size({"width": 390, "height": 844})


# -- game 2: the next game with the same players -----------------------------------------
#: Revival's Influence tiles (R 4), one between each two neighbours: the first lists
#: "reactor", the others "build military" (a fixture's tiles: nobody builds here, so
#: only the first leans, to Ana, who builds the game's only reactor)
TILES = [("Fixture tile AB", "reactor"), ("Fixture tile BC", "build military"),
         ("Fixture tile CD", "build military"), ("Fixture tile DA", "build military")]


def _play_to_the_last_turn(server, gid: str) -> Game:
    """Every turn but the last of year 4, as the laptop enters them (Ana builds a reactor
    in year 1, every other action a discard; each round's advisor declined), written to
    the store at once: the pages see another device's entries.  The turn-by-turn entry
    of each action is tested elsewhere (test_play, test_four_pages); here what matters
    is the end.  Returns the shadow game."""
    import time as _time
    s = store_of(server)
    try:
        shadow = Game.from_record(s.load(gid), trusted=True)
        n0 = len(shadow.actions)
        first = {"player": "Ana", "do": "reactor", "card": "Garden", "at": [0, 1]}
        last = shadow.setup.turns_in_year(4)
        while not (shadow.state.year == 4 and shadow.state.turn == last):
            for tile, who in shadow.unsettled_advisors().items():
                shadow.push({"do": "advisor", "tile": tile, "player": who, "take": "decline"})
            for p in list(shadow.state.waiting):
                if first is not None and p == "Ana":
                    shadow.push(first)
                    first = None
                else:
                    shadow.push({"player": p, "do": "discard", "card": "Garden"})
        new = shadow.to_record()["actions"][n0:]
        with s.transaction() as c:
            for i, a in enumerate(new, start=n0):
                c.execute("INSERT INTO actions(game_id, idx, action) VALUES (?,?,?)",
                          (gid, i, json.dumps(a)))
            c.execute("UPDATE games SET updated=?, rev=rev+? WHERE id=?",
                      (_time.time(), len(new), gid))
    finally:
        s.close()
    return shadow


def the_next_game(server, open_pages, seats: dict, table, g1: str, tmp_path) -> None:
    from dashboard_driver import ats_enter, ats_shows, kernel_id, live_line
    from test_capability_roles import wait_what
    kernels = {name: kernel_id(pg) for name, pg in {**seats, "table": table}.items()}
    urls = {name: pg.url for name, pg in {**seats, "table": table}.items()}
    host = open_pages(f"{server.url}?game={g1}", viewport={"width": 1280, "height": 900})
    nxt = host.locator(".next-game-same")
    nxt.wait_for(state="visible", timeout=60_000)
    nxt.click()
    host.locator(".start-game").wait_for(state="visible", timeout=WAIT_MS)
    for i, name in enumerate(PLAYERS, 1):                     # the same players, kept
        expect(host.locator(f".player-name-{i} input")).to_have_value(name)
    from dashboard_driver import open_setup_options
    open_setup_options(host)
    host.locator(".setup-advisors input").check()
    for i, (name, action) in enumerate(TILES, 1):
        row = host.locator(f".advisor-tile-{i}")
        row.wait_for(state="visible")
        row.locator(".advisor-tile-name input").fill(name)
        row.locator(".advisor-tile-actions select").select_option(label=action)
        row.locator(".advisor-tile-slots input").fill("1")
    host.click(".start-game")
    host.locator(".scoreboard tr.score-row").first.wait_for(state="visible", timeout=WAIT_MS)
    s = store_of(server)
    g2 = s.games()[0]["id"]
    s.close()
    assert g2 != g1
    # every phone and the TV follow by themselves: no reload (the same kernel, the same
    # address), no new link: 0 rescans
    for p, page in seats.items():
        got = wait_what(page, {"role": "seat", "seat": p, "game": g2}, timeout=60)
        assert got["game"] == g2 and got["seat"] == p, (p, got)
    got = wait_what(table, {"role": "table", "game": g2}, timeout=60)
    assert got["game"] == g2, got
    for name, page in {**seats, "table": table}.items():
        assert kernel_id(page) == kernels[name], f"{name}'s page reloaded"
        assert page.url.split("?")[0] == urls[name].split("?")[0], (name, page.url)
    screenshot(seats["Ana"], "evening-g2-01-ana-followed")

    # -- played to the last turn of year 4, then the last turn on the phones ----------------
    shadow = _play_to_the_last_turn(server, g2)
    for p, page in seats.items():
        ats_shows(page, shadow, timeout=60_000)
    for p in PLAYERS:
        ats_enter(seats[p], shadow, p, "discard")
    assert shadow.finished and shadow.unsettled_advisors() == {"Fixture tile AB": "Ana"}
    # the last round's advisor (R 4: "At the end of every round ... If an Advisor is
    # towards one of the 2 players, that player gets the special bonus listed on the
    # Advisor card."; "he may announce it and gain 1 VP instead"): on Ana's phone
    ben = seats["Ben"]
    expect(ben.locator(".companion-root")).to_contain_text(
        "'Fixture tile AB' leans to Ana: Ana settles it on Ana's page", timeout=WAIT_MS)
    assert ben.locator(".advisor-decline >> visible=true").count() == 0
    ana = seats["Ana"]
    decline = ana.locator(".advisor-decline >> visible=true")
    decline.wait_for(state="visible", timeout=WAIT_MS)
    screenshot(ana, "evening-g2-02-ana-last-advisor")
    decline.click()
    acts = wait_actions(server, g2, len(shadow.actions) + 1)
    assert {k: acts[-1][k] for k in ("do", "tile", "player", "take")} == {
        "do": "advisor", "tile": "Fixture tile AB", "player": "Ana", "take": "decline"}
    shadow.push({"do": "advisor", "tile": "Fixture tile AB", "player": "Ana",
                 "take": "decline"})
    assert "This game is over" not in ana.locator(".companion-root").inner_text()
    result = shadow.score()
    totals = {r["player"]: int(r["total"]) for r in result.rows}
    for name, page in {**seats, "table": table, "host": host}.items():
        expect(page.locator(".final-winner")).to_contain_text(result.winners[0],
                                                              timeout=60_000)
    for name, page in {**seats, "table": table}.items():
        screenshot(page, f"evening-g2-03-{name.lower()}-final")
    tv_end_large_and_whole(table, want=totals, winner=result.winners[0], name="game2")
    for name, page in {**seats, "table": table}.items():
        assert kernel_id(page) == kernels[name], f"{name}'s page reloaded"
    # the record exported from Dee's page scores the same on a machine with an empty
    # data folder (`python -m companion score`)
    href = seats["Dee"].locator("a.export-json").first.get_attribute("href")
    exported = json.loads(base64.b64decode(href.split(",", 1)[1]))
    assert len(exported["actions"]) == len(shadow.actions)
    path = tmp_path / "evening-g2.json"
    path.write_text(json.dumps(exported))
    empty = tmp_path / "empty-home-2"
    empty.mkdir()
    out = subprocess.run([sys.executable, "-m", "companion", "score", str(path), "--json"],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "COMPANION_HOME": str(empty)})
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["final"] and cli["winners"] == result.winners
    assert {r["player"]: int(r["total"]) for r in cli["players"]} == totals

