"""The Among the Stars sentence reader's words (issue 40, issue 52): the verbs, sides,
fillers and energy words of :mod:`companion.ats.spoken`, and the pieces of a sentence it
cuts out before reading it (the place clause, the energy clause, a cell said as two
numbers)."""
from __future__ import annotations

import re
from typing import Any, Sequence

from ..core import spoken as sp
from ..core.notation import IncompleteNotation, NotationError
from .actions import KEY_ORDER
from .spoken_talk import steps

Cell = tuple[int, int]

BUILD = {"build", "builds", "built", "building", "place", "places", "placed", "placing",
         "put", "puts", "construct", "constructs", "constructed", "add", "adds", "added"}
DISCARD = {"discard", "discards", "discarded", "discarding", "sell", "sells", "sold",
           "selling", "trash", "trashes", "trashed", "ditch", "ditches", "ditched"}
THROW = {"throw", "throws", "threw", "toss", "tosses", "tossed", "chuck", "chucks"}
REMOVE = {"remove", "removes", "removed", "removing"}
TAKE = {"take", "takes", "took", "taking", "use", "uses", "used", "claim", "claims",
        "claimed", "accept", "accepts", "accepted", "get", "gets", "got", "keep", "keeps",
        "want", "wants", "yes"}
DECLINE = {"decline", "declines", "declined", "declining", "refuse", "refuses",
           "refused", "pass", "passes", "passed", "skip", "skips", "skipped", "reject",
           "rejects", "rejected"}
CONFLICT = {"conflict", "conflicts"}
PLAY = {"play", "plays", "played", "playing", "apply", "applies", "applied"}
#: words that turn the meaning round: refused wherever they are
NEGATION = {"not", "dont", "don't", "didnt", "didn't", "doesnt", "doesn't", "never",
            "undo", "cancel", "cancels", "without", "except", "unless", "if", "maybe",
            "or", "but", "wont", "won't", "cant", "can't", "instead", "no", "nothing",
            "would", "could", "should", "might", "probably", "perhaps", "possibly"}
#: more words with no meaning in an entry (beyond spoken.FILLER)
FILLER = sp.FILLER | {"location", "will", "wants", "to", "is", "going", "gonna",
                      "lets", "let's", "let", "me", "us", "his", "her", "their", "its",
                      "this", "turn", "action", "selected", "chosen", "new", "there",
                      "yeah", "well", "like", "right", "alright", "hmm", "oh", "hey",
                      "thanks", "thank", "you"}
DIRS: dict[str, Cell] = {
    "right": (0, 1), "east": (0, 1), "left": (0, -1), "west": (0, -1),
    "above": (-1, 0), "over": (-1, 0), "north": (-1, 0), "up": (-1, 0), "top": (-1, 0),
    "below": (1, 0), "under": (1, 0), "beneath": (1, 0), "underneath": (1, 0),
    "south": (1, 0), "down": (1, 0), "bottom": (1, 0)}
NEXT = {"next", "beside", "besides", "adjacent", "by", "touching", "near"}
ENERGY_START = {"from", "paid", "paying", "pays", "powered", "off"}
CUBES = {"energy", "cube", "cubes", "power"}
MAIN_WORDS = ({"main", "reactor"}, {"main"}, {"starting", "reactor"}, {"start", "reactor"},
              {"home", "reactor"}, {"main", "reactors"})


#: "the top garden": the one highest (row, smallest first), lowest, leftmost, rightmost
EXTREME = {"top": (0, 1), "upper": (0, 1), "highest": (0, 1), "bottom": (0, -1),
           "lower": (0, -1), "lowest": (0, -1), "left": (1, 1), "leftmost": (1, 1),
           "right": (1, -1), "rightmost": (1, -1)}


def sounds_like(said: Sequence[str], players: Sequence[str]) -> str | None:
    """The one player whose name sounds like the word said ("Anna" for Ana, "Benn" or
    "Been" for Ben, "Clio" for Cleo): one word of three letters or more, not an entry's
    own word."""
    if len(said) != 1 or len(said[0]) < 3 or said[0] in FILLER or said[0] in BUILD \
            or said[0] in DISCARD or said[0] in DIRS:
        return None
    word = said[0].removesuffix("'s")
    alike = [p for p in players if sp.skeleton(p) == sp.skeleton(word)]
    if not alike and len(word) >= 4 and word.endswith("s"):    # "annas": Anna's, unwritten
        alike = [p for p in players if sp.skeleton(p) == sp.skeleton(word[:-1])]
    return alike[0] if len(alike) == 1 else None


