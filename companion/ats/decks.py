"""Setup helper: deck composition for a player count, mode and sets, and a seeded setup draw.

Pure module, no widgets.  Two entry points:

* :func:`deck_composition` -> :class:`Composition`: how many basic cards (and
  which copies, by the "3"/"4" marker), specials, conflicts, Power Reactors,
  objectives, and the turns per year, each line with the rule it comes from.
  ``.table()`` is a pandas DataFrame (what, count, how, source); ``.text()``
  the same as plain text.  It lives in :mod:`companion.ats.composition` (counts
  only, no card names); every name of that module stays importable from here.
* :func:`draw_setup` -> a dict ready to merge into a record's ``setup``:
  races, objectives (no secret objective for a race that holds one, Qualeen: its
  player draws the physical card; :func:`secret_note`),
  the basic locations chosen for 5-6 players and for the Revival 2-player
  rules, the Revival first active player, and the game's ``seed`` so the draw
  can be repeated (records written before issue 20 kept it in ``options.seed``).

Honesty: every count comes from a rulebook statement, from the component
lists, or from deck arithmetic that the table names as such.  Card names come
only from the catalogue; where the catalogue knows fewer cards than the box
holds, the draw says how many the players take from their box instead of
inventing a name.

Sources: **B** = the base rulebook (B 2 Contents, B 3 Setup, B 7 Aggressive
Mode, B 8 2-Player Rules, B 9 Variants), **R** = the Revival rulebook (R 1
Components, R 2.1 Setup, R 6 5-6 Player Rules).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterable

from ..core import chance
from ..core.errors import CompanionError
from .catalogue import Card, Catalogue, parse_card
# the deck composition (counts, B 2 / R 1 / B 3 ...) lives in composition.py; every
# name of it stays importable from here
from .composition import (YEARS as YEARS, TURNS as TURNS, MODES as MODES,
                          TWO_PLAYER as TWO_PLAYER, BASE_BASIC_CARDS as BASE_BASIC_CARDS,
                          BASE_SPECIAL_CARDS as BASE_SPECIAL_CARDS,
                          BASE_POWER_REACTORS as BASE_POWER_REACTORS,
                          BASE_MAIN_REACTORS as BASE_MAIN_REACTORS,
                          BASE_CONFLICTS as BASE_CONFLICTS,
                          BASE_OBJECTIVES as BASE_OBJECTIVES,
                          BASE_RACE_TILES as BASE_RACE_TILES,
                          REVIVAL_BASIC_CARDS as REVIVAL_BASIC_CARDS,
                          REVIVAL_SPECIAL_CARDS as REVIVAL_SPECIAL_CARDS,
                          REVIVAL_POWER_REACTORS as REVIVAL_POWER_REACTORS,
                          REVIVAL_MAIN_REACTORS as REVIVAL_MAIN_REACTORS, COPIES as COPIES,
                          SPECIAL_COPIES as SPECIAL_COPIES,
                          BASE_BASIC_LOCATIONS as BASE_BASIC_LOCATIONS,
                          REVIVAL_BASIC_LOCATIONS as REVIVAL_BASIC_LOCATIONS,
                          REVIVAL_MARKED_3 as REVIVAL_MARKED_3,
                          BASE_MARKED_3 as BASE_MARKED_3,
                          BASE_MARKED_3_PER_LOCATION as BASE_MARKED_3_PER_LOCATION,
                          SPECIALS_PER_PLAYER as SPECIALS_PER_PLAYER,
                          SPECIALS_PER_PLAYER_5_6 as SPECIALS_PER_PLAYER_5_6,
                          BASIC_LOCATIONS_5_6 as BASIC_LOCATIONS_5_6,
                          CONFLICTS_5_6 as CONFLICTS_5_6,
                          REVIVAL_2P_LOCATIONS as REVIVAL_2P_LOCATIONS,
                          REVIVAL_2P_SPECIALS as REVIVAL_2P_SPECIALS,
                          REVIVAL_2P_PILES as REVIVAL_2P_PILES,
                          REVIVAL_2P_PILE_SIZE as REVIVAL_2P_PILE_SIZE,
                          ALL_IN_SET_ASIDE as ALL_IN_SET_ASIDE, SRC_B2 as SRC_B2,
                          SRC_B3 as SRC_B3, SRC_B4 as SRC_B4, SRC_B7 as SRC_B7,
                          SRC_B8 as SRC_B8, SRC_B9 as SRC_B9, SRC_R1 as SRC_R1,
                          SRC_R21 as SRC_R21, SRC_R22 as SRC_R22, SRC_R6 as SRC_R6,
                          Row as Row, Composition as Composition,
                          deck_composition as deck_composition)


# ---------------------------------------------------------------------------
# Seeded setup draw
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FromBox:
    """A card the catalogue cannot name: the players take it from their box."""
    set: str
    index: int


def _pool(known: Iterable[str], size: int, set_name: str) -> list[str | FromBox]:
    """Known names (sorted) plus unnamed box slots up to the box's ``size``."""
    names = sorted(known)
    return names + [FromBox(set_name, i) for i in range(max(0, size - len(names)))]


