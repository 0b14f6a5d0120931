"""Among the Stars: the engine (game: the Game class; setup, state, turns, build,
effects, spaceships, modes: the rules along the rulebook's chapters), the station
grid, the ability vocabulary (vocabulary: typed abilities) and their evaluation
(abilities), the catalogue, seeded decks, scoring, what-if views, HTML rendering and
the record's shape checks (record).  No widgets here.  See docs/architecture.md.

The main names are also exported by ``companion`` itself (``from companion import Game``).
"""
