"""``python -m companion score|check`` for Among the Stars records; companion/cli.py
reads the file once (the bounded reader) and routes the game here through its
descriptor (companion.ats.kind).  The printing is the base's (companion.core.cliprint);
here are Among the Stars' words."""
from __future__ import annotations

import argparse
from typing import Any, Iterator

from ..core.cliprint import print_check, print_score
from .setup import book_setup_problems


def score_game(game: Any, args: argparse.Namespace) -> int:
    result = game.score()
    return print_score(
        result, args,
        lambda: ("Final scoring" if result.final else
                 f"Game in progress (year {game.state.year}, turn {game.state.turn}): "
                 "score so far"),
        shown=lambda r: r.table.rename(columns={"credits": "credits_vp"}))


def check_game(game: Any, args: argparse.Namespace) -> int:
    st = game.state
    where = "finished" if st.finished else f"year {st.year}, turn {st.turn}"
    return print_check(game, where, lambda: _trusted(game))


def _trusted(game: Any) -> Iterator[str]:
    """What the record takes on trust, one line each."""
    # what the record takes on trust of the books' setup rules, as it says (issue 36)
    trusted = set(game.setup.options.get("on_trust", ()))
    for code, msg in book_setup_problems(game.setup):
        if code in trusted:
            yield f"taken on trust (setup.options.on_trust): {msg}"
    # a position laid from the table (issue 39): what its final position cannot show
    for a in game.actions:
        if a.get("do") == "lay":
            yield (f"taken on trust (laid from the table): VP during the game taken from the "
                   f"score track: {a['player']} {a['vp']} VP; {a['player']}'s credits "
                   f"{a['credits']} as laid")