def _basic_names(catalogue: Catalogue, set_name: str) -> list[str]:
    return [c.name for c in catalogue
            if c.category == "location" and c.extra.get("set") == set_name and c.extra.get("kind") == "basic"]


def _leave_out(names: list[str]) -> str:
    """How to draw the cards the catalogue cannot name from the physical box."""
    if not names:
        return ""
    return " (leave out the ones the catalogue names: " + ", ".join(names) + ")"


def draw_setup(players: list[str], *, seed: int, races: bool = True, objectives: bool = True,
               catalogue: Catalogue | None = None, mode: str = "standard", two_player: str | None = None,
               all_in: bool = False, prefer_known: bool = False) -> dict[str, Any]:
    """A seeded setup draw, as a dict to merge into a record's ``setup``; it carries
    ``seed``, which becomes the game's seed (every later draw of the game comes from
    it too, docs/record-format.md).  ``seed``: 0 <= seed < 2**53
    (:func:`companion.core.chance.new_seed` gives a fresh one).

    ``random.Random(seed)`` draws (as before issue 20, so a record whose
    ``options.seed`` came from this draw still redraws the same), in this order: races (one each, distinct),
    the objective cards (as many as players, 2 in a 2-player game), the basic locations for
    5-6 players or the Revival 2-player rules, and the Revival first active
    player.  The same seed, options and catalogue give the same draw.

    Draws are uniform over the physical box: the names the catalogue knows
    plus one slot for each card it cannot name.  A slot drawn is a card the
    players take at random from the box's cards the catalogue does not name
    (``options.*_from_box`` and ``options.setup_notes`` say how many).
    ``prefer_known`` (basic locations only): take every known name before
    any box slot, instead of a uniform draw.
    """
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) and p.strip() for p in players):
        raise ValueError("players must be a list of names")
    players = [p.strip() for p in players]
    if len({p.lower() for p in players}) != len(players):
        raise ValueError("two players have the same name")
    seed = chance.check_seed(seed)
    comp = deck_composition(len(players), mode=mode, two_player=two_player, all_in=all_in)
    cat = catalogue if catalogue is not None else Catalogue.default()
    rng = random.Random(seed)
    notes: list[str] = []
    options: dict[str, Any] = {**comp.options()}
    setup: dict[str, Any] = {"players": list(players), "mode": mode, "races": {}, "objectives": [],
                             "options": options, "seed": seed}

    # -- races (B 3: one tile each; the virtual seats take none, B 8)
    race_of: dict[str, Any] = {}
    if races:
        known = cat.names("race")
        pool = _pool(known, BASE_RACE_TILES, "base")
        race_of = dict(zip(players, rng.sample(pool, len(players))))
        setup["races"] = {p: r for p, r in race_of.items() if isinstance(r, str)}
        boxed = [p for p, r in race_of.items() if not isinstance(r, str)]
        if boxed:
            options["races_from_box"] = boxed
            notes.append(f"Races: the catalogue names {len(known)} of the {len(pool)} race tiles; "
                         f"{', '.join(boxed)} take a tile at random from the others{_leave_out(known)}.")

    # -- objectives (B 3: as many as players; B 8: 2 in a 2-player game).  The
    #    whole pile is shuffled even without objectives (as before: the same seed
    #    still draws the same basic locations and first player).
    known_obj = cat.names("objective")
    order = rng.sample(_pool(known_obj, BASE_OBJECTIVES, "base"), max(len(known_obj), BASE_OBJECTIVES))
    if objectives:
        n = min(comp.objectives, len(order))
        drawn = order[:n]
        setup["objectives"] = [o for o in drawn if isinstance(o, str)]
        k = n - len(setup["objectives"])
        if k:
            options["objectives_from_box"] = k
            notes.append(f"Objectives: {comp.objectives} are drawn; the catalogue names {len(known_obj)} "
                         f"of the {len(order)} objective cards, so draw {k} at random from the others"
                         f"{_leave_out(known_obj)}, face up, and type their names under 'Drawn from the "
                         "box' (what they measure can wait for the end).")
        if n < comp.objectives:
            notes.append(f"Objectives: only {n} objective cards exist, not {comp.objectives}.")

    # -- a race that holds a secret objective (Qualeen, B FAQ): its player draws the
    #    physical card and keeps it; nothing is drawn here (its page asks which one)
    for p, r in race_of.items():
        card = cat.get(r) if isinstance(r, str) else None
        if card and card.extra.get("secret_objective"):
            notes.append(secret_note(p, r))

    # -- basic locations: 5-6 players (R 6) and the Revival 2-player rules (R 2.1)
    if comp.two_player == "revival" or (comp.players >= 5 and not comp.all_in):
        known_by_set = {s: sorted(_basic_names(cat, s)) for s in comp.sets}
        size = {"base": BASE_BASIC_LOCATIONS, "revival": REVIVAL_BASIC_LOCATIONS}
        pool = [x for s in comp.sets for x in _pool(known_by_set[s], size[s], s)]
        n = comp.basic_locations
        if prefer_known:
            named: list[Any] = [x for x in pool if isinstance(x, str)]
            slots: list[Any] = [x for x in pool if isinstance(x, FromBox)]
            chosen: list[Any] = rng.sample(named, min(n, len(named)))
            chosen += rng.sample(slots, n - len(chosen))
        else:
            chosen = rng.sample(pool, n)
        options["basic_locations"] = sorted(x for x in chosen if isinstance(x, str))
        from_box: dict[str, int] = {}
        for x in chosen:
            if isinstance(x, FromBox):
                from_box[x.set] = from_box.get(x.set, 0) + 1
        if from_box:
            options["basic_locations_from_box"] = from_box
            for s, k in from_box.items():
                known = known_by_set[s]
                notes.append(f"Basic locations: take {k} at random from the {s} basic locations the "
                             f"catalogue does not name ({size[s] - len(known)} of {size[s]})"
                             f"{_leave_out(known)}.")
        copies = ("the 3 copies marked \"3\" of each" if comp.two_player == "revival"
                  else f"all {COPIES} copies of each")
        notes.append(f"Basic locations: {n} different ones, {copies}.")

    # -- the Revival first active player (R 2.1: chosen at random, then alternating)
    if comp.two_player == "revival":
        options["first_active"] = rng.choice(players)

    if notes:
        options["setup_notes"] = notes
    return setup


