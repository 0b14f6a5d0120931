"""The card catalogue: shipped YAML, the player's own overlay, and a record's `cards`.

The entries themselves (:class:`Card`, :func:`parse_card`, :func:`merge_card`, the
limits and objective helpers) are :mod:`companion.ats.cards`; every name of it stays
importable from here.  This module reads and writes the files (through the bounded
reader, companion.core.safeio) and lays the layers on each other (:class:`Catalogue`).
See ``docs/catalogue.md`` and ``docs/abilities.md``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator

import yaml

from ..core import safeio, userdocs
from ..core.errors import CatalogueError, RecordError
from ..core.paths import data_dir, side_lock, user_catalogue_path
from ..core.roles import Role, Write, check as check_role
# the ability vocabulary lives in vocabulary.py, its kinds in abilitykinds.py; their
# names stay importable from here
from .abilitykinds import ability_unknowns as ability_unknowns, ability_kind, validate_ability  # noqa: F401
from .vocabulary import (ABILITY_COMMON, ABILITY_KINDS, CHOICES, CONDITIONS, COUNTERS,  # noqa: F401
                         SPACESHIP_TARGETS, TYPES as TYPES, VALUE_LIMIT, WHEN, Ability, Condition,
                         in_range, types_ok)
# the card definitions live in cards.py; their names stay importable from here
from .cards import (CARD_KEYS as CARD_KEYS, CATEGORIES as CATEGORIES, MANUAL_OBJECTIVE as MANUAL_OBJECTIVE,
                    MAX_ABILITIES as MAX_ABILITIES, MAX_CARD_CHARS as MAX_CARD_CHARS,
                    MAX_CARDS as MAX_CARDS, MAX_NAME as MAX_NAME, MAX_NOTES as MAX_NOTES,
                    NUMBER_KEYS as NUMBER_KEYS, OBJECTIVE_MEASURES as OBJECTIVE_MEASURES,
                    X as X, X_VALUE as X_VALUE, Card as Card, make_objective as make_objective,
                    merge_card as merge_card, objective_unknowns as objective_unknowns,
                    parse_card as parse_card, parse_entries as parse_entries)

#: a catalogue file larger than this is refused (by the bytes actually read)
MAX_CATALOGUE_BYTES = 1_000_000


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


#: the card definitions of the last few records parsed, by their text (``repr``: a
#: record replayed again, as the pages do on every change, is not parsed again).  The
#: cards are immutable and shared, as the default catalogue's are.
_CARDS_CACHE: dict[str, list[Card]] = {}
_CARDS_CACHE_SIZE = 8


def record_cards(cards: list[Any]) -> list[Card]:
    """A record's ``cards`` parsed (RecordError naming the problem), from the cache
    when the same definitions were parsed before."""
    try:
        key = repr(cards)
    except RecursionError:
        key = None
    own = _CARDS_CACHE.get(key) if key is not None else None
    if own is None:
        try:
            own = parse_entries(cards, file="record cards")
        except CatalogueError as e:
            raise RecordError(str(e)) from None
        if key is not None:
            if len(_CARDS_CACHE) >= _CARDS_CACHE_SIZE:
                del _CARDS_CACHE[next(iter(_CARDS_CACHE))]
            _CARDS_CACHE[key] = own
    return list(own)


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


