"""Issue 50, "A seat belongs to the table", in-process: several pages (the host's, two
seats', the table view) on one store, the pages as the server gives them their address
under ``./dashboard --lan`` (``?game=<the link's game>&seat=Ana&capid=<id>``: the
server's ``_page_query``), driven through their drivers.

The issue: "Every new game, every phone and the TV scan again: seat links are bound to
one game, and the TV does not follow the table's next game."  What to build: "*Next game
with the same players* (and the table's next game generally) keeps every seat's link and
the TV's; each page follows the table to its new game."  And the roles stay: a seat's
link writes only for its own player, a link re-issued by the host is dead.
"""
from __future__ import annotations

import time

import pytest

from companion.ats.game import Game
from companion.core.errors import CompanionError, RoleRefused
from companion.sse import SseGame
from companion.table import capabilities as caps
from companion.table.pgstore import PgStore
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.joinpanel import join_links
from pgserver_fixture import reopen

PLAYERS = ["Ana", "Ben"]
BASE = "http://192.168.1.5:8866/"


@pytest.fixture
def lan(monkeypatch, tmp_path):
    """Capabilities in force (the server sets COMPANION_CAPS under --lan); the store."""
    monkeypatch.setenv("COMPANION_CAPS", "1")
    store = Store(path=tmp_path / "games.sqlite")
    yield store
    store.close()


def page(store, query: str) -> App:
    """A page on its own connection to ``store`` (SQLite or PostgreSQL)."""
    app = App(reopen(store))
    app.apply_query(query)
    if isinstance(app.store, PgStore):      # what it has heard so far (tick waits for more)
        app._test_seen = app.store.data_version()
    return app


def host_starts(host: App, players=PLAYERS) -> str:
    """The host's *New game* with these players (the setup form, as the host fills it)."""
    setup = host.ats.setup_part
    host.guarded(setup.show_setup)()
    for box, name in zip(setup.name_boxes, players + [""] * len(setup.name_boxes)):
        box.value = name
    setup.use_objectives.value = False
    setup.use_races.value = False
    host.guarded(setup.start_game)()
    assert host.ats.game is not None and list(host.ats.game.setup.players) == players, \
        host.status.value
    return host.ats.gid


def links(host: App) -> dict[str, str]:
    g = host.ats
    return dict(join_links(BASE, token="T", gid=g.gid, players=list(g.game.setup.players),
                           store=g.store))


def seat_page(store: Store, gid: str, player: str, cap: caps.Capability | None = None) -> App:
    """The page of ``player``'s link (``cap``, else the one the host gives for ``gid``)."""
    cap = cap or caps.seat(gid, player, store=store)
    return page(store, f"game={cap.game}&seat={cap.player}&capid={cap.id}")


def table_page(store: Store) -> App:
    return page(store, f"view=table&capid={caps.view().id}")


def tick(*apps: App) -> None:
    """One poll of each page.  On PostgreSQL another page's write reaches a page as a
    notification: the poll waits for it first, for at most 2 s (tests/test_live_pages.py)."""
    for a in apps:
        if isinstance(a.store, PgStore):
            t = time.monotonic()
            last = getattr(a, "_test_seen", None)
            while a.store.data_version() == last and time.monotonic() - t < 2.0:
                time.sleep(0.01)
            a._test_seen = a.store.data_version()
        a.live_tick()


def discard(app: App, player: str, card: str = "Garden"):
    return app.driver().choose(player=player, action="discard", card=card).discard()


@pytest.fixture
def either(monkeypatch, make_store):
    """Capabilities in force, on each backend (SQLite; PostgreSQL, marked ``postgres``)."""
    monkeypatch.setenv("COMPANION_CAPS", "1")
    return make_store()


def test_the_next_game_keeps_every_link_and_every_page_follows_it(either):
    store = either
    host = page(store, "")
    g1 = host_starts(host)
    before = links(host)
    ana, ben, tv = seat_page(store, g1, "Ana"), seat_page(store, g1, "Ben"), table_page(store)
    assert (ana.ats.gid, ana.ats.seat, ben.ats.seat, tv.ats.gid) == (g1, "Ana", "Ben", g1)
    discard(ana, "Ana")
    tick(host, ben, tv)
    assert len(tv.ats.game.actions) == 1
    # the host starts the table's next game with the same players
    g2 = host_starts(host)
    assert g2 != g1
    tick(ana, ben, tv)
    for app, who in ((ana, "Ana"), (ben, "Ben")):
        assert app.ats.gid == g2 and app.ats.seat == who, app.status.value
        assert "New game at the table" in app.status.value and "follows it" in app.status.value
    assert tv.ats.gid == g2 and tv.ats.view == "table"
    # every code is the one scanned before: nobody scans again
    assert links(host) == before
    # Ana's link now writes to the new game, for Ana
    discard(ana, "Ana", "Garden")
    assert [a["player"] for a in store.load(g2)["actions"]] == ["Ana"]
    assert len(store.load(g1)["actions"]) == 1
    # a phone that reloads (or opens the link again) lands in the new game
    again = seat_page(store, g1, "Ana", caps.seats(g2, store)["Ana"])
    assert caps.seats(g2, store)["Ana"].game == g1
    assert again.ats.gid == g2 and again.ats.seat == "Ana"
    assert table_page(store).ats.gid == g2


