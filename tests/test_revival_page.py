"""Issue 21, the page (no browser): the Revival modules on a 2-name setup screen,
spaceships placed and removed by tapping the drawn station, the draw shown on the
setup screen, the Revival 2-player turn line, the play timer, the what-if explorer
and the Small Star Empires final table.  The browser path is
tests/browser/test_revival_two_players.py.

Cards with invented numbers are "Fixture: ..." entries of the record; no real
card's number is used."""
from __future__ import annotations


from companion.ats.game import Game
from companion.ui.app import App

SHIPYARD = {"name": "Fixture: shipyard", "types": ["military"], "cost": 1, "energy": 0, "vp": 1,
            "max": "none", "abilities": [{"when": "immediate", "spaceships": 1,
                                          "target": "other"}]}
PLAYERS = ["Ana", "Ben"]


def shown(widget) -> bool:
    return widget.layout.display != "none"


# ------------------------------------------------------- setup: 2 names keep the modules
def test_two_names_keep_the_revival_modules_on_the_setup_screen(store):
    # R 2.1 (2-player setup): "If you wish, you may add the Advisors in your game";
    # R 4: "In a 2 player game they are both placed somewhere between the 2 players."
    # R 3: "Revival introduces a brand new mechanic called Spaceships which is found in
    # some of the cards in the set." (the 2-player game is played with those cards)
    app = App(store)
    ms = app.ats.setup_part.mode_setup
    for name, box in zip(PLAYERS, app.ats.setup_part.name_boxes):
        box.value = name
    assert shown(ms.two_player)
    assert shown(ms.spaceships) and shown(ms.use_advisors) and shown(ms.all_in)
    assert not shown(ms.timing)                  # "Timing rules" are for 3+ players (R 5)
    ms.two_player.value = "revival"
    ms.spaceships.value = True
    ms.use_advisors.value = True
    assert len(ms.advisor_tiles) == 2                   # both tiles between the 2 players
    assert all(t["between"] == ("Ana", "Ben") for t in ms.advisor_tiles)
    # a third name and back: still shown (the only way found before the fix)
    app.ats.setup_part.name_boxes[2].value = "Cleo"
    app.ats.setup_part.name_boxes[2].value = ""
    assert shown(ms.spaceships) and shown(ms.use_advisors) and not shown(ms.timing)


# ------------------------------------------------------------ spaceships by tapping
def open_revival(store) -> App:
    game = Game({"players": PLAYERS, "options": {"two_player": "revival", "first_active": "Ana",
                                                 "spaceships": True, "reactor_supply": 8}},
                cards=[SHIPYARD])
    gid = store.create(game.to_record())
    app = App(store)
    app.ats.open_game(gid)
    return app


def ship_buttons(box, cls):
    out = []

    def walk(x):
        if cls in getattr(x, "_dom_classes", ()):
            out.append(x)
        for k in getattr(x, "children", ()):
            walk(k)
    walk(box)
    return out


def test_spaceships_are_placed_and_removed_by_tapping_the_drawn_station(store):
    app = open_revival(store)
    app.driver().choose(player="Ana", action="build", card=SHIPYARD["name"])
    app.driver().tap((0, 1))
    picker = ship_buttons(app.ats.extra, "ship-picker")
    assert len(picker) == 1
    # only Ben's station is drawn: the card's target is "other" (the engine's spots)
    assert ship_buttons(app.ats.extra, "ship-station-2") and not ship_buttons(app.ats.extra,
                                                                         "ship-station-1")
    spots = ship_buttons(app.ats.extra, "ship-spot")
    spec = app.ats.game.needs({"player": "Ana", "do": "build", "card": SHIPYARD["name"],
                           "at": [0, 1]})["spaceships"]
    assert len(spots) == len(spec["spots"]) > 0
    target = next(b for b in spots if "cell_r1_c0" in b._dom_classes)
    target.click()
    assert "ship-picked" in target._dom_classes
    other = next(b for b in spots if b is not target)
    other.click()                                # one spaceship only: refused, kept as it was
    assert "At most 1" in app.ats.entry_msg.value + app.status.value
    assert "ship-picked" not in other._dom_classes
    next(b for b in ship_buttons(app.ats.extra, "confirm-build")).click()
    assert app.ats.game.actions[-1]["spaceships"] == [{"player": "Ben", "at": [1, 0]}]
    assert app.ats.game.state.station("Ben").spaceships == {(1, 0)}
    # Ben removes it: the new action, by tapping the spaceship on his drawn station
    app.driver().choose(player="Ben", action="remove_spaceships", card="Garden")
    ships = ship_buttons(app.ats.extra, "ship-spot")
    assert [b for b in ships if "cell_r1_c0" in b._dom_classes] == ships and len(ships) == 1
    confirm = ship_buttons(app.ats.extra, "confirm-remove-ships")[0]
    confirm.click()                              # nothing tapped: a message, nothing sent
    assert len(app.ats.game.actions) == 1
    ships[0].click()
    assert "ship-picked" in ships[0]._dom_classes
    confirm.click()
    assert app.ats.game.actions[-1]["do"] == "remove_spaceships"
    assert app.ats.game.actions[-1]["cells"] == [[1, 0]]
    assert app.ats.game.state.station("Ben").spaceships == set()


