"""Statistics over the stored games, as pandas DataFrames (docs/history.md).

Every function takes a :class:`~companion.table.store.Store`, brings its derived
tables up to date (:func:`companion.table.history.sync`) and reads them: no game is
replayed here.  Finished games only, unless a function says otherwise.

The reads they share (:func:`one_read`) are :mod:`companion.table.stats_read`'s; the
people statistics (head-to-head, streaks, months, years and their charts) are
:mod:`companion.table.people_stats`'; both keep their names here.
"""
from __future__ import annotations

import inspect
import json
import time
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.gamekind import GameKind
from .derived import has_details, has_summaries
from . import laid_stats, registry
from .laid_stats import noted
# moved to their own modules (issue 38); their names stay here
from .people_stats import (HEAD_TO_HEAD_COLUMNS as HEAD_TO_HEAD_COLUMNS,
                           MONTHLY_COLUMNS as MONTHLY_COLUMNS, PEOPLE as PEOPLE,
                           STREAK_COLUMNS as STREAK_COLUMNS, YEARLY_COLUMNS as YEARLY_COLUMNS,
                           head_to_head as head_to_head, monthly as monthly,
                           people_chart_svg as people_chart_svg,
                           people_statistics as people_statistics, streaks as streaks,
                           yearly as yearly)
from .registry import DEFAULT_FORMAT
from .stats_read import (mark_synced as mark_synced, one_read as one_read, read_frame,
                         read_rows, shared, sync_once)
from .store import Store


def _players(store: Store, fmt: str | None = DEFAULT_FORMAT, finished: bool = True, *,
             breakdown: bool = False) -> pd.DataFrame:
    """The players of the (finished) games of ``fmt``; their ``breakdown`` (JSON text,
    the longest column by far) only when asked for."""
    sync_once(store)
    q = ("SELECT p.game_id, r.format, r.played, r.decided_by, p.player, p.seat, p.race, p.rank, "
         "p.total, p.won" + (", p.breakdown" if breakdown else "")
         + " FROM g_players p JOIN g_results r USING (game_id) WHERE r.error IS NULL")
    args: list[Any] = []
    if finished:
        q += " AND r.finished = 1"
    if fmt is not None:
        q += " AND r.format = ?"
        args.append(fmt)
    return read_frame(store, q, params=args)


#: the status of a game in :func:`games`
STATUSES = ("finished", "in progress", "waiting for values", "record fails")


def _text_or_none(col: pd.Series) -> pd.Series:
    """A text column as str / None (object dtype).  pandas reads SQL NULL in a
    text column as NaN (pandas 3: the str dtype), and NaN is true in ``if``:
    once one game's record failed, every game looked failed."""
    return pd.Series([v if isinstance(v, str) else None for v in col.tolist()],
                     index=col.index, dtype=object)


def games(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """Every stored game (finished or not): id, game, date, players, winners, finished,
    ``status`` (one of :data:`STATUSES`), ``waiting`` (what the final scoring of a
    finished game still waits for) and ``error`` (why its record no longer replays);
    ``waiting`` and ``error`` are None otherwise.  Then the play details:
    ``duration_min`` (<NA> when unknown), ``location``, ``notes``, ``new_players``
    (names joined with ", "); "" when none."""
    now = shared(store)
    if now is not None:
        if fmt not in now.games:
            now.games[fmt] = _games(store, fmt)
        return now.games[fmt].copy()
    return _games(store, fmt)


def _games(store: Store, fmt: str | None) -> pd.DataFrame:
    sync_once(store)
    df = read_frame(
        store, "SELECT r.game_id, r.format, r.played, r.finished, r.winners, r.decided_by, "
        "r.error, r.waiting, g.title FROM g_results r JOIN games g ON g.id = r.game_id "
        "ORDER BY r.played DESC")
    if fmt is not None:
        df = df[df.format == fmt]
    df["error"] = _text_or_none(df.error)
    df["waiting"] = _text_or_none(df.waiting)
    df["status"] = ["record fails" if e is not None else "waiting for values" if wt is not None
                    else "finished" if f else "in progress"
                    for e, wt, f in zip(df.error.tolist(), df.waiting.tolist(),
                                        df.finished.tolist())]
    # local time, as in the plays CSV (pd.to_datetime(unit="s") would give UTC)
    df["date"] = [time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) for t in df.played.tolist()]
    won: dict[str, str] = {}             # each distinct winners text decoded once
    df["winners"] = [(won[w] if w in won else won.setdefault(w, ", ".join(json.loads(w))))
                     if f else "" for w, f in zip(df.winners.tolist(), df.finished.tolist())]
    # each game's players in seat order, and its details: plain dicts (a pandas
    # groupby with ", ".join per game cost ~1 s at 10,000 games: issue 26)
    names: dict[str, list[str]] = {}
    for gid, p in read_rows(store, "SELECT game_id, player FROM g_players ORDER BY seat"):
        names.setdefault(gid, []).append(p)
    ids = df.game_id.tolist()
    df["players"] = [", ".join(names[g]) if g in names else "" for g in ids]
    from .registry import GAME_NAMES
    df["game"] = df.format.map(GAME_NAMES).fillna(df.format)
    det: dict[str, tuple[Any, ...]] = {}
    if has_details(store):
        det = {r[0]: r[1:] for r in read_rows(
            store, "SELECT game_id, duration_min, location, notes, new_players FROM g_details")}
    none = (None, None, None, None)
    cells = [det.get(g, none) for g in ids]

    def column(i: int) -> pd.Series:
        return pd.Series([c[i] for c in cells], index=df.index, dtype=object)
    df["duration_min"] = pd.to_numeric(column(0), errors="coerce").astype("Int64")
    df["location"] = _text_or_none(column(1)).fillna("")
    df["notes"] = _text_or_none(column(2)).fillna("")
    df["new_players"] = ["" if c[3] == "[]" else ", ".join(json.loads(c[3]))
                         if isinstance(c[3], str) else "" for c in cells]
    return df[["game_id", "game", "date", "title", "players", "winners", "finished", "status",
               "decided_by", "waiting", "error", "duration_min", "location", "notes",
               "new_players"]].reset_index(drop=True)


