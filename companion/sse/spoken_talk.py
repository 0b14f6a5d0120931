"""What a Small Star Empires table says, in the words the reader knows (issue 52): the
text of a sentence rewritten before :mod:`companion.sse.spoken` reads it.  Only phrases
whose meaning is not in doubt: the notation's marks said in a sentence, a ship said again
or by where it stands ("the green nebula ship"), a damage as players say it, "next door
to the east" (one step east), "until the end of the row", misheard words of a move,
"passes over" a system, the player named last ("..., that's Ben").  A rewrite never
invents a ship, a system or a player: what is left is read, and refused if not
understood, as before."""
from __future__ import annotations

import re

_WAY = (r"(north ?east|north ?west|south ?east|south ?west|east|west|up ?left|up ?right"
        r"|down ?left|down ?right|left|right)")
_SYSTEM = (r"((?:red |blue |green )?nebula|(?:one|two|three|single|double|triple|[123])[ -]"
           r"planet(?: system)?|home ?world)")


def table_talk(text: str) -> str:
    """A sentence's text with what a table says rewritten in the reader's words (module
    doc)."""
    # the notation's marks said in a sentence: "#2" is ship 2, "->" to, "@" at
    text = re.sub(r"#\s*(?=[0-9])", " ship ", text).replace("->", " to ").replace("@", " at ")
    text = re.sub(r"(?i)\bw/", " with ", text)         # "w/ a city"
    # "ship one, the one on my city, ...": the ship said again by where it stands (between
    # commas, after its number): the number names it
    text = re.sub(r"(?i)(\bship (?:#?\s*[0-9]+|zero|one|two|three|four)\b)\s*,\s*the one (?:on|at|"
                  r"sitting on|standing on|parked on) [^,]{1,40}(?:,|$)", r"\1,", text)
    # a ship damaged, as a table says it ("takes damage", "takes a hit", "mark ... as damaged")
    text = re.sub(r"(?i)\b(?:takes?|took|gets?|got) (?:some |a )?(?:damage|hit)(?: and is damaged)?\b"
                  r"|\bgets? damaged\b|\bis hit\b", " is damaged ", text)
    text = re.sub(r"(?i)\bmark(?:s|ed)? (.{1,60}?) as damaged\b", r" damage \1 ", text)
    # "the west end of the bottom row": a corner of the map
    text = re.sub(r"(?i)\bthe (?:west|left) end of the (bottom|top) row\b", r" the \1 left corner ", text)
    text = re.sub(r"(?i)\bthe (?:east|right) end of the (bottom|top) row\b", r" the \1 right corner ",
                  text)
    # "until the end of the row": as far as the line goes
    text = re.sub(r"(?i)(?<!next )\b(?:until|till|up to|to|at) the (?:very )?(?:far )?(?:(?:east|west|left|"
                  r"right) )?end(?: of the (?:row|line|map|board|galaxy))?\b", " all the way ", text)
    # misheard words of a move ("tu" two, "repare", "damadged"); "wounded" is damaged
    text = re.sub(r"(?i)\btu\b", " two ", text)
    text = re.sub(r"(?i)\brepare(s?)\b", r" repair\1 ", text)
    text = re.sub(r"(?i)\b(?:damadged|damged|wounded|hurt|broken down)\b", " damaged ", text)
    # "passes over the wormhole", "flies over the blue nebula": a system passed in a line
    text = re.sub(r"(?i)\b(?:pass(?:es|ed|ing)? )?over(?= (?:the |a |my |her |his )?(?:worm ?holes?"
                  r"|black holes?|red|blue|green|empty|[a-z]+ planets?)\b)", " past ", text)
    # "right next door to the east": one step that way; "next door" alone: next to the ship
    text = re.sub(r"(?i)\b(?:right |just )?next door (?:to the |to |on the )?" + _WAY + r"\b",
                  r" one step \1 ", text)
    text = re.sub(r"(?i)\b(?:right |just )?next door\b", " next to the ship ", text)
    # the ship said by what it flies with or from ("using ship zero", "from ship zero")
    text = re.sub(r"(?i)\b(?:using|from|by) (?=(?:the |my |his |her )?(?:ship|spaceship)\b)",
                  " ", text)
    text = re.sub(r"(?i)\btoo\b(?= (?:up|down|left|right|east|west|north|south|steps?|spaces?"
                  r"|hex(?:es)?|systems?)\b)", " two ", text)
    text = re.sub(r"(?i),? (?:that's|thats|that is|for) ([a-z]+)\s*[.!]?\s*$", r", says \1", text)
    text = re.sub(r"(?i)\bempty corner\b", " empty system ", text)
    # "the green nebula ship": the ship on the green nebula
    text = re.sub(r"(?i)\bthe " + _SYSTEM + r" ship\b", r" the ship on the \1 ", text)
    text = re.sub(r"(?i)\bfrom (?:his|her|my|their|the) home ?world\b", " from home ", text)
    # a damage said with its marker or where the ship sits
    text = re.sub(r"(?i),? (?:and )?(?:put|puts|place|places|putting|placing) (?:the|a) "
                  r"(?:damage )?(?:marker|token|counter) on (?:it|her|him|the ship|that ship)\b",
                  " ", text)
    text = re.sub(r"(?i)\b(?:where|as) it (?:sits|stands|is)\b", " ", text)
    # the piece said again with its own verb ("..., and she drops a city there")
    text = re.sub(r"(?i)\b(?:and (?:(?:she|he|they|i)(?:'s| is| will|'ll)? )?|(?:she|he|they|i)"
                  r"(?:'s| is| will|'ll)? )(?:drops?|dropping|puts?"
                  r"|putting|places?|placing|builds?|building|sets? up|founds?) (?:a |an )?"
                  r"(city|trade station)(?: there)?\b", r" \1 ", text)
    text = re.sub(r"(?i)\bit's (?=(?:on|at) )", " ", text)       # "..., it's on the homeworld"
    # dictation's spellings of the pieces, the verbs and the ways (issue 52, dev7)
    text = re.sub(r"(?i)\bsea tea\b|\bsee tee\b|\bc t\b", " city ", text)
    text = re.sub(r"(?i)\bts\b", " trade station ", text)
    text = re.sub(r"(?i)\bstay ?sh[ou]n\b|\bstashun\b", " station ", text)
    text = re.sub(r"(?i)\bnebyula\b|\bnebulla\b|\bnebuler\b", " nebula ", text)
    text = re.sub(r"(?i)\bflys\b", " flies ", text)
    text = re.sub(r"(?i)\bthrew\b(?= (?:the |a )?worm)", " through ", text)
    text = re.sub(r"(?i)\bsow ?th\b", " south ", text)
    text = re.sub(r"(?i)\btoo (?=planets?\b)", " two ", text)
    text = re.sub(r"(?i)\bship too\b", " ship two ", text)
    text = re.sub(r"(?i)\bx ?([1-9])\b", r" \1 steps ", text)         # "NE x2"
    text = re.sub(r"(?i)\(\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)", r" to \1,\2 ", text)   # "(1, 4)"
    text = re.sub(r"(?i)\b([a-z]+)'s (?:heading|headed)\b", r" \1 moves ", text)
    text = re.sub(r"(?i)\bhead(?:s|ing|ed)?\b(?= (?:to|for|off|out|[a-z]+ (?:hexes|steps|spaces|systems)"
                  r"|one|two|three|four|five|[0-9]|north|south|east|west|left|right|up|down)\b)",
                  " moves ", text)
    text = re.sub(r"(?i)\b(ship (?:[0-9]+|zero|one|two|three|four)) jumps?\b", r"\1 moves", text)
    text = re.sub(r"(?i)(?<!one )(?<!two )(?<!three )(?<!four )(?<!five )(?<![0-9] )(?<!hole )"
                  r"(?<!single )(?<!a )\bjumps?\b(?= (?:one|two|three|four|five|[0-9]|to|down|up|left|right|east"
                  r"|west|north|south)\b)", " moves ", text)
    text = re.sub(r"(?i)\bjust (?=(?:one|a|won)\b)", " ", text)
    # "the empty system above his homeworld": "above" names no hex direction; the system
    # said and the way said before it give the hex
    text = re.sub(r"(?i)\b(?:just )?(?:above|below|under) (?:his|her|my|their|the) home ?world\b",
                  " ", text)
    text = re.sub(r"(?i)\b(?:in|at) the corner\b", " ", text)
    text = re.sub(r"(?i)\b(ship (?:#?\s*[0-9]+|zero|one|two|three|four))(?:'s| is) damaged,? (?:so )?"
                  r"(?:i'll |i will |we'll |she'll |he'll )?(?:bring|take|fly|send)s? (?:it|her|him) "
                  r"home(?: to (?:be )?(?:repair(?:ed)?|fix(?:ed)?))?", r" repair \1 at home ", text)
    text = re.sub(r"(?i)\bit's (?=damaged\b)", " ", text)
    # a few words of German at the table; "too" after a direction
    text = re.sub(r"(?i)\bich\b", " ", text)
    text = re.sub(r"(?i)\bnull\b", " zero ", text)
    text = re.sub(r"(?i)\b(left|right|east|west) too\b(?= (?:to|steps?|spaces?|hex|hexes|systems?)\b)",
                  r"\1 two", text)
    text = re.sub(r"(?i)\babove[ -]?(left|right)\b", r" up \1 ", text)
    text = re.sub(r"(?i)\bbelow[ -]?(left|right)\b", r" down \1 ", text)
    # "take the wormhole and come out next to ...": where the ship arrives
    text = re.sub(r"(?i)\b(?:and )?(?:comes?|coming|came|pops?|popping|popped) out\b", " to ", text)
    return text
