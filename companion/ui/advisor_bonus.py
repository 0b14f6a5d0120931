"""The advisor card's bonus text where an advisor is settled (R 4, issue 53).

R 4: "If the Advisor is towards one of the 2 players, that player gets the special bonus
listed on the Advisor card."  The text of the side in play (companion.ats.advisors,
"2 players" or "3+ players") is shown when a player has typed it; until then one optional
field offers to type it from the card.  Nothing here blocks settling: the text is kept
(the player's catalogue and the game's cards, ``GameSession.save_card``) when the bonus
is taken or declined with the field filled in; the next round or game with that advisor
shows it without asking.  No rule here: the engine's module says which side is in play.

CSS classes: ``advisor-bonus`` (the known text), ``advisor-bonus-text`` (the optional
field), ``advisor-one-side`` (its checkbox: the card has one side only).
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable

import ipywidgets as w

from ..ats.advisors import advisor_name, bonus_text, side_in_play, typed_side


def bonus_row(app: Any, tile: str) -> tuple[w.Widget | None, Callable[[], None]]:
    """The line (or optional field) for the advisor on ``tile``, and the function that
    keeps a text typed in it (call it after the advisor is settled; nothing typed:
    nothing done)."""
    g = app.game
    name = advisor_name(g.setup, tile)
    players = len(g.setup.players)
    if not name:
        return None, lambda: None
    side = side_in_play(players)
    text = bonus_text(g.catalogue, name, players)
    if text is not None:
        html = w.HTML(f"<div class='advisor-bonus'><i>{escape(name)}</i> ({escape(side)}): "
                      f"{escape(text)}</div>")
        html.add_class("advisor-bonus")
        return html, lambda: None
    box = w.Text(placeholder=f"as printed, {side} side (optional)", description="its bonus",
                 tooltip=f"the bonus printed on {name}: typed once, kept")
    box.add_class("advisor-bonus-text")
    one = w.Checkbox(value=False, description="the card has one side only", indent=False)
    one.add_class("advisor-one-side")

    def keep() -> None:
        typed = box.value.strip()
        if typed:
            # the page's game after the settling entry (a replay may have renewed it)
            card = typed_side(app.game.catalogue, name, players, typed, both_sides=one.value)
            app.session.save_card(card)
    return w.VBox([box, one]), keep
