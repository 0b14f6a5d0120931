"""Ana's hands-free year (issue 40), shared by the browser test
(tests/browser/test_hands_free_browser.py: her phone and Ben's) and its in-process twin
(tests/test_browser_twins_inprocess.py: the table view).

The cards are INVENTED ("Quartz Garden", "Orbital Bakery", "Bio Lab", with numbers made up
here and defined in the record): no real card's numbers."""
from __future__ import annotations

CARDS = [{"name": n, "types": [t], "cost": 1, "energy": e, "vp": v, "max": "none",
          "abilities": []}
         for n, t, e, v in (("Quartz Garden", "recreational", 0, 1),
                            ("Orbital Bakery", "business", 1, 1),
                            ("Bio Lab", "business", 2, 2))]
#: Ana's year, as she says it at the table (issue 52: contractions, a misheard name, the
#: page's sides and counts, the verbs players use), turn by turn, and what the store must
#: hold
YEAR = [("I'm gonna lay down the quartz garden underneath", "confirm",
         {"do": "build", "card": "Quartz Garden", "at": [1, 0]}),
        ("anna goes with the orbital bakery to the right", "confirm",
         {"do": "build", "card": "Orbital Bakery", "at": [0, 1], "energy_from": [[0, 0]]}),
        ("I'll use the garden to build a power reactor on the left", "confirm",
         {"do": "reactor", "card": "Garden", "at": [0, -1]}),
        ("bio lab up top, one cube from the main reactor and one from the power reactor",
         "confirm",
         {"do": "build", "card": "Bio Lab", "at": [-1, 0], "energy_from": [[0, 0], [0, -1]]}),
        ("I'm selling the turret", "discard", {"do": "discard", "card": "Turret"}),
        ("quartz garden below the orbital bakery", "confirm",
         {"do": "build", "card": "Quartz Garden", "at": [1, 1]})]
#: before her last turn the phone writes "right" for "below": the line says it back
#: ("at 0,2, right of the Orbital Bakery") before Confirm, and she cancels it
MISHEARD = ("quartz garden right of the orbital bakery", "at 0,2, right of the Orbital Bakery")
