"""Command line: ``python -m companion score RECORD.json [--json]`` and friends."""
from __future__ import annotations

import argparse
import json
import os
import sys

from .errors import CompanionError, IllegalAction
from .safeio import terminal_line, terminal_text


def out(text: str = "") -> None:
    """One piece of output on standard output, made safe for a terminal (control
    characters other than newline and tab escaped, lone surrogates escaped)."""
    sys.stdout.write(terminal_text(text) + "\n")


def err(text: str) -> None:
    """One line on standard error, made safe: always exactly one clean line."""
    sys.stderr.write(terminal_line(text) + "\n")


def _fail(e: Exception) -> int:
    msg = str(e)
    if isinstance(e, IllegalAction) and e.index is not None:
        msg = f"action {e.index}: {msg}"
    err(f"error: {msg}")
    return 2


def _load(path):
    """The record file read once (the one bounded reader), told apart by its format:
    ("sse", SseGame) or ("ats", Game)."""
    from .record import read_json, validate_record
    from .sse.record import FORMAT as SSE_FORMAT
    data = read_json(path)
    if isinstance(data, dict) and data.get("format") == SSE_FORMAT:
        from .sse.game import SseGame
        return "sse", SseGame.from_record(data)
    from .game import Game
    validate_record(data)
    return "ats", Game.from_record(data)


def cmd_score(args) -> int:
    kind, game = _load(args.record)
    if kind == "sse":
        from .sse.cli import score_game
        return score_game(game, args)
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


def cmd_check(args) -> int:
    kind, game = _load(args.record)
    if kind == "sse":
        from .sse.cli import check_game
        return check_game(game, args)
    st = game.state
    where = "finished" if st.finished else f"year {st.year}, turn {st.turn}"
    out(f"ok: {len(game.actions)} actions, {where}")
    return 0


def cmd_catalogue(args) -> int:
    from . import catalogue as cat
    if args.what == "export":
        path = cat.export_user_catalogue(args.file)
        out(f"exported {len(cat.load_user_cards())} card(s) to {path}")
    elif args.what == "import":
        names = cat.import_user_catalogue(args.file)
        out(f"imported {len(names)} card(s) into {cat.user_catalogue_path()}")
    elif args.what == "unknown":
        c = cat.Catalogue.default()
        for card in c:
            missing = card.unknown_all()
            if missing:
                out(f"{card.name}: {', '.join(missing)}")
    return 0


def cmd_history(args) -> int:
    from . import history, stats
    from .store import Store
    store = Store()
    if store.notice:
        err(f"note: {store.notice}")
    if args.what == "import":
        if not args.paths:
            err("error: give record files or folders to import")
            return 2
        ids = history.import_records(store, args.paths)
        out(f"imported {len(ids)} game(s) into {store.path}")
    elif args.what == "export":
        if len(args.paths) != 1:
            err("error: give one folder to export the records into")
            return 2
        skipped: list = []
        written = history.export_records(store, args.paths[0], skipped=skipped)
        for gid, why in skipped:
            err(f"note: game {gid} not exported: {why}")
        out(f"exported {len(written)} record(s) to {args.paths[0]}")
    elif args.what == "plays":
        sys.stdout.write(terminal_text(history.plays_csv(store, finished_only=not args.all)))
    elif args.what == "stats":
        tables = stats.all_statistics(store)
        names = [n for n in tables if not args.paths or any(a.lower() in n for a in args.paths)]
        for n in names:
            out(f"== {n}")
            df = tables[n]
            out(df.to_string() if not df.empty else "(no finished games)")
            out()
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


def _safe_streams() -> None:
    """Output encoding never raises: a character the terminal's encoding cannot
    show is written as a backslash escape."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):
            pass


def _quiet_broken_pipe() -> int:
    """The reader went away (``score ... | head``): stop quietly.  Standard output
    is pointed at /dev/null so that the interpreter's last flush does not fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    _safe_streams()
    args = build_parser().parse_args(argv)
    if args.command == "catalogue" and args.what in ("export", "import") and not args.file:
        err("error: give the file to export to / import from")
        return 2
    try:
        code = args.func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except CompanionError as e:
        return _fail(e)
    except RecursionError:           # a value nested too deeply for the engine
        if os.environ.get("COMPANION_DEBUG"):
            raise
        err("error: the input is nested too deeply to be read")
        return 2
    except Exception as e:  # a bug: one line, not a traceback, unless debugging
        if os.environ.get("COMPANION_DEBUG"):
            raise
        err(f"internal error: {type(e).__name__}: {e} (set COMPANION_DEBUG=1 for details)")
        return 3
