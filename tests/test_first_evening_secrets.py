"""Issue 50, secrets that end and the game's end on every page, from an empty data folder:
the Qualeen's secret objective, typed on its player's phone as a card the catalogue does
not name, joins the record and the catalogue, stays on that page during play, is revealed
on every page (host, seats, table view) at the end and scored by the card's rule; the
exported record scores the same with an empty data folder (``python -m companion score``);
School of Alien Cultures' pay-or-lose choices are named on their player's own page only;
the last round's advisor is settled on the page of the player it leans to.

The books' sentences:

- B FAQ, Qualeen: "If I draw the "Accelerated Construction" Objective, do I still reveal
  it at the end of the game?" (a secret objective, revealed at the end);
- B FAQ, School of Alien Cultures: "all the other players may secretly put a credit token
  in their hand. They all reveal their hands at the same time.";
- R 4: "At the end of every round, the players check the location of the Advisor markers
  on the Influence tiles. If an Advisor is towards one of the 2 players, that player gets
  the special bonus listed on the Advisor card." and "If for any reason, a player does
  not want to use the ability on an Advisor card, he may announce it and gain 1 VP
  instead."
"""
from __future__ import annotations

import json
import re

import pytest

from companion.ats.catalogue import load_user_cards
from companion.ats.effects import pending_words
from companion.ats.game import Game
from companion.ats.scoring import SECRET
from companion.core.errors import CompanionError, RoleRefused
from companion.core.paths import user_catalogue_path
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.session import GameSession
from recordkit import play_to_the_end
from widgetkit import find, one, said

PLAYERS = ["Ana", "Ben", "Cy"]
#: the card Ana drew, as she types it from the physical card (a fixture name: the books
#: name no such card)
CARD = "Fixture: drawn by Ana"
#: Ana builds the only extra Power Reactor: she has the most reactors at the end
ANA_REACTOR = {"player": "Ana", "do": "reactor", "card": "Garden", "at": [0, 1]}


def _text(app) -> str:
    """Every text the page's widgets hold, tags dropped."""
    out = []

    def walk(x):
        for attr in ("value", "description"):
            v = getattr(x, attr, None)
            if isinstance(v, str):
                out.append(v)
        for o in getattr(x, "options", ()) or ():
            out.append(str(o))
        out.extend(str(t) for t in (getattr(x, "titles", None) or ()))
        for k in getattr(x, "children", ()):
            walk(k)
    walk(app.root)
    return re.sub(r"<[^>]+>", "", "\n".join(out))


def _page(store, query: str = "") -> App:
    app = App(Store(store.path))
    if query:
        app.apply_query(query)
    return app


def _to_the_end(store, gid, first=None) -> str:
    """The stored game played to its end, as the latest game (what a page opens)."""
    rec = store.load(gid)
    g = play_to_the_end(Game.from_record(rec, trusted=True), first)
    rec["actions"] = g.to_record()["actions"]
    return store.create(rec)


def _score_elsewhere(rec: dict, tmp_path, run_cli) -> str:
    """``python -m companion score`` of the exported record with an empty data folder."""
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(rec))
    empty = tmp_path / "empty-home"
    empty.mkdir()
    r = run_cli("score", path, home=empty)
    assert r.returncode == 0, r.stderr
    assert not list(empty.glob("my-cards*"))
    return r.stdout


def _row(out: str, player: str) -> dict:
    """A player's objectives and total in the CLI's final table."""
    lines = out.splitlines()
    head = next(l for l in lines if l.startswith("player")).split()
    row = next(l for l in lines if l.split()[:1] == [player]).split()
    got = dict(zip(head, row))
    return {"objectives": int(got["objectives"]), "total": int(got["total"])}


def _row_of(g: Game, player: str) -> dict:
    t = g.score().table
    r = t[t.player == player].iloc[0]
    return {"objectives": int(r["objectives"]), "total": int(r["total"])}


def _revealed_everywhere(store, name: str) -> None:
    for query in ("", "seat=Ana", "seat=Ben", "view=table"):
        text = _text(_page(store, query))
        assert f"{name} — Ana's secret objective, revealed" in text, query
        assert "Ana holds a secret objective (revealed at the end)" not in text, query


