"""Issue 39, "Score the table as it lies": how much a player must do to lay a station on
the Among the Stars laying page, driven through its widgets in this process (no
browser), as tests/test_lay_page.py does.  Run it from the repository root:

    PYTHONPATH=. .venv/bin/python bench/bench_layout.py          # about 10 s
    PYTHONPATH=. .venv/bin/python bench/bench_layout.py --quick  # 2 players (tests/test_benches.py)

The game: 4 players (Ana, Ben, Cleo, Dev), created on the host's setup screen with
*Score a finished game* (``setup-laid``), no races, no objectives.  Each seat's page
(``?seat=NAME``) then lays its own station through the laying panel
(companion/ui/ats_lay.py): a 20-location station of 4 rows x 6 columns around the Main
Reactor at [0, 0] (1 cube), with 3 Power Reactors (1, 0 and 2 cubes).  The names are
real names of the shipped catalogue, base game only (12 basic + 8 special each, every
name once per station, a basic in at most 4 stations and a special in at most 2); each
lay must be accepted (one ``lay`` entry recorded, else the bench fails loudly).

What counts (a person at a phone):

* a tap: a cell of the grid; focusing a text field (a tap on the name field, the
  credits, the track VP: tapping a cell does not put the cursor in the name field);
  picking a name from the name field's list; *Power Reactor* (the choice of what lies
  there) and a cube count when it differs from what is shown; *Put it here*; *Lay the
  station*; on the host's setup screen, each name box, the *Score a finished game* box
  and *Start the game*.  Scanning a seat's QR code, scrolling and reading are not
  counted.
* a keystroke for a name: the name field is an ipywidgets Combobox whose options are the
  catalogue's location names (a browser datalist, which completes names).  The bench
  counts the shortest prefix of the name that no other location name of the catalogue
  starts with (case-insensitive: the catalogue reads "galactic bank" as "Galactic
  Bank"), plus one tap to pick the name from the list; a name no prefix singles out is
  typed whole and not picked.  A browser may list every option that *contains* the
  typed text: the keystrokes needed for the prefix to be contained in no other name are
  printed too, as a check (the taps are the same).
* other keystrokes: the credits' and the track VP's digits, the players' names on the
  setup screen.  Those are the player's own numbers, read off the table: the bench's
  (5 credits, 48 VP, ...) are PLACEHOLDERS typed as the player would, not printed
  numbers.  No card value is ever given by the bench, except the one MAX of the
  first-time case below, a placeholder said so in the output.

Time (assumed, not measured): 1.5 s a tap (the issue's figure: find the spot, tap it)
and 0.3 s a keystroke (about 3 characters a second on a phone's keyboard, a typical
rate for short words), plus the page's handlers' own time (measured here).  The four
seats lay in parallel (each on its own phone), after the host started the game: the
table's time is the host's setup + the slowest seat.

Targets (issue 39): a 20-card station in at most 60 taps (the taps only: the name
keystrokes are printed beside them, not counted in the 60), and the whole 4-player
scoring, each seat in parallel, in at most 3 minutes.

Values: the page asks a card value in two places only, and the bench shows both: the
final table's forms (an end-of-game ability of known shape with a number unknown; none
of these stations' cards has one), and the lay itself when a station holds two copies of
a card whose MAX is unknown (first time: refused, naming MAX; a returning table, MAX in
the player's catalogue: laid with no more taps).

``COMPANION_HOME`` is a fresh temporary folder: no player's file is read or touched.
A measurement script, never a test: it prints PASS/MISS and exits 0 (it raises if the
page refuses a station that must be laid).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (str(ROOT), str(ROOT / "tests")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

#: seconds a person needs for one tap, one keystroke (assumptions: see the docstring)
TAP_S = 1.5
KEY_S = 0.3
TAP_TARGET = 60
TABLE_TARGET_S = 180.0
PLAYERS = ["Ana", "Ben", "Cleo", "Dev"]
ROWS, COLS = range(-1, 3), range(-2, 4)          # 4 x 6 cells, the Main Reactor at [0, 0]
MAIN_CUBES = 1
#: where the 3 Power Reactors lie (indexes in the laying order) and their cubes
REACTORS = {3: 1, 11: 0, 19: 2}
#: the player's own numbers, read off the table (placeholders typed as the player would)
CREDITS = [5, 2, 7, 0]
TRACK_VP = [48, 41, 53, 37]
#: a card value the bench types in the first-time case only (a PLACEHOLDER, not printed)
PLACEHOLDER_MAX = 2


class Count:
    """One person's taps and keystrokes, by what they were for; handler time summed."""

    def __init__(self) -> None:
        self.taps: Counter[str] = Counter()
        self.keys: Counter[str] = Counter()
        self.handler_s = 0.0

    def tap(self, what: str, fn=None) -> None:
        self.taps[what] += 1
        if fn is not None:
            t0 = time.perf_counter()
            fn()
            self.handler_s += time.perf_counter() - t0

    def type(self, what: str, text: str, fn=None) -> None:
        self.keys[what] += len(text)
        if fn is not None:
            t0 = time.perf_counter()
            fn()
            self.handler_s += time.perf_counter() - t0

    @property
    def n_taps(self) -> int:
        return sum(self.taps.values())

    @property
    def name_keys(self) -> int:
        return self.keys["card names"]

    @property
    def other_keys(self) -> int:
        return sum(self.keys.values()) - self.name_keys

    def seconds(self) -> float:
        return self.n_taps * TAP_S + sum(self.keys.values()) * KEY_S + self.handler_s


