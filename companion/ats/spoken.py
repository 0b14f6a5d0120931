"""A sentence as a player says it (issue 40, "Hands-free"), read in the context of the
position: "build bio lab at one zero, energy from the main reactor", "Ben discards the
garden", "reactor with garden right of the turret", "decline the advisor", "remove the
turret at 1 0".

:func:`read_sentence` gives the same partial entry a line of notation gives
(``actions.parse(text, who_optional=True).to_dict()``); :meth:`Game.parse` completes it
(:func:`companion.ats.incontext.complete`): who acts when nobody is named, the only legal
cell, the only energy payers.  Never a guess: two close card names, two cells "next to"
a location, two copies of the location named raise ``IncompleteNotation`` with the
options; a word that is not understood is refused (``NotationError``), never dropped.

The kinds, in the rulebook's words (B 4): "Build a Location" (build, place, put), "Build
Power Reactor" ("discard your selected card ... take a Power Reactor card": the card
named is the one given up: "reactor with garden", "garden as a reactor"), "Discard and
Gain 3 Credits" (discard, throw away, sell, "for three credits"); the Revival advisors'
bonus taken or declined for 1 VP (R 4); a location removed at the round's end (B 5).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..core import spoken as sp
from ..core.errors import CompanionError, IllegalAction
from ..core.notation import IncompleteNotation, NotationError
from .actions import KEY_ORDER
from .spoken_talk import normalize, printed, steps
from .spoken_words import (BUILD, CONFLICT, CUBES, DECLINE, DIRS, DISCARD, ENERGY_START,
                           EXTREME, FILLER, MAIN_WORDS, NEGATION, NEXT, PLAY, REMOVE, THROW,
                           Cell, advisor_entry, cell_pair, credits_said, energy_start,
                           part_of, pick_or_part, place_clause, sounds_like, tile_said)
from .station import MAIN, neighbours

if TYPE_CHECKING:
    from .game import Game


def read_sentence(game: Game, text: Any, player: str | None = None) -> dict[str, Any]:
    """The partial entry a sentence says (the shape of ``actions.parse(...).to_dict()``),
    to be completed and checked by :func:`companion.ats.incontext.complete`; ``player``:
    whose action it is when the sentence names nobody (a seat's page).
    NotationError (IncompleteNotation with the options) when it is not understood."""
    ws = sp.words(text.replace("@", " at ")) if isinstance(text, str) else sp.words("")
    sp.refuse_question(text)
    ws, values = printed(normalize(ws))
    bad = [w for w in ws if w in NEGATION]
    if bad and not _advisor_words(ws):
        raise NotationError(f"\"{bad[0]}\" changes what is said: say only what was done")
    d = _Reader(game, ws, player).read()
    card = game.catalogue.get(d.get("card") or "")
    for key, said in values.items():        # "Comet Kiln, cost three": as the card says?
        known, n = getattr(card, key, None), sp.number(said, homophones=True)
        if card is not None and isinstance(known, int) and n != known:
            raise NotationError(f"{card.name}: {key} {said} was said; the catalogue says "
                                f"{known}: check the card")
    return d


def _advisor_words(ws: Sequence[str]) -> bool:
    return bool({"bonus", "advisor", "advisors", "influence"} & set(ws))


class _Reader:
    def __init__(self, game: Game, ws: list[str], default: str | None = None):
        self.game, self.ws = game, ws
        self.d: dict[str, Any] = {}
        self.player: str | None = None
        self.default = default
        self.said_ref: Cell | None = None
        self._in_two = False            # reading one of two sides said (_two_sides)

    # -- the whole sentence ------------------------------------------------------------
    def read(self) -> dict[str, Any]:
        ws = list(self.ws)
        while ws[:1] and ws[0] in FILLER and ws[0] != "for" and not (
                ws[0] == "to" and any(w in DIRS for w in ws[1:3])):
            ws = ws[1:]                 # not "to the west ..." (a place said first)
        ws = self._player(ws)
        if self.player is None and self.default is not None:
            self.player = self.d["player"] = self.default
        ws = self._year_turn(ws)
        if _advisor_words(ws) or any(w in DECLINE for w in ws) or tile_said(self.game, ws):
            return advisor_entry(self.game, ws, self.d)
        energy: list[str] = []
        e = energy_start(ws)
        if e is not None:
            ws, energy = ws[:e], ws[e:]
        ws, place = place_clause(ws)
        if len(place) >= 3 and not self._names_a_card(ws):
            # the place said first and the card after it ("left of the main reactor, quartz
            # garden"; "at one zero, the drift market"): the one split that reads
            split = self._split_place(place)
            if split is not None:
                place, ws = split[0], ws + split[1]
        kind, ws = self._kind(ws, bool(place))
        card = self._card(ws, kind)
        if kind == "play":
            kind = "conflict" if card in self.game.catalogue.names("conflict") else "build"
        d = self.d
        d["do"] = kind
        if card is not None:
            d["card"] = card
        elif kind in ("build", "reactor", "discard", "conflict"):
            raise IncompleteNotation("card", f"{kind}: say the card's name (the card "
                                     f"{'given up for the reactor' if kind == 'reactor' else 'selected'})")
        self._may_act(kind)
        if place:
            if kind in ("discard", "conflict"):
                raise NotationError(f"a {kind} has no cell: \"{' '.join(place)}\"")
            d["at"] = list(self._where(place, kind, card))
        if energy:
            if kind != "build":
                raise NotationError(f"only a build pays energy: \"{' '.join(energy)}\"")
            d["energy_from"] = [list(c) for c in self._energy(energy, card)]
        return {k: d[k] for k in KEY_ORDER if k in d}

    def _may_act(self, kind: str) -> None:
        """Issue 52: a turn's action for a player who has acted this turn is refused
        first, before any question about its cell or reactors."""
        g, p = self.game, self.player
        st = g.state
        if kind not in ("build", "reactor", "discard", "conflict") or p is None \
                or st.finished or p not in st.acted:
            return                      # any other reason is the rules' own (advisors, ...)
        raise IllegalAction("wrong-player", f"{p} has already acted in year {st.year}, turn "
                            f"{st.turn}", action={"player": p, "do": kind})

    def _names_a_card(self, ws: list[str]) -> bool:
        """Whether the words left beside the place name a card ("kilt under the main
        reactor": they do, and the place is not cut)."""
        said = [w for w in ws if w not in FILLER and w not in BUILD and w not in PLAY
                and w not in DISCARD]
        if not said:
            return False
        if sp.find_name(said, self._names(), max_words=6, sound=True):
            return True
        try:
            return self._card(said, "build") is not None
        except CompanionError:
            return False

    def _split_place(self, place: list[str]) -> tuple[list[str], list[str]] | None:
        """The place clause cut where a card's name begins: the place kept readable, the
        rest a card; None unless exactly one cut reads both."""
        found = []
        for k in range(len(place) - 1, 0, -1):
            head, tail = place[:k], place[k:]
            if not [w for w in tail if w not in FILLER] or {"reactor", "reactors"} & set(tail):
                continue                # a reactor said is the place's, never the action's
            try:
                card = self._card(tail, "build")
                if card is None:
                    continue
                cell = self._where(list(head), "build", card)
            except CompanionError:
                continue
            found.append((head, tail, card, cell))
        # cuts that differ only by "the" give the same card and cell: one reading; at one
        # cell, the longest card said holds the shorter ("top garden, quartz garden": not
        # the Garden after "top garden quartz")
        if len({f[3] for f in found}) == 1 and all(
                set(sp.squash(w) for w in f[2].split()) <= set(sp.squash(w) for w in
                                                               found[-1][2].split())
                for f in found):
            return found[-1][:2]
        return None

    def _player(self, ws: list[str]) -> list[str]:
        """A leading name ("Ben: ...", "Ben builds ...", "for Ben ..."), or "for Ben" at
        the end."""
        players = list(self.game.setup.players)
        for start, n_skip in ((0, 0), (1, 1)):
            if n_skip and not (ws[:1] == ["for"]):
                continue
            for j in range(min(len(ws), start + 3), start, -1):
                who = self._who(ws[start:j], players)
                if who:
                    self.player = self.d["player"] = who
                    rest = ws[j:]
                    while rest[:1] and rest[0] in ("s", "is", "will", "has", "here",
                                                   "says", "wants"):
                        rest = rest[1:]
                    return rest
        for i in range(1, len(ws)):
            for j in range(min(len(ws), i + 3), i, -1):
                who = self._who(ws[i:j], players) if ws[i - 1] == "for" else None
                if who:
                    self.player = self.d["player"] = who
                    return ws[:i - 1] + ws[j:]
        # a name said later in the sentence, as it is written ("..., says Ben", "Nebula
        # Exchange, cost 2, Ben lays it at one zero"); a possessive names a station instead
        named = [(i, p) for i, w in enumerate(ws) for p in players
                 if sp.squash(w) == sp.squash(p) and not w.endswith("'s")]
        if len({p for _, p in named}) == 1:
            i, who = named[0]
            self.player = self.d["player"] = who
            rest = ws[:i] + ws[i + 1:]
            if i > 0 and rest[i - 1:i] in (["says"], ["said"], ["for"]):
                rest = rest[:i - 1] + rest[i:]
            return rest
        who = self._who(ws[-1:], players) if len(ws) > 2 and ws[-1] not in DIRS \
            and not ws[-1].endswith("s") else None          # not "bonus" (Ben's, unwritten)
        if who:                         # "... west of the main reactor, Anah" (dictated)
            self.player = self.d["player"] = who
            return ws[:-1]
        return ws

    @staticmethod
    def _who(said: Sequence[str], players: Sequence[str]) -> str | None:
        key = sp.squash(" ".join(said).removesuffix("'s"))
        if not key:
            return None
        exact = [p for p in players if sp.squash(p) == key]
        if exact:
            return exact[0] if len(exact) == 1 else None
        if len(key) < 5 or len(said) > 1:     # "cleo u" is no misheard "Cleo"
            return sounds_like(said, players)
        ranked = sp.rank(key, players)
        if ranked and ranked[0].score >= 0.85 and (len(ranked) == 1 or ranked[1].score < 0.8):
            return ranked[0].name
        return sounds_like(said, players)

    def _year_turn(self, ws: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(ws):
            if ws[i] in ("year", "turn") and i + 1 < len(ws):
                n = sp.number(ws[i + 1])
                if n is not None:
                    self.d[ws[i]] = n
                    i += 2
                    continue
            out.append(ws[i])
            i += 1
        return out

    # -- the kind ----------------------------------------------------------------------
    def _kind(self, ws: list[str], has_place: bool) -> tuple[str, list[str]]:
        """The kind said, and the words left for the card."""
        found: list[str] = []
        rest: list[str] = []
        said_conflict = False
        i = 0
        while i < len(ws):
            w = ws[i]
            nxt = ws[i + 1] if i + 1 < len(ws) else ""
            if w in BUILD:
                found.append("build")
            elif w in DISCARD or (w in THROW and nxt in ("away", "out", "it")):
                found.append("discard")
                if w in THROW:
                    i += 1
            elif w == "cash" and nxt == "in":
                found.append("discard")
                i += 1
            elif w in ("gain", "gains", "take", "takes", "for", "get", "gets") and (
                    (got := credits_said(ws, i + 1)) is not None):
                n, i = got
                if n not in (None, 3):
                    raise NotationError(f"a discard gains 3 credits, not {n} (B 4.3)")
                found.append("discard")
                continue
            elif w in REMOVE:
                found.append("remove")
            elif w in CONFLICT:
                said_conflict = True
                rest.append(w.removesuffix("'s"))          # "Conflict card" is a card's name too
            elif w in PLAY:
                found.append("play")
            elif w in ("reactor", "reactors") and not self._card_word(ws, i):
                found.append("reactor")
                if rest[-1:] == ["power"]:
                    rest.pop()
            elif w in ("with", "using", "discarding", "giving", "as", "face", "down",
                       "facedown", "flip", "flips", "flipped", "into") and self._reactor_said(ws):
                pass
            else:
                rest.append(w)
            i += 1
        kinds = set(found)
        if "reactor" in kinds and kinds <= {"reactor", "build", "discard"}:
            kinds = {"reactor"}       # "build a reactor with", "discard garden as a reactor"
        if said_conflict and kinds <= {"play"}:
            kinds = {"conflict"}      # "the conflict card": a Conflict card is played
        if "play" in kinds and kinds <= {"play", "build"}:
            kinds = {"play"}          # "play the garden": a build; "play Ambush": a conflict
        if len(kinds) > 1:
            raise NotationError("say one action: " + " or ".join(sorted(kinds)) + "?")
        if not kinds:
            if has_place and rest:
                return "build", rest    # "garden at one zero": only a build puts a card there
            raise NotationError("say what was done: build, reactor, discard, take or "
                                "decline the bonus, remove"
                                + (f" (heard \"{' '.join(self.ws)}\")" if self.ws else ""))
        return kinds.pop(), rest

    def _reactor_said(self, ws: Sequence[str]) -> bool:
        return any(w in ("reactor", "reactors") and not self._card_word(ws, i)
                   for i, w in enumerate(ws))

    def _card_word(self, ws: Sequence[str], i: int) -> bool:
        """Whether ``ws[i]`` ("reactor") is part of a card's name said ("backup reactor")."""
        names = [n for n in self._names() if "reactor" in sp.squash(n)]
        for a in range(max(0, i - 3), i + 1):
            for b in range(i + 1, min(len(ws), i + 3) + 1):
                r = sp.rank(" ".join(ws[a:b]), names)
                if r and r[0].score >= sp.TAKE and b - a > 1:
                    return True
        return False

    def _names(self) -> list[str]:
        cat = self.game.catalogue
        return cat.names("location") + cat.names("conflict")

    # -- the card ----------------------------------------------------------------------
    def _card(self, ws: list[str], kind: str) -> str | None:
        said = [w for w in ws if w not in FILLER]
        if kind == "remove":
            said = [w for w in said if w not in ("it", "one")]
        if not said:
            return None
        cuts = [k for k in range(1, len(said)) if set(said[:k]) == set(said[k:])] or [
            k for k in range(1, len(said))      # the card said again ("the kiln, the comet
            if set(said[:k]) <= set(said[k:]) or set(said[k:]) <= set(said[:k])]   # kiln")
        if cuts:
            said = max(said[:cuts[0]], said[cuts[0]:], key=len)
        names = self._names()
        spans = sp.find_name(said, names, max_words=6, sound=True)
        full = [s for s in spans if (s[0], s[1]) == (0, len(said))]
        if full:
            top = full[0][2]
            better = [s for s in spans if s[2].score > top.score]
            same = [s for s in better if s[2].name == top.name]
            if same:                # "fly quartz garden": "fly" is not understood
                a, b, _ = same[0]
                raise NotationError(f"did not understand \"{' '.join(said[:a] + said[b:])}\"")
            others = list(dict.fromkeys(s[2].name for s in better
                                        if not part_of(said, s, top.name)))
            if others:
                shown = [top.name] + others[:3]
                raise IncompleteNotation("card", f"which card is \"{' '.join(said)}\": "
                                         + " or ".join(shown) + "?", shown)
            return sp.pick(" ".join(said), names, "card", kind, sound=True)
        if spans:
            parts = sp.by_part(" ".join(said), names)
            if len(parts) == 1:         # "holo display": Holographic Display Area
                return parts[0]
            a, b, _ = spans[0]
            left = said[:a] + said[b:]
            raise NotationError(f"did not understand \"{' '.join(left)}\"")
        return pick_or_part(" ".join(said), names, "card", kind, "card")

    # -- cells ---------------------------------------------------------------------------
    def _acting(self, kind: str) -> str:
        if self.player is not None:
            return self.player
        g = self.game
        if kind == "remove":
            who = list(dict.fromkeys(v["player"] for v in g.round_end_due()))
        else:
            who = [p for p in g.setup.players if g.may_take_action(p)]
        if len(who) == 1:
            return str(who[0])
        raise IncompleteNotation("player", f"{kind}: whose station? say the player's name"
                                 + (f": {', '.join(who)}" if who else ""), who)

    def _where(self, ws: list[str], kind: str, card: str | None) -> Cell:
        """The cell a place clause says: "at one zero", "row 1 column 0", "right of the
        turret", "next to the main reactor"."""
        ws = [w for w in ws if w not in ("the", "a", "an", "cell", "space", "spot",
                                         "position", "square", "of", "side", "hand")
              and (w not in FILLER or w in ("to", "and") or w in DIRS
                   or sp.number(w) is not None)]
        if ws[:1] and ws[0] in ("at", "on", "in", "into", "onto"):
            ws = ws[1:]
        if ws[:1] == ["to"] and ws[1:2] and (ws[1] in DIRS or ws[1] in NEXT):
            ws = ws[1:]
        cell = cell_pair(ws)
        if cell is not None:
            return cell
        if ws[:1] == ["ontop"]:         # onto the card, or above it? (issue 52): asked
            r, c = self._locate(ws[1:], kind)
            raise IncompleteNotation("at", "\"on top of\" a location is its own cell, which is "
                                     f"taken: above it, @{r - 1},{c}?", [(r - 1, c)])
        if ws[:1] == ["between"]:
            return self._between(ws[1:], kind)
        n = steps(ws[0]) if ws else None
        if n is not None and ws[1:2] and ws[1] in DIRS:
            ws = ws[1:]
        if ws[:1] and ws[0] in DIRS:
            two = self._two_sides(ws, kind, card)
            if two is not None:
                return two
            d = DIRS[ws[0]]
            rest = [w for w in ws[1:] if w not in ("to", "from", "my", "her", "his", "their")]
            # a side said alone ("drift market north", "to the left", "up top") is the
            # side of the main reactor (B: "At the beginning of the game, the only
            # location in your Station is the Main Reactor")
            r, c = self._locate(ws[1:], kind) if rest else MAIN
            self.said_ref = (r, c)      # "... under the reactor, energy from it"
            return (r + d[0] * (n or 1), c + d[1] * (n or 1))
        if ws[:1] and ws[0] in NEXT:
            target = self._locate(ws[1:], kind)
            return self._next_to(target, kind, card, " ".join(ws[1 + (ws[1:2] == ["to"]):]))
        raise NotationError(f"cannot read the cell \"{' '.join(ws)}\" "
                            "(say e.g. \"at one zero\" or \"right of the garden\")")

    def _two_sides(self, ws: list[str], kind: str, card: str | None) -> Cell | None:
        """"right of the power reactor, under the right garden": two sides said, each
        read alone, that name one cell (two that differ are refused)."""
        if self._in_two:
            return None                 # one level only: never a search over every cut
        for k in range(2, len(ws) - 1):
            if ws[k] in DIRS:
                self._in_two = True
                try:
                    a, b = self._where(ws[:k], kind, card), self._where(ws[k:], kind, card)
                except CompanionError:
                    continue
                finally:
                    self._in_two = False
                if a != b:
                    raise NotationError(f"two places said: @{a[0]},{a[1]} and @{b[0]},{b[1]}")
                return a
        return None

    def _between(self, ws: list[str], kind: str) -> Cell:
        """"between the bakery and the power reactor", "between the two gardens": the one
        free cell beside both (asked when there are two, refused when none)."""
        if "and" in ws:
            k = ws.index("and")
            a, b = self._locate(ws[:k], kind), self._locate(ws[k + 1:], kind)
        else:
            said = [w for w in ws if w not in ("two", "both", "2")]
            if said:
                said[-1] = said[-1].removesuffix("s")       # "the two gardens"
            cells = self._named(said, kind) if said else []
            if len(cells) != 2:
                raise NotationError(f"between what? (\"between the {' '.join(said)} and ...\")")
            a, b = cells
        station = self.game.state.station(self._acting(kind))
        both = sorted(c for c in neighbours(a) if c in neighbours(b) and c not in station.cells)
        if len(both) == 1:
            return both[0]
        raise IncompleteNotation("at", f"{kind}: which cell between them: "
                                 + (", ".join(f"@{r},{c}" for r, c in both) or "none is free")
                                 + "?", both)

    def _next_to(self, target: Cell, kind: str, card: str | None, said: str) -> Cell:
        g, player = self.game, self._acting(kind)
        station = g.state.station(player)
        free = [n for n in neighbours(target) if n not in station.cells]
        try:
            legal = set(g.legal_cells(player, card if kind == "build" else None, do=kind))
        except CompanionError:
            legal = set()
        ok = [n for n in free if n in legal] or (free if not legal else [])
        if len(ok) == 1:
            return ok[0]
        shown = sorted(ok)
        raise IncompleteNotation("at", f"{kind}: which cell next to {said}: "
                                 + ", ".join(f"@{r},{c}" for r, c in shown)
                                 + ("" if shown else "none is free") + "?", shown)

    def _locate(self, ws: list[str], kind: str, last: Cell | None = None) -> Cell:
        """The cell of a location named in the acting player's station ("the turret",
        "the main reactor", "the reactor at 0 1", "the reactor right of it")."""
        ws = [w for w in ws if w not in ("the", "a", "an", "of", "to", "my", "his", "her",
                                         "their", "your", "own", "card", "location")]
        ws = self._own_station(ws, kind)
        if not ws:
            raise NotationError("say next to what (e.g. \"right of the main reactor\")")
        if ws == ["it"] or ws == ["that"] or ws == ["there"]:
            if last is None:
                raise NotationError(f"\"{ws[0]}\": say which location")
            return last
        cell = cell_pair(ws[1:] if ws[0] in ("at", "on") else ws)
        if cell is not None:
            return cell
        for j in range(1, len(ws)):
            if ws[j] in DIRS or ws[j] in ("at", "on"):
                base = self._locate(ws[j + 1:], kind, last) if ws[j] in DIRS else None
                if ws[j] in ("at", "on"):
                    at = cell_pair(ws[j + 1:])
                    if at is None:
                        break
                    if at not in self._named(ws[:j], kind):     # "the garden at 1 0"
                        raise NotationError(f"there is no {' '.join(ws[:j])} at "
                                            f"{at[0]},{at[1]} in the station")
                    return at
                assert base is not None
                d = DIRS[ws[j]]
                return (base[0] + d[0], base[1] + d[1])
        cells = self._named(ws, kind)
        if len(cells) == 1:
            return cells[0]
        said = " ".join(ws)
        cells.sort()
        raise IncompleteNotation("at", f"{kind}: which {said}: "
                                 + (" or ".join(f"@{r},{c}" for r, c in cells) + "?"
                                    if cells else f"there is none in the station"), cells)

    def _own_station(self, ws: list[str], kind: str) -> list[str]:
        """A location is in the acting player's own station: their name said before it is
        dropped ("Ana's garden" for Ana); another player's is refused (issue 52: "below
        Ben's power reactor" was read in Ana's station)."""
        players = list(self.game.setup.players)
        out = []
        for w in ws:
            who = self._who([w], players) if w.endswith("'s") or w in map(str.lower, players) \
                else None
            if who is None:
                out.append(w)
            elif self.player is None and w.endswith("'s"):      # "under Ana's reactor"
                self.player = self.d["player"] = who
            elif who != self._acting(kind):
                raise NotationError(f"\"{w}\": a location is built beside the player's own "
                                    f"locations, not in {who}'s station")
        return out

    def _named(self, ws: list[str], kind: str) -> list[Cell]:
        """The cells of the acting player's station that ``ws`` names."""
        if set(ws) in MAIN_WORDS:
            return [MAIN]
        station = self.game.state.station(self._acting(kind))
        said = " ".join(ws)
        if ws in (["reactor"], ["power", "reactor"], ["reactors"]):
            cells = [c for c, p in station.cells.items()
                     if p.is_reactor and (ws == ["reactor"] or c != MAIN)]
        else:
            labels = sorted({p.label for p in station.cells.values()})
            side = ws[0] if len(ws) > 1 and ws[0] in EXTREME else None
            if side is not None:
                said = " ".join(ws[1:])     # "the top garden": the highest garden
            try:
                name = pick_or_part(said, labels, f"location in {self._acting(kind)}'s "
                                     "station", kind, "at")
            except IncompleteNotation:
                raise
            except NotationError as e:
                raise IncompleteNotation("at", str(e).removeprefix("notation: "), ()) from None
            cells = [c for c, p in station.cells.items() if p.label == name]
            if side is not None and cells:
                axis, sign = EXTREME[side]
                best = min(sign * c[axis] for c in cells)
                cells = [c for c in cells if sign * c[axis] == best]
        return cells

    # -- energy --------------------------------------------------------------------------
    def _energy(self, ws: list[str], card: str | None) -> list[Cell]:
        """"energy from the main reactor", "two from the main reactor and one from the
        reactor at 0 1": one cell per cube."""
        parts: list[list[str]] = [[]]
        for w in ws:
            if w in ("and", "plus") and parts[-1]:
                parts.append([])
            else:
                parts[-1].append(w)
        out: list[Cell] = []
        counted = False
        last: Cell | None = self.said_ref
        for part in parts:
            n: int | None = None
            src = [w for k, w in enumerate(part)
                   if (w not in CUBES or part[k + 1:k + 2] == ["reactor"])
                   and w not in ENERGY_START and w not in FILLER
                   and w not in ("with", "using", "by", "taking", "of", "each")]
            if src and sp.number(src[0]) is not None and cell_pair(src) is None:
                n = sp.number(src[0])
                src = src[1:]
            elif len(src) > 2 and sp.number(src[0]) is not None and cell_pair(src[1:]) is not None:
                n = sp.number(src[0])
                src = src[1:]
            if n is not None:
                counted = True
            if "each" in part and src in (["reactor"], ["reactors"]):   # one from each
                st = self.game.state.station(self._acting("build"))
                out += [c for c in sorted((c for c, p in st.cells.items() if p.is_reactor),
                                          key=lambda c: (c != last, c)) for _ in range(n or 1)]
                counted = True
                continue
            if not src:
                raise NotationError(f"energy from where? \"{' '.join(part)}\"")
            last = self._locate(src, "build", last)
            out += [last] * (n if n is not None else 1)
        if not counted and len(out) == 1 and card is not None:
            got = self.game.catalogue.get(card)
            if got is not None and isinstance(got.energy, int) and got.energy > 1:
                out *= got.energy
        return out

    