"""Issue 36, Qualeen's secret objective: the player draws the physical card and keeps it
secret; the companion draws nothing, asks on the player's own seat page which card it is,
shows it nowhere else before the final table, refuses a card face up, and scores what the
player said.

The books' sentences:

- B FAQ, Qualeen: "If I draw the "Accelerated Construction" Objective, do I still reveal
  it at the end of the game?" (the Qualeen holds a secret objective, revealed at the end);
- B 3: "randomly draw as many Objectives as the number of players. Put these cards face
  up on the table where everyone can see them." (the secret one is another card).

The browser test is tests/browser/test_qualeen_secret_browser.py.
"""
from __future__ import annotations

import html
import json

import pytest

from companion.ats import decks
from companion.ats.catalogue import Catalogue
from companion.ats.game import Game
from companion.ats.scoring import SECRET, secret_objectives
from companion.core.errors import IllegalAction, RoleRefused
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.session import GameSession
from recordkit import fixture_objective, play_to_the_end

PLAYERS = ["Ana", "Ben", "Cy"]
OBJ = [fixture_objective("Fixture: most credits", vp=3, most={"per": "credit"}),
       fixture_objective("Fixture: least credits", vp=3, least={"per": "credit"}),
       fixture_objective("Fixture: most reactors", vp=4, most={"per": "reactor"}),
       fixture_objective("Fixture: least reactors", vp=2, least={"per": "reactor"}),
       fixture_objective("Fixture: most locations", vp=5, most={"per": "station_location"})]
NAMES = [o["name"] for o in OBJ]
FACE_UP = ["Fixture: most credits", "Fixture: least credits", "Fixture: least reactors"]
SECRET_CARD = "Fixture: most reactors"
#: Cy builds the only extra Power Reactor on the way to the end
CY_REACTOR = {"player": "Cy", "do": "reactor", "card": "Garden", "at": [0, 1]}


def _game() -> Game:
    return Game({"players": PLAYERS, "races": {"Cy": "Qualeen"},
                 "objectives": FACE_UP}, cards=OBJ)


def _walk(box):
    yield box
    for kid in getattr(box, "children", ()):
        yield from _walk(kid)


def _with(app, cls: str) -> list:
    return [x for x in _walk(app.ats.body) if cls in getattr(x, "_dom_classes", ())]


def _text(app) -> str:
    """Every text the page's widgets hold (HTML, labels, options, titles)."""
    out = []
    for x in _walk(app.root):
        for attr in ("value", "description", "placeholder"):
            v = getattr(x, attr, None)
            if isinstance(v, str):
                out.append(v)
        for o in getattr(x, "options", ()) or ():
            out.append(str(o))
        titles = getattr(x, "titles", None)
        if titles:
            out += [str(t) for t in titles]
    return "\n".join(out)


@pytest.fixture
def pages(store):
    gid = store.create(_game().to_record())
    host, cy, ana, table = (App(Store(store.path)) for _ in range(4))
    cy.apply_query("seat=Cy")
    ana.apply_query("seat=Ana")
    table.apply_query("view=table")
    return gid, host, cy, ana, table


# -- no digital draw -----------------------------------------------------------------------
def test_a_new_game_draws_no_secret_objective_the_player_draws_the_card():
    """B FAQ, Qualeen: "If I draw the "Accelerated Construction" Objective, do I still
    reveal it at the end of the game?" -- the Qualeen player draws the card."""
    cat = Catalogue.default().overlay(Game({"players": PLAYERS}, cards=OBJ).used_cards())
    for seed in range(10):
        got = decks.complete_choices(PLAYERS, races={"Cy": "Qualeen"}, use_races=True,
                                     use_objectives=True, catalogue=cat, seed=seed)
        assert got["races"]["Cy"] == "Qualeen" and got["secret_objectives"] == {}
    assert decks.secret_notes({"Cy": "Qualeen", "Ana": "Vak"}, cat) == [
        "Cy (Qualeen) draws a secret objective card from the box and keeps it; Cy's page "
        "asks which one."]


