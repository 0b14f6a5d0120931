"""Among the Stars: resolving the effects of the actions (B Playing Order; R 5).

A build's own effects (printed VP, the abilities that read only its owner's
station) apply at once, or at the player's step 4 with the timing rules; effects
that touch other players (School of Alien Cultures, spaceships, abilities that
count the other stations, a Conflict's typed effects) wait in ``state.pending``
until everyone has acted, then resolve by VP, then credits, then a random order
drawn from the game's seed and stored in the record (:func:`resolution_order`).
"""
from __future__ import annotations

from typing import Any

from . import abilities as abl
from .abilitykinds import NO_KIND, ability_kind
from ..core import chance
from ..core.errors import IllegalAction
from .catalogue import Catalogue
from .spaceships import put_ship
from .state import Pending, State, gain


def resolution_order(state: State, a: dict[str, Any], strict: bool) -> list[str]:
    """The order in which the turn's waiting effects resolve: the timing rules' order;
    else most VP, then most credits, then (owners tied on both) the record's
    ``resolve_order``, or when it is entered, an order drawn from the game's seed and
    the turn (``chance.rng(seed, "resolve-order", year, turn)``) and stored in ``a``."""
    owners = list(dict.fromkeys(p.owner for p in state.pending))
    if state.turn_order:              # timing rules: the order announced this turn
        return [p for p in state.turn_order if p in owners]
    key = {o: (state.players[o].vp, state.players[o].credits) for o in owners}
    tied = len(set(key.values())) < len(owners)
    if not tied:
        a.pop("resolve_order", None)
        return sorted(owners, key=lambda o: key[o], reverse=True)
    given = a.get("resolve_order")
    if given is not None:
        if not (isinstance(given, list) and all(isinstance(x, str) for x in given)
                and sorted(given) == sorted(owners)):
            raise IllegalAction("resolve-order", f"resolve_order must list {', '.join(owners)}",
                                action=a)
        for x, y in zip(given, given[1:]):
            if key[x] < key[y]:
                raise IllegalAction("resolve-order", f"{y} has more VP/credits than {x} and "
                                    "resolves first", action=a)
        return list(given)
    if strict:
        raise IllegalAction("resolve-order", f"{', '.join(owners)} tie on VP and credits: the "
                            "record must store the random order used (resolve_order)", action=a)
    shuffled = owners[:]
    chance.rng(state.setup.draw_seed, "resolve-order", state.year, state.turn).shuffle(shuffled)
    order = sorted(shuffled, key=lambda o: key[o], reverse=True)   # stable: random within ties
    a["resolve_order"] = order
    return order


def resolve_all(catalogue: Catalogue, state: State, pending: list[Pending],
                strict: bool = True) -> None:
    for p in list(pending):
        resolve(catalogue, state, p, strict)


def own_effects(catalogue: Catalogue, state: State, p: Pending) -> None:
    """A build's effects on its owner's own station and VP: spaceships removed and
    put next to reactors, then the printed VP, then the immediate abilities that
    read only the owner's station (B 4; the timing rules' step 4, R 5)."""
    card = catalogue[p.card]
    ps = state.players[p.owner]
    station = ps.station
    d = p.data
    for c in d.get("spaceships_removed") or ():
        station.spaceships.discard(tuple(c))
    put = sum(1 for c in d.get("reactor_spaceships") or ()
              if put_ship(state, p.owner, tuple(c), p))
    gain(state, p.owner, card.known("vp"), "printed", card.name, p.cell,
         f"printed VP of '{card.name}'", p.index)
    for ab in card.abilities or ():
        kind = ability_kind(ab)
        if ab.when != "immediate" or (kind.evaluate is None and not kind.typed) \
                or ab.reads_other_stations:
            continue        # resolved elsewhere (the kind's ``resolve``), or after everyone
        if kind.typed:
            gain(state, p.owner, d["manual_vp"], "manual", card.name, p.cell,
                 "ability, VP typed by the players", p.index)
        else:
            ctx = abl.Context(station, p.cell, ps.credits, state.year, card.name,
                              extra={"reactor_spaceship": put})
            vp, why = abl.evaluate(ab, ctx)
            gain(state, p.owner, vp, "ability", card.name, p.cell, why, p.index)


