"""A card definition: one entry of the catalogue (location cards, races, objectives,
Conflict cards), its checks, and how two definitions of one card merge.

One schema for every entry.  A number that is not known is ``null``; the engine
refuses to *use* an unknown number and tells the player which values to type from
the physical card.  Where the entries come from (the shipped YAML, the player's own
catalogue, a record's ``cards``) is :mod:`companion.ats.catalogue`, which re-exports
every public name of this module.  See ``docs/catalogue.md`` and ``docs/abilities.md``.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..core import safeio
from ..core.errors import CatalogueError, UnknownCardValues
from .abilitykinds import ability_unknowns, ability_kind, validate_ability
from .vocabulary import COUNTERS, TYPES, VALUE_LIMIT, Ability, in_range, types_ok

CATEGORIES = ("location", "race", "objective", "conflict", "advisor")
#: an advisor card's two sides (R 4: "one side is for use in 2-player games, while the
#: other one is for games with 3 or more players"); each a bonus text typed from the card
#: (``sides``), never shipped: companion.ats.advisors
ADVISOR_SIDES = ("2 players", "3+ players")
#: characters of one side's bonus text
MAX_BONUS_TEXT = 300

#: entries in one catalogue file (or a record's ``cards``), and in your own catalogue
MAX_CARDS = 2000
#: characters of a card's name (and of ``set``, ``kind``, ``source``); of its ``notes``
MAX_NAME = safeio.MAX_NAME
MAX_NOTES = safeio.MAX_NOTE
#: abilities of one card (the books' cards have at most 3)
MAX_ABILITIES = 16
#: characters of one card written as JSON: a card stays small, so a catalogue that
#: passed import never makes every later command slow (found by bench/fuzz.py:
#: 3,000 abilities in one card took 5-8 s to read back for every command)
MAX_CARD_CHARS = 20_000


def _shown(v: Any) -> str:
    """A value as it may appear in a message: short, one line."""
    return safeio.terminal_line(repr(v), 40)


# ---------------------------------------------------------------------------
# Entries
# ---------------------------------------------------------------------------
CARD_KEYS = {"name", "category", "types", "cost", "energy", "vp", "max", "abilities",
             "set", "kind", "copies", "source", "notes", "secret_objective",
             "most", "least", "shared", "end_only", "sides"}
#: ``end_only: true``: the card's ``abilities`` are its end-of-game (yellow box) abilities
#: only, typed for a final scoring (issue 50: a game scored as it lies reads nothing else);
#: its white-box abilities are not known yet and a build asks for them
END_ONLY = "end_only"
NUMBER_KEYS = ("cost", "energy", "vp")
#: a cost printed "X" (Revival FAQ: "X is always considered to be 1"): stored and shown
#: as printed, used as X_VALUE by the engine
X = "X"
X_VALUE = 1


@dataclass(frozen=True)
class Card:
    """One catalogue entry.  ``None`` means *not known yet*."""

    name: str
    category: str = "location"
    types: tuple[str, ...] | None = None
    cost: int | str | None = None        # credits, "X" (counts 1) or None (unknown)
    energy: int | None = None
    vp: int | None = None
    max: int | str | None = None          # N, "none" (no limit) or None (unknown)
    #: parsed once, when the card is made (abilities written as mappings are parsed)
    abilities: tuple[Ability, ...] | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    #: an objective's measure (its ``most`` or ``least``: a counter), parsed once
    measure: Ability | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.abilities is not None and not (
                isinstance(self.abilities, tuple)
                and all(isinstance(a, Ability) for a in self.abilities)):
            object.__setattr__(self, "abilities",
                               tuple(Ability.of(a) for a in self.abilities))
        spec = self.extra.get("most") or self.extra.get("least")
        if isinstance(spec, Mapping):
            object.__setattr__(self, "measure", Ability.from_dict(spec))

    # -- what is missing -------------------------------------------------
    def unknown_for_build(self) -> list[str]:
        """Values needed to build this card that are still null."""
        out = [k for k in NUMBER_KEYS if getattr(self, k) is None]
        if self.abilities is None or self.end_only:
            out.append("abilities")
        else:
            for i, ab in enumerate(self.abilities):
                out += [f"ability {i + 1} {u}" for u in ability_unknowns(ab)]
        return out

    @property
    def end_only(self) -> bool:
        """Whether only the card's end-of-game abilities are known (:data:`END_ONLY`)."""
        return self.extra.get(END_ONLY) is True and self.abilities is not None

    def end_abilities_known(self) -> bool:
        """Whether the final scoring knows which end-of-game abilities the card has (its
        values may still hold unknowns: :func:`ability_unknowns`)."""
        return self.abilities is not None

    def known(self, key: str) -> int:
        """The printed number ``key`` (cost, energy, vp) the engine is about to use;
        UnknownCardValues if nobody has typed it yet."""
        v = getattr(self, key)
        if v is None:
            raise UnknownCardValues(self.name, [key])
        if v == X:
            return X_VALUE          # Revival FAQ: "X is always considered to be 1"
        return int(v)

    @property
    def copies(self) -> int | None:
        """How many copies of the card the box holds, as typed by the players (or
        stated by the books); None = not typed (no limit is checked)."""
        v = self.extra.get("copies")
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    def unknown_all(self) -> list[str]:
        if self.category == "advisor":
            return []       # its bonus texts are asked where it is settled, never required
        out = self.unknown_for_build()
        if self.types is None:
            out.append("types")
        if self.max is None:
            out.append("max")
        return out

    @property
    def limit(self) -> int | None:
        """Build limit per station, or None for no limit.  Raises if unknown."""
        if self.max == "none":
            return None
        # max is N or None (unknown) here: the only text it may hold is "none" (validated)
        return self.max  # type: ignore[return-value]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name}
        if self.category != "location":
            d["category"] = self.category
        if self.category == "advisor":      # a name and two sides, nothing printed
            d.update(copy.deepcopy(self.extra))
            return d
        d["types"] = list(self.types) if self.types is not None else None
        for k in NUMBER_KEYS:
            d[k] = getattr(self, k)
        d["max"] = self.max
        d["abilities"] = ([a.to_dict() for a in self.abilities]
                          if self.abilities is not None else None)
        d.update(copy.deepcopy(self.extra))
        return d


