"""Issue 39, the laying panel (companion/ui/sse_lay.py) with the variants, on the page (no
browser): the Unexplored System tiles turned face-up (under a City, or alone), the Nordinn
conquest markers, Open Borders' Cities received and paid, and a damaged ship in a game
under way; each asked only where it applies, the draft kept in the store with them, the
engine's refusal said beside the button.

The map and the base position are tests/test_sse_lay_position.py's (made-up TEST tiles;
with the Unexplored variant its empty systems (1,-1), (1,2), (2,1), (5,1), (6,4), (7,2) and
(9,3) carry face-down tiles).  Every final table is compared with companion.sse.scoring's,
computed from the same entries pushed to an SseGame directly, and, where a sentence of the
rulebook gives a number, with that number by hand.  The sentences relied on (S = the
rulebook's sections):

- S Unexplored Systems: "To setup, shuffle the Unexplored Systems face down and put one
  tile without looking at it on each of the Empty Systems on the board."  "You may only
  move your ship into these systems and colonize them using Cities."  Planetary Systems:
  "Score points as when you colonize a normal Planetary System (1 per planet)."  Hollana
  Federation: "colonize it with a City. Score 2. At the end of the game, the player that
  controls the most systems adjacent to the Hollana Federation system scores additional
  3."  Tennar Union: "colonize it with a City. Score 2. At the end of the game, each
  player that controls at least one system adjacent to the Tennar Union system scores
  additional 2."  Asteroid Field: "When you enter and reveal this system, Damage your
  ship. From now on, no other ships can enter or pass through this system."  Nordinn
  Empire: "choose one of them to destroy (return the City back to your reserves)"; "If
  you destroy an adjacent City this way, place put the Nordinn Empire conquest marker on
  the system."
- S Open Borders: "you may pay him one of your unused Cities in your reserves to pass (the
  opponent puts the City in front of him) ... At the end of the game, players score 2 for
  each City that they got from their opponents during the game."
- S Damaged Ships: "When a ship gets damaged, simply turn it horizontally on the board."
  "Damaged Ships have limited movement of 2 systems in any one direction during a turn".
"""
from __future__ import annotations

import copy
import html
import re

from companion.sse import SseGame
from companion.table import drafts
from companion.table.store import Store
from companion.ui.sse_board import hex_class
from companion.ui.sse_lay_parts import Draft

from test_sse_lay_page import panel, sse_app, stored
from test_sse_lay_position import HAND, LAYS, NOW, P, PLAYERS, TS, setup
from widgetkit import one, said, shown

UNEXPLORED = {"variants": {"unexplored": True}}
OPEN_BORDERS = {"variants": {"open_borders": True}}
DAMAGED = {"variants": {"damaged_ships": True}}


def new_game(store, laid="final", **extra) -> str:
    return store.create(SseGame(setup(laid, **extra)).to_record(), title="laid")


def tap(p, what: str, at) -> None:
    one(p, "sse-laid-what").value = what
    one(one(p, "sse-laid-board"), hex_class(tuple(at))).click()


def hex_label(p, at) -> str:
    return one(one(p, "sse-laid-board"), hex_class(tuple(at))).description


def beside(p) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", one(p, "sse-laid-message").value))


def choose(p, player: str) -> None:
    who = one(p, "sse-laid-player")
    if who.value != player:
        who.value = player


def engine(entries, laid="final", **extra) -> SseGame:
    """The same entries pushed to an SseGame directly, without the page."""
    g = SseGame(setup(laid, **extra))
    for a in entries:
        g.push(copy.deepcopy(a))
    return g


def norm(a: dict) -> dict:
    """An entry with its lists in one order (the page sorts them by system)."""
    return {k: sorted(v, key=lambda x: x["at"] if isinstance(x, dict) else x)
            if k in ("pieces", "revealed", "conquered", "ships") else v for k, v in a.items()}


def same_entries(got: list[dict], want: list[dict], laid="final", **extra) -> None:
    """The entries recorded are those pushed to the engine directly (its normal form)."""
    assert [norm(a) for a in got] == [norm(a) for a in
                                      engine(want, laid, **extra).to_record()["actions"]]