def pick_or_part(said: str, names: Sequence[str], what: str, kind: str, field: str) -> str:
    """:func:`companion.core.spoken.pick` (by sound too), else the one name holding the
    words said ("the bakery": Orbital Bakery); two such names are asked."""
    try:
        return sp.pick(said, names, what, kind, field=field, sound=True)
    except IncompleteNotation:
        raise
    except NotationError:
        parts = sp.by_part(said, names, short=field == "at")
        if len(parts) == 1:
            return parts[0]
        if parts:
            raise IncompleteNotation(field, f"{kind}: which {what} is \"{said}\": "
                                     + " or ".join(parts[:4]) + "?", parts[:4]) from None
        raise



def part_of(said: Sequence[str], span: tuple[int, int, sp.Match], name: str) -> bool:
    """Whether a shorter name said inside ``said`` ("garden" in "quarts garden") is part
    of the longer ``name`` it was heard as, the other words being that name's other
    words misheard by a letter or by sound ("quarts", "kwartz" for "quartz")."""
    a, b, m = span
    inner, whole = sp.squash(m.name), sp.squash(name)
    if inner not in whole:
        return False
    rest_said = sp.squash(" ".join(list(said[:a]) + list(said[b:])))
    rest_name = whole.replace(inner, "", 1)
    return bool(rest_said) and (sp.rank(rest_said, [rest_name])[0].score >= sp.TAKE
                                or sp.skeleton(rest_said) == sp.skeleton(rest_name))


def credits_said(ws: Sequence[str], i: int) -> tuple[int | None, int] | None:
    """"[three] credits" at ``ws[i]``: (the number or None, the index after)."""
    n = sp.number(ws[i], homophones=True) if i < len(ws) else None
    j = i + 1 if n is not None else i
    if j < len(ws) and ws[j] in ("credits", "credit", "money", "coins", "cash"):
        return n, j + 1
    return None


def cell_pair(ws: Sequence[str]) -> Cell | None:
    """Exactly two numbers ("one zero", "row 1 column 0", "column 0 row 1")."""
    if not ws:
        return None
    if ws[0] in ("column", "col") and "row" in ws:
        k = list(ws).index("row")
        c = sp.signed(ws, 1, homophones=True)
        r = sp.signed(ws, k + 1, homophones=True)
        if c and r and c[1] == k and r[1] == len(ws):
            return (r[0], c[0])
        return None
    got = sp.pair(ws, 0)
    if got is None or got[1] != len(ws):
        return None
    return got[0]


def energy_start(ws: Sequence[str]) -> int | None:
    """Where the energy clause begins ("energy from ...", "two from the main reactor",
    "paid by the reactor at 0 1"), or None."""
    for i, w in enumerate(ws):
        if w in ENERGY_START and i + 1 < len(ws):
            j = i
            while j > 0 and (ws[j - 1] in CUBES or ws[j - 1] in ("with", "using", "taking")):
                j -= 1
            if j > 0 and sp.number(ws[j - 1], homophones=True) is not None:
                k = j       # a run of numbers: a cell's two, then maybe the cubes' count
                while k > 0 and (sp.number(ws[k - 1], homophones=True) is not None
                                 or ws[k - 1] in sp.MINUS):
                    k -= 1
                n, m = 0, k
                while m < j:
                    got = sp.signed(ws, m, homophones=True)
                    if got is None:
                        break
                    n, m = n + 1, got[1]
                if n % 2 == 1 and (k == 0 or ws[k - 1] not in ("column", "col")):
                    j -= 1
                while j > 0 and ws[j - 1] in CUBES | {"with", "using", "taking"}:
                    j -= 1
            return j
    return None


PLACE_END = ("with", "using", "discarding", "giving", "as")


