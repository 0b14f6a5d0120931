"""Issue 26: the first sync in chunks (one read and one transaction per chunk), the
summary tables of store schema 4 (g_card_sums, g_categories) and stats.one_read.

The games are the fixture games of tests/test_history.py (played through the
engines; FIXTURE cards, objectives and races defined in the records, no real card
given a value)."""
from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

from companion.table import derived, history, stats, stats_read
from companion.table.store import SCHEMA_VERSION, Store

from test_history import fill, records

TABLES = ("g_results", "g_players", "g_year_vp", "g_cards", "g_objectives", "g_details",
          "g_card_sums", "g_categories")


def _dump(store: Store) -> dict[str, list]:
    """Every derived row but the time it was derived, sorted (the same whatever the order
    of the writes)."""
    out = {}
    for t in TABLES:
        cols = [r[1] for r in store._conn.execute(f"PRAGMA table_info({t})")]
        keep = [c for c in cols if c != "derived_at"]
        out[t] = sorted(store.query(f"SELECT {', '.join(keep)} FROM {t}"), key=repr)
    return out


def _copies(store: Store, n: int = 3) -> None:
    for _ in range(n):
        fill(store)


def test_a_sync_in_chunks_derives_what_one_game_at_a_time_derives(tmp_path, monkeypatch):
    a = Store(path=tmp_path / "a.sqlite")
    _copies(a)
    calls = []
    monkeypatch.setattr(derived, "SYNC_CHUNK", 4)
    n = history.sync(a, progress=lambda done, total: calls.append((done, total)))
    assert n == 21
    # before the first game, then after each game, in order
    assert calls == [(i, 21) for i in range(22)]
    # the same store derived game by game (each game written alone)
    monkeypatch.setattr(derived, "SYNC_CHUNK", 1)
    assert history.sync(a, force=True) == 21
    one_by_one = _dump(a)
    monkeypatch.setattr(derived, "SYNC_CHUNK", 4)
    assert history.sync(a, force=True) == 21
    chunked = _dump(a)
    assert chunked == one_by_one
    assert len(chunked["g_results"]) == 21
    assert len(chunked["g_card_sums"]) > 0 and len(chunked["g_categories"]) > 0
    assert history.sync(a) == 0
    a.close()


def test_a_game_whose_rows_cannot_be_written_is_flagged_alone(tmp_path, monkeypatch):
    s = Store(path=tmp_path / "games.sqlite")
    ids = fill(s)
    bad = ids["G2"]
    real = derived.derive

    def derive(record, *, trusted=False):
        d = real(record, trusted=trusted)
        if record["meta"].get("title") == "G2":
            # a value SQLite cannot store (an objective's name is not range-checked):
            # the chunk's write fails, as the one game's write did before chunks
            d["objectives"].append((2 ** 70, d["players"][0], 1))
        return d
    monkeypatch.setattr(derived, "derive", derive)
    monkeypatch.setattr(derived, "SYNC_CHUNK", 100)       # every game in one chunk
    assert history.sync(s) == len(ids)
    errors = dict(s.query("SELECT game_id, error FROM g_results"))
    assert errors[bad] == "the derived values cannot be stored (OverflowError)"
    assert [g for g, e in errors.items() if e is not None] == [bad]
    # the other games of the chunk are all there, with their players
    assert s.query_one("SELECT COUNT(*) FROM g_players WHERE game_id != ?", (bad,))[0] == \
        sum(len(r["setup"]["players"]) for t, r in records().items() if t != "G2")
    s.close()


def test_a_store_of_schema_3_gets_the_summaries_and_every_game_derived_again(tmp_path):
    path = tmp_path / "games.sqlite"
    s = Store(path=path)
    ids = fill(s)
    history.sync(s)
    want = {name: df for name, df in stats.all_statistics(s).items()}
    s.close()
    c = sqlite3.connect(path)
    c.execute("DROP TABLE g_card_sums")
    c.execute("DROP TABLE g_categories")
    c.execute("PRAGMA user_version = 3")
    c.commit()
    c.close()
    s = Store(path=path)
    assert s._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert history.has_summaries(s)
    assert history.sync(s) == len(ids)                   # every game derived again
    assert s.query_one("SELECT COUNT(*) FROM g_card_sums")[0] > 0
    got = stats.all_statistics(s)
    assert list(got) == list(want)
    for name in want:
        pd.testing.assert_frame_equal(got[name], want[name], check_exact=True, obj=name)
    s.close()


def test_without_the_summary_tables_the_statistics_are_the_same(tmp_path):
    """A file whose summaries are missing (an older companion's file opened read-only):
    the cards and the breakdown are read from the detailed tables, the same tables."""
    path = tmp_path / "games.sqlite"
    s = Store(path=path)
    _copies(s, 2)
    history.sync(s)
    want = {"cards": stats.cards(s), "breakdown": stats.breakdown(s),
            "plays": history.plays_csv(s)}
    assert not want["cards"].empty and not want["breakdown"].empty
    s.close()
    c = sqlite3.connect(path)
    c.execute("DROP TABLE g_card_sums")
    c.execute("DROP TABLE g_categories")
    c.commit()
    c.close()
    s = Store(path=path)                                  # schema 4: nothing recreated
    assert not history.has_summaries(s)
    pd.testing.assert_frame_equal(stats.cards(s), want["cards"], check_exact=True)
    pd.testing.assert_frame_equal(stats.breakdown(s), want["breakdown"], check_exact=True)
    assert history.plays_csv(s) == want["plays"]
    s.close()


def test_one_read_syncs_once_and_keeps_nothing_afterwards(tmp_path, monkeypatch):
    s = Store(path=tmp_path / "games.sqlite")
    fill(s, ["G1", "G2"])
    syncs = []
    real = history.sync

    def counting(store, **kw):
        syncs.append(1)
        return real(store, **kw)
    monkeypatch.setattr(history, "sync", counting)
    monkeypatch.setattr(stats_read, "sync", counting)
    with stats.one_read(s):
        first = stats.games(s)
        tables = stats.all_statistics(s)
        people = stats.people_statistics(s)
        again = stats.games(s)
    assert len(syncs) == 1
    pd.testing.assert_frame_equal(first, again)
    pd.testing.assert_frame_equal(tables["games"], first)
    # a copy each time: changing one table changes no other
    again.loc[0, "players"] = "changed"
    assert stats.games(s).players.tolist() == first.players.tolist()
    assert set(people) == set(stats.PEOPLE)
    # the History tab's way: its own sync (with the bar), then no other
    syncs.clear()
    with stats.one_read(s):
        history.sync(s)
        stats.mark_synced(s)
        stats.all_statistics(s)
        stats.people_statistics(s)
    assert len(syncs) == 1
    # outside the block every call syncs and sees a new game
    fill(s, ["G3"])
    assert len(stats.games(s)) == 3
    assert stats.scores(s).games.sum() == 6
    s.close()


@pytest.mark.parametrize("fmt", [None, "among-the-stars/1", "small-star-empires/1"])
def test_people_statistics_in_one_read_equal_each_table_alone(tmp_path, fmt):
    s = Store(path=tmp_path / "games.sqlite")
    _copies(s, 2)
    together = stats.people_statistics(s, fmt)
    for name, fn in stats.PEOPLE.items():
        pd.testing.assert_frame_equal(together[name], fn(s, fmt), check_exact=True, obj=name)
    assert not together["head-to-head"].empty
    s.close()
