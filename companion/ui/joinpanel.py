"""The codes that bring a phone or the table's screen into the game (issue 14): one QR
code for the table view and one per seat, each the page address with the game, the
seat or the view, and the access token this page was opened with.  The address comes
from ``COMPANION_PUBLIC_URL``, which ./dashboard sets (the LAN address under --lan)."""
from __future__ import annotations

import os

from ..core.htmlsafe import escape


def public_url() -> str | None:
    """The dashboard's address as the other devices reach it, or None if unknown."""
    url = os.environ.get("COMPANION_PUBLIC_URL", "").strip()
    return url or None


def join_links(base: str, *, token: str | None, gid: str | None,
               players: list[str]) -> list[tuple[str, str]]:
    """``[(label, url), ...]``: the table view first, then one per seat."""
    from ..table.joining import join_url
    extra = {"game": gid} if gid else {}
    out = [("Table view (read-only)", join_url(base, token=token, view="table", **extra))]
    out += [(f"{p}'s seat", join_url(base, token=token, seat=p, **extra)) for p in players]
    return out


def join_panel_html(base: str | None, *, token: str | None, gid: str | None,
                    players: list[str]) -> str:
    """The panel: a QR code and the address under each (user text escaped)."""
    if not base:
        return ("<div class='join-none'>Other devices can join when the dashboard is started "
                "with <code>./dashboard --lan</code>: this panel then shows a QR code for the "
                "table view and one for each seat.</div>")
    from ..table.joining import qr_svg
    cards = []
    for label, url in join_links(base, token=token, gid=gid, players=players):
        cards.append(
            "<div class='join-code' style='display:inline-block;vertical-align:top;"
            "margin:6px 12px 6px 0;text-align:center;max-width:180px'>"
            f"<div style='width:150px;height:150px;margin:auto'>{qr_svg(url)}</div>"
            f"<div><b>{escape(label)}</b></div>"
            f"<div style='font-size:0.75em;word-break:break-all'>{escape(url)}</div></div>")
    return ("<div class='join-panel'><div>Scan with a phone's camera: each code opens the "
            "game in that seat, or as the table view.</div>" + "".join(cards) + "</div>")
