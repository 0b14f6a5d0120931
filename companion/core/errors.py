"""One exception family for everything a player or a file can get wrong.

Every error the companion raises on purpose derives from :class:`CompanionError`,
so the command line and the dashboard can show its message instead of a
traceback.  Illegal actions raise :class:`IllegalAction` (or a subclass); its
message names the action, the card, the cell and the rule, and the game is left
exactly as it was.
"""
from __future__ import annotations

from .jsontypes import JSON
from .rules import Rule, rule as rule_of


class CompanionError(Exception):
    """Base of every error meant to be shown to a player."""


class IllegalAction(CompanionError):
    """An action the rules do not allow.  Nothing was changed.

    ``rule`` is the rule's code, a :class:`~companion.core.rules.Rule` (a string:
    ``e.rule == "credits"``); a code that is not a member raises ValueError."""

    def __init__(self, rule: str, message: str, *, action: JSON | None = None,
                 index: int | None = None):
        self.rule: Rule = rule_of(rule)
        self.action = dict(action or {})
        self.index = index
        self.detail = message
        super().__init__(self._compose())

    def _compose(self) -> str:
        a = self.action
        what = a.get("do", "action")
        parts = []
        if a.get("player"):
            parts.append(str(a["player"]))
        parts.append(str(what))
        if a.get("card"):
            parts.append(f"'{a['card']}'")
        if a.get("at") is not None and what in ("build", "reactor"):
            at = a["at"]           # may be anything in a hand-edited record
            parts.append(f"at {list(at) if isinstance(at, (list, tuple)) else repr(at)}")
        head = " ".join(parts)
        if not a:                       # raised outside an action (e.g. by the scoring)
            return f"{self.detail} [rule: {self.rule}]"
        return f"{head}: {self.detail} [rule: {self.rule}]"

    def at_index(self, index: int) -> "IllegalAction":
        self.index = index
        return self

    def with_action(self, action: JSON) -> "IllegalAction":
        """Name ``action`` in the message if the error was raised without one
        (e.g. deep in an ability that needs a card's unknown types)."""
        if not self.action.get("do"):
            self.action = dict(action)
            self.args = (self._compose(),)
        return self


class UnknownCardValues(IllegalAction):
    """A card's printed numbers are needed but nobody has typed them yet."""

    def __init__(self, card: str, fields: list[str], *, action: JSON | None = None,
                 why: str = ""):
        self.card = card
        self.fields = list(fields)
        msg = (f"the printed values of '{card}' are not known yet; enter "
               f"{', '.join(self.fields)} from the physical card")
        if why:
            msg += f" ({why})"
        super().__init__("unknown-values", msg, action=action)


class CatalogueError(CompanionError):
    """A catalogue file (YAML or a record's `cards`) is malformed."""

    def __init__(self, message: str, *, file: str | None = None,
                 card: str | None = None, key: str | None = None):
        self.file, self.card, self.key = file, card, key
        where = []
        if file:
            where.append(str(file))
        if card:
            where.append(f"card '{card}'")
        if key:
            where.append(f"key '{key}'")
        super().__init__((": ".join(where) + ": " if where else "") + message)


class RecordError(CompanionError):
    """A game record file is malformed (not an illegal move: a broken file)."""

    def __init__(self, message: str, *, index: int | None = None):
        self.index = index
        prefix = f"action {index}: " if index is not None else ""
        super().__init__(prefix + message)


class MissingEntry(CompanionError):
    """Final scoring needs something only the players can type (manual VP)."""

    def __init__(self, needed: list[str]):
        self.needed = list(needed)
        super().__init__("final scoring needs these entries from the players: "
                         + "; ".join(self.needed))


# -- the saved-games file (companion.table.store) -----------------------------------------
class StoreError(CompanionError):
    """The saved-games file cannot be used."""


class GameNotFound(StoreError):
    """No saved game has that id (it was deleted, or never saved here)."""


class StaleGame(CompanionError):
    """Another tab or window changed this game; reload it."""


class StoreBusy(StoreError):
    """Another program keeps the saved-games file locked; the store waited a
    bounded time and gave up.  The file was neither changed nor moved."""


class StoreWriteFailed(StoreError):
    """A write to the saved-games file failed (read-only, disk full, I/O
    error): the change was NOT saved, and nothing of it was written."""


class FileWriteFailed(CompanionError, OSError):
    """A player's file (their catalogue, their sector tiles, a file written on request)
    could not be written: a read-only folder, a full disk.  One line; the file was
    left as it was (companion.core.safeio.write_atomic writes beside it, then renames).
    Also an ``OSError``, for the callers that catch one."""


def write_failed(path: object, e: OSError) -> FileWriteFailed:
    """The one line for a file that could not be written: the file, why (in words,
    for the usual causes), and that nothing was changed."""
    import errno
    why = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is full",
           errno.EROFS: "the disk is mounted read-only",
           errno.EACCES: "a read-only folder or file: no permission to write there",
           errno.EPERM: "a read-only folder or file: no permission to write there",
           }.get(e.errno or 0) or (e.strerror or type(e).__name__)
    return FileWriteFailed(f"{path}: could not be written ({why}); nothing was changed")


class StoreNotOurs(StoreError):
    """The file is a valid SQLite database of another program (or of a newer
    companion); it is refused and never altered."""


class RoleRefused(CompanionError):
    """A write this page's role may not make (companion.core.roles): nothing was
    written.  The message is one line saying where to do it instead."""

    def __init__(self, role: str, write: str, message: str):
        self.role, self.write = role, write
        super().__init__(message)
