"""Issue 12: every screen built with hostile text finds no raw markup in any widget.

Player names, card/race/objective names, game titles, advisor tiles and
Small Star Empires colours all come from people or shared files.  Each is
set to markup that would run script if it reached an HTML widget unescaped;
every screen of the dashboard is then built (setup, play with builds and the
explorer open, the card-values form with an echoed error, the catalogue
screen, the final screen with its forms and the final table, the mode
panels, the Small Star Empires tab with its board, score and final table,
the map editor, and the History tab with a stored game opened), and every
HTML/SVG string of every widget is scanned.

Invented cards are "Fixture:" entries of the player's own catalogue; no real
card's printed number is used.
"""
from __future__ import annotations

import re

import ipywidgets as w
import pytest

from companion.ats.catalogue import parse_card, save_user_card
from companion.ats.game import Game
from companion.core.htmlsafe import colour, escape, is_colour
from companion.ui.app import App

#: markup that must never reach a widget as markup
EVIL_NAME = "<img src=x onerror=alert(1)>"
EVIL_QUOTE = "\"'><svg/onload=alert(2)>"
EVIL_CARD = "Fixture: <script>alert(3)</script>"
EVIL_RACE = "<script>alert(4)</script> race"
EVIL_OBJECTIVE = "<img src=y onerror=alert(5)> objective"
EVIL_COLOUR = "red'><script>alert(6)</script>"
#: a tag the payloads carry, as markup (escaped, "&lt;img" is only text)
RAW = re.compile(r"<\s*(script|img|svg/|iframe|object|embed)", re.I)


def all_markup() -> list[tuple[str, str]]:
    """(widget class, markup) for every live widget that renders markup or text."""
    out = []
    from ipywidgets.widgets.widget import _instances
    for widget in list(_instances.values()):
        if getattr(widget, "description_allow_html", False):
            out.append((type(widget).__name__, f"description_allow_html: {widget.description}"))
        value = getattr(widget, "value", None)
        if isinstance(widget, (w.HTML, w.HTMLMath)) and isinstance(value, str):
            out.append((type(widget).__name__, value))
        style = getattr(widget, "style", None)
        for attr in ("button_color", "text_color", "background"):
            v = getattr(style, attr, None) if style is not None else None
            if isinstance(v, str) and v:
                out.append((f"{type(widget).__name__}.style.{attr}", v))
    return out


def _walk(widget):
    yield widget
    for kid in getattr(widget, "children", ()) or ():
        yield from _walk(kid)


def raw_markup() -> list[tuple[str, str]]:
    bad = []
    for kind, text in all_markup():
        if ".style." in kind:
            if not (is_colour(text) or text in ("initial", "")):
                bad.append((kind, text))
        elif RAW.search(text):
            m = RAW.search(text)
            bad.append((kind, text[max(0, m.start() - 80):m.end() + 40]))
    return bad


@pytest.fixture(autouse=True)
def hostile_catalogue():
    save_user_card(parse_card({"name": EVIL_CARD, "types": ["military"], "cost": 0, "energy": 0,
                               "vp": 1, "max": "none",
                               "abilities": [{"when": "end", "manual": True}]}))
    save_user_card(parse_card({"name": EVIL_RACE, "category": "race", "abilities": None}))
    save_user_card(parse_card({"name": EVIL_OBJECTIVE, "category": "objective",
                               "abilities": None}))


def test_the_escaping_helper_and_the_colour_check():
    assert escape(EVIL_QUOTE) == "&quot;&#x27;&gt;&lt;svg/onload=alert(2)&gt;"
    assert colour(EVIL_COLOUR) == "#888888" and colour("#1e3a8a") == "#1e3a8a"
    for bad in ("red;}", "url(javascript:x)", "#12345g", "expression(alert(1))", "", None, 5):
        assert not is_colour(bad)
    for good in ("#abc", "#AABBCC", "#aabbccdd", "navy", " Red "):
        assert is_colour(good)


