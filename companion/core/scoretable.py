"""The score table both games share (issue 38, "one shape for both games").

A game's final (or so-far) table is its VP lines (every VP with its source), one row
per player ranked, the winners, the step of the tiebreak chain that decided and the
sentence saying so.  What is the same in both games lives here:

* :class:`ScoreTable`: the table, its pandas views made on first use (``lines``,
  ``table``), ``breakdown``, ``totals`` and the ``score --json`` shape
  (docs/record-format.md); each game's ``Score`` subclasses it with its categories,
  its JSON columns and, for Small Star Empires, ``projected``.
* :func:`number_ranks`: the rows sorted by the chain and their rank numbers: players
  tied on every step of the chain share a place and the next place skips as many
  numbers ("1, 1, 3"), seat order kept among them.
* :func:`decide`: the winners and the step of the chain that decided.

The words (what a step is called, the sentence) stay in each game's scoring.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Sequence

if TYPE_CHECKING:        # imported where a table is made, not when the module is:
    import pandas as pd  # a page's kernel and every command start ~0.3 s sooner

#: the columns of a VP line (``ScoreTable.lines``), in both games
LINE_COLUMNS = ["player", "category", "source", "cell", "rule", "vp"]

#: a step of a tiebreak chain: (the row's column, the ``decided_by`` name of the step)
Step = tuple[str, str]


def number_ranks(rows: Sequence[dict[str, Any]], key: Sequence[str]) -> list[dict[str, Any]]:
    """``rows`` sorted by the columns of ``key``, highest first (a stable sort: players
    tied on every column keep their seat order), each a new dict with its ``rank``
    right after the player's name.  Players tied on every column share a place, and
    the next place skips as many numbers as shared it: 1, 1, 3.  Plain Python: pandas
    cost more than the rest of the scoring (issue 26's first sync)."""
    ordered = sorted(rows, key=lambda r: tuple(-int(r[c]) for c in key))
    ranked: list[dict[str, Any]] = []
    prev: tuple[int, ...] | None = None
    place = 0
    for i, row in enumerate(ordered):
        k = tuple(int(row[c]) for c in key)
        if k != prev:
            place, prev = i + 1, k
        ranked.append({"player": row["player"], "rank": place,
                       **{c: v for c, v in row.items() if c != "player"}})
    return ranked


def decide(ranked: Sequence[dict[str, Any]], chain: Sequence[Step]) -> tuple[
        list[dict[str, Any]], str, list[tuple[str, list[dict[str, Any]]]]]:
    """Who leads ``ranked`` by the tiebreak ``chain`` (its first step the total): the
    leaders' rows, the name of the step that left one of them (``"shared"`` when none
    did), and each tiebreak step the chain went on to (every step after the first),
    as (column, the rows still tied when the step was taken)."""
    top = list(ranked)
    taken: list[tuple[str, list[dict[str, Any]]]] = []
    for i, (col, name) in enumerate(chain):
        if i:
            taken.append((col, top))
        best = max(r[col] for r in top)
        top = [r for r in top if r[col] == best]
        if len(top) == 1:
            return top, name, taken
    return top, "shared", taken


class ScoreTable:
    """The final (or so-far) table.  ``lines`` and ``table`` are pandas DataFrames,
    made on first use from the plain rows (``line_rows``, ``rows``): the history's
    sync of 10,000 games reads only the rows (issue 26).

    A game's subclass names its :attr:`CATEGORIES` (the breakdown), the columns of a
    player in ``score --json`` after ``player``, ``rank`` and ``total``
    (:attr:`JSON_COLUMNS`: (JSON key, row column)) and what comes first in the JSON
    (:meth:`json_head`)."""

    #: the breakdown's categories, in order (each a column of a row)
    CATEGORIES: ClassVar[tuple[str, ...]] = ()
    #: a player's other numbers in ``score --json``: (JSON key, row column)
    JSON_COLUMNS: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self, final: bool, line_rows: list[dict[str, Any]],
                 rows: list[dict[str, Any]], winners: list[str], decided_by: str,
                 explanation: str) -> None:
        self.final = final
        self.line_rows = line_rows   # every VP: player, category, source, cell, rule, vp
        self.rows = rows             # one dict per player, ranked (rank after player)
        self.winners = winners
        self.decided_by = decided_by     # the step of the game's chain, or shared
        self.explanation = explanation
        self._lines: pd.DataFrame | None = None
        self._table: pd.DataFrame | None = None

    def _repr_more(self) -> str:
        """What a subclass shows in its repr after ``final``: ``"name=value, "``."""
        return ""

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(final={self.final!r}, {self._repr_more()}"
                f"rows={self.rows!r}, line_rows={self.line_rows!r}, "
                f"winners={self.winners!r}, decided_by={self.decided_by!r}, "
                f"explanation={self.explanation!r})")

    @property
    def lines(self) -> pd.DataFrame:
        """Every VP: player, category, source, cell, rule, vp."""
        import pandas as pd
        if self._lines is None:
            self._lines = pd.DataFrame(self.line_rows, columns=LINE_COLUMNS)
        return self._lines

    @property
    def table(self) -> pd.DataFrame:
        """One row per player, ranked."""
        import pandas as pd
        if self._table is None:
            self._table = pd.DataFrame(self.rows)
        return self._table

    def breakdown(self, player: str) -> pd.DataFrame:
        return self.lines[self.lines.player == player].reset_index(drop=True)

    def totals(self) -> dict[str, int]:
        return {r["player"]: int(r["total"]) for r in self.rows}

    def json_head(self) -> dict[str, Any]:
        """What ``score --json`` gives before ``final`` (a game's format, say)."""
        return {}

    def to_json(self) -> dict[str, Any]:
        players = []
        for r in self.rows:
            players.append({"player": r["player"], "rank": int(r["rank"]),
                            "total": int(r["total"]),
                            **{k: int(r[c]) for k, c in self.JSON_COLUMNS},
                            "breakdown": {c: int(r[c]) for c in self.CATEGORIES}})
        return {**self.json_head(), "final": self.final, "winners": list(self.winners),
                "players": players, "decided_by": self.decided_by,
                "explanation": self.explanation}
