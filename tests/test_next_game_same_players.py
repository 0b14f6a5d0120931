"""Issue 50: "*Next game with the same players* (and the table's next game generally)
keeps every seat's link and the TV's; each page follows the table to its new game."  The
host's final table offers it: the New game form with the same names in the same seats,
nothing laid; *Start the game*; the seat's page and the table view follow by themselves,
with the codes they were given (0 rescans).  A seat's page does not offer it."""
from __future__ import annotations

from companion.ats.game import Game
from companion.table import capabilities as caps
from companion.table.store import Store
from companion.ui.app import App
from recordkit import play_to_the_end
from widgetkit import find, one, said, shown

PLAYERS = ["Ana", "Ben", "Cy"]


def _page(store, query: str = "") -> App:
    app = App(Store(store.path))
    app.apply_query(query)
    return app


def test_next_game_with_the_same_players_from_the_final_table(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_CAPS", "1")
    store = Store(tmp_path / "games.sqlite")
    g = play_to_the_end(Game({"players": PLAYERS}))
    gid = store.create(g.to_record(), title="first")
    host = _page(store)
    assert host.ats.gid == gid and host.ats.game.state.finished
    ana_cap = caps.seat(gid, "Ana", store=store)
    ana = _page(store, f"game={gid}&seat=Ana&capid={ana_cap.id}")
    tv = _page(store, f"view=table&capid={caps.view().id}")
    # the host's final table offers the next game; a seat's page and the TV do not
    (btn,) = find(host.root, "next-game-same")
    assert shown(btn) and "host-only" in btn._dom_classes
    (seat_btn,) = find(ana.root, "next-game-same")
    assert "host-only" in seat_btn._dom_classes and "role-seat" in ana.root._dom_classes
    seat_btn.click()                  # forced anyway: the session refuses, in one line
    assert "new game" in said(ana).lower() and ana.ats.gid == gid
    host.ats.setup_part.laid.value = True                 # left over from a laid game
    btn.click()
    part = host.ats.setup_part
    assert [b.value for b in part.name_boxes[:3]] == PLAYERS
    assert all(b.value == "" for b in part.name_boxes[3:])
    assert not part.laid.value and not part.laid_now.value
    assert "Ana, Ben, Cy in the same seats" in said(host)
    one(host.root, "start-game").click()
    g2 = host.ats.gid
    assert g2 != gid and list(host.ats.game.setup.players) == PLAYERS
    assert host.ats.game.actions == [] and not host.ats.game.state.finished
    # every page follows; Ana's code is the one she scanned
    ana.live_tick()
    tv.live_tick()
    assert (ana.ats.gid, ana.ats.seat, tv.ats.gid) == (g2, "Ana", g2)
    assert caps.seat(g2, "Ana", store=store).id == ana_cap.id
