"""The rule codes of both games, in one Enum.

Every :class:`~companion.core.errors.IllegalAction` names the rule it breaks by
a short code (``e.rule``, shown as ``[rule: adjacency]``).  :class:`Rule` has one
member per code raised anywhere in the companion, with what the rule says in
each game that raises it, citing the rulebook where the code always did (B = the
Among the Stars base rulebook, R = its Revival rulebook, S = the Small Star
Empires rulebook, then the page or section; see the rules digest).  IllegalAction
turns its code into a :class:`Rule`, so a code missing here fails at once; as a
:class:`~enum.StrEnum` member it still equals its text (``e.rule == "credits"``).

docs/rules.md is the table of this Enum (:func:`markdown`): ``python -m companion
rules`` prints it, and tests/test_core_rules.py checks that the page is up to date.
"""
from __future__ import annotations

from enum import StrEnum

#: the games, by package: their codes and texts are keyed by these
ATS, SSE = "ats", "sse"
GAME_LABELS = {ATS: "Among the Stars", SSE: "Small Star Empires"}


class Rule(StrEnum):
    """One rule code; ``Rule.CREDITS == "credits"``.  ``texts`` maps each game that
    raises it (:data:`ATS`, :data:`SSE`) to what the rule says there."""

    texts: dict[str, str]

    def __new__(cls, code: str, texts: dict[str, str] | None = None) -> Rule:
        # builds the members below; afterwards Rule(code) looks a member up by its
        # code (the Enum machinery), so ``texts`` is only optional for the type checker
        member = str.__new__(cls, code)
        member._value_ = code
        member.texts = dict(texts or {})
        return member

    @property
    def games(self) -> tuple[str, ...]:
        """The games that raise this code (:data:`ATS`, :data:`SSE`)."""
        return tuple(self.texts)

    def text(self, game: str | None = None) -> str:
        """What the rule says in ``game``; without a game, in every game that
        raises it (each game named when they differ)."""
        if game is not None:
            return self.texts[game]
        if len(set(self.texts.values())) == 1:
            return next(iter(self.texts.values()))
        return "; ".join(f"{GAME_LABELS[g]}: {t}" for g, t in self.texts.items())

    # -- both games ------------------------------------------------------------------
    WRONG_PLAYER = "wrong-player", {
        ATS: "that player is not in this game or has already acted this turn",
        SSE: "it is another player's turn (players move in seat order; a player who "
             "cannot move has passed for the rest of the game)"}
    GAME_OVER = "game-over", {
        ATS: "the game has ended after year 4",
        SSE: "the game has ended (nobody can move, or every piece is on the board)"}
    MALFORMED = "malformed", {
        ATS: "the action is not in the record format",
        SSE: "the action is not in the record format"}

    # -- Among the Stars -------------------------------------------------------------
    NOT_ADJACENT = "not-adjacent", {
        ATS: "a location must be built orthogonally adjacent to a built location "
             "(B 4, Build Location)"}
    OCCUPIED = "occupied", {
        ATS: "that cell already holds a location",
        SSE: "a system holds one City or Trade Station (S Colonize: \"No other players may "
             "later colonize that system\")"}
    NO_ENERGY = "no-energy", {
        ATS: "the energy must come from reactors within distance 2, counted through built "
             "locations (B 4; FAQ)"}
    ENERGY_FROM = "energy-from", {
        ATS: "the reactors named in energy_from must be within distance 2 and hold the cubes"}
    CREDITS = "credits", {
        ATS: "not enough credits to pay the card's cost (B 4: a player who cannot pay must "
             "take another action)"}
    MAX = "max", {ATS: "the card's MAX build limit for one station is reached"}
    COPIES = "copies", {
        ATS: "every copy of the card the box holds (as the players typed it from the box; the "
             "books give only totals) is already built in the stations"}
    DECK_COPIES = "deck-copies", {
        ATS: "every copy of a basic location the game's deck holds is already built: with 3 "
             "players B 3 says \"remove the Basic Location Cards with the number \"4\"\" and "
             "the Revival 2-player deck takes \"all of their copies with the number 3 ... (for "
             "a total of 30 cards)\" (R 2.1), 3 of each; 4 otherwise"}
    REACTOR_SUPPLY = "reactor-supply", {
        ATS: "no Power Reactor cards are left in the supply (B 4, Build Power Reactor)"}
    REACTOR_CREDITS = "reactor-credits", {
        ATS: "building a Power Reactor costs 1 credit (B 4, Build Power Reactor)"}
    WRONG_TURN = "wrong-turn", {ATS: "actions are entered for the current year and turn only"}
    UNKNOWN_CARD = "unknown-card", {ATS: "the card is not in the catalogue"}
    UNKNOWN_VALUES = "unknown-values", {
        ATS: "a card's, race's or objective's printed values are needed but nobody has typed "
             "them yet: the players enter them from the physical card"}
    SPACESHIP = "spaceship", {
        ATS: "a spaceship occupies that space: no location may be built there (R 3)"}
    LIMITED_SPACE = "limited-space", {
        ATS: "outside the agreed table area (Limited Space variant)"}
    CHOICE = "choice", {
        ATS: "School of Alien Cultures: every other player pays 1 credit or loses 2 VP; "
             "enter each choice"}
    MANUAL_VP = "manual-vp", {ATS: "this ability's VP is typed by the players"}
    RESOLVE_ORDER = "resolve-order", {
        ATS: "simultaneous effects resolve by VP, then credits, then a random order stored "
             "in the record"}
    CONFLICT = "conflict", {
        ATS: "Aggressive mode: a Conflict card cannot be built; applying it costs 1 credit (B 7)"}
    CONFLICT_YEAR = "conflict-year", {
        ATS: "Conflict cards are in the deck from year 2 (year 3 with 5-6 players) in "
             "aggressive mode"}
    REVIVAL_ORDER = "revival-order", {
        ATS: "Revival 2-player rules: the active player acts first each turn; it alternates "
             "by round (R 2.2)"}
    VIRTUAL_SEAT = "virtual-seat", {
        ATS: "2-player rules: each turn each virtual seat's hand loses one card to the "
             "face-up pile (B 8)"}
    SPACESHIPS = "spaceships", {
        ATS: "a spaceship goes on an empty space next to a card of that station, at most 1 "
             "per space (R 3), judged when it is placed: after every player's action in "
             "simultaneous play (B Playing Order)"}
    ROUND_END = "round-end", {
        ATS: "at round end a station that breaks a rule loses locations until it is valid, "
             "before the next round begins (B 5)"}
    TIMING = "timing", {
        ATS: "timing rules (R 5): players announce and perform their actions in VP order, "
             "then credits, then a random order stored in the record"}
    ADVISOR_TILES = "advisor-tiles", {
        ATS: "Advisors (R 4): \"take randomly as many [Influence tiles] as the number of "
             "players\"; with 3 or more players \"place one randomly between each player and "
             "the player on his left\"; in a 2-player game both lie between the 2 players"}
    OBJECTIVES = "objectives", {
        ATS: "B 3: \"draw as many Objectives as the number of players\" (B 8: \"only 2 "
             "Objective Cards are drawn\" with 2 players), or none without the Objectives "
             "module; each objective card once"}
    ADVISOR = "advisor", {
        ATS: "Advisors (R 4): at each round's end the player an advisor leans to takes its "
             "bonus or declines it for 1 VP"}
    LAY = "lay", {
        ATS: "a position laid from the table (setup.options.laid) is entered station by "
             "station, one lay entry per player, before any other action; every location "
             "orthogonally connected to the Main Reactor at [0, 0] (B 4)",
        SSE: "a position laid from the table (setup.options.laid: final or now) is entered "
             "one lay entry per player, before any other action; in a game laid now, one "
             "entry says whose turn it is (next)"}
    CUBES = "cubes", {
        ATS: "a reactor comes into play with 2 Energy Cubes (B 3, B 4: \"They both come into "
             "play with 2 Energy Cubes on them\") and only loses them: it never holds more"}
    ENERGY_REACH = "energy-reach", {
        ATS: "a laid location that needs energy has a reactor within 2 of it, counted through "
             "built locations (B 4: \"This energy requirement must be paid by a location in "
             "your Space Station with Energy Cubes on it and within 2 distance ... Distance is "
             "counted through built locations, orthogonally\")"}
    ENERGY_SPENT = "energy-spent", {
        ATS: "a laid station's reactors lost at least the cubes its locations' energy took, "
             "each from a reactor within 2 of the location it paid (B 4: reactors \"come into "
             "play with 2 Energy Cubes\"; paying \"removes 1 Energy Cube\"); a payment that "
             "could have come from more than one reactor is accepted"}
    CLAIM = "claim", {
        ATS: "B 6: \"Each Objective can only be claimed by 1 player unless stated "
             "otherwise\": an objective judged at the table is typed once per player, and "
             "\"claimed by nobody\" excludes a claim (two players claiming it are a tie: "
             "\"no bonus is given\")"}
    NOTHING_TO_UNDO = "nothing-to-undo", {
        ATS: "there is no action to undo (in a what-if sandbox: no action of its own)",
        SSE: "there is no action to undo (the game has none)"}

    # -- Small Star Empires ----------------------------------------------------------
    NO_SHIP = "no-ship", {SSE: "that ship does not exist"}
    NO_MOVE = "no-move", {SSE: "a ship must move to another system"}
    NOT_STRAIGHT = "not-straight", {
        SSE: "a ship moves in a straight line in one of the six directions (S Movement)"}
    OFF_MAP = "off-map", {
        SSE: "there is no system there: ships move from system to system on the board"}
    OPPONENT_SYSTEM = "opponent-system", {
        SSE: "a ship may never move into or pass through a system another player controls, "
             "nor another player's homeworld (S Movement)"}
    BLACK_HOLE = "black-hole", {
        SSE: "a ship may never move into or pass through a Black Hole (S Black Holes)"}
    BLOCKED_SYSTEM = "blocked-system", {
        SSE: "no ship may enter or pass through a revealed Asteroid Field or Nordinn Empire "
             "system (S Unexplored Systems)"}
    CONQUERED = "conquered", {
        SSE: "a system with a Nordinn conquest marker cannot be entered (S Unexplored Systems)"}
    WORMHOLE_END = "wormhole-end", {
        SSE: "a ship may pass through a Wormhole but never stop in it (S Movement)"}
    WORMHOLE = "wormhole", {
        SSE: "a wormhole jump starts next to one Wormhole and ends next to another "
             "(S Wormholes)"}
    OWN_SYSTEM = "own-system", {
        SSE: "a ship may not end its move in a system its owner already controls (S Movement)"}
    OWN_HOMEWORLD = "own-homeworld", {
        SSE: "a ship may not move into its own homeworld, except a damaged ship going home "
             "for repair (S Movement, S Damaged Ships)"}
    DAMAGED_REACH = "damaged-reach", {
        SSE: "a damaged ship moves at most 2 systems (S Damaged Ships)"}
    DAMAGED_UNEXPLORED = "damaged-unexplored", {
        SSE: "a damaged ship cannot enter an Unexplored System (S Damaged Ships)"}
    UNEXPLORED_CITY = "unexplored-city", {
        SSE: "an Unexplored System is colonised with a City: without a City left you cannot "
             "enter it (S Unexplored Systems)"}
    NO_PIECES = "no-pieces", {
        SSE: "the colonising City or Trade Station must come from the reserve"}
    PIECE = "piece", {
        SSE: "colonise the system with 'city' or 'trade_station' from the reserve (S Colonize)"}
    REPAIR = "repair", {
        SSE: "a damaged ship that goes home is repaired and colonises nothing (S Damaged Ships)"}
    REVEAL = "reveal", {SSE: "name the effect of the Unexplored System tile just turned face-up"}
    DESTROY = "destroy", {
        SSE: "Nordinn Empire: destroy one of your own adjacent Cities, else another player's "
             "City (setup.options.nordinn: any_city, the default, or adjacent_city) "
             "(S Unexplored Systems)"}
    REFUEL = "refuel", {
        SSE: "Refuelling Station: the ship may go on to an adjacent uncolonised system and "
             "colonise it (S Unexplored Systems)"}
    OPEN_BORDERS = "open-borders", {
        SSE: "Open Borders: passing an opponent's system costs one of your unused Cities, "
             "paid to that opponent (S Open Borders)"}
    SHIPS = "ships", {
        SSE: "a laid position holds each player's ships (S Setup: \"each player starts with "
             "2-4 ships\"; the setup's number), each where a move can leave it: its "
             "homeworld, a system its player colonised (S Colonize: \"you MUST COLONIZE the "
             "system your ship has moved into\"), or the revealed tile that damaged it"}
    TRACK = "track", {
        SSE: "a laid position's score track holds at least the VP the map shows were scored "
             "during play (planets, Unexplored tiles); more only where a Nordinn Empire "
             "destroyed a City (S Colonize, S Unexplored Systems)"}
    NOT_OVER = "not-over", {
        SSE: "a position laid at the game's end: every player's reserve is empty, or no "
             "player can move (S Game End)"}
    DAMAGED = "damaged", {
        SSE: "damaging a ship (an expansion's effect) needs the damaged-ships variant, and "
             "the ship must be undamaged"}


