"""The ability vocabulary (docs/abilities.md): its words, the check of an ability as
written in a catalogue, and :class:`Ability`, the typed value every card holds.

An ability is written as a mapping (YAML in the catalogue, JSON in a record's
``cards``).  It is checked (:func:`validate_ability`) and parsed into an
:class:`Ability` once, when the card is loaded; the engine reads its attributes.
``Ability.to_dict()`` gives back the mapping exactly as it was written (the same
keys in the same order), so records and catalogue files read and write the same
bytes.  A value not known yet stays ``None``.
"""
from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from ..core.errors import CatalogueError, UnknownCardValues

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
#: (``remove_spaceships``: Travelling Exhibition, R FAQ)
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


def validate_ability(ab: Any, *, file: str | None, card: str, i: int) -> dict:
    """``ab`` as written (a mapping) checked against the vocabulary; returns a copy
    (a table's counts written as text, as JSON has them, made whole numbers).
    Raises CatalogueError naming the file, the card and the key."""
    key = f"abilities[{i}]"

    def err(msg: str, k: str | None = None) -> NoReturn:
        raise CatalogueError(msg, file=file, card=card, key=f"{key}.{k}" if k else key)

    if not isinstance(ab, dict):
        err("an ability must be a mapping")
    kinds = [k for k in ABILITY_KINDS if k in ab]
    if len(kinds) != 1:
        err("an ability needs exactly one of: " + ", ".join(ABILITY_KINDS))
    kind = kinds[0]
    allowed = set(ABILITY_COMMON) | {kind}
    if "when" not in ab:
        err("missing (immediate, end, or null if not known yet)", "when")
    if ab["when"] is not None and ab["when"] not in WHEN:
        err(f"must be one of {', '.join(WHEN)} or null", "when")
    if "cap" in ab and ab["cap"] is not None and not in_range(ab["cap"], 0):
        err(f"must be a whole number from 0 to {VALUE_LIMIT} or null", "cap")
    if kind == "per":
        counter = ab["per"]
        if not isinstance(counter, str) or counter not in COUNTERS:
            err(f"unknown counter '{counter}'; known: {', '.join(COUNTERS)}", "per")
        allowed |= set(COUNTERS[counter]) | {"vp", "every", "table"}
        if ("vp" in ab) == ("table" in ab):
            err("a 'per' ability needs exactly one of 'vp' (per unit) or 'table'")
        if "vp" in ab and ab["vp"] is not None and not in_range(ab["vp"], -VALUE_LIMIT):
            err(f"must be a whole number from {-VALUE_LIMIT} to {VALUE_LIMIT} or null", "vp")
        if "table" in ab and ab["table"] is not None:
            t = ab["table"]
            if isinstance(t, dict):  # JSON keys are strings: accept "3" as 3
                t = {int(k) if isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 3
                     else k: v for k, v in t.items()}
            if not isinstance(t, dict) or not all(in_range(k, 0) and in_range(v, -VALUE_LIMIT)
                                                  for k, v in t.items()):
                err(f"must map whole-number counts (0 to {VALUE_LIMIT}) to whole-number VP "
                    f"({-VALUE_LIMIT} to {VALUE_LIMIT}), or be null", "table")
            ab = {**ab, "table": t}
        if "every" in ab and ab["every"] is not None and not in_range(ab["every"], 1):
            err(f"must be a whole number from 1 to {VALUE_LIMIT}, or null if not known", "every")
        if "types" in ab and not types_ok(ab["types"]):
            err(f"must be a list of location types ({', '.join(TYPES)})", "types")
        if "include_self" in ab and not isinstance(ab["include_self"], bool):
            err("must be true or false", "include_self")
        if counter == "location_within" and not in_range(ab.get("distance"), 1):
            err(f"location_within needs a whole-number distance from 1 to {VALUE_LIMIT}",
                "distance")
    elif kind == "flat":
        allowed |= {"if"}
        if ab["flat"] is not None and not in_range(ab["flat"], -VALUE_LIMIT):
            err(f"must be a whole number from {-VALUE_LIMIT} to {VALUE_LIMIT} or null", "flat")
        cond = ab.get("if")
        if cond is not None:
            if not isinstance(cond, dict) or len([c for c in cond if c in CONDITIONS]) != 1:
                err("must be a mapping with one of: " + ", ".join(CONDITIONS), "if")
            extra = set(cond) - set(CONDITIONS) - {"than"}
            if extra:
                err(f"unknown key '{sorted(extra)[0]}'", "if")
            if "more" in cond and not (types_ok(cond["more"]) and types_ok(cond.get("than"))):
                err("'more' and 'than' must be lists of location types", "if")
            if "adjacent_to" in cond and not types_ok(cond["adjacent_to"]):
                err("'adjacent_to' must be a list of location types", "if")
            if "farthest_from_main_reactor" in cond and cond["farthest_from_main_reactor"] is not True:
                err("'farthest_from_main_reactor' must be true", "if")
    elif kind == "choice":
        allowed |= {"pay", "lose"}
        if ab["choice"] not in CHOICES:
            err(f"unknown choice '{ab['choice']}'; known: {', '.join(CHOICES)}", "choice")
        for k in ("pay", "lose"):
            if not in_range(ab.get(k), 0):
                err(f"must be a whole number from 0 to {VALUE_LIMIT}", k)
    elif kind == "spaceships":
        allowed |= {"target"}
        if not in_range(ab["spaceships"], 1):
            err(f"the number of spaceships placed must be a whole number from 1 to {VALUE_LIMIT}",
                "spaceships")
        if ab.get("target", "other") not in SPACESHIP_TARGETS:
            err(f"must be one of {', '.join(SPACESHIP_TARGETS)}", "target")
    elif kind == "manual":
        if ab["manual"] is not True:
            err("must be true", "manual")
    extra = set(ab) - allowed
    if extra:
        err(f"unknown key '{sorted(extra)[0]}'")
    return copy.deepcopy(dict(ab))      # never share nested lists with the caller's data


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
        """Parse an ability as written (checked by :func:`validate_ability` when it
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


def ability_unknowns(ab: Ability | Mapping[str, Any]) -> list[str]:
    """Names of the values of one ability that are still null."""
    ab = Ability.of(ab)
    out = []
    if ab.when is None:
        out.append("when")
    if ab.has_cap and ab.cap is None:
        out.append("cap")
    if ab.kind == "per":
        if not ab.by_table and ab.vp is None:
            out.append("vp per unit")
        if ab.by_table and ab.table is None:
            out.append("table")
        if ab.every is None:
            out.append("every")
    if ab.kind == "flat" and ab.flat is None:
        out.append("flat VP")
    return out
