"""Moving a history: copy every saved game of one store into another (issue 26).

``copy_history(src, dst)`` copies each game of ``src`` (its id, title, dates, setup,
card definitions, manual entries, details, format and revision, and all its actions)
into ``dst``, through the stores' public API only (``query``, ``transaction()``,
``require``) and portable SQL (``?`` placeholders; existence checked with a SELECT,
then an INSERT), so either store may be SQLite (:class:`~companion.table.store.Store`)
or PostgreSQL (``companion.table.pgstore.PgStore``).

- Everything is written in ONE transaction on ``dst``: a failure leaves ``dst`` as it
  was, never half a game (nor half a history).
- A game whose id ``dst`` already has, with the same revision and the same record
  (actions, setup, cards, entries, details, title), is skipped: "already there".  So a
  second copy adds nothing twice.
- A game whose id ``dst`` has with a different record is a *conflict*: it is reported
  (by title) and left in ``dst`` as it is, never overwritten.
- The derived ``g_*`` tables are not copied: History derives the new games on the
  destination (``history.sync(dst)``: a copied game has no ``g_results`` row yet).
- ``dst``'s role must allow an import (``Write.IMPORT``); the source is only read.

The player's own catalogues are files in the data folder, not in the store
(``my-cards.yaml``, ``sse-tiles.json``: companion.core.paths.user_dir); they are not
copied.  Each game's own card definitions (its ``cards``) are, with the game.
"""
from __future__ import annotations

import json
import os
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, Sequence

from ..core.errors import CompanionError, StoreError, StoreWriteFailed
from ..core.roles import Role, Write
from .store import Progress, default_path
from .backends import open_store

#: the columns of ``games`` that make a game, in this order
COLUMNS = ("id", "title", "created", "updated", "setup", "cards", "manual", "meta", "format",
           "rev")
#: the columns whose text is JSON (compared parsed: another backend may space it otherwise)
_JSON_COLUMNS = ("setup", "cards", "manual", "meta")
#: times a game that changes while it is read is read again
_READ_TRIES = 5

URL_SCHEMES = ("postgresql://", "postgres://")
NO_POSTGRES = "PostgreSQL support is not installed: pip install 'star-companion[postgres]'"


class StoreLike(Protocol):
    """What the copy uses of a store (Store and PgStore both have it)."""

    def query(self, sql: str, params: Sequence[Any] = ...) -> list[Any]: ...
    def transaction(self) -> Any: ...
    def require(self, write: Write | str) -> None: ...


@dataclass
class CopyReport:
    """What a copy did: ``copied`` and ``already`` are game ids; ``conflicts`` are
    (id, title) of the games ``dst`` has with another record (left as they are)."""
    copied: list[str] = field(default_factory=list)
    actions: int = 0
    already: list[str] = field(default_factory=list)
    conflicts: list[tuple[str, str]] = field(default_factory=list)

    def summary(self, source: str, destination: str) -> str:
        """One paragraph: "Copied N games (M actions) from X to Y; K were already
        there; C conflicts: …"."""
        n = len(self.copied)
        text = (f"Copied {n} game{'' if n == 1 else 's'} ({self.actions} "
                f"action{'' if self.actions == 1 else 's'}) from {source} to {destination}; "
                f"{len(self.already)} {'was' if len(self.already) == 1 else 'were'} already there; "
                f"{len(self.conflicts)} conflict{'' if len(self.conflicts) == 1 else 's'}")
        if not self.conflicts:
            return text + "."
        shown = ", ".join(json.dumps(title, ensure_ascii=False) + f" (id {gid})"
                          for gid, title in self.conflicts[:20])
        more = f" and {len(self.conflicts) - 20} more" if len(self.conflicts) > 20 else ""
        return (text + f": {shown}{more}. The destination already has a different game "
                "under the same id; it was left as it is, not overwritten (export the "
                "source's game as a record and import it to keep both).")


def _same_json(a: Any, b: Any) -> bool:
    """Two stored JSON texts hold the same value (texts compared when unreadable)."""
    try:
        return bool(json.loads(a) == json.loads(b))
    except (TypeError, ValueError, RecursionError):
        return bool(a == b)