def test_the_setup_page_starts_a_game_without_a_secret_and_says_who_draws_it(store):
    """B FAQ, Qualeen: "... do I still reveal it at the end of the game?" -- nothing drawn
    by the page; the setup summary says who draws the card."""
    app = App(store)
    part = app.ats.setup_part
    for box, name in zip(part.name_boxes, PLAYERS):
        box.value = name
    part.use_races.value = True
    part.refresh_choices()
    for box, name in zip(part.race_boxes, PLAYERS):
        box.value = "Qualeen" if name == "Cy" else "*"
    part.start_game()
    rec = store.load(store.games()[0]["id"])
    assert rec["setup"]["races"]["Cy"] == "Qualeen"
    assert "secret_objectives" not in rec["setup"] and rec.get("manual", []) == []
    assert ("Cy (Qualeen) draws a secret objective card from the box and keeps it; Cy's "
            "page asks which one.") in html.unescape(app.status.value)


# -- the seat page asks; nobody else sees it -------------------------------------------------
def test_cys_page_asks_and_saves_and_no_other_page_shows_the_name(store, pages):
    """B FAQ, Qualeen: the secret objective is "reveal[ed] at the end of the game": only
    Cy's page shows it before the final table."""
    gid, host, cy, ana, table = pages
    (ask,) = _with(cy, "secret-ask")
    (which,) = _with(cy, "secret-ask-which")
    offered = [v for _, v in which.options]
    # not face up, plus another card and "none was left"
    assert offered[1:] == sorted(set(NAMES + Catalogue.default().names("objective"))
                                 - set(FACE_UP)) + ["\t", ""]
    assert not _with(ana, "secret-ask") and not _with(table, "secret-ask")
    # the host asks only in a folded panel, for a player without a phone
    (fold,) = _with(host, "secret-ask-host")
    assert fold.selected_index is None
    assert "Enter Cy's secret objective here if Cy has no phone" in fold.titles[0]
    which.value = SECRET_CARD
    (save,) = _with(cy, "secret-ask-save")
    save.click()
    assert {"source": SECRET, "player": "Cy", "note": SECRET_CARD, "vp": 0} in \
        store.load(gid)["manual"]
    cy.ats.refresh()
    assert not _with(cy, "secret-ask")
    assert f"Your secret objective:</b> {SECRET_CARD}" in _text(cy)
    for page in (host, ana, table):
        page.live_tick()                                  # the live poll
        page.ats.refresh()
        assert SECRET_CARD not in _text(page), page
    assert "Cy's secret objective is recorded (hidden until the end)" in _text(host)
    assert not _with(host, "secret-ask-host")
    assert "Cy holds a secret objective (revealed at the end)" in _text(table)


def test_anas_page_can_never_save_cys_secret(store, pages):
    """B FAQ, Qualeen: the card is Cy's secret: Ana's page cannot save it (not even with
    the switch for a player without a phone)."""
    gid, host, cy, ana, table = pages
    s = GameSession(Store(store.path))
    s.open(gid)
    s.set_seat("Ana")
    entry = {"source": SECRET, "player": "Cy", "note": SECRET_CARD, "vp": 0}
    with pytest.raises(RoleRefused, match="Ana's page cannot save Cy's secret objective"):
        s.add_manual([entry])
    s.act_for("Cy")
    with pytest.raises(RoleRefused):
        s.add_manual([entry])
    with pytest.raises(RoleRefused):
        s.set_manual([entry])
    assert store.load(gid).get("manual", []) == []
    # the table view writes nothing at all
    t = GameSession(Store(store.path))
    t.set_role("table")
    t.open(gid)
    with pytest.raises(RoleRefused):
        t.add_manual([entry])
    assert store.load(gid).get("manual", []) == []


# -- never a card face up ---------------------------------------------------------------------
def test_a_face_up_objective_is_refused_on_the_page_nothing_stored(store, pages):
    """B 3: "Put these cards face up on the table where everyone can see them." -- the
    secret objective is another card."""
    gid, host, cy, ana, table = pages
    (which,) = _with(cy, "secret-ask-which")
    which.value = "\t"                                   # another card: typed
    (other,) = _with(cy, "secret-ask-other")
    other.value = FACE_UP[1].upper()                     # case-insensitive
    _with(cy, "secret-ask-save")[0].click()
    msg = _with(cy, "secret-ask-msg")[0].value
    assert "is one of the objectives face up" in msg and "[rule: objectives]" in msg
    assert "Put these cards face up on the table" in msg
    # said once, in the panel the player looks at: not again in the status line
    assert "is one of the objectives face up" not in cy.status.value
    assert store.load(gid).get("manual", []) == []
    assert _with(cy, "secret-ask")                      # still asked


