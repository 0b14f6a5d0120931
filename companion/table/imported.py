"""An imported play's record (issue 22 part B): a play logged in another logger (BG
Stats, BoardGameGeek) and imported by companion.table.plays_import, stored as a record of
its own format with the file's values and no action.  Its shape and what History derives
from it (no replay: there is nothing to replay) live here, below both the derived tables
(companion.table.derive) and the import, so neither imports the other (issue 38).
"""
from __future__ import annotations

from typing import Any

from ..core.errors import CompanionError
from ..core.jsontypes import JSON
from .registry import GAME_NAMES

#: the record format of an imported play (the store's ``format`` column)
IMPORTED_FORMAT = "imported-play/1"
#: the sources, as stored and shown
SOURCES = {"bgstats": "BG Stats", "bgg": "BoardGameGeek"}


def validate_record(rec: Any) -> None:
    """The shape of an imported play's record (no replay: there is nothing to replay)."""
    setup = rec.get("setup") if isinstance(rec, dict) else None
    ok = (isinstance(setup, dict) and setup.get("game") in GAME_NAMES
          and isinstance(setup.get("players"), list) and setup["players"]
          and all(isinstance(p, str) for p in setup["players"])
          and isinstance(setup.get("scores"), list) and isinstance(setup.get("ranks"), list)
          and len(setup["scores"]) == len(setup["players"]) == len(setup["ranks"])
          and all(v is None or (isinstance(v, int) and not isinstance(v, bool))
                  for v in setup["scores"] + setup["ranks"])
          and isinstance(setup.get("winners"), list)
          and all(w in setup["players"] for w in setup["winners"])
          and isinstance(setup.get("played"), (int, float)) and isinstance(setup.get("key"), str)
          and not rec.get("actions"))
    if not ok:
        raise CompanionError("an imported play's record is damaged (its game, players, "
                             "scores, ranks, winners, date or key)")


def derive(record: JSON) -> dict[str, Any]:
    """What the history tables need from an imported play (the file's values; no replay)."""
    validate_record(record)
    s = record["setup"]
    players = list(s["players"])
    return {"format": s["game"], "players": players, "races": {}, "finished": True,
            "waiting": None, "year_vp": [], "cards": [], "objectives": [],
            "explanation": f"imported from {SOURCES.get(s.get('source'), 'another logger')}",
            "roles": {}, "winners": list(s["winners"]), "decided_by": None,
            "played": float(s["played"]),
            "results": {p: {"rank": r, "total": v, "breakdown": {}}
                        for p, v, r in zip(players, s["scores"], s["ranks"])}}


__all__ = ["IMPORTED_FORMAT", "SOURCES", "validate_record", "derive"]
