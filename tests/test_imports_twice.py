"""Issue 37, the imports and History's exports (docs/history.md, "Importing twice,
the date played, one play" and "A game's exports from History").

From the issue: "Imports: the same record file imported twice with `history import`
becomes two games (Cy shows two wins); the History tab does not duplicate it but says
'Imported 1 game(s)' both times; a record and the BG Stats play of the same game count
as two plays; an imported record is dated when it was imported, not when it was
played."  And: "the BGG XML has no game id (`bgg-api` reads `game_id=None`)".

The store tests run on both backends (the ``store`` fixture of tests/test_history.py:
SQLite, and PostgreSQL marked ``postgres``)."""
from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET

from boardgamegeek.loaders.plays import add_plays_from_xml, create_plays_from_xml

import pytest

from companion.core.errors import StoreWriteFailed
from companion.table import history, plays_export, plays_import, stats
from companion.table.pgstore import PgStore
from companion.table.store import Store

from test_history import records, store  # noqa: F401  (the store fixture: both backends)

NO_IDS = {g: None for g in plays_export.GAMES}
#: 2021-03-04 20:00 local time: when the fixture game G1 "was played"
PLAYED = time.mktime((2021, 3, 4, 20, 0, 0, 0, 0, -1))


def _record_file(tmp_path, name="g1.json", **meta):
    rec = records()["G1"]
    rec["meta"] = {"title": "Ann and Bea, at the club", **meta}
    path = tmp_path / name
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path


def _wins(store):
    history.sync(store)
    return sorted(store.query("SELECT player, won FROM g_players"))


def test_the_same_record_imported_twice_is_one_game(store, tmp_path):
    """"the same record file imported twice with `history import` becomes two games
    (Cy shows two wins)": the record's own identity (format, setup with its seed,
    actions), not the file name, makes it the same game; the second import says so."""
    first = history.import_records(store, [_record_file(tmp_path)])
    assert len(first) == 1 and first.already == []
    wins = _wins(store)
    again = history.import_records(store, [_record_file(tmp_path, "renamed copy.json",
                                                        notes="typed later")])
    assert list(again) == [] and again.already == [("renamed copy.json",
                                                    "Ann and Bea, at the club")]
    assert len(store.games(format=None)) == 1
    assert _wins(store) == wins
    words = history.import_summary(again)
    assert words == ("Imported 0 new games; 1 already there "
                     "(renamed copy.json: Ann and Bea, at the club)")
    assert history.import_summary(first) == "Imported 1 new game"


def test_two_copies_in_one_import_are_one_game(store, tmp_path):
    """The same rule inside one import: two files of the same record store one game."""
    a = _record_file(tmp_path, "a.json")
    b = _record_file(tmp_path, "b.json")
    got = history.import_records(store, [a, b])
    assert len(got) == 1 and [f for f, _ in got.already] == ["b.json"]


def test_an_imported_record_keeps_the_date_it_was_played(store, tmp_path):
    """"an imported record is dated when it was imported, not when it was played": its
    play timer's start, or the date its export wrote (meta.played), is its date."""
    timer = {"started": PLAYED, "pauses": [], "stopped": PLAYED + 3600}
    history.import_records(store, [_record_file(tmp_path, timer=timer)])
    df = stats.games(store)
    assert df.date.tolist() == ["2021-03-04 20:00"]


def test_an_exported_record_brought_back_keeps_its_date(make_store, tmp_path):
    """A game without a timer: its export carries its date (meta.played) and the
    import dates it so, without keeping that key in the stored meta."""
    a = make_store()
    history.import_records(a, [_record_file(tmp_path, played=PLAYED)])
    out = history.export_records(a, tmp_path / "out")
    assert json.loads(out[0].read_text())["meta"]["played"] == PLAYED
    assert "played" not in a.load(a.games(format=None)[0]["id"])["meta"]
    assert stats.games(a).date.tolist() == ["2021-03-04 20:00"]