#: how a typed prefix is judged unique: "start" (no other name starts with it, the
#: issue's measure) or "contains" (no other name contains it: a browser whose list shows
#: every option containing the text then shows this name alone; printed as a check)
MATCH = "start"


def shortest_prefix(name: str, names: list[str], match: str | None = None) -> str:
    """The fewest first characters of ``name`` that single it out among ``names``
    (:data:`MATCH`); the whole name if none does."""
    match = match or MATCH
    low = name.lower()
    others = [n.lower() for n in names if n.lower() != low]
    for k in range(1, len(low) + 1):
        p = low[:k]
        if not any(o.startswith(p) if match == "start" else p in o for o in others):
            return name[:k]
    return name


def laying_order() -> list[tuple[int, int]]:
    """The station's cells but the Main Reactor, each shown by the grid when its turn
    comes (the grid shows what is laid and one cell around it)."""
    cells = [(r, c) for r in ROWS for c in COLS if (r, c) != (0, 0)]
    return sorted(cells, key=lambda x: (max(abs(x[0]), abs(x[1])), x))


def stations(cat) -> list[list[str]]:
    """Each seat's 20 location names: base game only, 12 basic + 8 special.  A card that
    takes energy (Holographic Display Area, 1) is left out: laid far from the reactors it
    is refused (B 4: "This energy requirement must be paid by a location in your Space
    Station that has energy cubes on it and within 2 distance")."""
    locs = [c for c in cat if c.category == "location" and c.extra.get("set") == "base"
            and not c.energy]
    basics = sorted(c.name for c in locs if c.extra.get("kind") == "basic")
    specials = sorted(c.name for c in locs if c.extra.get("kind") == "special")
    out = []
    for k in range(len(PLAYERS)):
        b = [basics[(k * 5 + i) % len(basics)] for i in range(12)]
        s = [specials[(k * 8 + i) % len(specials)] for i in range(8)]
        mixed = [x for pair in zip(b[:8], s) for x in pair] + b[8:]
        out.append(mixed)
    return out


