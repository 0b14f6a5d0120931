"""One stored record, derived (issue 38: History's derived tables apart from its imports
and exports): the engine game of a record through the registry (:func:`open_game`), and
everything the statistics need from it, replayed once (:func:`derive`), checked before
any of it reaches a table.  No table here: companion.table.derived writes them.
"""
from __future__ import annotations

import math
from typing import Any

from ..core.errors import CompanionError, IllegalAction, MissingEntry, UnknownCardValues
from ..core.jsontypes import JSON
from . import imported, registry
from ..core.safeio import terminal_line
from .imported import IMPORTED_FORMAT




def open_game(record: JSON, *, trusted: bool = False) -> registry.GameProtocol:
    """The engine game of a record, whichever game it is (the registry tells).
    ``trusted=True`` only for a record from our own store or memory (the bounded
    reader's checks are skipped; the replay still checks every rule)."""
    return registry.load_game(record, trusted=trusted)


def waits_for(e: CompanionError) -> str:
    """What a finished game's final scoring waits for, in words: the values
    nobody has typed yet (UnknownCardValues) or the players' entries (MissingEntry)."""
    if isinstance(e, UnknownCardValues):
        return f"'{e.card}' ({', '.join(e.fields)})"
    if isinstance(e, MissingEntry):
        return "; ".join(e.needed)
    return str(e)


def derive(record: JSON, *, trusted: bool = False) -> dict[str, Any]:
    """Everything the statistics need from one record (replays it once).

    A record that does not replay raises (:func:`sync` flags it).  A finished
    game whose final scoring waits for values the players still have to type
    (a card's, race's or objective's printed values, manual VP) is no error:
    ``waiting`` says what it waits for, it is not finished, and its players
    have no rank or total yet."""
    fmt = record.get("format", registry.DEFAULT_FORMAT)
    if fmt == IMPORTED_FORMAT:           # a play from another logger: its file's values
        return imported.derive(record)
    game = open_game(record, trusted=trusted)
    setup = record["setup"]
    players = list(setup["players"])
    out = {"format": fmt, "players": players, "races": dict(setup.get("races") or {}),
           "finished": bool(game.state.finished), "waiting": None,
           "year_vp": [], "cards": [], "objectives": []}
    kind = registry.kind_of(fmt)
    score = None
    try:
        try:
            score = game.score()
        except IllegalAction as e:
            # the game is over but its round-end entries are not made yet: no result yet
            pending = None if isinstance(e, UnknownCardValues) or kind.pending_score is None \
                else kind.pending_score(game, e)
            if pending is None:
                raise
            score = pending
            out["finished"] = False
    except (UnknownCardValues, MissingEntry) as e:
        if not game.state.finished:
            raise
        # the record replays; only the final scoring waits for the players' values
        out["finished"] = False
        out["waiting"] = waits_for(e)
    out["explanation"] = None
    out["roles"] = kind.game_roles(game, setup, players)
    if score is None:
        out["winners"], out["decided_by"] = [], None
        out["results"] = {p: {"rank": None, "total": None, "breakdown": {}} for p in players}
    else:
        result = score.to_json()
        out["winners"] = result["winners"]
        out["decided_by"] = result.get("decided_by")
        if isinstance(result.get("explanation"), str):
            out["explanation"] = result["explanation"][:500]
        out["results"] = {p["player"]: {"rank": p["rank"], "total": p["total"],
                                        "breakdown": p["breakdown"]}
                          for p in result["players"]}
    if kind.derive_extra is not None:
        kind.derive_extra(game, score, out)
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
    from ..core import userdocs
    from ..core.paths import user_catalogue_path
    docs = userdocs.documents()
    if docs.file(user_catalogue_path().name) is None:      # the club's (issue 26)
        return docs.changed(user_catalogue_path().name)
    try:
        return user_catalogue_path().stat().st_mtime
    except OSError:
        return 0.0


#: a derived number (a total, a breakdown, VP of a year, a card or an objective)
#: outside -SCORE_LIMIT..SCORE_LIMIT flags its game instead of reaching the tables
SCORE_LIMIT = 1_000_000
#: the latest date a stored game may carry (2100-01-01); a crafted store's date
#: outside 0..this is read as 0 so that no date conversion fails
MAX_PLAYED = 4_102_444_800


def _check_derived(d: dict[str, Any]) -> None:
    """Every derived number within -SCORE_LIMIT..SCORE_LIMIT (a stored game with
    absurd numbers is flagged, never written into the derived tables)."""
    def ok(v: object, what: str) -> None:
        if v is None:
            return
        if isinstance(v, bool) or not isinstance(v, int) or not -SCORE_LIMIT <= v <= SCORE_LIMIT:
            raise CompanionError(f"{what} is {terminal_line(repr(v), 40)}: out of range "
                                 f"(at most {SCORE_LIMIT} in size)")
    for p, r in d["results"].items():
        ok(r.get("total"), f"{p}'s total")
        ok(r.get("rank"), f"{p}'s rank")
        for k, v in (r.get("breakdown") or {}).items():
            ok(v, f"{p}'s {k}")
    for p, y, v in d["year_vp"]:
        ok(v, f"{p}'s VP in year {y}")
    for p, card, _cell, v in d["cards"]:
        ok(v, f"the VP of {p}'s {card}")
    for o, p, v in d["objectives"]:
        ok(v, f"the VP of {o}")


def _played(created: Any) -> float:
    try:
        t = float(created)
    except (TypeError, ValueError):
        return 0.0
    return t if math.isfinite(t) and 0 <= t <= MAX_PLAYED else 0.0
