"""Rebuild cards.yaml from card-names.csv plus the facts the rulebooks state.

Run: python data/among-the-stars/build_catalogue.py

card-names.csv is a copy of shared/data/among-the-stars-card-names.csv (names,
types, sets, copies).  FACTS holds only what the rulebooks state (see
shared/design/rules-digest.md, "Card facts stated in the books").  Every other
number stays null: the player types it from the physical card.

Each entry's ``source`` (issue 53, data/README.md lists the kinds): the book that states
its facts (FACTS), else the book that names it (NAMED), then ``list`` when its name,
types, set or kind come from the card list (tests/test_data_sources.py checks them).

Copies (issue 36: "copies: 2 on every special card (B 2 gives 44 base specials, which is
not 21 x 2) is now enforced"): the card list's copy counts are kept only where the base
rulebook backs them, the base basics' 4 ("72 Basic Location Cards", 18 names; a 3-player
game removes "the Basic Location Cards with the number '4'"), and that is a derivation,
said in each entry's notes.  The list's 2 for every special card disagrees with the book's
44 Special Location Cards for 21 names: those copies are null, the player's to type from
the box (and checked only once typed).
"""
import csv
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent

#: Sports Arena's ability is derived from one FAQ example, not stated (data/README.md)
SPORTS_ARENA = ('derived from B FAQ ("during the 2nd year of the game, you will get a '
                'bonus of +2")')
#: where the books name a card that has no fact below (card-names.csv "rulebook")
NAMED = {"Hotel": "R FAQ", "Commercial Zone": "R FAQ", "Travelling Exhibition": "R FAQ",
         "Trade Post": "R FAQ", "Investment Agency": "R FAQ", "Recharging Station": "R FAQ"}

#: what a book names that the card list does not hold (issue 53): name -> its set.  The
#: Bureau, only through R FAQ, COMMERCIAL ZONE: "What happens when Commercial Zone is built
#: adjacent to a Power Reactor or a Bureau from Ambassadors? Power Reactors have a cost of
#: 1. The Bureaus have a cost of 0."  Its name and set ("from Ambassadors"): the question;
#: its cost (FACTS): the answer; every other value (types, energy, VP, MAX, ability, kind,
#: copies) is in no source: null, typed by the players when it is built or laid.
BOOK_ONLY = {"Bureau": "ambassadors"}

# Only what the books say.  Keys absent here stay null (unknown).
FACTS = {
    "Holographic Display Area": dict(
        cost=2, energy=1, vp=2,
        abilities=[dict(when="immediate", per="adjacent_location", vp=1,
                        note="+1 VP per adjacent location (B, Sandra's example)")],
        source="B p.3 example"),
    "Command Centre": dict(
        max=1,
        abilities=[dict(when=None, per="station_location", vp=1, cap=8,
                        note="+1 for each location in the Station, MAX +8 (B card anatomy)")],
        source="B p.7 card anatomy"),
    "U-Cannon": dict(
        cost=2, energy=1, vp=3,
        abilities=[dict(when="immediate", per="energy_cube", vp=1, cap=3,
                        note="+1 VP per energy cube on reactors in the station, MAX 3 (R example)")],
        source="R p.3 example"),
    "Communications Beacon": dict(
        abilities=[dict(when=None, flat=None, **{"if": {"farthest_from_main_reactor": True}},
                        note="bonus if no location is farther from the Main Reactor (B FAQ); ties still score")],
        source="B FAQ"),
    "Sports Arena": dict(
        abilities=[dict(when="immediate", per="remaining_year", vp=1,
                        note="derived from one B FAQ example (\"if you play the card during the "
                             "2nd year of the game, you will get a bonus of +2\"; \"You count "
                             "only the remaining years\"): +1 per remaining year, gained when "
                             "built; the card's own text is not in the books")],
        source=SPORTS_ARENA),
    "Restaurant": dict(
        abilities=[dict(when=None, per="station_location", types=["recreational"],
                        include_self=True, vp=None,
                        note="counts recreational locations, itself included (B FAQ)")],
        source="B FAQ"),
    "School of Alien Cultures": dict(
        abilities=[dict(when="immediate", choice="pay_or_lose", pay=1, lose=2,
                        note="every other player secretly pays 1 credit or loses 2 VP (B FAQ)")],
        source="B FAQ"),
    "Residential Area": dict(
        abilities=[dict(when=None, per="adjacent_location", types=["business", "recreational"],
                        vp=None,
                        note="per adjacent Business and per adjacent Recreational, counted separately (R FAQ)")],
        source="R FAQ"),
    "Auction House": dict(
        abilities=[dict(when="end", per="credit", vp=None, every=None,
                        note="VP for remaining credits, on top of the usual 1 per 3 (R FAQ)")],
        source="R FAQ"),
    "Bureau": dict(cost=0, source="R FAQ"),
}
NOTES = {
    "Bureau": "R FAQ (Commercial Zone): \"The Bureaus have a cost of 0.\" No source gives its "
              "other values: type them from the card.",
    "Commercial Zone": "R FAQ: an adjacent card whose cost is X counts as 1; reactors cost 1. "
                       "The rest of the ability is not in the books: enter it (manual if needed).",
    "Trade Post": "R FAQ: immediate first part, delayed second part. Enter both parts.",
    "Investment Agency": "R FAQ: immediate first part, delayed second part. Enter both parts.",
    "Recharging Station": "R FAQ: spaceships next to reactors; a reactor covered on all sides "
                          "gets none and gives no VP. Enter the ability (manual if needed).",
    "Travelling Exhibition": "R FAQ: places/removes spaceships.",
}