def win_rates(store: Store, by: str = "player", fmt: str | None = DEFAULT_FORMAT) -> pd.DataFrame:
    """Games played, wins and win rate per player (``by="player"``), per race
    (``by="race"``) or per seat (``by="seat"``).  A shared victory counts as a
    win for each player sharing it."""
    df = _players(store, fmt)
    if by == "race":
        df = df[df.race.notna()]
    if df.empty:
        return pd.DataFrame(columns=[by, "games", "wins", "win_rate"])
    g = df.groupby(by).agg(games=("game_id", "nunique"), wins=("won", "sum")).reset_index()
    g["win_rate"] = (g.wins / g.games).round(3)
    return g.sort_values(["win_rate", "games"], ascending=False).reset_index(drop=True)


def scores(store: Store, fmt: str | None = DEFAULT_FORMAT) -> pd.DataFrame:
    """Average and best final score per player."""
    df = _players(store, fmt)
    if df.empty:
        return pd.DataFrame(columns=["player", "games", "average", "best"])
    g = df.groupby("player").agg(games=("game_id", "nunique"), average=("total", "mean"),
                                 best=("total", "max")).reset_index()
    g["average"] = g.average.round(2)
    return g.sort_values("average", ascending=False).reset_index(drop=True)


def breakdown(store: Store, fmt: str = DEFAULT_FORMAT, *, per_player: bool = False) -> pd.DataFrame:
    """The average VP of each scoring category (over all players of finished games,
    or per player)."""
    if not per_player:
        fast = _breakdown_summed(store, fmt)
        if fast is not None:
            return fast
    df = _players(store, fmt, breakdown=True)
    if df.empty:
        return pd.DataFrame()
    cats = pd.DataFrame([json.loads(b) for b in df.breakdown])
    cats["player"] = df.player.values
    if per_player:
        return cats.groupby("player").mean().round(2).reset_index()
    return cats.drop(columns="player").mean().round(2).rename("average").to_frame() \
        .reset_index(names="category")


def _has_summaries(store: Store) -> bool:
    now = shared(store)
    if now is not None:
        if now.summaries is None:
            now.summaries = has_summaries(store)
        return now.summaries
    return has_summaries(store)


