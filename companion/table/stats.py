"""Statistics over the stored games, as pandas DataFrames (docs/history.md).

Every function takes a :class:`~companion.table.store.Store`, brings its derived
tables up to date (:func:`companion.table.history.sync`) and reads them: no game is
replayed here.  Finished games only, unless a function says otherwise.
"""
from __future__ import annotations

import contextlib
import contextvars
import inspect
import json
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.gamekind import GameKind
from .derived import has_details, has_summaries, sync
from . import laid_stats, registry
from .laid_stats import noted
from .registry import DEFAULT_FORMAT
from .store import Store


class _OneRead:
    """Several statistics of one store computed together (:func:`all_statistics`,
    :func:`people_statistics`, :func:`one_read`): the derived tables are brought up to
    date once, and each query is read once (a copy of its DataFrame is handed out)."""

    def __init__(self, store: Store):
        self.store = store
        self.synced = False
        self.frames: dict[tuple[str, tuple[Any, ...]], pd.DataFrame] = {}
        self.rows: dict[tuple[str, tuple[Any, ...]], list[Any]] = {}
        self.games: dict[str | None, pd.DataFrame] = {}
        self.summaries: bool | None = None


_ONE_READ: contextvars.ContextVar[_OneRead | None] = contextvars.ContextVar(
    "companion_stats_one_read", default=None)


@contextlib.contextmanager
def one_read(store: Store) -> Iterator[None]:
    """``with one_read(store):`` every statistics function of ``store`` called inside
    shares one sync and one read of each query (the History tab builds all its tables
    in one).  Nested uses of the same store share the outer one."""
    now = _ONE_READ.get()
    if now is not None and now.store is store:
        yield
        return
    token = _ONE_READ.set(_OneRead(store))
    try:
        yield
    finally:
        _ONE_READ.reset(token)


def _sync(store: Store) -> None:
    """:func:`companion.table.history.sync`, once per :func:`one_read`."""
    now = _ONE_READ.get()
    if now is not None and now.store is store:
        if not now.synced:
            sync(store)
            now.synced = True
        return
    sync(store)


def mark_synced(store: Store) -> None:
    """The caller has just brought the derived tables up to date
    (:func:`companion.table.history.sync`, e.g. with the History tab's progress bar):
    inside :func:`one_read` of ``store``, the statistics computed after it do not sync
    again.  Outside one, nothing."""
    now = _ONE_READ.get()
    if now is not None and now.store is store:
        now.synced = True


