"""The card catalogue: shipped YAML, the player's own overlay, and a record's `cards`.

One schema for every entry (location cards, races, objectives).  A number that is
not known is ``null``; the engine refuses to *use* an unknown number and tells the
player which values to type from the physical card.  See ``docs/catalogue.md``
and ``docs/abilities.md``.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import yaml

from ..core import safeio, userdocs
from ..core.errors import CatalogueError, UnknownCardValues
from ..core.paths import data_dir, side_lock, user_catalogue_path
from ..core.roles import Role, Write, check as check_role
# the ability vocabulary lives in vocabulary.py, its kinds in abilitykinds.py; their
# names stay importable from here
from .abilitykinds import ability_unknowns as ability_unknowns, ability_kind, validate_ability  # noqa: F401
from .vocabulary import (ABILITY_COMMON, ABILITY_KINDS, CHOICES, CONDITIONS, COUNTERS,  # noqa: F401
                         SPACESHIP_TARGETS, TYPES as TYPES, VALUE_LIMIT, WHEN, Ability, Condition,
                         in_range, types_ok)

CATEGORIES = ("location", "race", "objective", "conflict")

#: entries in one catalogue file (or a record's ``cards``), and in your own catalogue
MAX_CARDS = 2000
#: a catalogue file larger than this is refused (by the bytes actually read)
MAX_CATALOGUE_BYTES = 1_000_000
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
             "most", "least", "shared"}
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
        if self.abilities is None:
            out.append("abilities")
        else:
            for i, ab in enumerate(self.abilities):
                out += [f"ability {i + 1} {u}" for u in ability_unknowns(ab)]
        return out

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
    extra = {k: copy.deepcopy(v) for k, v in raw.items()
             if k in ("set", "kind", "copies", "source", "notes", "secret_objective",
                      "most", "least", "shared")}
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
    for k in ("secret_objective", "shared"):
        if k in raw and not isinstance(raw[k], bool):
            raise CatalogueError("must be true or false", file=file, card=name, key=k)


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


def load_yaml(path: Path | str) -> list[Card]:
    """A catalogue file through the one bounded reader (companion.core.safeio): a regular
    UTF-8 file of at most MAX_CATALOGUE_BYTES actually read, YAML without aliases or
    anchors, only text, whole numbers, true/false, null, lists and mappings, within
    the depth / item / text limits; then every entry validated (ranges included)."""
    path = Path(path)
    name = str(path)
    prefix = name + ": "

    def error(message: str) -> CatalogueError:
        # the reader's messages start with the file's name; CatalogueError adds it itself
        return CatalogueError(message[len(prefix):] if message.startswith(prefix) else message,
                              file=name)

    data = safeio.read_yaml(path, MAX_CATALOGUE_BYTES, what="catalogue", error=error)
    return parse_entries(data, file=name)


#: the player's own catalogue: the document (companion.core.userdocs) of that name,
#: the file ``my-cards.yaml`` of the data folder, or the club database's
USER_CARDS = "my-cards.yaml"


def loads_catalogue(text: str, name: str) -> list[Card]:
    """A catalogue's text (the club database's copy of ``my-cards.yaml``) through the
    same bounded YAML reader and checks as a file (:func:`load_yaml`)."""
    prefix = name + ": "

    def error(message: str) -> CatalogueError:
        return CatalogueError(message[len(prefix):] if message.startswith(prefix) else message,
                              file=name)

    data = safeio.loads_yaml(text, name, limit=MAX_CATALOGUE_BYTES, what="catalogue",
                             error=error)
    return parse_entries(data, file=name)


def user_catalogue_place() -> str:
    """Where the player's own catalogue is kept, as messages say it."""
    return userdocs.documents().where(USER_CARDS)


def _club_docs() -> userdocs.UserDocuments | None:
    """The installed documents when they are not the data folder's files (a club)."""
    docs = userdocs.documents()
    return None if docs.file(USER_CARDS) is not None else docs


_TEXT_CACHE: dict[tuple[str, str], list[Card]] = {}


def _loads_cached(text: str, name: str) -> list[Card]:
    """loads_catalogue, remembered until the text changes (the club's copy)."""
    hit = _TEXT_CACHE.get((name, text))
    if hit is not None:
        return hit
    cards = loads_catalogue(text, name)
    _TEXT_CACHE.clear()
    _TEXT_CACHE[(name, text)] = cards
    return cards


