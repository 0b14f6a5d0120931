"""A seat belongs to the table (issue 50): a seat's page and the table view follow the
table to its next game, without a new link or a new scan.

- a seat's page opened with a capability (``./dashboard --lan``) shows its seat's game
  *now* (:func:`cap_game`: companion.table.capabilities.seat_game, the newest game of the
  table created after the link was issued where its player plays), and while it is open,
  a new game where its player plays moves it there (its capability is bound to that game:
  it writes there, and the game it left is a view);
- a seat's page opened by its address (127.0.0.1: ``?seat=Ana``) follows a new game in
  which Ana plays;
- the table view (``?view=table``) opens the table's most recent game of either game
  (:func:`newest`) and follows every new game of the table.

"New" is created after the page last looked (the newest game stored when it opened): an
older game resumed on the host's page does not pull the pages away.  The host's page
follows nothing (it starts the games).  No rule here; the role checks stay the session's.
"""
from __future__ import annotations

from typing import Any

from ..core.errors import CompanionError
from ..core.roles import Role
from ..table import capabilities


def cap_game(store: Any, capid: str | None, asked: str | None) -> str | None:
    """The game a seat's page opened with capability ``capid`` shows and writes to: where
    its link is now (None: no such capability any more, ``asked`` then stays)."""
    cap = capabilities.by_id(capid)
    if cap is None or cap.role != Role.SEAT:
        return None
    try:
        return capabilities.seat_game(cap, store)
    except CompanionError:
        return cap.game or asked


def newest(store: Any) -> dict[str, str]:
    """``{"game": id}`` of the table's most recent game, of either game ({}: none)."""
    try:
        games = store.games(format=None, table=store.table)
    except CompanionError:
        return {}
    return {"game": games[0]["id"]} if games else {}


def _latest_created(store: Any) -> float:
    row = store.query_one("SELECT MAX(created) FROM games")
    return float(row[0]) if row and row[0] is not None else 0.0


class TableFollower:
    """A page's following of the table (``shell.follower``); :meth:`tick` is called by
    the page's live poll, and reads the store only when another page wrote to it."""

    def __init__(self, shell: Any, capid: str | None) -> None:
        self.shell, self.capid = shell, capid
        q = shell.query
        self.table_view = q.get("view") == "table"
        self.player = None if self.table_view else (q.get("seat") or None)
        self.on = self.table_view or self.player is not None
        self.seen: Any = None
        self.since = 0.0
        if self.on:
            try:
                self.seen = shell.store.data_version()
                self.since = _latest_created(shell.store)
            except CompanionError:
                self.seen = None

    def tick(self) -> None:
        """Follow the table when a game was created since the last look."""
        if not self.on:
            return
        store = self.shell.store
        try:
            v = store.data_version()
            if v == self.seen:
                return
            later = capabilities.games_after(store, self.since)
            self.seen = v
            if not later:
                return
            self.since = later[-1][1]
            target = self._target(later)
        except CompanionError:          # the store's trouble is said by the screens' poll
            return
        if target is not None and target != self.shell.shown_game()[0]:
            self.follow(target)

    def _target(self, later: list[tuple[str, float, list[str]]]) -> str | None:
        if self.capid is not None:          # where the seat's link is now, or nowhere
            cap = capabilities.by_id(self.capid)
            if cap is None:
                return None                 # re-issued: the page stays, and writes nothing
            at = capabilities.seat_game(cap, self.shell.store)
            return at if at != self.shell.session.seat_game else None
        return capabilities.newest_with(later, self.player)

    def sessions(self) -> list[Any]:
        out = [self.shell.session]
        for screen in self.shell.screens.values():
            s = getattr(screen, "session", None)
            if s is not None and all(s is not o for o in out):
                out.append(s)
        return out

    def follow(self, gid: str) -> None:
        """Show game ``gid`` on its tab, the seat's capability bound to it."""
        sh = self.shell
        row = sh.store.query_one("SELECT format, title FROM games WHERE id=?", (gid,))
        if row is None:
            return
        if self.capid is not None:
            for s in self.sessions():
                s.bind_capability(self.capid, gid)
        sh.query["game"] = gid
        sh.show_game(gid, row[0])
        who = f"{self.player}'s page" if self.player else "the table view"
        sh.say(f"New game at the table: {who} follows it to '{row[1]}'.")
