"""``may_act(player)``, the protocol's "may this player act now" (issue 38; OpenSpiel's
``current_player``): a query, for both games, while the table is laid and in play.
The random play of every registered game (tests/test_random_play.py) checks it at every
step; here, the laying (issue 39) and the end."""
from __future__ import annotations

import copy

import test_lay_position as ats
import test_sse_lay_position as sse


def test_among_the_stars_while_stations_are_laid_each_player_not_laid_yet_may_act():
    g = ats.new_game()
    assert all(g.may_act(p) for p in ats.PLAYERS)
    g.push(copy.deepcopy(ats.LAYS[0]))
    assert [p for p in ats.PLAYERS if g.may_act(p)] == [p for p in ats.PLAYERS
                                                       if p != ats.LAYS[0]["player"]]
    assert not g.may_act("Nobody")
    for a in ats.LAYS[1:]:
        g.push(copy.deepcopy(a))
    assert g.finished and not any(g.may_act(p) for p in ats.PLAYERS)     # a final position


def test_small_star_empires_while_pieces_are_laid_then_one_player_at_a_time():
    g = sse.new_game()
    assert all(g.may_act(p) for p in sse.PLAYERS)
    for a in sse.LAYS:
        g.push(copy.deepcopy(a))
    assert g.state.finished and not any(g.may_act(p) for p in sse.PLAYERS)
    # a game under way: once every player is laid, only the one whose turn it is (Ben's
    # entry says "next")
    g = sse.new_game("now")
    for a in sse.NOW:
        g.push(copy.deepcopy(a))
    view = g.to_record()
    assert [p for p in sse.PLAYERS if g.may_act(p)] == ["Ben"] == [g.current]
    assert g.to_record() == view                       # a query: nothing changed