def parse_card(raw: Any, *, file: str | None = None, index: int = 0) -> Card:
    if not isinstance(raw, dict):
        raise CatalogueError(f"entry {index} must be a mapping", file=file)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CatalogueError(f"entry {index} needs a non-empty 'name'", file=file, key="name")
    why = safeio.name_problem(name.strip(), MAX_NAME)
    if why:
        raise CatalogueError(f"entry {index}: the name {why}", file=file, key="name")
    name = name.strip()
    for k in raw:
        if k not in CARD_KEYS:
            k = safeio.terminal_line(k, 60)
            raise CatalogueError(f"unknown key '{k}'", file=file, card=name, key=k)
    try:
        size = len(json.dumps(raw, default=str))
    except (TypeError, ValueError, RecursionError):
        size = MAX_CARD_CHARS + 1
    if size > MAX_CARD_CHARS:
        raise CatalogueError(f"the card is too large ({size} characters as JSON; at most "
                             f"{MAX_CARD_CHARS})", file=file, card=name)
    category = raw.get("category", "location")
    if category not in CATEGORIES:
        raise CatalogueError(f"must be one of {', '.join(CATEGORIES)}", file=file, card=name,
                             key="category")
    types = raw.get("types")
    if types is not None:
        if not types_ok(types) or len(types) > 2 or len(set(types)) != len(types):
            raise CatalogueError(f"must be a list of 0-2 distinct types from {', '.join(TYPES)}",
                                 file=file, card=name, key="types")
        types = tuple(types)
    nums: dict[str, Any] = {}
    for k in NUMBER_KEYS:
        v = raw.get(k)
        if k == "cost" and isinstance(v, str) and v.strip().upper() == X:
            nums[k] = X             # printed "X" (Revival FAQ: counts 1)
            continue
        if v is not None and not in_range(v, 0):
            raise CatalogueError(f"must be a whole number from 0 to {VALUE_LIMIT}, or null if "
                                 f"not known{', or X' if k == 'cost' else ''} (the card says "
                                 f"{_shown(v)})", file=file, card=name, key=k)
        nums[k] = v
    mx = raw.get("max")
    if mx is not None and mx != "none" and not in_range(mx, 1):
        raise CatalogueError(f"must be a whole number from 1 to {VALUE_LIMIT}, 'none' (no limit), "
                             "or null if not known", file=file, card=name, key="max")
    abilities = raw.get("abilities")
    if abilities is not None:
        if not isinstance(abilities, list):
            raise CatalogueError("must be a list (empty for no ability) or null if not known",
                                 file=file, card=name, key="abilities")
        if len(abilities) > MAX_ABILITIES:
            raise CatalogueError(f"{len(abilities)} abilities; a card has at most "
                                 f"{MAX_ABILITIES}", file=file, card=name, key="abilities")
        abilities = tuple(Ability.from_dict(validate_ability(a, file=file, card=name, i=i))
                          for i, a in enumerate(abilities))
    _validate_extra(raw, file=file, name=name)
    _validate_sides(raw, category, nums, file=file, name=name)
    extra = {k: copy.deepcopy(v) for k, v in raw.items()
             if k in ("set", "kind", "copies", "source", "notes", "secret_objective",
                      "most", "least", "shared", END_ONLY, "sides")}
    if END_ONLY in extra and abilities is not None and any(
            a.when != "end" for a in abilities):
        raise CatalogueError("end_only: the abilities are the end-of-game ones only (every "
                             "one 'when: end')", file=file, card=name, key=END_ONLY)
    if category == "objective" or "most" in raw or "least" in raw:
        _validate_objective(raw, file=file, name=name)
    return Card(name=name, category=category, types=types, max=mx, abilities=abilities,
                extra=extra, **nums)