_CACHE: dict[str, tuple[tuple[int, int], list[Card]]] = {}


def _load_cached(path: Path) -> list[Card]:
    """load_yaml, remembered until the file changes (size or mtime)."""
    st = path.stat()
    key = (st.st_mtime_ns, st.st_size)
    hit = _CACHE.get(str(path))
    if hit and hit[0] == key:
        return hit[1]
    cards = load_yaml(path)
    _CACHE[str(path)] = (key, cards)
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
    return Card(name=over.name, category=over.category, types=pick("types"),
                cost=pick("cost"), energy=pick("energy"), vp=pick("vp"), max=pick("max"),
                abilities=_merge_abilities(base.abilities, over.abilities),
                extra={**copy.deepcopy(base.extra), **copy.deepcopy(over.extra)})


# ---------------------------------------------------------------------------
# Catalogue with overlays
# ---------------------------------------------------------------------------
SHIPPED_FILES = ("cards.yaml", "races.yaml", "objectives.yaml", "conflicts.yaml")


class Catalogue:
    """Name -> :class:`Card`, built from layers; a later layer wins."""

    def __init__(self, cards: Iterable[Card] = ()):
        self._cards: dict[str, Card] = {}
        for c in cards:
            self._cards[c.name.lower()] = c

    # construction ---------------------------------------------------------
    @classmethod
    def shipped(cls) -> "Catalogue":
        folder = data_dir() / "among-the-stars"
        cards: list[Card] = []
        for f in SHIPPED_FILES:
            cards += _load_cached(folder / f)
        return cls(cards)

    @classmethod
    def default(cls) -> "Catalogue":
        """Shipped catalogue overlaid with the player's own catalogue file."""
        cat = cls.shipped()
        club = _club_docs()
        if club is not None:
            text = club.read(USER_CARDS)
            return cat if text is None else cat.overlay(
                _loads_cached(text, club.where(USER_CARDS)))
        p = user_catalogue_path()
        if p.exists():
            cat = cat.overlay(_load_cached(p))
        return cat

    def overlay(self, cards: Iterable[Card]) -> "Catalogue":
        """A new catalogue with ``cards`` laid over this one, value by value
        (:func:`merge_card`): a known value in the new layer wins, and its
        ``null`` (not known yet) never hides a value this one knows."""
        new = Catalogue(self._cards.values())
        for c in cards:
            old = new._cards.get(c.name.lower())
            new._cards[c.name.lower()] = merge_card(old, c) if old is not None else c
        return new

    # queries --------------------------------------------------------------
    def get(self, name: str) -> Card | None:
        return self._cards.get(str(name).strip().lower())

    def __getitem__(self, name: str) -> Card:
        """The entry called ``name`` (any category); KeyError if there is none."""
        card = self.get(name)
        if card is None:
            raise KeyError(name)
        return card

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def __iter__(self) -> Iterator[Card]:
        return iter(sorted(self._cards.values(), key=lambda c: c.name))

    def __len__(self) -> int:
        return len(self._cards)

    def names(self, category: str = "location") -> list[str]:
        return sorted(c.name for c in self._cards.values() if c.category == category)

    def suggest(self, name: str, n: int = 3,
                categories: tuple[str, ...] = ("location", "conflict")) -> list[str]:
        """Names of ``categories`` that ``name`` may be the start of, or a
        misspelling of (what a player typing a card's name means)."""
        import difflib
        names = [c.name for c in self._cards.values() if c.category in categories]
        typed = str(name).strip().lower()
        if not typed:
            return []
        starts = sorted(x for x in names if x.lower().startswith(typed))
        words = sorted(x for x in names if x not in starts
                       and any(w.startswith(typed) for w in x.lower().split()))
        if starts or words:
            return (starts + words)[:n]
        return difflib.get_close_matches(str(name), names, n=n, cutoff=0.6)


# ---------------------------------------------------------------------------
# The player's own catalogue: save, export, import
# ---------------------------------------------------------------------------
def dump_yaml(cards: Iterable[Card]) -> str:
    text: str = yaml.safe_dump([c.to_dict() for c in cards], sort_keys=False, allow_unicode=True)
    return text


