"""Joining a game from another device (issue 14): page addresses and their QR codes.

No widgets here.  A page address is the dashboard's public address (``COMPANION_PUBLIC_URL``,
set by ./dashboard) with a query saying what the page is for:

- ``seat=<player name>``: that player's phone;
- ``view=table``: the read-only table view;
- ``game=<id>``: that saved game (the most recent one otherwise);
- ``token=<token>``: the access token under ``./dashboard --lan`` (the host's);
- ``cap=<secret>``: a seat's or the table view's capability under ``--lan`` (issue 35,
  :mod:`companion.table.capabilities`), given instead of the token.

Every value is percent-encoded (``quote(..., safe='')``), so a seat name with spaces,
accents, ``&``, ``=``, ``#`` or ``+`` stays one parameter and reads back unchanged through
:func:`urllib.parse.parse_qs`.

``python -m companion.table.joining URL`` prints URL's QR code on the terminal; with ``-``
it reads URL from standard input (./dashboard --lan prints the table view's address so,
its token kept off any command line).
"""
from __future__ import annotations

import io
import sys
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit, urlunsplit

if TYPE_CHECKING:                 # segno is imported where a code is drawn, not at start
    import segno

#: the query keys join_url writes, in this order
KEYS = ("game", "seat", "view", "token", "cap")


def join_url(base: str, *, token: str | None = None, seat: str | None = None,
             view: str | None = None, game: str | None = None,
             cap: str | None = None) -> str:
    """The address of a page of the dashboard at ``base`` (``http://host:port/``).

    Parameters left None (or empty) are not written.  A query already in ``base`` is
    kept, with these parameters after it; a fragment is dropped.  ``seat`` and ``view``
    together are refused (a page is a seat or the table view, not both)."""
    if seat and view:
        raise ValueError("join_url: a page is either a seat or a view, not both")
    parts = urlsplit(base.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"join_url: not an http(s) address: {base!r}")
    values = {"game": game, "seat": seat, "view": view, "token": token, "cap": cap}
    query = [f"{k}={quote(str(values[k]), safe='')}" for k in KEYS if values[k]]
    if parts.query:
        query.insert(0, parts.query)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", "&".join(query), ""))


def _qr(url: str) -> segno.QRCode:
    import segno
    return segno.make(url, error="l", micro=False)


def qr_svg(url: str) -> str:
    """``url`` as a QR code: an inline ``<svg>`` element that scales to its container
    (a viewBox, no width/height).  The SVG holds only the code's geometry, never the
    text of ``url``.  An address too long for any QR code gives an empty string."""
    import segno
    try:
        return str(_qr(url).svg_inline(scale=1, omitsize=True))
    except segno.DataOverflowError:
        return ""


def qr_text(url: str) -> str:
    """``url`` as a compact QR code for a terminal (two module rows per text line, light
    modules drawn as blocks, which reads on dark and light terminals alike)."""
    out = io.StringIO()
    _qr(url).terminal(out=out, compact=True)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.table.joining URL``, or ``-`` to read URL from standard
    input (keeps an address holding a token off the command line, which other users
    of the machine can see)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m companion.table.joining URL|-\n"
              "Prints URL's QR code for a phone's camera ('-': read URL from standard input).",
              file=sys.stderr)
        return 0 if args[:1] in (["-h"], ["--help"]) else 2
    url = sys.stdin.readline().strip() if args[0] == "-" else args[0]
    try:
        print(qr_text(url), end="")
    except Exception as e:          # noqa: BLE001 - a QR code is a convenience
        print(f"(no QR code: {type(e).__name__})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
