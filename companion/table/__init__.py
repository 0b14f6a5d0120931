"""The table layer: what the companion does with saved games of any game, built on the
base (companion.core) and naming no game.

registry (the games, each registered by its own package's descriptor,
companion.core.gamekind), store (the SQLite saved games), history and stats (derived
tables and statistics), plays_export / plays_import (BG Stats and BoardGameGeek),
playtime (timer and play details), joining (page addresses, QR codes), capabilities
(the seats' and the table view's links under --lan), csvsafe (the
one CSV writer).  No widgets here.  See docs/architecture.md.
"""
