"""Helpers for the Small Star Empires tests: small maps drawn as text, games on them.

``grid(text)``: one line per row ``r`` (from 0), tokens separated by spaces, the
token's position in the line is ``q`` (axial, so the drawing is skewed: hex
(q, r) touches (q+1, r), (q, r+1), (q-1, r+1) and their opposites).
Tokens: H1..H4 homeworld of seat n, P1..P3 planetary, Nr/Nb/Ng nebula, E empty,
W wormhole, B black hole, U unexplored, U:effect (known tile), '.' no system.
"""
from __future__ import annotations

from companion.sse import SseGame
from companion.sse.hexmap import HexMap, System

COL = {"r": "red", "b": "blue", "g": "green"}


def token(t: str) -> System | None:
    if t == ".":
        return None
    if t[0] == "H":
        return System("homeworld", home=int(t[1:]))
    if t[0] == "P":
        return System("planetary", planets=int(t[1:]))
    if t[0] == "N":
        return System("nebula", colour=COL[t[1]])
    if t == "E":
        return System("empty")
    if t == "W":
        return System("wormhole")
    if t == "B":
        return System("black_hole")
    if t == "U":
        return System("unexplored")
    raise ValueError(t)


def grid(text: str, name: str = "test") -> HexMap:
    systems = {}
    for r, line in enumerate(l for l in text.strip("\n").splitlines()):
        for q, t in enumerate(line.split()):
            s = token(t)
            if s is not None:
                systems[(q, r)] = s
    return HexMap(systems, name=name)


def game(text: str, players=("Ann", "Bob"), ships: int = 1, **setup) -> SseGame:
    m = grid(text)
    pieces = {"ships": ships}
    pieces.update(setup.pop("pieces", {}))
    return SseGame(book_or_custom({"players": list(players), "map": m.to_dict(),
                                   "pieces": pieces, **setup}))


def book_or_custom(setup: dict) -> dict:
    """``setup`` with ``options.pieces: custom`` only when its pieces are off the book
    (the tiny test setups: 1 ship, a few Cities), so a setup on the book is tested as
    the book's and the others test what they test.  An explicit ``options.pieces`` is
    kept."""
    from companion.sse.game import SseSetup
    opts = dict(setup.get("options") or {})
    if "pieces" in opts:
        return setup
    probe = SseSetup.from_dict({**setup, "options": {**opts, "pieces": "custom"}})
    if probe.off_book():
        return {**setup, "options": {**opts, "pieces": "custom"}}
    return setup


def move(g: SseGame, player: str, to, piece="city", ship: int = 0, **extra) -> dict:
    a = {"player": player, "ship": ship, "to": list(to)}
    if piece is not None:
        a["piece"] = piece
    a.update(extra)
    return g.push(a)


def rule_of(g: SseGame, action: dict) -> str | None:
    from companion.core.errors import IllegalAction
    try:
        g.check(action)
        return None
    except IllegalAction as e:
        return e.rule


def colonise(g: SseGame, at, owner: str, piece: str = "city") -> None:
    """Put a colony straight into the state (test setup for scoring, not a move)."""
    from companion.sse.game import Colony
    st = g.state
    s = st.map[tuple(at)]
    planets = s.planets if s.kind == "planetary" else 0
    colour = s.colour if s.kind == "nebula" else None
    st.colonies[tuple(at)] = Colony(owner, piece, -1, planets or 0, colour)
    ps = st.players[owner]
    if piece == "city":
        ps.cities -= 1
    else:
        ps.trade_stations -= 1


def started_page(tmp_path, text: str, map_name: str):
    """A dashboard page (no browser) whose Small Star Empires tab has started a game of
    Ann and Bob, one ship each, on the test map ``text`` saved as ``map_name``, through
    its setup form as the host does; returns the page's SSE driver."""
    from companion.sse.hexmap import save_user_map
    from companion.table.store import Store
    from companion.ui.app import App
    d = App(Store(tmp_path / "games.sqlite")).driver("sse")
    save_user_map(grid(text), map_name)
    tab = d.screen
    tab.show_setup()
    tab.setup_part.map_pick.value = map_name
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    tab.setup_part.custom_pieces.value = True
    tab.setup_part.ships.value = 1
    tab.start_game()
    return d
