"""Issue 50, the score sheet's smaller items: no "None" in a cell, the columns in words
(not ``during_game``), and the objective counting locations and the Locations column
saying the same thing.

The books' sentences relied on:
- B 4: "Reactors count as locations but do not have a location type of their own." (an
  objective counting the locations in a station counts the Main Reactor);
- B 6: "In case of a tie, the winner is the player with the most locations in his
  Station (excluding any Power Reactors)."; R: "Both types count as Power Reactors"
  (the tiebreak's Locations column does not count the Main Reactor).
The objective is a fixture's ("Fixture: crowded station"), typed as the players type it."""
from __future__ import annotations

import re

from companion.ats.catalogue import make_objective
from companion.ats.game import Game
from companion.ui.history_tab import HistoryTab

CROWDED = make_objective("Fixture: crowded station", measure="station_location", vp=4)


def laid_game() -> Game:
    g = Game({"players": ["Ana", "Ben"], "objectives": [CROWDED.name],
              "options": {"laid": "final"}}, cards=[CROWDED.to_dict()], book_setup=False)
    g.push({"do": "lay", "player": "Ana", "credits": 2, "vp": 11,
            "cells": [{"at": [0, 0], "reactor": True, "cubes": 1},
                      {"at": [0, 1], "reactor": True, "cubes": 2}]})
    g.push({"do": "lay", "player": "Ben", "credits": 0, "vp": 9,
            "cells": [{"at": [0, 0], "reactor": True, "cubes": 2}]})
    return g


def test_the_objective_counts_reactors_and_the_locations_column_says_it_does_not():
    g = laid_game()
    res = g.score()
    line = res.lines[res.lines.source == CROWDED.name].iloc[0]
    # B 4: "Reactors count as locations": Ana's 2 reactors against Ben's 1
    assert line.player == "Ana" and line.vp == 4
    assert "reactors counted" in line.rule and "Ana 2, Ben 1" in line.rule, line.rule
    # B 6 "(excluding any Power Reactors)", R "Both types count as Power Reactors": 0
    shown = res.shown_table().set_index("player")
    assert shown.loc["Ana", "locations (tiebreak: no reactor)"] == 0


def test_the_score_sheet_has_no_none_and_no_raw_column_name():
    g = laid_game()
    rec = g.to_record()
    sheet = HistoryTab.score_sheet(HistoryTab, rec, g)     # its board_html is static
    assert sheet is not None
    cells = re.findall(r"<td>(.*?)</td>", sheet)
    assert cells and "None" not in cells, cells
    heads = re.findall(r"<th>(.*?)</th>", sheet)
    for raw in ("during_game", "end_abilities", "empty_reactors", "credits_left"):
        assert raw not in heads, heads
    assert "VP during the game" in heads and "end-of-game abilities" in heads


def test_the_small_star_empires_score_sheet_names_its_columns_in_words():
    """The same for Small Star Empires (issue 50: "the score sheet prints ... raw column
    names"): its final table and its lines in the page's words, no "None" cell."""
    from test_sse_lay_position import laid_game as sse_laid
    g = sse_laid()
    assert g.state.finished
    sheet = HistoryTab.score_sheet(HistoryTab, g.to_record(), g)
    assert sheet is not None
    heads = re.findall(r"<th>(.*?)</th>", sheet)
    for raw in ("cities_left", "trade_stations_left", "planets_controlled",
                "largest_territory", "trade_stations", "category", "cell"):
        assert raw not in heads, heads
    assert "Cities left" in heads and "Trade St. left" in heads and "for" in heads, heads
    cells = re.findall(r"<td>(.*?)</td>", sheet)
    assert cells and "None" not in cells, cells
    assert "trade_stations" not in " ".join(cells)            # the category in words
