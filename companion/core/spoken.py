"""What both games' sentence readers share (issue 40, "Hands-free"): a line as a player
would say it, or as a phone's dictation writes it, cut into words; numbers said as words;
a name matched to the names the game knows although misheard by a letter or two.

Nothing here knows a game: :mod:`companion.ats.spoken` and :mod:`companion.sse.spoken`
turn the words into the same partial entry the notation gives, and the game's
``parse`` completes it in the context of the position (``incontext.complete``), so a
sentence and a line of notation take one path to the rules.  Never a guess: two close
names raise :class:`~companion.core.notation.IncompleteNotation` with both."""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

from .notation import IncompleteNotation, NotationError

#: numbers as dictation writes them (and the words a phone hears for them)
NUMBER_WORDS = {
    "zero": 0, "oh": 0, "o": 0, "nought": 0, "naught": 0, "none": 0, "nil": 0,
    "one": 1, "won": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20,
}
#: words that may stand for a number where a number is expected (never elsewhere)
HOMOPHONES = {"to": 2, "too": 2, "for": 4, "fore": 4, "ate": 8, "free": 3, "tree": 3}
MINUS = ("minus", "negative", "neg", "-")
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
            "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2,
            "3rd": 3, "4th": 4, "5th": 5, "6th": 6}
#: words that carry no meaning in a spoken entry
FILLER = frozenset({"the", "a", "an", "please", "uh", "um", "er", "ok", "okay", "so",
                    "and", "then", "now", "i", "i'll", "ill", "we", "my", "card", "just"})

_WORD = re.compile(r"-?[0-9]+|[a-z]+(?:'[a-z]+)?")
MAX_LINE = 300


def fold(text: str) -> str:
    """Lower case, accents dropped, curly quotes straightened."""
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("\u2019", "'").replace("\u2018", "'").lower()


