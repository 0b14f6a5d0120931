"""Command line: ``python -m companion score RECORD.json [--json]`` and friends."""
from __future__ import annotations

import argparse
import json
import os
import sys

from .core.cliprint import out, print_check
from .core.errors import CompanionError, IllegalAction
from .core.safeio import terminal_line, terminal_text


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
    """The record file read once (the one bounded reader), its game told apart by the
    registry: (its descriptor, the replayed game)."""
    from .table import registry
    from .core.record import read_json
    data = read_json(path)
    registry.validate_record(data)
    game = registry.load_game(data)
    return registry.kind_of(registry.format_of(game)), game


def cmd_score(args) -> int:
    kind, game = _load(args.record)
    if kind.cli_score is None:
        err(f"error: {kind.name} has no score on the command line")
        return 2
    return int(kind.cli_score(game, args))


def cmd_check(args) -> int:
    kind, game = _load(args.record)
    if kind.cli_check is None:
        return print_check(game)
    return int(kind.cli_check(game, args))


def cmd_catalogue(args) -> int:
    from .ats import catalogue as cat
    if args.what == "export":
        path = cat.export_user_catalogue(args.file)
        out(f"exported {len(cat.load_user_cards())} card(s) to {path}")
    elif args.what == "import":
        names = cat.import_user_catalogue(args.file)
        out(f"imported {len(names)} card(s) into {cat.user_catalogue_place()}")
    elif args.what == "unknown":
        c = cat.Catalogue.default()
        for card in c:
            missing = card.unknown_all()
            if missing:
                out(f"{card.name}: {', '.join(missing)}")
    return 0


def cmd_tiles(args) -> int:
    from .sse.cli import cmd_tiles as tiles
    return tiles(args)


