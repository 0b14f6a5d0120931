"""Issue 13: one rule-code Enum for both games (companion/core/rules.py).

Every code an IllegalAction names is a member of Rule (IllegalAction refuses any
other), each member is raised somewhere by the games it names, its texts are the
games' own (``RULES``), and docs/rules.md is the Enum's table."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ats.game import RULES as ATS_RULES
from companion.core.errors import IllegalAction, UnknownCardValues
from companion.core.rules import ATS, GAME_LABELS, SSE, Rule, markdown, rule, texts
from companion.sse.game import RULES as SSE_RULES, IllegalMove

ROOT = Path(__file__).resolve().parent.parent
#: the calls that name a rule code first: the errors, and a Small Star Empires movement
#: refusal (companion.sse.movement.Refusal, raised as an IllegalAction when it is shown)
RAISERS = ("IllegalAction", "IllegalMove", "Refusal")


def raised_codes() -> dict[str, set[str]]:
    """{code: the packages (ats, sse, ...) whose source raises it}, read with ast."""
    out: dict[str, set[str]] = {}
    for path in (ROOT / "companion").rglob("*.py"):
        pkg = path.relative_to(ROOT / "companion").parts[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else None
            if name == "UnknownCardValues":
                out.setdefault("unknown-values", set()).add(pkg)
            elif name in RAISERS and node.args and isinstance(node.args[0], ast.Constant):
                out.setdefault(node.args[0].value, set()).add(pkg)
    return out


def test_every_raised_code_is_a_member_of_its_games():
    raised = raised_codes()
    assert len(raised) > 40                          # the scan found the raises
    assert sorted(raised) == sorted(str(r) for r in Rule)
    for code, pkgs in raised.items():
        assert pkgs <= {ATS, SSE}, (code, pkgs)       # only the engines raise
        assert set(Rule(code).games) == pkgs, code


def test_the_texts_are_the_games_own():
    assert {k: v for k, v in texts(ATS).items() if k in ATS_RULES} == ATS_RULES
    assert {k: v for k, v in texts(SSE).items() if k in SSE_RULES} == SSE_RULES
    for r in Rule:
        assert r.texts and set(r.texts) <= set(GAME_LABELS)
        assert all(t.strip() for t in r.texts.values())


def test_a_member_is_its_code():
    assert Rule.CREDITS == "credits" and f"{Rule.CREDITS}" == "credits"
    assert Rule("not-straight") is Rule.NOT_STRAIGHT and rule("credits") is Rule.CREDITS
    assert {"credits": 1}[Rule.CREDITS] == 1
    assert Rule.MALFORMED.text() == "the action is not in the record format"
    assert Rule.WRONG_PLAYER.text().startswith("Among the Stars: ")
    assert Rule.WRONG_PLAYER.text(SSE) == SSE_RULES["wrong-player"]


def test_illegal_action_normalises_its_code():
    e = IllegalAction("credits", "not enough", action={"player": "Ann", "do": "build",
                                                       "card": "X"})
    assert isinstance(e.rule, Rule) and e.rule is Rule.CREDITS and e.rule == "credits"
    assert str(e) == "Ann build 'X': not enough [rule: credits]"
    m = IllegalMove("off-map", "no system", action={"player": "Ann", "ship": 1, "to": [0, 0]})
    assert m.rule is Rule.OFF_MAP and str(m).endswith("no system [rule: off-map]")
    assert UnknownCardValues("X", ["cost"]).rule is Rule.UNKNOWN_VALUES
    with pytest.raises(ValueError, match="unknown rule code 'no-such-rule'"):
        IllegalAction("no-such-rule", "?")


def test_docs_rules_md_is_the_enums_table():
    page = (ROOT / "docs/rules.md").read_text(encoding="utf-8")
    assert page == markdown(), "run: python -m companion rules > docs/rules.md"
    for r in Rule:
        assert f"| `{r}` |" in page
    out = subprocess.run([sys.executable, "-m", "companion", "rules"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert out == page