def resolve(catalogue: Catalogue, state: State, p: Pending, strict: bool = True) -> None:
    """Effects that touch other players, after everyone's own action (B Playing Order).
    ``strict`` (a stored record replayed): a spaceship whose space is no longer empty
    is lost as before, instead of refusing the entry (:func:`put_ship`)."""
    ab = p.data
    owner = state.players[p.owner]
    if p.kind == "choice":
        choices = p.choices
        pay, lose = ab.need("pay", p.card), ab.need("lose", p.card)
        for other in state.setup.players:
            if other == p.owner:
                continue
            ops = state.players[other]
            if choices.get(other) == "pay" and ops.credits >= pay:
                ops.credits -= pay
            else:
                why = ("chose to lose VP" if choices.get(other) == "lose"
                       else "could not pay, so loses VP")
                gain(state, other, -lose, "interaction", p.card, p.cell,
                     f"{p.owner}'s '{p.card}': {why}", p.index)
    elif p.kind == "conflict":
        for who, n in (p.choices.get("vp") or {}).items():
            gain(state, who, n, "interaction", p.card, None,
                 f"{p.owner}'s Conflict '{p.card}' (typed at the table)", p.index)
        for who, n in (p.choices.get("credits") or {}).items():
            ops = state.players[who]
            ops.credits = max(0, ops.credits + n)
        for conflict_ab in ab.values():
            if ability_kind(conflict_ab) is not NO_KIND and ability_kind(conflict_ab).evaluate is not None:
                others = [state.players[o].station for o in state.setup.players if o != p.owner]
                ctx = abl.Context(owner.station, None, owner.credits, state.year, p.card, others)
                vp, why = abl.evaluate(conflict_ab, ctx)
                gain(state, p.owner, vp, "interaction", p.card, None, why, p.index)
    elif p.kind == "spaceships":
        for who, at in ab["at"]:
            put_ship(state, who, tuple(at), p, strict)
    elif p.kind == "own":
        own_effects(catalogue, state, p)
    elif p.kind == "gain":
        gain(state, p.owner, ab["vp"], ab["category"], p.card, p.cell, ab["rule"],
             p.index)
    else:
        others = [state.players[o].station for o in state.setup.players if o != p.owner]
        ctx = abl.Context(owner.station, p.cell, owner.credits, state.year, p.card, others)
        vp, why = abl.evaluate(ab, ctx)
        gain(state, p.owner, vp, "ability", p.card, p.cell, why, p.index)


def settle_own(catalogue: Catalogue, state: State, player: str) -> None:
    """For a what-if trial whose turn does not end: the VP ``player``'s own
    action gives, which the timing rules put on the track only at step 4 (R 5),
    are resolved now so the trial shows them."""
    own = [p for p in state.pending if p.owner == player and p.kind in ("own", "gain")]
    if own:
        ids = {id(p) for p in own}
        state.pending = [p for p in state.pending if id(p) not in ids]
        for p in own:
            resolve(catalogue, state, p)


def pending_words(state: State, viewer: str | None = None) -> list[str]:
    """The effects that wait for the end of this turn (B Playing Order: effects that touch
    other players are "carried out after all other players' actions are completed"), in
    words, for the screen (issue 37: "Every pending effect is shown where the player
    looks").  A pay-or-lose choice is secret until it resolves (B FAQ, School of Alien
    Cultures: "all the other players may secretly put a credit token in their hand. They
    all reveal their hands at the same time"): it is named only for ``viewer`` (the
    player whose own page shows the words; None: the host's page, the table view), the
    others' are "chosen in secret" (issue 50).  A query: nothing changes."""
    out: list[str] = []
    for p in state.pending:
        if p.kind == "choice":
            ab = p.data
            pay, lose = getattr(ab, "pay", None), getattr(ab, "lose", None)
            for other in state.setup.players:
                if other == p.owner:
                    continue
                said = p.choices.get(other)
                if said is not None and other != viewer:
                    out.append(f"{other}: pays {pay} credit{'' if pay == 1 else 's'} or loses {lose} VP "
                               f"({p.owner}'s {p.card}), chosen in secret, revealed at the "
                               "end of this turn")
                    continue
                if said == "pay" and pay is not None:
                    what = f"pays {pay} credit{'' if pay == 1 else 's'}"
                    if state.players[other].credits < pay:
                        what += f" (has {state.players[other].credits}: loses {lose} VP instead)"
                elif said == "lose" and lose is not None:
                    what = f"loses {lose} VP"
                else:
                    what = f"pays {pay} credit(s) or loses {lose} VP"
                out.append(f"{other}: {what} ({p.owner}'s {p.card}) at the end of this turn")
        elif p.kind == "spaceships":
            out.append(f"{p.owner}'s {p.card}: its spaceships go into place at the end of "
                       "this turn")
        elif p.kind == "conflict":
            out.append(f"{p.owner}'s Conflict {p.card}: its effects at the end of this turn")
        elif p.kind == "ability":
            out.append(f"{p.owner}'s {p.card}: its VP (counted on the other stations) at the "
                       "end of this turn")
        elif p.kind in ("own", "gain"):
            out.append(f"{p.owner}'s {p.card}: its VP and effects at {p.owner}'s step of the "
                       "end of this turn (timing rules)")
    return out
