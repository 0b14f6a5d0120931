"""Games laid from the table (issue 39, "Score the table as it lies") in History's
statistics.

A game whose record's setup says ``options.laid`` begins with one ``lay`` entry per
player (docs/record-format.md, both games): ``"final"``, a finished game scored from the
position as it lies; ``"now"``, a game under way laid at ``options.laid_at`` (Among the
Stars: ``{"year": Y, "turn": T}``) and played on.  Its VP *during the game* are the
score track's, typed, not gained action by action.  So what History derives from the
turn-by-turn actions is not known for it, and says so instead of giving a wrong number:

- VP by year: a final position has none (the track's VP would all sit in the year the
  station was laid); a game laid under way at year Y is known from year Y on for the
  game itself (cumulative: the track's VP are the VP gained until then) and, in the
  averages over games, from year Y + 1 on (year Y's gain holds the track's VP);
- the VP each card gave (the cards' average VP): a laid card's printed and immediate VP
  went to the track, so the cards of a laid game are left out of the average (its
  copies built, read from the final position, still count).

What the final position gives stays: the final VP, the winner, the ranks, the breakdown
by category (the track's VP as "during the game"), the objectives, the races, the
exports.  The record's ``setup.options`` is record data the table layer reads as such
(the same key in both games); it names no game.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .store import Store

#: how a figure that needs the turn-by-turn actions reads for a game laid from the table
NOT_KNOWN = "not known: laid from the table"
#: the ids in one ``IN (...)`` of a query (SQLite's oldest limit is 999 parameters)
CHUNK = 500

#: a read of the store: (sql, params) -> rows (companion.table.stats shares one per page)
Read = Callable[[Store, str, Sequence[Any]], list[Any]]


def noted(df: pd.DataFrame, note: str) -> pd.DataFrame:
    """``df`` with ``note`` in ``df.attrs["note"]``: what the History tab shows with a
    statistics table (companion.ui.history_view.stat_note), here the games laid from the
    table whose figures are not known."""
    if note:
        df.attrs["note"] = note
    return df


def _query(store: Store, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    return list(store.query(sql, params))


@dataclass(frozen=True)
class Laid:
    """How a game was laid from the table: ``how`` is "final" or "now"; ``year`` and
    ``turn`` the position's (a game laid "now" that names them), else None."""
    how: str
    year: int | None = None
    turn: int | None = None

    @property
    def first_year(self) -> int | None:
        """The first year whose cumulative VP are known (None: no year is)."""
        return self.year if self.how == "now" else None

    def words(self) -> str:
        """When the game was laid, in words ("at the game's end", "at year 2, turn 3")."""
        if self.how == "final":
            return "at the game's end"
        if self.year is not None:
            return f"at year {self.year}, turn {self.turn}"
        return "during the game"


def laid_of(setup: Any) -> Laid | None:
    """The record's setup says the game is laid from the table (``options.laid``
    "final" or "now", with ``options.laid_at`` for a game laid now): how; else None.
    A damaged or unknown value is None (the replay decides whether the record holds)."""
    options = setup.get("options") if isinstance(setup, dict) else None
    if not isinstance(options, dict) or options.get("laid") not in ("final", "now"):
        return None
    how = str(options["laid"])
    at = options.get("laid_at") if how == "now" else None
    if isinstance(at, dict) and all(isinstance(at.get(k), int) and not isinstance(at.get(k), bool)
                                    for k in ("year", "turn")):
        return Laid(how, at["year"], at["turn"])
    return Laid(how)


def laid_games(store: Store, read: Read = _query) -> dict[str, Laid]:
    """{id: how it was laid} of every stored game laid from the table.  The text of the
    setups is narrowed in SQL (portable: SQLite and PostgreSQL), then each is read."""
    out = {}
    for gid, setup in read(store, "SELECT id, setup FROM games WHERE setup LIKE ?",
                           ('%"laid"%',)):
        try:
            laid = laid_of(json.loads(setup)) if isinstance(setup, str) else None
        except ValueError:
            laid = None
        if laid is not None:
            out[str(gid)] = laid
    return out


def _rows_of(store: Store, read: Read, sql: str, ids: list[str]) -> list[Any]:
    """``sql`` (ending in ``IN ({marks})``) for ``ids``, :data:`CHUNK` at a time."""
    out: list[Any] = []
    for i in range(0, len(ids), CHUNK):
        part = ids[i:i + CHUNK]
        out += read(store, sql.format(marks=",".join("?" * len(part))), part)
    return out


