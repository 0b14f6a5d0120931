"""Statistics over the stored games, as pandas DataFrames (docs/history.md).

Every function takes a :class:`~companion.store.Store`, brings its derived
tables up to date (:func:`companion.history.sync`) and reads them: no game is
replayed here.  Finished games only, unless a function says otherwise.
"""
from __future__ import annotations

import json
import time

import pandas as pd

from .history import ATS_FORMAT, SSE_FORMAT, sync
from .store import Store


def _players(store: Store, fmt: str | None = ATS_FORMAT, finished: bool = True) -> pd.DataFrame:
    sync(store)
    q = ("SELECT p.game_id, r.format, r.played, r.decided_by, p.player, p.seat, p.race, p.rank, "
         "p.total, p.won, p.breakdown FROM g_players p JOIN g_results r USING (game_id) "
         "WHERE r.error IS NULL")
    args: list = []
    if finished:
        q += " AND r.finished = 1"
    if fmt is not None:
        q += " AND r.format = ?"
        args.append(fmt)
    return pd.read_sql_query(q, store._conn, params=args)


#: the status of a game in :func:`games`
STATUSES = ("finished", "in progress", "waiting for values", "record fails")


def _text_or_none(col: pd.Series) -> pd.Series:
    """A text column as str / None (object dtype).  pandas reads SQL NULL in a
    text column as NaN (pandas 3: the str dtype), and NaN is true in ``if``:
    once one game's record failed, every game looked failed."""
    return pd.Series([v if isinstance(v, str) else None for v in col], index=col.index,
                     dtype=object)


def games(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """Every stored game (finished or not): id, game, date, players, winners, finished,
    ``status`` (one of :data:`STATUSES`), ``waiting`` (what the final scoring of a
    finished game still waits for) and ``error`` (why its record no longer replays);
    ``waiting`` and ``error`` are None otherwise."""
    sync(store)
    df = pd.read_sql_query(
        "SELECT r.game_id, r.format, r.played, r.finished, r.winners, r.decided_by, r.error, "
        "r.waiting, g.title FROM g_results r JOIN games g ON g.id = r.game_id "
        "ORDER BY r.played DESC", store._conn)
    if fmt is not None:
        df = df[df.format == fmt]
    df["error"] = _text_or_none(df.error)
    df["waiting"] = _text_or_none(df.waiting)
    df["status"] = ["record fails" if e is not None else "waiting for values" if wt is not None
                    else "finished" if f else "in progress"
                    for e, wt, f in zip(df.error, df.waiting, df.finished)]
    # local time, as in the plays CSV (pd.to_datetime(unit="s") would give UTC)
    df["date"] = [time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) for t in df.played]
    df["winners"] = [", ".join(json.loads(w)) if f else "" for w, f in zip(df.winners, df.finished)]
    players = pd.read_sql_query("SELECT game_id, player FROM g_players ORDER BY seat", store._conn)
    names = players.groupby("game_id").player.agg(", ".join)
    df["players"] = df.game_id.map(names).fillna("")
    from .history import GAME_NAMES
    df["game"] = df.format.map(GAME_NAMES).fillna(df.format)
    return df[["game_id", "game", "date", "title", "players", "winners", "finished", "status",
               "decided_by", "waiting", "error"]].reset_index(drop=True)


def win_rates(store: Store, by: str = "player", fmt: str | None = ATS_FORMAT) -> pd.DataFrame:
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


def scores(store: Store, fmt: str | None = ATS_FORMAT) -> pd.DataFrame:
    """Average and best final score per player."""
    df = _players(store, fmt)
    if df.empty:
        return pd.DataFrame(columns=["player", "games", "average", "best"])
    g = df.groupby("player").agg(games=("game_id", "nunique"), average=("total", "mean"),
                                 best=("total", "max")).reset_index()
    g["average"] = g.average.round(2)
    return g.sort_values("average", ascending=False).reset_index(drop=True)


def breakdown(store: Store, fmt: str = ATS_FORMAT, *, per_player: bool = False) -> pd.DataFrame:
    """The average VP of each scoring category (over all players of finished games,
    or per player)."""
    df = _players(store, fmt)
    if df.empty:
        return pd.DataFrame()
    cats = pd.DataFrame([json.loads(b) for b in df.breakdown])
    cats["player"] = df.player.values
    if per_player:
        return cats.groupby("player").mean().round(2).reset_index()
    return cats.drop(columns="player").mean().round(2).rename("average").to_frame() \
        .reset_index(names="category")