def _same(game: tuple[Any, ...], actions: list[tuple[Any, ...]],
          have: tuple[Any, ...], have_actions: list[tuple[Any, ...]]) -> bool:
    """The same game: same revision, title, format, JSON columns and actions
    (``created``/``updated`` are not compared)."""
    row, other = dict(zip(COLUMNS, game)), dict(zip(COLUMNS, have))
    if row["rev"] != other["rev"] or row["title"] != other["title"] \
            or row["format"] != other["format"] or len(actions) != len(have_actions):
        return False
    if not all(_same_json(row[c], other[c]) for c in _JSON_COLUMNS):
        return False
    return all(i == j and _same_json(a, b) for (i, a), (j, b) in zip(actions, have_actions))


_GAME_SQL = f"SELECT {', '.join(COLUMNS)} FROM games WHERE id = ?"
_ACTIONS_SQL = "SELECT idx, action FROM actions WHERE game_id = ? ORDER BY idx"


def _read_game(src: StoreLike, gid: str) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]] | None:
    """One game of ``src`` and its actions, read consistently: the game's row is read
    again after its actions and must not have changed (another page may be playing
    it); None when it was deleted meanwhile."""
    for _ in range(_READ_TRIES):
        rows = src.query(_GAME_SQL, (gid,))
        if not rows:
            return None
        actions = [tuple(a) for a in src.query(_ACTIONS_SQL, (gid,))]
        again = src.query(_GAME_SQL, (gid,))
        if again and tuple(again[0]) == tuple(rows[0]):
            return tuple(rows[0]), actions
    raise StoreError(f"the game {gid} kept changing while it was read (it is being played?); "
                     "nothing was copied: try again once it is not")


def _insert(c: Any, game: tuple[Any, ...], actions: list[tuple[Any, ...]]) -> None:
    """Write one game and its actions (inside the copy's transaction).  A value the
    destination refuses (PostgreSQL stores no NUL character in a text, for one) fails
    the whole copy, with the game named."""
    gid, title = game[0], game[1]
    try:
        c.execute(f"INSERT INTO games({', '.join(COLUMNS)}) "
                  f"VALUES ({', '.join('?' * len(COLUMNS))})", game)
        sql = "INSERT INTO actions(game_id, idx, action) VALUES (?, ?, ?)"
        many = getattr(c, "executemany", None)     # one round trip to a server, not 100
        if many is not None and actions:
            many(sql, [(gid, idx, action) for idx, action in actions])
        else:
            for idx, action in actions:
                c.execute(sql, (gid, idx, action))
    except Exception as e:
        why = str(e) if isinstance(e, CompanionError) else f"{type(e).__name__}: {e}"
        raise StoreWriteFailed(f"Nothing was copied: the game {json.dumps(str(title))} (id "
                               f"{gid}) could not be written to the destination ({why}); the "
                               "destination was left as it was") from None


def copy_history(src: StoreLike, dst: StoreLike,
                 progress: Progress | None = None) -> CopyReport:
    """Copy every game of ``src`` into ``dst`` (see the module's docstring), in one
    transaction on ``dst``; returns what was copied, what was already there and the
    conflicts.  ``progress(done, total)``: before the first game and after each.
    Refused (:class:`~companion.core.errors.RoleRefused`, nothing written) unless
    ``dst``'s role may import."""
    if src is dst:
        raise CompanionError("the source and the destination are the same store: "
                             "nothing to copy")
    dst.require(Write.IMPORT)
    ids = [str(r[0]) for r in src.query("SELECT id FROM games ORDER BY created, id")]
    report = CopyReport()
    if progress is not None:
        progress(0, len(ids))
    with dst.transaction() as c:
        for done, gid in enumerate(ids, 1):
            got = _read_game(src, gid)
            if got is not None:
                game, actions = got
                have = c.execute(_GAME_SQL, (gid,)).fetchall()
                if have:
                    have_actions = [tuple(a) for a in c.execute(_ACTIONS_SQL, (gid,)).fetchall()]
                    if _same(game, actions, tuple(have[0]), have_actions):
                        report.already.append(gid)
                    else:
                        report.conflicts.append((gid, str(game[1])))
                else:
                    _insert(c, game, actions)
                    report.copied.append(gid)
                    report.actions += len(actions)
            if progress is not None:
                progress(done, len(ids))
    return report


# ---------------------------------------------------------------------------
# locations: a path to an SQLite file or a postgresql:// URL
# ---------------------------------------------------------------------------
def is_url(location: str | Path) -> bool:
    return str(location).lower().startswith(URL_SCHEMES)


def mask(location: str | Path) -> str:
    """The location as it may be printed: a URL's password (``user:secret@`` or
    ``password=secret``) replaced by ``***``."""
    text = str(location)
    if not is_url(text):
        return text
    text = re.sub(r"^([a-zA-Z]+://[^/@?#]*?:)[^/?#]*@", r"\1***@", text)
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", text)


