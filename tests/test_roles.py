"""Issue 20, "roles": what each kind of page may write, enforced below the screen.

The table view (``?view=table``) deleted the running game for everyone through its
History tab, and its Small Star Empires tab offered *Start the game*: the controls were
hidden on one screen only.  Here, without a browser:

- the store (``Store(path, role=...)``) and the session (``GameSession.role``) refuse
  every write the role may not make, each on its own, and leave the saved-games file
  exactly as it was (the records and revisions compared before and after);
- the pages of both games, built from their addresses, show no control that writes
  in the table view, in any tab, and none of the host's own controls on a seat; the
  host page shows them all (so the checks can fail);
- a write forced through a table view page is refused in one line, never a traceback.

The policy (decided by the lead), written out here rather than read from
companion.core.roles, so that a change of the table fails a test: the host may do
everything; a seat may enter actions, undo, type card values, final entries and play
details, type sector tiles (issue 24), and use the timer; it may not delete, import or start a new game; the table
view writes nothing.  The browser test is tests/browser/test_four_pages.py (issue 51: test_browser_roles.py was merged into it).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import ipywidgets as w
import pytest

from companion.ats.catalogue import dump_yaml, parse_card, save_user_card, import_user_catalogue
from companion.ats.game import Game
from companion.table import history, playtime
from companion.core.errors import CompanionError, RoleRefused
from companion.core.paths import user_catalogue_path
from companion.core.roles import ALLOWED, Role, Write, check, may, role_of_page
from companion.table.store import Store
from companion.sse import SseGame
from companion.sse import hexmap as hm
from companion.ui.app import App
from companion.ui.session import GameSession
from companion.ui.writes import HOST_ONLY, WRITES, walk

PLAYERS = ["Ana", "Ben", "Cleo"]
SSE_PLAYERS = ["Ann", "Bob"]
#: a card invented for the tests (no real card's numbers)
CARD = {"name": "Fixture: typed", "types": ["military"], "cost": 1, "energy": 0, "vp": 0,
        "max": "none", "abilities": []}
MANUAL = {"source": "Fixture: manual", "player": "Ana", "vp": 2}

#: the lead's policy, as the brief states it
SEAT_MAY = {"action", "undo", "cards", "final", "details", "timer", "tiles"}
HOST_MAY = {"action", "undo", "cards", "final", "details", "timer", "new game", "delete",
            "import", "map", "tiles"}


def allowed(role: str, write: str) -> bool:
    return write in {"host": HOST_MAY, "seat": SEAT_MAY, "table": set()}[role]


# ----------------------------------------------------------------------------- the policy
def test_the_policy_is_the_leads():
    assert {str(x) for x in Write} == HOST_MAY
    for role in Role:
        assert {str(x) for x in ALLOWED[role]} == {x for x in HOST_MAY if allowed(role, x)}
        for write in Write:
            assert may(role, write) == allowed(role, write)


def test_the_address_gives_the_role():
    assert role_of_page(None, None) is Role.HOST
    assert role_of_page("Ana", None) is Role.SEAT
    assert role_of_page("nobody-here", None) is Role.SEAT     # still a phone, not the host
    assert role_of_page("Ana", "table") is Role.TABLE
    assert role_of_page(None, "table") is Role.TABLE
    assert role_of_page("  ", None) is Role.HOST


@pytest.mark.parametrize("role", ["seat", "table"])
@pytest.mark.parametrize("write", sorted(HOST_MAY))
def test_a_refusal_is_one_line_that_says_where_to_do_it(role, write):
    if allowed(role, write):
        check(role, write)                      # no exception
        return
    with pytest.raises(RoleRefused) as e:
        check(role, write)
    msg = str(e.value)
    assert isinstance(e.value, CompanionError) and "\n" not in msg and len(msg) < 160
    assert msg.startswith("The table view records nothing" if role == "table"
                          else "A seat's page cannot")
    assert "host's page" in msg or "player's page" in msg


# ----------------------------------------------------------------------------- the store
@dataclass
class Env:
    path: Path
    tmp: Path
    gid: str                 # an Among the Stars game with one action (Ana discarded)
    sse: str                 # a Small Star Empires game
    rev: int
    next_action: dict        # Ben's discard, as the engine records it


def make_env(tmp: Path) -> Env:
    path = tmp / "games.sqlite"
    host = Store(path)
    g = Game({"players": PLAYERS})
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    gid = host.create(g.to_record(), title="AtS")
    nxt = Game.from_record(g.to_record())
    nxt.push({"player": "Ben", "do": "discard", "card": "Garden"})
    sse = host.create(SseGame({"players": SSE_PLAYERS, "map": "basic-2p",
                               "pieces": {"ships": 2}}).to_record(), title="SSE")
    rev = host.revision(gid)
    host.close()
    return Env(path, tmp, gid, sse, rev, nxt.actions[-1])


def snapshot(env: Env) -> tuple:
    """Every stored game (list and records with their revisions), the player's catalogue
    file and map folder."""
    s = Store(env.path)
    try:
        games = s.games(format=None)
        records = {g["id"]: s.load_revision(g["id"]) for g in games}
    finally:
        s.close()
    cat = user_catalogue_path()
    maps = hm.user_maps_dir()
    return (games, records, cat.read_text() if cat.exists() else None,
            sorted(p.name for p in maps.glob("*")) if maps.exists() else [])


def record_file(env: Env) -> Path:
    """A record of another game than the store's (issue 37: a record the store already
    holds is not imported again: that import writes nothing by design)."""
    s = Store(env.path)
    rec = s.load(env.gid)
    s.close()
    rec["setup"]["players"] = ["Zoe", "Yan"]
    rec["actions"] = []
    p = env.tmp / "import-me.json"
    p.write_text(history.dumps(rec), encoding="utf-8")
    return p


def cards_file(env: Env) -> Path:
    p = env.tmp / "cards.yaml"
    p.write_text(dump_yaml([parse_card(CARD)]), encoding="utf-8")
    return p


def _timer(store: Store, env: Env):
    meta = store.load(env.gid)["meta"]
    return history.set_play_details(store, env.gid, playtime.start(meta),
                                    expect_timer=playtime.timer(meta))


def _details(store: Store, env: Env):
    meta = store.load(env.gid)["meta"]
    return history.set_play_details(store, env.gid, playtime.with_details(meta, location="Café"))


#: every write below the screen: (kind, name, write(store, env)); the player's own files
#: (catalogue, maps) take the page's role as the store has it
STORE_WRITES = [
    ("action", "append", lambda s, e: s.append(e.gid, 1, e.next_action, rev=e.rev)),
    ("undo", "pop", lambda s, e: s.pop(e.gid, 0, rev=e.rev)),
    ("cards", "set_cards", lambda s, e: s.set_cards(e.gid, [CARD])),
    ("cards", "merge_cards", lambda s, e: s.merge_cards(e.gid, [CARD])),
    ("cards", "my-cards.yaml", lambda s, e: save_user_card(parse_card(CARD), role=s.role)),
    ("final", "add_manual", lambda s, e: s.add_manual(e.gid, [MANUAL])),
    ("final", "set_manual", lambda s, e: s.set_manual(e.sse, [{"source": "nebula_table",
                                                               "values": [1, 2, 3, 4, 5, 6]}])),
    ("details", "set_play_details", _details),
    ("timer", "set_play_details(expect_timer)", _timer),
    ("new game", "create", lambda s, e: s.create(Game({"players": PLAYERS}).to_record())),
    ("import", "create(write=import)",
     lambda s, e: s.create(Game({"players": PLAYERS}).to_record(), write=Write.IMPORT)),
    ("import", "import_records", lambda s, e: history.import_records(s, [record_file(e)])),
    ("import", "import_user_catalogue",
     lambda s, e: import_user_catalogue(cards_file(e), role=s.role)),
    ("delete", "delete", lambda s, e: s.delete(e.gid)),
    ("map", "save_user_map", lambda s, e: hm.save_user_map(hm.load_named("basic-2p"),
                                                           "fixture-map", role=s.role)),
]


@pytest.mark.parametrize("role", ["host", "seat", "table"])
@pytest.mark.parametrize("kind,name,write", STORE_WRITES, ids=[n for _, n, _ in STORE_WRITES])
def test_the_store_refuses_what_the_role_may_not_write(tmp_path, role, kind, name, write):
    env = make_env(tmp_path)
    before = snapshot(env)
    page = Store(env.path, role=role)
    assert page.role == role
    try:
        if allowed(role, kind):
            write(page, env)
            assert snapshot(env) != before, f"{name} wrote nothing"
        else:
            with pytest.raises(RoleRefused) as e:
                write(page, env)
            assert "\n" not in str(e.value)
            assert snapshot(env) == before            # records, revisions, files: unchanged
    finally:
        page.close()


def test_every_write_method_of_the_store_is_checked():
    """A new write method of the Store must be added to the policy and to this file."""
    checked = {"create", "append", "pop", "set_cards", "merge_cards", "add_manual",
               "set_manual", "delete"}
    import inspect
    for name in checked:
        assert "self.require(" in inspect.getsource(getattr(Store, name)), name
    tested = {n.split("(")[0] for _, n, _ in STORE_WRITES}
    assert checked <= tested


# ----------------------------------------------------------------------------- the session
def session_writes(env: Env):
    """(kind, name, write(session)) through a GameSession opened on the Among the Stars
    game (the Small Star Empires one for its epic table)."""
    return [
        ("action", "push", lambda ss: ss.push({"player": "Ben", "do": "discard",
                                               "card": "Garden"})),
        ("undo", "undo", lambda ss: ss.undo()),
        ("cards", "save_card", lambda ss: ss.save_card(parse_card(CARD))),
        ("final", "add_manual", lambda ss: ss.add_manual([MANUAL])),
        ("final", "set_manual", lambda ss: ss.set_manual(
            [{"source": "nebula_table", "values": [1, 2, 3, 4, 5, 6]}])),
        ("new game", "create", lambda ss: ss.create(Game({"players": PLAYERS}).to_record())),
        ("import", "create(import)", lambda ss: ss.create(
            Game({"players": PLAYERS}).to_record(), write=Write.IMPORT)),
        ("import", "import_records", lambda ss: ss.import_records([record_file(env)])),
        ("import", "import_catalogue", lambda ss: ss.import_catalogue(cards_file(env))),
        ("delete", "delete", lambda ss: ss.delete(env.gid)),
    ]


NAMES = [n for _, n, _ in session_writes(Env(Path(), Path(), "", "", 0, {}))]


@pytest.mark.parametrize("role", ["host", "seat", "table"])
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_the_session_refuses_what_the_role_may_not_write(tmp_path, role, index):
    """The session refuses by itself: its store here is the host's, which would write."""
    env = make_env(tmp_path)
    kind, name, write = session_writes(env)[index]
    store = Store(env.path)                       # the host's store
    ss = GameSession(store, role=Role(role))
    assert store.role is Role.HOST and ss.role == role
    ss.open(env.sse if name == "set_manual" else env.gid)     # the epic table: SSE's
    if role == "seat":
        # a seat page writes as a player of its game (issue 35): Ben enters his own
        # action, Ana undoes hers (the game's last), Ann types the SSE epic table
        ss.set_seat({"undo": "Ana", "set_manual": "Ann"}.get(name, "Ben"))
    actions, rev = list(ss.game.actions), ss.rev
    before = snapshot(env)
    try:
        if allowed(role, kind):
            write(ss)
            assert snapshot(env) != before, f"{name} wrote nothing"
        else:
            with pytest.raises(RoleRefused):
                write(ss)
            assert snapshot(env) == before
            assert ss.game.actions == actions and ss.rev == rev
    finally:
        store.close()