def _validate_extra(raw: dict[str, Any], *, file: str | None, name: str) -> None:
    """The informational keys: short texts, notes of a few KB, copies 0..99."""
    for k in ("set", "kind", "source"):
        v = raw.get(k)
        if v is not None and (not isinstance(v, str) or safeio.name_problem(v, MAX_NAME)):
            raise CatalogueError(f"must be a text of at most {MAX_NAME} characters on one line",
                                 file=file, card=name, key=k)
    notes = raw.get("notes")
    if notes is not None and not (isinstance(notes, str) and len(notes) <= MAX_NOTES):
        raise CatalogueError(f"must be a text of at most {MAX_NOTES} characters", file=file,
                             card=name, key="notes")
    copies = raw.get("copies")
    if copies is not None and not in_range(copies, 0):
        raise CatalogueError(f"must be a whole number from 0 to {VALUE_LIMIT} (got "
                             f"{_shown(copies)})", file=file, card=name, key="copies")
    for k in ("secret_objective", "shared", END_ONLY):
        if k in raw and not isinstance(raw[k], bool):
            raise CatalogueError("must be true or false", file=file, card=name, key=k)


def _validate_sides(raw: dict[str, Any], category: str, nums: dict[str, Any], *,
                    file: str | None, name: str) -> None:
    """An advisor card: a name and ``sides`` ({"2 players": text, "3+ players": text},
    each null until typed); nothing printed.  ``sides`` belongs to advisors only."""
    if category != "advisor":
        if "sides" in raw:
            raise CatalogueError("only an advisor card (category: advisor) has sides",
                                 file=file, card=name, key="sides")
        return
    for k in ("types", "max", "abilities", *NUMBER_KEYS):
        if raw.get(k) is not None or nums.get(k) is not None:
            raise CatalogueError("an advisor card has a name and two sides (its bonus texts), "
                                 "no printed value", file=file, card=name, key=k)
    sides = raw.get("sides")
    if sides is None:
        return
    if not isinstance(sides, dict) or not set(sides) <= set(ADVISOR_SIDES):
        raise CatalogueError(f"must be a mapping of {' and '.join(repr(x) for x in ADVISOR_SIDES)} "
                             "to the bonus text of that side (null = not typed)", file=file,
                             card=name, key="sides")
    for k, v in sides.items():
        if v is not None and (not str(v).strip() or safeio.name_problem(v, MAX_BONUS_TEXT)):
            raise CatalogueError(f"must be a text of 1 to {MAX_BONUS_TEXT} characters on one "
                                 "line, or null if not typed", file=file, card=name,
                                 key=f"sides.{k}")


