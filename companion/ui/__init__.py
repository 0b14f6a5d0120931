"""Voila dashboard for the table companion.  Widgets live here; the notebook is thin."""
from .app import App, cell_class, dashboard

__all__ = ["App", "cell_class", "dashboard"]