def test_a_secret_typed_with_its_values_on_the_phone_is_revealed_everywhere_and_scored(
        store, tmp_path, run_cli):
    """B FAQ, Qualeen: "do I still reveal it at the end of the game?" -- typed on Ana's
    page only (a card the catalogue does not name, with what it measures), hidden from every
    other page during play, revealed on all of them at the end, scored by the card's rule."""
    assert not user_catalogue_path().exists()                  # an empty data folder
    gid = store.create(Game({"players": PLAYERS, "races": {"Ana": "Qualeen"}}).to_record())
    ana = _page(store, "seat=Ana")
    one(ana.root, "secret-ask-which").value = "\t"             # another card: typed
    one(ana.root, "secret-ask-other").value = CARD
    one(ana.root, "secret-ask-values").click()
    form = ana.ats.views_part.secret.forms[("Ana", True)].form
    form.measure.value = "reactor"
    form.most.value = "most"
    form.vp.value = "4"
    assert form.submit() is not None
    assert "Ana's secret objective is saved (hidden until the end)" in said(ana)
    rec = store.load(gid)
    assert {"source": SECRET, "player": "Ana", "note": CARD, "vp": 0} in rec["manual"]
    cards = {c["name"]: c for c in rec["cards"]}
    assert cards[CARD]["most"] == {"per": "reactor"} and cards[CARD]["vp"] == 4
    assert CARD in {c.name for c in load_user_cards()}         # the catalogue holds it
    # during play: Ana's page only
    assert f"Your secret objective: {CARD}" in _text(_page(store, "seat=Ana"))
    for query in ("", "seat=Ben", "view=table"):
        text = _text(_page(store, query))
        assert CARD not in text.replace("Fixture: drawn by", ""), query or "host"
        assert "Ana holds a secret objective (revealed at the end)" in text
    gid = _to_the_end(store, gid, ANA_REACTOR)
    _revealed_everywhere(store, CARD)
    assert "revealed to everyone now" in _text(_page(store, "seat=Ana"))
    g = Game.from_record(store.load(gid), trusted=True)
    lines = g.score().lines
    got = lines[lines.source == f"{CARD} (secret objective of Ana)"]
    assert list(got.player) == ["Ana"] and list(got.vp) == [4]   # most reactors: Ana
    # the exported record scores the same on a machine that never saw the card
    assert _row(_score_elsewhere(store.load(gid), tmp_path, run_cli), "Ana") == \
        _row_of(g, "Ana")
    assert _row_of(g, "Ana")["objectives"] == 4


def test_a_secret_typed_by_name_only_is_claimed_on_its_page_at_the_end(store, tmp_path,
                                                                         run_cli):
    """B FAQ, Qualeen: revealed "at the end of the game" -- a card typed by its name only
    (nothing invented of it) joins the record; at the end it is named on every page, its
    claim is typed on Ana's own page, and the exported record scores it anywhere."""
    gid = store.create(Game({"players": PLAYERS, "races": {"Ana": "Qualeen"}}).to_record())
    ana = _page(store, "seat=Ana")
    one(ana.root, "secret-ask-which").value = "\t"
    one(ana.root, "secret-ask-other").value = "  " + CARD + " "
    one(ana.root, "secret-ask-save").click()
    rec = store.load(gid)
    cards = {c["name"]: c for c in rec["cards"]}
    assert cards[CARD]["vp"] is None and "most" not in cards[CARD]    # values unknown
    assert CARD in {c.name for c in load_user_cards()}
    gid = _to_the_end(store, gid)
    _revealed_everywhere(store, CARD)
    # the claim, typed on Ana's page (the VP read from the card)
    s = GameSession(Store(store.path))
    s.open(gid)
    s.set_seat("Ana")
    s.add_manual([{"source": CARD, "player": "Ana", "vp": 3}])
    g = Game.from_record(store.load(gid), trusted=True)
    lines = g.score().lines
    got = lines[lines.source == f"{CARD} (secret objective of Ana)"]
    assert list(got.vp) == [3]
    assert _row(_score_elsewhere(store.load(gid), tmp_path, run_cli), "Ana") == \
        _row_of(g, "Ana")
    assert _row_of(g, "Ana")["objectives"] == 3