def without_modules(drawn: dict[str, Any], *, races: bool, objectives: bool) -> dict[str, Any]:
    """A :func:`draw_setup` result with the races (and a race's secret objective) or
    the objectives the table chose not to play after the draw taken out, with the
    options and setup notes about them: ``{"races", "objectives",
    "secret_objectives", "options"}``.  Nothing is drawn again (the seed's draw of
    everything else stays what was shown)."""
    options = dict(drawn.get("options") or {})
    if not races:
        options.pop("races_from_box", None)
        options.pop("secret_objective_from_box", None)
    if not objectives:
        options.pop("objectives_from_box", None)
    if "setup_notes" in options:
        # the notes draw_setup writes start "Races:", "Objectives:", or name a secret objective
        options["setup_notes"] = [
            n for n in options["setup_notes"]
            if (objectives or not n.startswith("Objectives"))
            and (races or not (n.startswith("Races") or "secret objective" in n))]
    return {"races": (drawn.get("races") or {}) if races else {},
            "objectives": (drawn.get("objectives") or []) if objectives else [],
            "secret_objectives": (drawn.get("secret_objectives") or {}) if races else {},
            "options": options}


def secret_note(player: str, race: str) -> str:
    """What the setup says of a race that holds a secret objective (B FAQ: Qualeen): its
    player draws the physical card and keeps it; the companion draws nothing for it."""
    return (f"{player} ({race}) draws a secret objective card from the box and keeps it; "
            f"{player}'s page asks which one.")


