"""Issue 40: the sentence corpus (tests/data/sentences, format in tests/sentencekit.py)
read at its positions as the page's line reads it.  Never a sentence recorded wrongly (an
action other than the one expected, or one where a refusal was expected); at least 97 %
read as expected; at least 300 sentences for both games; every expected line legal in
its position.  bench/bench_sentences.py prints the same corpus with its misses."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import sentencekit  # noqa: E402


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


@pytest.fixture(scope="module")
def outcomes():
    return {g: sentencekit.run(g) for g in sentencekit.GAMES}


@pytest.mark.parametrize("game", sentencekit.GAMES)
def test_no_sentence_is_recorded_wrongly(outcomes, game):
    wrong = [o for o in outcomes[game] if o.verdict == "WRONG"]
    assert not wrong, "\n".join(f"{o.say!r}: want {o.want}, got {o.got}" for o in wrong)


def test_the_corpus_is_read_as_expected(outcomes):
    every = [o for g in sentencekit.GAMES for o in outcomes[g]]
    assert len(every) >= 300
    right = sum(o.verdict == "right" for o in every)
    misses = "\n".join(f"{o.say!r}: want {o.want}, got {o.got}" for o in every
                       if o.verdict != "right")
    assert right / len(every) >= 0.97, misses


@pytest.mark.parametrize("game", sentencekit.GAMES)
def test_both_kinds_of_case_are_in_each_corpus(outcomes, game):
    kinds = {o.want.startswith("refuse") for o in outcomes[game]}
    assert kinds == {True, False}
