"""Game history: the tables derived from every stored record, kept in step
with the store, plus import/export of records and the plays CSV.

The store keeps each record (setup + actions); :func:`sync` derives, for every
game changed since it was last derived, its result (finished?, winners, the
tiebreak step), each player's total with its breakdown, the VP per year, the
cards built with the VP each gave, and the objectives claimed.  Statistics
(:mod:`companion.stats`) read those tables and never replay a game.
"""
from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

from .errors import CompanionError, IllegalAction, MissingEntry, UnknownCardValues
from .record import FORMAT as ATS_FORMAT
from .record import dumps
from .store import Store

SSE_FORMAT = "small-star-empires/1"
GAME_NAMES = {ATS_FORMAT: "Among the Stars", SSE_FORMAT: "Small Star Empires"}


def open_game(record: dict):
    """The engine game of a record, whichever game it is."""
    fmt = record.get("format")
    if fmt == SSE_FORMAT:
        from .sse.game import SseGame
        return SseGame.from_record(record)
    from .game import Game
    return Game.from_record(record)


def waits_for(e: CompanionError) -> str:
    """What a finished game's final scoring waits for, in words: the values
    nobody has typed yet (UnknownCardValues) or the players' entries (MissingEntry)."""
    if isinstance(e, UnknownCardValues):
        return f"'{e.card}' ({', '.join(e.fields)})"
    if isinstance(e, MissingEntry):
        return "; ".join(e.needed)
    return str(e)


def derive(record: dict) -> dict:
    """Everything the statistics need from one record (replays it once).

    A record that does not replay raises (:func:`sync` flags it).  A finished
    game whose final scoring waits for values the players still have to type
    (a card's, race's or objective's printed values, manual VP) is no error:
    ``waiting`` says what it waits for, it is not finished, and its players
    have no rank or total yet."""
    fmt = record.get("format", ATS_FORMAT)
    game = open_game(record)
    setup = record["setup"]
    players = list(setup["players"])
    out = {"format": fmt, "players": players, "races": dict(setup.get("races") or {}),
           "finished": bool(game.state.finished), "waiting": None,
           "year_vp": [], "cards": [], "objectives": []}
    score = None
    try:
        try:
            score = game.score()
        except IllegalAction as e:
            if isinstance(e, UnknownCardValues) or e.rule not in ("round-end", "advisor") \
                    or fmt != ATS_FORMAT:
                raise
            # the game is over but its round-end entries are not made yet: no result yet
            from .scoring import score as projected
            score = projected(game, project=True)
            out["finished"] = False
    except (UnknownCardValues, MissingEntry) as e:
        if not game.state.finished:
            raise
        # the record replays; only the final scoring waits for the players' values
        out["finished"] = False
        out["waiting"] = waits_for(e)
    if score is None:
        out["winners"], out["decided_by"] = [], None
        out["results"] = {p: {"rank": None, "total": None, "breakdown": {}} for p in players}
    else:
        result = score.to_json()
        out["winners"] = result["winners"]
        out["decided_by"] = result.get("decided_by")
        out["results"] = {p["player"]: {"rank": p["rank"], "total": p["total"],
                                        "breakdown": p["breakdown"]}
                          for p in result["players"]}
    if fmt == ATS_FORMAT:
        st = game.state
        for p in players:
            # every year played so far, 0 when nothing was gained (averages count it)
            by_year: dict[int, int] = {y: 0 for y in range(1, st.year + 1)}
            for line in st.players[p].ledger:
                by_year[line.year] = by_year.get(line.year, 0) + line.vp
            out["year_vp"] += [(p, y, v) for y, v in sorted(by_year.items())]
            # the VP each built card gave: when built, and at the end
            per_cell: dict[tuple, int] = {}
            for line in st.players[p].ledger:
                if line.category in ("printed", "ability", "manual") and line.cell is not None:
                    per_cell[(line.source, line.cell)] = per_cell.get((line.source, line.cell), 0) \
                        + line.vp
            if out["finished"]:
                lines = score.lines
                for r in lines[(lines.player == p) & (lines.category == "end_abilities")
                               & lines.cell.notna()].itertuples():
                    key = (r.source, tuple(r.cell))
                    per_cell[key] = per_cell.get(key, 0) + int(r.vp)
            for cell, placed in st.players[p].station.cells.items():
                if placed.kind == "location":
                    out["cards"].append((p, placed.card, f"{cell[0]},{cell[1]}",
                                         per_cell.get((placed.card, cell), 0)))
        if out["finished"]:
            lines = score.lines
            for r in lines[lines.category == "objectives"].itertuples():
                out["objectives"].append((r.source, r.player, int(r.vp)))
    return out


def _why(e: CompanionError) -> str:
    """The error's message, with the action number of an illegal action (as the CLI says)."""
    msg = str(e)
    index = getattr(e, "index", None)
    if index is not None and not msg.startswith("action "):
        msg = f"action {index}: {msg}"
    return msg


def _catalogue_changed() -> float:
    """When the player's own catalogue was last changed (0: there is none)."""
    from .paths import user_catalogue_path
    try:
        return user_catalogue_path().stat().st_mtime
    except OSError:
        return 0.0


