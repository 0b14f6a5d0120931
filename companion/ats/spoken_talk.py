"""What a table says, in the words the Among the Stars reader knows (issue 52): a line's
words (:func:`companion.core.spoken.words`) rewritten phrase by phrase before
:mod:`companion.ats.spoken` reads them.  Only phrases whose meaning is not in doubt:

- contractions and talk with no action in it ("I'm gonna", "my move:", "ok so");
- the verbs players use: "lay down", "put down", "goes with" (build); "sells off",
  "gets rid of", "dumps", "cashes in", "takes three credits for" (B 4.3, "Discard and
  Gain 3 Credits"); "uses the garden to build a power reactor", "make the garden a
  reactor", "paying with", "giving up" (B 4.2, the card given up for a Power Reactor);
- places: "up top" (above), "right above" (above), "one space right of", "two below"
  (a count of cells: ``steps:N``), "one up from" (above);
- energy: "taking both cubes from", "with the last cube on" (energy from);
- the advisors' bonus declined for 1 VP (R 4): "no thanks", "takes the point instead".

A rewrite never invents a card, a cell or a player: what is left is read, and refused
if not understood, as before."""
from __future__ import annotations

import re
from typing import Callable

COUNT_WORDS = {"one": 1, "won": 1, "a": 1, "an": 1, "1": 1, "two": 2,
               "2": 2, "three": 3, "3": 3, "four": 4, "4": 4}
_COUNT = r"(?:one|won|a|an|two|three|four|[1-4])"
_UNIT = r"(?: (?:more )?(?:spaces?|cells?|steps?|spots?|squares?|places?|slots?|rows?|columns?))?"
_SIDE = r"(?:right|left|above|below|under|underneath|beneath|over|up|down|north|south|east|west)"

