"""The players' typed final-scoring entries (the record's ``manual``), checked before
anything is stored (issue 23: every write checked): what :meth:`Game.check_manual
<companion.ats.game.Game.check_manual>` and :meth:`Game.check_secret_entries
<companion.ats.game.Game.check_secret_entries>` ask.  Queries: nothing changes.

The checks read the game through :class:`ManualGame` (what the final scoring reads, and
the setup), so this module does not import :mod:`companion.ats.game`.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable, Protocol

from . import scoring
from ..core.errors import IllegalAction, RecordError
from .record import validate_manual
from .setup import Setup


class ManualGame(scoring.ScoredGame, Protocol):
    """What the checks read of a game (:class:`companion.ats.game.Game`)."""
    setup: Setup


def check_entries(game: ManualGame, entries: Iterable[Any]) -> None:
    """Refuse typed final-scoring entries (record ``manual``) the engine would not take,
    before anything is stored (a query: nothing changes).  Each entry has the record's
    shape (``source``, ``player``, ``vp`` a whole number within the record's limits,
    ``at``, ``note``); its player is one of this game's (a secret objective names its
    holder); once the game is over, it answers something the final scoring asks for
    (:func:`scoring.manual_requests`, re-entering a value already typed included).
    A secret objective (:data:`scoring.SECRET`) is never a card face up nor another
    player's secret one (:func:`check_secret`, rule ``objectives``).
    One objective, one claim (:func:`check_claims`, rule ``claim``).
    Raises :class:`IllegalAction`: ``malformed``, ``wrong-player``, ``objectives``,
    ``claim`` or ``manual-vp``."""
    entries = list(entries)
    players = list(game.setup.players)
    for i, m in enumerate(entries):
        try:
            validate_manual(m, i)
        except RecordError as e:
            raise IllegalAction("malformed", f"final-scoring entry: {e}") from None
        note = m.get("note")
        if note is not None and not (isinstance(note, str) and 0 < len(note) <= 200):
            raise IllegalAction("malformed", f"final-scoring entry {i + 1}: 'note' must "
                                "name the objective card (at most 200 characters)")
        who = m.get("player")
        if who is not None and who not in players:
            raise IllegalAction("wrong-player", f"final-scoring entry for '{who}': no such "
                                "player in this game (players: " + ", ".join(players) + ")")
        if m["source"] == scoring.SECRET and who is None:
            raise IllegalAction("malformed", "a secret objective entry names the player "
                                "whose race holds it")
    check_secret(game, entries)
    check_claims(game, entries)
    if not game.state.finished or not entries:
        return
    # what the final scoring asks for when these entries' own sources are not typed yet
    # (a value typed again replaces the earlier one; a revealed secret objective is
    # asked for at once)
    secret = scoring.SECRET
    sources = {m["source"].lower() for m in entries if m["source"] != secret}
    holders = {m.get("player") for m in entries if m["source"] == secret}
    view = copy.copy(game)
    view.manual = [m for m in game.manual
                   if (m.get("source") == secret and m.get("player") not in holders)
                   or (m.get("source") != secret
                       and str(m.get("source", "")).lower() not in sources)]
    asked = scoring.manual_requests(view)             # the secret objectives asked
    revealed = [m for m in entries if m["source"] == secret]
    if revealed:                                       # and what the revealed ones ask
        view.manual = view.manual + revealed
        asked += scoring.manual_requests(view)
    for m in entries:
        if not any(_answers(m, r) for r in asked):
            where = f" at {m['at']}" if m.get("at") is not None else ""
            who = f" of {m['player']}" if m.get("player") else ""
            raise IllegalAction("manual-vp", f"the final scoring asks for no entry "
                                f"'{m['source']}'{who}{where}")


def check_secret(game: ManualGame, entries: Iterable[dict[str, Any]]) -> None:
    """Refuse a secret objective entry (:data:`scoring.SECRET`, its ``note`` the card's
    name) that names, case-insensitively, an objective face up (``setup.objectives``)
    or another player's secret objective (the setup's, this game's typed entries, or
    another of ``entries``): B 3 puts the drawn objectives "face up on the table";
    the secret one is another card, and each card is one card.  Raises
    :class:`IllegalAction` ``objectives`` (the code of the setup's same check,
    :func:`~companion.ats.setup.book_setup_problems`).  A query: nothing changes."""
    entries = list(entries)
    face_up = {o.lower(): o for o in game.setup.objectives}
    for m in entries:
        note = m.get("note")
        if m.get("source") != scoring.SECRET or not isinstance(note, str) or not note:
            continue
        who = m.get("player")
        if note.lower() in face_up:
            raise IllegalAction("objectives", f"{who}'s secret objective '{note}' is one "
                                "of the objectives face up (B 3: \"Put these cards face up "
                                "on the table\"; the secret one is another card): choose "
                                f"the card {who} holds")
        others: dict[str, str] = {p: o for p, o in game.setup.secret_objectives.items()
                                  if p != who}
        for other in list(game.manual) + entries:
            q, o = other.get("player"), other.get("note")
            if (other.get("source") == scoring.SECRET and q != who and isinstance(q, str)
                    and isinstance(o, str) and o and q not in game.setup.secret_objectives):
                others[q] = o
        taken = next((q for q, o in others.items() if o.lower() == note.lower()), None)
        if taken is not None:
            raise IllegalAction("objectives", f"{who}'s secret objective '{note}' is "
                                f"{taken}'s secret objective already: each objective card "
                                "is one card (B 3: \"Put these cards face up on the "
                                "table\"; a secret one is another card)")


def check_claims(game: ManualGame, entries: Iterable[dict[str, Any]]) -> None:
    """Refuse entries that claim one objective judged at the table twice: B 6: "Each
    Objective can only be claimed by 1 player unless stated otherwise".  Among
    ``entries`` (one batch typed together, or a record's whole ``manual``), an objective
    (a catalogue objective, or a name the setup puts in play) has at most one entry per
    player, and an entry "nobody claimed it" (no ``player``) stands alone.  Two
    different players are accepted: B 6 "If 2 or more players are tied for any
    Objective, no bonus is given" (the final scoring gives each 0, as for a tie on a
    measured objective).  An entry typed later replaces an earlier one (the store's
    merge), so only entries given together are compared.  Raises
    :class:`IllegalAction` ``claim``.  A query: nothing changes."""
    names = {o.lower() for o in game.setup.objectives}
    names |= {o.lower() for o in game.setup.secret_objectives.values() if o}
    seen: dict[str, list[Any]] = {}
    shown: dict[str, str] = {}
    for m in entries:
        source = m.get("source")
        if not isinstance(source, str) or source == scoring.SECRET:
            continue
        card = game.catalogue.get(source)
        if not ((card is not None and card.category == "objective")
                or source.lower() in names):
            continue
        key = source.lower()
        shown.setdefault(key, card.name if card is not None else source)
        seen.setdefault(key, []).append(m.get("player"))
    for key, who in seen.items():
        name = shown[key]
        twice = next((p for p in who if p is not None and who.count(p) > 1), None)
        if twice is not None:
            raise IllegalAction("claim", f"the objective '{name}' is claimed by {twice} "
                                "twice: one entry per player (B 6: \"Each Objective can "
                                "only be claimed by 1 player unless stated otherwise\")")
        claimants = sorted({p for p in who if p is not None})
        if None in who and claimants:
            raise IllegalAction("claim", f"the objective '{name}' is typed both as claimed "
                                f"by {' and '.join(claimants)} and as claimed by nobody: "
                                "choose one (B 6: \"Each Objective can only be claimed by "
                                "1 player unless stated otherwise\")")


def _answers(m: dict[str, Any], req: dict[str, Any]) -> bool:
    """Whether manual entry ``m`` answers the final scoring's request ``req``."""
    if req["kind"] == "secret":
        return bool(m["source"] == req["source"] and m.get("player") == req["player"])
    if m["source"] == scoring.SECRET or m["source"].lower() != req["source"].lower():
        return False
    if req["kind"] == "objective":             # claimed by a player (its owner) or nobody
        return req.get("player") is None or m.get("player") in (req["player"], None)
    if m.get("player") != req.get("player"):
        return False
    return req["kind"] != "ability" or m.get("at") is None or list(m["at"]) == list(req["at"])
