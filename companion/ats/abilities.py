"""Evaluate abilities written in the catalogue's vocabulary (docs/abilities.md).

Pure functions: a station and a little context in, VP out, through each kind's
entry in the ability-kind table (companion/ats/abilitykinds.py).  ``manual`` and
``choice`` abilities need an answer from the players; the game engine handles
them.  Each function takes an :class:`~companion.ats.vocabulary.Ability` (what a
card holds) or a mapping written in the vocabulary (parsed on the way in).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .abilitykinds import ability_kind
# the counters and conditions (counters.py); their names stay importable from here
from .counters import (REACTOR_COST, X_COST, YEARS, by_table, cond_text,  # noqa: F401
                       condition, known, placed_cost)
from .counters import Context as Context, count as count, reactor_matching as reactor_matching
from .vocabulary import Ability


def value(ab: Ability | Mapping[str, Any], ctx: Context) -> int:
    """VP an ability gives now, caps applied (no explanation: the fast path)."""
    ab = Ability.of(ab)
    kind = ability_kind(ab)
    if kind.value is None:
        raise ValueError("manual and choice abilities are resolved by the game")
    vp = kind.value(ab, ctx)
    cap = ab.cap
    return cap if cap is not None and vp > cap else vp


def evaluate(ab: Ability | Mapping[str, Any], ctx: Context) -> tuple[int, str]:
    """VP an ability gives now, and a short explanation.  Caps applied."""
    ab = Ability.of(ab)
    kind = ability_kind(ab)
    if kind.evaluate is None:
        raise ValueError("manual and choice abilities are resolved by the game")
    vp, why = kind.evaluate(ab, ctx)
    cap = ab.cap
    if cap is not None and vp > cap:
        why += f", capped at {cap}"
        vp = cap
    return vp, why


def reads_other_stations(ab: Ability | Mapping[str, Any]) -> bool:
    """Counts the other players' stations (resolves after everyone has acted)."""
    return Ability.of(ab).reads_other_stations


def describe(ab: Ability | Mapping[str, Any]) -> str:
    """One line a player can read."""
    ab = Ability.of(ab)
    when = {"immediate": "now", "end": "at game end", None: "(timing?)"}[ab.when]
    s = ability_kind(ab).describe(ab)
    if ab.has_cap:
        s += f" (max {'?' if ab.cap is None else ab.cap})"
    return f"{s}, {when}"