#: (pattern, replacement), applied in order on the words joined by single spaces
REWRITES: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
    (r"\ba single\b", " one "),
    # talk around the action ("umm yeah", "go ahead and", "like directly above")
    (r"\b(?:umm+|uhh*|erm+|yeah|yep|yup|basically|actually|just)\b|(?<!would )(?<!'d )\blike\b", " "),
    (r"\b(?:go|goes|going|went) ahead and\b", " "),
    (r"\b(?:the )?(?:last|next) (?:to go|up|one is|player is)\b", " "),
    (r"^ ?(?:real )?quick\b", " "),                     # "quick, ben, quartz garden, left"
    (r"^ ?(?:and )?(?:the )?(?:last|next) one\b", " "),   # "the last one, Cleo, ..."
    (r"\b(?:yo|lol|lmao|bro|dude|ich)\b", " "),
    # a few words of German and French at the table
    (r"\bunter\b", " under "), (r"\b(?:à|a) droite\b|\brechts\b", " right "),
    (r"\b(?:à|a) gauche\b", " left "),
    (r"\b(left|right|above|below|under) (?:to the |on the )?\1\b", r" \1 "),
    # a word spelt out letter by letter ("the B I O lab")
    (r"\b[b-hj-z](?: [a-z]){2,}\b", lambda m: " " + m.group(0).replace(" ", "") + " "),
    (r"\b(?:gimme|give me) (?:the )?(?:three |3 )?(?:credits?|cash|money)\b", " for three credits "),
    (r"\b(?:three |3 )credits (?:for|to) (?:me|him|her|them|us)\b", " for three credits "),
    (r"\bup above\b|\bupstairs (?:from|of)\b", " above "),
    (r"\bdownstairs (?:from|of)\b", " below "),
    (r"\bthat's (?!it\b|all\b|right\b|fine\b|done\b)([a-z]+)(?:'s)?\s*$", r" for \1 "),
    (r"\b(of|to|by|beside) the ([a-z]+) on the (left|right|top|bottom)\b", r" \1 the \3 \2 "),
    (r"\b(?:in|into) the corner between\b", " between "),
    (r"\bon the far (left|right),? (?:next to|beside|by)\b", r" \1 of "),
    (r"\b(?:would )?rather (?:have|take|get) (?:the )?(?:three |3 )?(?:credits?|cash|money)\b",
     " for three credits "),
    (r"\b(north|south|east|west|top|bottom) side\b", r" \1 "),
    (r"\b(right|left|east|west),? (?:one|a) (?:space|cell|spot|step) over (?:from|of)\b", r" \1 of "),
    (r"\b(?:in|at) the (?:top|bottom|upper|lower) (?:left|right) corner,? (?=(?:just |right |directly )?"
     r"(?:above|below|left|right|under|next|beside)\b)", " "),
    (r"\b(?:down|up|over|out) there\b", " "),
    (r"\bup north\b", " north "), (r"\bdown south\b", " south "),
    (r"\btoo (?=the )", " to "),
    # the advisors (R 4), as a table takes or waves off a bonus
    (r"\b(?:waves?|waving|waved) off\b|\bnah\b|\bnope\b", " decline "),
    (r"\b(?:grabs?|grabbing|grabbed|accepting|claiming|taking) (?=(?:the )?(?:[a-z']+ )?(?:advisor|"
     r"bonus|ability)\b|the advisor of\b)", " takes "),
    # what another player did, said beside one's own action: commentary
    (r",? (?:the )?same (?:spot|place|cell|position|side) as [a-z]+'s [a-z]+\b", " "),
    (r"\b(?:copies|copying|copied|follows|following|like) [a-z]+ and\b", " "),
    (r"\b(?:does|doing) (?=the |a |an )", " build "),
    (r"\b(two|2) cubes both from\b", r" \1 from "),
    (r"^ ?((?:the |my |her |his )?(?:main |power |new |second )?reactor) pays (.*)$",
     r" \2 energy from \1 "),
    (r"\bposition (?=(?:below|above|left|right|under|at|to)\b)", " "),
    (r"^ ?(?:power )?reactor card\b", " reactor with "),
    (r"\bbecomes? (?:a |an )?(?:power )?reactor\b", " as a reactor "),
    (r"\b(?:power )?reactor out of\b", " reactor with "),
    (r"\b(?:toss(?:es|ing)?|chuck(?:s|ing)?) (?!away\b|out\b)([a-z' -]{1,40}?) for (?:the )?(?:three |3 )?"
     r"(?:cash|credits|money)\b", r" discard \1 "),
    (r"\b(?:doesn't|does not|don't|do not|didn't|did not) (?:want|need|take|use)(?= (?:the )?"
     r"[a-z']+\s*$)", " decline "),
    (r"\bplus ((?:minus |-)?(?:zero|one|two|three|four|[0-9]) (?:minus |-)?(?:zero|one|two|three"
     r"|four|[0-9]))\s*$", r" at \1 "),                 # "quartz garden plus one zero"
    (r"\bthat's ([a-z]+)'s\s*$", r" for \1 "),          # "..., that's Ben's"
    (r"\b(?:three |3 )?credits (?:go )?(?:to|for) ([a-z]+) for\b", r" \1 discard "),
    (r"\b(?:three |3 )?credits(?: please)?,? (?=.{0,20}\b(?:chuck|discard|sell|dump|bin|scrap))",
     " "),
    (r"\b(?:that |which )?(?:she|he|they|i|you) (?:already )?(?:has|have|had|built|owns?"
     r"|placed)\b", " "),                               # "the bakery she already has"
    (r"\b(?:old|existing)\b", " "),
    (r"\bnumber (?:two|three|four|five|six|[2-6])\b(?! ?(?:-?[0-9]|zero|one|minus))", " "),
    (r"^ ?(top|bottom|left|right|upper|lower) ([a-z]+) (above|below|left|right|under) it\b",
     r" \3 the \1 \2 "),                             # "top garden, above it, ..."
    (r"\b(?:on |at |to )?the far side of (?:the |my |her |his )?(left|right)\b", r" \1 of the \1 "),
    (r"\b(?:on |at |to )?the far side of (?:the |my |her |his )?(?:top|upper)\b", " above the top "),
    (r"\b(?:on |at |to )?the far side of (?:the |my |her |his )?(?:bottom|lower)\b",
     " below the bottom "),
    (r"\b(?:goes|go|going|is placed|placed) face ?down as\b", " as "),
    (r"\b(?:cash(?:es)?|cashing|cashed) ((?:the |a |an |my |her |his )?[a-z' -]{1,40}?) in\b",
     r" discard \1 "),
    (r"\b(cubes?|energy) (?:of|on|in)\b(?= (?:the |my |her |his )?[a-z ]{0,20}reactor)",
     r" \1 from "),
    # the energy said first ("the cube comes from the main reactor: bakery below ...")
    (r"^ ?(?:the |one |a )?(?:energy )?cubes? (?:comes?|came|coming) (?:off|from|out of) "
     r"((?:the |my |her |his )?(?:main |power |second |new )?reactor) (?=[a-z])(.*)$",
     r" \2 energy from \1 "),
    # "power reactor for Ben from the quartz garden": the card given up (B 4.2)
    (r"\breactor for ([a-z]+) (?:from|out of|using|with)\b", r" \1 reactor with "),
    (r"\b(?:flips?|flipping|flipped|turns?|turning|turned) (.{1,40}?) (?:over )?(?:as|into"
     r"|to (?:make|build|form)) (?:a |an )?(?:power )?reactor\b", r" reactor with \1 "),
    # a card's printed values read aloud with it ("Nebula Exchange, cost 2, energy 1")
    # (kept as ``printed_<value>_<n>`` words: :func:`printed` checks them against the card)
    (r"\bcosts? (?:is )?(?P<cost>[a-z0-9]+)(?: (?:and )?energy (?:is )?(?P<energy>[a-z0-9]+))?"
     r"(?: (?P<vp>[a-z0-9]+) (?:points?|vps?|victory points?))?\b",
     lambda m: " " + " ".join(f"printed_{k}_{v}" for k, v in m.groupdict().items() if v) + " "),
    # misspelt sides as phones write them
    (r"\b(?:rite|rigth|rihgt|wright)\b", " right "), (r"\b(?:lef|letf|lft|lefft)\b", " left "),
    (r"\b(?:bild|biuld|buld)(s?)\b", r" build\1 "), (r"\bdiscords?\b", " discard "),
    (r"\b(?:full stop|period|over and out|over)\s*$", " "),
    (r"\b(?:(?:it's|it is) )?(?:[a-z]+'s) turn\b", " "),
    (r"\bof (?:the |her |his |my |their |your )?main\b(?! reactor| one)", " of the main reactor "),
    (r"\b(?:that|this|the same) reactor\b", " it "),
    (r"\b(?:abov|abuv)\b", " above "), (r"\b(?:belo|bellow|blow)\b", " below "),
    (r"\bi want (?!(?:the )?(?:bonus|advisor|influence))", " "),
    # contractions and talk
    (r"\b(?:i'm|im|i am|i'll|ill|i will|i'd|id like to|i want to|i wanna)\b", " "),
    (r"\b(?:gonna|going to|wanna|want to|is going|are going)\b", " "),
    (r"\bmy (?:move|turn|go|action)\b", " "),
    (r"\b(?:ok|okay|so|alright|right|well) so\b", " "),
    (r"\b(?:she|he|they|you)(?:'s|'ll|'re|'d)?\b", " "),
    (r"\b(?:starts?|starting|opens?|opening) (?:the |this )?(?:year|round|turn|game)? ?with\b",
     " build "),
    (r"\b(?:would|'d) like to\b|\b(?:goes|go|going) first\b|\bstarts\b|\banother\b"
     r"|\bfirst player\b|\b(?:kicks?|kicking) off(?: with)?\b|\b(?:as )?(?:the )?active player\b"
     r"|\bfirst\b", " "),
    (r"\bsays? no to\b", " declines "),
    (r"\b(?:turns?|turning|turned) (?:it |that )?down\b", " declines "),
    (r"\b(?:will )?(?:have|has|having) (?=(?:the )?[a-z']+ (?:advisor|advisor's|bonus|ability)\b)",
     " takes "),
    (r"\b(?:ta|cheers)\s*$", " "),
    (r"\b(?:goes|go|going) for (?:the )?(?:one |1 )?(?:vp|victory point|point)\b", " takes the point "),
    # the advisors (R 4): "goes with the builders advisor" is its bonus taken
    (r"\b(?:goes|go|going) (?:with|for) (?=(?:the )?[a-z']+ (?:advisor|advisor's|bonus|ability)\b)",
     " takes "),
    (r"\band (?:scores?|gets?|takes?|gains?) (?:a|the|one|1) (?:vp|point|victory point)\b", " "),
    (r"\b(?:the|my|his|her|their|your) main one\b", " the main reactor "),
    (r"\b(?:new|other|second|extra) (?:power )?reactor\b", " power reactor "),
    (r"(?<!no )\b(?:please|thanks|thank you|cheers)\s*$", " "),
    # places
    (r"\b(at|on|in|to|into|onto) ([0-9])([0-9])\b(?! -?[0-9])", r" \1 \2 \3 "),  # "at 01"
    (r"\b(?:in|on|at|into) (?:the )?(?:empty |free |open )?(?:spot|space|cell|square|slot|place)"
     r" (?=(?:right|left|above|below|under|underneath|beneath|next|beside|to the|on the)\b)",
     " "),
    (r"\b(?:face|faces) ?down\b", " facedown "),
    (r"\b(?:face|faces) ?up\b", " "),
    (r"\bthe main one\b", " the main reactor "),
    # "on top of the garden": onto the card (its cell is taken) or above it? Players
    # say both (issue 52): asked, with the cell above offered
    (r"\b(?:on|onto) (?:the )?top of\b", " ontop "),
    # "... on top of the main reactor card, the square above it": the side it then says
    (r"\bontop ((?:the |my |her |his )?[a-z' ]{1,30}?)(?: card)? (?:the )?(?:square|cell|space|spot)"
     r" (above|below|under|left of|right of) (?:it|that)\b", r" \2 \1 "),
    (r"\bit (?:goes|go)\b", " goes "),
    (r"\b(?:up|on) top\b", " above "),
    (r"\b(?:at|on|in) the bottom\b", " below "),
    (r"\b(?:right|directly|just|immediately|straight) (?=(?:above|below|under|underneath"
     r"|beneath|over|next|beside|by|to the|on the)\b)", " "),
    (r"\b(?:directly|just|immediately|straight) (?=(?:north|south|east|west|left|right|up|down)\b)",
     " "),
    (r"\b(left|right) (?:hand )?side\b", r" \1 "),
    (r"\b(?:in|into|on) (?:the )?(?:gap|space|spot|hole|slot|cell) between\b", " between "),
    (r"\bon (?:my|his|her|their|your|the) (?:main )?(?:reactor's |reactors )?(left|right)\b",
     r" \1 "),
    (r"\bon ([a-z]+'s) (?:main )?(?:reactor's )?(left|right)\b", r" \2 of \1 main reactor "),

    (r"\b(" + _COUNT + ")" + _UNIT + r" (?:up|higher) (?:from|than)\b", r" \1 above "),
    (r"\b(" + _COUNT + ")" + _UNIT + r" (?:down|lower) (?:from|than)\b", r" \1 below "),
    (r"\b(?:up|higher) (?:from|than)\b", " above "),
    (r"\b(?:down|lower) (?:from|than)\b", " below "),
    (r"\b(" + _COUNT + ")" + _UNIT + r" (?:to the |on the )?(?=" + _SIDE + r"\b)", r" steps:\1 "),
    # build (B 4.1)
    (r"\b(?:lays?|laying|laid|puts?|putting|sets?|setting|plonks?|slaps?) down\b", " build "),
    (r"\b(?:goes|go|going|went) (?:with|for)\b", " build "),
    (r"\b(?:makes?|making|powers|powering|builds?|building|puts?|putting) (?:up )?(?:a |an )?"
     r"(?:power )?reactor (.{0,40}?)(?:out of|from) ", r" reactor \1 with "),
    (r"\b(?:makes?|making|powers|powering) (?=(?:up )?(?:a |an )?(?:power )?reactor\b)", " build "),
    (r"\breactor (?:of|from) (?=(?:the |a |an |his |her |my )?[a-z])", " reactor with "),
    (r"\b(builds?|lays?|places?|puts?|putting|placing|drops?|discards?|discarding|sells?|selling"
     r"|dumps?) it\b",
     r" \1 "),
    (r"\b(?:lays?|laying|puts?|putting|sets?|setting) ((?:the |a |an )?[a-z' -]{1,40}?) down\b",
     r" build \1 "),
    (r"\b(?:takes?|taking|took|grabs?) (.{1,40}?) and (?:sticks?|puts?|places?|builds?|drops?|"
     r"pops?|slots?|lays?|plonks?) it\b", r" build \1 "),
    (r"\b(?:flipping|flips?|flipped) (.{1,40}?) facedown\b", r" \1 "),
    (r"\b(?:putting|lays?|laying|laid|sticks?|sticking|pops?|popping|slots?|slotting|drops?"
     r"|dropping|plonks?|plonking|sets?|setting)\b", " build "),
    (r"\b(?:goes|go|going|went)\b(?= (?:right |just |directly )?(?:under|underneath|below|beneath"
     r"|above|over|on top|up top|next|beside|to the|on the|at|in the|into|left|right|north|south"
     r"|east|west|up|down|between)\b)", " build "),
    # discard for 3 credits (B 4.3)
    (r"\b(?:sells?|selling|sold) off\b", " sell "),
    (r"\b(?:gets?|getting|got) rid of\b", " discard "),
    (r"\b(?:dumps?|dumping|dumped|scraps?|scrapping|scrapped|bins?|binning|binned|recycles?"
     r"|recycling|recycled|flogs?|flogging|flogged)\b",
     " discard "),
    (r"\b(?:cash(?:es)?|cashing|cashed) in\b", " discard "),
    (r"\b(?:throws?|threw|throwing|toss(?:es)?|tossing|chucks?|chucking) ((?:the |a |an )?"
     r"[a-z' -]{1,40}?) (?:away|out)\b", r" discard \1 "),
    (r"\b(?:chucks?|chucking|chucked|toss(?:es|ing|ed)?)\b", " discard "),
    (r"\b(?:takes?|taking|took|gets?|getting|collects?|gains?) (?:the )?(?:three |3 )?"
     r"(?:credits?|money|cash|coins) (?:for|from)\b", " discard "),
    (r"\band (?:takes?|taking|gets?|getting|collects?|gains?) (?:the )?(?:three |3 )?"
     r"(?:credits?|money|cash|coins)\b", " for three credits "),
    (r"\bfor (?:the )?(three |3 )?(?:credits?|money|cash|coins)\b", r" for \1credits "),
    (r"\b(?:cash(?:es)?|cashing|cashed)\b(?! coins| credits)", " discard "),
    # a Power Reactor for a card (B 4.2)
    (r"\b(?:uses?|using|used) (.{1,60}?) (?:to build|to make|for|as) (?:a |an )?(?:power )?"
     r"reactor\b", r" reactor with \1 "),
    (r"\b(?:makes?|making|builds?|building|puts?|putting|wants?) (?:a |an )?(?:power )?reactor "
     r"(?:out of|from) ", " reactor with "),
    (r"\b(?:turns?|turning|trades?|trading|swaps?|swapping) in (.{1,60}?) (?:to make|to build|for)"
     r" (?:a |an )?(?:power )?reactor\b", r" reactor with \1 "),
    (r"\b(?:makes?|making|turns?|turning) (.{1,60}?) (?:into )?(?:a |an )?(?:power )?"
     r"reactor\b", r" reactor with \1 "),
    (r"\b(?:gives?|giving|gave|trades?|trading|traded|swaps?|swapping|swapped|exchanges?)"
     r" (?:up |in )?(.{1,60}?) for (?:a |an )?(?:power )?reactor\b", r" reactor with \1 "),
    (r"\b(?:trades?|trading|traded|swaps?|turns?) (?:in )?(.{1,40}?) (?:in )?for (?:three |3 )?"
     r"(?:credits|money|cash|coins)\b", r" discard \1 "),
    (r"\b(?:trading|trades?|swapping|swaps?) in\b", " with "),
    (r"\b(?:the )?card (?:given|given up|discarded|used|traded) (?:up )?(?:is|was)\b", " with "),
    # "paid with the power reactor": the energy's reactor (B 4.1), not a card given up
    (r"\b(?:and )?(?:pays?|paying|paid) (?:for it )?(?:with|from|by|using) (?=(?:the |my |her |his "
     r"|their )?(?:main |power |new |second |other |first )?reactors?\b)", " energy from "),
    (r"\band (?:pays?|paying|paid) (?:for it )?with\b", " with "),
    (r"\b(?:paying|paid|pays) (?:for it )?with\b", " with "),
    (r"\b(?:giving|gives|gave) up\b", " with "),
    # energy (B 4.1: energy cubes from reactors)
    (r"\b(?:taking|with|using) (?:the )?(?:last|remaining|only|its) (?:energy )?(?:cubes?|energy) "
     r"(?:on|from|off|of|in)\b", " energy from "),
    (r"\bboth (?:energy )?(cubes|energy)\b", r" two \1 "),
    (r"\b(?:paid|paying|powered|energy) (?:by|from) ((?:the |my |her |his )?(?:main |power )?reactor) "
     r"twice\b", r" two from \1 "),
    (r"\b(?:using|with|taking) (?:a|one|an|the) (?:energy )?cube\b", " one cube "),
    (r"\b(?:the |a |one )?(?:energy )?cubes? (?:comes?|came|coming) (?:off|from|out of)\b",
     " energy from "),
    (r"\b(?:using|with|taking) (?:the )?([a-z ]{1,40}?)'s (?:energy|cubes?|power)\b",
     r" energy from the \1 "),
    # the advisors' bonus declined for 1 VP (R 4)
    (r"\bno thanks?\b", " decline "),

    (r"\b(?:doesn't|does not|don't|do not|didn't|did not) (?:want|need|take|use)(?= (?:the )?"
     r"[a-z' ]{0,30}?(?:bonus|advisor|advisor's|ability)\b)", " decline "),
    (r"\b(?:takes?|taking|took|gets?|getting|goes for|go for) (?:the )?(?:one |1 )?"
     r"(?:vp|victory point|point) instead(?: of)?\b", " decline "),
    (r"\b(?:takes?|taking|gets?|getting) (?:the )?(?:one |1 )?(?:vp|victory point|point)\b",
     " decline "),
    (r"\b(?:passes|pass|passing) on\b", " decline "),
]
_COMPILED = [(re.compile(p), r) for p, r in REWRITES]
_SPACES = re.compile(r"\s+")


def normalize(ws: list[str]) -> list[str]:
    """``ws`` with what a table says rewritten in the reader's words (module doc); a
    count of cells before a side becomes ``steps:N``."""
    text = " " + " ".join(ws) + " "
    for pat, rep in _COMPILED:
        text = _SPACES.sub(" ", pat.sub(rep, text))     # one space: the next rule's lookahead
    out = []
    for w in text.split():
        if w.startswith("steps:"):
            n = COUNT_WORDS.get(w[6:], 1)
            if n != 1:
                out.append(f"steps:{n}")
            continue
        out.append(w)
    return out


def steps(w: str) -> int | None:
    """The count a ``steps:N`` word carries, else None."""
    if w.startswith("steps:") and w[6:].isdigit():
        return int(w[6:])
    return None


def printed(ws: list[str]) -> tuple[list[str], dict[str, str]]:
    """The words without the card's printed values read aloud with it, and those values
    ({"cost": "two", ...}, as said)."""
    said = {w.split("_")[1]: w.split("_", 2)[2] for w in ws if w.startswith("printed_")}
    return [w for w in ws if not w.startswith("printed_")], said