def lay_station(app, count: Count, names: list[str], all_names: list[str], *,
                credits: int, vp: int) -> None:
    """Lay one station through the seat page's laying panel, counting every tap."""
    from companion.ui.ats_lay import cell_class
    from widgetkit import one
    panel = one(app.root, "lay-panel")
    what, card, cubes = (one(panel, "lay-what"), one(panel, "lay-card"),
                         one(panel, "lay-cubes"))
    put = one(panel, "lay-put")

    def choose(widget, value, label):
        if widget.value != value:
            count.tap(label, lambda: setattr(widget, "value", value))

    # the Main Reactor is the cell selected when the panel opens
    choose(cubes, MAIN_CUBES, "cube count")
    count.tap("Put it here", put.click)
    names = list(names)
    # the page puts the cursor in the name field when a cell is tapped (ats_lay._select
    # calls its focus()): a tap on the field is counted only when the page did not
    focused: list[int] = []
    card.focus = lambda: focused.append(1)       # type: ignore[method-assign]
    for i, at in enumerate(laying_order()):
        focused.clear()
        count.tap("a cell of the grid", one(app.root, cell_class(at)).click)
        if i in REACTORS:
            choose(what, "reactor", "Power Reactor (what lies there)")
            choose(cubes, REACTORS[i], "cube count")
            count.tap("Put it here", put.click)
        else:
            name = names.pop(0)
            prefix = shortest_prefix(name, all_names)
            if not focused:
                count.tap("focus the name field")
            count.type("card names", prefix, lambda: setattr(card, "value", prefix))
            if prefix != name:
                count.tap("pick the name from the list", lambda: setattr(card, "value", name))
            # a name picked whole is put at once by the page: Put only when it was not
            if one(app.root, cell_class(at)).description != name:
                count.tap("Put it here", put.click)
    assert not names, names
    for cls, value in (("lay-credits", credits), ("lay-vp", vp)):
        box = one(panel, cls)
        count.tap("focus credits / track VP")
        count.type("credits and track VP digits", str(value),
                   lambda: setattr(box, "value", value))
    count.tap("Lay the station", one(panel, "lay-station").click)


