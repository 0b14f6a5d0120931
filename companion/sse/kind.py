"""Small Star Empires as the table layer sees it: its descriptor
(companion.core.gamekind), registered on import.  companion.table.registry loads this
module by name; nothing of the table layer imports it.  What used to be branches on the
format in the store, history, statistics, the exports and the command line is here."""
from __future__ import annotations

from typing import Any

from ..core.gamekind import GameKind, StatTable, StoreStep, register
from . import cli, tiles
from .game import DEFAULT_COLOURS, SseGame, describe_action
from .record import FORMAT, validate_record
from .forms import USER_FORMS, save_user_form
from .hexmap import USER_MAPS, save_user_map
from .setup import legacy_setup
from .tiles import USER_TILES

#: the default colours (DEFAULT_COLOURS) by name, for the exports' role / color; a
#: colour typed by the players is kept as typed
COLOUR_NAMES = {"#e0a800": "yellow", "#8e44ad": "purple", "#e8590c": "orange",
                "#1c7c7c": "teal"}


def colour_name(colour: Any) -> str | None:
    if not isinstance(colour, str) or not colour.strip():
        return None
    return COLOUR_NAMES.get(colour.strip().lower(), colour.strip()[:40])


def roles(setup: Any, players: list[str]) -> dict[str, str]:
    """Each player's colour, by name, without replaying."""
    colours = setup.get("colours") if isinstance(setup, dict) else None
    if not isinstance(colours, dict):
        colours = {}
    out = {}
    for i, p in enumerate(players or []):
        c = colour_name(colours.get(p) or DEFAULT_COLOURS[i % len(DEFAULT_COLOURS)])
        if c:
            out[p] = c
    return out


def game_roles(game: Any, setup: Any, players: list[str]) -> dict[str, Any]:
    """Each player's colour, by name (from the replayed game's setup)."""
    return {p: colour_name(game.setup.colour(p)) for p in players}


def start_player(setup: Any, players: list[str]) -> str | None:
    """Seat 1 starts."""
    return players[0] if players else None


def board(setup: Any) -> str:
    """The map and the mode."""
    mode = setup.get("mode")
    mode = mode if isinstance(mode, str) else "standard"
    m = setup.get("map")
    name = m if isinstance(m, str) else (m.get("name") if isinstance(m, dict) else None)
    return ", ".join(x for x in (name if isinstance(name, str) else "", mode) if x)[:100]


def describe(action: dict[str, Any]) -> str:
    """A stored move in words; a malformed one as its bare fields."""
    try:
        return describe_action(action)
    except Exception:
        return f"{action.get('player', '')} {action.get('do', 'move')} {action.get('to', '')}"


def picture(game: Any) -> str:
    """The map with every piece (the History tab's replay and score sheet)."""
    from .render import map_svg
    return str(map_svg(game.state.map, game.state))


KIND = register(GameKind(
    format=FORMAT, name="Small Star Empires", game_class=SseGame, validate_record=validate_record,
    logger_names=("Small Star Empires",), import_names=("small star empires",),
    roles=roles, game_roles=game_roles, start_player=start_player, board=board,
    # games saved before setup.options.pieces (when any ship and piece count was
    # accepted) are marked custom so they still resume (legacy_setup)
    store_steps=(StoreStep("sse-pieces-custom", legacy_setup),),
    statistics=(StatTable("Small Star Empires: win rate by player", "win_rates",
                          {"by": "player"}),
                StatTable("Small Star Empires: win rate by seat", "win_rates", {"by": "seat"}),
                StatTable("Small Star Empires: trade stations and territory", "shares",
                          {"parts": {"trade_station_share": "trade_stations",
                                     "territory_share": "territory"}})),
    describe_action=describe, picture=picture,
    documents=(USER_TILES, USER_FORMS + "/", USER_MAPS + "/"),
    # the player's maps, sector tiles and forms, written through the page's session
    user_writers={"save_map": save_user_map, "save_tile": tiles.save_tile,
                  "delete_tile": tiles.delete_tile, "import_tiles": tiles.import_tiles,
                  "save_form": save_user_form},
    cli_score=cli.score_game, cli_check=cli.check_game))
