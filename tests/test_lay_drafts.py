"""Issue 39, "nothing they typed is ever lost": a station or a map being laid is kept in
the store after every tap (companion/table/drafts.py), so that a reload, a phone whose
kernel was culled while it slept, or the host's page finds it again; a seat keeps only
its own player's draft, the table view none; once laid, the draft is gone.  The pages
are driven by their widgets (no browser), each "reload" a new page on the same store.

Every number is a fixture's ("Fixture: ..." cards defined in the record)."""
from __future__ import annotations

import pytest

from companion.core.errors import CompanionError, RoleRefused
from companion.table import drafts
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.sse_board import hex_class
from pgserver_fixture import reopen
from test_lay_page import PLOT, POST, laid_game, put
from test_sse_lay_page import LAYS, laid_game as sse_laid_game, panel as sse_panel, sse_app
from widgetkit import one, said


def seat_page(store, gid, seat):
    app = App(Store(store.path))
    app.apply_query(f"game={gid}&seat={seat}")
    return app


def test_a_station_half_laid_comes_back_after_a_reload_and_is_gone_once_laid(store):
    gid = laid_game(store)
    ana = seat_page(store, gid, "Ana")
    put(ana, (0, 0), "reactor", cubes=1)
    put(ana, (0, 1), "card", card=POST)
    put(ana, (1, 0), "reactor", cubes=0)
    one(ana.root, "lay-credits").value = 7
    one(ana.root, "lay-vp").value = 20
    # the phone slept, its kernel was culled: a new page for the same seat
    again = seat_page(store, gid, "Ana")
    grid = one(again.root, "lay-grid")
    assert one(grid, "lay-at-0_1").description == POST
    assert one(grid, "lay-at-1_0").description == "Reactor □"
    assert one(grid, "lay-at-0_0").description == "Main ■"
    assert one(again.root, "lay-credits").value == 7 and one(again.root, "lay-vp").value == 20
    # the host's page sees Ana's draft too (a player without a phone any more)
    host = App(Store(store.path))
    host.ats.open_game(gid)
    one(host.root, "lay-player").value = "Ana"
    assert one(one(host.root, "lay-grid"), "lay-at-0_1").description == POST
    # going on from the reloaded page: the draft is laid as typed on both pages
    put(again, (-1, 1), "card", card=PLOT)
    one(again.root, "lay-station").click()
    actions = store.load(gid)["actions"]
    assert [a["player"] for a in actions] == ["Ana"], said(again)
    assert {tuple(c["at"]): c.get("card", c.get("cubes")) for c in actions[0]["cells"]} == {
        (0, 0): 1, (0, 1): POST, (1, 0): 0, (-1, 1): PLOT}
    assert (actions[0]["credits"], actions[0]["vp"]) == (7, 20)
    assert drafts.load(store, gid, "Ana", "lay") is None


def test_a_seat_keeps_only_its_own_draft_and_the_table_view_none(store):
    gid = laid_game(store)
    ben = seat_page(store, gid, "Ben")
    with pytest.raises(RoleRefused, match="Ben's page"):
        ben.session.save_draft("lay", "Ana", {"cells": []})
    assert ben.session.draft("lay", "Ana") is None
    with pytest.raises(CompanionError, match="not a player"):
        ben.session.save_draft("lay", "Zed", {"cells": []})
    table = App(Store(store.path))
    table.apply_query(f"game={gid}&view=table")
    with pytest.raises(RoleRefused):
        table.session.save_draft("lay", "Ana", {"cells": []})
    assert drafts.load(store, gid, "Ana", "lay") is None


def test_a_hostile_or_damaged_draft_is_refused_or_read_as_nothing(store):
    gid = laid_game(store)
    host = App(Store(store.path))
    host.ats.open_game(gid)
    with pytest.raises(CompanionError, match="at most"):
        host.session.save_draft("lay", "Ana", {"cells": ["x" * 1000] * 100})
    with pytest.raises(CompanionError):
        host.session.save_draft("lay", "Ana", {"cells": [{1, 2}]})         # not JSON
    # a draft whose cells do not read as cells (a hand-edited file): nothing of it is shown,
    # no error, and a name with markup is shown as text
    drafts.save(store, gid, "Ben", "lay", {"cells": [{"at": "x"}, {"at": [0, 2], "card":
                                                                 "<b onclick=x>Bad</b>"}],
                                           "credits": -4, "vp": "many", "ships": [[1]]})
    page = seat_page(store, gid, "Ben")
    grid = one(page.root, "lay-grid")
    assert one(grid, "lay-at-0_2").description == "<b onclick=x>Bad</b>"   # text, not markup
    assert one(page.root, "lay-credits").value == 0 and one(page.root, "lay-vp").value == 0
    with store.transaction() as c:
        c.execute("UPDATE drafts SET body='{not json' WHERE player='Ben'")
    assert drafts.load(store, gid, "Ben", "lay") is None


def test_deleting_the_game_takes_its_drafts_with_it(store):
    gid = laid_game(store)
    drafts.save(store, gid, "Ana", "lay", {"cells": [], "credits": 1, "vp": 2})
    store.delete(gid)
    assert store._conn.execute("SELECT count(*) FROM drafts").fetchone()[0] == 0


def test_small_star_empires_pieces_half_laid_come_back_after_a_reload(store):
    gid = sse_laid_game(store)
    entry = LAYS[0]
    page = sse_app(Store(store.path), f"game={gid}&seat={entry['player']}")
    p = sse_panel(page)
    for piece in entry["pieces"]:
        one(p, "sse-laid-what").value = piece["piece"]
        one(one(p, "sse-laid-board"), hex_class(tuple(piece["at"]))).click()
    one(p, "sse-laid-vp").value = entry["vp"]
    again = sse_app(Store(store.path), f"game={gid}&seat={entry['player']}")
    q = sse_panel(again)
    assert one(q, "sse-laid-vp").value == entry["vp"]
    n_city = sum(1 for x in entry["pieces"] if x["piece"] == "city")
    assert f"<b>{n_city}</b> Cit" in one(q, "sse-laid-count").value
    one(q, "sse-laid-go").click()
    laid = [a for a in store.load(gid)["actions"] if a["do"] == "lay"]
    assert len(laid) == 1 and sorted(laid[0]["pieces"], key=lambda x: x["at"]) == sorted(
        entry["pieces"], key=lambda x: x["at"]) and laid[0]["vp"] == entry["vp"]
    assert drafts.load(store, gid, entry["player"], "lay") is None


@pytest.mark.postgres
def test_drafts_on_the_club_database(pg_url):
    from companion.table.backends import open_store
    s = open_store(pg_url)
    try:
        from companion.ats.game import Game
        gid = s.create(Game({"players": ["Ana", "Ben"], "options": {"laid": "final"}}
                            ).to_record(), title="club")
        assert drafts.load(s, gid, "Ana", "lay") is None           # no table yet: nothing
        drafts.save(s, gid, "Ana", "lay", {"cells": [], "credits": 3, "vp": 9})
        other = reopen(s)                                          # another server's page
        assert drafts.load(other, gid, "Ana", "lay") == {"cells": [], "credits": 3, "vp": 9}
        drafts.save(other, gid, "Ana", "lay", {"cells": [], "credits": 4, "vp": 9})
        assert drafts.load(s, gid, "Ana", "lay")["credits"] == 4
        drafts.drop(s, gid, "Ana", "lay")
        assert drafts.load(other, gid, "Ana", "lay") is None
        other.close()
    finally:
        s.close()
