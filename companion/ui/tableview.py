"""The table view as a display (issue 37): the screen of ``?view=table`` on the TV or the
laptop in the middle of the table.

Pure: a game in, HTML out (every piece of user text through :func:`escape`); it holds no
rule and writes nothing.  :func:`ats_display` draws every player's station side by side,
scaled together so that all of them fill the width, with a band underneath: where the game
is ("Year 2 · Turn 3 of 7"), who is still to act and the scoreboard (VP, credits, energy
cubes, locations) in large type.  :func:`sse_display` draws the Small Star Empires map on
most of the screen with the same band beside it.  While positions are laid from the table
(issue 39) the band says "Laying the table · still to lay: …", and a player still to lay
shows "not laid yet" and "—", never the numbers of a position nobody laid (0 VP, 10
credits, a whole reserve), and no station drawn.  The sizes are the viewport's (CSS grid,
``vw``/``vh``, ``clamp()``: companion/ui/style.py ``TABLE_VIEW_CSS``); a phone held
upright gets the same pieces stacked.

The game screens put the HTML in one widget of their play screen and mark the play
screen with :data:`TV_CLASS` (companion/ui/ats_views.py, companion/ui/sse_views.py): the
stylesheet then hides what the display replaces.  The refresh is the screens' own (the
page's poll of the store), so the display follows every action entered elsewhere.
"""
from __future__ import annotations

import re
from typing import Any

from ..ats import render as ats_render
from ..core.errors import CompanionError
from ..core.htmlsafe import colour, escape
from ..sse import render as sse_render

#: the class a play screen carries while it is the table view's display
TV_CLASS = "tv-on"
#: the drawing size of one station cell (the SVG is scaled to its box anyway)
CELL = 48
#: a station is drawn at the scale of one at least this wide and tall (in cells): a new
#: station (one or two cells) is not blown up to the whole screen
MIN_COLS, MIN_ROWS = 3, 3
_SIZE = re.compile(r'width="(\d+)" height="(\d+)"')


def _stations_cols(n: int) -> int:
    """Stations side by side on a landscape screen: one row up to 4 players, else 3 a row."""
    return n if n <= 4 else 3


def _svg_box(svg: str) -> tuple[int, int]:
    m = _SIZE.search(svg)
    return (int(m.group(1)), int(m.group(2))) if m else (1, 1)


def _score_row(player: str, to_act: bool, who_html: str, cells: list[tuple[str, Any]]) -> str:
    """One player's row of the display's scoreboard (``who_html``: already escaped)."""
    return (f"<tr class='tv-row {'tv-todo' if to_act else 'tv-done'}' "
            f"data-player='{escape(player)}'><td class='tv-who'>{who_html}</td>"
            + "".join(f"<td class='{c}'>{v}</td>" for c, v in cells) + "</tr>")


def _score_table(heads: list[str], rows: list[str]) -> str:
    return ("<table class='tv-score'><tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr>"
            + "".join(rows) + "</table>")


def _laying(todo: list[str]) -> str:
    """The band's line while positions are laid from the table (issue 39)."""
    return ("<div class='tv-turn'>Laying the table</div>"
            f"<div class='tv-waiting'>still to lay: <b>{escape(', '.join(todo))}</b></div>")


#: what stands for a number of a position still to be laid (issue 39): not the default
#: 0 VP and 10 credits of a player who has laid nothing
NONE = "—"
NOT_LAID = "<small class='tv-not-laid'>not laid yet</small>"


def _result(game: Any) -> tuple[Any, str]:
    """The game's final table (a ScoreTable) once the books can score it, else None and
    why not, in one line (issue 50: never the track's VP under a total's name)."""
    needs = getattr(game, "final_needs", None)
    try:
        if needs is not None:
            n = needs()
            if n["blocked"]:
                return None, "Before the final scoring: " + "; ".join(n["blocked"])
            if n["values"] or n["manual"]:
                return None, ("Final scoring: waiting for the players to type what it "
                              "needs on their pages (card values, VP typed at the table).")
        return game.score(), ""
    except CompanionError as e:
        return None, f"Final scoring: {e}"


