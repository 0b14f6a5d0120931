"""The codes that bring a phone or the table's screen into the game (issue 14): one QR
code for the table view and one per seat, each the page address with the game, the
seat or the view, and the access token this page was opened with.  The address comes
from ``COMPANION_PUBLIC_URL``, which ./dashboard sets (the LAN address under --lan)."""
from __future__ import annotations

import os
import time
from typing import Any, Callable

from ..core.errors import CompanionError
from ..core.htmlsafe import escape
from ..core.roles import Role


def public_url() -> str | None:
    """The dashboard's address as the other devices reach it, or None if unknown."""
    url = os.environ.get("COMPANION_PUBLIC_URL", "").strip()
    return url or None


def join_links(base: str, *, token: str | None, gid: str | None,
               players: list[str], role: Role | str = Role.HOST,
               store: Any | None = None) -> list[tuple[str, str]]:
    """``[(label, url), ...]``: the table view first, then one per seat.

    Under ``--lan`` (:func:`companion.ui.live.capabilities_in_force`, issue 35) a link
    carries a capability instead of the token: the table view's view-only one, each
    seat's its own, bound to its player and ``gid`` (companion.table.capabilities); only
    the host's page gives them out (another page gets no link: []).  A seat belongs to
    the table (issue 50): with ``store``, a link that followed its player from an earlier
    game of the table is this game's link too (the same code: nobody scans again); the
    table view's link names no game (its page shows the table's newest game)."""
    from ..table.joining import join_url
    from .live import capabilities_in_force
    extra = {"game": gid} if gid else {}
    if capabilities_in_force():
        if Role(role) is not Role.HOST:
            return []
        from ..table import capabilities
        out = [("Table view (read-only)",
                join_url(base, view="table", cap=capabilities.view(role=role).secret))]
        for p in players:
            if gid is None:
                break
            # the game the link was issued for (the server reads the capability's, never
            # the address's): a link that followed the table is the code scanned before
            cap = capabilities.seat(gid, p, role=role, store=store)
            out.append((f"{p}'s seat", join_url(base, seat=p, game=cap.game, cap=cap.secret)))
        return out
    out = [("Table view (read-only)", join_url(base, token=token, view="table", **extra))]
    out += [(f"{p}'s seat", join_url(base, token=token, seat=p, **extra)) for p in players]
    return out


def _joined(gid: str | None, label: str, players: list[str], store: Any | None = None) -> str:
    """Under ``--lan``: whether a seat's link has been opened (the host sees who joined)."""
    from .live import capabilities_in_force
    if not gid or not capabilities_in_force() or not label.endswith("'s seat"):
        return ""
    from ..table import capabilities
    player = label[: -len("'s seat")]
    cap = capabilities.seats(gid, store, players).get(player)
    if cap is None or cap.joined is None:
        return "<div class='join-state join-waiting'>not joined yet</div>"
    when = time.strftime("%H:%M", time.localtime(cap.joined))
    return f"<div class='join-state join-joined'>joined ({escape(when)})</div>"


def join_panel_html(base: str | None, *, token: str | None, gid: str | None,
                    players: list[str], role: Role | str = Role.HOST,
                    store: Any | None = None) -> str:
    """The panel: a QR code and the address under each (user text escaped)."""
    if not base:
        return ("<div class='join-none'>Other devices can join when the dashboard is started "
                "with <code>./dashboard --lan</code>: this panel then shows a QR code for the "
                "table view and one for each seat.</div>")
    from ..table.joining import qr_svg
    links = join_links(base, token=token, gid=gid, players=players, role=role, store=store)
    if not links:
        return ("<div class='join-none'>Each seat's code is on the host's page (the laptop): "
                "a seat's link is its player's alone.</div>")
    cards = []
    for label, url in links:
        cards.append(
            "<div class='join-code' style='display:inline-block;vertical-align:top;"
            "margin:6px 12px 6px 0;text-align:center;max-width:180px'>"
            f"<div style='width:150px;height:150px;margin:auto'>{qr_svg(url)}</div>"
            f"<div><b>{escape(label)}</b></div>{_joined(gid, label, players, store)}"
            f"<div style='font-size:0.75em;word-break:break-all'>{escape(url)}</div></div>")
    return ("<div class='join-panel'><div>Scan with a phone's camera: each code opens the "
            "game in that seat, or as the table view.</div>" + "".join(cards) + "</div>")


def links_stamp() -> tuple[int, int] | None:
    """What the panel's links depend on besides the game (the capability file: a seat
    re-issued or joined), for a screen's cache of its panel."""
    from .live import capabilities_in_force
    if not capabilities_in_force():
        return None
    from ..table import capabilities
    try:
        st = capabilities.path().stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


class Reissue:
    """The host's *New link for a seat* (issue 35: a lost or borrowed phone): choose the
    player, press the button: the seat's old link, its QR code and the login cookie of
    every browser that used it stop working (companion.table.capabilities.reissue), and
    the panel shows the new code.  Shown only on the host's page under ``--lan``."""

    def __init__(self, session: Any, guarded: Callable, say: Callable,
                 refreshed: Callable[[], None]):
        import ipywidgets as w
        self.session, self.refreshed, self.say = session, refreshed, say
        self.player = w.Dropdown(description="Seat", options=[])
        self.player.add_class("reissue-player")
        self.button = w.Button(description="New link for this seat",
                               tooltip="a lost or borrowed phone: the old link stops working")
        self.button.add_class("reissue-seat")
        self.button.on_click(guarded(lambda _: self.reissue()))
        self.box = w.HBox([self.player, self.button], layout=w.Layout(display="none"))
        self.box.add_class("reissue-box")

    def update(self, gid: str | None, players: list[str]) -> None:
        from .live import capabilities_in_force
        shown = bool(gid and players and capabilities_in_force()
                     and self.session.role == Role.HOST)
        self.box.layout.display = "" if shown else "none"
        if list(self.player.options) != list(players):
            self.player.options = list(players)

    def reissue(self) -> None:
        from ..table import capabilities
        gid, player = self.session.gid, self.player.value
        if gid is None or not player:
            raise CompanionError("Choose the seat whose link is to be replaced.")
        capabilities.reissue(gid, player, role=self.session.role, store=self.session.store)
        self.refreshed()
        self.say(f"{player}'s seat has a new link: the old one no longer works (scan the "
                 "new code below).")