def place_clause(ws: list[str]) -> tuple[list[str], list[str]]:
    """The words of the cell said ("at one zero", "right of the turret", "next to the
    main reactor", "row 1 column 0"), and the words left."""
    for i, w in enumerate(ws):
        nxt = ws[i + 1] if i + 1 < len(ws) else ""
        start = None
        if w in ("at", "on", "in", "into", "onto") and (
                sp.signed(ws, i + 1, homophones=True) or nxt in ("row", "column", "col")
                or nxt in DIRS or nxt in NEXT or (nxt in ("the", "a") and i + 2 < len(ws)
                                                  and ws[i + 2] in DIRS)):
            start = i
        elif w in ("row", "column", "col") and sp.signed(ws, i + 1, homophones=True):
            start = i
        elif w in DIRS and nxt in ("of", "from", "the", "to") and w not in ("up", "down"):
            start = i
        elif steps(w) is not None and nxt in DIRS:
            start = i                   # "two below the main reactor" (spoken_talk)
        elif w in DIRS and (nxt == "" or nxt in PLACE_END or nxt in BUILD or nxt in DISCARD
                            or nxt in PLAY):
            start = i                   # "drift market north": the main reactor's side
        elif w in ("above", "over", "below", "under", "beneath", "underneath", "between",
                   "ontop"):
            start = i
        elif w in NEXT and nxt in ("to", "the", "of") or w in ("beside", "adjacent"):
            start = i
        elif w == "to" and nxt == "the" and i + 2 < len(ws) and ws[i + 2] in DIRS:
            start = i
        if start is None:
            continue
        end = len(ws)
        for j in range(start + 1, len(ws)):
            if ws[j] in PLACE_END or ws[j] in BUILD or ws[j] in DISCARD or ws[j] in PLAY:
                end = j
                break
        return ws[:start] + ws[end:], ws[start:end]
    for k in (4, 3, 2):                 # "two zero, kiln": the cell said first
        if len(ws) > k and cell_pair(ws[:k]) is not None and sp.number(ws[k]) is None \
                and ws[k] not in sp.MINUS:
            return ws[k:], ws[:k]
    for k in (4, 3, 2):                 # "build garden one zero": the cell said last
        if len(ws) > k and cell_pair(ws[-k:]) is not None and sp.number(ws[-k - 1]) is None \
                and ws[-k - 1] not in sp.MINUS:
            return ws[:-k], ws[-k:]
    return ws, []


# -- advisors (R 4) -----------------------------------------------------------------
def tile_said(game: Any, ws: Sequence[str]) -> bool:
    """Whether an Influence tile of the game is named ("been uses traders", R 4)."""
    tiles = {sp.squash(t.get("name", "")) for t in game.setup.options.get("advisors")
             or () if isinstance(t, dict)}
    return any(sp.squash(w.removesuffix("'s")) in tiles for w in ws)


def advisor_entry(game: Any, ws: list[str], d: dict[str, Any]) -> dict[str, Any]:
    """"take the bonus", "decline the advisor for one VP" (R 4: "he may announce it
    and gain 1 VP instead"): the bonus and the point said under one verb ("takes the
    bonus and the point") are both: refused."""
    if re.search(r"\band (?:the |a |one |1 )?(?:point|vp|victory point|bonus|ability)\b",
                 " ".join(ws)):
        raise NotationError("the advisor's bonus, or 1 VP instead: not both (R 4)")
    take: set[str] = set()
    rest: list[str] = []
    i = 0
    while i < len(ws):
        w = ws[i].removesuffix("'s")     # "the builders advisor's bonus"
        if w in TAKE:
            take.add("bonus")
        elif w in DECLINE or (w == "no" and ws[i + 1:i + 2] == ["bonus"]):
            take.add("decline")
        elif sp.number(w) not in (None, 1):
            raise NotationError(f"declining the bonus gains 1 VP (R 4), not {w}")
        elif w in ("for", "gain", "gains", "instead") or sp.number(w) == 1 \
                or w in ("vp", "point", "victory", "bonus", "bonuses", "advisor",
                         "advisors", "s", "influence", "tile", "on", "of", "from",
                         "ability", "no", "says", "said", "it", "that", "this", "by", "them"):
            pass
        elif w in FILLER:
            pass
        else:
            rest.append(w)
        i += 1
    if len(take) != 1:
        raise NotationError("say take the bonus or decline it (R 4)" if not take else
                            "take or decline: say one")
    if take == {"bonus"} and {"vp", "point", "points", "victory"} & set(ws):
        raise NotationError("the advisor's bonus, or 1 VP instead (R 4): take or decline?")
    d["do"] = "advisor"
    if rest:
        tiles = [t["name"] for t in game.setup.options.get("advisors") or ()]
        known = sorted({sp.squash(x) for t in tiles for x in t.split()})
        odd = [w for w in rest if not any(m.score >= sp.TAKE for m in sp.rank(w, known))]
        if odd:             # "Cleo takes the builders bonus": no "cleo builders" tile
            raise NotationError(f"\"{' '.join(odd)}\": no player or Influence tile of this "
                                "game")
        d["tile"] = sp.pick(" ".join(rest), tiles, "Influence tile", "advisor",
                            field="tile")
    d["take"] = take.pop()
    return {k: d[k] for k in KEY_ORDER if k in d}
