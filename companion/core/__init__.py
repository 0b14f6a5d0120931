"""The base both games and the table layer build on: errors, the rule codes (rules),
the bounded record reader (record, safeio), paths, escaping (htmlsafe), the legality
queries (protocol), the record's seed (chance), what each kind of page may write
(roles) and the game descriptor (gamekind).

No widgets here, no game and nothing of the table layer (companion.table).  See
docs/architecture.md.
"""