def test_a_secret_never_said_is_asked_on_its_page_at_the_end(store):
    """B FAQ, Qualeen: "do I still reveal it at the end of the game?" -- the holder's page
    asks at the end too; the others say it is not said yet."""
    gid = _to_the_end(store, store.create(
        Game({"players": PLAYERS, "races": {"Ana": "Qualeen"}}).to_record()))
    assert "Ana holds a secret objective (not said yet: Ana's page asks)" in \
        _text(_page(store, "view=table"))
    ana = _page(store, "seat=Ana")
    one(ana.root, "secret-ask-which").value = "\t"
    one(ana.root, "secret-ask-other").value = CARD
    one(ana.root, "secret-ask-save").click()
    assert {"source": SECRET, "player": "Ana", "note": CARD, "vp": 0} in \
        store.load(gid)["manual"]
    _revealed_everywhere(store, CARD)


def test_a_location_typed_as_the_secret_is_refused_in_one_line(store):
    """B FAQ, Qualeen: the secret is an "Objective": a location's name is refused."""
    gid = store.create(Game({"players": PLAYERS, "races": {"Ana": "Qualeen"}}).to_record())
    ana = _page(store, "seat=Ana")
    one(ana.root, "secret-ask-which").value = "\t"
    one(ana.root, "secret-ask-other").value = "Garden"
    one(ana.root, "secret-ask-save").click()
    assert "'Garden' is a location card, not an objective card" in said(ana)
    assert store.load(gid).get("manual", []) == []


# -- School of Alien Cultures: each one's choice on its own page ---------------------------
PAY_OR_LOSE = {"name": "Fixture: pay or lose", "types": ["diplomatic"], "cost": 0,
               "energy": 0, "vp": 0, "max": "none",
               "abilities": [{"when": "immediate", "choice": "pay_or_lose", "pay": 1,
                              "lose": 2}]}


def test_pay_or_lose_choices_are_named_on_their_players_own_page_only(store):
    """B FAQ, School of Alien Cultures: "all the other players may secretly put a credit
    token in their hand. They all reveal their hands at the same time." -- until the turn's
    end, Ben's page names Ben's choice only; the host and the table view name none."""
    g = Game({"players": PLAYERS}, cards=[PAY_OR_LOSE])
    g.push({"player": "Ana", "do": "build", "card": PAY_OR_LOSE["name"], "at": [0, 1],
            "choices": {"Ben": "pay", "Cy": "lose"}})
    gid = store.create(g.to_record())
    hidden = ("{p}: pays 1 credit or loses 2 VP (Ana's Fixture: pay or lose), chosen in "
              "secret, revealed at the end of this turn")
    assert pending_words(g.state) == [hidden.format(p="Ben"), hidden.format(p="Cy")]
    ben = pending_words(g.state, "Ben")
    assert ben[0] == "Ben: pays 1 credit (Ana's Fixture: pay or lose) at the end of this turn"
    assert ben[1] == hidden.format(p="Cy")
    for query, mine in (("seat=Ben", "Ben: pays 1 credit"), ("seat=Cy", "Cy: loses 2 VP"),
                        ("", None), ("view=table", None)):
        text = _text(_page(store, query))
        assert "chosen in secret" in text, query
        for said_ in ("Ben: pays 1 credit (", "Cy: loses 2 VP ("):
            assert (said_ in text) == (mine is not None and said_.startswith(mine)), \
                (query, said_)
    assert gid


# -- the last round's advisor, settled on its player's page --------------------------------
def _advisor_game_at_its_end(store) -> str:
    """Three Influence tiles (R 4); Ana builds the only reactor, so the tiles that list
    "reactor" lean to her; every earlier round's advisor declined on the way; the game
    ends with the last round's advisors unsettled."""
    tiles = [{"name": "AB", "between": ["Ana", "Ben"], "actions": ["reactor"], "slots": 1},
             {"name": "BC", "between": ["Ben", "Cy"], "actions": ["build"], "slots": 1},
             {"name": "CA", "between": ["Cy", "Ana"], "actions": ["build"], "slots": 1}]
    g = Game({"players": PLAYERS, "options": {"advisors": tiles}})
    first = dict(ANA_REACTOR)
    while not g.finished:
        for tile, who in g.unsettled_advisors().items():
            g.push({"do": "advisor", "tile": tile, "player": who, "take": "decline"})
        for p in list(g.state.waiting):
            if first is not None and p == "Ana":
                g.push(first)
                first = None
            else:
                g.push({"player": p, "do": "discard", "card": "Garden"})
    assert g.unsettled_advisors() == {"AB": "Ana"}
    return store.create(g.to_record())