def _validate_objective(raw: dict[str, Any], *, file: str | None, name: str) -> None:
    for k in ("most", "least"):
        if k in raw:
            m = raw[k]
            if (not isinstance(m, dict) or not isinstance(m.get("per"), str)
                    or m["per"] not in COUNTERS):
                raise CatalogueError(f"must be a mapping with 'per': one of {', '.join(COUNTERS)}",
                                     file=file, card=name, key=k)
            bad = set(m) - {"per"} - set(COUNTERS[m["per"]])
            if bad:
                raise CatalogueError(f"unknown key '{sorted(bad)[0]}'", file=file, card=name, key=k)
            if "types" in m and not types_ok(m["types"]):
                raise CatalogueError("types must be a list of location types", file=file,
                                     card=name, key=k)


#: what an objective may measure, in words (the counters an objective card can name)
OBJECTIVE_MEASURES = {
    "station_location": "locations in the station",
    "credit": "credits",
    "reactor": "reactors",
    "empty_reactor": "reactors with no energy cubes",
    "energy_cube": "energy cubes left",
    "distinct_type": "different location types",
    "spaceship": "spaceships",
}
#: an objective the players claim at the table (its condition is not a counter)
MANUAL_OBJECTIVE = "manual"


def make_objective(name: str, *, measure: str, most: bool = True, vp: int | None = None,
                   types: Iterable[str] | None = None, copies: int | None = None,
                   notes: str | None = None, shared: bool = False) -> Card:
    """An objective card as the players type it once from the physical card: its
    name, what it measures (a key of :data:`OBJECTIVE_MEASURES`, or
    :data:`MANUAL_OBJECTIVE` for a condition the players judge at the table),
    most or least, and the bonus VP.  Validated like any catalogue entry
    (CatalogueError naming the key); ``source`` says the players typed it.
    ``shared``: the card says more than one player may claim it (B 6: "Each Objective
    can only be claimed by 1 player unless stated otherwise")."""
    raw: dict[str, Any] = {"name": name, "category": "objective", "vp": vp,
                           "source": "typed by the players"}
    if shared:
        raw["shared"] = True
    if measure == MANUAL_OBJECTIVE:
        raw["abilities"] = [{"when": "end", "manual": True}]
    else:
        if measure not in OBJECTIVE_MEASURES:
            raise CatalogueError(f"what the objective measures must be one of "
                                 f"{', '.join(OBJECTIVE_MEASURES)} or {MANUAL_OBJECTIVE}",
                                 file="your entry", card=str(name), key="measure")
        spec: dict[str, Any] = {"per": measure}
        kinds = [t for t in (types or ()) if t]
        if kinds:
            spec["types"] = list(dict.fromkeys(kinds))
        raw["most" if most else "least"] = spec
        raw["abilities"] = []
    if copies is not None:
        raw["copies"] = copies
    if notes:
        raw["notes"] = notes
    return parse_card(raw, file="your entry")


def objective_unknowns(card: Card) -> list[str]:
    """What is still unknown about an objective card: what it measures (an
    objective with neither ``most`` nor ``least`` that nobody typed as claimed at
    the table) and, for one that is measured, its bonus VP."""
    if "most" in card.extra or "least" in card.extra:
        return ["vp"] if card.vp is None else []
    if card.abilities and any(ability_kind(ab).typed for ab in card.abilities):
        return []                       # typed: claimed at the table, VP typed then
    return ["what it measures", "vp"] if card.vp is None else ["what it measures"]


