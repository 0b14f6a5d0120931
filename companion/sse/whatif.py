"""What-if for one ship: every legal destination with the VP it gives now and its effect on
the end scoring (trade stations, territory, nebula sets, ...), as if the game ended after
that move.  Pure: the game is never changed."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:        # imported where a table is made, not when the module is:
    import pandas as pd  # a page's kernel and every command start ~0.3 s sooner

from .game import PIECE_NAMES, Move, SseGame
from .scoring import END, project_totals

COLUMNS = ["to", "via", "piece", "kind", "vp_now", "nebulae", "trade_stations", "territory",
           "other", "projected", "change", "opponents", "note"]


def destinations(game: SseGame, player: str, ship: int) -> pd.DataFrame:
    """One row per (legal destination, piece).  ``vp_now``: VP scored at once (planets);
    ``nebulae``/``trade_stations``/``territory``/``other``: change of the player's end
    scoring in those categories; ``projected``: the player's total if the game ended after
    the move; ``change``: that minus the total if it ended now; ``opponents``: the change of
    the other players' projected totals (e.g. their trade stations next to the new colony,
    a City paid to pass).  An unexplored destination's tile is unknown: its row says so."""
    import pandas as pd
    st = game.state
    base = project_totals(game, st)
    rows: list[dict[str, Any]] = []
    for m in game.legal_moves(player, ship):
        if m.kind == "explore":
            rows.append({"to": list(m.to), "via": m.via, "piece": "city", "kind": "explore",
                         "vp_now": None, "nebulae": None, "trade_stations": None,
                         "territory": None, "other": None, "projected": None, "change": None,
                         "opponents": None,
                         "note": "unexplored: the tile decides" + (" (pays to pass)" if m.pay else "")})
            continue
        for piece in (m.pieces or (None,)):
            a = {"player": player, "ship": ship, "to": list(m.to), "piece": piece, "via": m.via}
            after_state = game.trial(a)
            after = project_totals(game, after_state)
            me0, me1 = base[player], after[player]
            row = {"to": list(m.to), "via": m.via, "piece": piece, "kind": m.kind,
                   "vp_now": after_state.players[player].vp - st.players[player].vp,
                   "nebulae": me1["nebulae"] - me0["nebulae"],
                   "trade_stations": me1["trade_stations"] - me0["trade_stations"],
                   "territory": me1["territory"] - me0["territory"],
                   "other": sum(me1[c] - me0[c] for c in END
                                if c not in ("nebulae", "trade_stations", "territory")),
                   "projected": me1["total"], "change": me1["total"] - me0["total"],
                   "opponents": sum(after[p]["total"] - base[p]["total"]
                                    for p in st.setup.players if p != player),
                   "note": _note(m, piece)}
            rows.append(row)
    df = pd.DataFrame(rows, columns=COLUMNS)
    if len(df):
        known = df[df.change.notna()].sort_values(["change", "vp_now"], ascending=False,
                                                   kind="stable")
        df = pd.concat([known, df[df.change.isna()]]).reset_index(drop=True)
    return df


def _note(m: Move, piece: str | None) -> str:
    parts = []
    if m.kind == "repair":
        parts.append("repair at home (no colony)")
    elif piece:
        parts.append(PIECE_NAMES[piece])
    if m.via == "wormhole":
        parts.append("wormhole jump")
    if m.pay:
        parts.append("pays " + ", ".join(f"1 City to {o}" for _, o in m.pay))
    return "; ".join(parts)
