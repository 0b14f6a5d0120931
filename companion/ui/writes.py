"""The controls that write, and what a page's role shows of them (issue 20, "roles").

Every control that writes is marked with one CSS class, :data:`WRITES` (``writes``),
and those a seat's page may not use either (delete, import, new game, start, the map
editor) also with :data:`HOST_ONLY` (``host-only``).  :func:`apply_role` hides them by
the page's role, in one place: the table view hides every ``writes`` control, a seat
every ``host-only`` one.  The page's stylesheet does the same (:data:`CSS`), so a
control built between two refreshes is hidden too.

Hiding is only what the person sees: the session and the store refuse the write
anyway (companion.core.roles).  No game rule here.
"""
from __future__ import annotations

import weakref
from typing import Any, Iterator

from ..core.roles import Role

WRITES = "writes"
HOST_ONLY = "host-only"

#: the same rule in the page's stylesheet (the root has ``role-<role>``: :func:`apply_role`)
CSS = """<style>
.companion-root.role-table .writes, .companion-root.role-table .host-only,
.companion-root.role-seat .host-only { display: none !important; }
</style>"""


def role_note(role: Role | str) -> str:
    """What a setup screen says on a page that cannot start a game ("" on the host's)."""
    role = Role(role)
    if role is Role.TABLE:
        return ("The table view records nothing: start a game on the host's page (the "
                "laptop), then open it here.")
    if role is Role.SEAT:
        return ("A new game is started on the host's page (the laptop); resume a saved "
                "game here.")
    return ""


def writes(widget: Any, *, host_only: bool = False) -> Any:
    """Mark ``widget`` as a control that writes (``host_only``: the host's page only);
    returns it."""
    widget.add_class(WRITES)
    if host_only:
        widget.add_class(HOST_ONLY)
    return widget


def hidden_for(role: Role | str, widget: Any) -> bool:
    """Whether ``role`` hides ``widget`` (by its marks)."""
    classes = getattr(widget, "_dom_classes", ())
    role = Role(role)
    if role is Role.TABLE:
        return WRITES in classes or HOST_ONLY in classes
    if role is Role.SEAT:
        return HOST_ONLY in classes
    return False


def walk(widget: Any) -> Iterator[Any]:
    """``widget`` and every widget under it (boxes, tabs, accordions)."""
    todo = [widget]
    seen: set[int] = set()
    while todo:
        wd = todo.pop()
        if id(wd) in seen:
            continue
        seen.add(id(wd))
        yield wd
        todo.extend(getattr(wd, "children", None) or ())


def apply_role(root: Any, role: Role | str) -> None:
    """Hide every marked control ``role`` may not use, and mark the root ``role-<role>``
    for the stylesheet.  A control hidden for an earlier role is shown again.

    The controls are those under ``root`` now **and every marked control seen under it
    before**, kept on the root (weakly): a screen swaps its parts in and out of the tree
    (the setup screen, the game screen), and a control out of the tree when the role
    changed kept the old role's ``display: none``.  That is how a host's page on a
    preheated kernel lost its *New game* form (issue 34): the kernel was built as the
    table view while the store had no game (the setup screen, form hidden, was shown);
    when the host took it after a game had been played, the game screen was shown, the
    role became the host's, and the form, out of the tree, was never shown again."""
    role = Role(role)
    root._companion_role = role
    for r in Role:
        cls = f"role-{r}"
        if r is role and cls not in root._dom_classes:
            root.add_class(cls)
        elif r is not role and cls in root._dom_classes:
            root.remove_class(cls)
    known = getattr(root, "_companion_marked", None)
    if known is None:
        known = root._companion_marked = weakref.WeakSet()
    for wd in walk(root):
        classes = getattr(wd, "_dom_classes", ())
        if WRITES in classes or HOST_ONLY in classes:
            known.add(wd)
    for wd in list(known):
        if hidden_for(role, wd):
            wd.layout.display = "none"
            wd._companion_role_hidden = True
        elif getattr(wd, "_companion_role_hidden", False):
            wd.layout.display = ""
            wd._companion_role_hidden = False
