"""The ability vocabulary (docs/abilities.md): its words, the check of an ability as
written in a catalogue (its kinds' table: companion/ats/abilitykinds.py), and
:class:`Ability`, the typed value every card holds.

An ability is written as a mapping (YAML in the catalogue, JSON in a record's
``cards``).  It is checked (:func:`~companion.ats.abilitykinds.validate_ability`) and parsed into an
:class:`Ability` once, when the card is loaded; the engine reads its attributes.
``Ability.to_dict()`` gives back the mapping exactly as it was written (the same
keys in the same order), so records and catalogue files read and write the same
bytes.  A value not known yet stays ``None``.
"""
from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import UnknownCardValues

TYPES = ("administrative", "business", "military", "recreational", "diplomatic")
WHEN = ("immediate", "end")

#: counter name -> extra keys it accepts
COUNTERS: dict[str, tuple[str, ...]] = {
    "adjacent_location": ("types",),
    "station_location": ("types", "include_self"),
    "location_within": ("types", "distance"),
    "reactor": (),
    "empty_reactor": (),
    "energy_cube": (),
    "credit": (),
    "remaining_year": (),
    "distinct_type": (),
    "spaceship": (),
    "other_station_location": ("types",),
    "adjacent_cost": (),          # Commercial Zone (R FAQ)
    "reactor_spaceship": (),      # Recharging Station (R FAQ)
}
CONDITIONS = ("farthest_from_main_reactor", "more", "adjacent_to")
ABILITY_COMMON = ("when", "cap", "note")
#: the kinds of ability; an ability has exactly one of these keys
#: (``remove_spaceships``: Travelling Exhibition, R FAQ).  What each kind does is
#: its entry in the ability-kind table (companion/ats/abilitykinds.py, ``KINDS``).
ABILITY_KINDS = ("per", "flat", "choice", "manual", "spaceships", "remove_spaceships")
SPACESHIP_TARGETS = ("self", "other", "any")
CHOICES = ("pay_or_lose",)

#: the range of a card's printed numbers (cost, energy, VP, MAX, copies), of an
#: ability's counts (cap, every, distance, pay, lose, spaceships, a table's counts)
#: and, with a sign, of an ability's VP (per unit, flat, a table's VP)
VALUE_LIMIT = 99


def is_int(v: Any) -> bool:
    """A whole number (not true/false)."""
    return isinstance(v, int) and not isinstance(v, bool)


def in_range(v: Any, lo: int, hi: int = VALUE_LIMIT) -> bool:
    """A whole number from ``lo`` to ``hi``."""
    return is_int(v) and lo <= v <= hi


def types_ok(v: Any) -> bool:
    """A list of location types."""
    return isinstance(v, list) and all(t in TYPES for t in v)


def _whole(v: Any) -> int | None:
    return v if is_int(v) else None


def _types(v: Any) -> tuple[str, ...] | None:
    return tuple(v) if isinstance(v, (list, tuple)) else None


@dataclass(frozen=True)
class Condition:
    """The ``if`` of a flat ability: exactly one test (``test``): ``farthest`` (no
    location is farther from the Main Reactor), ``more`` (more locations of the
    types ``more`` than of the types ``than``) or ``adjacent_to`` (next to one of
    the types ``adjacent_to``).  ``test`` is "" for a mapping with none of them."""
    test: str
    more: tuple[str, ...] = ()
    than: tuple[str, ...] = ()
    adjacent_to: tuple[str, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, raw: Any) -> Condition | None:
        """The condition written as ``raw``; None for none (absent, null or empty)."""
        if not raw or not isinstance(raw, Mapping):
            return None
        if "farthest_from_main_reactor" in raw:
            test = "farthest"
        elif "more" in raw:
            test = "more"
        elif "adjacent_to" in raw:
            test = "adjacent_to"
        else:
            test = ""
        return cls(test, _types(raw.get("more")) or (), _types(raw.get("than")) or (),
                   _types(raw.get("adjacent_to")) or (), copy.deepcopy(dict(raw)))

    def text(self) -> str:
        """The condition in words."""
        if self.test == "farthest":
            return "no location is farther from the Main Reactor"
        if self.test == "more":
            return f"more {'/'.join(self.more)} than {'/'.join(self.than)}"
        if self.test == "adjacent_to":
            return f"adjacent to {'/'.join(self.adjacent_to)}"
        return str(dict(self.raw))


