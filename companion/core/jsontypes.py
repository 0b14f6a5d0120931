"""Names for JSON-shaped data, shared by the type annotations of the engine and the table.

A record, its setup, an action and a manual entry are JSON objects read from a file, a
page or the store: their keys are texts and their values anything JSON holds.  Where a
shape is fixed and checked, a module may give it a ``TypedDict`` of its own; elsewhere
``JSON`` says "a JSON object" (and not "any dict").
"""
from __future__ import annotations

from typing import Any, TypeAlias

__all__ = ["JSON"]

#: a JSON object: a record, its setup, an action, a manual entry, a card's definition
JSON: TypeAlias = dict[str, Any]