def test_the_last_advisor_is_settled_on_its_players_phone(store):
    """R 4: "At the end of every round ... If an Advisor is towards one of the 2 players,
    that player gets the special bonus listed on the Advisor card." and "he may announce
    it and gain 1 VP instead" -- after the last turn, on Ana's page."""
    gid = _advisor_game_at_its_end(store)
    ben = _page(store, "seat=Ben")
    assert not find(ben.root, "advisor-decline")                  # not Ben's to settle
    assert "'AB' leans to Ana: Ana settles it on Ana's page" in _text(ben)
    ana = _page(store, "seat=Ana")
    vp_before = ana.ats.game.state.players["Ana"].vp
    (decline,) = find(ana.root, "advisor-decline")
    decline.click()
    assert "This game is over" not in said(ana), said(ana)
    rec = store.load(gid)
    assert rec["actions"][-1] == {"do": "advisor", "tile": "AB", "player": "Ana",
                                  "take": "decline"} | {k: rec["actions"][-1][k] for k in
                                                        rec["actions"][-1]
                                                        if k in ("year", "turn")}
    g = Game.from_record(rec, trusted=True)
    assert g.unsettled_advisors() == {} and g.state.players["Ana"].vp == vp_before + 1
    assert g.final_needs()["blocked"] == []


def test_after_the_end_a_seat_records_nothing_else(store):
    """R 4 settles an advisor "at the end of every round"; nothing else is played after the
    last turn: another player's advisor, and any other action, stay refused on a seat."""
    gid = _advisor_game_at_its_end(store)
    ben = GameSession(Store(store.path))
    ben.open(gid)
    ben.set_seat("Ben")
    with pytest.raises(CompanionError, match="This game is over: Ben's page cannot record"):
        ben.push({"do": "advisor", "tile": "AB", "player": "Ana", "take": "decline"})
    ana = GameSession(Store(store.path))
    ana.open(gid)
    ana.set_seat("Ana")
    with pytest.raises(RoleRefused, match="This game is over: Ana's page cannot record"):
        ana.push({"player": "Ana", "do": "discard", "card": "Garden"})
    assert len(store.load(gid)["actions"]) == len(Game.from_record(
        store.load(gid), trusted=True).actions)
    assert Game.from_record(store.load(gid), trusted=True).unsettled_advisors() == {"AB": "Ana"}


def test_the_host_types_a_secret_the_catalogue_does_not_name_at_the_final_table(store,
                                                                               tmp_path,
                                                                               run_cli):
    """B FAQ, Qualeen: "do I still reveal it at the end of the game?" -- for a player with
    no phone, the laptop's final table takes a card the catalogue does not name by its
    name (issue 50: it said "type it on the catalogue screen" and the host had to leave the
    game); the card joins the record and the catalogue."""
    gid = _to_the_end(store, store.create(
        Game({"players": PLAYERS, "races": {"Ana": "Qualeen"}}).to_record()))
    host = _page(store)
    (row,) = find(host.root, "secret-objective-row")
    assert ("another card (type its name)", "\t") in one(row, "secret-which").options
    one(row, "secret-which").value = "\t"
    one(row, "secret-other").value = "Garden"
    one(host.root, "manual-save").click()
    assert "'Garden' is a location card, not an objective card" in said(host)
    assert store.load(gid).get("manual", []) == []
    one(row, "secret-other").value = CARD
    one(host.root, "manual-save").click()
    rec = store.load(gid)
    assert {"source": SECRET, "player": "Ana", "note": CARD, "vp": 0} in rec["manual"]
    assert CARD in {c["name"] for c in rec["cards"]}
    assert CARD in {c.name for c in load_user_cards()}
    _revealed_everywhere(store, CARD)