# ------------------------------------------------------------ the draw on the setup screen
def test_the_draw_is_shown_on_the_setup_screen_and_in_the_race_lists(store):
    app = App(store)
    for name, box in zip(PLAYERS, app.ats.setup_part.name_boxes):
        box.value = name
    ms = app.ats.setup_part.mode_setup
    ms.seed.value = 12345
    assert ms.drawn_box.layout.display == "none"
    ms.draw()
    drawn = app.ats.setup_part.drawn
    assert "Drawn with seed 12345" in ms.drawn_box.value and ms.drawn_box.layout.display != "none"
    races = drawn["races"]
    assert races                                   # the catalogue names race tiles
    assert app.ats.setup_part.use_races.value
    for i, p in enumerate(PLAYERS):
        assert app.ats.setup_part.race_boxes[i].value == races[p]   # not "draw at random" any more
        assert races[p] in ms.drawn_box.value
    if drawn["objectives"]:
        assert app.ats.setup_part.use_objectives.value
        assert set(app.ats.setup_part.objective_pick.value) == set(drawn["objectives"])
    # another name: the draw no longer applies, and says so by disappearing
    app.ats.setup_part.name_boxes[1].value = "Bea"
    assert app.ats.setup_part.drawn is None and ms.drawn_box.layout.display == "none"


# --------------------------------------------------- Revival 2-player: no cards pass
def test_revival_two_player_turn_line_says_no_cards_pass(store):
    # R 2.2: "The active player takes one of the Location card piles, draws the first 6
    # cards and places them face-up between the 2 players." ... "the active player draws
    # the first 2 cards from the face-down pile next to them and adds them face-up to the
    # rest."
    app = open_revival(store)
    info = app.ats.turn_info.value
    assert "cards pass" not in info
    assert "face up between the players" in info and "adds 2 from the face-down pile" in info
    # "the Active Player alternates every round between the 2 players" (R 2.2)
    for _ in range(6):
        for p in ("Ana", "Ben"):
            app.ats.push_entry({"player": p, "do": "discard", "card": "Garden"})
    assert app.ats.game.state.year == 2
    assert "Ben is the active player" in app.status.value and "pass" not in app.status.value
    assert "cards pass" not in app.ats.turn_info.value
    # the base game still passes (B: years 1 and 3 clockwise)
    base = Game({"players": ["Ana", "Ben", "Cleo"]})
    app.ats.open_game(store.create(base.to_record()))
    assert "cards pass clockwise" in app.ats.turn_info.value


# --------------------------------------------------------- the play timer ticks by itself
def test_the_play_timer_advances_with_the_heartbeat_without_writing(store, monkeypatch):
    import time

    from companion.table import playtime
    rec = Game({"players": PLAYERS}).to_record()
    rec["meta"] = playtime.start({}, now=time.time() - 65)
    gid = store.create(rec)
    app = App(store)
    app.ats.open_game(gid)
    before = app.ats.timer.button.description
    assert "running" in before
    stored = store.load(gid)
    version = store.data_version()
    t0 = time.time()
    monkeypatch.setattr(time, "time", lambda: t0 + 61)     # a minute later
    app.heartbeat.ping.value = "7"                          # the page's watchdog pings
    after = app.ats.timer.button.description
    assert after != before and "running" in after
    assert playtime.clock(app.ats.timer.meta, t0 + 61).split(" ", 1)[0] in after
    assert "data-beat='7'" in app.heartbeat.beat.value      # the beat still answered
    assert store.load(gid) == stored and store.data_version() == version   # nothing written