def _same_play_bgstats(store, tmp_path):
    """The BG Stats export of the play of G1 (its day, players and scores)."""
    history.sync(store)
    seats = store.query("SELECT player, total, won FROM g_players ORDER BY seat")
    doc = {"players": [{"id": i, "name": p} for i, (p, _, _) in enumerate(seats, 1)],
           "games": [{"id": 1, "name": "Among the Stars"}], "locations": [],
           "plays": [{"uuid": "5A1E-PLAY", "playDate": "2021-03-04 21:30:00", "gameRefId": 1,
                      "durationMin": 75,
                      "playerScores": [{"playerRefId": i, "score": str(t), "winner": bool(w)}
                                       for i, (_, t, w) in enumerate(seats, 1)]}]}
    path = tmp_path / "bgstats.bgsplay"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_record_and_the_bg_stats_play_of_the_same_game_are_one_play(store, tmp_path):
    """"a record and the BG Stats play of the same game count as two plays": the record
    first, then its play logged in BG Stats (the record dated by its export)."""
    history.import_records(store, [_record_file(tmp_path, played=PLAYED)])
    bgs = _same_play_bgstats(store, tmp_path)
    result = plays_import.import_plays(store, [bgs], bgg_ids=NO_IDS)
    assert (result["imported"], result["duplicates"]) == ([], 1)
    assert len(store.games(format=None)) == 1


def test_the_record_of_an_imported_play_replaces_it(make_store, tmp_path):
    """The other order: the play from BG Stats first, then the game's record: one play,
    the record (it replays), with the play's length kept; the page and the command line
    say which play it replaced."""
    probe = make_store()
    history.import_records(probe, [_record_file(tmp_path, "probe.json", played=PLAYED)])
    bgs = _same_play_bgstats(probe, tmp_path)
    store = make_store()                # the same database: the probe's game goes
    for g in store.games(format=None):
        store.delete(g["id"])
    plays_import.import_plays(store, [bgs], bgg_ids=NO_IDS)
    got = history.import_records(store, [_record_file(tmp_path, played=PLAYED)])
    games = store.games(format=None)
    assert len(got) == 1 and [g["id"] for g in games] == list(got)
    assert store.load(got[0]).get("format") != plays_import.IMPORTED_FORMAT
    assert history.play_details(store, got[0])["duration_min"] == 75
    assert len(got.replaced) == 1 and "replaces the same play" in history.import_summary(got)
    df = stats.games(store)
    assert len(df) == 1 and df.date.tolist() == ["2021-03-04 20:00"]


def _play_then_record(make_store, tmp_path):
    """A store holding G1's play as imported from BG Stats (nothing else), and G1's
    record file, dated when it was played: the record will replace the play."""
    probe = make_store()
    history.import_records(probe, [_record_file(tmp_path, "probe.json", played=PLAYED)])
    bgs = _same_play_bgstats(probe, tmp_path)
    store = make_store()                # the same database: the probe's game goes
    for g in store.games(format=None):
        store.delete(g["id"])
    plays_import.import_plays(store, [bgs], bgg_ids=NO_IDS)
    return store, _record_file(tmp_path, played=PLAYED)


def _stored(store):
    """Every stored game: (id, record, the date it is stored with), by id."""
    when = dict(store.query("SELECT id, created FROM games"))
    return sorted((g["id"], store.load(g["id"]), when[g["id"]])
                  for g in store.games(format=None))


FAULT = "companion_test_fault"


def _fault(store, event: str, when: str = "") -> None:
    """From now on every ``event`` ("DELETE", "INSERT", "UPDATE OF created") on the table
    games (``when``: of the rows where this SQL condition holds) fails as a failed write
    does: on SQLite an error raised inside the store's own connection (a trigger calling a
    function that raises), on PostgreSQL an error the server raises (a trigger).  The
    store turns it into its one-line StoreWriteFailed; :func:`_no_fault` ends it."""
    if isinstance(store, PgStore):
        with store.transaction() as c:
            c.execute(f"CREATE OR REPLACE FUNCTION {FAULT}() RETURNS trigger LANGUAGE plpgsql "
                      "AS $f$ BEGIN RAISE EXCEPTION 'the disk failed (a test fault)'; END $f$")
            c.execute(f"CREATE TRIGGER {FAULT} BEFORE {event} ON games FOR EACH ROW "
                      + (f"WHEN ({when}) " if when else "") + f"EXECUTE FUNCTION {FAULT}()")
        return

    def fail() -> None:
        raise OSError("the disk failed (a test fault)")
    store._conn.create_function(FAULT, 0, fail)
    with store.transaction() as c:
        c.execute(f"CREATE TRIGGER {FAULT} BEFORE {event} ON games "
                  + (f"WHEN {when} " if when else "") + f"BEGIN SELECT {FAULT}(); END")


def _no_fault(store) -> None:
    with store.transaction() as c:
        c.execute(f"DROP TRIGGER {FAULT}" + (" ON games" if isinstance(store, PgStore) else ""))