def _breakdown_summed(store: Store, fmt: str) -> pd.DataFrame | None:
    """:func:`breakdown` over all players from g_categories (summed in SQL), the same
    table as the mean of every decoded breakdown; None when the store has no summary
    tables or no category at all (then the breakdowns are decoded)."""
    sync_once(store)
    if not _has_summaries(store):
        return None
    where = ("FROM g_categories c JOIN g_results r USING (game_id) "
             "WHERE r.error IS NULL AND r.finished = 1 AND r.format = ?")
    sums = {cat: (total, n) for cat, total, n in read_rows(
        store, "SELECT c.category, CAST(SUM(c.vp) AS BIGINT), COUNT(c.vp) " + where
        + " GROUP BY c.category", [fmt])}
    if not sums:
        return None
    # the columns in the order pandas met them: the breakdowns of the players' rows in
    # the order read, decoded only until every category has been seen (the first, as a rule)
    order: list[str] = []
    with store.reading() as conn:            # read row by row: it stops early
        cur = conn.execute("SELECT p.breakdown FROM g_players p JOIN g_results r "
                           "USING (game_id) WHERE r.error IS NULL AND r.finished = 1 "
                           "AND r.format = ?", (fmt,))
        try:
            while len(order) < len(sums):
                batch = cur.fetchmany(64)      # DB-API: any backend's cursor has it
                if not batch:
                    break
                for (text,) in batch:
                    for cat in json.loads(text):
                        if cat not in order:
                            order.append(cat)
                    if len(order) >= len(sums):
                        break
        finally:
            cur.close()
    if set(order) != set(sums):
        return None
    # the mean of each category (an exact sum / count, as pandas' mean of integers),
    # through the same pandas steps as the decoded breakdowns
    means = {c: (float(sums[c][0]) / sums[c][1] if sums[c][1] else float("nan"))
             for c in order}
    return pd.DataFrame([means]).mean().round(2).rename("average").to_frame() \
        .reset_index(names="category")


def vp_by_year(store: Store, game_id: str | None = None) -> pd.DataFrame:
    """VP gained per year: for one game (years x players, cumulative), or the
    average per player and year over all finished games."""
    sync_once(store)
    if game_id is not None:
        df = read_frame(store, "SELECT player, year, vp FROM g_year_vp WHERE game_id=?",
                    params=[game_id])
        # laid from the table (issue 39): only the years known, and the note saying so
        df, note = laid_stats.one_game_years(store, game_id, df, read_rows)
        if df.empty:
            return noted(pd.DataFrame(), note)
        order = read_frame(store, "SELECT player FROM g_players WHERE game_id=? ORDER BY seat",
                       params=[game_id]).player
        t = df.pivot_table(index="year", columns="player", values="vp", aggfunc="sum",
                           fill_value=0)
        return noted(t.reindex(columns=list(order)).cumsum(), note)
    # summed in SQL (g_year_vp has ~80,000 rows at 10,000 games); the mean of each
    # (player, year) is that exact sum / count, as pandas' was
    df = read_frame(
        store, "SELECT y.player, y.year, CAST(SUM(y.vp) AS BIGINT) AS vp_sum, COUNT(*) AS n "
        "FROM g_year_vp y JOIN g_results r USING (game_id) WHERE r.finished = 1 "
        "GROUP BY y.player, y.year")
    df, note = laid_stats.year_sums(store, df, read_rows)     # issue 39: laid games' years
    if df.empty:
        return noted(pd.DataFrame(), note)
    df["year"] = df.year.astype("int64")
    df["vp"] = df.vp_sum.astype("int64") / df.n.astype("int64")
    return noted(df.pivot_table(index="year", columns="player", values="vp",
                                 aggfunc="mean").round(2), note)


def objectives_deciding(store: Store, fmt: str | None = DEFAULT_FORMAT) -> pd.DataFrame:
    """How often each objective decided the winner: it was claimed by a winner who
    would not have won (alone or shared) without its VP (games of format ``fmt``)."""
    sync_once(store)
    claims = read_frame(
        store, "SELECT o.game_id, o.objective, o.player, o.vp FROM g_objectives o "
        "JOIN g_results r USING (game_id) WHERE r.finished = 1")
    players = _players(store, fmt)
    # each game's (player, total, won) in plain Python: a DataFrame filter per claim
    # cost ~0.4 s for 1,000 games (bench/bench_history.py)
    by_game: dict[str, list[tuple[str, int, int]]] = {}
    for gid, p, total, won in zip(players.game_id.tolist(), players.player.tolist(),
                                  players.total.tolist(), players.won.tolist()):
        by_game.setdefault(gid, []).append((p, int(total), int(won)))
    rows = []
    for obj, grp in claims.groupby("objective"):
        decided = 0
        for gid, who, vp in zip(grp.game_id.tolist(), grp.player.tolist(), grp.vp.tolist()):
            g = by_game.get(gid, [])
            me = [total for p, total, won in g if p == who and won]
            if not me:
                continue
            others = [total for p, total, _ in g if p != who]
            if others and me[0] - int(vp) < max(others):
                decided += 1
        rows.append({"objective": obj, "claimed": len(grp), "decided_the_winner": decided})
    return pd.DataFrame(rows, columns=["objective", "claimed", "decided_the_winner"])


