"""Small Star Empires forms: where each sector tile goes (issue 24).

The rulebook says "Shuffle the tiles and make a form like the examples below" and its
forms for 2, 3 and 4 players are pictures only, so none is shipped: the player draws a
form once (docs/small-star-empires.md, "Forms", says how to copy the book's picture).

A form is a list of tile places on a coarse grid whose cells are tile places.  Coarse
axial cell ``(a, b)`` has its middle hex at ``a*A + b*B`` with, for a form drawn for tiles
of reach ``n`` (1: tiles of 7 systems, 2: tiles of 19), ``A = (n+1, n)`` and
``B = (-n, 2n+1)``: these lattices tile the plane with hexagons of radius ``n`` (the
middles of neighbouring cells are ``2n+1`` apart), so two tiles within reach never share
a hex.  Coarse cells are neighbours as hexes are (companion.sse.hexmap.DIRS).

A form file (JSON)::

    {"format": "small-star-empires-form/1", "name": "our-3p", "title": "Our 3-player form",
     "reach": 1, "note": "...",
     "places": [{"at": [0, 0], "kind": "homeworld"}, {"at": [1, 0], "kind": "main"},
                {"at": [0, 1], "kind": "main", "turn": 0}]}

Pure Python: no widgets here.
"""
from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import userdocs
from ..core.paths import user_dir
from ..core.roles import Role, Write, check as check_role
from ..core.safeio import (MAX_NOTE, check_tree, loads_json, name_problem, read_json,
                           terminal_line)
from .hexmap import DIRS, Hex, MapError

FORM_FORMAT = "small-star-empires-form/1"
PLACE_KINDS = ("main", "homeworld")
MAX_PLACES = 20
#: coarse cells lie within -CELL_LIMIT..CELL_LIMIT
CELL_LIMIT = 50
#: players of a form: the number of its homeworld places (the game is for 2 to 4)
FORM_PLAYERS = (2, 4)
MAX_FORM_BYTES = 200_000
#: a form's title, so that "<title> (laid from tiles)" is still a map title
MAX_FORM_TITLE = 80
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,60}$")


class FormError(MapError):
    """A form (drawn, in a file or in a record's layout) is malformed: one line."""


def _whole(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def lattice(reach: int) -> tuple[Hex, Hex]:
    """The coarse grid's two steps A, B for tiles of ``reach``."""
    n = reach
    return (n + 1, n), (-n, 2 * n + 1)


@dataclass(frozen=True)
class Place:
    """A tile place: its coarse cell, the kind of tile it holds, and its turn (None: any
    turn, the shuffle turns it; 0..5: fixed)."""
    at: tuple[int, int]
    kind: str
    turn: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.at, list) and len(self.at) == 2:      # [a, b] as JSON gives it
            object.__setattr__(self, "at", (self.at[0], self.at[1]))
        if not (isinstance(self.at, tuple) and len(self.at) == 2
                and all(_whole(x, -CELL_LIMIT, CELL_LIMIT) for x in self.at)):
            raise FormError(f"a place's cell is [a, b], two whole numbers from {-CELL_LIMIT} to "
                            f"{CELL_LIMIT}, not {terminal_line(repr(self.at), 60)}")
        if self.kind not in PLACE_KINDS:
            raise FormError(f"place at cell {_cell(self.at)}: kind is main or homeworld, not "
                            f"{terminal_line(repr(self.kind), 40)}")
        if self.turn is not None and not _whole(self.turn, 0, 5):
            raise FormError(f"place at cell {_cell(self.at)}: turn is 0 to 5 (steps of 60 degrees "
                            f"clockwise) or none, not {terminal_line(repr(self.turn), 40)}")

    @classmethod
    def from_dict(cls, d: Any, i: int = 0) -> "Place":
        if not isinstance(d, dict):
            raise FormError(f"place {i} must be an object")
        extra = set(d) - {"at", "kind", "turn"}
        if extra:
            raise FormError(f"place {i}: unknown key {terminal_line(repr(sorted(extra)[0]), 40)}")
        at = d.get("at")
        if not (isinstance(at, list) and len(at) == 2
                and all(_whole(x, -CELL_LIMIT, CELL_LIMIT) for x in at)):
            raise FormError(f"place {i}: at is [a, b], two whole numbers from {-CELL_LIMIT} to "
                            f"{CELL_LIMIT}, not {terminal_line(repr(at), 60)}")
        try:
            return cls((at[0], at[1]), d.get("kind"), d.get("turn"))  # type: ignore[arg-type]
        except FormError as e:
            raise FormError(f"place {i}: {e}") from None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"at": list(self.at), "kind": self.kind}
        if self.turn is not None:
            d["turn"] = self.turn
        return d


