"""Issue 26, the club's parts: the player's catalogue and sector tiles shared by every
server of one club database (companion.core.userdocs, companion.table.club), and the
table a server lists its games of (--table, COMPANION_TABLE).

Two "servers" are two stores on the same PostgreSQL database with two data folders
(COMPANION_HOME); on SQLite (one laptop) the documents stay the data folder's files."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from companion.ats import catalogue as cat
from companion.ats.game import Game
from companion.core import userdocs
from companion.core.errors import CompanionError, StoreError
from companion.sse import tiles as tl
from companion.table import club
from companion.table.store import Store
from companion.table.backends import open_store

sys.path.insert(0, str(Path(__file__).parent))
from test_sse_tiles import home_tile, line_form, main_tile  # noqa: E402

PLAYERS = ["Ana", "Ben"]
#: a shipped card whose printed values are unknown (null) in the shipped catalogue; the
#: numbers these tests type for it stand for what a player would type, not its printed
#: values (nobody sources those), and no test depends on them being the real ones
CARD = "Alien Bazaar"
OTHER = "Alien Temple"


def card(name, **values):
    return cat.parse_card({"name": name, **values})


class Server:
    """One dashboard server of the club: its own data folder, its own connection."""

    def __init__(self, url: str, home: Path, monkeypatch):
        self.home, self.monkeypatch = home, monkeypatch
        home.mkdir(parents=True, exist_ok=True)
        self.store = open_store(url)
        self.docs = club.documents_for(self.store)

    def __enter__(self):
        self.monkeypatch.setenv("COMPANION_HOME", str(self.home))
        self._old = userdocs.use(self.docs)
        return self

    def __exit__(self, *exc):
        userdocs.use(self._old)
        return False


@pytest.fixture
def servers(pg_url, tmp_path, monkeypatch):
    made = [Server(pg_url, tmp_path / "home-a", monkeypatch),
            Server(pg_url, tmp_path / "home-b", monkeypatch)]
    yield made
    for s in made:
        s.store.close()


# ----------------------------------------------------------------------------- catalogues
@pytest.mark.postgres
def test_the_club_database_has_the_documents_table(pg_url):
    s = open_store(pg_url)
    try:
        assert s.has_table("user_docs")
        assert isinstance(club.documents_for(s), club.ClubDocuments)
        assert s.query("SELECT name FROM user_docs") == []
    finally:
        s.close()


@pytest.mark.postgres
def test_a_database_made_before_the_documents_gets_their_table_with_the_first(servers):
    a, b = servers
    with a.store.transaction() as c:              # as a club database of the pg branch
        c.execute("DROP TABLE user_docs")
    with b:
        assert cat.load_user_cards() == [] and tl.load_tiles() == {}
        assert cat.Catalogue.default()[CARD].unknown_all()
        assert not b.store.has_table("user_docs")     # reading writes nothing
        cat.save_user_card(card(CARD, cost=3))
    with a:
        assert cat.Catalogue.default()[CARD].cost == 3


@pytest.mark.postgres
def test_a_card_value_typed_on_one_server_is_known_on_the_other(servers):
    a, b = servers
    with a:
        assert cat.Catalogue.default()[CARD].unknown_all()       # nothing typed yet
        cat.save_user_card(card(CARD, cost=3, energy=1, vp=2, abilities=[], max="none"))
    with b:
        known = cat.Catalogue.default()[CARD]
        assert (known.cost, known.energy, known.vp, known.abilities) == (3, 1, 2, ())
        assert "cost" not in known.unknown_all()
        assert [c.name for c in cat.load_user_cards()] == [CARD]
    # nothing in either data folder: the catalogue is the club's
    assert not (a.home / "my-cards.yaml").exists() and not (b.home / "my-cards.yaml").exists()


@pytest.mark.postgres
def test_values_of_one_card_typed_on_two_servers_are_merged_value_by_value(servers):
    a, b = servers
    with a:
        cat.save_user_card(card(CARD, cost=3))
    with b:
        cat.save_user_card(card(CARD, vp=2))           # its null cost never hides the 3
    with a:
        got = cat.Catalogue.default()[CARD]
        assert (got.cost, got.vp) == (3, 2)


@pytest.mark.postgres
def test_concurrent_saves_of_different_cards_on_several_servers_are_all_kept(
        pg_url, tmp_path, run_cli_many):
    """Six command lines (six servers, six data folders) import six different cards at
    once into the club's catalogue: the read-merge-write is one transaction, so none
    is lost."""
    names = ["Alien Bazaar", "Alien Museum", "Alien Temple", "Garden", "U-Cannon",
             "Holographic Display Area"]
    calls = []
    for i, name in enumerate(names):
        f = tmp_path / f"cards-{i}.yaml"
        f.write_text(cat.dump_yaml([card(name, cost=i + 1)]), encoding="utf-8")
        calls.append(["--database", pg_url, "catalogue", "import", str(f)])
    results = run_cli_many(calls, home=tmp_path / "home")
    assert [r.returncode for r in results] == [0] * len(names), [r.stderr for r in results]
    s = open_store(pg_url)
    try:
        with userdocs.using(club.documents_for(s)):
            mine = {c.name: c.cost for c in cat.load_user_cards()}
    finally:
        s.close()
    assert mine == {name: i + 1 for i, name in enumerate(names)}


@pytest.mark.postgres
def test_threads_saving_different_cards_at_once_keep_every_card(pg_url):
    """In one process: eight stores (eight connections) each merge their card at the same
    moment through ClubDocuments.update."""
    import threading
    stores = [open_store(pg_url) for _ in range(8)]
    names = [f"Card {i}" for i in range(8)]
    start = threading.Barrier(len(stores))
    errors = []

    def save(store, name):
        def add(text):
            cards = {c.name: c for c in ([] if text is None
                                         else cat.loads_catalogue(text, "club"))}
            cards[name] = card(name, cost=1)
            return cat.dump_yaml(sorted(cards.values(), key=lambda c: c.name))
        try:
            start.wait()
            club.ClubDocuments(store).update(cat.USER_CARDS, add)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=save, args=(s, n)) for s, n in zip(stores, names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == []
        text = club.ClubDocuments(stores[0]).read(cat.USER_CARDS)
        assert sorted(c.name for c in cat.loads_catalogue(text, "club")) == names
    finally:
        for s in stores:
            s.close()


@pytest.mark.postgres
def test_a_hostile_card_name_and_note_round_trip_safely(servers):
    a, b = servers
    hostile = "Bob'); DROP TABLE user_docs; -- \"<script>\" ☃"
    with a:
        cat.save_user_card(card(hostile, cost=2, notes="100% ?; $1 %s {x} ' \" \\"))
    with b:
        got = cat.Catalogue.default()[hostile]
        assert got.name == hostile and got.cost == 2
        assert got.to_dict()["notes"] == "100% ?; $1 %s {x} ' \" \\"
    assert a.store.has_table("user_docs") and a.store.has_table("games")


@pytest.mark.postgres
def test_a_hostile_document_name_is_refused(servers):
    docs = servers[0].docs
    for bad in ("../games", "", "a/b/c", "x\x00y", "x" * 300):
        with pytest.raises(StoreError, match="document's name"):
            docs.read(bad)
        with pytest.raises(StoreError, match="document's name"):
            docs.write(bad, "x")
    assert servers[0].store.query("SELECT name FROM user_docs") == []


@pytest.mark.postgres
def test_a_refused_merge_writes_nothing(servers):
    a, _ = servers
    with a:
        cat.save_user_card(card(CARD, cost=3))
        before = a.docs.read(cat.USER_CARDS)
        with pytest.raises(CompanionError):
            a.docs.update(cat.USER_CARDS, lambda text: (_ for _ in ()).throw(
                CompanionError("refused")))
        assert a.docs.read(cat.USER_CARDS) == before


@pytest.mark.postgres
def test_catalogue_export_and_import_on_the_club(servers, tmp_path):
    a, b = servers
    src = tmp_path / "in.yaml"
    src.write_text(cat.dump_yaml([card(CARD, cost=4), card(OTHER, vp=1)]), encoding="utf-8")
    with a:
        assert cat.import_user_catalogue(src) == [CARD, OTHER]
    with b:
        out = cat.export_user_catalogue(tmp_path / "out.yaml")
        assert {c.name: (c.cost, c.vp) for c in cat.load_yaml(out)} == {
            CARD: (4, None), OTHER: (None, 1)}


@pytest.mark.postgres
def test_the_command_line_of_another_server_sees_the_club_catalogue(pg_url, tmp_path, run_cli):
    f = tmp_path / "cards.yaml"
    f.write_text(cat.dump_yaml([card(CARD, cost=3, energy=1, vp=2, abilities=[],
                                     max="none")]), encoding="utf-8")
    before = run_cli("--database", pg_url, "catalogue", "unknown", home=tmp_path / "b")
    assert before.returncode == 0 and f"{CARD}:" in before.stdout
    done = run_cli("--database", pg_url, "catalogue", "import", str(f), home=tmp_path / "a")
    assert done.returncode == 0, done.stderr
    assert "imported 1 card(s) into the club database" in done.stdout
    assert "my-cards.yaml" in done.stdout
    after = run_cli("--database", pg_url, "catalogue", "unknown", home=tmp_path / "b")
    assert after.returncode == 0 and f"{CARD}:" not in after.stdout
    assert f"{OTHER}:" in after.stdout
    assert not (tmp_path / "a" / "my-cards.yaml").exists()


# ----------------------------------------------------------------------------- tiles
@pytest.mark.postgres
def test_a_tile_typed_on_one_server_is_known_on_the_other(servers):
    a, b = servers
    with a:
        tl.save_tile(tl.SectorTile.from_dict(main_tile("M1a", other="M1b")))
    with b:
        tl.save_tile(tl.SectorTile.from_dict(home_tile("H1")))
        assert sorted(tl.load_tiles()) == ["H1", "M1a"]
        tl.delete_tile("H1")
    with a:
        assert sorted(tl.load_tiles()) == ["M1a"]
        with pytest.raises(tl.TileError, match="no tile 'H1'"):
            tl.delete_tile("H1")
    assert not (a.home / "sse-tiles.json").exists() and not (b.home / "sse-tiles.json").exists()


@pytest.mark.postgres
def test_tiles_import_and_export_on_the_club(servers, tmp_path):
    a, b = servers
    src = tmp_path / "tiles.json"
    src.write_text(tl.dumps_tiles({"M2": tl.SectorTile.from_dict(main_tile("M2", other="M3"))}),
                   encoding="utf-8")
    with a:
        assert tl.import_tiles(src) == ["M2"]
    with b:
        out = tl.export_tiles(tmp_path / "out.json")
        assert sorted(tl.read_tiles_file(out)) == ["M2"]
        # a tile refused by the collection's checks writes nothing
        with pytest.raises(tl.TileError, match="M3's other side is M4"):
            tl.save_tile(tl.SectorTile.from_dict(main_tile("M3", other="M4")))
        assert sorted(tl.load_tiles()) == ["M2"]


# ----------------------------------------------------------------------------- forms, maps
@pytest.mark.postgres
def test_a_form_and_a_map_saved_on_one_server_are_offered_on_the_other(servers):
    from companion.sse import forms as fm
    from companion.sse import hexmap as hm
    a, b = servers
    form = line_form(["homeworld", "main", "homeworld"], name="club line")
    m = hm.rectangle(3, 3)
    with a:
        assert fm.available_forms() == {}
        fm.save_user_form(form)
        hm.save_user_map(m, "club map")
    with b:
        assert list(fm.available_forms()) == ["club line"]
        assert fm.load_form("club line") == form
        assert "club map" in hm.available_maps()
        got = hm.load_named("club map")
        assert got.name == "club map" and got.to_dict() == {**m.to_dict(), "name": "club map"}
        with pytest.raises(fm.FormError, match="no form called 'nope'"):
            fm.load_form("nope")
    for s in (a, b):
        assert not (s.home / "sse-forms").exists() and not (s.home / "sse-maps").exists()


# ----------------------------------------------------------------------------- one laptop
def test_sqlite_keeps_the_data_folders_files_byte_for_byte(tmp_path, companion_home):
    store = Store(tmp_path / "games.sqlite")
    try:
        docs = club.documents_for(store)
        assert isinstance(docs, userdocs.FileDocuments)
        with userdocs.using(docs):
            cat.save_user_card(card(CARD, cost=3))
            tl.save_tile(tl.SectorTile.from_dict(main_tile("M1")))
            assert cat.user_catalogue_place() == str(companion_home / "my-cards.yaml")
    finally:
        store.close()
    expected_cards = cat.dump_yaml([card(CARD, cost=3)])
    assert (companion_home / "my-cards.yaml").read_text(encoding="utf-8") == expected_cards
    assert (companion_home / "sse-tiles.json").read_text(encoding="utf-8") == tl.dumps_tiles(
        {"M1": tl.SectorTile.from_dict(main_tile("M1"))})
    import sqlite3
    with sqlite3.connect(tmp_path / "games.sqlite") as c:
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "user_docs" not in tables


def test_the_default_documents_are_the_data_folders_files(companion_home):
    docs = userdocs.documents()
    assert isinstance(docs, userdocs.FileDocuments)
    assert docs.file("my-cards.yaml") == companion_home / "my-cards.yaml"
    assert docs.read("x.txt") is None and docs.changed("x.txt") == 0.0
    docs.write("x.txt", "one")
    assert docs.update("x.txt", lambda old: old + " two") == "one two"
    assert (companion_home / "x.txt").read_text(encoding="utf-8") == "one two"
    assert docs.names("sse-maps") == []
    (companion_home / "sse-maps").mkdir()
    (companion_home / "sse-maps" / "b.json").write_text("{}", encoding="utf-8")
    (companion_home / "sse-maps" / "a.json").write_text("{}", encoding="utf-8")
    assert docs.names("sse-maps") == ["a.json", "b.json"]


# ----------------------------------------------------------------------------- the table
def new_game(store, players=PLAYERS, title=None):
    return store.create(Game({"players": list(players)}).to_record(), title=title)


def test_games_created_at_a_table_are_tagged_and_listed_alone(make_store, monkeypatch):
    monkeypatch.setenv(club.TABLE_ENV, "Hall A")
    a = make_store()
    monkeypatch.setenv(club.TABLE_ENV, "Hall B")
    b = make_store()
    monkeypatch.delenv(club.TABLE_ENV)
    plain = make_store()
    assert (a.table, b.table, plain.table) == ("Hall A", "Hall B", None)
    ga, gb, g0 = new_game(a, title="at A"), new_game(b, title="at B"), new_game(plain)
    assert a.load(ga)["meta"]["table"] == "Hall A"          # kept in the record (exports)
    assert "table" not in plain.load(g0)["meta"]
    assert [g["id"] for g in a.games(table=a.table)] == [ga]
    assert [g["id"] for g in b.games(table=b.table)] == [gb]
    assert a.games(table=a.table)[0]["table"] == "Hall A"
    # no table: every game, the club's History sees them all
    assert {g["id"] for g in plain.games(table=plain.table)} == {ga, gb, g0}
    assert {g["id"] for g in a.games()} == {ga, gb, g0}


def test_an_imported_record_is_tagged_with_the_importing_table(make_store, monkeypatch):
    monkeypatch.setenv(club.TABLE_ENV, "Hall A")
    a = make_store()
    rec = Game({"players": PLAYERS}).to_record()
    rec["meta"] = {"table": "Elsewhere", "note": "kept"}
    gid = a.create(rec, write="import")
    assert a.load(gid)["meta"] == {"table": "Hall A", "note": "kept", "title": a.load(gid)[
        "meta"]["title"]}
    assert rec["meta"]["table"] == "Elsewhere"               # the caller's record untouched


@pytest.mark.parametrize("bad", ["", "   ", "x" * 41, "Hall\x1b[2J", "a\nb", "tab\tle"])
def test_a_bad_table_name_is_refused_in_one_line(bad):
    with pytest.raises(club.TableNameRefused) as e:
        club.check_table_name(bad)
    assert "\n" not in str(e.value) and "\x1b" not in str(e.value)
    assert "1 to 40 printable characters" in str(e.value)


def test_a_table_name_is_stripped_and_may_be_hostile_text():
    assert club.check_table_name("  <b>Hall 'A'</b>  ") == "<b>Hall 'A'</b>"
    assert club.check_table_name("x" * 40) == "x" * 40


def test_open_store_refuses_a_bad_table_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(club.TABLE_ENV, "x" * 41)
    with pytest.raises(club.TableNameRefused):
        open_store(tmp_path / "games.sqlite")
    assert not (tmp_path / "games.sqlite").exists()


def test_the_command_line_tags_and_refuses(tmp_path, run_cli, samples_dir):
    db = tmp_path / "games.sqlite"
    record = next(p for p in sorted(samples_dir.glob("*.json"))
                  if "among" in p.read_text(encoding="utf-8")[:200])
    done = run_cli("--database", db, "--table", "Hall A", "history", "import", record)
    assert done.returncode == 0, done.stderr
    s = Store(db)
    try:
        assert [g.get("table") for g in s.games(format=None)] == ["Hall A"]
    finally:
        s.close()
    bad = run_cli("--database", db, "--table", "Hall\x1b[2J", "history", "import", record)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.count("\n") == 1 and "\x1b" not in bad.stderr
    assert "1 to 40 printable characters" in bad.stderr


def test_the_dashboard_refuses_a_bad_table_in_one_line(monkeypatch, capsys):
    from companion import dashboard
    monkeypatch.delenv(club.TABLE_ENV, raising=False)
    assert dashboard.main(["--table", "x" * 41]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1 to 40 printable characters" in err
    assert os.environ.get(club.TABLE_ENV) is None
    assert dashboard.parse(["--table", " Hall A "]).table == "Hall A"


def test_the_pages_lists_show_only_this_tables_games(tmp_path):
    from companion.ui.app import App
    store = Store(tmp_path / "games.sqlite")
    try:
        other = Store(tmp_path / "games.sqlite")
        other.table = "Hall B"
        gb = new_game(other, title="Hall B's game")
        store.table = "Hall A"
        ga = new_game(store, title="Hall A's game")
        other.close()
        app = App(store)
        assert app.ats.gid == ga                      # resumed this table's latest game
        app.ats.setup_part.show_setup()
        assert [v for _, v in app.ats.setup_part.saved.options] == [ga]
        # the host's explicit switch: every table's games, each with its table
        (switch,) = app.ats.setup_part.every_table
        assert "host-only" in switch._dom_classes and "writes" not in switch._dom_classes
        switch.value = True
        labels = dict((v, k) for k, v in app.ats.setup_part.saved.options)
        assert set(labels) == {ga, gb}
        assert labels[gb].endswith("· table Hall B") and labels[ga].endswith("· table Hall A")
        switch.value = False
        assert [v for _, v in app.ats.setup_part.saved.options] == [ga]
        # a seat's or the table view's page does not show it
        app.session.set_role("table")
        app.apply_role()
        assert switch.layout.display == "none"
    finally:
        store.close()


def test_a_server_without_a_table_lists_every_game_and_has_no_switch(tmp_path):
    from companion.ui.app import App
    store = Store(tmp_path / "games.sqlite")
    try:
        other = Store(tmp_path / "games.sqlite")
        other.table = "Hall B"
        gb = new_game(other, title="Hall B's game")
        other.close()
        g0 = new_game(store, title="untagged")
        app = App(store)
        app.ats.setup_part.show_setup()
        assert app.ats.setup_part.every_table == []
        labels = dict((v, k) for k, v in app.ats.setup_part.saved.options)
        assert set(labels) == {gb, g0} and "table" not in labels[gb]
    finally:
        store.close()


def test_the_small_star_empires_list_is_this_tables_too(tmp_path):
    from companion.sse import SseGame
    from companion.sse.game import FORMAT
    from companion.ui.app import App
    rec = SseGame({"players": ["Ann", "Bob"], "map": "basic-2p",
                   "pieces": {"ships": 2}}).to_record()
    store = Store(tmp_path / "games.sqlite")
    try:
        other = Store(tmp_path / "games.sqlite")
        other.table = "Hall B"
        gb = other.create(rec, title="B's")
        other.close()
        store.table = "Hall A"
        ga = store.create(rec, title="A's")
        assert [g["id"] for g in store.games(format=FORMAT, table=store.table)] == [ga]
        app = App(store)
        app.tabs.selected_index = 1
        setup = app.sse.setup_part
        setup.show()
        assert [v for _, v in setup.saved.options] == [ga]
        (switch,) = setup.every_table
        switch.value = True
        assert {v for _, v in setup.saved.options} == {ga, gb}
    finally:
        store.close()