def vp_by_year(store: Store, game_id: str | None = None) -> pd.DataFrame:
    """VP gained per year: for one game (years x players, cumulative), or the
    average per player and year over all finished games."""
    sync(store)
    if game_id is not None:
        df = pd.read_sql_query("SELECT player, year, vp FROM g_year_vp WHERE game_id=?",
                               store._conn, params=[game_id])
        if df.empty:
            return pd.DataFrame()
        order = pd.read_sql_query("SELECT player FROM g_players WHERE game_id=? ORDER BY seat",
                                  store._conn, params=[game_id]).player
        t = df.pivot_table(index="year", columns="player", values="vp", aggfunc="sum",
                           fill_value=0)
        return t.reindex(columns=list(order)).cumsum()
    df = pd.read_sql_query(
        "SELECT y.player, y.year, y.vp FROM g_year_vp y JOIN g_results r USING (game_id) "
        "WHERE r.finished = 1", store._conn)
    if df.empty:
        return pd.DataFrame()
    return df.pivot_table(index="year", columns="player", values="vp", aggfunc="mean").round(2)


def objectives_deciding(store: Store) -> pd.DataFrame:
    """How often each objective decided the winner: it was claimed by a winner who
    would not have won (alone or shared) without its VP."""
    sync(store)
    claims = pd.read_sql_query(
        "SELECT o.game_id, o.objective, o.player, o.vp FROM g_objectives o "
        "JOIN g_results r USING (game_id) WHERE r.finished = 1", store._conn)
    players = _players(store, ATS_FORMAT)
    # each game's (player, total, won) in plain Python: a DataFrame filter per claim
    # cost ~0.4 s for 1,000 games (bench/bench_history.py)
    by_game: dict[str, list[tuple[str, int, int]]] = {}
    for gid, p, total, won in zip(players.game_id, players.player, players.total, players.won):
        by_game.setdefault(gid, []).append((p, int(total), int(won)))
    rows = []
    for obj, grp in claims.groupby("objective"):
        decided = 0
        for gid, who, vp in zip(grp.game_id, grp.player, grp.vp):
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
    sync(store)
    df = pd.read_sql_query(
        "SELECT c.game_id, c.card, c.vp FROM g_cards c JOIN g_results r USING (game_id) "
        "WHERE r.finished = 1", store._conn)
    if df.empty:
        return pd.DataFrame(columns=["card", "built", "games", "average_vp"])
    g = df.groupby("card").agg(built=("vp", "size"), games=("game_id", "nunique"),
                               average_vp=("vp", "mean")).reset_index()
    g["average_vp"] = g.average_vp.round(2)
    return g.sort_values(["built", "average_vp"], ascending=False).reset_index(drop=True)


def tiebreaks(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """Which step of the tiebreak chain decided the finished games."""
    sync(store)
    q = "SELECT format, decided_by FROM g_results WHERE finished = 1 AND error IS NULL"
    df = pd.read_sql_query(q, store._conn)
    if fmt is not None:
        df = df[df.format == fmt]
    if df.empty:
        return pd.DataFrame(columns=["decided_by", "games"])
    return df.groupby("decided_by").size().rename("games").reset_index() \
        .sort_values("games", ascending=False).reset_index(drop=True)


def sse_shares(store: Store) -> pd.DataFrame:
    """Small Star Empires: the mean share of each player's final score that came
    from trade stations and from the largest territory."""
    df = _players(store, SSE_FORMAT)
    if df.empty:
        return pd.DataFrame(columns=["player", "games", "trade_station_share", "territory_share"])
    b = pd.DataFrame([json.loads(x) for x in df.breakdown])
    total = df.total.replace(0, pd.NA)
    df = df.assign(trade=(b.get("trade_stations", 0) / total).astype(float),
                   territory=(b.get("territory", 0) / total).astype(float))
    g = df.groupby("player").agg(games=("game_id", "nunique"), trade_station_share=("trade", "mean"),
                                 territory_share=("territory", "mean")).reset_index()
    return g.round(3)


def all_statistics(store: Store) -> dict[str, pd.DataFrame]:
    """Every table above, by name (what the History tab shows)."""
    return {
        "games": games(store),
        "win rate by player": win_rates(store, "player"),
        "win rate by race": win_rates(store, "race"),
        "scores": scores(store),
        "average breakdown": breakdown(store),
        "VP by year (average)": vp_by_year(store),
        "objectives deciding the winner": objectives_deciding(store),
        "cards built": cards(store),
        "tiebreaks": tiebreaks(store),
        "Small Star Empires: win rate by seat": win_rates(store, "seat", SSE_FORMAT),
        "Small Star Empires: trade stations and territory": sse_shares(store),
    }
