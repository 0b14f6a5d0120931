"""Chance: the one seed of a game and every random draw made from it (issue 20).

Every random draw of either game comes from the record's seed and the draw's place
in the game, never from a page's own generator, so every page, a reload and a replay
draw the same.  See docs/record-format.md ("The seed").

* :func:`new_seed`: a fresh seed for a new record, 0 <= seed < 2**53 (exact in every
  JSON reader, JavaScript's included), from the operating system's randomness.
* :func:`new_game`: a new game's setup with its seed (the one every screen that
  creates a record calls).
* :func:`seed_of`: the seed of a record or of its setup: ``setup.seed``; else
  ``setup.options.seed`` (Among the Stars records written before ``setup.seed``:
  the seed of their setup draw); else one derived from the setup's content
  (:func:`derived_seed`), the same in every process on every device.
* :func:`draw_seed`: the seed every draw of a game comes from, of a game's setup
  object (both games' ``Setup.draw_seed``): :func:`seed_of` of what the setup writes,
  kept on the setup once worked out.
* :func:`setup_seed`: a record's ``setup.seed``, checked (both games' setup readers).
* :func:`rng`: ``random.Random("<seed>:<purpose>:<year>:<turn>")``, the generator of
  one draw.  A text seed is hashed with SHA-512 by :mod:`random` (not with the
  per-process salted ``hash()``), so it draws the same everywhere.
"""
from __future__ import annotations

import copy
import hashlib
import json
import random
import secrets
from typing import Any, Protocol

from .errors import RecordError
from .jsontypes import JSON

#: seeds are whole numbers 0 <= seed < SEED_LIMIT (2**53: exact in every JSON reader)
SEED_BITS = 53
SEED_LIMIT = 2 ** SEED_BITS


def new_seed() -> int:
    """A fresh seed, 0 <= seed < 2**53, from the operating system's randomness."""
    return secrets.randbits(SEED_BITS)


def seed_problem(value: Any) -> str | None:
    """Why ``value`` is not a seed (a whole number 0 <= seed < 2**53; true/false
    refused), or None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be a whole number from 0 to {SEED_LIMIT - 1}, not {_short(value)}"
    if not 0 <= value < SEED_LIMIT:
        return f"is {value}; a seed is from 0 to {SEED_LIMIT - 1}"
    return None


def check_seed(value: Any) -> int:
    """``value`` if it is a seed; ValueError saying why not."""
    why = seed_problem(value)
    if why:
        raise ValueError(f"seed {why}")
    return int(value)


def canonical_json(value: Any) -> str:
    """One text for one JSON value: keys sorted, no spaces, UTF-8 text kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=repr)


def derived_seed(setup: Any) -> int:
    """The seed of a setup that carries none: the first 53 bits of the SHA-256 of its
    canonical JSON (:func:`canonical_json`; a ``seed`` key left out).  The same on every
    device and in every process."""
    if isinstance(setup, dict):
        setup = {k: v for k, v in setup.items() if k != "seed"}
    digest = hashlib.sha256(canonical_json(setup).encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def seed_of(record_or_setup: Any) -> int:
    """The seed of a record (an object with a ``setup``) or of a setup: ``setup.seed``,
    else ``setup.options.seed`` (the setup draw's seed of older Among the Stars
    records), else :func:`derived_seed` of the setup."""
    setup = record_or_setup
    if isinstance(setup, dict) and isinstance(setup.get("setup"), dict):     # a record
        setup = setup["setup"]
    if isinstance(setup, dict):
        own = setup.get("seed")
        if isinstance(own, int) and not isinstance(own, bool):
            return own
        options = setup.get("options")
        old = options.get("seed") if isinstance(options, dict) else None
        if isinstance(old, int) and not isinstance(old, bool):
            return old
    return derived_seed(setup)


class SeededSetup(Protocol):
    """What :func:`draw_seed` reads of a game's setup (both games' dataclass): its
    record form, and where the seed once worked out is kept (a field of the setup,
    left out of its repr and comparisons)."""
    _draw_seed: int | None

    def to_dict(self) -> dict[str, Any]: ...


def draw_seed(setup: SeededSetup) -> int:
    """The seed every draw of ``setup``'s game comes from (docs/record-format.md, "The
    seed"): :func:`seed_of` of the setup as the companion writes it (its ``to_dict``,
    so a record and its ``to_record()`` agree), worked out once and kept on the setup."""
    if setup._draw_seed is None:
        setup._draw_seed = seed_of(setup.to_dict())
    return setup._draw_seed


def setup_seed(setup: dict[str, Any]) -> int | None:
    """A record's ``setup.seed`` (``setup``: the record's setup object), None when it
    has none; RecordError when it is not a seed (:func:`seed_problem`)."""
    seed = setup.get("seed")
    if "seed" in setup and seed_problem(seed):
        raise RecordError(f"setup.seed {seed_problem(seed)}")
    return None if seed is None else int(seed)


def new_game(setup: JSON, seed: int | None = None) -> JSON:
    """A new game's setup: a copy of ``setup`` with ``seed`` (checked), or a fresh
    seed (:func:`new_seed`) when none is given.  A seed already in ``setup`` (say, the
    previous game's of a campaign) is replaced: every new game draws anew."""
    out = copy.deepcopy(setup)
    out["seed"] = new_seed() if seed is None else check_seed(seed)
    return out


def rng(seed: int, purpose: str, *place: Any) -> random.Random:
    """The generator of one draw: ``random.Random("<seed>:<purpose>:<place>...")``, e.g.
    ``rng(seed, "turn-order", year, turn)``.  The same arguments give the same draws in
    every process (a text seed is hashed with SHA-512, not with the salted ``hash()``)."""
    return random.Random(":".join([str(int(seed)), purpose, *map(str, place)]))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
