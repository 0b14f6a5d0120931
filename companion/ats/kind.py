"""Among the Stars as the table layer sees it: its descriptor (companion.core.gamekind),
registered on import.  companion.table.registry loads this module by name; nothing of
the table layer imports it.  What used to be branches on the format in the store,
history, statistics, the exports and the command line is here."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:        # imported where a table is made, not when the module is:
    import pandas as pd  # a page's kernel and every command start ~0.3 s sooner

from ..core.errors import IllegalAction, UnknownCardValues
from ..core.gamekind import GameKind, StatTable, register
from . import cli
from .catalogue import (USER_CARDS, import_user_catalogue, merge_card as merge, parse_card,
                        save_user_card)
from .game import Game, describe_action
from .record import FORMAT, validate_record
from .render import station_svg
from .scoring import SECRET, score as projected

#: the expansion's name in BG Stats and on BoardGameGeek
REVIVAL = "Among the Stars: Revival"
#: setup options that only the Revival expansion has
REVIVAL_OPTIONS = ("spaceships", "timing_rules", "advisors")


def _options(setup: Any) -> dict[str, Any]:
    """The setup's ``options`` ({} when it has none or they are not an object)."""
    opts = setup.get("options") if isinstance(setup, dict) else None
    return opts if isinstance(opts, dict) else {}


def uses_revival(setup: dict[str, Any], cards: list[Any], built: set[str], declared: list[str]) -> bool:
    """Among the Stars played with the Revival expansion: its 2-player rules,
    spaceships, timing rules or Influence tiles, a built card of the Revival set,
    or the players said so (meta ``expansions``)."""
    if any(e.lower() in ("revival", REVIVAL.lower()) for e in declared):
        return True
    opts = _options(setup)
    if opts.get("two_player") == "revival" or any(opts.get(k) for k in REVIVAL_OPTIONS):
        return True
    return any(isinstance(c, dict) and c.get("set") == "revival" and c.get("name") in built
               for c in cards)


def expansions(setup: Any, cards: list[Any], built: set[str], declared: list[str]) -> list[str]:
    """The expansions of a play: Revival when it was used, then the declared others."""
    out = [REVIVAL] if uses_revival(setup, cards, built, declared) else []
    return out + [e for e in declared if e.lower() not in ("revival", REVIVAL.lower())]


def start_player(setup: Any, players: list[str]) -> str | None:
    """The first active player with the Revival 2-player rules; nobody in
    simultaneous Among the Stars."""
    if not players:
        return None
    opts = _options(setup)
    if opts.get("two_player") == "revival":
        first = opts.get("first_active", players[0])
        return first if first in players else players[0]
    return None


def board(setup: Any) -> str:
    mode = setup.get("mode")
    mode = mode if isinstance(mode, str) else "standard"
    rules = _options(setup).get("two_player")
    two = {"virtual": "base 2-player rules", "revival": "Revival 2-player rules"} \
        .get(rules) if isinstance(rules, str) else None
    return ", ".join(x for x in (mode, two) if x)[:100]


def game_roles(game: Any, setup: Any, players: list[str]) -> dict[str, str]:
    """Each player's race (as the setup names it)."""
    races = dict(setup.get("races") or {})
    return {p: r for p, r in races.items() if isinstance(r, str)}


def pending_score(game: Any, error: Exception) -> Any:
    """The game is over but its round-end entries are not made yet: the score so far
    (no result yet); None for any other refusal."""
    if isinstance(error, UnknownCardValues) or not isinstance(error, IllegalAction) \
            or error.rule not in ("round-end", "advisor"):
        return None
    return projected(game, project=True)


def derive_extra(game: Any, score: Any, out: dict[str, Any]) -> None:
    """History's derived rows beyond the score: VP by year, each built card's VP and
    the objectives claimed."""
    st = game.state
    # score.line_rows, the plain lines (pandas cost more than the replay: issue 26's
    # first sync of 10,000 games)
    end_lines: list[tuple[Any, Any, Any, Any]] = []
    objective_lines: list[tuple[Any, Any, Any]] = []
    if out["finished"] and score is not None:
        for line in score.line_rows:
            lp, cat, cell, source, vp = (line["player"], line["category"], line["cell"],
                                         line["source"], line["vp"])
            if cat == "end_abilities" and _present(cell):
                end_lines.append((lp, source, cell, vp))
            elif cat == "objectives":
                objective_lines.append((source, lp, vp))
    for p in out["players"]:
        # every year played so far, 0 when nothing was gained (averages count it)
        by_year: dict[int, int] = {y: 0 for y in range(1, st.year + 1)}
        for line in st.players[p].ledger:
            by_year[line.year] = by_year.get(line.year, 0) + line.vp
        out["year_vp"] += [(p, y, v) for y, v in sorted(by_year.items())]
        # the VP each built card gave: when built, and at the end
        per_cell: dict[tuple[str | None, tuple[int, ...]], int] = {}
        for line in st.players[p].ledger:
            if line.category in ("printed", "ability", "manual") and line.cell is not None:
                per_cell[(line.source, line.cell)] = per_cell.get((line.source, line.cell), 0) \
                    + line.vp
        for lp, source, cell, vp in end_lines:
            if lp == p:
                key = (source, tuple(cell))
                per_cell[key] = per_cell.get(key, 0) + int(vp)
        for cell, placed in st.players[p].station.cells.items():
            if placed.kind == "location":
                out["cards"].append((p, placed.card, f"{cell[0]},{cell[1]}",
                                     per_cell.get((placed.card, cell), 0)))
    for source, lp, vp in objective_lines:
        out["objectives"].append((source, lp, int(vp)))


def _present(v: Any) -> bool:
    """pandas' notna for one cell of score.lines (None, NaN and NA are missing)."""
    import pandas as pd
    return not (v is None or v is pd.NA or (isinstance(v, float) and v != v))


def merge_card(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Two stored definitions of one card, value by value (a known value wins)."""
    merged: dict[str, Any] = merge(parse_card(old), parse_card(new)).to_dict()
    return merged


def picture(game: Any) -> str:
    """Every player's station (the History tab's replay and score sheet)."""
    st = game.state
    return "".join(f"<div style='display:inline-block;vertical-align:top;margin:4px 12px 4px 0;"
                   f"max-width:100%'>"
                   f"{station_svg(st.players[p].station, title=p, cell_size=48)}</div>"
                   for p in st.setup.players)


KIND = register(GameKind(
    format=FORMAT, name="Among the Stars", game_class=Game, validate_record=validate_record,
    logger_names=("Among the Stars", REVIVAL),
    import_names=("among the stars", "among the stars: revival"),
    roles=None, game_roles=game_roles, start_player=start_player, board=board,
    expansions=expansions, derive_extra=derive_extra, pending_score=pending_score,
    merge_card=merge_card, documents=(USER_CARDS,),
    # the player's catalogue (my-cards.yaml), written through the page's session
    user_writers={"save_card": save_user_card, "import_catalogue": import_user_catalogue},
    secret_sources=(SECRET,),
    statistics=(StatTable("win rate by player", "win_rates", {"by": "player"}),
                StatTable("win rate by race", "win_rates", {"by": "race"}),
                StatTable("scores", "scores"),
                StatTable("average breakdown", "breakdown"),
                StatTable("VP by year (average)", "vp_by_year", {"game_id": None}),
                StatTable("objectives deciding the winner", "objectives_deciding"),
                StatTable("cards built", "cards"),
                StatTable("tiebreaks", "tiebreaks", {"fmt": None})),
    describe_action=describe_action, picture=picture,
    cli_score=cli.score_game, cli_check=cli.check_game))