def source(name, listed, fact):
    """The entry's ``source`` (data/README.md): the book that states its facts (``fact``,
    else where a book names it), then ``list`` when card-names.csv took its name, types,
    set, kind or copies from the public card list (``list``, ``rulebook+list``): the
    books state the types of Restaurant and Hotel only, and no book a set or a kind."""
    book = fact or NAMED.get(name)
    if listed == "list":
        return "; ".join(p for p in (book, "list") if p)
    if listed == "rulebook+list":
        if book is None:
            raise SystemExit(f"{name}: named in a book, but which? (add it to NAMED)")
        return f"{book}; list"
    if listed == "rulebook" and book is not None:
        return book
    raise SystemExit(f"{name}: unknown card-names.csv source {listed!r}")


def main():
    cards = []
    with open(HERE / "card-names.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = row["name"].strip()
            types = [t for t in row["types"].split("|") if t] or None
            fact = dict(FACTS.get(name, {}))
            entry = {"name": name, "types": types,
                     "cost": fact.pop("cost", None), "energy": fact.pop("energy", None),
                     "vp": fact.pop("vp", None), "max": fact.pop("max", None),
                     "abilities": fact.pop("abilities", None),
                     "set": row["set"], "kind": row["kind"] or None,
                     "copies": (int(row["copies"]) if row["copies"] and row["kind"] == "basic"
                                and row["set"] == "base" else None),
                     "source": source(name, row["source"], fact.pop("source", None))}
            notes = [NOTES[name]] if name in NOTES else []
            if entry["copies"] is not None:
                notes.append(f"copies {entry['copies']}: derived, not printed (B: \"72 Basic "
                             "Location Cards\" for 18 names, the 4th copies marked \"4\"); "
                             "correct it if your box differs")
            if notes:
                entry["notes"] = " ".join(notes)
            cards.append(entry)
    for name, set_name in BOOK_ONLY.items():
        fact = FACTS[name]
        cards.append({"name": name, "types": None, "cost": fact.get("cost"),
                      "energy": fact.get("energy"), "vp": fact.get("vp"), "max": fact.get("max"),
                      "abilities": fact.get("abilities"), "set": set_name, "kind": None,
                      "copies": None, "source": fact["source"], "notes": NOTES[name]})
    header = ("# Among the Stars location cards.  GENERATED by build_catalogue.py from\n"
              "# card-names.csv and the facts the rulebooks state.  null = not known:\n"
              "# the companion asks the player to type it from the physical card.\n")
    (HERE / "cards.yaml").write_text(header + yaml.safe_dump(cards, sort_keys=False),
                                     encoding="utf-8")
    print(f"wrote {len(cards)} cards")


if __name__ == "__main__":
    main()