def cards(store: Store) -> pd.DataFrame:
    """Card build frequency (copies built, games) and the average VP per card built
    (printed + immediate + delayed ability) over finished games."""
    sync_once(store)
    # counted in SQL: g_cards has a row per location built (~170,000 at 10,000 games),
    # g_card_sums (store schema 4) a row per card and game (~25,000)
    if _has_summaries(store):
        df = read_frame(
            store, "SELECT s.card, CAST(SUM(s.built) AS BIGINT) AS built, COUNT(*) AS games, "
            "CAST(SUM(s.vp) AS BIGINT) AS vp_sum FROM g_card_sums s "
            "JOIN g_results r USING (game_id) WHERE r.finished = 1 GROUP BY s.card")
    else:
        df = read_frame(
            store, "SELECT c.card, COUNT(*) AS built, COUNT(DISTINCT c.game_id) AS games, "
            "CAST(SUM(c.vp) AS BIGINT) AS vp_sum FROM g_cards c "
            "JOIN g_results r USING (game_id) WHERE r.finished = 1 GROUP BY c.card")
    if df.empty:
        return pd.DataFrame(columns=["card", "built", "games", "average_vp"])
    # issue 39: the cards of a game laid from the table are built, their VP not known
    df, note = laid_stats.card_sums(store, df, _has_summaries(store), read_rows)
    # as pandas' groupby had them: by card, then the mean (an exact sum / count)
    g = df.sort_values("card", kind="stable").reset_index(drop=True)
    g["built"] = g.built.astype("int64")
    g["games"] = g.games.astype("int64")
    known = g.vp_built.astype("int64")
    g["average_vp"] = (g.vp_sum.astype("int64") / known.where(known > 0)).round(2)
    g = g[["card", "built", "games", "average_vp"]]
    return noted(g.sort_values(["built", "average_vp"], ascending=False)
                  .reset_index(drop=True), note)


def tiebreaks(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """Which step of the tiebreak chain decided the finished games."""
    sync_once(store)
    q = "SELECT format, decided_by FROM g_results WHERE finished = 1 AND error IS NULL"
    df = read_frame(store, q)
    if fmt is not None:
        df = df[df.format == fmt]
    if df.empty:
        return pd.DataFrame(columns=["decided_by", "games"])
    return df.groupby("decided_by").size().rename("games").reset_index() \
        .sort_values("games", ascending=False).reset_index(drop=True)


def shares(store: Store, fmt: str | None, parts: dict[str, str]) -> pd.DataFrame:
    """The mean share of each player's final score that came from some scoring
    categories: ``parts`` is {column: breakdown category} (games of format ``fmt``)."""
    df = _players(store, fmt, breakdown=True)
    if df.empty:
        return pd.DataFrame(columns=["player", "games", *parts])
    b = pd.DataFrame([json.loads(x) for x in df.breakdown])
    total = df.total.replace(0, pd.NA)
    df = df.assign(**{f"_{col}": (b.get(cat, 0) / total).astype(float)
                      for col, cat in parts.items()})
    g = df.groupby("player").agg(games=("game_id", "nunique"),
                                 **{col: (f"_{col}", "mean") for col in parts}).reset_index()
    return g.round(3)


def statistics_of(store: Store, kind: GameKind) -> dict[str, pd.DataFrame]:
    """The statistics tables of one game (its descriptor's ``statistics``), by title."""
    out = {}
    for t in kind.statistics:
        fn = globals()[t.table]
        kwargs = dict(t.kwargs)
        if "fmt" in inspect.signature(fn).parameters and "fmt" not in kwargs:
            kwargs["fmt"] = kind.format
        out[t.title] = fn(store, **kwargs)
    return out


def all_statistics(store: Store) -> dict[str, pd.DataFrame]:
    """Every table above, by name (what the History tab shows): the list of games,
    then each registered game's own tables."""
    with one_read(store):
        out = {"games": games(store)}
        for kind in registry.kinds():
            out.update(statistics_of(store, kind))
    return out


def to_csv(df: pd.DataFrame, path: str | Path | None = None) -> str:
    """A table as CSV text (UTF-8, header, no index); written to ``path`` too when given.
    Through the one CSV writer (companion.table.csvsafe): no cell runs as a formula."""
    from .csvsafe import frame_csv
    return frame_csv(df, index=False, path=path)
