"""``python -m companion score|check`` for Small Star Empires records (format
``small-star-empires/1``); companion/cli.py reads the file once (the bounded
reader) and routes a Small Star Empires game here.  The printing is the base's
(companion.core.cliprint); here are Small Star Empires' words."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..core.cliprint import out, print_check, print_score
from .game import SseGame
from .lay import trusted
from .record import read_record
from .scoring import CATEGORIES, tiebreak_words

#: the columns of the table ``score`` prints
SHOWN = ["rank", "player"] + list(CATEGORIES) + ["total", "cities_left", "trade_stations_left",
                                               "planets_controlled"]


def load(path: str | Path) -> SseGame:
    return SseGame.from_record(read_record(path))


def cmd_score(args: argparse.Namespace) -> int:
    return score_game(load(args.record), args)


def cmd_check(args: argparse.Namespace) -> int:
    return check_game(load(args.record), args)


def score_game(game: SseGame, args: argparse.Namespace) -> int:
    result = game.score()
    st = game.state
    return print_score(
        result, args,
        lambda: (f"Small Star Empires - final scoring ({st.end_reason})" if result.final else
                 f"Small Star Empires - game in progress ({len(game.actions)} actions, "
                 f"{st.current} to move): score so far"),
        shown=lambda r: r.table[SHOWN],
        notes=lambda r: [tiebreak_words(r.decided_by)] if r.final else [])


def check_game(game: SseGame, args: argparse.Namespace) -> int:
    st = game.state
    where = f"finished: {st.end_reason}" if st.finished else f"{st.current} to move"
    # a position laid from the table (issue 39): what its map cannot show
    return print_check(game, where, lambda: trusted(game.actions, st))


def cmd_tiles(args: argparse.Namespace) -> int:
    """``python -m companion tiles list|export FILE|import FILE|unknown``: the player's
    typed sector tiles (issue 24; companion.sse.tiles)."""
    from . import tiles as tl
    if args.what == "list":
        typed = tl.load_tiles()
        for tid, t in sorted(typed.items()):
            other = f", other side {t.other_side}" if t.other_side else ""
            title = f" - {t.title}" if t.title else ""
            out(f"{tid}: {t.kind}, {len(t.systems)} systems{other}{title}")
        out(f"{len(typed)} tile face(s) in {tl.user_tiles_place()}")
    elif args.what == "export":
        path = tl.export_tiles(args.file)
        out(f"exported {len(tl.load_tiles())} tile face(s) to {path}")
    elif args.what == "import":
        ids = tl.import_tiles(args.file)
        out(f"imported {len(ids)} tile face(s) into {tl.user_tiles_place()}: {', '.join(ids)}")
    elif args.what == "unknown":
        missing = tl.unknown_tiles(tl.load_tiles())
        for kind in tl.TILE_KINDS:
            out(f"{kind} sector tiles not typed yet: {missing[kind]} of {tl.BOX[kind]}")
    return 0
