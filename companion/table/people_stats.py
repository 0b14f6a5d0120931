"""The people statistics (issue 16): head-to-head, winning streaks, plays by month, a
yearly summary per person, and their charts (pure SVG).

Apart from :mod:`companion.table.stats` (the statistics of each game's own tables,
which keeps these names too): these are about the people at the table across every
game; both read through :mod:`companion.table.stats_read` (one sync, one read of each
query).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import pandas as pd

from .derived import has_details
from .stats_read import one_read, read_frame, sync_once
from .store import Store


def _people(store: Store, fmt: str | None = None) -> pd.DataFrame:
    """One row per player of each finished game, in the order the games were
    played: game_id, format, played (the timer's start, else when the game was
    stored), player, seat, rank, total, won, duration_min (None when unknown)."""
    sync_once(store)
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
    df = read_frame(store, q, params=args)
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
