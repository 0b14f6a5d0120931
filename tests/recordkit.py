"""Build complete, real game records through the public engine API.

Nothing here writes a record by hand: every record is the result of
``Game.push()``-ing actions one by one, so every record a test uses has been
checked by the rules exactly like a game at the table.

Typical use::

    from recordkit import new_game, play, build, reactor, discard

    game = new_game(["George", "Sandra"], cards=FIXTURES)
    play(game, {
        "George": [reactor([0, 1]), build("Fixture: x", [1, 0], energy_from=[[0, 0]]), None],
        "Sandra": [],                       # nothing planned: discards all game
    })
    game.score()

A *plan* is a list of actions for one player, one per turn slot, in order
(year 1 turn 1, year 1 turn 2, ...).  ``None`` is a discard.  When a plan runs
out, the player discards for the rest of the game (or until ``turns``).  The
actions are plain dicts without ``year``/``turn``/``player``; :func:`play`
fills those in.  ``"at": None`` (or leaving ``at`` out) means "the legal cell nearest
to the Main Reactor" (ties: lowest row, then column), which keeps background players short to write; the record still
stores the cell that was used.

``patient=True`` (per call) lets a player who cannot afford the planned build
(rule ``credits`` / ``reactor-credits``) discard this turn and try the same
action again next turn, so background players can be written as a shopping
list.  Any other illegal action fails at once.
"""
from __future__ import annotations

from typing import Iterable

from companion import Game, IllegalAction

#: a card that is discarded when a plan says nothing (a real shipped card name:
#: discarding it uses none of its printed numbers)
SPARE = "Garden"

RETRY_RULES = ("credits", "reactor-credits")


# ---------------------------------------------------------------------------
# action constructors
# ---------------------------------------------------------------------------
def build(card: str, at=None, *, energy_from=None, **extra) -> dict:
    a = {"do": "build", "card": card, "at": list(at) if at is not None else None}
    if energy_from is not None:
        a["energy_from"] = [list(c) for c in energy_from]
    a.update(extra)
    return a


def reactor(at=None, card: str = SPARE) -> dict:
    return {"do": "reactor", "card": card, "at": list(at) if at is not None else None}


def discard(card: str = SPARE) -> dict:
    return {"do": "discard", "card": card}


# ---------------------------------------------------------------------------
# games
# ---------------------------------------------------------------------------
def fixture_card(name: str, *, types: Iterable[str], cost: int, energy: int, vp: int,
                 max="none", abilities=(), notes: str | None = None) -> dict:
    """A clearly fake card definition for tests (its name must start 'Fixture: ')."""
    if not name.startswith("Fixture: "):
        raise ValueError("fixture cards are named 'Fixture: ...' so nobody mistakes them "
                         "for real cards")
    d = {"name": name, "types": list(types), "cost": cost, "energy": energy, "vp": vp,
         "max": max, "abilities": [dict(a) for a in abilities]}
    d["notes"] = notes or "test fixture: invented values, not a real card"
    return d


def fixture_objective(name: str, *, vp: int, most=None, least=None) -> dict:
    if not name.startswith("Fixture: "):
        raise ValueError("fixture objectives are named 'Fixture: ...'")
    d = {"name": name, "category": "objective", "types": None, "cost": None, "energy": None,
         "vp": vp, "max": None, "abilities": None,
         "notes": "test fixture: invented objective, not a real card"}
    if most is not None:
        d["most"] = dict(most)
    if least is not None:
        d["least"] = dict(least)
    return d


def new_game(players: list[str], *, cards: Iterable[dict] = (), objectives: Iterable[str] = (),
             mode: str = "standard", options: dict | None = None, catalogue=None,
             book_setup: bool = True, **setup) -> Game:
    """A new game (``book_setup=False``: a setup the books would not deal, e.g. the
    base rulebook's worked example, which names 2 of the 4 players' objectives)."""
    s = {"players": list(players), "mode": mode, "objectives": list(objectives),
         "options": dict(options or {}), **setup}
    return Game(s, cards=list(cards), catalogue=catalogue, book_setup=book_setup)


def slots(game: Game) -> list[tuple[int, int]]:
    """Every (year, turn) of the game, in order."""
    return [(y, t) for y in range(1, 5) for t in range(1, game.setup.turns_in_year(y) + 1)]


def _resolve(game: Game, player: str, planned: dict | None) -> dict:
    st = game.state
    a = {"year": st.year, "turn": st.turn, "player": player,
         **(planned if planned is not None else discard())}
    if a["do"] in ("build", "reactor") and a.get("at") is None:
        try:
            cells = (game.legal_cells(player, do="reactor") if a["do"] == "reactor"
                     else game.legal_cells(player, a["card"]))
        except IllegalAction:
            cells = []          # push() raises the real error (unknown card, values)
        if not cells:
            # nowhere legal: any empty neighbour, so push() names the rule that stops it
            cells = game.state.station(player).frontier()
        # nearest to the Main Reactor first: compact stations, still deterministic
        a["at"] = list(min(cells, key=lambda c: (abs(c[0]) + abs(c[1]), c)))
    return a


def play(game: Game, plans: dict[str, list], *, turns: int | None = None,
         patient: bool | Iterable[str] = False) -> Game:
    """Push the plans turn by turn (seat order within a turn).

    ``turns``: stop after that many turn slots from the current one (default:
    to the end of the game).  ``patient``: True, or the players who may wait
    for credits (see the module doc).  Raises AssertionError if a patient plan
    could not be completed in the game.
    """
    queues = {p: list(plans.get(p, [])) for p in game.setup.players}
    unknown = set(plans) - set(queues)
    if unknown:
        raise ValueError(f"not players of this game: {sorted(unknown)}")
    waits = (set(game.setup.players) if patient is True
             else set(patient) if patient else set())
    done = 0
    while not game.state.finished and (turns is None or done < turns):
        for p in game.setup.players:
            if p in game.state.acted:
                continue
            planned = queues[p][0] if queues[p] else None
            action = _resolve(game, p, planned)
            try:
                game.push(action)
            except IllegalAction as e:
                if p in waits and e.rule in RETRY_RULES:
                    game.push(_resolve(game, p, None))
                    continue
                raise
            if queues[p]:
                queues[p].pop(0)
        done += 1
    left = {p: q for p, q in queues.items() if q and p in waits and turns is None}
    if left:
        raise AssertionError(f"plans not completed by the end of the game: {left}")
    return game


def play_record(players: list[str], plans: dict[str, list], **kw) -> dict:
    """Shortcut: a new game, the plans played to the end, its record."""
    play_kw = {k: kw.pop(k) for k in ("turns", "patient") if k in kw}
    game = new_game(players, **kw)
    play(game, plans, **play_kw)
    return game.to_record()


def play_to_the_end(g, first: dict | None = None):
    """Play an Among the Stars game to its end: ``first`` (an action) once, at its player's
    first turn to act, every other action a discard of Garden (named only, never valued).
    Returns the game (changed in place)."""
    pending = first
    while not g.finished:
        for p in list(g.state.waiting):
            if pending is not None and p == pending["player"]:
                g.push(dict(pending))
                pending = None
            else:
                g.push({"player": p, "do": "discard", "card": "Garden"})
    return g