def rule(code: str) -> Rule:
    """The :class:`Rule` of ``code``; an unknown code is a programming error and
    fails loudly (ValueError naming the code)."""
    try:
        return Rule(code)
    except ValueError:
        raise ValueError(f"unknown rule code {code!r}: every code an IllegalAction names "
                         "is a member of companion.core.rules.Rule") from None


def texts(game: str) -> dict[str, str]:
    """``{code: text}`` of every rule ``game`` (:data:`ATS`, :data:`SSE`) raises."""
    return {str(r): r.texts[game] for r in Rule if game in r.texts}


#: the sections docs/rules.md adds after the table: what the table does where the books
#: leave the table to do it, the book's part and our rulings told apart
SECTIONS = [
    "## Qualeen's secret objective",
    "",
    "The book's part (B FAQ, Qualeen: \"If I draw the \"Accelerated Construction\" Objective,",
    "do I still reveal it at the end of the game?\"; B 3: \"Put these cards face up on the",
    "table where everyone can see them\"): the Qualeen player holds one more objective card,",
    "kept secret and revealed at the end, and it is never one of the objectives face up.",
    "",
    "What the companion does (our rulings, issue 36):",
    "",
    "- A new game draws nothing for it: the Qualeen player draws a physical objective card",
    "  from the box and keeps it.  The setup says \"Cy (Qualeen) draws a secret objective card",
    "  from the box and keeps it; Cy's page asks which one\".",
    "- Cy's own seat page (`?seat=Cy`) asks which card it is during the game and saves it as",
    "  the record's manual entry `{\"source\": \"secret objective\", \"player\": \"Cy\", \"note\":",
    "  <card>, \"vp\": 0}`; that page then shows it.  Another seat's page cannot save it; the",
    "  host's page asks only in a folded panel, for a player without a phone, and never shows",
    "  the name.  No other page, the table view and the History tab included, shows it before",
    "  the final table.",
    "- A card face up, or another player's secret objective, is refused (`objectives`) on the",
    "  page, in a record read from a file and on the command line (`check`, `score`).",
    "- The final table scores the card Cy said (only Cy may claim it); a card not said during",
    "  the game is asked there.  Accelerated Construction may be revealed when fulfilled",
    "  (B FAQ): the players type its claim at the end like any objective typed at the table.",
    "",
    "## The books' facts and our rulings (issue 36)",
    "",
    "Checked on every path (a live entry, a record from a file or an import, `check`,",
    "`score`, `history import`), each from a book's sentence:",
    "",
    "- B 3: \"randomly draw as many Objectives as the number of players\"; B 8: \"only 2",
    "  Objective Cards are drawn\" with 2 players (`objectives`).",
    "- B 6: \"Each Objective can only be claimed by 1 player unless stated otherwise. If 2 or",
    "  more players are tied for any Objective, no bonus is given.\"",
    "- R 4: Influence tiles, \"as many as the number of players\", \"one randomly between each",
    "  player and the player on his left\" (`advisor-tiles`).",
    "- R 3: a spaceship goes \"on an empty space adjacent to an existing card in that",
    "  Station\" (`spaceship`, `spaceships`).",
    "- Small Star Empires: \"There are three Nebula Systems of each color\", \"7 Main Sector",
    "  Tiles\": a map holds at most 3 nebulae of a colour and 7 main sector tiles, and equals",
    "  what its own layout lays.",
    "",
    "Our rulings, where no book says:",
    "",
    "- Copies of a card: only the base game's basic cards have a count (4: derived from B's",
    "  \"72 Basic Location Cards\" for 18 names, the 4th copies marked \"4\"); every other",
    "  card's `copies` is `null` until the players type it from their box, and is checked",
    "  only once known (`copies`).  A basic location's copies in play are the deck's: 3",
    "  with 3 players (B 3, the cards marked \"4\" back in the box; B prints no total, deck",
    "  arithmetic gives 3 of each) and with the Revival 2-player rules (R 2.1), 4 otherwise",
    "  and in the All-in variant (`deck-copies`).",
    "- One objective, one claim (B 6: \"Each Objective can only be claimed by 1 player unless",
    "  stated otherwise. If 2 or more players are tied for any Objective, no bonus is",
    "  given.\", issue 53): an objective judged at the table is typed once per player; the",
    "  same player twice, or \"claimed by nobody\" beside a claim, is refused (`claim`) on",
    "  the page, in a record from a file, `check`, `score` and `history import`.  Two",
    "  players typed as claiming it are tied: each scores 0, as a tie on a measured",
    "  objective.  Typed again later, an entry replaces the earlier one.",
    "- A laid location removed at a round's end (B 5: \"The player also loses the VPs he",
    "  gained when he built the cards just removed ... If for some reason the VPs cannot be",
    "  calculated, the player loses the amount listed on the card, plus 3.\", issue 53): the",
    "  record has no line of its build, but a card with no ability of its own giving VP when",
    "  built (none `immediate`) gave its printed VP, which can be calculated: it loses its",
    "  printed VP.  A card whose immediate ability gave VP (it read the station as it was",
    "  then) or whose values are unknown loses its printed VP + 3.  A location built during",
    "  the game loses the VP its build's own lines gave (printed, its abilities).",
    "- \"Unless stated otherwise\" (B 6): a typed objective card says so with `shared: true`",
    "  (a checkbox on its form); a tie on it gives each claimant the bonus.",
    "- The epic Small Star Empires game mixes two boxes: 6 nebulae of a colour and 14 main",
    "  sector tiles at most.",
    "- A spaceship whose space is built on in the same turn is refused; a table that played",
    "  it as lost says so in the record (`setup.options.spaceship_filled: lost`).",
    "- A partial record (the base rulebook's worked example names 2 of George's 4",
    "  objectives) says what it takes on trust (`setup.options.on_trust`); `check` prints it.",
    "- A card the catalogue does not name is typed by the players from the physical card",
    "  (docs/catalogue.md); nothing is invented, an unknown value stays `null`.",
]


def markdown() -> str:
    """docs/rules.md: one table, code | game(s) | text, in the Enum's order."""
    def cell(s: str) -> str:
        return s.replace("|", "\\|")
    lines = ["# Rule codes",
             "",
             "Every refused action names the rule it breaks by a code (`[rule: credits]`).",
             "This table is generated from `companion.core.rules.Rule` by",
             "`python -m companion rules > docs/rules.md`; do not edit it by hand.  Citations:",
             "B = the Among the Stars base rulebook, R = its Revival rulebook, S = the",
             "Small Star Empires rulebook, then the page or section.",
             "",
             "| code | game(s) | text |",
             "|---|---|---|"]
    for r in Rule:
        games = ", ".join(GAME_LABELS[g] for g in r.games)
        lines.append(f"| `{r}` | {games} | {cell(r.text())} |")
    lines += ["", *SECTIONS]
    return "\n".join(lines) + "\n"
