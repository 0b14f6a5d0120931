"""A seat is its player's, in its game (issues 20 and 35): the seat rules of a page's
session moved to the table layer (issue 38, :class:`companion.table.seats.SeatRules`,
which :class:`companion.table.session.GameSession` inherits); importable from here."""
from __future__ import annotations

from ..table.seats import SeatRules as SeatRules

__all__ = ["SeatRules"]