def test_read_only_is_the_table_role_for_the_session_and_its_store(tmp_path):
    env = make_env(tmp_path)
    store = Store(env.path)
    ss = GameSession(store)
    assert not ss.read_only and ss.role is Role.HOST
    ss.read_only = True
    assert ss.role is Role.TABLE and store.role is Role.TABLE and ss.read_only
    ss.set_role("seat")
    assert not ss.read_only and store.role is Role.SEAT
    store.close()


# ----------------------------------------------------------------------------- the pages
READ_CONTROLS = {"history-open", "history-games", "history-order", "history-filter",
                 "history-stat", "history-stat-search", "history-stat-sort",
                 "history-stat-reverse", "history-prev", "history-next", "history-step",
                 "history-plays-csv-make",
                 "saved-games", "resume-game", "sse-saved", "sse-resume"}
INPUTS = (w.Button, w.FileUpload, w.ToggleButton, w.ToggleButtons, w.Text, w.Textarea,
          w.Checkbox, w.Dropdown, w.Select, w.SelectMultiple, w.Combobox, w.IntSlider,
          w.BoundedIntText)


def shown(root) -> list:
    """Every widget under ``root`` that the page displays: neither it nor a box around
    it has ``display: none`` (every tab's content counts, selected or not)."""
    parents: dict[int, object] = {}
    for wd in walk(root):
        for kid in getattr(wd, "children", None) or ():
            parents[id(kid)] = wd
    out = []
    for wd in walk(root):
        up, visible = wd, True
        while up is not None:
            if getattr(getattr(up, "layout", None), "display", None) == "none":
                visible = False
                break
            up = parents.get(id(up))
        if visible:
            out.append(wd)
    return out