def _cell(at: tuple[int, int]) -> str:
    return f"[{at[0]}, {at[1]}]"


@dataclass(frozen=True)
class Form:
    """The arrangement of tile places of a map.  ``players`` is the number of homeworld
    places (worked out when not given; refused when it disagrees)."""
    name: str
    title: str
    reach: int
    places: tuple[Place, ...]
    note: str = ""
    players: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise FormError("a form's name uses letters, digits, spaces, '-', '_' or '.' and "
                            f"starts with a letter or digit (at most 61), not "
                            f"{terminal_line(repr(self.name), 70)}")
        problem = name_problem(self.name)
        if problem:
            raise FormError(f"form name {problem}")
        if not isinstance(self.title, str) or name_problem(self.title, MAX_FORM_TITLE):
            raise FormError(f"form {self.name}: title "
                            f"{name_problem(self.title, MAX_FORM_TITLE) or 'must be a text'}")
        if not (isinstance(self.note, str) and len(self.note) <= MAX_NOTE):
            raise FormError(f"form {self.name}: note must be a text of at most {MAX_NOTE} "
                            "characters")
        if not _whole(self.reach, 1, 2):
            raise FormError(f"form {self.name}: reach is 1 (tiles of 7 systems) or 2 (tiles of "
                            f"19 systems), not {terminal_line(repr(self.reach), 40)}")
        places = self.places
        if isinstance(places, list):
            places = tuple(places)
            object.__setattr__(self, "places", places)
        if not isinstance(places, tuple) or not all(isinstance(p, Place) for p in places):
            raise FormError(f"form {self.name}: places must be a list of places")
        if not 1 <= len(places) <= MAX_PLACES:
            raise FormError(f"form {self.name}: 1 to {MAX_PLACES} places, not {len(places)}")
        seen: dict[tuple[int, int], int] = {}
        for i, p in enumerate(places):
            if p.at in seen:
                raise FormError(f"form {self.name}: places {seen[p.at]} and {i} overlap at cell "
                                f"{_cell(p.at)}")
            seen[p.at] = i
        homes = sum(1 for p in places if p.kind == "homeworld")
        lo, hi = FORM_PLAYERS
        if not lo <= homes <= hi:
            raise FormError(f"form {self.name}: {homes} homeworld place"
                            f"{'s' if homes != 1 else ''}; a form has one for each player, "
                            f"{lo} to {hi}")
        if self.players == 0:
            object.__setattr__(self, "players", homes)
        elif self.players != homes:
            raise FormError(f"form {self.name}: players is {terminal_line(repr(self.players), 20)} "
                            f"but it has {homes} homeworld places")
        # connected: every place reachable from the first through neighbouring cells
        reached = {places[0].at}
        todo = deque([places[0].at])
        while todo:
            a, b = todo.popleft()
            for da, db in DIRS:
                c = (a + da, b + db)
                if c in seen and c not in reached:
                    reached.add(c)
                    todo.append(c)
        if len(reached) != len(places):
            alone = min(seen[c] for c in seen if c not in reached)
            raise FormError(f"form {self.name}: place {alone} (cell {_cell(places[alone].at)}) is "
                            "not connected to place 0; every place must touch the others")

    # -- the file format ------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: Any) -> "Form":
        if not isinstance(d, dict):
            raise FormError("a form must be a JSON object")
        check_tree(d, "form", error=FormError, max_depth=8, max_items=2_000)
        fmt = d.get("format", FORM_FORMAT)
        if fmt != FORM_FORMAT:
            raise FormError(f"unknown form format {terminal_line(repr(fmt), 60)}; this companion "
                            f"reads {FORM_FORMAT!r}")
        extra = set(d) - {"format", "name", "title", "reach", "note", "places", "players"}
        if extra:
            raise FormError(f"form: unknown key {terminal_line(repr(sorted(extra)[0]), 40)}")
        raw = d.get("places")
        if not isinstance(raw, list):
            raise FormError("form: 'places' must be a list")
        if not 1 <= len(raw) <= MAX_PLACES:
            raise FormError(f"form: 1 to {MAX_PLACES} places, not {len(raw)}")
        places = tuple(Place.from_dict(p, i) for i, p in enumerate(raw))
        name = d.get("name")
        title = d.get("title", name)
        return cls(name, title, d.get("reach"), places,  # type: ignore[arg-type]
                   note=d.get("note", ""), players=d.get("players", 0))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": FORM_FORMAT, "name": self.name, "title": self.title,
                             "reach": self.reach}
        if self.note:
            d["note"] = self.note
        d["places"] = [p.to_dict() for p in self.places]
        return d

    # -- queries --------------------------------------------------------------------
    def middle(self, i: int) -> Hex:
        """The galaxy hex of the middle of place ``i``."""
        a, b = self.places[i].at
        (aq, ar), (bq, br) = lattice(self.reach)
        return (a * aq + b * bq, a * ar + b * br)

    def homeworld_places(self) -> list[int]:
        """The homeworld places in form order: the k-th holds seat k+1."""
        return [i for i, p in enumerate(self.places) if p.kind == "homeworld"]

    def main_places(self) -> list[int]:
        return [i for i, p in enumerate(self.places) if p.kind == "main"]