def scrub(message: str, locations: Sequence[str | Path | None]) -> str:
    """``message`` with every URL's password of ``locations`` hidden (an error of the
    driver may repeat the URL)."""
    for loc in locations:
        if loc is None or not is_url(loc):
            continue
        text = str(loc)
        message = message.replace(text, mask(text))
        secrets = re.findall(r"^[a-zA-Z]+://[^/@?#]*?:([^/?#]*)@", text) + \
            re.findall(r"(?i)[?&]password=([^&#]*)", text)
        for secret in secrets:
            if len(secret) >= 3:
                message = message.replace(secret, "***")
    return message


_SQLITE_HEADER = b"SQLite format 3\x00"


def _check_sqlite_file(path: Path, *, source: bool) -> None:
    """Refuse, before the store opens it, a file the copy must not touch: opening a
    damaged file would put it aside and start a new one, which a copy must never do.
    A source must exist and be a healthy SQLite file (checked read-only); a
    destination may be missing or empty (a new store), else an SQLite file."""
    role = "source" if source else "destination"
    if path.is_dir():
        raise StoreError(f"the {role} {path} is a folder, not a saved-games file")
    if not path.exists():
        if source:
            raise StoreError(f"the source {path} does not exist: there is nothing to copy")
        return
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_SQLITE_HEADER))
    except OSError as e:
        raise StoreError(f"cannot read the {role} {path} ({e.strerror or e}); "
                         "it was left as it is") from None
    if not head:
        if source:
            raise StoreError(f"the source {path} is empty: there is nothing to copy")
        return
    if head != _SQLITE_HEADER:
        raise StoreError(f"the {role} {path} is not a saved-games file (not an SQLite "
                         "database); it was left as it is")
    if source:
        conn = None
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.Error as e:
            raise StoreError(f"cannot read the source {path} ({e}); it was left as it is") \
                from None
        finally:
            if conn is not None:
                conn.close()
        if ok != "ok":
            raise StoreError(f"the source {path} is damaged ({ok}); it was left as it is")


def default_location() -> str:
    """The current store: ``COMPANION_DATABASE_URL``, else the saved-games file."""
    return os.environ.get("COMPANION_DATABASE_URL") or str(default_path())


def _open(location: str | Path | None, *, source: bool) -> Any:
    """The store at ``location`` (None: the current store), through
    :func:`companion.table.backends.open_store`: a path opens a :class:`Store`, a
    ``postgresql://`` URL a ``PgStore``.  The source is opened as
    the table view (this copy writes nothing to it)."""
    loc = default_location() if location is None else str(location)
    role = Role.TABLE if source else Role.HOST
    if is_url(loc):
        try:
            return open_store(loc, role=role)
        except CompanionError:
            raise
        except Exception as e:      # the driver's own error (unreachable, refused login)
            raise StoreError(f"cannot open {mask(loc)} ({type(e).__name__}: "
                             f"{scrub(str(e), [loc])})") from None
    path = Path(loc).expanduser()
    # checked first: opening a damaged file as a store would put it aside, which a
    # copy must never do
    _check_sqlite_file(path, source=source)
    return open_store(path, role=role)


def same_location(a: str | Path, b: str | Path) -> bool:
    if is_url(a) or is_url(b):
        return str(a) == str(b)
    return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()


def copy_between(source: str | Path | None, destination: str | Path,
                 progress: Progress | None = None) -> str:
    """``history copy``: open both stores, copy, close them; the summary paragraph
    (locations masked).  Every error is a CompanionError whose message hides the
    URLs' passwords."""
    src_loc = default_location() if source is None else str(source)
    locations = [src_loc, str(destination)]
    try:
        if same_location(src_loc, destination):
            raise CompanionError(f"the source and the destination are the same "
                                 f"({mask(src_loc)}): nothing to copy")
        src = _open(src_loc, source=True)
        try:
            dst = _open(destination, source=False)
            try:
                report = copy_history(src, dst, progress)
            finally:
                _close(dst)
        finally:
            _close(src)
    except CompanionError as e:
        message = scrub(str(e), locations)
        if message == str(e):
            raise
        raise CompanionError(message) from None
    return report.summary(mask(src_loc), mask(destination))


def _close(store: Any) -> None:
    close = getattr(store, "close", None)
    if close is not None:
        close()
