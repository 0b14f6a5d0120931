"""``python -m companion score|check`` for Among the Stars records; companion/cli.py
reads the file once (the bounded reader) and routes the game here through its
descriptor (companion.ats.kind)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..core.safeio import terminal_text
from .setup import book_setup_problems


def out(text: str = "") -> None:
    """One piece of output on standard output, made safe for a terminal (as
    ``companion.cli.out``; here so that this module does not import companion.cli)."""
    sys.stdout.write(terminal_text(text) + "\n")


def score_game(game: Any, args: argparse.Namespace) -> int:
    result = game.score()
    if args.json:
        out(json.dumps(result.to_json(), indent=1))
        return 0
    out("Final scoring" if result.final else
        f"Game in progress (year {game.state.year}, turn {game.state.turn}): score so far")
    t = result.table.rename(columns={"credits": "credits_vp"})
    out(t.to_string(index=False))
    out()
    out(result.explanation)
    if args.lines:
        out()
        out(result.lines.to_string(index=False))
    return 0


def check_game(game: Any, args: argparse.Namespace) -> int:
    st = game.state
    where = "finished" if st.finished else f"year {st.year}, turn {st.turn}"
    out(f"ok: {len(game.actions)} actions, {where}")
    # what the record takes on trust of the books' setup rules, as it says (issue 36)
    trusted = set(game.setup.options.get("on_trust", ()))
    for code, msg in book_setup_problems(game.setup):
        if code in trusted:
            out(f"taken on trust (setup.options.on_trust): {msg}")
    # a position laid from the table (issue 39): what its final position cannot show
    for a in game.actions:
        if a.get("do") == "lay":
            out(f"taken on trust (laid from the table): VP during the game taken from the "
                f"score track: {a['player']} {a['vp']} VP; {a['player']}'s credits "
                f"{a['credits']} as laid")
    return 0
