"""Issue 38, "one shape for both games": the score table with its rank numbering, the
seed draw and the command line's score/check printing are the base's
(companion/core/scoretable.py, chance.py, cliprint.py); each game keeps its rules and
its words.  The rank numbering is the book's shared places: players tied on every step
of the tiebreak chain share a place and the next place skips ("1, 1, 3"), seat order
kept among the tied."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from companion.ats import cli as ats_cli
from companion.ats import scoring as ats_scoring
from companion.ats.setup import Setup
from companion.core import chance, cliprint, scoretable
from companion.core.errors import RecordError
from companion.core.scoretable import ScoreTable, decide, number_ranks
from companion.sse import cli as sse_cli
from companion.sse import scoring as sse_scoring
from companion.sse.setup import SseSetup

ROOT = Path(__file__).resolve().parent.parent


def _rows(*rows: tuple[str, int, int]) -> list[dict[str, int | str]]:
    return [{"player": p, "total": t, "more": m} for p, t, m in rows]


def test_both_scores_are_the_base_table():
    assert issubclass(ats_scoring.Score, ScoreTable) and ats_scoring.Score is not ScoreTable
    assert issubclass(sse_scoring.Score, ScoreTable) and sse_scoring.Score is not ScoreTable
    # what the base holds is not written again in either game
    for cls in (ats_scoring.Score, sse_scoring.Score):
        for name in ("lines", "table", "breakdown", "totals", "to_json", "__repr__"):
            assert name not in vars(cls), f"{cls.__module__}.Score.{name}"
    assert ats_scoring.LINE_COLUMNS is sse_scoring.LINE_COLUMNS is scoretable.LINE_COLUMNS
    assert ats_scoring.number_ranks is sse_scoring.number_ranks is number_ranks


@pytest.mark.parametrize("rows, key, want", [
    # shared places: the next place skips as many numbers as shared the place
    (_rows(("Ann", 10, 0), ("Bob", 12, 0), ("Cy", 12, 0), ("Di", 8, 0)), ["total"],
     [("Bob", 1), ("Cy", 1), ("Ann", 3), ("Di", 4)]),
    # a later step of the chain parts the tied
    (_rows(("Ann", 12, 1), ("Bob", 12, 3), ("Cy", 12, 3)), ["total", "more"],
     [("Bob", 1), ("Cy", 1), ("Ann", 3)]),
    # tied on every step: one place, seat order kept
    (_rows(("Cy", 5, 2), ("Ann", 5, 2), ("Bob", 5, 2)), ["total", "more"],
     [("Cy", 1), ("Ann", 1), ("Bob", 1)]),
    (_rows(("Ann", 3, 0), ("Bob", 7, 0), ("Cy", 3, 0), ("Di", 3, 0)), ["total"],
     [("Bob", 1), ("Ann", 2), ("Cy", 2), ("Di", 2)]),
])
def test_rank_numbering_gives_shared_places(rows, key, want):
    ranked = number_ranks(rows, key)
    assert [(r["player"], r["rank"]) for r in ranked] == want
    assert all(list(r)[:2] == ["player", "rank"] for r in ranked)     # rank after the name


def test_decide_names_the_step_and_the_tied_it_took():
    chain = [("total", "vp"), ("more", "more")]
    ranked = number_ranks(_rows(("Ann", 12, 1), ("Bob", 12, 3), ("Cy", 9, 9)), ["total", "more"])
    top, decided, taken = decide(ranked, chain)
    assert [r["player"] for r in top] == ["Bob"] and decided == "more"
    assert [(c, [r["player"] for r in t]) for c, t in taken] == [("more", ["Bob", "Ann"])]
    top, decided, taken = decide(number_ranks(_rows(("Ann", 2, 1), ("Bob", 2, 1)), ["total"]),
                                 chain)
    assert [r["player"] for r in top] == ["Ann", "Bob"] and decided == "shared"


def test_sse_rank_numbers_as_the_base():
    rows = [{"player": p, "total": t, "cities_left": c, "trade_stations_left": 0,
             "planets_controlled": 0} for p, t, c in (("Ann", 9, 1), ("Bob", 9, 1), ("Cy", 4, 5))]
    table, winners, decided, _ = sse_scoring.rank(rows, final=True)
    assert [(r["player"], r["rank"]) for r in table] == [("Ann", 1), ("Bob", 1), ("Cy", 3)]
    assert winners == ["Ann", "Bob"] and decided == "shared"


def test_the_seed_draw_is_the_base_one(monkeypatch):
    ats = Setup(players=["Ann", "Bob"])
    record = json.loads((ROOT / "data/small-star-empires/samples/two-player-random.json")
                        .read_text(encoding="utf-8"))
    sse = SseSetup.from_dict(record["setup"])
    assert ats.draw_seed == chance.seed_of(ats.to_dict())
    assert sse.draw_seed == chance.seed_of(sse.to_dict())
    calls = []
    monkeypatch.setattr(chance, "draw_seed", lambda setup: calls.append(setup) or 7)
    fresh = [Setup(players=["Ann", "Bob"]), SseSetup.from_dict(record["setup"])]
    assert [s.draw_seed for s in fresh] == [7, 7] and calls == fresh


def test_the_setup_seed_is_checked_by_the_base():
    assert chance.setup_seed({"seed": 5}) == 5 and chance.setup_seed({}) is None
    with pytest.raises(RecordError, match=r"^setup\.seed must be a whole number"):
        chance.setup_seed({"seed": True})


class _Table(ScoreTable):
    CATEGORIES = ("a",)
    JSON_COLUMNS = (("b_json", "b"),)


def _table(final: bool) -> _Table:
    rows = number_ranks([{"player": "Ann", "a": 1, "b": 2, "total": 1}], ["total"])
    return _Table(final, [], rows, ["Ann"], "vp", "Ann wins with 1 VP.")


def test_print_score_and_check(capsys):
    assert ats_cli.print_score is sse_cli.print_score is cliprint.print_score
    assert ats_cli.print_check is sse_cli.print_check is cliprint.print_check
    args = argparse.Namespace(json=False, lines=False)
    cliprint.print_score(_table(True), args, lambda: "Heading", notes=lambda r: ["note"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Heading" and lines[-3:] == ["", "Ann wins with 1 VP.", "note"]
    cliprint.print_score(_table(False), argparse.Namespace(json=True, lines=False),
                         lambda: pytest.fail("no heading in --json"))
    assert json.loads(capsys.readouterr().out)["players"] == [
        {"player": "Ann", "rank": 1, "total": 1, "b_json": 2, "breakdown": {"a": 1}}]
    game = argparse.Namespace(actions=[{}, {}])
    cliprint.print_check(game, "finished", lambda: ["trusted"])
    cliprint.print_check(game)
    assert capsys.readouterr().out == "ok: 2 actions, finished\ntrusted\nok: 2 actions\n"