def _plural(n: int) -> str:
    return f"{n} game{'' if n == 1 else 's'}"


def year_sums(store: Store, df: pd.DataFrame, read: Read = _query) -> tuple[pd.DataFrame, str]:
    """:func:`companion.table.stats.vp_by_year`'s sums over finished games (player, year,
    vp_sum, n) less the years of games laid from the table that are not known; and the
    note to show with the table ("" when no game was left out)."""
    laid = laid_games(store, read)
    if not laid or df.empty:
        return df, ""
    rows = _rows_of(store, read, "SELECT y.game_id, y.player, y.year, y.vp FROM g_year_vp y "
                    "JOIN g_results r USING (game_id) WHERE r.finished = 1 AND y.game_id "
                    "IN ({marks})", sorted(laid))
    less: dict[tuple[Any, int], list[int]] = {}
    games: set[str] = set()
    for gid, player, year, vp in rows:
        first = laid[gid].first_year
        if first is None or int(year) <= first:
            t = less.setdefault((player, int(year)), [0, 0])
            t[0] += int(vp)
            t[1] += 1
            games.add(gid)
    if not less:
        return df, ""
    keys = list(zip(df.player.tolist(), [int(y) for y in df.year.tolist()]))
    df = df.assign(vp_sum=[int(v) - less.get(k, [0, 0])[0] for k, v in zip(keys, df.vp_sum)],
                   n=[int(n) - less.get(k, [0, 0])[1] for k, n in zip(keys, df.n)])
    df = df[df.n > 0].reset_index(drop=True)
    return df, (f"VP by year {NOT_KNOWN} ({_plural(len(games))} left out up to the year "
                "they were laid in, a final position entirely).")


def one_game_years(store: Store, game_id: str, df: pd.DataFrame,
                   read: Read = _query) -> tuple[pd.DataFrame, str]:
    """One game's VP by year (player, year, vp rows) without the years that are not
    known when it was laid from the table, and the note to show ("" otherwise)."""
    if df.empty:
        return df, ""
    row = read(store, "SELECT setup FROM games WHERE id = ?", (game_id,))
    try:
        laid = laid_of(json.loads(row[0][0])) if row and isinstance(row[0][0], str) else None
    except ValueError:
        laid = None
    if laid is None:
        return df, ""
    first = laid.first_year
    if first is None:
        return df.iloc[0:0], (f"VP by year {NOT_KNOWN} {laid.words()} (the VP during the "
                              "game are the score track's, typed).")
    return df[df.year.astype("int64") >= first].reset_index(drop=True), (
        f"VP by year from year {first} on: laid from the table {laid.words()}, the years "
        f"before are not known; year {first} counts the score track's VP as laid.")


def card_sums(store: Store, df: pd.DataFrame, summaries: bool,
              read: Read = _query) -> tuple[pd.DataFrame, str]:
    """:func:`companion.table.stats.cards`' sums (card, built, games, vp_sum) with the
    copies whose VP are known (``vp_built``, ``vp_sum`` of those only): the cards of a
    game laid from the table are built (its final position shows them) but their VP are
    not known.  And the note to show ("" when no game was left out of the average)."""
    df = df.copy()
    df["vp_built"] = df.built
    laid = laid_games(store, read)
    if not laid or df.empty:
        return df, ""
    table = ("SELECT s.card, s.built, s.vp, s.game_id FROM g_card_sums s" if summaries else
             "SELECT c.card, 1, c.vp, c.game_id FROM g_cards c")
    alias = "s" if summaries else "c"
    rows = _rows_of(store, read, table + " JOIN g_results r USING (game_id) WHERE "
                    f"r.finished = 1 AND {alias}.game_id IN ({{marks}})", sorted(laid))
    less: dict[Any, list[int]] = {}
    games: set[str] = set()
    for card, built, vp, gid in rows:
        t = less.setdefault(card, [0, 0])
        t[0] += int(built)
        t[1] += int(vp)
        games.add(gid)
    if not less:
        return df, ""
    df["vp_built"] = [int(b) - less.get(c, [0, 0])[0] for c, b in zip(df.card, df.built)]
    df["vp_sum"] = [int(v) - less.get(c, [0, 0])[1] for c, v in zip(df.card, df.vp_sum)]
    return df, (f"average_vp {NOT_KNOWN} ({_plural(len(games))}: the VP each of their cards "
                "gave are the score track's; they count in built and games only).")