def test_the_engine_refuses_a_face_up_or_taken_secret_with_objectives():
    """B 3: "Put these cards face up on the table where everyone can see them."."""
    g = _game()
    with pytest.raises(IllegalAction) as e:
        g.check_manual([{"source": SECRET, "player": "Cy", "note": FACE_UP[0].lower(),
                         "vp": 0}])
    assert e.value.rule == "objectives"
    assert 'B 3: "Put these cards face up on the table"' in str(e.value)
    g.check_manual([{"source": SECRET, "player": "Cy", "note": SECRET_CARD, "vp": 0}])
    # another player's secret objective is another card too
    two = Game({"players": PLAYERS, "races": {"Cy": "Qualeen"}, "objectives": FACE_UP,
                "secret_objectives": {"Cy": SECRET_CARD}}, cards=OBJ)
    with pytest.raises(IllegalAction, match="Cy's secret objective already") as e:
        two.check_manual([{"source": SECRET, "player": "Ana", "note": SECRET_CARD, "vp": 0}])
    assert e.value.rule == "objectives"


def test_a_record_file_with_a_face_up_secret_is_refused_by_check_and_score(tmp_path, run_cli):
    """B 3: "Put these cards face up on the table where everyone can see them." -- a
    record whose typed secret objective is a card face up is refused on every path."""
    rec = json.loads(json.dumps(_game().to_record()))
    rec["manual"] = [{"source": SECRET, "player": "Cy", "note": FACE_UP[2], "vp": 0}]
    words = f"Cy's secret objective '{FACE_UP[2]}' is one of the objectives face up"
    with pytest.raises(IllegalAction) as e:
        Game.from_record(json.loads(json.dumps(rec)))
    assert e.value.rule == "objectives" and words in str(e.value)
    assert Game.from_record(rec, trusted=True)           # the store's own: opens
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(rec))
    for args in (("check", path), ("score", path)):
        r = run_cli(*args, home=tmp_path / "home")
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1, (args, r.stdout, r.stderr)
        assert words in lines[0] and "[rule: objectives]" in lines[0]
        assert 'Put these cards face up on the table' in lines[0]
    # the same record with a card not face up passes
    rec["manual"][0]["note"] = SECRET_CARD
    path.write_text(json.dumps(rec))
    assert run_cli("check", path, home=tmp_path / "home").returncode == 0


# -- the final table scores what Cy said ----------------------------------------------------------
def _play_to_the_end(store, gid) -> str:
    """The stored game played to its end (Cy builds the only extra Power Reactor)."""
    rec = store.load(gid)
    g = play_to_the_end(Game.from_record(rec, trusted=True), CY_REACTOR)
    rec["actions"] = g.to_record()["actions"]
    return store.create(rec)


def test_the_final_table_scores_the_objective_cy_said_without_asking_again(store):
    """B FAQ, Qualeen: revealed "at the end of the game": the final table scores the card
    Cy said during the game, and does not ask again."""
    gid = store.create(_game().to_record())
    cy = App(Store(store.path))
    cy.apply_query("seat=Cy")
    _with(cy, "secret-ask-which")[0].value = SECRET_CARD
    _with(cy, "secret-ask-save")[0].click()
    gid = _play_to_the_end(store, gid)              # the latest game: what a page opens
    g = Game.from_record(store.load(gid), trusted=True)
    assert secret_objectives(g) == {"Cy": SECRET_CARD}
    assert not [r for r in g.final_needs()["manual"] if r["kind"] == "secret"]
    lines = g.score().lines
    got = lines[lines.source == f"{SECRET_CARD} (secret objective of Cy)"]
    assert list(got.player) == ["Cy"] and list(got.vp) == [4]      # most reactors: Cy
    host = App(Store(store.path))
    assert host.ats.gid == gid and host.ats.game.state.finished
    assert not [x for x in _walk(host.ats.final_box)
                if "secret-objective-row" in getattr(x, "_dom_classes", ())]
    final = " ".join(x.value for x in _walk(host.ats.final_box)
                     if isinstance(getattr(x, "value", None), str))
    assert "final-table" in final
    assert f"{SECRET_CARD} (secret objective of Cy)" in final
