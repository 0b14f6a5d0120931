"""Final scoring: a pure function of the game's state and record.

Every VP is a line with its source (card, cell, rule).  The per-player table and
the lines are pandas DataFrames; :meth:`Score.to_json` gives the `score --json`
shape from docs/record-format.md.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Protocol, Sequence

if TYPE_CHECKING:        # imported where a table is made, not when the module is:
    import pandas as pd  # a page's kernel and every command start ~0.3 s sooner

from . import abilities as abl
from .abilitykinds import ability_unknowns, ability_kind
from ..core.errors import IllegalAction, MissingEntry, UnknownCardValues
from .modes import round_end_report
from .catalogue import OBJECTIVE_MEASURES, Card, Catalogue
from .state import State
from .station import LOCATION, Cell
from .vocabulary import Ability
from ..core.scoretable import LINE_COLUMNS as LINE_COLUMNS     # the tests' and pages' name
from ..core.scoretable import ScoreTable, Step, decide, number_ranks

#: the objective measures kept across what-if trials: ``(objective, player) -> measure``
Memo = dict[tuple[str, str], int]

class ScoredGame(Protocol):
    """What the scoring reads of a game (:class:`companion.ats.game.Game`)."""
    catalogue: Catalogue
    manual: list[dict[str, Any]]
    state: State

    def unsettled_advisors(self, state: State | None = None) -> dict[str, str]: ...

    def round_end_due(self, state: State | None = None) -> list[dict[str, Any]]: ...


CATEGORIES = ("during_game", "end_abilities", "empty_reactors", "credits", "objectives")
CREDITS_PER_VP = 3
#: the field a final scoring asks of a card or race tile whose abilities nobody typed:
#: its end-of-game (yellow box) abilities only, the rest left unknown (issue 50)
END_ABILITIES = "end abilities"
#: the tiebreak chain (B 6): most VP, then most locations without reactors, then most
#: credits left
CHAIN: tuple[Step, ...] = (("total", "vp"), ("locations", "locations"),
                           ("credits_left", "credits"))


#: the table's columns as a player reads them (issue 50: no raw key on a page or a
#: sheet); "locations" is the tiebreak's count, B 6: "the most locations in his Station
#: (excluding any Power Reactors)", the Main Reactor one of them (R: "Both types count as
#: Power Reactors")
SHOWN_COLUMNS = {"player": "player", "total": "total",
                 "during_game": "VP during the game", "end_abilities": "end-of-game abilities",
                 "empty_reactors": "empty reactors", "credits": "credits VP",
                 "objectives": "objectives", "locations": "locations (tiebreak: no reactor)",
                 "credits_left": "credits left", "rank": "rank"}
SHOWN_LINES = {"player": "player", "category": "for", "source": "source", "cell": "cell",
               "rule": "rule", "vp": "VP"}


def shown_table(t: pd.DataFrame) -> pd.DataFrame:
    """A final table (:attr:`Score.table`'s columns) as a page or a sheet shows it: the
    total after the name, the columns named in words (:data:`SHOWN_COLUMNS`)."""
    t = t[["player", "total"] + [c for c in t.columns if c not in ("player", "total")]]
    return t.rename(columns=SHOWN_COLUMNS)


class Score(ScoreTable):
    """The final (or so-far) table (:class:`companion.core.scoretable.ScoreTable`):
    ``decided_by`` is vp | locations | credits | shared (so far, if not final)."""

    CATEGORIES = CATEGORIES
    JSON_COLUMNS = (("locations", "locations"), ("credits", "credits_left"))

    def shown_table(self) -> pd.DataFrame:
        """:attr:`table` as a page or a sheet shows it (:func:`shown_table`)."""
        return shown_table(self.table)

    def shown_lines(self) -> pd.DataFrame:
        """:attr:`lines` as shown: a line with no cell (credits, objectives) has an empty
        cell, never "None"; the category and the columns in words."""
        lines = self.lines.assign(
            cell=["" if c is None else ", ".join(str(x) for x in c) for c in self.lines["cell"]],
            category=[SHOWN_COLUMNS.get(c, c) for c in self.lines["category"]])
        return lines.rename(columns=SHOWN_LINES)


def _line(player: str, category: str, source: str, cell: Cell | None, rule: str,
          vp: int) -> dict[str, Any]:
    return {"player": player, "category": category, "source": source,
            "cell": list(cell) if cell is not None else None, "rule": rule, "vp": int(vp)}


def score(game: ScoredGame, state: State | None = None, *, project: bool = False,
          partial: bool = False) -> Score:
    """The final table of ``game`` (or of ``state``, a state of that game).

    A game in progress scores its VP so far, unless ``project`` is set: then the
    end-of-game scoring is applied as if the game ended now, and what only the
    players can type (manual VP) or nobody has typed yet (unknown values)
    counts 0 with a line saying so, instead of raising.  ``partial``: the same for a
    finished game (the final table shown while a value is still to type:
    :func:`companion.ats.needs.missing_parts` names what those 0s stand for).
    """
    state = state if state is not None else game.state
    setup = state.setup
    final = state.finished
    project = project or partial
    lenient = project and (partial or not final)
    lines: list[dict[str, Any]] = []
    for p in setup.players:
        for l in state.players[p].ledger:
            when = "" if l.category == "track" else f"year {l.year} turn {l.turn}: "
            lines.append(_line(p, "during_game", l.source, l.cell, when + l.rule, l.vp))
    if final and not project:
        open_ = game.unsettled_advisors(state) if hasattr(game, "unsettled_advisors") else {}
        if open_:
            raise IllegalAction("advisor", "settle the advisors of the last round first: "
                                + ", ".join(f"'{k}' leans to {v} (bonus or decline)"
                                            for k, v in open_.items()))
        broken = round_end_report(game, state)
        if broken:
            raise IllegalAction("round-end", "a station breaks a rule; remove locations until it "
                                "is valid (B 5): " + "; ".join(b["message"] for b in broken))
    if final or project:
        manual = _ManualBook(game.manual)
        missing: list[str] = []
        for p in setup.players:
            lines += _end_of_game(game, state, p, manual, missing, lenient=lenient)
        lines += _objectives(game, state, manual, missing, lenient=lenient)
        if missing and not lenient:
            raise MissingEntry(missing)
    # per-player category sums in plain Python (pandas filters per cell cost ~8 ms)
    sums = {(p, c): 0 for p in setup.players for c in CATEGORIES}
    for line in lines:
        key = (line["player"], line["category"])
        if key in sums:
            sums[key] += line["vp"]
    rows = []
    for p in setup.players:
        ps = state.players[p]
        row: dict[str, Any] = {"player": p}
        for c in CATEGORIES:
            row[c] = int(sums[(p, c)])
        # the track never goes below 0: during_game is the track position
        row["during_game"] = ps.vp
        row["total"] = sum(row[c] for c in CATEGORIES)
        row["locations"] = len(ps.station.locations(reactors=False))
        row["credits_left"] = ps.credits
        rows.append(row)
    ranked, winners, decided, text = _rank(rows, final)
    if not final and hasattr(game, "round_end_due"):
        due = game.round_end_due(state)
        if due:      # B 5: "Before beginning the next round" the station is fixed
            text += ("\nRound end (rule: round-end): before the next round begins, remove "
                     "locations until each station is valid (B 5): "
                     + "; ".join(v["message"] for v in due))
    return Score(final, lines, ranked, winners, decided, text)


class _ManualBook:
    """The players' typed entries (record 'manual')."""

    def __init__(self, entries: Iterable[dict[str, Any]]) -> None:
        self.entries = list(entries)

    def find(self, source: str, player: str | None = None, at: Sequence[int] | None = None,
             any_player: bool = False) -> list[dict[str, Any]]:
        out = []
        for m in self.entries:
            if m["source"].lower() != source.lower():
                continue
            if not any_player and m.get("player") != player:
                continue
            if at is not None and m.get("at") is not None and list(m["at"]) != list(at):
                continue
            out.append(m)
        return out


#: the ``source`` of a manual entry that reveals, at the final table, the secret
#: objective of a race that holds one (Qualeen) when the setup did not record it (it
#: was drawn from the box, or the catalogue had no objective left): ``{"source":
#: SECRET, "player": p, "note": <objective name>, "vp": 0}``; without ``note``: the
#: player had no secret objective card (none was left)
SECRET = "secret objective"


def secret_holders(game: ScoredGame, state: State) -> list[str]:
    """The players whose race holds a secret objective (B FAQ: Qualeen)."""
    out = []
    for p in state.setup.players:
        r = state.setup.races.get(p)
        race = game.catalogue.get(r) if r else None
        if race is not None and race.extra.get("secret_objective"):
            out.append(p)
    return out


def secret_objectives(game: ScoredGame, state: State | None = None) -> dict[str, str | None]:
    """Every secret objective known so far: ``player -> objective name`` (None: the
    player said no card was left for it).  The setup's, else the one revealed at the
    final table (a manual entry :data:`SECRET`).  A holder missing here is asked
    (:func:`manual_requests` kind ``secret``)."""
    state = state if state is not None else game.state
    out: dict[str, str | None] = dict(state.setup.secret_objectives)
    for p in secret_holders(game, state):
        if p in out:
            continue
        for m in game.manual:
            if m.get("source") == SECRET and m.get("player") == p:
                out[p] = m.get("note") or None
    return out


def _in_play(game: ScoredGame, state: State) -> list[tuple[str, str | None]]:
    """The objectives to score: the public ones, then each secret one with its owner."""
    out: list[tuple[str, str | None]] = [(o, None) for o in state.setup.objectives]
    out += [(o, p) for p, o in secret_objectives(game, state).items() if o]
    return out


def _secret_missing(game: ScoredGame, state: State) -> list[str]:
    known = secret_objectives(game, state)
    return [p for p in secret_holders(game, state) if p not in known]


def _end_of_game(game: ScoredGame, state: State, p: str, manual: _ManualBook, missing: list[str], *,
                 lenient: bool = False, explain: bool = True) -> list[dict[str, Any]]:
    try:
        return _end_of_game_strict(game, state, p, manual, missing, explain=explain)
    except UnknownCardValues:
        if not lenient:
            raise
        # projection: score what is known, say what is not
        return _end_of_game_strict(game, state, p, manual, missing, skip_unknown=True,
                                   explain=explain)


def _end_of_game_strict(game: ScoredGame, state: State, p: str, manual: _ManualBook, missing: list[str],
                        skip_unknown: bool = False, explain: bool = True) -> list[dict[str, Any]]:
    shared: dict[str, Any] = {}          # station-wide counts, shared by this player's abilities
    ps = state.players[p]
    st = ps.station
    others = [state.players[o].station for o in state.setup.players if o != p]
    out = []
    # delayed abilities of built locations (row-major order for a stable table)
    for cell in sorted(c for c, pl in st.cells.items() if pl.kind == LOCATION):
        placed = st.cells[cell]
        card = game.catalogue[str(placed.card)]
        for ab in card.abilities or ():
            if ab.when != "end":
                continue
            if ability_kind(ab).typed:
                got = manual.find(card.name, p, at=list(cell))
                if not got:
                    missing.append(f"{p}: VP of '{card.name}' at {list(cell)}")
                    continue
                out.append(_line(p, "end_abilities", card.name, cell,
                                 "delayed ability, VP typed by the players", got[0]["vp"]))
                continue
            ctx = abl.Context(st, cell, ps.credits, state.year, card.name, others, final=True,
                              cache=shared)
            try:
                vp, why = abl.evaluate(ab, ctx) if explain else (abl.value(ab, ctx), "")
            except UnknownCardValues as e:
                if not skip_unknown:
                    raise
                vp, why = 0, f"not known yet: {e.detail}"
            out.append(_line(p, "end_abilities", card.name, cell, f"delayed ability: {why}", vp))
    # race
    race_name = state.setup.races.get(p)
    if race_name:
        race = game.catalogue[race_name]
        if race.abilities is None and not skip_unknown:
            raise UnknownCardValues(race.name, [END_ABILITIES],
                                    why="the race tile's scoring is needed")
        for ab in race.abilities or ():
            if ab.when != "end":
                continue
            if ability_kind(ab).typed:
                got = manual.find(race.name, p)
                if not got:
                    missing.append(f"{p}: VP of the race '{race.name}'")
                    continue
                out.append(_line(p, "end_abilities", race.name, None, "race, VP typed by the players",
                                 got[0]["vp"]))
                continue
            unknown = [u for u in _unknowns(ab)]
            if unknown:
                if skip_unknown:
                    continue
                raise UnknownCardValues(race.name, unknown, why="the race tile's scoring is needed")
            ctx = abl.Context(st, None, ps.credits, state.year, race.name, others, final=True,
                              cache=shared)
            vp, why = abl.evaluate(ab, ctx)
            out.append(_line(p, "end_abilities", race.name, None, f"race: {why}", vp))
    # reactors without cubes (the Main Reactor included)
    for cell in sorted(st.reactors()):
        if st.cells[cell].cubes == 0:
            out.append(_line(p, "empty_reactors", st.cells[cell].label, cell,
                             "+1 per reactor with no energy cubes (B 6)", 1))
    # credits
    vp = ps.credits // CREDITS_PER_VP
    out.append(_line(p, "credits", f"{ps.credits} credits", None,
                     "+1 per 3 credits left, rounded down (B 6; W)", vp))
    return out


def _unknowns(ab: Ability) -> list[str]:
    return ability_unknowns(ab)


def _measure(game: ScoredGame, state: State, obj: Card, p: str, memo: Memo | None = None) -> int:
    if memo is not None:
        key = (obj.name, p)
        if key not in memo:
            memo[key] = _measure(game, state, obj, p)
        return memo[key]
    ps = state.players[p]
    others = [state.players[o].station for o in state.setup.players if o != p]
    ctx = abl.Context(ps.station, None, ps.credits, state.year, obj.name, others, final=True)
    assert obj.measure is not None      # a most/least objective has its measure (catalogue)
    return abl.count(obj.measure, ctx)


def _claim(game: ScoredGame, state: State, obj: Card, memo: Memo | None = None,
           changed: str | None = None) -> tuple[list[str], dict[str, int]]:
    """The single claimant of a most/least objective ([] on a tie), and the measures.

    ``memo`` keeps the measures of players other than ``changed`` (the what-if
    views change one player's part of the state at a time)."""
    values = {p: _measure(game, state, obj, p, memo if p != changed else None)
              for p in state.setup.players}
    best = max(values.values()) if "most" in obj.extra else min(values.values())
    top = [p for p, v in values.items() if v == best]
    return (top if len(top) == 1 else []), values


def _objectives(game: ScoredGame, state: State, manual: _ManualBook, missing: list[str], *,
                lenient: bool = False, memo: Memo | None = None,
                changed: str | None = None) -> list[dict[str, Any]]:
    out = []
    for p in _secret_missing(game, state):
        if not lenient:
            race = state.setup.races.get(p)
            missing.append(f"which objective card is the secret objective of {p} ({race}), "
                           "or that none was left")
    for name, secret_owner in _in_play(game, state):
        obj = game.catalogue.get(name)
        if obj is None:
            missing.append(f"the objective '{name}' is not in the catalogue: type it on the "
                           "catalogue screen")
            continue
        label = f"{obj.name} (secret objective of {secret_owner})" if secret_owner else obj.name
        if "most" not in obj.extra and "least" not in obj.extra:
            got = manual.find(obj.name, any_player=True)
            if secret_owner:
                got = [m for m in got if m.get("player") in (secret_owner, None)]
            if not got:
                missing.append(f"who claimed the objective '{obj.name}' (or nobody)")
                continue
            claims = [m for m in got if m.get("player")]
            claimants = sorted({m["player"] for m in claims})
            if len(claimants) > 1 and not obj.extra.get("shared"):
                # B 6: "Each Objective can only be claimed by 1 player unless stated
                # otherwise. If 2 or more players are tied for any Objective, no bonus
                # is given."
                for p in claimants:
                    out.append(_line(p, "objectives", label, None,
                                     f"objective claimed by {' and '.join(claimants)}: a "
                                     "tie gives the bonus to nobody (B 6)", 0))
                continue
            for m in {m["player"]: m for m in claims}.values():   # one claim each (B 6)
                out.append(_line(m["player"], "objectives", label, None,
                                 "objective, claim typed by the players", m["vp"]))
            continue
        if obj.vp is None:
            if lenient:
                continue
            raise UnknownCardValues(obj.name, ["vp"], why="the objective is scored at the end")
        try:
            claim, values = _claim(game, state, obj, memo, changed)
        except UnknownCardValues:
            if lenient:
                continue
            raise
        shown = ", ".join(f"{p} {v}" for p, v in values.items())
        if not claim:
            continue  # a tie gives it to nobody (B 6)
        winner = claim[0]
        if secret_owner and winner != secret_owner:
            continue
        out.append(_line(winner, "objectives", label, None,
                         f"objective: {'most' if 'most' in obj.extra else 'least'} "
                         f"{_measured(obj)} ({shown}); a tie gives it to nobody", obj.vp))
    return out


def _measured(obj: Card) -> str:
    """What a most/least objective counts, in words: "locations in the station, reactors
    counted" (B 4: "Reactors count as locations but do not have a location type of their
    own"; the table's locations column is the tiebreak's, reactors not counted)."""
    spec = obj.extra.get("most", obj.extra.get("least")) or {}
    per = str(spec.get("per"))
    kinds = spec.get("types") or []
    if per == "station_location":
        return (f"{'/'.join(kinds)} locations in the station" if kinds else
                "locations in the station, reactors counted (B 4: \"Reactors count as "
                "locations\")")
    return OBJECTIVE_MEASURES.get(per, per.replace("_", " "))


def manual_requests(game: ScoredGame, state: State | None = None) -> list[dict[str, Any]]:
    """What the final scoring needs typed by the players, one request each:
    ``{"kind": "ability"|"race"|"objective", "source", "player"?, "at"?}``.
    The same entries :func:`score` reports as missing (MissingEntry)."""
    state = state if state is not None else game.state
    book = _ManualBook(game.manual)
    out: list[dict[str, Any]] = []
    for p in state.setup.players:
        st = state.players[p].station
        for cell in sorted(c for c, pl in st.cells.items() if pl.kind == LOCATION):
            card = game.catalogue.get(str(st.cells[cell].card))
            if card is None:
                continue
            for ab in card.abilities or ():
                if ab.when == "end" and ability_kind(ab).typed \
                        and not book.find(card.name, p, at=list(cell)):
                    out.append({"kind": "ability", "source": card.name, "player": p,
                                "at": list(cell)})
        race = game.catalogue.get(state.setup.races[p]) if p in state.setup.races else None
        if race is not None:
            for ab in race.abilities or ():
                if ab.when == "end" and ability_kind(ab).typed and not book.find(race.name, p):
                    out.append({"kind": "race", "source": race.name, "player": p})
    for p in _secret_missing(game, state):
        out.append({"kind": "secret", "source": SECRET, "player": p,
                    "race": state.setup.races.get(p)})
    for name, owner in _in_play(game, state):
        obj = game.catalogue.get(name)
        if obj is None or "most" in obj.extra or "least" in obj.extra:
            continue
        got = book.find(obj.name, any_player=True)
        if owner:
            got = [m for m in got if m.get("player") in (owner, None)]
        if not got:
            out.append({"kind": "objective", "source": obj.name,
                        **({"player": owner} if owner else {})})
    return out


def unknown_for_scoring(game: ScoredGame, state: State | None = None) -> list[dict[str, Any]]:
    """Every race, objective and built card whose printed values the final
    scoring needs and nobody has typed yet: ``{"card", "fields", "why"}``."""
    state = state if state is not None else game.state
    out: dict[str, dict[str, Any]] = {}

    def add(card: Card, fields: list[str], why: str) -> None:
        e = out.setdefault(card.name.lower(), {"card": card.name, "fields": [], "why": why})
        e["fields"] += [f for f in fields if f not in e["fields"]]

    for p, r in state.setup.races.items():
        race = game.catalogue[r]
        if race.abilities is None:
            add(race, [END_ABILITIES], "the race tile's scoring is needed")
        else:
            for i, ab in enumerate(race.abilities):
                if ab.when in ("end", None) and ability_unknowns(ab):
                    add(race, [f"ability {i + 1} {u}" for u in ability_unknowns(ab)],
                        "the race tile's scoring is needed")
    for name, _ in _in_play(game, state):
        obj = game.catalogue.get(name)
        if obj is None:
            continue
        if ("most" in obj.extra or "least" in obj.extra) and obj.vp is None:
            add(obj, ["vp"], "the objective is scored at the end")
    # a station laid from the table (issue 39): its cards were never built here, so no
    # build asked for their abilities; B 6 scores "all end-of-game abilities", which a
    # card whose abilities nobody typed may hold
    laid = bool(state.setup.options.get("laid"))
    for p in state.setup.players:
        st = state.players[p].station
        for cell, placed in sorted(st.cells.items()):
            if placed.kind != LOCATION:
                continue
            card = game.catalogue[str(placed.card)]
            if laid and card.abilities is None:
                add(card, [END_ABILITIES], "laid from the table: its end-of-game ability, "
                    "if it has one, is scored (B 6)")
            for i, ab in enumerate(card.abilities or ()):
                if ab.when == "end" and ability_unknowns(ab):
                    add(card, [f"ability {i + 1} {u}" for u in ability_unknowns(ab)],
                        "its end-of-game ability is scored")
    if not out:
        # what only the scoring itself finds (e.g. types an ability counts)
        try:
            manual = _ManualBook(game.manual)
            for p in state.setup.players:
                _end_of_game_strict(game, state, p, manual, [], explain=False)
            _objectives(game, state, manual, [])
        except UnknownCardValues as e:
            add(game.catalogue[e.card], e.fields, e.detail)
    return list(out.values())


def objective_claims(game: ScoredGame, state: State | None = None) -> pd.DataFrame:
    """Who claims each measurable objective now, with every player's measure."""
    import pandas as pd
    state = state if state is not None else game.state
    rows: list[dict[str, Any]] = []
    for name in state.setup.objectives:
        obj = game.catalogue[name]
        if "most" not in obj.extra and "least" not in obj.extra:
            rows.append({"objective": obj.name, "claimant": "(typed at the end)"})
            continue
        claim, values = _claim(game, state, obj)
        rows.append({"objective": obj.name, "claimant": claim[0] if claim else "nobody (tie)",
                     **values})
    return pd.DataFrame(rows)


def _rank(rows: list[dict[str, Any]], final: bool) -> tuple[
        list[dict[str, Any]], list[str], str, str]:
    """``rows`` ranked by the tiebreak chain :data:`CHAIN` (the base's
    :func:`~companion.core.scoretable.number_ranks`: players tied on every step share a
    place and keep their seat order); the winners, the step that decided, and the
    sentence."""
    ranked = number_ranks(rows, [c for c, _ in CHAIN])
    # which step decided the winner
    top, decided, _ = decide(ranked, CHAIN)
    winners = [r["player"] for r in top]
    verb = "wins" if final else "leads"
    if decided == "vp":
        text = f"{winners[0]} {verb} with {int(top[0]['total'])} VP."
    elif decided == "locations":
        text = (f"{winners[0]} {verb}: tied on VP, decided by the most locations without "
                f"reactors ({int(top[0]['locations'])}).")
    elif decided == "credits":
        text = (f"{winners[0]} {verb}: tied on VP and locations, decided by the most credits "
                f"left ({int(top[0]['credits_left'])}).")
    else:
        text = (f"{', '.join(winners)} {'share the victory' if final else 'share the lead'}: "
                "tied on VP, locations and credits.")
    if not final:
        text = "Game in progress. " + text
    return ranked, winners, decided, text


def project_player(game: ScoredGame, state: State, player: str, memo: Memo | None = None) -> dict[str, int]:
    """One player's categories if the game ended in ``state`` (no pandas: fast).

    Same rules as :func:`score` with ``project=True``; used by the what-if views.
    ``memo``: a dict kept across calls in which only ``player``'s part of the
    state differs (the other players' objective measures are reused).
    """
    manual = _ManualBook(game.manual)
    missing: list[str] = []
    lines = _end_of_game(game, state, player, manual, missing, lenient=True, explain=False)
    lines += [l for l in _objectives(game, state, manual, missing, lenient=True,
                                     memo=memo, changed=player)
              if l["player"] == player]
    out = {c: 0 for c in CATEGORIES}
    for l in lines:
        out[l["category"]] += l["vp"]
    out["during_game"] = state.players[player].vp
    out["total"] = sum(out[c] for c in CATEGORIES)
    return out
