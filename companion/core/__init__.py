"""What both games share: errors, paths, the bounded record reader (record, safeio),
the saved-games store, history and statistics, play details and exports, and the
game registry (``registry``: the one place where record formats are told apart),
and what each kind of page may write (``roles``).

No widgets here, and nothing of one game's rules.  See docs/architecture.md.
"""