def test_a_replacement_that_fails_at_the_removal_leaves_the_play(make_store, tmp_path):
    """A finished record replacing the play imported from BG Stats: the new game, its date
    and the removal of the play are one write.  The write fails at the removal (the
    database refuses to delete a row): nothing of it is kept, the store holds exactly the
    play it held, no second play of one game, no game dated today.  Once the store works
    again, the same import leaves one play, the record, dated when it was played."""
    store, record = _play_then_record(make_store, tmp_path)
    before = _stored(store)
    assert [r["format"] for _, r, _ in before] == [plays_import.IMPORTED_FORMAT]
    _fault(store, "DELETE")
    with pytest.raises(StoreWriteFailed):
        history.import_records(store, [record])
    _no_fault(store)
    assert _stored(store) == before
    got = history.import_records(store, [record])
    assert len(got) == 1 and len(got.replaced) == 1
    after = _stored(store)
    assert [(gid, r["format"], when) for gid, r, when in after] == \
        [(got[0], "among-the-stars/1", PLAYED)]
    assert history.play_details(store, got[0])["duration_min"] == 75   # the play's, kept
    assert stats.games(store).date.tolist() == ["2021-03-04 20:00"]


def test_a_later_failure_puts_the_replaced_play_back(make_store, tmp_path):
    """An import that fails after a record replaced a play (the next file's game cannot be
    written) is taken out whole, as before: the replaced play is back as it was (its
    record, its date), and the record's game is gone."""
    store, record = _play_then_record(make_store, tmp_path)
    before = [(r, when) for _, r, when in _stored(store)]
    other = records()["G2"]
    other["meta"] = {"title": "cannot be written"}
    other_path = tmp_path / "g2.json"
    other_path.write_text(json.dumps(other), encoding="utf-8")
    _fault(store, "INSERT", "NEW.title = 'cannot be written'")
    with pytest.raises(StoreWriteFailed):
        history.import_records(store, [record, other_path])
    _no_fault(store)
    assert [(r, when) for _, r, when in _stored(store)] == before


def test_an_imported_record_is_dated_in_the_write_that_stores_it(make_store, tmp_path):
    """The date played goes into the new game itself, not into a second write after it
    (the game is never stored dated today): a store that refuses to change a stored
    game's date still takes the import, dated when played."""
    store = make_store()
    _fault(store, "UPDATE OF created")
    got = history.import_records(store, [_record_file(tmp_path, played=PLAYED)])
    _no_fault(store)
    assert store.query("SELECT id, created FROM games") == [(got[0], PLAYED)]


def test_cli_history_import_twice_says_already_there(run_cli, tmp_path):
    """`history import` of the same record twice: one game, and the second run says it
    was already there, in the page's words (history.import_summary) and then where."""
    home = tmp_path / "home"
    path = _record_file(tmp_path)
    db = home / "games.sqlite"
    r1 = run_cli("history", "import", path, home=home)
    assert r1.returncode == 0, r1.stderr
    assert r1.stdout == f"Imported 1 new game into {db}\n"
    r2 = run_cli("history", "import", path, home=home)
    assert r2.returncode == 0, r2.stderr
    assert r2.stdout == (f"Imported 0 new games; 1 already there (g1.json: Ann and Bea, at "
                         f"the club) into {db}\n")
    assert "game(s)" not in r1.stdout + r2.stdout
    r3 = run_cli("history", "plays", home=home)
    assert r3.stdout.count("\n") == 2, r3.stdout           # the header and one play


def test_cli_says_which_play_a_record_replaced(run_cli, tmp_path):
    """The play from BG Stats imported on the command line, then its game's record: the
    line says what the page says, "1 replaces the same play …", then where."""
    home = tmp_path / "home"
    probe = Store(tmp_path / "probe.sqlite")
    try:
        history.import_records(probe, [_record_file(tmp_path, "probe.json", played=PLAYED)])
        bgs = _same_play_bgstats(probe, tmp_path)
    finally:
        probe.close()
    assert run_cli("history", "import", bgs, home=home).returncode == 0
    r = run_cli("history", "import", _record_file(tmp_path, played=PLAYED), home=home)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("Imported 1 new game; 1 replaces the same play imported from another "
                        "logger (Among the Stars, 2021-03-04 (BG Stats)) into "
                        f"{home / 'games.sqlite'}\n"), r.stdout
    assert run_cli("history", "plays", home=home).stdout.count("\n") == 2


def _bgg_read(text: str):
    root = ET.fromstring(text.encode("utf-8"))
    plays = create_plays_from_xml(root)
    add_plays_from_xml(plays, root)
    return plays


