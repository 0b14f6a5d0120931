"""What another page changed while this page was not looking: moved to the table layer
(issue 38, :mod:`companion.table.changes`); the names stay importable from here."""
from __future__ import annotations

from ..table.changes import Change as Change, PageBehind as PageBehind, diff as diff

__all__ = ["Change", "PageBehind", "diff"]
