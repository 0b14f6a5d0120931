"""Command line: ``python -m companion score RECORD.json [--json]`` and friends."""
from __future__ import annotations

import argparse
import json
import os
import sys

from .errors import CompanionError, IllegalAction


def _fail(e: Exception) -> int:
    msg = str(e)
    if isinstance(e, IllegalAction) and e.index is not None:
        msg = f"action {e.index}: {msg}"
    print(f"error: {msg}", file=sys.stderr)
    return 2


def _is_sse(path) -> bool:
    """A Small Star Empires record (format small-star-empires/1) goes to its own engine."""
    from .sse.record import FORMAT as SSE_FORMAT, sniff_format
    return sniff_format(path) == SSE_FORMAT


def cmd_score(args) -> int:
    if _is_sse(args.record):
        from .sse.cli import cmd_score as sse_score
        return sse_score(args)
    from .game import Game
    from .record import read_record
    game = Game.from_record(read_record(args.record))
    result = game.score()
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return 0
    print("Final scoring" if result.final else
          f"Game in progress (year {game.state.year}, turn {game.state.turn}): score so far")
    t = result.table.rename(columns={"credits": "credits_vp"})
    print(t.to_string(index=False))
    print()
    print(result.explanation)
    if args.lines:
        print()
        print(result.lines.to_string(index=False))
    return 0


def cmd_check(args) -> int:
    if _is_sse(args.record):
        from .sse.cli import cmd_check as sse_check
        return sse_check(args)
    from .game import Game
    from .record import read_record
    game = Game.from_record(read_record(args.record))
    st = game.state
    where = "finished" if st.finished else f"year {st.year}, turn {st.turn}"
    print(f"ok: {len(game.actions)} actions, {where}")
    return 0


def cmd_catalogue(args) -> int:
    from . import catalogue as cat
    if args.what == "export":
        path = cat.export_user_catalogue(args.file)
        print(f"exported {len(cat.load_user_cards())} card(s) to {path}")
    elif args.what == "import":
        names = cat.import_user_catalogue(args.file)
        print(f"imported {len(names)} card(s) into {cat.user_catalogue_path()}")
    elif args.what == "unknown":
        c = cat.Catalogue.default()
        for card in c:
            missing = card.unknown_all()
            if missing:
                print(f"{card.name}: {', '.join(missing)}")
    return 0


def cmd_history(args) -> int:
    from . import history, stats
    from .store import Store
    store = Store()
    if store.notice:
        print(f"note: {store.notice}", file=sys.stderr)
    if args.what == "import":
        if not args.paths:
            print("error: give record files or folders to import", file=sys.stderr)
            return 2
        ids = history.import_records(store, args.paths)
        print(f"imported {len(ids)} game(s) into {store.path}")
    elif args.what == "export":
        if len(args.paths) != 1:
            print("error: give one folder to export the records into", file=sys.stderr)
            return 2
        out = history.export_records(store, args.paths[0])
        print(f"exported {len(out)} record(s) to {args.paths[0]}")
    elif args.what == "plays":
        sys.stdout.write(history.plays_csv(store, finished_only=not args.all))
    elif args.what == "stats":
        tables = stats.all_statistics(store)
        names = [n for n in tables if not args.paths or any(a.lower() in n for a in args.paths)]
        for n in names:
            print(f"== {n}")
            df = tables[n]
            print(df.to_string() if not df.empty else "(no finished games)")
            print()
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m companion",
                                description="Among the Stars and Small Star Empires table companion")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("score", help="final table of a game record")
    s.add_argument("record")
    s.add_argument("--json", action="store_true", help="machine-readable output only")
    s.add_argument("--lines", action="store_true", help="also print every VP line with its source")
    s.set_defaults(func=cmd_score)
    c = sub.add_parser("check", help="replay a record and report whether it is legal")
    c.add_argument("record")
    c.set_defaults(func=cmd_check)
    k = sub.add_parser("catalogue", help="your own card catalogue")
    k.add_argument("what", choices=["export", "import", "unknown"])
    k.add_argument("file", nargs="?")
    k.set_defaults(func=cmd_catalogue)
    h = sub.add_parser("history", help="your stored games: import, export, plays CSV, statistics")
    h.add_argument("what", choices=["import", "export", "plays", "stats"])
    h.add_argument("paths", nargs="*", help="record files/folders (import), a folder (export), "
                                            "table names (stats)")
    h.add_argument("--all", action="store_true", help="plays: games in progress too")
    h.set_defaults(func=cmd_history)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "catalogue" and args.what in ("export", "import") and not args.file:
        print("error: give the file to export to / import from", file=sys.stderr)
        return 2
    try:
        return args.func(args)
    except CompanionError as e:
        return _fail(e)
    except Exception as e:  # a bug: one line, not a traceback, unless debugging
        if os.environ.get("COMPANION_DEBUG"):
            raise
        print(f"internal error: {type(e).__name__}: {e} (set COMPANION_DEBUG=1 for details)",
              file=sys.stderr)
        return 3
