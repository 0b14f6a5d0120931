"""Issue 54: every bad field type in a record is refused in one line by `check` and
`score`, never an internal error ("check and score exit 3 (internal error: TypeError:
unhashable type: 'list') on an advisor entry whose tile is a list or an object").

Every field of a Revival record with advisors settled (Among the Stars) and of a Small
Star Empires game under way (the sentence corpus's positions) is given each wrong type
in turn, in process through the command line's ``main``."""
from __future__ import annotations

import contextlib
import copy
import io
import json
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.cli import main

sys.path.insert(0, str(Path(__file__).parent))
import sentencekit  # noqa: E402

BAD = [["x"], {"a": 1}, 3, None, True, 1.5]


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


def records() -> dict[str, dict[str, Any]]:
    ats = sentencekit.position("ats", "advisors").to_record()
    ats["actions"] += [
        {"do": "advisor", "tile": "Builders", "player": "Ana", "take": "bonus",
         "effects": {"vp": {"Ana": 1}, "credits": {"Ana": 2}}},
        {"do": "advisor", "tile": "Traders", "player": "Ben", "take": "decline"}]
    return {"ats": ats, "sse": sentencekit.position("sse", "mid").to_record()}


def paths(obj: Any, pre: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield pre + (k,)
            if k != "cards":
                yield from paths(v, pre + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3] + obj[-2:] if len(obj) > 5 else obj):
            j = i if i < 3 or len(obj) <= 5 else len(obj) - 5 + i
            yield pre + (j,)
            yield from paths(v, pre + (j,))


def run(cmd: str, path: Path) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([cmd, str(path)])
        except SystemExit:
            pass
    return out.getvalue() + err.getvalue()


def test_every_field_of_a_record_with_a_wrong_type_is_one_line_never_an_internal_error(tmp_path):
    runs = 0
    for name, rec in records().items():
        for p in paths(rec):
            for bad in BAD:
                r = copy.deepcopy(rec)
                o = r
                for k in p[:-1]:
                    o = o[k]
                o[p[-1]] = bad
                f = tmp_path / "r.json"
                f.write_text(json.dumps(r))
                for cmd in ("check", "score"):
                    text = run(cmd, f)
                    runs += 1
                    assert "internal error" not in text, (name, p, bad, text[-300:])
                    errors = [ln for ln in text.splitlines() if ln.startswith("error")]
                    assert len(errors) <= 1, (name, p, bad, errors)
    assert runs > 1000


def test_an_advisor_entry_whose_tile_is_no_text_names_the_rule(tmp_path):
    """R 4: the player an advisor leans to takes its bonus or declines it: the entry
    names the Influence tile by its name."""
    rec = records()["ats"]
    for bad, said in ((["Builders"], 'not ["Builders"]'), ({"a": 1}, 'not {"a":1}'),
                      (None, "name the Influence tile (open: Builders, Traders)")):
        r = copy.deepcopy(rec)
        r["actions"][-2]["tile"] = bad
        f = tmp_path / "r.json"
        f.write_text(json.dumps(r))
        for cmd in ("check", "score"):
            text = run(cmd, f)
            assert said in text and "[rule: advisor]" in text, (bad, text)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(["history", "import", str(f)])
            except SystemExit:
                pass
        lines = [ln for ln in (out.getvalue() + err.getvalue()).splitlines() if ln.strip()]
        assert len(lines) == 1 and said in lines[0], (bad, lines)
