"""Small Star Empires scoring: a pure function of a game's state.

During the game the score track holds the planets (1 VP per planet when a
planetary system is colonised) and the immediate VP of Unexplored System
tiles.  At the end (S Scoring) each player adds:

* nebulae: per colour, 1/2/3 nebulae -> 2/5/8 VP (epic mode: the players' table);
  a Chromatic Nebula joins the colour that scores best, a colour set never
  exceeding 3 (6 in epic mode, the table's width);
* trade stations: +1 per opponent system next to each Trade Station (an
  Abandoned Trade Station counts as one);
* territory: +3 to every player tied for the largest connected territory;
* Hollana Federation (+3 for the most adjacent systems, 2 each if tied),
  Tennar Union (+2 to each player with an adjacent system), Open Borders
  (+2 per City received).

Tiebreaks: most Cities left, then most Trade Stations left, then most planets
controlled, then a shared victory.  ``decided_by`` names the step.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:        # imported where a table is made, not when the module is:
    import pandas as pd  # a page's kernel and every command start ~0.3 s sooner

from ..core.errors import MissingEntry
from ..core.scoretable import LINE_COLUMNS as LINE_COLUMNS     # the tests' and pages' name
from ..core.scoretable import ScoreTable, Step, decide, number_ranks
from . import hexmap as hm
from .hexmap import Hex
from .record import FORMAT
from .rules import NEBULA_TABLE
from .setup import SseSetup
from .state import State

DURING = ("planets", "exploration")
END = ("nebulae", "trade_stations", "territory", "hollana", "tennar", "open_borders")
CATEGORIES = DURING + END
TERRITORY_VP = 3
HOLLANA_VP, HOLLANA_TIED_VP = 3, 2
TENNAR_VP = 2
OPEN_BORDERS_VP = 2
DECIDED = ("vp", "cities_left", "trade_stations_left", "planets", "shared")
CATEGORY_NAMES = {"planets": "planets", "exploration": "exploration", "nebulae": "nebulae",
                  "trade_stations": "trade stations", "territory": "largest territory",
                  "hollana": "Hollana Federation", "tennar": "Tennar Union",
                  "open_borders": "Open Borders"}
#: the final table's columns in words (the categories, then the tiebreak columns)
SHOWN_COLUMNS = {**CATEGORY_NAMES, "cities_left": "Cities left",
                 "trade_stations_left": "Trade St. left",
                 "planets_controlled": "planets controlled",
                 "largest_territory": "largest territory size"}
SHOWN_LINES = {"player": "player", "category": "for", "source": "source", "cell": "system",
               "rule": "rule", "vp": "VP"}


class ScoredGame(Protocol):
    """What the scoring reads of a game (:class:`~companion.sse.game.SseGame`)."""
    setup: SseSetup
    manual: list[dict[str, Any]]
    state: State


class Score(ScoreTable):
    """The table of a game (:class:`companion.core.scoretable.ScoreTable`): ``decided_by``
    is vp | cities_left | trade_stations_left | planets | shared; ``projected``: a game in
    progress scored as if it ended now."""

    CATEGORIES = CATEGORIES
    JSON_COLUMNS = (("cities_left", "cities_left"),
                    ("trade_stations_left", "trade_stations_left"),
                    ("planets", "planets_controlled"), ("largest_territory", "largest_territory"))

    def __init__(self, final: bool, projected: bool, line_rows: list[dict[str, Any]],
                 rows: list[dict[str, Any]], winners: list[str], decided_by: str,
                 explanation: str) -> None:
        super().__init__(final, line_rows, rows, winners, decided_by, explanation)
        self.projected = projected

    def _repr_more(self) -> str:
        return f"projected={self.projected!r}, "

    def json_head(self) -> dict[str, Any]:
        return {"format": FORMAT}

    def shown_table(self, st: "State | None" = None) -> pd.DataFrame:
        """:attr:`table` as a page or a score sheet shows it: with the game's state, only
        the categories in play (:func:`shown_table`); the columns in words (issue 50: the
        score sheet printed ``trade_stations_left``)."""
        t = shown_table(self, st) if st is not None else self.table[
            ["player", "total"] + [c for c in self.table.columns if c not in ("player", "total")]]
        return t.rename(columns=SHOWN_COLUMNS)

    def shown_lines(self) -> pd.DataFrame:
        """:attr:`lines` as shown: an empty cell for a line with none (never "None"), the
        category and the columns in words."""
        lines = self.lines.assign(
            cell=["" if c is None else ", ".join(str(x) for x in c) for c in self.lines["cell"]],
            category=[CATEGORY_NAMES.get(c, c) for c in self.lines["category"]])
        return lines.rename(columns=SHOWN_LINES)


def _line(player: str, category: str, source: str, cell: Hex | None, rule: str,
          vp: int) -> dict[str, Any]:
    return {"player": player, "category": category, "source": source,
            "cell": list(cell) if cell is not None else None, "rule": rule, "vp": int(vp)}


def nebula_table(game: ScoredGame) -> list[int] | None:
    setup = game.setup
    if setup.mode != "epic":
        return list(NEBULA_TABLE)
    if setup.nebula_table:
        return list(setup.nebula_table)
    for m in game.manual:
        if m.get("source") == "nebula_table":
            return list(m["values"])
    return None


def score(game: ScoredGame, state: State | None = None, *, project: bool = False) -> Score:
    """The table of ``game`` (or of ``state``).  A game in progress scores the track so far,
    unless ``project``: then the end scoring is applied as if the game ended now."""
    st = state if state is not None else game.state
    final = st.finished
    lines: list[dict[str, Any]] = []
    for p in st.setup.players:
        for l in st.players[p].ledger:
            lines.append(_line(p, l.category, l.source, l.at, l.rule, l.vp))
    extra: dict[str, dict[str, int]] = {p: {"largest_territory": 0} for p in st.setup.players}
    if final or project:
        table = nebula_table(game)
        if table is None:
            if final and not project:
                raise MissingEntry(["the epic nebula table (VP for 1 to 6 nebulae of a colour; "
                                    "not in our copy of the book: read it from yours)"])
        lines += end_lines(st, table, extra)
    return _table(st, lines, extra, final, project)


def end_lines(st: State, table: list[int] | None,
              extra: dict[str, dict[str, int]] | None = None) -> list[dict[str, Any]]:
    """Every end-of-game VP line for the state ``st`` (no pandas: used by the what-if)."""
    extra = extra if extra is not None else {p: {} for p in st.setup.players}
    out: list[dict[str, Any]] = []
    for p in st.setup.players:
        out += _nebulae(st, p, table)
        out += _trade_stations(st, p)
        if st.players[p].received:
            n = st.players[p].received
            out.append(_line(p, "open_borders", "Open Borders", None,
                             f"{n} Cit{'ies' if n > 1 else 'y'} received from players passing",
                             OPEN_BORDERS_VP * n))
    out += _territory(st, extra)
    out += _hollana(st)
    out += _tennar(st)
    return out


def _nebulae(st: State, p: str, table: list[int] | None) -> list[dict[str, Any]]:
    counts = {c: 0 for c in hm.COLOURS}
    wild = 0
    for h, c in st.colonies.items():
        if c.owner != p or c.colour is None:
            continue
        if c.colour == "chromatic":
            wild += 1
        else:
            counts[c.colour] += 1
    if not wild and not any(counts.values()):
        return []
    if table is None:
        return [_line(p, "nebulae", "nebulae", None, "epic nebula table not typed yet: counted 0",
                      0)]
    cap = len(table)

    def vp(n: int) -> int:
        return table[min(n, cap) - 1] if n else 0
    best: int | None = None
    best_assign: tuple[str, ...] = ()
    for assign in itertools.product(hm.COLOURS, repeat=wild):
        c2 = dict(counts)
        for col in assign:
            c2[col] += 1
        if any(c2[col] > cap for col in assign):
            continue
        total = sum(vp(n) for n in c2.values())
        if best is None or total > best:
            best, best_assign = total, assign
    if best is None:            # more wild nebulae than room: the extra ones score nothing
        best_assign = ()
    final = dict(counts)
    for col in best_assign:
        final[col] += 1
    out = []
    for col in hm.COLOURS:
        n = final[col]
        if not n:
            continue
        w = best_assign.count(col)
        rule = f"{n} {col} nebula{'e' if n > 1 else ''} -> {vp(n)} VP"
        if w:
            rule += f" (with {w} Chromatic Nebula{'e' if w > 1 else ''} counted {col})"
        out.append(_line(p, "nebulae", f"{col} nebulae", None, rule, vp(n)))
    return out


def _trade_stations(st: State, p: str) -> list[dict[str, Any]]:
    out = []
    for h, c in sorted(st.colonies.items()):
        if c.owner != p or not c.counts_as_trade_station:
            continue
        opp = [n for n in hm.neighbours(h) if st.controller(n) not in (None, p)]
        what = "Abandoned Trade Station" if c.piece == "city" else "Trade Station"
        out.append(_line(p, "trade_stations", what, h,
                         f"{len(opp)} adjacent opponent system{'s' if len(opp) != 1 else ''}",
                         len(opp)))
    return out


def territories(st: State, p: str) -> list[set[Hex]]:
    """``p``'s connected territories (homeworld included), largest first."""
    own = st.controlled(p)
    seen: set[Hex] = set()
    groups = []
    for h in sorted(own):
        if h in seen:
            continue
        group, todo = set(), [h]
        while todo:
            x = todo.pop()
            if x in group:
                continue
            group.add(x)
            todo.extend(n for n in hm.neighbours(x) if n in own and n not in group)
        seen |= group
        groups.append(group)
    return sorted(groups, key=len, reverse=True)