def secret_notes(races: dict[str, str], catalogue: Catalogue | None = None) -> list[str]:
    """:func:`secret_note` for every player whose race holds a secret objective."""
    cat = catalogue if catalogue is not None else Catalogue.default()
    out = []
    for p, r in races.items():
        card = cat.get(r)
        if card is not None and card.extra.get("secret_objective"):
            out.append(secret_note(p, r))
    return out


def objectives_wanted(players: int) -> int:
    """How many objective cards a game uses (B 3): one per player, 2 in a 2-player game."""
    return 2 if players == 2 else players


def named_objective(name: str) -> Card:
    """An objective card drawn from the box and known by its name only (issue 50: typed
    at the setup, or on the Qualeen's page for a secret objective): what it measures and
    its bonus VP stay unknown (null, never invented) until the players type them from
    the card; until then the final table asks who claimed it (``scoring``: an objective
    with neither ``most`` nor ``least`` is claimed at the table)."""
    clean = " ".join(str(name).split())
    if not clean:
        raise CompanionError("Type the objective card's name, as printed.")
    return parse_card({"name": clean, "category": "objective", "vp": None,
                       "source": "typed by the players (name only)"}, file="your entry")


def complete_choices(players: list[str], *, races: dict[str, str | None] | None = None,
                     objectives: list[str] | None = None, use_races: bool = False,
                     use_objectives: bool = False, catalogue: Catalogue | None = None,
                     seed: int | None = None, rng: random.Random | None = None,
                     from_box: list[str] | None = None) -> dict[str, Any]:
    """Races and objectives as chosen at the table, the rest drawn at random.

    ``races``: the race each player chose (``None``: draw one).  A drawn race is one
    nobody chose (any race once every race is taken).  ``objectives``: the objective
    cards picked (empty: draw :func:`objectives_wanted` of them).  A race that holds a
    secret objective (Qualeen) gets none here: its player draws the physical card and
    keeps it secret, and that player's page asks which one (``secret_objectives`` stays
    empty; :func:`secret_note` says so).  Returns
    ``{"races": {...}, "objectives": [...], "secret_objectives": {...}}`` for the
    record's ``setup``.  The draw comes from the new game's ``seed``
    (``chance.rng(seed, "setup-choices")``; a fresh seed when none is given; ``rng``
    instead, for tests).  ``from_box``: the names of objective cards the table drew from
    the box (issue 50: the catalogue may not name them yet); they are in play with the
    ones picked, and with no pick the catalogue's draw only completes them.  (For the
    setup helper's draw, see :func:`draw_setup`.)"""
    cat = catalogue if catalogue is not None else Catalogue.default()
    if rng is None:
        rng = chance.rng(chance.new_seed() if seed is None else chance.check_seed(seed),
                         "setup-choices")
    races = races or {}
    got_races: dict[str, str] = {}
    if use_races:
        pool = cat.names("race")
        chosen = {r for r in races.values() if r}
        free = [r for r in pool if r not in chosen]
        rng.shuffle(free)
        for p in players:
            r = races.get(p)
            got_races[p] = r if r else (free.pop() if free else rng.choice(pool))
    got_objectives: list[str] = []
    secret: dict[str, str] = {}       # never drawn here (Qualeen: the player draws it)
    if use_objectives:
        pool = cat.names("objective")
        want = objectives_wanted(len(players))
        boxed = [" ".join(o.split()) for o in (from_box or []) if o.strip()]
        got_objectives = list(objectives or []) + boxed
        if not objectives:
            taken = {o.lower() for o in boxed}
            free = [o for o in pool if o.lower() not in taken]
            got_objectives += rng.sample(free, max(0, min(want - len(boxed), len(free))))
    return {"races": got_races, "objectives": got_objectives, "secret_objectives": secret}