def words(text: str) -> list[str]:
    """``text`` as lower-case words and signed whole numbers, punctuation dropped
    ("Build Bio-Lab at 1, -1." -> build bio lab at 1 -1).  A line longer than a
    sentence is refused (NotationError)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("say what was done, e.g. \"build bio lab at one zero\"")
    if len(text) > MAX_LINE:
        raise NotationError(f"a sentence is at most {MAX_LINE} characters")
    folded = fold(text)
    # "1,-1" and "1/0" are two numbers; "-" between words is a space (bio-lab)
    folded = re.sub(r"(?<=[0-9])[,/;:](?=-?[0-9])", " ", folded)
    folded = re.sub(r"(?<![0-9a-z])-(?=[0-9])", " -", folded)
    return _WORD.findall(folded)


def refuse_question(text: str) -> None:
    """A line that ends with a question mark asks, it does not say what was done
    ("bio lab at one zero?", "city two east, right?"): refused (NotationError)."""
    if isinstance(text, str) and text.rstrip(" \t\"'\u201d\u2019").endswith(("?", "\uff1f")):
        raise NotationError("that is a question: say what was done, without \"?\"")


def number(word: str, *, homophones: bool = False) -> int | None:
    """A whole number said or written ("3", "three", "won"; "to"/"for" only with
    ``homophones``, where nothing but a number may stand)."""
    if re.fullmatch(r"-?[0-9]{1,4}", word):
        return int(word)
    if word in NUMBER_WORDS:
        return NUMBER_WORDS[word]
    if homophones and word in HOMOPHONES:
        return HOMOPHONES[word]
    return None


def signed(ws: Sequence[str], i: int, *, homophones: bool = False) -> tuple[int, int] | None:
    """The number starting at ``ws[i]`` ("minus two" counts as one: -2), with the index
    after it; None when there is none."""
    if i < len(ws) and ws[i] in MINUS and i + 1 < len(ws):
        n = number(ws[i + 1], homophones=True)
        return (-n, i + 2) if n is not None else None
    if i < len(ws):
        n = number(ws[i], homophones=homophones)
        if n is not None:
            return n, i + 1
    return None


def pair(ws: Sequence[str], i: int) -> tuple[tuple[int, int], int] | None:
    """Two numbers from ``ws[i]`` ("one zero", "1 0", "minus one two", "row 1 column 0"),
    with the index after them; None when there are not two."""
    j = i
    if j < len(ws) and ws[j] in ("row", "r"):
        j += 1
    first = signed(ws, j, homophones=_may_be_number(ws, j))
    if first is None:
        return None
    a, j = first
    if j < len(ws) and ws[j] in ("comma", "by", "and", "column", "col", "c"):
        j += 1
    second = signed(ws, j, homophones=_may_be_number(ws, j))
    if second is None:
        return None
    b, j = second
    if j < len(ws) and ws[j] in ("planet", "planets", "planetary"):
        return None         # "two, one planet": a count and a system's planets, no hex
    return (a, b), j


#: words after which "to" / "for" is the preposition, never the number two or four
#: (issue 52: "east three to the blue nebula" was read as the hex 3,2)
_NOT_AFTER_A_NUMBER = frozenset({"the", "a", "an", "my", "his", "her", "their", "our",
                                 "your", "its", "home", "homeworld", "one's", "that", "this"})


def _may_be_number(ws: Sequence[str], i: int) -> bool:
    """Whether a homophone at ``ws[i]`` ("to", "for") may be a number here: not when a
    destination follows it ("to the ...", "to my ...", "to home")."""
    nxt = ws[i + 1] if i + 1 < len(ws) else ""
    if nxt in _NOT_AFTER_A_NUMBER:
        return False
    # "three to four zero": a hex said after "to" makes it the preposition
    return not (number(nxt) is not None and i + 2 < len(ws) and (
        number(ws[i + 2]) is not None or ws[i + 2] in MINUS))


def squash(text: str) -> str:
    """A name as the matcher compares it: letters and digits only ("Bio-Lab" -> biolab)."""
    return re.sub(r"[^a-z0-9]", "", fold(text))


@dataclass(frozen=True)
class Match:
    name: str
    score: float


def skeleton(text: str) -> str:
    """How a name sounds, roughly, as dictation misspells it: each word's first letter
    and its consonants, doubled letters once ("Alien Bazaar" and "alien bizarre" -> aln
    bzr; "Anna", "Anah" and "Ana" -> an; "Clio" and "Cleo" -> cl; "Been" and "Ben" -> bn)."""
    out = []
    for w in re.findall(r"[a-z0-9]+", fold(text)):
        w = re.sub(r"ck|q|c(?![eiyh])", "k", w.replace("qu", "kw"))  # "Klio", "Cleo" alike
        w = re.sub(r"(.)\1+", r"\1", w.replace("z", "s").replace("ph", "f"))
        w = re.sub(r"(?<=[aeiouy])h$", "", w)      # "Anah" and "Ana": a silent last h
        out.append(w[0] + re.sub(r"[aeiouy]", "", w[1:]))
    return " ".join(out)


#: the score of a name that sounds the same as the one said (same skeleton), not spelt so
SOUNDS_LIKE = 0.9


def rank(said: str, names: Iterable[str], *, sound: bool = False) -> list[Match]:
    """The names ``said`` may mean, best first: an exact name (letters only) scores 1; a
    misheard letter or two scores by difflib's ratio on the squashed names, and on the
    words in order (so "bio lab" finds "Bio Lab", "biolab" and "bio lap" too).  With
    ``sound``, a name whose :func:`skeleton` is the one said scores at least
    :data:`SOUNDS_LIKE` ("alien bizarre" is the Alien Bazaar; two such names tie and the
    reader asks)."""
    key = squash(said)
    if not key:
        return []
    said_sk = skeleton(said) if sound else ""
    out: list[Match] = []
    for name in dict.fromkeys(names):
        other = squash(name)
        if not other:
            continue
        if other == key:
            score = 1.0
        else:
            score = difflib.SequenceMatcher(None, key, other, autojunk=False).ratio()
            if score >= TAKE and _a_word_is_another(said, name):
                score = TAKE - 0.01      # "moon orchard" is no misheard Ion Orchard
            if other.startswith(key) and len(key) >= 4:
                score = max(score, 0.8 + 0.15 * len(key) / len(other))
            if sound and len(said_sk.replace(" ", "")) >= 2 and skeleton(name) == said_sk:
                score = max(score, SOUNDS_LIKE)
        out.append(Match(name, round(score, 4)))
    out.sort(key=lambda m: (-m.score, m.name))
    return out


def by_part(said: str, names: Iterable[str], short: bool = False) -> list[str]:
    """The names that hold every word said as a word of theirs, or the start of one
    ("the bakery" -> Orbital Bakery, "holo display" -> Holographic Display Area; "market"
    -> every market: the reader then asks).  Words of fewer than
    four letters do not name a card alone, unless ``short`` (a station's own locations:
    "the lab" is its one Bio Lab)."""
    ws = [squash(w) for w in re.findall(r"[a-z0-9]+", fold(said))]
    ws = [w for w in ws if w and w not in ("the", "a", "an", "my", "his", "her", "their")]
    if not ws or all(len(w) < (3 if short else 4) for w in ws):
        return []
    out = []
    for name in dict.fromkeys(names):
        parts = [squash(w) for w in re.findall(r"[a-z0-9]+", fold(name))]
        # a word of the name, or the start of one ("holo display": Holographic Display Area)
        if all(w in parts or (len(w) >= 4 and any(p.startswith(w) for p in parts))
               for w in ws):
            out.append(name)
    return out


def _a_word_is_another(said: str, name: str) -> bool:
    """Whether, word for word, one word said is another word, not the name's misheard
    ("moon" for "ion": a whole word changed, issue 52), when both have as many words."""
    a = [squash(w) for w in re.findall(r"[a-z0-9]+", fold(said))]
    b = [squash(w) for w in re.findall(r"[a-z0-9]+", fold(name))]
    if len(a) != len(b) or len(a) < 2:
        return False
    return any(x != y and difflib.SequenceMatcher(None, x, y, autojunk=False).ratio() < 0.6
               for x, y in zip(a, b))


#: a name is taken when it scores at least this ...
TAKE = 0.8
#: ... and the next one scores this much less (else both are shown)
MARGIN = 0.08


def pick(said: str, names: Iterable[str], what: str, kind: str, *,
         field: str = "card", sound: bool = False) -> str:
    """The one name ``said`` means among ``names``; two close ones raise
    :class:`IncompleteNotation` showing both, none a :class:`NotationError` naming what
    was heard."""
    names = list(names)
    ranked = rank(said, names, sound=sound)
    if ranked and ranked[0].score == 1.0 and (len(ranked) == 1 or ranked[1].score < 1.0):
        return ranked[0].name
    parts = by_part(said, names)
    if len(parts) > 1:          # "the market": a word of several names, not the start of one
        shown = parts[:4]
        raise IncompleteNotation(field, f"{kind}: which {what} is \"{said}\": "
                                 + ", ".join(shown[:-1]) + " or " + shown[-1] + "?", shown)
    close = [m for m in ranked if m.score >= TAKE]
    if len(close) == 1 or (close and close[0].score - close[1].score >= MARGIN):
        return close[0].name
    if close:
        shown = [m.name for m in close[:4]]
        raise IncompleteNotation(field, f"{kind}: which {what} is \"{said}\": "
                                 + ", ".join(shown[:-1]) + " or " + shown[-1] + "?", shown)
    near = [m.name for m in ranked if m.score >= 0.6][:3]
    raise NotationError(f"no {what} called \"{said}\""
                        + (f" (did you mean {' or '.join(near)}?)" if near else ""))


def find_name(ws: Sequence[str], names: Iterable[str], *, max_words: int = 5,
              cutoff: float = TAKE, sound: bool = False) -> list[tuple[int, int, Match]]:
    """Where a name of ``names`` is said in ``ws``: ``(start, end, match)`` for every run
    of up to ``max_words`` words that matches a name at ``cutoff`` or better, longest and
    best first (a game reader takes the first that fits the sentence)."""
    names = list(names)
    found: list[tuple[int, int, Match]] = []
    for i in range(len(ws)):
        for j in range(min(len(ws), i + max_words), i, -1):
            said = " ".join(ws[i:j])
            ranked = rank(said, names, sound=sound)
            if ranked and ranked[0].score >= cutoff:
                found.append((i, j, ranked[0]))
    found.sort(key=lambda f: (-f[2].score, -(f[1] - f[0]), f[0]))
    return found