def _winners(result: Any) -> str:
    names = [escape(w) for w in result.winners]
    top = next((r for r in result.rows if r["player"] in result.winners), None)
    vp = f" with {int(top['total'])} VP" if top is not None else ""
    if len(names) == 1:
        return f"★ {names[0]} wins{vp}"
    return f"★ {', '.join(names[:-1])} and {names[-1]} share the victory{vp}"


def end_display(game: Any, main_html: str, kind: str) -> str:
    """The table view at a game's end (issue 50): the winner and the final totals first,
    in large type (the book's final score: every category, not the track's VP), then
    ``main_html`` (the stations, the map) beside them, smaller.  While the final table
    still waits for something, that is said instead, and no number is called a total."""
    result, why = _result(game)
    if result is None:
        head = (f"<div class='tv-winner'>The game is over</div>"
                f"<div class='tv-pending'>{escape(why)}</div>")
        table = ""
    else:
        head = (f"<div class='tv-winner'>{_winners(result)}</div>"
                + (f"<div class='tv-decided'>{escape(result.explanation)}</div>"
                   if result.explanation and result.decided_by != "vp" else ""))
        rows = "".join(
            f"<tr class='tv-final-row{' tv-won' if r['player'] in result.winners else ''}' "
            f"data-player='{escape(r['player'])}'><td class='tv-rank'>{int(r['rank'])}</td>"
            f"<td class='tv-who'>{escape(r['player'])}</td>"
            f"<td class='tv-total'>{int(r['total'])}</td></tr>" for r in result.rows)
        table = ("<table class='tv-final'><tr><th><span class='sr-only'>Rank</span></th><th>Player</th><th>Final VP</th></tr>"
                 f"{rows}</table>")
    return (f"<div class='tv tv-{kind} tv-end' style='--tv-n:{len(game.state.setup.players)}'>"
            f"<div class='tv-result'>{head}{table}</div>{main_html}</div>")


def ats_display(game: Any, waiting: list[str], objectives_html: str = "") -> str:
    """The Among the Stars display of ``game``: the stations, the turn, who is still to
    act (``waiting``, in the rules' order), the scoreboard and ``objectives_html`` (the
    screen's objectives panel, already escaped)."""
    st = game.state
    players = list(st.setup.players)
    svgs = {p: ats_render.station_svg(st.players[p].station, cell_size=CELL) for p in players}
    step = CELL + ats_render.GAP
    boxes = {p: _svg_box(s) for p, s in svgs.items()}
    # one scale for every station: each SVG's box is its share of the largest one's, and
    # the SVGs keep their proportions inside (preserveAspectRatio's default)
    wmax = max([b[0] for b in boxes.values()] + [MIN_COLS * step + ats_render.GAP])
    hmax = max([b[1] for b in boxes.values()] + [MIN_ROWS * step + ats_render.GAP])
    todo = game.still_to_lay()
    cells = []
    for p in players:
        bw, bh = boxes[p]
        ps = st.players[p]
        mark = ("<span class='tv-acted' title='acted this turn'>✓</span>"
                if p in st.acted and not st.finished else "")
        if p in todo:       # issue 39: nothing of it is known yet, no station drawn
            cells.append(f"<div class='tv-station tv-unlaid' data-player='{escape(p)}'>"
                         f"<div class='tv-name'>{escape(p)} {NOT_LAID}</div>"
                         "<div class='tv-svg tv-not-laid' style='min-height:3em;"
                         "border:2px dashed #bbb;border-radius:8px'></div></div>")
            continue
        cells.append(
            f"<div class='tv-station' data-player='{escape(p)}'>"
            f"<div class='tv-name'>{escape(p)} {mark}<span class='tv-vp'>{ps.vp} VP</span></div>"
            f"<div class='tv-svg' style='--tv-w:{bw / wmax:.4f};--tv-h:{bh / hmax:.4f}'>"
            f"{svgs[p]}</div></div>")
    if st.finished:       # issue 50: the result first, the stations beside it
        return end_display(game, f"<div class='tv-main tv-stations' style='--tv-cols:"
                           f"{_stations_cols(len(players))}'>{''.join(cells)}</div>"
                           + (f"<div class='tv-objectives'>{objectives_html}</div>"
                              if objectives_html else ""), "ats")
    if todo:
        where = _laying(todo)
    else:
        n = st.setup.turns_in_year(st.year)
        who = ", ".join(escape(p) for p in waiting)
        where = (f"<div class='tv-turn'>Year {st.year} · Turn {st.turn}"
                 f"<span class='tv-of'> of {n}</span></div>"
                 f"<div class='tv-waiting'>waiting for: <b>{who or 'nobody'}</b></div>")
    rows = []
    for p in players:
        ps = st.players[p]
        nums = ((NONE,) * 4 if p in todo else
                (ps.vp, ps.credits, ps.station.cubes(), len(ps.station.locations(reactors=False))))
        rows.append(_score_row(p, (p in todo if todo else p in waiting) and not st.finished,
                               escape(p) + (f" {NOT_LAID}" if p in todo else ""),
                               list(zip(("vp", "credits", "cubes", "locations"), nums))))
    score = _score_table(["Player", "VP", "Credits", "Cubes", "Locations"], rows)
    extra = (f"<div class='tv-objectives'>{objectives_html}</div>" if objectives_html else "")
    return (f"<div class='tv tv-ats' style='--tv-cols:{_stations_cols(len(players))};"
            f"--tv-n:{len(players)}'>"
            f"<div class='tv-main tv-stations'>{''.join(cells)}</div>"
            f"<div class='tv-band'><div class='tv-where'>{where}</div>{score}{extra}"
            f"<div class='tv-legend'>{ats_render.legend_html()}</div></div></div>")


