"""Issue 39, Small Star Empires, the play screen while pieces are laid: a player still to
lay shows no numbers (not an empty map and a full reserve), no timer runs; and "Nothing
typed is lost": a lay undone on the page is its
player's draft again (every piece, the tiles turned face-up, the conquest marker, the
track's VP), kept in the store where another page finds it, and laid again unchanged
(the Among the Stars side: tests/test_lay_undo_and_table_view.py).  The position is
tests/test_sse_lay_variants_page.py's (made-up TEST tiles)."""
from __future__ import annotations

import re

from companion.table import drafts
from companion.table.store import Store
from companion.ui.sse_lay_parts import Draft

from test_sse_lay_page import panel, sse_app, stored
from test_sse_lay_variants_page import ANA, UNEXPLORED, engine, hex_label, new_game, norm, tap
from widgetkit import one


def lay_ana(p) -> None:
    for piece in ANA["pieces"]:
        tap(p, piece["piece"], piece["at"])
    tap(p, "alone", (1, -1))
    one(p, "sse-laid-tile").value = "asteroid_field"
    tap(p, "alone", (1, 2))
    one(p, "sse-laid-tile").value = "nordinn_empire"
    tap(p, "conquered", (2, 2))
    one(p, "sse-laid-vp").value = ANA["vp"]
    one(p, "sse-laid-go").click()


def test_an_entry_read_back_as_a_draft_is_the_same_entry():
    want = engine([ANA], **UNEXPLORED).to_record()["actions"][0]
    back = Draft.from_entry(want).entry("Ana")
    assert norm(back) == norm({k: v for k, v in want.items() if k != "note"})
    now = {"do": "lay", "player": "Ben", "pieces": [], "vp": 0, "next": True,
           "ships": [{"at": [3, 2]}, {"at": [4, 0], "damaged": True}],
           "received": 2, "paid": 1}
    assert Draft.from_entry(now).entry("Ben", now=True, open_borders=True) == now
    # a damaged or hostile entry reads as what it holds, never an error
    junk = Draft.from_entry({"pieces": [{"at": "x"}, 3, {"at": [1, 0], "piece": "<b>"}],
                             "ships": [None, {"at": [1, 1], "damaged": "yes"}], "vp": -4})
    assert junk.entry("Ana", now=True) == {"do": "lay", "player": "Ana", "pieces": [],
                                           "vp": 0, "ships": [{"at": [1, 1]}],
                                           "next": False}


def test_a_lay_undone_on_the_page_is_its_draft_again_and_is_laid_again_unchanged(store):
    gid = new_game(store, **UNEXPLORED)
    app = sse_app(store)
    app.sse.open_game(gid)
    p = panel(app)
    lay_ana(p)
    first = stored(store, gid)
    assert [a["player"] for a in first] == ["Ana"]
    assert one(p, "sse-laid-player").value == "Ben"          # the panel went on to Ben
    app.sse.undo_btn.click()
    one(app.sse.undo_box, "sse-undo-yes").click()
    assert stored(store, gid) == []
    # the panel shows Ana again, with all she had typed; the store keeps it as her draft
    assert one(p, "sse-laid-player").value == "Ana"
    assert hex_label(p, (1, 2)) == "NE up" and hex_label(p, (2, 2)).startswith("✖")
    assert one(p, "sse-laid-vp").value == ANA["vp"]
    assert "back as they were tapped" in one(p, "sse-laid-message").value
    kept = drafts.load(store, gid, "Ana", "lay")
    assert kept is not None and Draft.from_json(kept).entry("Ana") == Draft.from_entry(
        first[0]).entry("Ana")
    # another page (Ana's phone) finds it too
    ana = sse_app(Store(store.path), f"game={gid}&seat=Ana")
    assert hex_label(panel(ana), (1, -1)) == "AF up"
    # laid again, unchanged; the draft is gone
    one(p, "sse-laid-go").click()
    assert stored(store, gid) == first
    assert drafts.load(store, gid, "Ana", "lay") is None


def _row(app, player: str) -> str:
    value = app.sse.final_part.scoreboard.value
    start = value.index(f"data-player='{player}'")
    return re.sub(r"<[^>]+>", " ", value[start:value.index("</tr>", start)])


def test_while_pieces_are_laid_no_player_still_to_lay_shows_numbers_and_no_timer(store):
    gid = new_game(store, **UNEXPLORED)
    app = sse_app(store)
    app.sse.open_game(gid)
    for p in ("Ana", "Ben", "Cleo"):
        row = _row(app, p)
        assert "not laid yet" in row and "16" not in row and " 0 " not in row, row
    assert app.sse.timer.button.layout.display == "none"      # nothing played yet
    assert app.sse.undo_btn.layout.display == "none"          # nothing to undo yet
    lay_ana(panel(app))
    ana, ben = _row(app, "Ana"), _row(app, "Ben")
    assert "not laid yet" not in ana and f" {ANA['vp']} " in ana, ana
    assert "—" in ana                     # "if ended" waits for every player
    assert "not laid yet" in ben
    assert app.sse.undo_btn.layout.display == ""              # Ana's lay may be undone
    seat = sse_app(Store(store.path), f"game={gid}&seat=Ben")
    assert "lay your pieces below" in seat.sse.views_part.seat_score.value
    assert "VP now" not in seat.sse.views_part.seat_score.value