def _territory(st: State, extra: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    sizes = {}
    for p in st.setup.players:
        t = territories(st, p)
        sizes[p] = len(t[0]) if t else 0
        extra.setdefault(p, {})["largest_territory"] = sizes[p]
    best = max(sizes.values())
    if best == 0:
        return []
    tied = [p for p in st.setup.players if sizes[p] == best]
    out = []
    for p in tied:
        rule = f"largest territory: {best} connected systems"
        if len(tied) > 1:
            rule += (f" (tied with {', '.join(x for x in tied if x != p)}: every tied player "
                     f"scores {TERRITORY_VP})")
        out.append(_line(p, "territory", "largest territory", None, rule, TERRITORY_VP))
    return out


def _adjacent_counts(st: State, h: Hex) -> dict[str, int]:
    counts = {p: 0 for p in st.setup.players}
    for n in hm.neighbours(h):
        o = st.controller(n)
        if o is not None:
            counts[o] += 1
    return counts


def _hollana(st: State) -> list[dict[str, Any]]:
    out = []
    for h, rv in sorted(st.revealed.items()):
        if rv["effect"] != "hollana_federation":
            continue
        counts = _adjacent_counts(st, h)
        best = max(counts.values())
        if best == 0:
            continue
        tied = [p for p, n in counts.items() if n == best]
        vp = HOLLANA_VP if len(tied) == 1 else HOLLANA_TIED_VP
        for p in tied:
            rule = (f"most systems next to the Hollana Federation ({best})" if len(tied) == 1 else
                    f"tied for the most systems next to the Hollana Federation ({best} each)")
            out.append(_line(p, "hollana", "Hollana Federation", h, rule, vp))
    return out


def _tennar(st: State) -> list[dict[str, Any]]:
    out = []
    for h, rv in sorted(st.revealed.items()):
        if rv["effect"] != "tennar_union":
            continue
        for p, n in _adjacent_counts(st, h).items():
            if n:
                out.append(_line(p, "tennar", "Tennar Union", h,
                                 f"controls {n} system{'s' if n > 1 else ''} next to the Tennar Union",
                                 TENNAR_VP))
    return out


def planets_controlled(st: State, p: str) -> int:
    return sum(c.planets for c in st.colonies.values() if c.owner == p)


def _table(st: State, lines: list[dict[str, Any]], extra: dict[str, dict[str, int]], final: bool,
           project: bool) -> Score:
    sums = {(p, c): 0 for p in st.setup.players for c in CATEGORIES}
    for l in lines:
        sums[(l["player"], l["category"])] += l["vp"]
    rows = []
    for p in st.setup.players:
        ps = st.players[p]
        row: dict[str, Any] = {"player": p}
        row.update({c: sums[(p, c)] for c in CATEGORIES})
        row["total"] = sum(row[c] for c in CATEGORIES)
        row["cities_left"] = ps.cities
        row["trade_stations_left"] = ps.trade_stations
        row["planets_controlled"] = planets_controlled(st, p)
        t = territories(st, p)
        row["largest_territory"] = len(t[0]) if t else 0
        rows.append(row)
    ranked, winners, decided, text = rank(rows, final)
    return Score(final, project and not final, lines, ranked, winners, decided, text)


TIEBREAK = [("cities_left", "Cities left"), ("trade_stations_left", "Trade Stations left"),
            ("planets_controlled", "planets controlled")]
#: the tiebreak chain (S Scoring): the total, then :data:`TIEBREAK`, each with its
#: ``decided_by`` name
CHAIN: tuple[Step, ...] = (("total", "vp"), ("cities_left", "cities_left"),
                           ("trade_stations_left", "trade_stations_left"),
                           ("planets_controlled", "planets"))


def rank(rows: list[dict[str, Any]], final: bool) -> tuple[
        list[dict[str, Any]], list[str], str, str]:
    """``rows`` ranked by total then the tiebreak chain :data:`CHAIN` (the base's
    :func:`~companion.core.scoretable.number_ranks`: players tied on every step share a
    place and keep their seat order); the winners, the step that decided, and the
    sentence."""
    ranked = number_ranks(rows, [c for c, _ in CHAIN])
    top, decided, taken = decide(ranked, CHAIN)
    words = dict(TIEBREAK)
    steps = [f"{words[col]}: " + ", ".join(f"{r['player']} {int(r[col])}" for r in tied)
             for col, tied in taken]
    winners = [r["player"] for r in top]
    verb = "wins" if final else "leads"
    total = int(top[0]["total"])
    if decided == "vp":
        text = f"{winners[0]} {verb} with {total} VP."
    elif decided == "shared":
        text = (f"{' and '.join(winners)} {'share the victory' if final else 'share the lead'} "
                f"with {total} VP: tied on VP, Cities left, Trade Stations left and planets "
                f"controlled.")
    else:
        text = (f"{winners[0]} {verb}: tied on {total} VP, decided by "
                + "; then by ".join(steps) + ".")
    if not final:
        text = "Game in progress. " + text
    return ranked, winners, decided, text


#: the map system each Federation category needs (S Scoring)
_FEDERATION_KIND = {"hollana": "hollana_federation", "tennar": "tennar_union"}


def categories_in_play(st: State, lines: pd.DataFrame | None = None) -> tuple[str, ...]:
    """The score categories this game has (issue 21: a final table shows a module's
    column only when the game has it): the Hollana Federation and the Tennar Union when
    an Unexplored System tile turned up as one, or the board holds one; Open Borders and
    exploration with their variants (S Variants); the others always.  A category with
    a VP line in ``lines`` is always kept, so no VP is ever hidden."""
    kinds = {rv.get("effect") for rv in st.revealed.values()}      # Unexplored tiles turned up
    for m in (st.map, st.setup.map):
        kinds |= {s.kind for s in m.systems.values()} | {s.effect for s in m.systems.values()}
    scored = set()
    if lines is not None and len(lines):
        scored = set(lines.loc[lines["vp"] != 0, "category"])
    out = []
    for c in CATEGORIES:
        if c in _FEDERATION_KIND:
            has = _FEDERATION_KIND[c] in kinds
        elif c == "open_borders":
            has = st.setup.variant("open_borders")
        elif c == "exploration":
            has = st.setup.variant("unexplored")
        else:
            has = True
        if has or c in scored:
            out.append(c)
    return tuple(out)


def shown_table(result: "Score", st: State) -> pd.DataFrame:
    """The final table as a page shows it: the categories in play only
    (:func:`categories_in_play`) and the total right after the name (seen on a phone
    without swiping); the values are ``result.table``'s."""
    shown = categories_in_play(st, result.lines)
    cols = [c for c in result.table.columns if c not in CATEGORIES or c in shown]
    cols = ["player", "total"] + [c for c in cols if c not in ("player", "total")]
    return result.table[cols]


def tiebreak_words(decided_by: str) -> str:
    return {
        "vp": "Decided on victory points: no tie for first place.",
        "cities_left": "Tied on VP: decided by the most Cities left in the reserve.",
        "trade_stations_left": "Tied on VP and Cities left: decided by the most Trade Stations "
                               "left in the reserve.",
        "planets": "Tied on VP, Cities and Trade Stations left: decided by the most planets "
                   "controlled.",
        "shared": "Tied on VP, Cities left, Trade Stations left and planets controlled: the tied "
                  "players share the victory.",
    }.get(decided_by, "")


def project_totals(game: ScoredGame, st: State) -> dict[str, dict[str, int]]:
    """Each player's categories if the game ended in ``st`` (no pandas: fast)."""
    table = nebula_table(game)
    out = {p: {c: 0 for c in CATEGORIES} for p in st.setup.players}
    for p in st.setup.players:
        for vl in st.players[p].ledger:
            out[p][vl.category] += vl.vp
    for line in end_lines(st, table):
        out[line["player"]][line["category"]] += line["vp"]
    for p in out:
        out[p]["total"] = sum(out[p][c] for c in CATEGORIES)
    return out
