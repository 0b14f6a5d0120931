"""A role is a capability, not an address (issue 35): the secrets that seats' links and
the table view's link carry under ``./dashboard --lan``.

Under ``--lan`` a token is in force and the server (notebooks/config/voila.py) gives each
browser the role its credential carries, never the one its address asks for:

- the **host** holds the token itself (the laptop: ``?token=`` or the login form);
- a **seat** holds its seat's capability, a secret bound to one player of one game
  (``?cap=<secret>`` in the seat's link and its QR code, :func:`seat`);
- the **table view** holds the view-only capability (:func:`view`).

This module keeps those secrets in ``capabilities.json`` in the player's data folder
(``COMPANION_HOME``, :func:`companion.core.paths.user_dir`), beside the SQLite games or,
with a club's PostgreSQL, on the laptop that serves the table (its seats are that
laptop's): the file survives a restart of the server, is written whole (a temporary file
renamed) under a lock shared by the server and the pages' kernels, and is readable by its
owner only (0600).  No widgets here; tests/test_capabilities.py.

A secret is 32 URL-safe characters from :func:`secrets.token_urlsafe` (192 bits).  Each
capability also has a public ``id`` (the first 16 hex digits of the secret's SHA-256): the
server hands a page's kernel the id, never the secret, and the kernel's session asks
:func:`is_current` before each write, so that a link the host has re-issued
(:func:`reissue`: a lost or borrowed phone) stops working at once, the page still open on
the old phone included.  Only the host's page issues or re-issues a seat's link
(``role``: :func:`_host_only`).

**A seat belongs to the table** (issue 50): a seat's capability is issued for one game
and its player, and it follows that player to the table's next games.  Its game *now*
(:func:`seat_game`) is the newest game of the store's table (``store.table``: the
``--table`` tag, or every game) *created after the link was issued* in which its player
plays (the name compared without case), else the game it was issued for.  So *Next game
with the same players*, or any new game the host starts with that player, keeps every
seat's link and code, while an older game resumed later is not taken over by links
issued before it (its own links, issued after, are its own).  The game a seat's link
left stays readable: a seat's page that opens it is a view of it (seats.py).
:func:`seat`, :func:`reissue` and :func:`seats` take the store to see where a link is
now; without it they keep to the game a link was issued for (as before issue 50).
The table view's capability names no game: its page follows the table's newest game.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..core.errors import CompanionError, RoleRefused
from ..core.paths import side_lock, user_dir
from ..core.roles import Role
from ..core.safeio import write_atomic
from .store import table_of

FILE_NAME = "capabilities.json"
#: the most the file may hold (a club's laptop: many games of up to 6 seats)
MAX_BYTES = 4_000_000
#: how often a seat's "joined" time is written again (the server marks each page load)
JOINED_EVERY = 30.0


class CapabilityError(CompanionError):
    """The capability file cannot be read or written (one line)."""


@dataclass(frozen=True)
class Capability:
    """One link's capability: ``role`` ``seat`` (with its ``game`` and ``player``) or
    ``table`` (the view: no game, no player)."""
    id: str
    secret: str
    role: str
    game: str | None = None
    player: str | None = None
    issued: float = 0.0
    joined: float | None = None       # the last page load with it (None: never used)

    @property
    def label(self) -> str:
        return f"{self.player}'s seat" if self.role == Role.SEAT else "the table view"


def path() -> Path:
    """``<COMPANION_HOME>/capabilities.json``."""
    return user_dir() / FILE_NAME


def cap_id(secret: str) -> str:
    """The public id of a secret (16 hex digits of its SHA-256)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# -- the file -------------------------------------------------------------------------
_cache: dict[str, tuple[tuple[int, int, int], dict[str, Capability]]] = {}


def _stamp(p: Path) -> tuple[int, int, int] | None:
    try:
        st = p.stat()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise CapabilityError(f"{p}: cannot be read ({e.strerror or type(e).__name__})") from None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _parse(text: str, p: Path) -> dict[str, Capability]:
    try:
        doc = json.loads(text)
        out = {}
        for c in doc["caps"]:
            cap = Capability(id=str(c["id"]), secret=str(c["secret"]), role=str(c["role"]),
                             game=c.get("game"), player=c.get("player"),
                             issued=float(c.get("issued") or 0),
                             joined=(float(c["joined"]) if c.get("joined") else None))
            if cap.role not in (Role.SEAT, Role.TABLE) or cap_id(cap.secret) != cap.id:
                raise ValueError(f"a capability of role {cap.role!r}")
            out[cap.id] = cap
        return out
    except (ValueError, KeyError, TypeError) as e:
        raise CapabilityError(f"{p}: not a capability file ({type(e).__name__}: {e}); "
                              "remove it and give the seats new links") from None