# the final position with the Unexplored tiles: Ana turned up an Asteroid Field at (1,-1)
# and a Nordinn Empire at (1,2), which destroyed her City at (2,2) (its planet stays on her
# track: 7 = 6 on the map + 1); Ben colonised (2,1) revealing the Tennar Union ("Score 2"),
# Cleo (6,4) revealing the Hollana Federation ("Score 2") and (7,2) a Planetary System tile
# of 2 planets ("1 per planet")
ANA = {**LAYS[0], "vp": 7, "revealed": [{"at": [1, -1], "effect": "asteroid_field"},
                                        {"at": [1, 2], "effect": "nordinn_empire"}],
       "conquered": [[2, 2]]}
BEN = {**LAYS[1], "vp": 7,
       "pieces": [P((3, 2)), P((5, 2)), P((3, 1)), P((2, 1), reveal={"effect": "tennar_union"}),
                  P((4, 3)), P((5, 3))]}
CLEO = {**LAYS[2], "vp": 11,
        "pieces": [*LAYS[2]["pieces"], P((6, 4), reveal={"effect": "hollana_federation"}),
                   P((7, 2), reveal={"effect": "planetary", "planets": 2})]}


def test_the_unexplored_tiles_and_a_conquest_marker_laid_by_taps(store):
    gid = new_game(store, **UNEXPLORED)
    app = sse_app(store)
    app.sse.open_game(gid)
    p = panel(app)
    what = dict((v, k) for k, v in one(p, "sse-laid-what").options)
    assert {"alone", "conquered"} <= set(what) and "damaged" not in what   # a final game
    tile = one(p, "sse-laid-tile")
    assert not shown(tile) and not shown(one(p, "sse-laid-counts"))
    # Ana: her pieces, two tiles face-up with no piece, the marker on (2, 2)
    for piece in ANA["pieces"]:
        tap(p, piece["piece"], piece["at"])
    assert not shown(tile)                        # no Unexplored System tapped
    tap(p, "alone", (1, -1))
    assert shown(tile) and tile.description == "Tile at [1, -1]" and tile.value == ""
    tile.value = "asteroid_field"
    tap(p, "alone", (1, 2))
    tile.value = "nordinn_empire"
    tap(p, "conquered", (2, 2))
    assert not shown(tile)
    assert hex_label(p, (1, 2)) == "NE up" and hex_label(p, (1, -1)) == "AF up"
    assert hex_label(p, (2, 2)).startswith("✖")
    assert "<b>2</b> tile(s) face-up with no piece, <b>1</b> conquest marker(s)" in one(
        p, "sse-laid-count").value
    one(p, "sse-laid-vp").value = 7
    one(p, "sse-laid-go").click()
    assert [a["player"] for a in stored(store, gid)] == ["Ana"], said(app)
    # on Ben's turn the board shows Ana's tiles and marker
    assert hex_label(p, (1, 2)) == "NE" and hex_label(p, (2, 2)).startswith("✖")
    assert "Nordinn conquest marker" in one(one(p, "sse-laid-board"), hex_class((2, 2))).tooltip
    # Ben: a City on (2, 1), its tile asked at once; not chosen yet, other Cities tapped
    for piece in BEN["pieces"]:
        tap(p, "city", piece["at"])
        if piece["at"] == [2, 1]:
            assert shown(tile) and tile.description == "Tile at [2, 1]" and tile.value == ""
    assert not shown(tile) and hex_label(p, (2, 1)) == "C ?"
    tap(p, "city", (2, 1))                       # tapped again: its tile asked again ...
    assert shown(tile) and tile.description == "Tile at [2, 1]" and hex_label(p, (2, 1)) == "C ?"
    tap(p, "city", (2, 1))                       # ... and once more: taken away
    assert not shown(tile) and hex_label(p, (2, 1)) == "?"
    tap(p, "city", (2, 1))
    assert shown(tile) and tile.description == "Tile at [2, 1]"
    tile.value = "tennar_union"
    assert hex_label(p, (2, 1)) == "C TU"
    one(p, "sse-laid-vp").value = 7
    one(p, "sse-laid-go").click()
    # Cleo: the Hollana Federation and a Planetary System tile of 2 planets
    for piece in CLEO["pieces"]:
        tap(p, piece["piece"], piece["at"])
        if "reveal" in piece:
            assert shown(tile) and tile.description == f"Tile at [{piece['at'][0]}, " \
                f"{piece['at'][1]}]"
            tile.value = ("planetary:2" if piece["reveal"]["effect"] == "planetary"
                          else piece["reveal"]["effect"])
    assert hex_label(p, (7, 2)) == "C ●●"
    one(p, "sse-laid-vp").value = 11
    one(p, "sse-laid-go").click()
    g = app.sse.game
    assert g.state.finished, said(app)
    same_entries(stored(store, gid), [ANA, BEN, CLEO], **UNEXPLORED)
    direct = engine([ANA, BEN, CLEO], **UNEXPLORED)
    assert g.score().to_json() == direct.score().to_json()
    rows = {r["player"]: r["breakdown"] for r in g.score().to_json()["players"]}
    # by hand: "Score 2" for the Tennar Union (Ben) and the Hollana Federation (Cleo);
    # the Tennar Union's neighbours (3,1) Ben's, (1,1), (2,0), (3,0) Ana's: "each player
    # that controls at least one system adjacent ... scores additional 2"; the Hollana
    # Federation's (7,4), (5,4), (6,3), (7,3) are Cleo's: "the player that controls the
    # most systems adjacent ... scores additional 3"
    assert (rows["Ben"]["exploration"], rows["Cleo"]["exploration"]) == (2, 2)
    assert (rows["Ana"]["tennar"], rows["Ben"]["tennar"], rows["Cleo"]["tennar"]) == (2, 2, 0)
    assert (rows["Cleo"]["hollana"], rows["Ana"]["hollana"], rows["Ben"]["hollana"]) == (3, 0, 0)
    # Cleo's planets: the base position's 7, and 2 from the tile ("1 per planet")
    assert rows["Cleo"]["planets"] == HAND["Cleo"]["planets"] + 2
    assert (1, 2) in g.state.blocked and (2, 2) in g.state.conquered