# ---------------------------------------------------------------------------
# the player's forms
# ---------------------------------------------------------------------------
def user_forms_dir() -> Path:
    return user_dir() / "sse-forms"


#: the player's forms: the documents (companion.core.userdocs) of this folder, the data
#: folder's ``sse-forms/``, or the club database's
USER_FORMS = "sse-forms"


def _club_docs() -> userdocs.UserDocuments | None:
    """The installed documents when they are not the data folder's files (a club)."""
    docs = userdocs.documents()
    return None if docs.file(USER_FORMS) is not None else docs


def available_forms() -> dict[str, Path]:
    """Form name -> file: the player's own (no form is shipped: the book's are pictures).
    In a club: the club's documents (``sse-forms/NAME.json``: names, not files)."""
    out: dict[str, Path] = {}
    club = _club_docs()
    if club is not None:
        return {n[:-len(".json")]: Path(USER_FORMS, n) for n in club.names(USER_FORMS)
                if n.endswith(".json") and _NAME.match(n[:-len(".json")])}
    d = user_forms_dir()
    if d.is_dir():
        for p in sorted(d.glob("*.json")):
            out[p.stem] = p
    return out


def load_form_file(path: str | Path) -> Form:
    data = read_json(path, MAX_FORM_BYTES, what="form", error=FormError)
    try:
        return Form.from_dict(data)
    except FormError as e:
        raise FormError(f"{path}: {e}") from None


def load_form(name: str) -> Form:
    path = available_forms().get(name)
    if path is None:
        names = ", ".join(sorted(available_forms())) or "none yet"
        raise FormError(f"no form called {terminal_line(repr(name), 70)} (forms: {names})")
    club = _club_docs()
    if club is not None:
        doc = f"{USER_FORMS}/{name}.json"
        text = club.read(doc)
        if text is None:
            raise FormError(f"no form called {terminal_line(repr(name), 70)} (deleted "
                            "meanwhile?)")
        data = loads_json(text, club.where(doc), limit=MAX_FORM_BYTES, what="form",
                          error=FormError)
        try:
            return Form.from_dict(data)
        except FormError as e:
            raise FormError(f"{club.where(doc)}: {e}") from None
    return load_form_file(path)


def save_user_form(form: Form, name: str | None = None, *,
                   role: Role | str = Role.HOST) -> Path:
    """Save ``form`` in the player's forms folder as NAME.json (NAME: ``name`` or the
    form's own) and return the path.  ``role``: the page's (Write.MAP)."""
    check_role(role, Write.MAP)
    if not isinstance(form, Form):
        raise FormError("only a form can be saved")
    if name is not None and name.strip() != form.name:
        form = Form(name.strip(), form.title, form.reach, form.places, form.note)
    club = _club_docs()
    if club is not None:
        club.write(f"{USER_FORMS}/{form.name}.json",
                   json.dumps(form.to_dict(), indent=1, ensure_ascii=False))
        return Path(USER_FORMS, f"{form.name}.json")
    d = user_forms_dir()
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{form.name}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(form.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
    return path