def test_every_among_the_stars_screen_with_hostile_text(store):
    players = [EVIL_NAME, EVIL_QUOTE, "Cleo"]
    game = Game({"players": players, "races": {EVIL_NAME: EVIL_RACE},
                 "objectives": [EVIL_OBJECTIVE],
                 "options": {"advisors": [{"name": EVIL_NAME, "between": [EVIL_NAME, EVIL_QUOTE],
                                           "actions": ["discard"], "advisor": EVIL_CARD,
                                           "slots": 2}]}},
                book_setup=False)     # 1 objective, 1 tile for 3 players: hostile text only
    store.create(game.to_record(), title=f"{EVIL_NAME} night")
    app = App(store)
    # the setup screen with the saved game listed, and the catalogue screen open
    app.ats.setup_part.show_setup()
    app.ats.setup_part.catalogue_panel.selected_index = 0
    assert app.ats.setup_part.catalogue_screen is not None
    app.ats.setup_part.catalogue_screen.select(EVIL_RACE)
    app.ats.open_game(store.games()[0]["id"])
    # build the hostile card, with a hostile typed error on the way
    app.driver().choose(player=EVIL_NAME, action="build", card=EVIL_CARD)
    app.driver().tap((0, 1))
    app.ats.entry_part.manual_vp = None
    app.driver().choose(player=EVIL_QUOTE, action="discard", card="<script>alert(7)</script>")
    app.driver().discard()                     # unknown card: the message echoes it
    app.ats.entry_card.value = EVIL_CARD
    app.driver().discard()
    app.ats.explorer.box.selected_index = 0
    app.ats.explorer.player.value = EVIL_NAME
    app.ats.explorer.card.value = EVIL_CARD
    app.ats.explorer.hand.value = [EVIL_CARD]
    # a card form whose typed value is echoed in its error
    app.driver().choose(player="Cleo", action="build", card="Garden")
    form = app.ats.form_box.children[0]
    texts = [x for x in _walk(form) if isinstance(x, w.Text)]
    texts[0].value = "<script>alert(8)</script>"
    next(x for x in _walk(form) if "form-save" in x._dom_classes).click()
    assert raw_markup() == []
    # play to the end: the final screen's forms (race values, manual entries), then the table
    app.ats.entry_card.value = ""
    g = app.ats.game
    while not g.state.finished:
        for p in g.waiting_in_order():
            if g.unsettled_advisors():
                for tile, who in g.unsettled_advisors().items():
                    app.ats.push_entry({"do": "advisor", "tile": tile, "player": who,
                                    "take": "decline"})
            app.ats.push_entry({"player": p, "do": "discard", "card": "Garden"})
        g = app.ats.game
    for tile, who in g.unsettled_advisors().items():
        assert raw_markup() == []                     # the advisors panel, names escaped
        app.ats.push_entry({"do": "advisor", "tile": tile, "player": who, "take": "decline"})
    assert raw_markup() == []
    app.driver().save_values(parse_card({"name": EVIL_RACE, "category": "race",
                                 "abilities": [{"when": "end", "manual": True}]}))
    assert raw_markup() == []
    app.ats.game.manual = store.add_manual(app.ats.gid, [
        {"source": EVIL_OBJECTIVE, "player": EVIL_QUOTE, "vp": 3},
        {"source": EVIL_RACE, "player": EVIL_NAME, "vp": 2},
        {"source": EVIL_CARD, "player": EVIL_NAME, "at": [0, 1], "vp": 1}])
    app.ats.refresh()
    assert "final-table" in " ".join(v for _, v in all_markup())
    assert raw_markup() == []
    # the breakdown's cell column: a card's cell in words, a line without a cell empty
    # (this game's final screen: the newest one, widgets of earlier tests may be alive)
    lines = [v for _, v in all_markup() if "final-lines" in v and "Cleo" in v][-1]
    assert "<td>0, 1</td>" in lines and "<td></td>" in lines
    assert "<td>None</td>" not in lines
    # the final screen's play details (saved) and the exports to other play loggers
    app.ats.final_details.location.value = EVIL_NAME
    app.ats.final_details.notes.value = EVIL_QUOTE + " <script>alert(9)</script>"
    app.ats.save_final_details()
    assert store.load(app.ats.gid)["meta"]["location"] == EVIL_NAME
    app.ats.exports.panel.selected_index = 0
    assert "bgstats" in app.ats.exports.html.value.lower()
    assert raw_markup() == []
    # the History tab, with the hostile game opened
    app.tabs.selected_index = 2
    hist = app.history
    hist.refresh()
    if getattr(hist, "games", None) is not None and hasattr(hist, "open_selected"):
        try:
            hist.open_selected()
        except Exception:                            # nothing selected: the list is enough
            pass
    assert raw_markup() == []
    for table in [o for o in hist.stat.options if str(o).startswith("people: ")]:
        hist.stat.value = table                      # people statistics: tables and charts
        assert raw_markup() == [], table
        if table == "people: head-to-head":
            assert escape(EVIL_NAME) in " ".join(v for _, v in all_markup())


def test_small_star_empires_screens_with_hostile_names_and_colours(store, tmp_path):
    from companion.sse import SseGame
    app = App(store)
    app.tabs.selected_index = 1
    tab = app.sse
    tab.show_editor()
    tab.show_setup()
    g = SseGame({"players": [EVIL_NAME, EVIL_QUOTE], "map": "basic-2p",
                 "pieces": {"ships": 2}, "colours": {EVIL_NAME: EVIL_COLOUR,
                                                     EVIL_QUOTE: "#12ab34"}})
    rec = g.to_record()
    gid = store.create(rec, title=f"{EVIL_NAME} space")
    tab.open_game(gid)
    assert raw_markup() == []
    # a few moves, the what-if, then the final table
    while not tab.game.state.finished:
        p = tab.game.current
        moves = [(i, m) for i in range(2) for m in tab.game.legal_moves(p, i)]
        if not moves:
            break
        i, m = moves[0]
        tab.driver().tap(tab.game.state.players[p].ships[i].at)
        tab.driver().tap(tuple(m.to))
        if tab.reveal_part.extra.children:                      # an unexplored tile or a choice: stop here
            break
    assert raw_markup() == []