def test_bgg_xml_carries_the_game_id_the_player_typed(run_cli, tmp_path):
    """"the BGG XML has no game id (`bgg-api` reads `game_id=None`)": without the id the
    export says once how to set it; set once (a setting in the player's data folder, no
    number shipped), bgg-api reads it back as the play's game_id."""
    home = tmp_path / "home"
    assert run_cli("history", "import", _record_file(tmp_path), home=home).returncode == 0
    xml = tmp_path / "plays.xml"
    r = run_cli("history", "export", "--format", "bgg", xml, home=home)
    assert r.returncode == 0, r.stderr
    assert "no BoardGameGeek id for Among the Stars" in r.stderr
    assert 'history bgg-ids "Among the Stars=ID"' in r.stderr
    assert _bgg_read(xml.read_text(encoding="utf-8"))[0].game_id is None
    assert run_cli("history", "bgg-ids", "Among the Stars=4242", home=home).returncode == 0
    assert json.loads((home / "loggers.json").read_text())["bgg_ids"]["Among the Stars"] == 4242
    r = run_cli("history", "export", "--format", "bgg", xml, home=home)
    assert r.returncode == 0 and "no BoardGameGeek id" not in r.stderr, r.stderr
    plays = _bgg_read(xml.read_text(encoding="utf-8"))
    assert [(p.game_id, p.game_name) for p in plays] == [(4242, "Among the Stars")]


def test_bgg_id_missing_names_the_games():
    """The helper the History tab and the command line share."""
    plays = [{"game": "Among the Stars"}, {"game": "Small Star Empires"}]
    ids = {**NO_IDS, "Small Star Empires": 7}
    assert plays_export.bgg_id_missing(plays, bgg_ids=ids) == ["Among the Stars"]
    assert "Type it once" in plays_export.bgg_id_request(["Among the Stars"])


def _record_at(tmp_path, name: str, n: int):
    """The fixture game G1 as exported after its first ``n`` actions."""
    rec = records()["G1"]
    rec["meta"] = {"title": "Ann and Bea, at the club"}
    rec["actions"] = rec["actions"][:n]
    path = tmp_path / name
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path, rec


def test_a_record_played_on_after_its_export_brings_the_stored_game_up_to_date(store, tmp_path):
    """A game exported at action 30, then played on to its end elsewhere (another laptop, a
    table that went on without the store): importing the longer record is not a second
    game (two plays of one evening) but the same game with the actions it lacked."""
    full = records()["G1"]["actions"]
    early, _ = _record_at(tmp_path, "at-30.json", 30)
    first = history.import_records(store, [early])
    assert len(first) == 1
    gid = first[0]
    later, rec = _record_at(tmp_path, "the-end.json", len(full))
    got = history.import_records(store, [later])
    assert list(got) == [] and got.already == []
    assert got.continued == [("the-end.json", "Ann and Bea, at the club", len(full) - 30)]
    assert history.import_summary(got) == (
        f"Imported 0 new games; 1 brought up to date (Ann and Bea, at the club: "
        f"{len(full) - 30} more actions)")
    assert [g["id"] for g in store.games(format=None)] == [gid]
    assert store.load(gid)["actions"] == full
    # the same file again: already there; the older file too, said to be behind
    again = history.import_records(store, [later, early])
    assert list(again) == [] and again.continued == []
    assert again.already == [
        ("the-end.json", "Ann and Bea, at the club"),
        ("at-30.json", f"Ann and Bea, at the club ({len(full) - 30} actions further in the "
                       "store)")]
    assert len(store.games(format=None)) == 1


def test_a_record_that_went_another_way_is_a_game_of_its_own(store, tmp_path):
    """Not a continuation: the same setup whose actions differ from the stored game's
    (the same turn entered in another order) is kept as a game of its own; the stored
    game is not touched."""
    full = records()["G1"]["actions"]
    stored, _ = _record_at(tmp_path, "stored.json", 31)
    gid = history.import_records(store, [stored])[0]
    other = records()["G1"]
    other["meta"] = {"title": "the other way"}
    other["actions"] = [*full[:28], full[29], full[28]]     # Bea, then Ann, in year 3 turn 3
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other), encoding="utf-8")
    got = history.import_records(store, [path])
    assert len(got) == 1 and got.continued == [] and got.already == []
    assert store.load(gid)["actions"] == full[:31]
    assert store.load(got[0])["actions"] == other["actions"]
