"""Sizes of the soak tests (marked ``soak``; issue 34: the suite in 15 minutes)."""
from __future__ import annotations

import os


def soak_size(default: int, full: int) -> int:
    """A soak test's size: ``full`` with ``COMPANION_SOAK=1`` (``./run-tests --soak``), else
    ``default`` (the everyday suite).  The test's checks are the same at both sizes."""
    return full if os.environ.get("COMPANION_SOAK") == "1" else default