def final_table_shown(box) -> bool:
    """Whether the page shows the final table (an HTML holding ``final-table``)."""
    v = getattr(box, "value", None)
    if isinstance(v, str) and "final-table" in v:
        return True
    return any(final_table_shown(k) for k in getattr(box, "children", ()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="2 players (Ana, Ben) instead of 4: the same page, half the seats")
    args = ap.parse_args(argv)
    players = PLAYERS[:2] if args.quick else PLAYERS
    home = tempfile.mkdtemp(prefix="bench-layout-")
    os.environ["COMPANION_HOME"] = home
    from companion.ats.catalogue import Card, Catalogue, save_user_card
    from companion.ats.game import Game
    from companion.table.store import Store
    from companion.ui.app import App
    from widgetkit import find, one, said

    cat = Catalogue.shipped()
    all_names = list(cat.names("location"))
    store = Store(Path(home) / "games.sqlite")

    # -- the host starts the game (setup screen) -------------------------------------------
    host, setup = App(store), Count()
    for name, box in zip(players, host.ats.setup_part.name_boxes):
        setup.tap("focus a player's name box")
        setup.type("players' names", name, lambda box=box, name=name: setattr(box, "value", name))
    setup.tap("Score a finished game", lambda: setattr(one(host.root, "setup-laid"), "value", True))
    setup.tap("Start the game", one(host.root, "start-game").click)
    gid = store.games()[0]["id"]
    assert host.ats.game is not None and host.ats.game.setup.options.get("laid") == "final", said(host)

    # -- each seat lays its own station ------------------------------------------------------
    plan = stations(cat)
    seats: dict[str, Count] = {}
    app = host
    for k, player in enumerate(players):
        app = App(Store(store.path))
        app.apply_query(f"game={gid}&seat={player}")
        c = seats[player] = Count()
        lay_station(app, c, plan[k], all_names, credits=CREDITS[k], vp=TRACK_VP[k])
        entries = [a for a in store.load(gid)["actions"] if a["player"] == player]
        if len(entries) != 1 or entries[0]["do"] != "lay":
            raise SystemExit(f"the page did not lay {player}'s station: {said(app)}")
        cells = entries[0]["cells"]
        assert sum("card" in x for x in cells) == 20 and len(cells) == 24, cells
    g = app.ats.game
    assert g.state.finished, "every station laid, the game must be at its end"
    needs = g.final_needs()
    assert not needs["blocked"] and not needs["manual"], needs
    # the first time, the final table asks the abilities of every laid card whose
    # abilities nobody has typed (no build asked for them: scoring.unknown_for_scoring);
    # the card form is not driven here.  A returning table has them in its catalogue:
    # for the figures below each is given PLACEHOLDER abilities (none), as if typed.
    asked = [v["card"] for v in needs["values"]]
    from companion.ats.scoring import END_ABILITIES
    assert all(v["fields"] == [END_ABILITIES] for v in needs["values"]), needs
    from companion.ats.catalogue import parse_card
    for name in asked:
        d = g.catalogue[name].to_dict() if hasattr(g.catalogue[name], "to_dict") else None
        if d is None:
            raise SystemExit("cannot write a placeholder definition for " + name)
        g.define(parse_card({**d, "abilities": []}))
    assert not any(g.final_needs().values()), g.final_needs()
    score = g.score()
    assert asked or final_table_shown(app.root), "the final table is not shown on the last seat's page"

    # -- figures -----------------------------------------------------------------------------
    ana = seats[PLAYERS[0]]
    print("Laying a 20-location station on the Among the Stars laying page "
          f"(companion/ui/ats_lay.py), {len(players)} players, each seat on its own page"
          + (" (--quick: 2 of the 4)" if args.quick else ""))
    print(f"  station: 4 x 6 cells = Main Reactor ({MAIN_CUBES} cube) + 20 locations "
          f"(shipped base-game names) + 3 Power Reactors ({', '.join(map(str, REACTORS.values()))}"
          " cubes); every lay accepted: one lay entry a player")
    print(f"  {PLAYERS[0]}'s names as typed (the shortest prefix no other of the catalogue's "
          f"{len(all_names)} location names starts with, then picked from the list):")
    print("    " + ", ".join(f"{shortest_prefix(n, all_names)!r}->{n}" for n in plan[0]))
    strict = sum(len(shortest_prefix(n, all_names, "contains")) for n in plan[0])
    print(f"  {sum(len(shortest_prefix(n, all_names)) for n in plan[0])} keystrokes for these "
          f"names (no other name starts with the prefix); {strict} if the prefix must be "
          "contained in no other name (a browser listing every option that contains it)")
    print(f"  credits and track VP typed are PLACEHOLDERS typed as the player would "
          f"({CREDITS[0]} credits, {TRACK_VP[0]} VP for {PLAYERS[0]}), not printed numbers")
    print()
    print(f"{'seat':6} {'taps':>5} {'name keys':>10} {'other keys':>11} {'total':>6} "
          f"{'handlers ms':>12} {'estimate s':>11}")
    for player, c in seats.items():
        print(f"{player:6} {c.n_taps:5d} {c.name_keys:10d} {c.other_keys:11d} "
              f"{c.n_taps + c.name_keys + c.other_keys:6d} {c.handler_s * 1000:12.1f} "
              f"{c.seconds():11.1f}")
    print(f"{'setup':6} {setup.n_taps:5d} {setup.name_keys:10d} {setup.other_keys:11d} "
          f"{setup.n_taps + setup.other_keys:6d} {setup.handler_s * 1000:12.1f} "
          f"{setup.seconds():11.1f}   (the host, before the seats: {len(players)} player names "
          "typed)")
    print()
    print(f"Where {PLAYERS[0]}'s {ana.n_taps} taps go:")
    for what, n in ana.taps.most_common():
        print(f"  {n:3d}  {what}")
    print()
    worst = max(c.n_taps for c in seats.values())
    ok = worst <= TAP_TARGET
    print(f"{'PASS' if ok else 'MISS'}  a 20-card station in <= {TAP_TARGET} taps: {worst} taps "
          "(cells, focusing a field, picking a name, Power Reactor, cube counts, Put it here, "
          f"Lay), plus {ana.name_keys} keystrokes for {PLAYERS[0]}'s 20 names "
          f"(not in the {TAP_TARGET}) and {ana.other_keys} for credits and VP")
    slowest = max(seats.values(), key=Count.seconds)
    total = setup.seconds() + slowest.seconds()
    ok = total <= TABLE_TARGET_S
    print(f"{'PASS' if ok else 'MISS'}  the whole {len(players)}-player scoring in <= {TABLE_TARGET_S / 60:.0f} "
          f"min: {total:.0f} s = host's setup {setup.seconds():.0f} s + the slowest seat "
          f"{slowest.seconds():.0f} s (seats in parallel; {TAP_S} s a tap, {KEY_S} s a keystroke, "
          "assumed; the handlers' time measured), a returning table whose catalogue holds "
          f"the laid cards' abilities (winner: {', '.join(score.winners)}); a first table "
          f"also types the abilities of {len(asked)} cards (below)")

    # -- card values: first time versus a returning table ------------------------------------
    dup_names = list(plan[0])
    basic = next(n for n in dup_names if cat[n].extra.get("kind") == "basic"
                 and cat[n].max is None)
    dup_names[dup_names.index(next(n for n in dup_names if n != basic
                                   and cat[n].extra.get("kind") == "basic"))] = basic
    rec = Game({"players": players, "options": {"laid": "final"}}).to_record()
    first = store.create(rec, title="first time")
    page = App(Store(store.path))
    page.apply_query(f"game={first}&seat={PLAYERS[0]}")
    c1 = Count()
    lay_station(page, c1, dup_names, all_names, credits=CREDITS[0], vp=TRACK_VP[0])
    refused = store.load(first)["actions"] == []
    words = said(page)
    forms = [f for f in find(page.root, "card-form") if f.layout.display != "none"]
    assert refused and "max" in words, words
    save_user_card(Card(name=basic, category="location", max=PLACEHOLDER_MAX))
    again = store.create(Game({"players": players, "options": {"laid": "final"}}).to_record(),
                         title="returning")
    page2 = App(Store(store.path))
    page2.apply_query(f"game={again}&seat={PLAYERS[0]}")
    c2 = Count()
    lay_station(page2, c2, dup_names, all_names, credits=CREDITS[0], vp=TRACK_VP[0])
    laid = [a["do"] for a in store.load(again)["actions"]]
    if laid != ["lay"]:
        raise SystemExit(f"the returning table's station was not laid: {said(page2)}")
    print()
    print(f"Card values: the same station with two '{basic}' (MAX unknown in the shipped "
          "catalogue)")
    print(f"  first time: {c1.n_taps} taps, {c1.name_keys + c1.other_keys} keystrokes, then "
          f"REFUSED: \"{words.strip()[:150]}...\"; the page shows "
          + ("a card form for it beside the button: a tap on MAX, at least "
             if forms else "no card form for it: MAX is typed elsewhere (the catalogue; not "
             "driven nor counted here), at least ")
          + f"{len(str(PLACEHOLDER_MAX))} keystroke (the bench's "
          f"{PLACEHOLDER_MAX} is a PLACEHOLDER typed as the player would, not a printed "
          "number)" + (", Save (1 tap)" if forms else "") + ", then Lay again (1 tap)")
    print(f"  returning table (MAX already in the player's catalogue): {c2.n_taps} taps, "
          f"{c2.name_keys + c2.other_keys} keystrokes, laid at once")
    print("  the 20 distinct names a station above: the lay asked for no card value")
    print(f"  the final table, FIRST TIME: asks the abilities of {len(asked)} laid cards whose "
          "abilities nobody has typed (B 6 scores every end-of-game ability; no build asked "
          "for them): a card form each, not driven nor counted here, so a first table takes "
          "longer than the figures above")
    print(f"  the final table, RETURNING table (those abilities in the player's catalogue; "
          f"here PLACEHOLDERS: none, as if typed, not printed facts): asks nothing; the "
          "figures above are this case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