def sync(store: Store, *, force: bool = False) -> int:
    """Re-derive every game changed since it was last derived; returns how many.
    A game waiting for values (or whose record failed) is also re-derived when
    the player's own catalogue changed since: the values may be there now."""
    conn = store._conn
    rows = conn.execute(
        "SELECT g.id, g.updated, g.created, r.derived_at, "
        "r.error IS NOT NULL OR r.waiting IS NOT NULL FROM games g "
        "LEFT JOIN g_results r ON r.game_id = g.id").fetchall()
    typed = _catalogue_changed()
    todo = [(gid, created) for gid, updated, created, derived, pending in rows
            if force or derived is None or derived < updated or (pending and derived < typed)]
    for gid, created in todo:
        record = store.load(gid)
        try:
            d = derive(record)
            error = None
        except CompanionError as e:          # a record that no longer replays: kept, flagged
            d, error = None, _why(e)
        with store._tx() as c:
            for t in ("g_results", "g_players", "g_year_vp", "g_cards", "g_objectives"):
                c.execute(f"DELETE FROM {t} WHERE game_id=?", (gid,))
            fmt = record.get("format", ATS_FORMAT)
            if d is None:
                c.execute("INSERT INTO g_results(game_id, format, finished, played, derived_at, "
                          "error) VALUES (?,?,?,?,?,?)", (gid, fmt, 0, created, time.time(), error))
                continue
            c.execute("INSERT INTO g_results(game_id, format, finished, played, derived_at, "
                      "decided_by, winners, waiting) VALUES (?,?,?,?,?,?,?,?)",
                      (gid, fmt, int(d["finished"]), created, time.time(), d["decided_by"],
                       json.dumps(d["winners"]), d["waiting"]))
            for seat, p in enumerate(d["players"], 1):
                r = d["results"][p]
                c.execute("INSERT INTO g_players VALUES (?,?,?,?,?,?,?,?)",
                          (gid, p, seat, d["races"].get(p), r["rank"], r["total"],
                           int(d["finished"] and p in d["winners"]), json.dumps(r["breakdown"])))
            c.executemany("INSERT INTO g_year_vp VALUES (?,?,?,?)",
                          [(gid, p, y, v) for p, y, v in d["year_vp"]])
            c.executemany("INSERT INTO g_cards VALUES (?,?,?,?,?)",
                          [(gid, p, card, cell, v) for p, card, cell, v in d["cards"]])
            c.executemany("INSERT INTO g_objectives VALUES (?,?,?,?)",
                          [(gid, o, p, v) for o, p, v in d["objectives"]])
    return len(todo)


# ---------------------------------------------------------------------------
# import / export
# ---------------------------------------------------------------------------
def import_records(store: Store, paths) -> list[str]:
    """Import record files (or every *.json in a folder).  Every file is checked by
    replaying it before anything is stored: a bad file stops the import with a
    message naming it, and then nothing at all is imported."""
    from .record import read_record
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        files += sorted(p.glob("*.json")) if p.is_dir() else [p]
    checked = []
    for f in files:
        try:
            if f.stat().st_size == 0:
                raise CompanionError("the file is empty")
            text = f.read_text(encoding="utf-8")
            rec = json.loads(text)
            if isinstance(rec, dict) and rec.get("format") == SSE_FORMAT:
                open_game(rec)
            else:
                rec = read_record(f)
                open_game(rec)
        except (CompanionError, ValueError, OSError) as e:
            raise CompanionError(f"{f}: {_why(e) if isinstance(e, CompanionError) else e}") \
                from None
        checked.append(rec)
    if not files:
        raise CompanionError("no record files (*.json) to import")
    return [store.create(rec, title=(rec.get("meta") or {}).get("title")) for rec in checked]


def export_records(store: Store, folder, ids=None) -> list[Path]:
    """Write each game's record as one JSON file into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for g in store.games(format=None):
        if ids is not None and g["id"] not in ids:
            continue
        rec = store.load(g["id"])
        path = folder / f"{g['id']}.json"
        path.write_text(dumps(rec), encoding="utf-8")
        out.append(path)
    return out


PLAYS_COLUMNS = ["date", "game", "players", "scores", "winner", "game_id"]


def plays_csv(store: Store, *, finished_only: bool = True) -> str:
    """The documented interop CSV (docs/history.md): one row per game with
    date (YYYY-MM-DD), game, players (';'-separated, seat order), scores
    (';'-separated, same order), winner (';'-separated if shared), game_id."""
    sync(store)
    conn = store._conn
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(PLAYS_COLUMNS)
    q = ("SELECT r.game_id, r.format, r.played, r.winners, r.finished FROM g_results r "
         "WHERE r.error IS NULL " + ("AND r.finished = 1 " if finished_only else "")
         + "ORDER BY r.played")
    for gid, fmt, played, winners, finished in conn.execute(q):
        ps = conn.execute("SELECT player, total FROM g_players WHERE game_id=? ORDER BY seat",
                          (gid,)).fetchall()
        w.writerow([time.strftime("%Y-%m-%d", time.localtime(played)), GAME_NAMES.get(fmt, fmt),
                    ";".join(p for p, _ in ps),
                    # a game waiting for values has no scores yet: the field is empty
                    "" if any(t is None for _, t in ps) else ";".join(str(t) for _, t in ps),
                    ";".join(json.loads(winners)) if finished else "", gid])
    return buf.getvalue()