def load() -> dict[str, Capability]:
    """Every capability, by id (an absent file: none).  Read again only when the file
    changed (the server asks at every request)."""
    p = path()
    stamp = _stamp(p)
    if stamp is None:
        return {}
    hit = _cache.get(str(p))
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        with open(p, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as e:
        raise CapabilityError(f"{p}: cannot be read ({e.strerror or type(e).__name__})") from None
    if len(data) > MAX_BYTES:
        raise CapabilityError(f"{p}: larger than {MAX_BYTES} bytes")
    caps = _parse(data.decode("utf-8", "replace"), p)
    _cache[str(p)] = (stamp, caps)
    return caps


def _save(caps: dict[str, Capability]) -> None:
    p = path()
    doc = {"version": 1, "caps": [asdict(c) for c in caps.values()]}
    write_atomic(p, json.dumps(doc, indent=1, sort_keys=True) + "\n")
    try:
        os.chmod(p, 0o600)
    except OSError:
        pass
    _cache.pop(str(p), None)


def _host_only(role: Role | str) -> None:
    if Role(role) is not Role.HOST:
        raise RoleRefused(str(role), "links",
                          "Only the host's page (the laptop) gives out or replaces a "
                          "seat's link.")


def _new(role: str, game: str | None = None, player: str | None = None) -> Capability:
    secret = secrets.token_urlsafe(24)
    return Capability(id=cap_id(secret), secret=secret, role=role, game=game,
                      player=player, issued=time.time())


# -- the capabilities -----------------------------------------------------------------
def verify(secret: str | None) -> Capability | None:
    """The capability ``secret`` is, or None (unknown, re-issued, empty).  Never raises
    for a bad secret; an unreadable file is no capability (the server then refuses)."""
    if not secret or len(secret) > 200:
        return None
    try:
        cap = load().get(cap_id(secret))
    except CapabilityError:
        return None
    if cap is None or not hmac.compare_digest(cap.secret.encode(), secret.encode()):
        return None
    return cap


def by_id(cid: str | None) -> Capability | None:
    """The capability whose public id is ``cid`` (None: unknown or re-issued).  For a
    signed login cookie, which holds the id, never the secret."""
    if not cid:
        return None
    try:
        return load().get(cid)
    except CapabilityError:
        return None


def is_current(cid: str | None) -> bool:
    """Whether the capability with public id ``cid`` still works (not re-issued)."""
    if not cid:
        return False
    try:
        return cid in load()
    except CapabilityError:
        return False


# -- the table's games (issue 50) ------------------------------------------------------
def games_after(store: Any, after: float) -> list[tuple[str, float, list[str]]]:
    """``(id, created, players)`` of the store's table's games created after ``after``
    (seconds since 1970), oldest first.  The table: ``store.table`` (``--table``), or
    every game on a server without one.  One read; an unreadable setup is left out."""
    rows = store.query("SELECT id, created, setup, meta FROM games WHERE created > ? "
                       "ORDER BY created, id", (float(after),))
    out = []
    table = getattr(store, "table", None)
    for gid, created, setup, meta in rows:
        if table is not None and table_of(meta) != table:
            continue
        try:
            players = [str(p) for p in json.loads(setup)["players"]]
        except (ValueError, KeyError, TypeError):
            continue
        out.append((str(gid), float(created), players))
    return out


def newest_with(games: list[tuple[str, float, list[str]]], player: str | None) -> str | None:
    """The newest of ``games`` (oldest first) in which ``player`` plays (without case),
    or the newest of all when ``player`` is None."""
    for gid, _, players in reversed(games):
        if player is None or player.lower() in (p.lower() for p in players):
            return gid
    return None


def seat_game(cap: Capability, store: Any) -> str | None:
    """The game a seat's capability writes to now (issue 50): the newest game of the
    store's table created after the link was issued where its player plays, else the
    game it was issued for.  None for the table view's."""
    if cap.role != Role.SEAT or not cap.game:
        return None
    later = newest_with(games_after(store, cap.issued), cap.player)
    return later or cap.game


def _at(c: Capability, game: str, store: Any | None) -> bool:
    """Whether seat capability ``c`` is at ``game`` now (with a store: where it followed
    the table; without: the game it was issued for)."""
    if store is None:
        return c.game == game
    return seat_game(c, store) == game


def _check_names(game: str, player: str) -> None:
    if not isinstance(game, str) or not game.strip() or not isinstance(player, str) \
            or not player.strip():
        raise CompanionError("A seat's link needs its game and its player.")


def _mine(c: Capability, game: str, player: str, store: Any | None) -> bool:
    """Whether ``c`` is ``player``'s seat at ``game`` now."""
    if c.role != Role.SEAT or not c.player:
        return False
    if store is None:
        return c.game == game and c.player == player
    return c.player.lower() == player.lower() and _at(c, game, store)


def seat(game: str, player: str, *, role: Role | str = Role.HOST,
         store: Any | None = None) -> Capability:
    """``player``'s seat in ``game``: the capability already given out (with ``store``:
    also one issued for an earlier game of the table that followed its player here,
    issue 50), or a new one."""
    _host_only(role)
    _check_names(game, player)
    with side_lock(path()):
        caps = dict(load())
        mine = [c for c in caps.values() if _mine(c, game, player, store)]
        if mine:
            return max(mine, key=lambda c: c.issued)
        cap = _new(str(Role.SEAT), game, player)
        caps[cap.id] = cap
        _save(caps)
        return cap


def reissue(game: str, player: str, *, role: Role | str = Role.HOST,
            store: Any | None = None) -> Capability:
    """A new link for ``player``'s seat in ``game`` (a lost or borrowed phone): the old
    capability stops working (its pages, cookies and QR codes), the new one is returned.
    With ``store``, every link of that player that is at ``game`` now (followed from an
    earlier game, issue 50) stops working too."""
    _host_only(role)
    _check_names(game, player)
    with side_lock(path()):
        caps = {k: c for k, c in load().items()
                if not (_mine(c, game, player, None) or _mine(c, game, player, store))}
        cap = _new(str(Role.SEAT), game, player)
        caps[cap.id] = cap
        _save(caps)
        return cap


def view(*, role: Role | str = Role.HOST) -> Capability:
    """The table view's capability (one for the whole dashboard: it may look at every
    game and write nothing)."""
    _host_only(role)
    with side_lock(path()):
        caps = dict(load())
        for c in caps.values():
            if c.role == Role.TABLE:
                return c
        cap = _new(str(Role.TABLE))
        caps[cap.id] = cap
        _save(caps)
        return cap


def seats(game: str, store: Any | None = None,
          players: list[str] | None = None) -> dict[str, Capability]:
    """The seats' capabilities of ``game`` given out so far, by player (with ``store``:
    those at ``game`` now, followed from an earlier game too, issue 50, by the name
    ``players`` gives it; the newest issued when several are)."""
    try:
        caps = load()
    except CapabilityError:
        return {}
    out: dict[str, Capability] = {}
    for c in sorted(caps.values(), key=lambda c: c.issued):
        if c.role != Role.SEAT or not c.player or not _at(c, game, store):
            continue
        name = next((p for p in players or () if p.lower() == c.player.lower()), c.player)
        out[name] = c
    return out


def mark_joined(cid: str, when: float | None = None) -> None:
    """Note that a page was opened with capability ``cid`` (the host sees which seats
    joined).  Written at most every :data:`JOINED_EVERY` seconds per capability; a
    failure to write is no failure of the page (nothing is raised)."""
    when = time.time() if when is None else when
    try:
        cap = load().get(cid)
        if cap is None or (cap.joined and when - cap.joined < JOINED_EVERY):
            return
        with side_lock(path()):
            caps = dict(load())
            if cid not in caps:
                return
            c = caps[cid]
            caps[cid] = Capability(**{**asdict(c), "joined": when})
            _save(caps)
    except (CompanionError, OSError):
        return


def as_dict(cap: Capability) -> dict[str, Any]:
    """The capability without its secret (for a log or a test)."""
    d = asdict(cap)
    d.pop("secret")
    return d