def test_roles_still_hold_after_following(lan):
    store = lan
    host = page(store, "")
    g1 = host_starts(host)
    ana, tv = seat_page(store, g1, "Ana"), table_page(store)
    g2 = host_starts(host)
    tick(ana, tv)
    assert ana.ats.gid == g2
    # Ana's page writes for Ana only
    with pytest.raises(CompanionError) as e:
        ana.ats.session.push({"do": "discard", "player": "Ben", "card": "Garden"})
    assert "\n" not in str(e.value)
    assert store.load(g2)["actions"] == []
    # the game it left is a view of it: nothing recorded there
    ana.driver().open_game(g1)
    assert ana.ats.gid == g1 and ana.ats.seat is None
    with pytest.raises(RoleRefused) as e:
        ana.ats.session.push({"do": "discard", "player": "Ana", "card": "Garden"})
    assert "another game" in str(e.value)
    ana.driver().open_game(g2)
    assert ana.ats.seat == "Ana"
    # the table view writes nothing in the game it followed
    with pytest.raises(RoleRefused):
        tv.ats.session.push({"do": "discard", "player": "Ana", "card": "Garden"})
    # the host re-issues Ana's link (a lost phone): the followed link is dead, page and all
    old = caps.seats(g2, store)["Ana"]
    new = caps.reissue(g2, "Ana", store=store)
    assert not caps.is_current(old.id) and caps.verify(old.secret) is None
    assert links(host)["Ana's seat"].endswith(f"cap={new.secret}")
    with pytest.raises(RoleRefused) as e:
        ana.ats.session.push({"do": "discard", "player": "Ana", "card": "Garden"})
    assert "no longer works" in str(e.value)
    assert store.load(g2)["actions"] == []
    # ... and a dead link's page does not follow the next game; the new link does
    g3 = host_starts(host)
    tick(ana, tv)
    assert ana.ats.gid == g2 and tv.ats.gid == g3
    assert caps.seat_game(new, store) == g3


def test_a_seat_follows_only_to_a_game_where_its_player_plays(lan):
    """A new game without Ana leaves Ana's page where it is; the next one with her
    takes it there (her link too).  A player's name is compared without case."""
    store = lan
    host = page(store, "")
    g1 = host_starts(host)
    ana, ben = seat_page(store, g1, "Ana"), seat_page(store, g1, "Ben")
    g2 = host_starts(host, ["Ben", "Cleo"])
    tick(ana, ben)
    assert ana.ats.gid == g1 and ana.ats.seat == "Ana"
    assert ben.ats.gid == g2 and ben.ats.seat == "Ben"
    g3 = host_starts(host, ["ana", "Cleo"])
    tick(ana, ben)
    assert ana.ats.gid == g3 and ana.ats.seat == "ana" and ben.ats.gid == g2
    discard(ana, "ana")
    assert [a["player"] for a in store.load(g3)["actions"]] == ["ana"]


def test_an_older_game_resumed_keeps_its_own_links(lan):
    """A game created before the links were given out is not taken over by them: the
    host resuming last week's game gives its own codes, and the links of tonight's game
    stay tonight's."""
    store = lan
    old = store.create(Game({"players": PLAYERS}).to_record(), title="last week")
    host = page(store, "")
    g1 = host_starts(host)
    tonight = caps.seat(g1, "Ana", store=store)
    resumed = caps.seat(old, "Ana", store=store)
    assert resumed.id != tonight.id
    assert caps.seat_game(tonight, store) == g1 and caps.seat_game(resumed, store) == old
    p = seat_page(store, old, "Ana")
    assert p.ats.gid == old and p.ats.seat == "Ana"


def test_the_next_game_may_be_small_star_empires(lan):
    """The table's next game is Small Star Empires with the same players: the seats'
    pages and the table view follow to its tab."""
    store = lan
    host = page(store, "")
    g1 = host_starts(host)
    ana, tv = seat_page(store, g1, "Ana"), table_page(store)
    sse = reopen(store).create(SseGame({"players": ["Ana", "Ben"], "map": "basic-2p",
                                            "pieces": {"ships": 2}}).to_record())
    tick(ana, tv)
    assert ana.sse is not None and ana.sse.gid == sse and ana.sse.seat == "Ana"
    assert ana.tabs.selected_index == 1 and tv.tabs.selected_index == 1
    assert tv.sse.gid == sse and tv.sse.session.read_only
    assert ana.shown_game()[0] == sse
    ana.driver("sse").select(0)
    assert ana.sse.session.seat_game == sse


def test_without_lan_a_seat_page_and_the_table_view_follow_too(tmp_path, monkeypatch):
    """On 127.0.0.1 the address decides (``?seat=Ana``): the page follows a new game in
    which Ana plays; the host's page follows nothing (it starts the games)."""
    monkeypatch.delenv("COMPANION_CAPS", raising=False)
    store = Store(path=tmp_path / "games.sqlite")
    host = page(store, "")
    g1 = host_starts(host)
    ana, tv, other_host = page(store, f"game={g1}&seat=Ana"), page(store, "view=table"), page(store, "")
    g2 = host_starts(host)
    tick(ana, tv, other_host)
    assert ana.ats.gid == g2 and ana.ats.seat == "Ana" and tv.ats.gid == g2
    assert other_host.ats.gid == g1