def test_a_refusal_of_the_engine_is_said_beside_the_button_and_nothing_recorded(store):
    gid = new_game(store, **UNEXPLORED)
    app = sse_app(store)
    app.sse.open_game(gid)
    p = panel(app)
    tile = one(p, "sse-laid-tile")
    # a City on an Unexplored System, no tile chosen: the engine asks for it
    tap(p, "city", (1, -1))
    one(p, "sse-laid-go").click()
    assert "Not laid" in beside(p) and "reveal" in beside(p) and "[1, -1]" in beside(p)
    assert "give the tile turned face-up" in beside(p)
    assert stored(store, gid) == []
    # a Trade Station on it, the Planetary tile chosen: "You may only ... colonize them
    # using Cities."
    tap(p, TS, (1, -1))
    assert shown(tile)
    tile.value = "planetary:1"
    one(p, "sse-laid-go").click()
    assert "unexplored-city" in beside(p) and "colonize them using Cities" in beside(p)
    assert "unexplored-city" in said(app)
    assert stored(store, gid) == [] and app.sse.game.state.laid == []
    # the draft stayed: a City now, laid
    tap(p, "city", (1, -1))
    assert hex_label(p, (1, -1)) == "C ●"
    one(p, "sse-laid-vp").value = 1
    one(p, "sse-laid-go").click()
    assert stored(store, gid)[0]["pieces"] == [
        {"at": [1, -1], "piece": "city", "reveal": {"effect": "planetary", "planets": 1}}]