def _frame(store: Store, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
    """One read of the store as a DataFrame (pandas' read_sql_query).  On PostgreSQL the
    connection is companion.table.pgstore's (SQLite-style SQL, a DB-API cursor), which
    pandas reads as it reads sqlite3's but warns that it is not sqlite3."""
    now = _ONE_READ.get()
    key = (sql, tuple(params or ()))
    if now is not None and now.store is store and key in now.frames:
        return now.frames[key].copy()
    with store.reading() as conn, warnings.catch_warnings():
        warnings.filterwarnings("ignore", "pandas only supports SQLAlchemy", UserWarning)
        df = pd.read_sql_query(sql, conn, params=params)
    if now is not None and now.store is store:
        now.frames[key] = df.copy()
    return df


def _rows(store: Store, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """One read of the store as a list of tuples (shared within :func:`one_read`)."""
    now = _ONE_READ.get()
    key = ("rows:" + sql, tuple(params))
    if now is not None and now.store is store:
        if key not in now.rows:
            with store.reading():
                now.rows[key] = store.query(sql, params)
        return now.rows[key]
    with store.reading():
        return store.query(sql, params)


def _players(store: Store, fmt: str | None = DEFAULT_FORMAT, finished: bool = True, *,
             breakdown: bool = False) -> pd.DataFrame:
    """The players of the (finished) games of ``fmt``; their ``breakdown`` (JSON text,
    the longest column by far) only when asked for."""
    _sync(store)
    q = ("SELECT p.game_id, r.format, r.played, r.decided_by, p.player, p.seat, p.race, p.rank, "
         "p.total, p.won" + (", p.breakdown" if breakdown else "")
         + " FROM g_players p JOIN g_results r USING (game_id) WHERE r.error IS NULL")
    args: list[Any] = []
    if finished:
        q += " AND r.finished = 1"
    if fmt is not None:
        q += " AND r.format = ?"
        args.append(fmt)
    return _frame(store, q, params=args)


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
    now = _ONE_READ.get()
    if now is not None and now.store is store:
        if fmt not in now.games:
            now.games[fmt] = _games(store, fmt)
        return now.games[fmt].copy()
    return _games(store, fmt)


def _games(store: Store, fmt: str | None) -> pd.DataFrame:
    _sync(store)
    df = _frame(
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
    for gid, p in _rows(store, "SELECT game_id, player FROM g_players ORDER BY seat"):
        names.setdefault(gid, []).append(p)
    ids = df.game_id.tolist()
    df["players"] = [", ".join(names[g]) if g in names else "" for g in ids]
    from .registry import GAME_NAMES
    df["game"] = df.format.map(GAME_NAMES).fillna(df.format)
    det: dict[str, tuple[Any, ...]] = {}
    if has_details(store):
        det = {r[0]: r[1:] for r in _rows(
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
    now = _ONE_READ.get()
    if now is not None and now.store is store:
        if now.summaries is None:
            now.summaries = has_summaries(store)
        return now.summaries
    return has_summaries(store)


def _breakdown_summed(store: Store, fmt: str) -> pd.DataFrame | None:
    """:func:`breakdown` over all players from g_categories (summed in SQL), the same
    table as the mean of every decoded breakdown; None when the store has no summary
    tables or no category at all (then the breakdowns are decoded)."""
    _sync(store)
    if not _has_summaries(store):
        return None
    where = ("FROM g_categories c JOIN g_results r USING (game_id) "
             "WHERE r.error IS NULL AND r.finished = 1 AND r.format = ?")
    sums = {cat: (total, n) for cat, total, n in _rows(
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
    _sync(store)
    if game_id is not None:
        df = _frame(store, "SELECT player, year, vp FROM g_year_vp WHERE game_id=?",
                    params=[game_id])
        # laid from the table (issue 39): only the years known, and the note saying so
        df, note = laid_stats.one_game_years(store, game_id, df, _rows)
        if df.empty:
            return noted(pd.DataFrame(), note)
        order = _frame(store, "SELECT player FROM g_players WHERE game_id=? ORDER BY seat",
                       params=[game_id]).player
        t = df.pivot_table(index="year", columns="player", values="vp", aggfunc="sum",
                           fill_value=0)
        return noted(t.reindex(columns=list(order)).cumsum(), note)
    # summed in SQL (g_year_vp has ~80,000 rows at 10,000 games); the mean of each
    # (player, year) is that exact sum / count, as pandas' was
    df = _frame(
        store, "SELECT y.player, y.year, CAST(SUM(y.vp) AS BIGINT) AS vp_sum, COUNT(*) AS n "
        "FROM g_year_vp y JOIN g_results r USING (game_id) WHERE r.finished = 1 "
        "GROUP BY y.player, y.year")
    df, note = laid_stats.year_sums(store, df, _rows)     # issue 39: laid games' years
    if df.empty:
        return noted(pd.DataFrame(), note)
    df["year"] = df.year.astype("int64")
    df["vp"] = df.vp_sum.astype("int64") / df.n.astype("int64")
    return noted(df.pivot_table(index="year", columns="player", values="vp",
                                 aggfunc="mean").round(2), note)


def objectives_deciding(store: Store, fmt: str | None = DEFAULT_FORMAT) -> pd.DataFrame:
    """How often each objective decided the winner: it was claimed by a winner who
    would not have won (alone or shared) without its VP (games of format ``fmt``)."""
    _sync(store)
    claims = _frame(
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
    _sync(store)
    # counted in SQL: g_cards has a row per location built (~170,000 at 10,000 games),
    # g_card_sums (store schema 4) a row per card and game (~25,000)
    if _has_summaries(store):
        df = _frame(
            store, "SELECT s.card, CAST(SUM(s.built) AS BIGINT) AS built, COUNT(*) AS games, "
            "CAST(SUM(s.vp) AS BIGINT) AS vp_sum FROM g_card_sums s "
            "JOIN g_results r USING (game_id) WHERE r.finished = 1 GROUP BY s.card")
    else:
        df = _frame(
            store, "SELECT c.card, COUNT(*) AS built, COUNT(DISTINCT c.game_id) AS games, "
            "CAST(SUM(c.vp) AS BIGINT) AS vp_sum FROM g_cards c "
            "JOIN g_results r USING (game_id) WHERE r.finished = 1 GROUP BY c.card")
    if df.empty:
        return pd.DataFrame(columns=["card", "built", "games", "average_vp"])
    # issue 39: the cards of a game laid from the table are built, their VP not known
    df, note = laid_stats.card_sums(store, df, _has_summaries(store), _rows)
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
    _sync(store)
    q = "SELECT format, decided_by FROM g_results WHERE finished = 1 AND error IS NULL"
    df = _frame(store, q)
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


# ---------------------------------------------------------------------------
# people: head-to-head, streaks, months, years (issue 16)
# ---------------------------------------------------------------------------
def _people(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """One row per player of each finished game, in the order the games were
    played: game_id, format, played (the timer's start, else when the game was
    stored), player, seat, rank, total, won, duration_min (None when unknown)."""
    _sync(store)
    details = has_details(store)
    q = ("SELECT p.game_id, r.format, " + ("COALESCE(d.started, r.played)" if details
                                          else "r.played")
         + " AS played, p.player, p.seat, p.rank, p.total, p.won, "
         + ("d.duration_min" if details else "NULL") + " AS duration_min "
         "FROM g_players p JOIN g_results r USING (game_id) "
         + ("LEFT JOIN g_details d USING (game_id) " if details else "")
         + "WHERE r.error IS NULL AND r.finished = 1")
    args: list[Any] = []
    if fmt is not None:
        q += " AND r.format = ?"
        args.append(fmt)
    df = _frame(store, q, params=args)
    df["duration_min"] = pd.to_numeric(df.duration_min, errors="coerce")
    return df.sort_values(["played", "game_id", "seat"], kind="stable").reset_index(drop=True)


def _day(t: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(t))


HEAD_TO_HEAD_COLUMNS = ["player", "opponent", "games", "won", "lost", "tied", "win_rate"]


def head_to_head(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """Every two players who met in a finished game, in both directions: games
    together, how often ``player`` finished ahead of ``opponent`` (a better
    rank), behind, or level (the same rank: a shared victory, or a tie further
    down), and ``win_rate`` = won / games."""
    df = _people(store, fmt)
    tally: dict[tuple[str, str], list[int]] = {}
    # each game's seats in plain lists (a pandas group per game cost ~1 s at 10,000
    # games: issue 26); the tally is a sum, so the order of the games does not matter
    by_game: dict[Any, list[tuple[Any, Any]]] = {}
    for gid, p, r in zip(df.game_id.tolist(), df.player.tolist(), df["rank"].tolist()):
        by_game.setdefault(gid, []).append((p, r))
    for seats in by_game.values():
        for a, ra in seats:
            for b, rb in seats:
                if a == b:
                    continue
                t = tally.setdefault((a, b), [0, 0, 0, 0])
                t[0] += 1
                t[1 if ra < rb else 2 if ra > rb else 3] += 1
    rows = [{"player": a, "opponent": b, "games": t[0], "won": t[1], "lost": t[2], "tied": t[3],
             "win_rate": round(t[1] / t[0], 3)} for (a, b), t in sorted(tally.items())]
    return pd.DataFrame(rows, columns=HEAD_TO_HEAD_COLUMNS)


STREAK_COLUMNS = ["player", "games", "wins", "longest_streak", "longest_from", "longest_to",
                  "current_streak"]


def streaks(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """Winning streaks per player over their finished games in the order played
    (a shared victory is a win): the longest run of wins with the days of its
    first and last game, and the run still going at their last game."""
    df = _people(store, fmt)
    rows = []
    for p, g in df.groupby("player", sort=True):
        best = run = 0
        start = best_from = best_to = None
        for won, t in zip(g.won, g.played):
            if won:
                run += 1
                start = t if run == 1 else start
                if run > best:
                    best, best_from, best_to = run, start, t
            else:
                run = 0
        rows.append({"player": p, "games": len(g), "wins": int(g.won.sum()),
                     "longest_streak": best,
                     "longest_from": _day(best_from) if best and best_from is not None else "",
                     "longest_to": _day(best_to) if best and best_to is not None else "",
                     "current_streak": run})
    out = pd.DataFrame(rows, columns=STREAK_COLUMNS)
    return out.sort_values(["longest_streak", "player"], ascending=[False, True]) \
        .reset_index(drop=True)


MONTHLY_COLUMNS = ["month", "plays", "players", "timed_plays", "minutes", "average_minutes"]


def monthly(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """Plays and play time per month (local time): finished plays, different
    players, plays with a known duration, their minutes in all and on average."""
    df = _people(store, fmt)
    if df.empty:
        return pd.DataFrame(columns=MONTHLY_COLUMNS)
    df["month"] = [time.strftime("%Y-%m", time.localtime(t)) for t in df.played.tolist()]
    games_ = df.drop_duplicates("game_id")
    g = games_.groupby("month").agg(plays=("game_id", "size"),
                                    timed_plays=("duration_min", "count"),
                                    minutes=("duration_min", "sum"))
    g["players"] = df.groupby("month").player.nunique()
    g["minutes"] = g.minutes.astype(int)
    g["average_minutes"] = (g.minutes / g.timed_plays.where(g.timed_plays > 0)).round(1)
    return g.reset_index()[MONTHLY_COLUMNS]


YEARLY_COLUMNS = ["year", "player", "plays", "wins", "win_rate", "average_score", "best_score",
                  "minutes"]


def yearly(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """A yearly summary per person: finished plays, wins, win rate, average and
    best final score, and minutes played (the games with a known duration)."""
    df = _people(store, fmt)
    if df.empty:
        return pd.DataFrame(columns=YEARLY_COLUMNS)
    df["year"] = [int(time.strftime("%Y", time.localtime(t))) for t in df.played]
    g = df.groupby(["year", "player"]).agg(plays=("game_id", "nunique"), wins=("won", "sum"),
                                           average_score=("total", "mean"),
                                           best_score=("total", "max"),
                                           minutes=("duration_min", "sum")).reset_index()
    g["win_rate"] = (g.wins / g.plays).round(3)
    g["average_score"] = g.average_score.round(2)
    g["minutes"] = g.minutes.astype(int)
    g["wins"] = g.wins.astype(int)
    return g[YEARLY_COLUMNS]


#: the people statistics by the name the command line and the page use
PEOPLE = {"head-to-head": head_to_head, "streaks": streaks, "monthly": monthly,
          "yearly": yearly}


def people_statistics(store: Store, fmt: str | None = None) -> dict[str, pd.DataFrame]:
    """Every people table by name (both games together unless ``fmt``)."""
    with one_read(store):
        return {name: fn(store, fmt) for name, fn in PEOPLE.items()}


def to_csv(df: pd.DataFrame, path: str | Path | None = None) -> str:
    """A table as CSV text (UTF-8, header, no index); written to ``path`` too when given.
    Through the one CSV writer (companion.table.csvsafe): no cell runs as a formula."""
    from .csvsafe import frame_csv
    return frame_csv(df, index=False, path=path)


def _bars(labels: Sequence[Any], values: Sequence[Any], texts: Sequence[Any], *, title: str,
          width: int = 460) -> str:
    from ..core.htmlsafe import escape
    h = 22 * len(labels) + 30
    vmax = max([float(v) for v in values if v == v] + [1e-9])
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="bars" width="{width}" height="{h}" '
           f'font-family="sans-serif" font-size="11"><text x="4" y="14" font-weight="bold">'
           f'{escape(title)}</text>']
    for i, (lab, v, txt) in enumerate(zip(labels, values, texts)):
        y = 24 + 22 * i
        bw = 0 if v != v else (width - 240) * float(v) / vmax
        out.append(f'<text x="4" y="{y + 12}">{escape(str(lab)[:24])}</text>'
                   f'<rect x="150" y="{y}" width="{bw:.1f}" height="16" fill="#2f6fd6"/>'
                   f'<text x="{154 + bw:.1f}" y="{y + 12}">{escape(str(txt))}</text>')
    out.append("</svg>")
    return "".join(out)


def _matrix(df: pd.DataFrame, *, title: str) -> str:
    """Head-to-head as a grid: row = player, column = opponent, "won-lost(-tied)"
    in each cell, shaded by the row player's win rate against that opponent."""
    from ..core.htmlsafe import escape
    names = sorted(set(df.player) | set(df.opponent))
    cell, left, top = 64, 110, 44
    w, h = left + cell * len(names) + 4, top + 22 * len(names) + 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="head-to-head" width="{w}" '
           f'height="{h}" font-family="sans-serif" font-size="11"><text x="4" y="14" '
           f'font-weight="bold">{escape(title)}</text>']
    for j, b in enumerate(names):
        out.append(f'<text x="{left + cell * j + 4}" y="{top - 8}">{escape(b[:10])}</text>')
    by = {(a, b): r for a, b, r in zip(df.player, df.opponent, df.itertuples())}
    for i, a in enumerate(names):
        y = top + 22 * i
        out.append(f'<text x="4" y="{y + 14}">{escape(a[:16])}</text>')
        for j, b in enumerate(names):
            r = by.get((a, b))
            if r is None:
                continue
            shade = int(235 - 140 * r.win_rate)
            txt = f"{r.won}-{r.lost}" + (f"-{r.tied}" if r.tied else "")
            out.append(f'<rect x="{left + cell * j}" y="{y}" width="{cell - 2}" height="20" '
                       f'fill="rgb({shade},{shade},255)"/><text x="{left + cell * j + 4}" '
                       f'y="{y + 14}">{txt}</text>')
    out.append("</svg>")
    return "".join(out)


def people_chart_svg(name: str, df: pd.DataFrame) -> str:
    """The chart of one people table (pure SVG, every text escaped):
    head-to-head as a won-lost grid, streaks / months / years as bars."""
    if name not in PEOPLE:
        raise KeyError(name)
    if df.empty:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="24" '
                'font-family="sans-serif" font-size="11"><text x="4" y="16">'
                'no finished games</text></svg>')
    if name == "head-to-head":
        return _matrix(df, title="Head to head (won-lost-tied, row against column)")
    if name == "streaks":
        return _bars(df.player, df.longest_streak,
                     [f"{s} (now {c})" for s, c in zip(df.longest_streak, df.current_streak)],
                     title="Longest winning streak")
    if name == "monthly":
        return _bars(df.month, df.plays,
                     [f"{p} plays, {m} min" for p, m in zip(df.plays, df.minutes)],
                     title="Plays and play time per month")
    return _bars([f"{y} {p}" for y, p in zip(df.year, df.player)], df.plays,
                 [f"{n} plays, {w} wins, {m} min" for n, w, m in zip(df.plays, df.wins,
                                                                       df.minutes)],
                 title="Year by year")