def marked(root, mark: str = WRITES) -> list:
    return [wd for wd in shown(root) if mark in getattr(wd, "_dom_classes", ())]


def classes(widgets) -> set:
    return {c for wd in widgets for c in wd._dom_classes}


def page(path: Path, query: str) -> App:
    """A page built from its address with every tab opened once (both games, History)."""
    app = App(Store(path))
    app.apply_query(query)
    for i in (1, 2, 0):
        app.tabs.selected_index = i
    return app


@pytest.fixture
def both_games(tmp_path) -> Env:
    return make_env(tmp_path)


def test_the_table_view_shows_no_control_that_writes_in_any_tab(both_games):
    table = page(both_games.path, "view=table")
    assert table.session.role is Role.TABLE and table.sse.session.role is Role.TABLE
    assert table.sse.gid == both_games.sse and table.ats.gid == both_games.gid
    assert marked(table.root) == [] and marked(table.root, HOST_ONLY) == []
    # and every input still shown is one that only reads (a writing control that was
    # never marked fails here)
    inputs = [wd for wd in shown(table.root) if isinstance(wd, INPUTS)
              and "sse-hex" not in wd._dom_classes]
    assert inputs and all(set(wd._dom_classes) & READ_CONTROLS for wd in inputs), \
        [(type(wd).__name__, wd._dom_classes, getattr(wd, "description", "")) for wd in inputs
         if not set(wd._dom_classes) & READ_CONTROLS]
    # the table view still shows the game: every station, the Small Star Empires board
    assert table.ats.views_part.table_stations.value.count("<svg") >= len(PLAYERS)
    assert any("sse-hex" in wd._dom_classes for wd in shown(table.sse.box))


