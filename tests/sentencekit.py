"""The sentence corpus (issue 40, "Hands-free"): sentences as players say them, each at a
position of a game, with the action it must give or the refusal it must get.  Read by
``tests/test_sentences_corpus.py`` and ``bench/bench_sentences.py``.

A corpus file (``tests/data/sentences/<game>.yaml``)::

    game: among-the-stars            # or small-star-empires
    positions:
      NAME:
        setup: {...}                 # the game's setup (players, options; SSE: map, pieces)
        cards: [...]                 # Among the Stars: the catalogue's cards (invented
                                     # names only where a number is given)
        record: ["notation", ...]    # the actions already taken (pushed in order)
    cases:
      - {at: NAME, say: "build quartz garden at one zero", expect: 'Ana build "Quartz Garden" @1,0'}
      - {at: NAME, say: "build at one zero", refuse: card}

``expect`` is a line of notation read in the same position (``game.parse``): the
sentence must give that very action.  ``refuse`` is the field an
``IncompleteNotation`` names, the rule an ``IllegalAction`` names, ``notation`` for a
line that cannot be read, or ``any``.

Outcomes: ``right`` (the expected action, or a refusal for the expected reason),
``refused`` (refused, though an action or another reason was expected: counted as not
understood, nothing recorded), ``WRONG`` (an action other than the one expected, or an
action where a refusal was expected: a sentence recorded wrongly)."""
from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from companion.core.errors import CompanionError, IllegalAction
from companion.core.notation import IncompleteNotation, NotationError

CORPUS = Path(__file__).parent / "data" / "sentences"
GAMES = ("ats", "sse")


@dataclass(frozen=True)
class Outcome:
    game: str
    at: str
    say: str
    want: str
    got: str
    verdict: str        # right | refused | WRONG


def load(game: str, stem: str | None = None) -> dict[str, Any]:
    """A corpus file: ``<game>.yaml``, or ``<stem>.yaml`` under CORPUS (the fresh corpus of
    issue 52: ``fresh/ats-dev``, ``fresh/ats-heldout``, ...)."""
    return yaml.safe_load((CORPUS / f"{stem or game}.yaml").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def _position_record(game: str, name: str, stem: str | None = None) -> Any:
    corpus = load(game, stem)
    return corpus["positions"][name]


def position(game: str, name: str, stem: str | None = None) -> Any:
    """A fresh game at the corpus position ``name`` (each case gets its own)."""
    spec = copy.deepcopy(_position_record(game, name, stem))
    if game == "ats":
        from companion.ats import actions
        from companion.ats.game import Game
        g: Any = Game(spec["setup"], cards=spec.get("cards") or [])
        read = actions.parse
    else:
        from companion.sse import actions as sse_actions
        from companion.sse.game import SseGame
        g = SseGame(spec["setup"])
        read = sse_actions.parse
    for line in spec.get("record") or []:
        g.push(read(line))
    return g


def reason(e: CompanionError) -> str:
    if isinstance(e, IncompleteNotation):
        return e.missing
    if isinstance(e, IllegalAction):
        return e.rule
    if isinstance(e, NotationError):
        return "notation"
    return type(e).__name__


def same_action(got: Any, want: Any) -> bool:
    """The very action: equal, the reactors an energy cost is paid from taken as a
    multiset (B 4.1 counts the cubes each reactor gives; ``e[1,0;0,0]`` and
    ``e[0,0;1,0]`` pay the same)."""
    if got == want:
        return True
    if type(got) is not type(want) or not hasattr(got, "to_dict"):
        return False
    a, b = got.to_dict(), want.to_dict()
    for d in (a, b):
        if d.get("energy_from"):
            d["energy_from"] = sorted(map(tuple, d["energy_from"]))
    return bool(a == b)


def run_case(game: str, case: dict[str, Any], stem: str | None = None) -> Outcome:
    g = position(game, case["at"], stem)
    before = copy.deepcopy(g.actions)
    say = case["say"]
    if "expect" in case:
        want = g.parse(case["expect"])           # the corpus itself must be right
        want_s = str(want)
    else:
        want, want_s = None, "refuse " + str(case["refuse"])
    try:
        got: Any = g.parse(say)
    except CompanionError as e:
        got_s = "refuse " + reason(e) + ": " + str(e)
        ok = want is None and case["refuse"] in ("any", reason(e))
        verdict = "right" if ok else "refused"
    else:
        got_s = str(got)
        verdict = "right" if want is not None and same_action(got, want) else "WRONG"
    assert g.actions == before, "reading a sentence changed the game"
    return Outcome(game, case["at"], say, want_s, got_s, verdict)


def run(game: str, stem: str | None = None) -> list[Outcome]:
    return [run_case(game, c, stem) for c in load(game, stem)["cases"]]