def sse_display(game: Any) -> str:
    """The Small Star Empires display of ``game``: the map, who is to move, the scores
    (VP now, the score if the game ended now, Cities and Trade Stations left)."""
    st = game.state
    players = list(st.setup.players)
    svg = sse_render.map_svg(st.map, st, size=30)
    if st.finished:       # issue 50: the book's final score first, the map beside it
        return end_display(game, f"<div class='tv-main tv-map'>{svg}</div>"
                           f"<div class='tv-ended'>{escape(st.end_reason)}</div>", "sse")
    try:
        ended = game.score(project=True).table.set_index("player")["total"]
    except CompanionError:   # a score that cannot be projected yet: shown as "?"
        ended = None
    last = ""
    if game.actions:
        last = (f"<div class='tv-last'>last: "
                f"{escape(game.describe(game.actions[-1]))}</div>")
    todo = game.still_to_lay()
    if todo:
        where = _laying(todo) + last
    else:
        passed = [p for p in players if st.players[p].passed]
        where = (f"<div class='tv-turn'>Move {st.moves + 1}</div>"
                 f"<div class='tv-waiting'>to move: <b>{escape(st.current)}</b></div>"
                 + (f"<div class='tv-last'>passed: {escape(', '.join(passed))}</div>"
                    if passed else "") + last)
    rows = []
    for p in players:
        ps = st.players[p]
        dot = (f"<span class='tv-dot' style='background:{colour(st.setup.colour(p))}'></span>")
        total = int(ended[p]) if ended is not None and p in ended.index else "?"
        # issue 39: a player still to lay has no VP and no pieces out yet (not 0 VP and
        # the whole reserve); "if ended" waits for every player's pieces
        nums = ((NONE,) * 4 if p in todo else
                (ps.vp, NONE if todo else total, ps.cities, ps.trade_stations))
        rows.append(_score_row(p, (p in todo if todo else p == st.current) and not st.finished,
                               f"{dot}{escape(p)}{' (passed)' if ps.passed else ''}"
                               + (f" {NOT_LAID}" if p in todo else ""),
                               list(zip(("vp", "if-ended", "cities", "trade"), nums))))
    score = _score_table(["Player", "VP", "If ended", "Cities", "Trade St."], rows)
    return (f"<div class='tv tv-sse' style='--tv-n:{len(players)}'>"
            f"<div class='tv-main tv-map'>{svg}</div>"
            f"<div class='tv-band'><div class='tv-where'>{where}</div>{score}"
            f"<div class='tv-legend'>{sse_render.legend_html()}</div></div></div>")