class Progress:
    """A progress line on standard error (``label: done/total``), rewritten in
    place; shown when standard error is a terminal or with ``--progress``.  Use
    the object as the ``progress(done, total)`` callback of companion.table.history
    and companion.table.plays_export."""

    def __init__(self, label: str, enabled: bool, stream=None):
        self.label, self.enabled = label, enabled
        self.stream = stream or sys.stderr
        self.shown = False
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        import time
        now = time.monotonic()
        if done not in (0, total) and now - self._last < 0.1:
            return                       # at most ten updates a second
        self._last = now
        pct = f" ({100 * done // total}%)" if total else ""
        self.stream.write(f"\r{terminal_line(self.label, 60)}: {done}/{total}{pct}")
        self.stream.flush()
        self.shown = True

    def end(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False


def _progress(args, label: str) -> Progress:
    enabled = bool(getattr(args, "progress", False))
    if not enabled:
        try:
            enabled = sys.stderr.isatty()
        except (AttributeError, ValueError):
            enabled = False
    return Progress(label, enabled)


def _history_of(store, args):
    """The store whose History is up to date (companion.table.history.current): the
    store itself, or, when its derived tables cannot be written (a read-only file, a
    SELECT-only PostgreSQL role), a copy in memory, said in one line on stderr."""
    from .table import history
    bar = _progress(args, "bringing the history up to date")
    try:
        view, note = history.current(store, progress=bar)
    finally:
        bar.end()
    if note:
        err(f"note: {note}")
    return view


def cmd_history(args) -> int:
    from .table import history, stats
    from .table.backends import open_store
    if args.what == "bgg-ids":
        return _bgg_ids(args)
    if args.what == "copy":
        return _copy(args)
    if args.to or args.source:
        err("error: --to and --from are options of history copy")
        return 2
    store = open_store()
    if store.notice:
        err(f"note: {store.notice}")
    fmt = getattr(args, "format", None) or "records"
    if args.what == "import" and (fmt != "records" or (args.paths and all(
            str(p).lower().endswith((".bgsplay", ".xml")) for p in args.paths))):
        # plays logged in BG Stats / on BoardGameGeek (docs/history.md, "Import from
        # other loggers"): read and checked whole, then stored; one line for a bad file
        from .table import plays_export, plays_import
        if not args.paths:
            err("error: give the BG Stats export (.bgsplay/.json) or BGG plays XML to import")
            return 2
        bgg_ids = {**plays_export.load_settings()["bgg_ids"],
                   **plays_export.parse_bgg_ids(args.bgg_id)}
        bar = _progress(args, "importing plays")
        try:
            result = plays_import.import_plays(store, args.paths, bgg_ids=bgg_ids, progress=bar)
        finally:
            bar.end()
        out(f"{plays_import.summary(result)} into {store.path}")
    elif args.what == "import":
        if not args.paths:
            err("error: give record files or folders to import")
            return 2
        bar = _progress(args, "importing")
        try:
            ids = history.import_records(store, args.paths, progress=bar)
        finally:
            bar.end()
        # the page's words (issue 37): the new games, what was already there, what was
        # brought up to date or replaced; then where
        out(f"{history.import_summary(ids)} into {store.path}")
    elif args.what == "export" and fmt != "records":
        from .table import plays_export
        if len(args.paths) != 1:
            err(f"error: give one file to write the {fmt} plays into")
            return 2
        bgg_ids = {**plays_export.load_settings()["bgg_ids"],
                   **plays_export.parse_bgg_ids(args.bgg_id)}
        view = _history_of(store, args)
        missing: list[str] = []
        n = plays_export.write_plays(fmt, view, args.paths[0], finished_only=not args.all,
                                     bgg_ids=bgg_ids, missing=missing)
        if missing:          # issue 37: asked once, with the command that keeps it
            err(f"note: {plays_export.bgg_id_request(missing)}: history bgg-ids "
                + " ".join(f'"{g}=ID"' for g in missing))
        out(f"exported {n} play(s) to {args.paths[0]} ({plays_export.EXPORTERS[fmt].name})")
    elif args.what == "export":
        if len(args.paths) != 1:
            err("error: give one folder to export the records into")
            return 2
        skipped: list = []
        bar = _progress(args, "exporting")
        try:
            written = history.export_records(store, args.paths[0], skipped=skipped, progress=bar)
        finally:
            bar.end()
        for gid, why in skipped:
            err(f"note: game {gid} not exported: {why}")
        out(f"exported {len(written)} record(s) to {args.paths[0]}")
    elif args.what == "link":
        from .table import plays_export
        if len(args.paths) != 1:
            err("error: give the id of one game (history plays --all lists them)")
            return 2
        bgg_ids = {**plays_export.load_settings()["bgg_ids"],
                   **plays_export.parse_bgg_ids(args.bgg_id)}
        link = plays_export.play_link(_history_of(store, args), args.paths[0],
                                      bgg_ids=bgg_ids)
        out(link)
        if args.qr:
            svg = plays_export.qr_svg(link)
            if svg is None:
                err("error: the link is too long for a QR code")
                return 2
            with open(args.qr, "w", encoding="utf-8") as fh:
                fh.write(svg)
            err(f"note: QR code written to {args.qr}")
    elif args.what == "plays":
        text = history.plays_csv(_history_of(store, args), finished_only=not args.all,
                                 synced=True)
        sys.stdout.write(terminal_text(text))
    elif args.what == "stats" and args.people:
        df = stats.PEOPLE[args.people](_history_of(store, args))
        if args.csv:
            stats.to_csv(df, args.csv)
            out(f"wrote {len(df)} row(s) of {args.people} to {args.csv}")
        if args.chart:
            with open(args.chart, "w", encoding="utf-8") as fh:
                fh.write(stats.people_chart_svg(args.people, df))
            out(f"wrote the {args.people} chart to {args.chart}")
        if not args.csv and not args.chart:
            out(df.to_string(index=False) if not df.empty else "(no finished games)")
    elif args.what == "stats":
        tables = stats.all_statistics(_history_of(store, args))
        names = [n for n in tables if not args.paths or any(a.lower() in n for a in args.paths)]
        for n in names:
            out(f"== {n}")
            df = tables[n]
            out(df.to_string() if not df.empty else "(no finished games)")
            if df.attrs.get("note"):         # e.g. games laid from the table (issue 39)
                out(terminal_line(str(df.attrs["note"]), 2000))
            out()
    return 0


def _copy(args) -> int:
    """``history copy --to LOCATION [--from LOCATION]`` (docs/history.md, "Moving a
    history"): every game of one store into another (an SQLite file or a
    postgresql:// URL); the summary paragraph, passwords masked."""
    from .table.store_copy import copy_between
    if not args.to:
        err("error: give the store to copy into: history copy --to FILE-OR-postgresql://URL")
        return 2
    if args.paths:
        err("error: history copy takes no paths: give --to LOCATION (and --from LOCATION)")
        return 2
    bar = _progress(args, "copying")
    try:
        summary = copy_between(args.source, args.to, progress=bar)
    finally:
        bar.end()
    out(summary)
    return 0


def _bgg_ids(args) -> int:
    """``history bgg-ids`` lists the BoardGameGeek ids; ``history bgg-ids
    "Small Star Empires=12345"`` sets one (an empty value clears it)."""
    from .table import plays_export
    if args.paths:
        s = plays_export.save_bgg_ids(plays_export.parse_bgg_ids(args.paths))
        out(f"saved in {plays_export.settings_path()}")
    else:
        s = plays_export.load_settings()
    for g, v in s["bgg_ids"].items():
        out(f"{g}: {v if v else '(not set)'}")
    return 0


def cmd_notation(args) -> int:
    """The record's actions in notation, one a line (issue 23; docs/record-format.md).
    Every action is read before anything is printed: a bad record prints nothing on
    standard output, only its one error line (issue 35)."""
    import importlib
    from .table import registry
    from .core.record import read_json
    data = read_json(args.record)
    registry.validate_record(data)
    game_cls = registry.game_class(registry.record_format(data))
    actions = importlib.import_module(game_cls.__module__.rsplit(".", 1)[0] + ".actions")
    lines = []
    for i, action in enumerate(data.get("actions") or []):
        try:
            lines.append(str(actions.from_dict(action)))
        except CompanionError as e:
            raise CompanionError(f"{args.record}: action {i}: {e}") from None
    for line in lines:
        out(line)
    return 0


def cmd_rules(args) -> int:
    """The table of every rule code of both games (docs/rules.md)."""
    from .core.rules import markdown
    out(markdown().rstrip("\n"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .table.plays_export import EXPORTERS     # the formats the page offers too
    p = argparse.ArgumentParser(prog="python -m companion",
                                description="Among the Stars and Small Star Empires table companion")
    p.add_argument("--database", metavar="URL",
                   help="the saved games: a postgresql:// address (the club database) or an "
                        "SQLite file; default: $COMPANION_DATABASE_URL, else games.sqlite in "
                        "the data folder")
    p.add_argument("--table", metavar="NAME",
                   help="this table's name (1-40 characters): games created here are tagged "
                        "with it; default: $COMPANION_TABLE")
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
    t = sub.add_parser("tiles", help="your typed Small Star Empires sector tiles")
    t.add_argument("what", choices=["list", "export", "import", "unknown"])
    t.add_argument("file", nargs="?")
    t.set_defaults(func=cmd_tiles)
    h = sub.add_parser("history", help="your stored games: import, export, plays CSV, statistics, "
                                       "plays to BG Stats / BoardGameGeek, copy to "
                                       "another store")
    h.add_argument("what", choices=["import", "export", "plays", "stats", "link", "bgg-ids",
                                    "copy"])
    h.add_argument("paths", nargs="*", help="record files/folders (import), a folder (export) or "
                                            "a file (export --format bgstats/bgg), table names "
                                            "(stats), a game id (link), GAME=ID (bgg-ids)")
    h.add_argument("--all", action="store_true",
                   help="plays, export --format bgstats/bgg: games in progress too")
    h.add_argument("--format", choices=["records", *EXPORTERS], default="records",
                   help="export: one record file per game (records, the default), or "
                        + ", ".join(f"{e.name} ({k})" for k, e in EXPORTERS.items())
                        + "; import: "
                        "bgstats/bgg read plays logged there (a .bgsplay or .xml file is read "
                        "so without it)")
    h.add_argument("--bgg-id", action="append", metavar="GAME=ID",
                   help="export, link, import of plays: a BoardGameGeek id for this export only "
                        "(history bgg-ids saves them)")
    h.add_argument("--people", choices=["head-to-head", "streaks", "monthly", "yearly"],
                   help="stats: a people table")
    h.add_argument("--csv", metavar="FILE", help="stats --people: write the table as CSV")
    h.add_argument("--chart", metavar="FILE", help="stats --people: write its chart (SVG)")
    h.add_argument("--qr", metavar="FILE", help="link: also write the link's QR code (SVG)")
    h.add_argument("--to", metavar="LOCATION",
                   help="copy: the store to copy every game into (an SQLite file or a "
                        "postgresql:// URL)")
    h.add_argument("--from", dest="source", metavar="LOCATION",
                   help="copy: the store to copy from (default: the current store)")
    h.add_argument("--progress", action="store_true",
                   help="show progress on standard error even when it is not a terminal")
    h.set_defaults(func=cmd_history)
    n = sub.add_parser("notation", help="a record's actions in notation, one a line")
    n.add_argument("record")
    n.set_defaults(func=cmd_notation)
    r = sub.add_parser("rules", help="every rule code of both games, as a markdown table "
                                     "(docs/rules.md)")
    r.set_defaults(func=cmd_rules)
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
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # `history export --format bgstats FILE`: argparse leaves a positional that
        # follows an option unparsed; for history it is one of its paths
        if args.command == "history" and not any(e.startswith("-") for e in extra):
            args.paths = list(args.paths) + extra
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "database", None):
        os.environ["COMPANION_DATABASE_URL"] = args.database     # open_store reads it
    if args.command in ("catalogue", "tiles") and args.what in ("export", "import") \
            and not args.file:
        err("error: give the file to export to / import from")
        return 2
    try:
        from .table import backends, club
        if getattr(args, "table", None) is not None:
            os.environ[club.TABLE_ENV] = club.check_table_name(args.table)   # open_store reads it
        club.table_from_env()            # a bad $COMPANION_TABLE: one line, before anything
        backends.serve_from_env()        # the club's catalogues with a postgresql:// store
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