# ------------------------------------------- Small Star Empires: the final table's columns
def test_sse_final_table_shows_only_the_modules_the_game_has_and_the_total_first():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent / "sse"))
    from ssekit import game as sse_game, move
    from companion.sse.scoring import categories_in_play, shown_table

    plain = sse_game("H1 E E E E H2")
    st = plain.state
    got = categories_in_play(st, plain.score(project=True).lines)
    assert got == ("planets", "nebulae", "trade_stations", "territory")
    table = shown_table(plain.score(project=True), st)
    assert list(table.columns[:2]) == ["player", "total"]
    for gone in ("exploration", "hollana", "tennar", "open_borders"):
        assert gone not in table.columns
    # S Unexplored Systems: a revealed Hollana Federation tile brings its column (and
    # exploration's); the Tennar Union, never drawn, stays out
    g = sse_game("H1 E U E E\nE  E E E E\nE  E E E H2", variants={"unexplored": True})
    move(g, "Ann", (2, 0), piece=None, reveal={"effect": "hollana_federation"})
    got = categories_in_play(g.state, g.score(project=True).lines)
    assert "hollana" in got and "exploration" in got and "tennar" not in got
    assert "open_borders" not in got
    opened = sse_game("H1 E E E E H2", variants={"open_borders": True})
    assert "open_borders" in categories_in_play(opened.state)


# ------------------------------------------------------------------ the what-if explorer
UNKNOWN_MAX = {"name": "Fixture: max not typed", "types": ["business"], "cost": 0, "energy": 0,
               "vp": 1, "max": None, "abilities": []}
UNKNOWN_ALL = {"name": "Fixture: nothing typed", "types": ["military"], "cost": None,
               "energy": None, "vp": None, "max": None, "abilities": None}


def test_explorer_offers_the_card_form_for_unknown_values_not_no_legal_cell(store):
    from companion.ats import whatif
    game = Game({"players": PLAYERS}, cards=[UNKNOWN_MAX, UNKNOWN_ALL])
    # a copy is built: its build limit (max) is needed for a second one
    game.push({"player": "Ana", "do": "build", "card": UNKNOWN_MAX["name"], "at": [0, 1]})
    assert whatif.missing_values(game, "Ana", UNKNOWN_MAX["name"]) == {
        "card": UNKNOWN_MAX["name"], "fields": ["max"]}
    df = whatif.placement_map(game, "Ana", UNKNOWN_MAX["name"])
    assert whatif.best_cell(df) is None                       # what the page said before
    assert whatif.missing_values(game, "Ben", UNKNOWN_MAX["name"]) is None    # Ben: none built
    app = App(store)
    app.ats.open_game(store.create(game.to_record()))
    ex = app.ats.explorer
    ex.box.selected_index = 0
    ex.player.value = "Ana"
    ex.card.value = UNKNOWN_MAX["name"]
    assert "No legal cell" not in ex.best.value
    assert "type the printed values" in ex.best.value and "max" in ex.best.value
    assert len(ex.form_box.children) == 1
    form = ex.form_box.children[0]
    ex.refresh()                                      # a refresh keeps the same form
    assert ex.form_box.children[0] is form
    # a card with nothing typed: the form too (before: a sentence only)
    ex.card.value = UNKNOWN_ALL["name"]
    assert "cost" in ex.best.value and len(ex.form_box.children) == 1
    assert ex.form_box.children[0] is not form
    # a card the what-if can try (Ben has built none: no limit needed): no form
    ex.player.value = "Ben"
    ex.card.value = UNKNOWN_MAX["name"]
    assert ex.form_box.children == () and "Best cell" in ex.best.value


def test_the_hand_ranking_keeps_every_typed_card_name(store):
    app = open_revival(store)
    ex = app.ats.explorer
    ex.box.selected_index = 0
    ex.player.value = "Ana"
    # typed in another case, and a name the catalogue does not know: both kept as typed
    ex.hand.value = ["fixture: shipyard", "Not A Card"]
    app.ats.refresh()
    assert list(ex.hand.value) == ["fixture: shipyard", "Not A Card"]
    assert ex.hand.allowed_tags == []
    assert "Fixture: shipyard" in ex.ranking.value
    assert "Not A Card" in ex.ranking.value                   # named, with its reason
