"""The player's own documents: the card catalogue (``my-cards.yaml``), the typed
sector tiles (``sse-tiles.json``), the forms (``sse-forms/NAME.json``) and the typed
maps (``sse-maps/NAME.json``), named as their files in the data folder.

A game reads and writes them through :func:`documents`, never by opening the file
itself.  By default they are those files (:class:`FileDocuments`), exactly as
before: each game keeps its own file code (bounded reader, side lock, atomic
write), asked for the file with :meth:`UserDocuments.file`.  In a club (the saved
games in a PostgreSQL database) the table layer installs, with :func:`use`, a
set of documents kept in the database (``companion.table.club``), which every
server shares: there ``file`` is None and the game reads with :meth:`read` and
changes a document with :meth:`update`, a read-merge-write in one transaction
(two servers typing two cards at once: both kept).

The base names no game and no store: this is only the seam.
"""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Callable, Iterable, Iterator, Protocol, runtime_checkable

from .paths import user_dir
from .safeio import write_atomic

#: a document's name: its file's name in the data folder
MAX_DOC_NAME = 200


@runtime_checkable
class UserDocuments(Protocol):
    """Where the player's own documents are kept."""

    def file(self, name: str) -> Path | None:
        """The file holding ``name`` when the documents are files (the game then uses
        its own file code, as it always did); None when they are not."""

    def read(self, name: str) -> str | None:
        """The document's text, or None when there is none yet."""

    def write(self, name: str, text: str) -> None:
        """Replace the document (whole: never half-written)."""

    def update(self, name: str, change: Callable[[str | None], str]) -> str:
        """``change(old text or None)`` -> the new text, written; the read and the write
        are one transaction, so no other writer's change is lost.  An exception raised
        by ``change`` writes nothing.  Returns the new text."""

    def where(self, name: str) -> str:
        """The document's place, as messages name it."""

    def changed(self, name: str) -> float:
        """When the document was last changed (seconds since the epoch; 0: none)."""

    def names(self, folder: str) -> list[str]:
        """The documents in ``folder`` (``sse-maps``): their names after ``folder/``,
        sorted."""


class FileDocuments:
    """The files of the data folder (``$COMPANION_HOME``…), looked up at each call."""

    def file(self, name: str) -> Path | None:
        return user_dir() / name

    def read(self, name: str) -> str | None:
        p = user_dir() / name
        return p.read_text(encoding="utf-8") if p.exists() else None

    def write(self, name: str, text: str) -> None:
        write_atomic(user_dir() / name, text)

    def update(self, name: str, change: Callable[[str | None], str]) -> str:
        from .paths import side_lock
        with side_lock(user_dir() / name):
            new = change(self.read(name))
            self.write(name, new)
        return new

    def where(self, name: str) -> str:
        return str(user_dir() / name)

    def changed(self, name: str) -> float:
        try:
            return (user_dir() / name).stat().st_mtime
        except OSError:
            return 0.0

    def names(self, folder: str) -> list[str]:
        d = user_dir() / folder
        return sorted(p.name for p in d.iterdir() if p.is_file()) if d.is_dir() else []


class SnapshotDocuments:
    """A read-only copy of some documents, taken at one moment (:func:`snapshot`): what
    a worker process reads (the history's sync derives games in other processes, which
    cannot share the club's database connection).  ``file`` is None, so a game reads
    them as it reads the club's; writing is refused."""

    def __init__(self, texts: dict[str, str | None], places: dict[str, str],
                 changed: dict[str, float]) -> None:
        self._texts = dict(texts)
        self._places = dict(places)
        self._changed = dict(changed)

    def file(self, name: str) -> Path | None:
        return None

    def read(self, name: str) -> str | None:
        return self._texts.get(name)

    def write(self, name: str, text: str) -> None:
        raise PermissionError(f"{self.where(name)} is a read-only copy")

    def update(self, name: str, change: Callable[[str | None], str]) -> str:
        raise PermissionError(f"{self.where(name)} is a read-only copy")

    def where(self, name: str) -> str:
        return self._places.get(name, name)

    def changed(self, name: str) -> float:
        return self._changed.get(name, 0.0)

    def names(self, folder: str) -> list[str]:
        prefix = folder.rstrip("/") + "/"
        return sorted(n[len(prefix):] for n, t in self._texts.items()
                      if n.startswith(prefix) and t is not None and "/" not in n[len(prefix):])

    def state(self) -> tuple[dict[str, str | None], dict[str, str], dict[str, float]]:
        """What :class:`SnapshotDocuments` is made of again (picklable)."""
        return dict(self._texts), dict(self._places), dict(self._changed)


def snapshot(names: Iterable[str], docs: UserDocuments | None = None) -> SnapshotDocuments:
    """The documents ``names`` (a name, or every document of a folder given as
    ``"folder/"``) of ``docs`` (default: :func:`documents`), copied now."""
    docs = docs if docs is not None else documents()
    wanted: list[str] = []
    for n in names:
        if n.endswith("/"):
            wanted += [n + m for m in docs.names(n.rstrip("/"))]
        else:
            wanted.append(n)
    texts = {n: docs.read(n) for n in wanted}
    return SnapshotDocuments(texts, {n: docs.where(n) for n in wanted},
                             {n: docs.changed(n) for n in wanted})


_DEFAULT = FileDocuments()
_current: UserDocuments = _DEFAULT


def documents() -> UserDocuments:
    """The documents this process uses (the data folder's files unless the table layer
    installed the club's)."""
    return _current


def use(docs: UserDocuments | None) -> UserDocuments:
    """Install ``docs`` (None: the data folder's files again); returns the previous."""
    global _current
    old = _current
    _current = docs if docs is not None else _DEFAULT
    return old


@contextlib.contextmanager
def using(docs: UserDocuments | None) -> Iterator[UserDocuments]:
    """``with using(docs):`` those documents, then the previous ones again."""
    old = use(docs)
    try:
        yield documents()
    finally:
        use(old)


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a document (None: it can): a file's name in the data
    folder, or one folder and a file's name (``sse-forms/x.json``)."""
    if not isinstance(name, str) or not name or len(name) > MAX_DOC_NAME:
        return f"a document's name is 1 to {MAX_DOC_NAME} characters"
    parts = name.split("/")
    if len(parts) > 2 or any(p in ("", ".", "..") or not p.isprintable() or "\\" in p
                             for p in parts):
        return "a document's name is a file's name in the data folder"
    return None


__all__ = ["UserDocuments", "FileDocuments", "documents", "use", "using", "name_problem",
           "MAX_DOC_NAME"]