def test_open_borders_cities_received_and_paid_change_the_final_score(store):
    # none asked without the variant
    plain = sse_app(Store(store.path))
    plain.sse.open_game(new_game(store))
    p = panel(plain)
    assert not shown(one(p, "sse-laid-counts"))
    assert "alone" not in dict((v, k) for k, v in one(p, "sse-laid-what").options)
    gid = new_game(store, **OPEN_BORDERS)
    app = sse_app(store)
    app.sse.open_game(gid)
    p = panel(app)
    assert shown(one(p, "sse-laid-counts"))
    want = [{**LAYS[0], "received": 1, "paid": 0}, {**LAYS[1], "received": 0, "paid": 1},
            {**LAYS[2], "received": 0, "paid": 0}]
    for entry in want:
        choose(p, entry["player"])
        for piece in entry["pieces"]:
            tap(p, piece["piece"], piece["at"])
        one(p, "sse-laid-vp").value = entry["vp"]
        one(p, "sse-laid-received").value = entry["received"]
        one(p, "sse-laid-paid").value = entry["paid"]
        one(p, "sse-laid-go").click()
    g = app.sse.game
    assert g.state.finished, said(app)
    assert [{k: a[k] for k in ("player", "received", "paid")} for a in stored(store, gid)] == [
        {k: a[k] for k in ("player", "received", "paid")} for a in want]
    direct = engine(want, **OPEN_BORDERS)
    assert g.score().to_json() == direct.score().to_json()
    out = {r["player"]: r for r in g.score().to_json()["players"]}
    # "players score 2 for each City that they got from their opponents": Ana got 1
    assert out["Ana"]["breakdown"]["open_borders"] == 2
    assert out["Ana"]["total"] == sum(HAND["Ana"].values()) + 2
    assert out["Ben"]["breakdown"]["open_borders"] == 0
    # Ben's City paid left his reserve: 16 - 5 on the map - 1 paid
    assert out["Ben"]["cities_left"] == 10


def test_a_game_under_way_with_a_damaged_ship(store):
    gid = new_game(store, "now", **DAMAGED)
    pages = {}
    want = [{**NOW[0], "next": False, "ships": [{"at": [0, 0]}, {"at": [1, 0]},
                                                {"at": [2, 0], "damaged": True}]},
            NOW[1], {**NOW[2], "next": False}]
    for entry in want:
        page = sse_app(Store(store.path), f"game={gid}&seat={entry['player']}")
        pages[entry["player"]] = page
        p = panel(page)
        assert "damaged" in dict((v, k) for k, v in one(p, "sse-laid-what").options)
        for piece in entry["pieces"]:
            tap(p, piece["piece"], piece["at"])
        for ship in entry["ships"]:
            tap(p, "damaged" if ship.get("damaged") else "ship", ship["at"])
        one(p, "sse-laid-vp").value = entry["vp"]
        one(p, "sse-laid-next").value = bool(entry.get("next"))
        if entry["player"] == "Ana":
            assert hex_label(p, (2, 0)).startswith("△ ")        # turned horizontally
            assert "(1 damaged)" in one(p, "sse-laid-count").value
            # a damaged ship tapped with Damaged again: repaired; again: damaged
            tap(p, "damaged", (2, 0))
            assert hex_label(p, (2, 0)).startswith("▲ ")
            tap(p, "damaged", (2, 0))
        one(p, "sse-laid-go").click()
    recorded = [a for a in store.load(gid)["actions"] if a["do"] == "lay"]
    assert len(recorded) == 3, said(pages["Cleo"])
    same_entries(recorded, want, "now", **DAMAGED)
    assert recorded[0]["ships"][-1] == {"at": [2, 0], "damaged": True}
    host = sse_app(Store(store.path), f"game={gid}")
    g = host.sse.game
    ana = g.state.players["Ana"].ships
    assert [(s.at, s.damaged) for s in ana] == [((0, 0), False), ((1, 0), False), ((2, 0), True)]
    assert not g.state.finished and g.current == "Ben"
    # "Damaged Ships have limited movement of 2 systems in any one direction": the
    # engine's moves of Ana's damaged ship reach no system 3 away
    from companion.sse.hexmap import distance
    moves = {tuple(m.to) for m in g.legal_moves("Ana", 2)}
    assert moves and all(distance((2, 0), h) <= 2 for h in moves), moves
    # not offered in a game under way without a variant that damages ships
    plain = sse_app(Store(store.path), f"game={new_game(store, 'now')}&seat=Ana")
    assert "damaged" not in dict((v, k) for k, v in one(panel(plain), "sse-laid-what").options)


