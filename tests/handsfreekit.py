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
#: Ana's year, as she says it (turn by turn), and what the store must hold
YEAR = [("build quartz garden at one zero", "confirm",
         {"do": "build", "card": "Quartz Garden", "at": [1, 0]}),
        ("orbital bakery at zero one energy from the main reactor", "confirm",
         {"do": "build", "card": "Orbital Bakery", "at": [0, 1], "energy_from": [[0, 0]]}),
        ("reactor with the garden left of the main reactor", "confirm",
         {"do": "reactor", "card": "Garden", "at": [0, -1]}),
        ("build bio lab above the main reactor energy from the main reactor and the "
         "power reactor", "confirm",
         {"do": "build", "card": "Bio Lab", "at": [-1, 0], "energy_from": [[0, 0], [0, -1]]}),
        ("discard turret", "discard", {"do": "discard", "card": "Turret"}),
        ("quartz garden below the quartz garden", "confirm",
         {"do": "build", "card": "Quartz Garden", "at": [2, 0]})]
