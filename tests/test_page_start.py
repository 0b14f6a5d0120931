"""Issue 34: one page start, whatever kernel it gets.

A page on a preheated kernel (Voila's pool, ``notebooks/config/voila.py``) is built as
the table view *when the kernel starts*, and learns its address (``?seat=``, ``?view=``,
``?game=``) only when a browser takes the kernel, maybe an hour and a whole game later.
A page on a fresh kernel is built and addressed in the same instant.  The two must end
in the same screen, with the same role and the same game.

What a full table game found: the host's plain address, after a finished game, showed
*Saved games* and *Resume* but no *New game* form.  The cause (reproduced here): the
pool's kernels had been built while the store was empty, so the setup screen (with the
form hidden for the table view) was on screen; when the host took one after the game,
the finished game's screen was shown, the role became the host's, and the form, out of
the widget tree at that moment, kept the table view's ``display: none`` for good
(``companion.ui.writes.apply_role`` only reached the widgets in the tree).

Here, without a browser: for each state the store may be in when a kernel is
preheated, and each address a page may have, the preheated page (built, the store
changed, then addressed) shows exactly what a fresh page shows: the same visible
widgets, the same role, the same game.  The browser test with real pool kernels loading
at the same moment is ``tests/browser/test_page_start_pool.py``.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from companion.core.roles import Role
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.writes import HOST_ONLY, WRITES
from test_history import records


def visible(root: Any) -> list[tuple]:
    """What a person sees: every widget reached from ``root`` through shown boxes (a
    ``display: none`` widget hides all under it), by kind, classes and words, in order;
    a tab shows its selected child only, an accordion its open panel only."""
    out: list[tuple] = []

    def visit(wd: Any, path: str) -> None:
        if getattr(getattr(wd, "layout", None), "display", None) == "none":
            return
        words = getattr(wd, "description", None)
        if type(wd).__name__ == "Label":
            words = getattr(wd, "value", None)
        out.append((path, type(wd).__name__, tuple(sorted(getattr(wd, "_dom_classes", ()))),
                    words))
        kids = list(getattr(wd, "children", None) or ())
        if type(wd).__name__ in ("Tab", "Accordion"):       # the selected child only
            i = wd.selected_index
            kids = [kids[i]] if i is not None and 0 <= i < len(kids) else []
        for j, kid in enumerate(kids):
            visit(kid, f"{path}/{j}")

    visit(root, "")
    return out


def snapshot(app: App) -> dict:
    shown = app.shown_screen()
    return {
        "role": app.session.role,
        "tab": app.tabs.selected_index,
        "game": getattr(shown, "gid", None),
        "view": getattr(shown, "view", None),
        "widgets": visible(app.root),
    }


def _g1_all_but_last() -> tuple[dict, dict]:
    rec = records()["G1"]
    last = rec["actions"].pop()
    return rec, last


# the store when the pool's kernel was started -> what happened before the page came
def before_empty(store: Store) -> Callable[[], dict]:
    def later() -> dict:
        return {"G1": store.create(records()["G1"], title="G1"),
                "S1": store.create(records()["S1"], title="S1")}
    return later


def before_in_progress(store: Store) -> Callable[[], dict]:
    rec, last = _g1_all_but_last()
    gid = store.create(rec, title="G1")

    def later() -> dict:
        store.append(gid, len(rec["actions"]), last)      # the game's last action
        return {"G1": gid, "S1": store.create(records()["S1"], title="S1")}
    return later


def before_finished(store: Store) -> Callable[[], dict]:
    ids = {"G1": store.create(records()["G1"], title="G1"),
           "S1": store.create(records()["S1"], title="S1")}
    return lambda: ids


def before_other_game(store: Store) -> Callable[[], dict]:
    """An older finished game when the kernel started; a newer one finished since."""
    old = store.create(records()["G2"], title="G2")

    def later() -> dict:
        return {"G2": old, "G1": store.create(records()["G1"], title="G1"),
                "S1": store.create(records()["S1"], title="S1")}
    return later


BEFORE = {"empty": before_empty, "in progress": before_in_progress,
          "finished": before_finished, "another game": before_other_game}

#: the pages of a table (G1's players are Ann and Bea; S1's Ann and Bob)
ADDRESSES = ["", "seat=Ann", "seat=Bea", "view=table", "game={G1}", "game={G1}&seat=Bea",
             "game={S1}", "game={S1}&seat=Ann", "game={S1}&view=table"]


def _page(address: str, ids: dict) -> App:
    app = App(role=Role.TABLE)          # as companion.ui.dashboard() builds it
    app.apply_query(address.format(**ids))
    return app


@pytest.mark.parametrize("before", list(BEFORE))
def test_a_preheated_page_is_the_fresh_page(before):
    """Every address, each store state at preheat time: the same page as a fresh one."""
    store = Store()
    later = BEFORE[before](store)
    # the pool: one kernel per address, all built (as the table view) before the game
    preheated = [App(role=Role.TABLE) for _ in ADDRESSES]
    ids = later()
    for address, app in zip(ADDRESSES, preheated):
        app.apply_query(address.format(**ids))
        fresh = _page(address, ids)
        got, want = snapshot(app), snapshot(fresh)
        assert got["role"] == want["role"], address
        assert (got["tab"], got["game"], got["view"]) == (want["tab"], want["game"],
                                                          want["view"]), address
        assert got["widgets"] == want["widgets"], address
        if got["role"] is Role.HOST and got["tab"] == 0:
            # and behind the host's *New game / saved games*: the same setup screen
            app.ats.new_btn.click()
            fresh.ats.new_btn.click()
            assert visible(app.root) == visible(fresh.root), address


@pytest.mark.parametrize("before", list(BEFORE))
def test_the_hosts_new_game_form_after_a_finished_game(before):
    """The defect as found: the host's plain address after a finished game; the form
    behind *New game / saved games* is shown (and it is there on the fresh page too, so
    the check can fail)."""
    store = Store()
    later = BEFORE[before](store)
    preheated = App(role=Role.TABLE)
    ids = later()
    preheated.apply_query("")
    fresh = _page("", ids)
    for app in (preheated, fresh):
        assert app.session.role is Role.HOST
        assert app.ats.game is not None and app.ats.game.finished
        app.ats.new_btn.click()
        setup = app.ats.setup_part
        assert app.ats.body.children == (setup.setup_screen,)
        assert setup.new_game_box.layout.display != "none"
        shown = [w[2] for w in visible(app.root)]
        assert ("host-only", "setup-new-game", "writes") in shown
    assert visible(preheated.root) == visible(fresh.root)


def test_a_control_out_of_the_tree_follows_the_role_both_ways():
    """The rule under it, both directions: a control hidden for the table view while
    off screen is shown to the host; one shown to the host while off screen is hidden
    when the page becomes the table view (the stylesheet does so too, in the browser)."""
    store = Store()
    app = App(role=Role.TABLE)                 # empty store: the setup screen is shown
    form = app.ats.setup_part.new_game_box
    assert form.layout.display == "none"
    store.create(records()["G1"], title="G1")
    app.apply_query("")                        # host; the game screen replaces setup
    assert form.layout.display != "none"
    app.session.set_role(Role.TABLE)
    app.apply_role()                          # the form is off screen now
    assert form.layout.display == "none"
    assert {WRITES, HOST_ONLY} <= set(form._dom_classes)
