"""Voila dashboard for the table companion.

Placeholder: the real UI replaces this module. It only has to show that the
notebook, the kernel and the widget front end work together.
"""

import ipywidgets as widgets


def dashboard():
    """Build the dashboard and return its root widget.

    The notebook's single cell ends with ``dashboard()``, so Jupyter/Voila
    displays the returned widget exactly once (calling ``display`` here as
    well would show it twice).
    """
    title = widgets.HTML("<h1>Among the Stars — table companion</h1>")
    title.add_class("companion-title")
    status = widgets.HTML("The dashboard is under construction.")
    status.add_class("companion-status")
    root = widgets.VBox([title, status])
    root.add_class("companion-root")
    return root
