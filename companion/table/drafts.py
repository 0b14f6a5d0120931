"""What a player has typed and not yet recorded, kept in the saved-games store (issue 39:
"nothing they typed is ever lost").

Laying a station or a map from the table takes a player a few minutes of taps; the
draft lived in the page's kernel, so a phone that slept long enough for its kernel to be
culled, or a reload, started it again.  A draft is kept here, by game, player and kind
(``"lay"``), after every tap, and read back when a page for that player opens the game
again (any device: the host's page sees a seat's draft too).  It is not part of the
record: no replay, export or statistic reads it, and writing one changes no game's
revision (the other pages' live polls find nothing to redraw).  The table
``drafts`` is created with the first draft written (a store opened only for reading is
never changed); a game deleted takes its drafts with it.

Works on both stores (SQLite and the club's PostgreSQL) through
:func:`companion.table.store.transaction` and :func:`~companion.table.store.has_table`.
The store's role is checked as for an action (a table view writes no draft); which
player a page may draft for is the caller's check (:class:`companion.table.session.GameSession`).
"""
from __future__ import annotations

import json
from typing import Any

from ..core.errors import CompanionError
from ..core.record import check_tree
from ..core.roles import Role, Write, check as check_role
from .store import Store, has_table, transaction

#: the kinds of draft a page keeps
KINDS = ("lay",)
#: the most a draft may be, as JSON text (a 6-player station of 60 cards is about 4 kB)
MAX_CHARS = 64_000

_TABLE = """CREATE TABLE IF NOT EXISTS drafts (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, player, kind))"""


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise CompanionError(f"no draft of the kind {kind!r}")
    return kind


def save(store: Store, gid: str, player: str, kind: str, body: Any) -> None:
    """Keep ``body`` as ``player``'s draft of ``kind`` in game ``gid`` (replacing the one
    kept).  Refused in one line when it is not plain JSON within the record's limits, or
    longer than :data:`MAX_CHARS`."""
    _kind(kind)
    check_role(getattr(store, "role", Role.HOST), Write.ACTION)
    check_tree({"draft": body}, "draft")
    text = json.dumps(body, ensure_ascii=False, sort_keys=True)
    if len(text) > MAX_CHARS:
        raise CompanionError(f"the draft is {len(text)} characters; at most {MAX_CHARS} are "
                             "kept")
    with transaction(store) as c:
        c.execute(_TABLE)
        c.execute("DELETE FROM drafts WHERE game_id=? AND player=? AND kind=?",
                  (gid, player, kind))
        c.execute("INSERT INTO drafts (game_id, player, kind, body) VALUES (?, ?, ?, ?)",
                  (gid, player, kind, text))


def load(store: Store, gid: str, player: str, kind: str) -> Any:
    """``player``'s draft of ``kind`` in game ``gid``, or None (none kept, or a kept one
    that no longer reads as JSON)."""
    _kind(kind)
    if not has_table(store, "drafts"):
        return None
    with store.reading() as c:
        row = c.execute("SELECT body FROM drafts WHERE game_id=? AND player=? AND kind=?",
                        (gid, player, kind)).fetchone()
    if row is None:
        return None
    try:
        return json.loads(row[0])
    except ValueError:
        return None


def drop(store: Store, gid: str, player: str, kind: str) -> None:
    """Forget ``player``'s draft of ``kind`` in game ``gid`` (laid, or started again)."""
    _kind(kind)
    check_role(getattr(store, "role", Role.HOST), Write.ACTION)
    if not has_table(store, "drafts"):
        return
    with transaction(store) as c:
        c.execute("DELETE FROM drafts WHERE game_id=? AND player=? AND kind=?",
                  (gid, player, kind))