def parse_entries(data: Any, *, file: str | None = None) -> list[Card]:
    if data is None:
        return []
    if not isinstance(data, list):
        raise CatalogueError("a catalogue must be a list of entries", file=file)
    if len(data) > MAX_CARDS:
        raise CatalogueError(f"{len(data)} entries; a catalogue holds at most {MAX_CARDS}",
                             file=file)
    cards = [parse_card(e, file=file, index=i) for i, e in enumerate(data)]
    seen: set[str] = set()
    for c in cards:
        if c.name.lower() in seen:
            raise CatalogueError("defined twice", file=file, card=c.name)
        seen.add(c.name.lower())
    return cards



def _merge_ability(base: Ability, over: Ability) -> Ability | None:
    """``over`` with its null values filled from ``base``; None if the two are
    not the same kind of ability (then they cannot be merged value by value)."""
    if base.kind != over.kind:
        return None
    if over.per != base.per:                 # only a 'per' ability has a counter
        return None
    written, out = base.to_dict(), over.to_dict()
    shape: Callable[[dict[str, Any]], set[str]] = lambda ab: set(ab) - {"note", "cap"}
    if shape(written) != shape(out):         # e.g. a VP table typed as "N per unit"
        return None
    for k, v in written.items():
        if out.get(k) is None and v is not None:
            out[k] = v
    return Ability.from_dict(out)


def _merge_abilities(base: tuple[Ability, ...] | None,
                     over: tuple[Ability, ...] | None) -> tuple[Ability, ...] | None:
    if over is None:
        return base
    if base is None:
        return over
    if len(base) == len(over):
        merged = [_merge_ability(b, o) for b, o in zip(base, over)]
        if all(m is not None for m in merged):
            return tuple(m for m in merged if m is not None)
    # different shapes: a fully known list wins over one with unknown values
    unknown: Callable[[tuple[Ability, ...]], bool] = lambda abs_: any(ability_unknowns(ab) for ab in abs_)
    if unknown(over) and not unknown(base):
        return base
    return over


def merge_card(base: Card, over: Card) -> Card:
    """``over`` laid on ``base`` value by value: every value ``over`` knows wins;
    every value it does not know (``null``) is taken from ``base``.  A null never
    hides a known value, so a record's embedded copy of a card (written while
    the card was unknown) does not hide the values a player typed since."""
    if base.category != over.category:
        return over
    pick: Callable[[str], Any] = lambda k: getattr(over, k) if getattr(over, k) is not None else getattr(base, k)
    extra = {**copy.deepcopy(base.extra), **copy.deepcopy(over.extra)}
    if isinstance(base.extra.get("sides"), dict) and isinstance(over.extra.get("sides"), dict):
        # an advisor's sides, value by value: a side typed on one page is kept when
        # another page types the other side
        b, o = base.extra["sides"], over.extra["sides"]
        extra["sides"] = {k: o.get(k) if o.get(k) is not None else b.get(k)
                          for k in ADVISOR_SIDES if k in b or k in o}
    abilities: tuple[Ability, ...] | None
    # end-of-game abilities only (END_ONLY) never hide a card's whole abilities, and a
    # whole list typed since ends the partial knowledge
    if over.end_only and base.abilities is not None and not base.end_only:
        abilities = base.abilities
        extra.pop(END_ONLY, None)
    elif base.end_only and over.abilities is not None and not over.end_only:
        abilities = over.abilities
        extra.pop(END_ONLY, None)
    else:
        abilities = _merge_abilities(base.abilities, over.abilities)
        if abilities is None:
            extra.pop(END_ONLY, None)
    return Card(name=over.name, category=over.category, types=pick("types"),
                cost=pick("cost"), energy=pick("energy"), vp=pick("vp"), max=pick("max"),
                abilities=abilities, extra=extra)