def test_the_host_page_shows_its_controls_that_write(both_games):
    host = page(both_games.path, "")
    assert host.session.role is Role.HOST
    got = classes(marked(host.root))
    assert {"turn-entry", "undo", "new-game", "ats-timer", "sse-entry", "sse-undo", "sse-new",
            "sse-timer", "history-delete", "history-import"} <= got
    # the same checks as the table view's, which therefore can fail
    inputs = [wd for wd in shown(host.root) if isinstance(wd, INPUTS)
              and "sse-hex" not in wd._dom_classes]
    assert not all(set(wd._dom_classes) & READ_CONTROLS for wd in inputs)


def test_a_seat_page_hides_delete_import_and_new_game_but_not_the_entry(both_games):
    seat = page(both_games.path, "seat=Ana")
    assert seat.session.role is Role.SEAT and seat.ats.seat == "Ana"
    assert marked(seat.root, HOST_ONLY) == []
    got = classes(marked(seat.root))
    assert {"turn-entry", "undo", "ats-timer", "sse-entry", "sse-timer"} <= got
    assert not {"history-delete", "history-import", "new-game", "sse-new"} & got
    # Ana is no player of the Small Star Empires game (Ann, Bob): that tab is a view of
    # it, whose undo the session refuses, so it shows none (issue 35, GameSession.may_undo)
    assert "sse-undo" not in got


def test_the_setup_screens_of_the_table_view_and_a_seat_start_nothing(tmp_path):
    """No game saved yet: every page shows the setup screens."""
    path = tmp_path / "games.sqlite"
    host = page(path, "")
    assert {"start-game", "import-record", "import-cards", "catalogue-panel", "sse-start",
            "sse-edit-maps"} <= classes(marked(host.root))
    table = page(path, "view=table")
    assert marked(table.root) == [] and marked(table.root, HOST_ONLY) == []
    assert "records nothing" in table.ats.setup_part.setup_role_note.value
    assert table.ats.setup_part.setup_role_note.layout.display == ""
    assert "records nothing" in table.sse.setup_part.setup_role_note.value
    seat = page(path, "seat=Ana")
    assert marked(seat.root, HOST_ONLY) == []
    assert "catalogue-panel" in classes(marked(seat.root))        # card values: a seat may
    # a forced start is refused below the screen, whatever the screen shows
    for p in (table, seat):
        p.ats.setup_part.name_boxes[0].value, p.ats.setup_part.name_boxes[1].value = "Ana", "Ben"
        p.guarded(p.ats.setup_part.start_game)()
        assert "new game" in p.status.value and "Traceback" not in p.status.value
        p.sse.setup_part.names[0].value, p.sse.setup_part.names[1].value = "Ann", "Bob"
        p.guarded(p.sse.start_game)()
        assert "new game" in p.status.value
    assert Store(path).games(format=None) == []