def load_user_cards(path: Path | None = None) -> list[Card]:
    if not path:
        club = _club_docs()
        if club is not None:
            text = club.read(USER_CARDS)
            return [] if text is None else loads_catalogue(text, club.where(USER_CARDS))
    path = Path(path) if path else user_catalogue_path()
    return load_yaml(path) if path.exists() else []


def save_user_card(card: Card, path: Path | None = None, *,
                   role: Role | str = Role.HOST) -> Path:
    """Add one card to the player's catalogue file, merged value by value with
    what the file already holds (:func:`merge_card`); atomic, and safe when
    several pages save at once (the file is locked while it is rewritten).
    ``role``: the page's (companion.core.roles); the table view saves nothing."""
    check_role(role, Write.CARDS)
    club = None if path else _club_docs()
    if club is not None:
        where = club.where(USER_CARDS)

        def add(text: str | None) -> str:
            cards = {c.name.lower(): c for c in ([] if text is None
                                                 else loads_catalogue(text, where))}
            old = cards.get(card.name.lower())
            if old is None and len(cards) >= MAX_CARDS:
                raise CatalogueError(f"your catalogue already holds {MAX_CARDS} entries, the "
                                     "most it may hold", file=where, card=card.name)
            cards[card.name.lower()] = merge_card(old, card) if old is not None else card
            return dump_yaml(sorted(cards.values(), key=lambda c: c.name))

        club.update(USER_CARDS, add)
        return Path(USER_CARDS)
    path = Path(path) if path else user_catalogue_path()
    with side_lock(path):
        cards = {c.name.lower(): c for c in load_user_cards(path)}
        old = cards.get(card.name.lower())
        if old is None and len(cards) >= MAX_CARDS:
            raise CatalogueError(f"your catalogue already holds {MAX_CARDS} entries, the most it "
                                 "may hold", file=str(path), card=card.name)
        cards[card.name.lower()] = merge_card(old, card) if old is not None else card
        safeio.write_atomic(path, dump_yaml(sorted(cards.values(), key=lambda c: c.name)))
    return path


def export_user_catalogue(dest: Path | str, path: Path | None = None) -> Path:
    dest = Path(dest)
    safeio.write_atomic(dest, dump_yaml(load_user_cards(path)))
    return dest


def import_user_catalogue(src: Path | str, path: Path | None = None, *,
                          role: Role | str = Role.HOST) -> list[str]:
    """Merge a catalogue file into the player's own; returns the names imported.

    The file is validated completely before anything is written.  ``role``: the
    page's (companion.core.roles); only the host's page imports.
    """
    check_role(role, Write.IMPORT)
    incoming = load_yaml(src)
    club = None if path else _club_docs()
    if club is not None:
        where = club.where(USER_CARDS)

        def merge(text: str | None) -> str:
            cards = {c.name.lower(): c for c in ([] if text is None
                                                 else loads_catalogue(text, where))}
            for c in incoming:
                old = cards.get(c.name.lower())
                cards[c.name.lower()] = merge_card(old, c) if old is not None else c
            if len(cards) > MAX_CARDS:
                raise CatalogueError(f"importing it would make your catalogue hold "
                                     f"{len(cards)} entries; it holds at most {MAX_CARDS}; "
                                     "nothing was imported", file=str(src))
            return dump_yaml(sorted(cards.values(), key=lambda c: c.name))

        club.update(USER_CARDS, merge)
        return [c.name for c in incoming]
    path = Path(path) if path else user_catalogue_path()
    with side_lock(path):
        cards = {c.name.lower(): c for c in load_user_cards(path)}
        for c in incoming:
            old = cards.get(c.name.lower())
            cards[c.name.lower()] = merge_card(old, c) if old is not None else c
        if len(cards) > MAX_CARDS:
            raise CatalogueError(f"importing it would make your catalogue hold {len(cards)} "
                                 f"entries; it holds at most {MAX_CARDS}; nothing was imported",
                                 file=str(src))
        safeio.write_atomic(path, dump_yaml(sorted(cards.values(), key=lambda c: c.name)))
    return [c.name for c in incoming]


