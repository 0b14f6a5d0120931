"""``python -m companion score|check`` for Small Star Empires records (format
``small-star-empires/1``); companion/cli.py routes them here."""
from __future__ import annotations

import json

from .game import SseGame
from .record import read_record
from .scoring import CATEGORIES, tiebreak_words


def load(path) -> SseGame:
    return SseGame.from_record(read_record(path))


def cmd_score(args) -> int:
    game = load(args.record)
    result = game.score()
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return 0
    st = game.state
    if result.final:
        print(f"Small Star Empires - final scoring ({st.end_reason})")
    else:
        print(f"Small Star Empires - game in progress ({len(game.actions)} actions, "
              f"{st.current} to move): score so far")
    cols = ["rank", "player"] + list(CATEGORIES) + ["total", "cities_left", "trade_stations_left",
                                                    "planets_controlled"]
    print(result.table[cols].to_string(index=False))
    print()
    print(result.explanation)
    if result.final:
        print(tiebreak_words(result.decided_by))
    if args.lines:
        print()
        print(result.lines.to_string(index=False))
    return 0


def cmd_check(args) -> int:
    game = load(args.record)
    st = game.state
    where = f"finished: {st.end_reason}" if st.finished else f"{st.current} to move"
    print(f"ok: {len(game.actions)} actions, {where}")
    return 0
