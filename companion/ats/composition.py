"""Deck composition for a player count, mode and sets: counts only, no card names.

:func:`deck_composition` -> :class:`Composition`: how many basic cards (and which
copies, by the "3"/"4" marker), specials, conflicts, Power Reactors, objectives, and
the turns per year, each line with the rule it comes from.  ``.table()`` is a pandas
DataFrame (what, count, how, source); ``.text()`` the same as plain text.  The
seeded setup draw that uses these counts is :mod:`companion.ats.decks`, which
re-exports every name of this module.

Honesty: every count comes from a rulebook statement, from the component lists, or
from deck arithmetic that the table names as such.

Sources: **B** = the base rulebook (B 2 Contents, B 3 Setup, B 7 Aggressive
Mode, B 8 2-Player Rules, B 9 Variants), **R** = the Revival rulebook (R 1
Components, R 2.1 Setup, R 6 5-6 Player Rules).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

YEARS = 4
TURNS = 6                      # B 4: 6 turns a year; 7 in aggressive years after the conflicts
MODES = ("standard", "aggressive")
TWO_PLAYER = ("virtual", "revival")

# -- component counts (B 2 Contents, R 1 Components) ---------------------------
BASE_BASIC_CARDS = 72           # B 2
BASE_SPECIAL_CARDS = 44         # B 2
BASE_POWER_REACTORS = 16        # B 2
BASE_MAIN_REACTORS = 4          # B 2
BASE_CONFLICTS = 12             # B 2
BASE_OBJECTIVES = 8             # B 2
BASE_RACE_TILES = 8             # B 2
REVIVAL_BASIC_CARDS = 60        # R 1
REVIVAL_SPECIAL_CARDS = 30      # R 1
REVIVAL_POWER_REACTORS = 8      # R 1
REVIVAL_MAIN_REACTORS = 2       # R 1

#: every basic location comes in 4 copies: R 2.1 ("15 unique Basic Locations in the game,
#: each of them in 4 copies") for Revival, R 6 ("Add all 4 copies of each Location", with
#: base and Revival locations combined) for the base game.
COPIES = 4
#: Copies of each SPECIAL location: not stated by either book (only the totals, B 2: 44,
#: R 1: 30; the base card list has 21 names and 21 x 2 = 42, not 44).  Unknown: the deck
#: sizes below use the totals only, never a per-card count (issue 11).
SPECIAL_COPIES = None
BASE_BASIC_LOCATIONS = BASE_BASIC_CARDS // COPIES          # 18 (B 2 / card list: 18 names x 4)
REVIVAL_BASIC_LOCATIONS = 15                               # R 2.1 "15 unique Basic Locations"
REVIVAL_MARKED_3 = 3            # R 2.1: 10 locations' copies marked 3 = 30 cards -> 3 each
# Base: the 3-player deck is the basic cards marked "3" (B 3).  B does not
# print their number; deck arithmetic gives it: 3 players x 6 cards x 4 years
# = 72 cards dealt, minus 18 specials = 54 -> 3 of the 4 copies of each of the
# 18 basic locations (the same 3 + 1 split R 2.1 states for Revival).
BASE_MARKED_3 = 3 * TURNS * YEARS - 6 * 3                  # 54
BASE_MARKED_3_PER_LOCATION = BASE_MARKED_3 // BASE_BASIC_LOCATIONS   # 3

#: the books' words for each deck's copies of a basic location (:func:`basic_copies_in_deck`)
DECK_WORDS_3P = ("B 3: with 3 players, \"remove the Basic Location Cards with the number "
                 "\"4\" written in the lower, right-hand corner\"; 3 of each stay in the deck")
DECK_WORDS_R2P = ("R 2.1: the Revival 2-player deck takes \"all of their copies with the "
                  "number 3 ... (for a total of 30 cards)\", 3 of each")


def basic_copies_in_deck(players: int, two_player: str | None = None,
                         all_in: bool = False) -> tuple[int, str | None]:
    """Copies of each basic location the game's deck holds, and the book's words when
    fewer than the box's :data:`COPIES`: 3 with 3 players (B 3, the copies marked "4"
    back in the box) and with the Revival 2-player rules (R 2.1, the copies marked
    "3"); all 4 otherwise (B 3 with 4 players, B 8's 4-player setup, R 6), and in the
    All-in variant, which takes every card of the sets in use (B 9), as
    :func:`deck_composition` counts them."""
    if all_in:
        return COPIES, None
    if two_player == "revival":
        return REVIVAL_MARKED_3, DECK_WORDS_R2P
    if players == 3:
        return BASE_MARKED_3_PER_LOCATION, DECK_WORDS_3P
    return COPIES, None


SPECIALS_PER_PLAYER = 6         # B 3
SPECIALS_PER_PLAYER_5_6 = 8     # R 6
BASIC_LOCATIONS_5_6 = {5: 20, 6: 24}                       # R 6
CONFLICTS_5_6 = {5: 10, 6: 12}                             # R 6
REVIVAL_2P_LOCATIONS = 10       # R 2.1
REVIVAL_2P_SPECIALS = 18        # R 2.1
REVIVAL_2P_PILES = 4            # R 2.1
REVIVAL_2P_PILE_SIZE = 12       # R 2.1
ALL_IN_SET_ASIDE = 20           # B 9

SRC_B2 = "B 2 Contents"
SRC_B3 = "B 3 Setup"
SRC_B4 = "B 4 Round Overview"
SRC_B7 = "B 7 Aggressive Mode"
SRC_B8 = "B 8 2-Player Rules"
SRC_B9 = "B 9 All-in Variant"
SRC_R1 = "R 1 Components"
SRC_R21 = "R 2.1 Setup"
SRC_R22 = "R 2.2 Round Overview"
SRC_R6 = "R 6 5-6 Player Rules"


@dataclass(frozen=True)
class Row:
    what: str
    count: int
    how: str
    source: str


@dataclass(frozen=True)
class Composition:
    """The deck and supplies for one configuration.  Counts only, no card names."""

    players: int                     # real players
    seats: int                       # hands dealt (4 with the 2 virtual seats)
    mode: str
    two_player: str | None           # "virtual" | "revival" | None (3-6 players)
    all_in: bool
    sets: tuple[str, ...]            # ("base",), ("revival",) or ("base", "revival")
    basic_locations: int             # different basic locations in the deck
    basic_pool: int                  # different basic locations they are chosen from
    basic_copies: int                # copies of each one in the deck
    basic_cards: int
    specials_per_player: int | None
    special_cards: int
    location_deck: int               # basic + special (before the All-in set-aside)
    set_aside: int                   # All-in: the bottom cards set aside unseen
    conflicts: int
    conflicts_year: int | None       # the year before which the conflicts are shuffled in
    turns: tuple[int, ...]           # turns in years 1-4
    cards_dealt: int                 # cards the players (and virtual seats) draw in the game
    piles: int | None                # Revival 2-player: face-down piles ...
    pile_size: int | None            # ... of this many cards
    reactor_supply: int
    main_reactors: int
    objectives: int                  # objective cards drawn (when objectives are played)
    rows: tuple[Row, ...] = field(repr=False, default=())
    rulings: tuple[str, ...] = field(repr=False, default=())

    @property
    def deck_in_play(self) -> int:
        """Location cards plus conflicts that can be drawn."""
        return self.location_deck - self.set_aside + self.conflicts

    @property
    def spare(self) -> int:
        """Cards left undrawn at the end (0 for every normal setup)."""
        return self.deck_in_play - self.cards_dealt

    def options(self) -> dict[str, Any]:
        """The record ``setup.options`` this configuration implies."""
        opts: dict[str, Any] = {"reactor_supply": self.reactor_supply}
        if self.two_player:
            opts["two_player"] = self.two_player
        if self.all_in:
            opts["all_in"] = True
        return opts

    def title(self) -> str:
        bits = [f"{self.players} players", self.mode]
        if self.two_player == "virtual":
            bits.append("2 virtual seats (B 8)")
        elif self.two_player == "revival":
            bits.append("Revival 2-player rules (R 2)")
        if self.all_in:
            bits.append("All-in variant")
        bits.append("sets: " + " + ".join(self.sets))
        return "Among the Stars setup: " + ", ".join(bits)

    def table(self) -> pd.DataFrame:
        import pandas as pd
        df = pd.DataFrame([r.__dict__ for r in self.rows], columns=["what", "count", "how", "source"])
        df["count"] = df["count"].astype(int)
        return df

    def text(self) -> str:
        w = max(len(r.what) for r in self.rows)
        c = max(len(str(r.count)) for r in self.rows)
        lines = [self.title(), ""]
        for r in self.rows:
            lines.append(f"{r.what:<{w}}  {r.count:>{c}}  {r.how}  [{r.source}]")
        if self.rulings:
            lines += ["", "Rulings where the books are silent:"]
            lines += [f"- {t}" for t in self.rulings]
        return "\n".join(lines)


def _check(players: int, mode: str, two_player: str | None, all_in: bool) -> str | None:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise ValueError(f"Among the Stars is for 2 to 6 players, not {players!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if players == 2:
        two_player = two_player or "virtual"
        if two_player not in TWO_PLAYER:
            raise ValueError(f"two_player must be one of {', '.join(TWO_PLAYER)}, not {two_player!r}")
        if two_player == "revival" and mode == "aggressive":
            raise ValueError("the Revival 2-player rules (R 2) have no Aggressive Mode: Revival has "
                             "no Conflict cards and the books do not say how to add them")
        if two_player == "revival" and all_in:
            raise ValueError("the All-in variant (B 9) is not given for the Revival 2-player rules, "
                             "whose 4 piles of 12 cards are built from chosen basic locations (R 2.1)")
    elif two_player is not None:
        raise ValueError(f"two_player ({two_player!r}) is only for a 2-player game")
    return two_player


def deck_composition(players: int, *, mode: str = "standard", two_player: str | None = None,
                     all_in: bool = False) -> Composition:
    """The deck composition for ``players`` (2-6), ``mode`` and the 2-player rules.

    ``two_player`` (2 players only): ``"virtual"`` (default, B 8: the 4-player
    setup with two virtual seats) or ``"revival"`` (R 2.1).  3-4 players use
    the base set, 5-6 players the base and Revival sets combined (R 6).
    ``all_in``: B 9, every location card of the sets in use in one deck, the
    bottom 20 set aside.  Raises ValueError for a combination the books do
    not give.
    """
    two_player = _check(players, mode, two_player, all_in)
    aggressive = mode == "aggressive"
    rows: list[Row] = []
    rulings: list[str] = []
    seats = 4 if two_player == "virtual" else players
    piles: int | None = None
    pile_size: int | None = None
    sets: tuple[str, ...]
    conflicts, conflicts_year = 0, None

    if two_player == "revival":                                   # ---- R 2.1
        sets = ("revival",)
        basic_locations, basic_pool = REVIVAL_2P_LOCATIONS, REVIVAL_BASIC_LOCATIONS
        basic_copies = REVIVAL_MARKED_3
        basic_cards = basic_locations * basic_copies
        specials_pp, special_cards = None, REVIVAL_2P_SPECIALS
        piles, pile_size = REVIVAL_2P_PILES, REVIVAL_2P_PILE_SIZE
        reactors, mains = REVIVAL_POWER_REACTORS, REVIVAL_MAIN_REACTORS
        rows.append(Row("Basic locations (different)", basic_locations,
                        f"chosen from the {basic_pool} Revival basic locations", SRC_R21))
        rows.append(Row("Basic cards", basic_cards,
                        f"{basic_locations} locations x their {basic_copies} copies marked \"3\"", SRC_R21))
        rows.append(Row("Special cards", special_cards,
                        f"drawn unseen from the {REVIVAL_SPECIAL_CARDS} Revival specials",
                        SRC_R21 + "; " + SRC_R1))
    elif players >= 5:                                            # ---- R 6
        sets = ("base", "revival")
        basic_locations = BASIC_LOCATIONS_5_6[players]
        basic_pool = BASE_BASIC_LOCATIONS + REVIVAL_BASIC_LOCATIONS
        basic_copies = COPIES
        specials_pp = SPECIALS_PER_PLAYER_5_6
        basic_cards = basic_locations * basic_copies
        special_cards = specials_pp * players
        reactors = BASE_POWER_REACTORS + REVIVAL_POWER_REACTORS
        mains = BASE_MAIN_REACTORS + REVIVAL_MAIN_REACTORS
        if not all_in:
            rows.append(Row("Basic locations (different)", basic_locations,
                            f"chosen from the {basic_pool} basic locations of both sets "
                            f"({BASE_BASIC_LOCATIONS} base + {REVIVAL_BASIC_LOCATIONS} Revival)",
                            SRC_R6 + "; pool: " + SRC_B2 + " / card list, " + SRC_R21))
            rows.append(Row("Basic cards", basic_cards,
                            f"{basic_locations} locations x all {COPIES} copies (marked \"3\" and \"4\")",
                            SRC_R6))
            rows.append(Row("Special cards", special_cards,
                            f"{specials_pp} per player, drawn unseen from the "
                            f"{BASE_SPECIAL_CARDS + REVIVAL_SPECIAL_CARDS} specials of both sets", SRC_R6))
    else:                                                         # ---- B 3 / B 8
        sets = ("base",)
        basic_pool = basic_locations = BASE_BASIC_LOCATIONS
        specials_pp = SPECIALS_PER_PLAYER
        reactors, mains = BASE_POWER_REACTORS, BASE_MAIN_REACTORS
        if seats == 3:
            basic_copies = BASE_MARKED_3_PER_LOCATION
            how = (f"{basic_locations} locations x their {basic_copies} copies marked \"3\" "
                   f"(the {BASE_BASIC_CARDS - BASE_MARKED_3} marked \"4\" go back in the box)")
            src = (SRC_B3 + " (remove the cards marked \"4\"); B prints no total: 3 players x 6 cards "
                   "x 4 years = 72 dealt - 18 specials = 54, i.e. 3 of each location's 4 copies "
                   "(the split R 2.1 states for Revival)")
        else:
            basic_copies = COPIES
            how = (f"all {BASE_BASIC_CARDS}: {basic_locations} locations x {COPIES} copies "
                   "(marked \"3\" and \"4\")")
            src = SRC_B3 + "; " + SRC_B2 + (("; " + SRC_B8 + " (the 4-player setup)") if two_player else "")
        basic_cards = basic_locations * basic_copies
        special_cards = specials_pp * seats
        if not all_in:
            rows.append(Row("Basic cards", basic_cards, how, src))
            if two_player:
                rows.append(Row("Special cards", special_cards,
                                f"{specials_pp} per seat x 4 seats (the 4-player deck), drawn unseen "
                                f"from the {BASE_SPECIAL_CARDS}", SRC_B3 + "; " + SRC_B8))
            else:
                rows.append(Row("Special cards", special_cards,
                                f"{specials_pp} per player, drawn unseen from the {BASE_SPECIAL_CARDS}",
                                SRC_B3))

    set_aside = 0
    if all_in:                                                    # ---- B 9
        basic_cards = BASE_BASIC_CARDS + (REVIVAL_BASIC_CARDS if "revival" in sets else 0)
        special_cards = BASE_SPECIAL_CARDS + (REVIVAL_SPECIAL_CARDS if "revival" in sets else 0)
        basic_locations = basic_pool
        basic_copies = COPIES
        specials_pp = None
        set_aside = ALL_IN_SET_ASIDE
        src_sets = SRC_B2 + ((" + " + SRC_R1) if "revival" in sets else "")
        rows.append(Row("Basic cards", basic_cards, "every basic card of the sets in use (all copies)",
                        SRC_B9 + "; " + src_sets))
        rows.append(Row("Special cards", special_cards, "every special card of the sets in use",
                        SRC_B9 + "; " + src_sets))
        if "revival" in sets:
            rulings.append("All-in with 5-6 players: every location card of both sets goes into the "
                           "one deck (B 9 speaks of the base box only).")
    location_deck = basic_cards + special_cards
    rows.append(Row("Location deck", location_deck,
                    "basic + special cards, shuffled together" + (" (all of them)" if all_in else ""),
                    SRC_B9 if all_in else (SRC_R21 if two_player == "revival" else
                                           SRC_R6 if players >= 5 else SRC_B3)))
    if all_in:
        rows.append(Row("Set aside", set_aside,
                        "the bottom 20 cards of the deck, unseen (they play the role of the unused specials)",
                        SRC_B9))
        rows.append(Row("Location cards that can be drawn", location_deck - set_aside,
                        "the deck after the set-aside", SRC_B9))

    if piles:
        rows.append(Row("Piles", piles, f"face-down piles of {pile_size} cards, one per year "
                        "(6 face up between the players, 6 face down, 2 added after each turn)", SRC_R21))

    # ---- Conflicts and turns
    if aggressive:
        if players >= 5:
            conflicts, conflicts_year = CONFLICTS_5_6[players], 3
            how = ((f"{conflicts} of the {BASE_CONFLICTS}, chosen at random" if conflicts < BASE_CONFLICTS
                    else f"all {BASE_CONFLICTS}") + ", shuffled into the deck before year 3")
            src = SRC_R6
        else:
            conflicts, conflicts_year = 3 * seats, 2
            how = (f"3 x {seats} {'seats' if two_player else 'players'}"
                   + (", chosen at random" if conflicts < BASE_CONFLICTS else " (all of them)")
                   + ", shuffled into the deck before year 2")
            src = SRC_B7
            if two_player == "virtual":
                src += "; ruling for the 2 virtual seats"
                rulings.append("Aggressive Mode with 2 players (virtual seats): 3 x 4 seats = all 12 "
                               "Conflict cards, and every seat draws 7 cards in years 2-4. B 8 says the "
                               "2-player game follows the 4-player setup; B 7's '3 times the number of "
                               "players' is taken per seat, the only count for which the deck suffices "
                               "(96 + 12 = 108 = 4 seats x (6 + 3 x 7) cards).")
        rows.append(Row("Conflict cards", conflicts, how, src))
        turns = tuple(7 if y >= conflicts_year else TURNS for y in range(1, YEARS + 1))
        turn_src = SRC_B7 if players < 5 else SRC_R6 + " + " + SRC_B7 + "; ruling for the years"
        if players >= 5:
            check = ("" if all_in else f"; the deck then holds exactly the cards dealt: {location_deck} + "
                     f"{conflicts} = {players} x (2 x 6 + 2 x 7)")
            rulings.append("Aggressive Mode with 5-6 players: the extra card (7 turns) comes in the years "
                           f"with conflicts, years 3 and 4 (R 6 moves the conflicts to year 3{check}).")
    else:
        turns = (TURNS,) * YEARS
        turn_src = SRC_B4 if two_player != "revival" else SRC_R22
    rows.append(Row("Turns", sum(turns), "years 1-4: " + ", ".join(map(str, turns)) + " turns", turn_src))

    if two_player == "revival":
        assert piles is not None and pile_size is not None     # set above for the Revival rules
        cards_dealt = piles * pile_size
        dealt_how = "one pile of 12 a year; each turn both players take one card"
    else:
        cards_dealt = seats * sum(turns)
        dealt_how = (f"{seats} hands x {sum(turns)} cards"
                     + (" (2 players + 2 virtual seats)" if two_player == "virtual" else ""))
    rows.append(Row("Cards dealt in the game", cards_dealt, dealt_how, "arithmetic"))

    # ---- Supplies
    if players >= 5:
        rows.append(Row("Power Reactor supply", reactors,
                        f"{BASE_POWER_REACTORS} base + {REVIVAL_POWER_REACTORS} Revival Power Reactors",
                        SRC_B2 + " + " + SRC_R1 + "; ruling: both boxes' reactors"))
        rulings.append("Power Reactor supply with 5-6 players: both boxes' Power Reactors, 16 + 8 = 24 "
                       "(R 6 does not say; the game combines both sets).")
    elif two_player == "revival":
        rows.append(Row("Power Reactor supply", reactors, "all the Revival Power Reactor cards in one pile",
                        SRC_R21 + "; " + SRC_R1))
    else:
        rows.append(Row("Power Reactor supply", reactors, "the base box's Power Reactor deck",
                        SRC_B2 + "; " + SRC_B3))
    boxes = "the boxes hold" if players >= 5 else "the box holds"
    rows.append(Row("Main Reactors", players, f"one per player ({boxes} {mains})"
                    + ("; none for the virtual seats" if two_player == "virtual" else ""),
                    SRC_B3 + (" + " + SRC_B8 if two_player == "virtual" else "")))
    objectives = 2 if players == 2 else players
    if two_player == "revival":
        obj_src = "R 2.1 (modules from the base box); ruling: 2 as in " + SRC_B8
        rulings.append("Revival 2-player rules with the base game's objectives: 2 are drawn, as in B 8.")
    elif players == 2:
        obj_src = SRC_B8
    else:
        obj_src = SRC_B3
    rows.append(Row("Objective cards drawn", objectives,
                    "as many as players (2 in a 2-player game), when playing with objectives", obj_src))

    return Composition(players=players, seats=seats, mode=mode, two_player=two_player, all_in=all_in,
                       sets=sets, basic_locations=basic_locations, basic_pool=basic_pool,
                       basic_copies=basic_copies, basic_cards=basic_cards, specials_per_player=specials_pp,
                       special_cards=special_cards, location_deck=location_deck, set_aside=set_aside,
                       conflicts=conflicts, conflicts_year=conflicts_year, turns=turns,
                       cards_dealt=cards_dealt, piles=piles, pile_size=pile_size,
                       reactor_supply=reactors, main_reactors=players, objectives=objectives,
                       rows=tuple(rows), rulings=tuple(rulings))

