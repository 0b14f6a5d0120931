"""What ``python -m companion score`` and ``check`` print, for every game (issue 38,
"one shape for both games"): each game's ``cli.py`` passes only its words.

* :func:`out`: one piece of output on standard output, made safe for a terminal.
* :func:`print_score`: a score table (``companion.core.scoretable.ScoreTable``):
  ``--json`` the JSON shape only; else the game's heading, the table, the sentence,
  the game's notes and, with ``--lines``, every VP line.
* :func:`print_check`: a check's result: ``ok: N actions, WHERE`` and the game's notes.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from .safeio import terminal_text
from .scoretable import ScoreTable

if TYPE_CHECKING:        # the table is made only when printed
    import pandas as pd


def out(text: str = "") -> None:
    """One piece of output on standard output, made safe for a terminal (control
    characters other than newline and tab escaped, lone surrogates escaped)."""
    sys.stdout.write(terminal_text(text) + "\n")


def _whole_table(result: ScoreTable) -> pd.DataFrame:
    return result.table


def _no_notes(result: ScoreTable) -> Sequence[str]:
    return ()


def print_score(result: ScoreTable, args: argparse.Namespace, heading: Callable[[], str], *,
                shown: Callable[[ScoreTable], pd.DataFrame] = _whole_table,
                notes: Callable[[ScoreTable], Sequence[str]] = _no_notes) -> int:
    """Print ``result`` as ``score`` does: with ``args.json`` its JSON only; else the
    game's ``heading()``, the game's ``shown(result)`` table (default: the whole table),
    a blank line, the explanation, the game's ``notes(result)``, and with
    ``args.lines`` a blank line and every VP line.  The game's words are asked for
    only when printed.  Returns the exit code, 0."""
    if args.json:
        out(json.dumps(result.to_json(), indent=1))
        return 0
    out(heading())
    out(shown(result).to_string(index=False))
    out()
    out(result.explanation)
    for note in notes(result):
        out(note)
    if args.lines:
        out()
        out(result.lines.to_string(index=False))
    return 0


def _nothing() -> Iterable[str]:
    return ()


def print_check(game: Any, where: str | None = None,
                notes: Callable[[], Iterable[str]] = _nothing) -> int:
    """Print a replayed ``game``'s check as ``check`` does: ``ok: N actions, WHERE``
    (``ok: N actions`` with no ``where``), then each of the game's ``notes()`` (what the
    record takes on trust), asked for after the first line.  Returns the exit code, 0."""
    n = len(game.actions)
    out(f"ok: {n} actions" if where is None else f"ok: {n} actions, {where}")
    for note in notes():
        out(note)
    return 0