def test_writes_forced_through_the_table_view_are_refused_in_one_line(both_games):
    env = both_games
    table = page(env.path, "view=table")
    before = snapshot(env)

    def refused(fn, *args):
        table.status.value = ""
        table.guarded(fn)(*args)
        msg = table.status.value
        assert "The table view records nothing" in msg, msg
        assert "Traceback" not in msg and msg.count("<div") == 1
    # the History tab's Delete… that dropped every page to the New game screen
    table.history.list.value = env.gid
    refused(table.history.ask_delete)
    assert table.history.confirm.children == ()
    refused(table.session.delete, env.gid)
    # every other write of the Among the Stars screen
    table.ats.entry_player.value, table.ats.entry_action.value = "Ben", "discard"
    table.ats.entry_card.value = "Garden"
    refused(table.ats.entry_part.discard)
    refused(table.ats.undo)
    refused(table.ats.tap_timer)
    refused(table.ats.save_final_details)
    refused(table.ats.entry_part.save_values, parse_card(CARD))
    refused(table.session.add_manual, [MANUAL])
    refused(table.session.import_records, [record_file(env)])
    # the Small Star Empires tab: a tap on its board, undo, the timer, start
    table.tabs.selected_index = 1
    sse = table.sse
    home = next(s.at for s in sse.game.state.players[sse.game.current].ships)
    refused(sse.board_part.clicked, home)
    refused(sse.undo)
    refused(sse.tap_timer)
    refused(sse.session.set_manual, [{"source": "nebula_table", "values": [1, 2, 3, 4, 5, 6]}])
    refused(sse.show_editor)
    assert snapshot(env) == before
    # the host's page is untouched and goes on
    host = page(env.path, "")
    assert host.ats.gid == env.gid and len(host.ats.game.actions) == 1
    host.ats.entry_player.value, host.ats.entry_action.value = "Ben", "discard"
    host.ats.entry_card.value = "Garden"
    host.driver().discard()
    assert len(Store(env.path).load(env.gid)["actions"]) == 2


def test_a_seat_cannot_delete_import_or_start_but_may_play(both_games):
    env = both_games
    seat = page(env.path, "seat=Ben")
    before = snapshot(env)
    for fn, args in ((seat.history.ask_delete, ()), (seat.session.delete, (env.gid,)),
                     (seat.session.import_records, ([record_file(env)],)),
                     (seat.ats.setup_part.start_game, ())):
        seat.status.value = ""
        seat.guarded(fn)(*args)
        assert "page cannot" in seat.status.value, fn
    assert snapshot(env) == before
    seat.ats.entry_action.value = "discard"
    seat.ats.entry_card.value = "Garden"
    seat.driver().discard()                                     # Ben's own action: recorded
    assert len(Store(env.path).load(env.gid)["actions"]) == 2


def test_a_page_writes_nothing_before_its_address_is_read(tmp_path, monkeypatch):
    """dashboard() builds every page as the table view until its address is read (a
    preheated kernel builds its page before it knows whose page it is): a finished
    game's running timer, which the final table stops, is stopped only by the page the
    address makes the host's."""
    import json
    from companion.core.paths import user_dir
    from companion.ui.app import dashboard
    rec = json.loads((Path(__file__).parent.parent / "data" / "samples" /
                      "george-base-final-scoring.json").read_text(encoding="utf-8"))
    assert Game.from_record(rec).state.finished
    rec["meta"] = playtime.start(rec.get("meta") or {}, now=1_767_900_000.0)
    user_dir().mkdir(parents=True, exist_ok=True)
    store = Store(user_dir() / "games.sqlite")
    gid = store.create(rec)

    def timer_state() -> str:
        return playtime.state(store.load(gid)["meta"])
    early = App(Store(store.path), role=Role.TABLE)     # what dashboard() builds first
    assert early.ats.gid == gid and early.session.role is Role.TABLE
    assert timer_state() == "running"
    assert marked(early.root) == []
    for query, stops in (("view=table", False), ("", True)):
        monkeypatch.setenv("QUERY_STRING", query)
        dashboard()
        page_ = dashboard.app
        assert page_.session.role is (Role.TABLE if query else Role.HOST)
        assert (timer_state() == "stopped") is stops, query
    store.close()