@dataclass(frozen=True, eq=False)
class Ability(Mapping[str, Any]):
    """One ability, parsed once when its card is loaded (docs/abilities.md).

    ``kind`` is which of :data:`ABILITY_KINDS` it is (None if it has none); the
    other attributes are its values, ``None`` where the ability does not have the
    value or it is not known yet (the ``has_*`` / ``by_table`` flags tell which):

    - every kind: ``when`` (immediate, end), ``cap`` (``has_cap``), ``note``;
    - ``per``: ``per`` (the counter), ``vp`` per unit or a VP ``table`` of
      (count, VP) pairs (``by_table``), ``every`` (1 if not written), ``types``,
      ``include_self``, ``distance``;
    - ``flat``: ``flat`` VP, ``condition`` (the ``if``);
    - ``choice``: ``choice``, ``pay``, ``lose``;
    - ``spaceships``: ``spaceships``, ``target`` ("other" if not written);
    - ``remove_spaceships``: ``remove_spaceships``;
    - ``manual``: no values (the players type the VP).

    It is also a read-only mapping of the ability as written (``ab["vp"]``,
    ``"cap" in ab``, ``dict(ab)``, ``ab == {...}``), for scripts written when
    abilities were plain dicts; :meth:`to_dict` gives a copy to serialise.
    """
    kind: str | None
    when: str | None = None
    cap: int | None = None
    has_cap: bool = False
    note: str | None = None
    per: str | None = None
    vp: int | None = None
    by_table: bool = False
    table: tuple[tuple[int, int], ...] | None = None
    every: int | None = 1
    types: tuple[str, ...] | None = None
    include_self: bool = True
    distance: int | None = None
    flat: int | None = None
    condition: Condition | None = None
    choice: str | None = None
    pay: int | None = None
    lose: int | None = None
    spaceships: int | None = None
    target: str = "other"
    remove_spaceships: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Ability:
        """Parse an ability as written (checked by ``abilitykinds.validate_ability`` when it
        comes from a catalogue; any mapping is read the same way, a value of the
        wrong type read as not known)."""
        raw = copy.deepcopy(dict(d))
        kind = next((k for k in ABILITY_KINDS if k in raw), None)
        table = raw.get("table")
        types = raw.get("types")
        note = raw.get("note")
        return cls(
            kind=kind,
            when=raw.get("when") if isinstance(raw.get("when"), str) else None,
            cap=_whole(raw.get("cap")), has_cap="cap" in raw,
            note=note if isinstance(note, str) else None,
            per=raw.get("per") if isinstance(raw.get("per"), str) else None,
            vp=_whole(raw.get("vp")), by_table="table" in raw,
            table=(tuple((k, v) for k, v in table.items()) if isinstance(table, Mapping)
                   else None),
            every=_whole(raw.get("every", 1)),
            types=_types(types) if types else None,
            include_self=bool(raw.get("include_self", True)),
            distance=_whole(raw.get("distance")),
            flat=_whole(raw.get("flat")), condition=Condition.of(raw.get("if")),
            choice=raw.get("choice") if isinstance(raw.get("choice"), str) else None,
            pay=_whole(raw.get("pay")), lose=_whole(raw.get("lose")),
            spaceships=_whole(raw.get("spaceships")),
            target=raw.get("target", "other"),
            remove_spaceships=_whole(raw.get("remove_spaceships")),
            raw=raw)

    @classmethod
    def of(cls, ab: Ability | Mapping[str, Any]) -> Ability:
        """``ab`` itself if it is an Ability, else parsed (:meth:`from_dict`)."""
        return ab if isinstance(ab, Ability) else cls.from_dict(ab)

    def written(self, key: str) -> bool:
        """Whether the ability as written has ``key`` (e.g. ``every``, whose value is
        1 when it is not written)."""
        return key in self.raw

    def to_dict(self) -> dict[str, Any]:
        """The ability as written: the same keys in the same order (a copy)."""
        return copy.deepcopy(dict(self.raw))

    def need(self, name: str, card: str) -> int:
        """The whole-number value ``name`` (``vp``, ``pay``, ``spaceships``, ...) of
        this ability of ``card``, which the engine is about to use; not known (or
        not a whole number): UnknownCardValues."""
        v = getattr(self, name)
        if not is_int(v):
            raise UnknownCardValues(card, ["abilities"], why=f"its ability's {name} is not known")
        return int(v)

    @property
    def reads_other_stations(self) -> bool:
        """Counts the other players' stations: resolves after everyone has acted."""
        return self.per == "other_station_location"

    # -- the read-only mapping of the ability as written ------------------------------
    def __getitem__(self, key: str) -> Any:
        return copy.deepcopy(self.raw[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)

    def __contains__(self, key: object) -> bool:
        return key in self.raw

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ability):
            return dict(self.raw) == dict(other.raw)
        if isinstance(other, Mapping):
            return dict(self.raw) == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a mapping, compared by value: unhashable
