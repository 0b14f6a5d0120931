"""A context manager for widget panels that reset their own inputs: while it is
active the panel's observers see ``obj._quiet`` set and do nothing."""
from __future__ import annotations


class Quiet:
    def __init__(self, obj):
        self.obj = obj

    def __enter__(self):
        self.was, self.obj._quiet = self.obj._quiet, True
        return self

    def __exit__(self, *exc):
        self.obj._quiet = self.was
        return False