def test_the_draft_with_the_new_fields_comes_back_after_a_reload(store):
    gid = new_game(store, **{"variants": {"unexplored": True, "open_borders": True}})
    page = sse_app(Store(store.path), f"game={gid}&seat=Ben")
    p = panel(page)
    tap(p, "city", (2, 1))
    one(p, "sse-laid-tile").value = "tennar_union"
    tap(p, "alone", (5, 1))
    one(p, "sse-laid-tile").value = "planetary:3"
    tap(p, "conquered", (6, 2))
    one(p, "sse-laid-received").value = 2
    one(p, "sse-laid-paid").value = 1
    kept = drafts.load(store, gid, "Ben", "lay")
    assert kept["tiles"] == [[[2, 1], {"effect": "tennar_union"}],
                             [[5, 1], {"effect": "planetary", "planets": 3}]]
    assert (kept["conquered"], kept["received"], kept["paid"]) == ([[6, 2]], 2, 1)
    again = sse_app(Store(store.path), f"game={gid}&seat=Ben")
    q = panel(again)
    assert hex_label(q, (2, 1)) == "C TU" and hex_label(q, (5, 1)) == "●●● up"
    assert hex_label(q, (6, 2)).startswith("✖")
    assert (one(q, "sse-laid-received").value, one(q, "sse-laid-paid").value) == (2, 1)
    # the entry made of it: the engine's shape
    a = Draft.from_json(kept).entry("Ben", open_borders=True)
    assert a == {"do": "lay", "player": "Ben", "vp": 0, "received": 2, "paid": 1,
                 "pieces": [{"at": [2, 1], "piece": "city", "reveal": {"effect": "tennar_union"}}],
                 "revealed": [{"at": [5, 1], "effect": "planetary", "planets": 3}],
                 "conquered": [[6, 2]]}
    # the ships of a game under way, damaged or not, round-trip too
    d = Draft()
    d.ship((0, 0), 3)
    d.ship((1, 0), 3, damaged=True)
    back = Draft.from_json(d.to_json())
    assert back.ships == [((0, 0), False), ((1, 0), True)]
    assert back.entry("Ana", now=True)["ships"] == [{"at": [0, 0]},
                                                   {"at": [1, 0], "damaged": True}]


def test_a_hostile_draft_is_read_without_error(store):
    gid = new_game(store, **{"variants": {"unexplored": True, "open_borders": True}})
    script = "<script>alert(1)</script>"
    drafts.save(store, gid, "Ana", "lay", {
        "pieces": [[[1, 0], script], [[1, 0.5], "city"], "x", [[2, 0], "city"]],
        "tiles": [[[1, -1], {"effect": script}], [[1, 2], {"effect": "planetary", "planets":
                                                          "<b>3</b>"}],
                  [[2, 1], {"effect": "tennar_union", "planets": 2}], [[5, 1], script],
                  [[9, 3], {"effect": "hollana_federation"}]],
        "conquered": [[2, 2], "x", [True, 1], [2, 2]],
        "ships": [[0, 0], [1], "x"], "damaged": script, "vp": "many",
        "received": -3, "paid": 10 ** 9, "next": "yes"})
    page = sse_app(Store(store.path), f"game={gid}&seat=Ana")
    p = panel(page)
    assert "Traceback" not in said(page) and shown(p)
    d = Draft.from_json(drafts.load(store, gid, "Ana", "lay"))
    assert d.pieces == {(2, 0): "city"}
    # a tile that does not read as one of the box is kept as a tile not chosen yet
    assert d.tiles == {(1, -1): {}, (1, 2): {}, (2, 1): {},
                       (9, 3): {"effect": "hollana_federation"}}
    assert d.conquered == [(2, 2)] and d.ships == [((0, 0), False)]
    assert (d.vp, d.received, d.paid, d.next) == (0, 0, 0, False)
    assert (one(p, "sse-laid-received").value, one(p, "sse-laid-paid").value) == (0, 0)
    for widget in (one(p, "sse-laid-count"), one(p, "sse-laid-title")):
        assert "<script>" not in widget.value
    assert all("<script>" not in b.description and "<script>" not in b.tooltip
               for b in one(p, "sse-laid-board").children)
    for garbage in (None, [], "x", {"pieces": "x", "tiles": {"a": 1}, "ships": {}}):
        assert Draft.from_json(garbage).entry("Ana") == {"do": "lay", "player": "Ana",
                                                        "pieces": [], "vp": 0}
