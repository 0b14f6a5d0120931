"""Among the Stars: setup, state and turn flow (game), station grid, abilities,
catalogue, seeded decks, scoring, what-if views, HTML rendering and the record's
shape checks (record).  No widgets here.  See docs/architecture.md.

The main names are also exported by ``companion`` itself (``from companion import Game``).
"""
